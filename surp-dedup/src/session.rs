//! Sessions (`docs/spec.md` section 9.1): deduplication tables that last
//! across the messages of a stream, within a budget both sides agree on.

use std::marker::PhantomData;

use serde::de::{Deserialize, DeserializeSeed};
use serde::ser::Serialize;
use surp::__private::session::{self as rules, Budget, Header, SessionTables};
use surp::__private::{error, error_at};
use surp::error::SessionError;
use surp::{ErrorKind, Result};

use crate::dictionary::{Dictionary, initial_encoder};
use crate::encoder::{Encoder, TablesMark};

/// The settings both ends of a session share: the tables' budget and the
/// dictionary they start from, if any; and, for the decoder, the limits of
/// [`surp::Options`].
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use surp_dedup::SessionOptions;
///
/// #[derive(Serialize, Deserialize, Debug, PartialEq)]
/// struct LogLine { level: String, service: String, message: String }
///
/// # fn main() -> Result<(), surp::Error> {
/// let options = SessionOptions::new();
/// let mut encoder = options.encoder();
/// let mut decoder = options.decoder();
///
/// // The header goes first; it states the budget.
/// decoder.read_header(&encoder.header())?;
///
/// for i in 0..100 {
///     let line = LogLine {
///         level: "info".into(),
///         service: "checkout".into(),
///         message: format!("order {i} paid"),
///     };
///     let message = encoder.encode(&line)?;
///     // After the first message, keys and repeated strings are references.
///     if i > 0 {
///         assert!(message.len() < surp::to_vec(&line)?.len() / 2);
///     }
///     assert_eq!(decoder.decode::<LogLine>(&message)?, line);
/// }
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct SessionOptions {
    budget: Budget,
    dictionary: Option<Dictionary>,
    decode: surp::Options,
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions::new()
    }
}

/// The default budget: 16,384 string slots, 2,048 shapes, 1 MiB. A decoder
/// holds up to about three times the bytes, plus one message. How the
/// budget trades memory for size is in the spec's design notes
/// (`examples/session_budgets.rs` measures it).
pub const DEFAULT_BUDGET: Budget = Budget {
    strings: 16 * 1024,
    shapes: 2 * 1024,
    bytes: 1024 * 1024,
};

impl SessionOptions {
    /// The default budget ([`DEFAULT_BUDGET`]), no dictionary, and the
    /// default decoding limits.
    pub fn new() -> SessionOptions {
        SessionOptions {
            budget: DEFAULT_BUDGET,
            dictionary: None,
            decode: surp::Options::new(),
        }
    }

    /// What the tables may hold beyond their initial state before they
    /// tumble back to it: string slots, shapes, and bytes (each string
    /// counted as its length plus 32, each shape as 32 plus its keys'
    /// lengths plus 8 per key). For a decoder, the most a header may ask
    /// for: its memory is bounded by this, plus what one message adds.
    ///
    /// String slots are capped at 2^24 and shapes at 2^16
    /// ([`Budget::MAX`]), the most the tables can hold and the most a
    /// header may state: a larger number would behave the same, but its
    /// header would be refused by every decoder.
    pub fn budget(mut self, strings: u32, shapes: u32, bytes: u32) -> SessionOptions {
        self.budget = Budget {
            strings: strings.min(Budget::MAX.strings),
            shapes: shapes.min(Budget::MAX.shapes),
            bytes,
        };
        self
    }

    /// The dictionary the tables start from (and return to), which the
    /// header names.
    pub fn dictionary(mut self, dictionary: Dictionary) -> SessionOptions {
        self.dictionary = Some(dictionary);
        self
    }

    /// The decoder's limits (depth, lengths, allocation, expansion).
    pub fn decode_limits(mut self, limits: surp::Options) -> SessionOptions {
        self.decode = limits;
        self
    }

    /// An encoder for one session.
    pub fn encoder(&self) -> SessionEncoder {
        SessionEncoder::new(self)
    }

    /// A decoder for one session, which accepts a header within this
    /// budget that names this dictionary (or none, if it has none).
    pub fn decoder(&self) -> SessionDecoder {
        SessionDecoder::new(self)
    }

    fn header(&self) -> Header {
        Header {
            budget: self.budget,
            dictionary: self.dictionary.as_ref().map(Dictionary::id),
        }
    }
}

/// The count of string slots, shapes and bytes (as the budget counts them)
/// that the tables hold beyond their initial state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableUsage {
    /// String slots.
    pub strings: usize,
    /// Shapes.
    pub shapes: usize,
    /// Bytes, as the budget counts them.
    pub bytes: usize,
}

/// Writes the messages of one session.
///
/// Every message refers to the strings and shapes of the messages before
/// it, so the decoder must read every message, in order: see
/// [`SessionDecoder`]. A message that fails to encode leaves no trace: the
/// next message starts again from the tables' initial state, and says so.
pub struct SessionEncoder {
    enc: Encoder,
    header: Header,
    initial: TablesMark,
    usage: TableUsage,
    next: u64,
    /// The tables returned to their initial state other than by tumbling:
    /// the next message tells the decoder.
    reset_next: bool,
}

impl SessionEncoder {
    fn new(options: &SessionOptions) -> SessionEncoder {
        let (enc, initial) = initial_encoder(options.dictionary.as_ref());
        SessionEncoder {
            enc,
            header: options.header(),
            initial,
            usage: TableUsage::default(),
            next: 0,
            reset_next: false,
        }
    }

    /// The session's header document, which the decoder reads first.
    pub fn header(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(24);
        self.header.write(&mut out);
        out
    }

    /// Encodes the next message.
    pub fn encode<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(64);
        self.append_to_vec(&mut out, value)?;
        Ok(out)
    }

    /// Encodes the next message at the end of `out`. On an error `out` is
    /// left as it was, and the session goes on: the next message starts
    /// from the tables' initial state.
    pub fn append_to_vec<T: Serialize + ?Sized>(
        &mut self,
        out: &mut Vec<u8>,
        value: &T,
    ) -> Result<()> {
        if self.next == u64::MAX {
            return Err(error(ErrorKind::Session(SessionError::SequenceExhausted)));
        }
        let mark = self.enc.tables_mark();
        let (seq, reset) = (self.next, self.reset_next);
        let result = self.enc.append_prefixed(
            out,
            |out| rules::write_message_prefix(out, seq, reset),
            value,
        );
        if let Err(e) = result {
            // The decoder never sees this message: the next one starts
            // from the initial state, and says so.
            self.reset();
            return Err(e);
        }
        let (strings, shapes, bytes) = self.enc.added_since(mark);
        self.usage.strings += strings;
        self.usage.shapes += shapes;
        self.usage.bytes = self.usage.bytes.saturating_add(bytes);
        if self.over_budget() {
            // Both sides tumble here: the next message needs no flag.
            self.enc.truncate_tables(self.initial);
            self.usage = TableUsage::default();
        }
        self.next += 1;
        self.reset_next = false;
        Ok(())
    }

    fn over_budget(&self) -> bool {
        let usage = &self.usage;
        (self.header.budget).exceeded_by(usage.strings, usage.shapes, usage.bytes)
    }

    /// Returns the tables to their initial state; the next message tells
    /// the decoder to do the same.
    pub fn reset(&mut self) {
        self.enc.truncate_tables(self.initial);
        self.usage = TableUsage::default();
        self.reset_next = true;
    }

    /// How many messages have been encoded.
    pub fn messages(&self) -> u64 {
        self.next
    }

    /// What the tables hold beyond their initial state.
    pub fn usage(&self) -> TableUsage {
        self.usage
    }
}

/// Reads the messages of one session: first its header
/// ([`SessionDecoder::read_header`]), then every message in order.
///
/// A message is never decoded against tables in another state than the
/// encoder's: a message lost, reordered, replayed or from another session
/// fails its number check; a header naming another dictionary, or a budget
/// above this decoder's, is refused; and after a message fails to decode,
/// every later one fails until the encoder sends a reset.
pub struct SessionDecoder {
    options: SessionOptions,
    /// The tables, once a header has been read.
    tables: Option<SessionTables>,
    /// The number the next message must carry (a reset message at least
    /// it); `None` once a message took the last number, 2^64 − 1, after
    /// which no message is in order.
    next: Option<u64>,
    broken: bool,
}

impl SessionDecoder {
    fn new(options: &SessionOptions) -> SessionDecoder {
        SessionDecoder {
            options: options.clone(),
            tables: None,
            next: Some(0),
            broken: false,
        }
    }

    /// Reads a session's header, which starts the session afresh.
    pub fn read_header(&mut self, input: &[u8]) -> Result<()> {
        let header = Header::read(input)?;
        header.budget.check(&self.options.budget)?;
        let ours = self.options.dictionary.as_ref().map(Dictionary::id);
        if header.dictionary != ours {
            return Err(error_at(
                ErrorKind::Session(SessionError::WrongDictionary {
                    expected: ours,
                    found: header.dictionary,
                }),
                rules::FLAG_AT,
            ));
        }
        let limits = self.options.decode.clone();
        self.tables = Some(match &self.options.dictionary {
            Some(dictionary) => dictionary.tables(limits, header.budget),
            None => SessionTables::new(limits, header.budget),
        });
        self.next = Some(0);
        self.broken = false;
        Ok(())
    }

    /// Decodes the next message, borrowing from `input` where `T` can
    /// (strings of earlier messages are copied).
    pub fn decode<'de, T: Deserialize<'de>>(&mut self, input: &'de [u8]) -> Result<T> {
        self.decode_seed(input, PhantomData)
    }

    /// Decodes the next message through a [`DeserializeSeed`]: for values
    /// built with state of the caller's, as `serde::de::DeserializeSeed`
    /// allows with any serde deserializer. The checks are those of
    /// [`SessionDecoder::decode`]. If the seed panics, the decoder is left
    /// without its tables: drop it, and start again from a header.
    ///
    /// ```
    /// use serde::de::{Deserialize, DeserializeSeed, Deserializer};
    /// use surp_dedup::SessionOptions;
    ///
    /// /// Appends the message's strings to a list the caller keeps.
    /// struct AppendTo<'a>(&'a mut Vec<String>);
    ///
    /// impl<'de> DeserializeSeed<'de> for AppendTo<'_> {
    ///     type Value = usize;
    ///     fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
    ///         let items = Vec::<String>::deserialize(d)?;
    ///         self.0.extend(items);
    ///         Ok(self.0.len())
    ///     }
    /// }
    ///
    /// # fn main() -> Result<(), surp::Error> {
    /// let options = SessionOptions::new();
    /// let (mut encoder, mut decoder) = (options.encoder(), options.decoder());
    /// decoder.read_header(&encoder.header())?;
    /// let mut all = Vec::new();
    /// decoder.decode_seed(&encoder.encode(&["checkout", "paid"])?, AppendTo(&mut all))?;
    /// let n = decoder.decode_seed(&encoder.encode(&["checkout"])?, AppendTo(&mut all))?;
    /// assert_eq!((n, all), (3, vec!["checkout".to_owned(), "paid".into(), "checkout".into()]));
    /// # Ok(()) }
    /// ```
    pub fn decode_seed<'de, S: DeserializeSeed<'de>>(
        &mut self,
        input: &'de [u8],
        seed: S,
    ) -> Result<S::Value> {
        let Some(tables) = &mut self.tables else {
            return Err(error_at(ErrorKind::Session(SessionError::MissingHeader), 0));
        };
        // The kind before what follows it: a document of a kind that has
        // no place in a session is refused at byte 1 even when it is cut
        // short (spec section 9.1).
        let kind = rules::kind_of(input)?;
        let misplaced = match kind {
            rules::HEADER => Some(SessionError::UnexpectedHeader),
            rules::DICTIONARY => Some(SessionError::UnknownKind(kind)),
            _ => None,
        };
        if let Some(e) = misplaced {
            return Err(error_at(ErrorKind::Session(e), 1));
        }
        let (seq, value_at) = rules::message_number(input)?;
        let reset = kind == rules::RESET;
        // A reset may skip numbers (the messages it follows no longer
        // matter) but never goes back; any other message is the next.
        let in_order = match self.next {
            Some(next) if reset => seq >= next,
            Some(next) => seq == next,
            None => false,
        };
        if !in_order {
            let expected = self.next.unwrap_or(u64::MAX);
            return Err(error_at(
                ErrorKind::Session(SessionError::Sequence {
                    expected,
                    found: seq,
                }),
                2,
            ));
        }
        if reset {
            tables.reset();
            self.broken = false;
        } else if self.broken {
            return Err(error_at(ErrorKind::Session(SessionError::Broken), 0));
        }
        self.next = seq.checked_add(1);
        match tables.decode(input, value_at, true, seed) {
            Ok((value, _tumbled)) => Ok(value),
            Err(e) => {
                self.broken = true;
                Err(e)
            }
        }
    }

    /// What the tables hold beyond their initial state.
    pub fn usage(&self) -> TableUsage {
        let (strings, shapes, bytes) = self.tables.as_ref().map_or((0, 0, 0), SessionTables::usage);
        TableUsage {
            strings,
            shapes,
            bytes,
        }
    }
}
