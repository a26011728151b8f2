//! Options of the deduplication layer: table sizes, and the decoder's limits.

use std::io;

use serde::de::{Deserialize, DeserializeOwned};
use serde::ser::Serialize;
use surp::__private::{dedup, wire};

use crate::encoder::Encoder;
use crate::ser::Serializer;

/// Table sizes for encoding and limits for decoding.
///
/// The string and shape table sizes bound both sides: the encoder gives no
/// more slots than this, and the decoder refuses references beyond it, so
/// a hostile document cannot make the decoder's tables grow past them.
/// Documents written with larger tables than a reader allows are rejected
/// with an error that names the limit.
///
/// ```
/// # fn main() -> Result<(), surp::Error> {
/// let opts = surp_dedup::Options::new().max_dedup_strings(1024).max_dedup_shapes(64);
/// let names = vec!["north", "south", "north", "north"];
/// let bytes = opts.to_vec(&names)?;
/// assert_eq!(opts.from_slice::<Vec<&str>>(&bytes)?, names);
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    max_dedup_strings: usize,
    max_dedup_shapes: usize,
    dedup_strings: bool,
    decode: surp::Options,
}

impl Default for Options {
    fn default() -> Self {
        Options::new()
    }
}

/// The context hash of a document's root value.
pub(crate) const ROOT_CONTEXT: u64 = 0x5375_7270_526f_6f74;

impl Options {
    /// Default table sizes (`surp::DEFAULT_MAX_DEDUP_STRINGS` strings,
    /// `surp::DEFAULT_MAX_DEDUP_SHAPES` shapes) and surp's default limits.
    pub fn new() -> Options {
        Options {
            max_dedup_strings: surp::DEFAULT_MAX_DEDUP_STRINGS,
            max_dedup_shapes: surp::DEFAULT_MAX_DEDUP_SHAPES,
            dedup_strings: true,
            decode: surp::Options::new(),
        }
    }

    /// The most strings the string table holds (at most 2^24).
    pub fn max_dedup_strings(mut self, slots: usize) -> Options {
        self.max_dedup_strings = dedup::string_table_limit(slots);
        self
    }

    /// The most shapes (map key sequences) the shape table holds (at most 2^16).
    pub fn max_dedup_shapes(mut self, shapes: usize) -> Options {
        self.max_dedup_shapes = dedup::shape_table_limit(shapes);
        self
    }

    /// Whether the encoder deduplicates strings (default: yes). With
    /// `false` it deduplicates map key sets only: a map whose keys repeat
    /// an earlier map's is still written as a shape reference, but every
    /// string, key or value, that is written out is a literal, and no string
    /// is hashed or copied into a table. That is the deduplicated encoding
    /// of an encoder whose string table holds no slot, which
    /// `docs/spec.md` (section 7.1) allows; any decoder reads it, and
    /// decoding with these options is unchanged.
    ///
    /// It suits data whose field names repeat but whose strings rarely do
    /// (ids, free text): each record's field names shrink to a shape
    /// reference, and since no string is hashed it encodes faster than the
    /// default wherever strings are many. Where strings repeat it is much
    /// larger than the default. The Deduplication chapter of the guide has
    /// the measured sizes and times.
    ///
    /// ```
    /// # fn main() -> Result<(), surp::Error> {
    /// #[derive(serde::Serialize)]
    /// struct Visit<'a> {
    ///     page: &'a str,
    ///     ms: u32,
    /// }
    /// let visits = [Visit { page: "/home", ms: 12 }, Visit { page: "/home", ms: 9 }];
    /// let both = surp_dedup::to_vec(&visits)?;
    /// let shapes = surp_dedup::Options::new()
    ///     .dedup_strings(false)
    ///     .to_vec(&visits)?;
    /// // The second record repeats the first one's keys, as a one-byte
    /// // shape reference, in both; only the default also refers back to
    /// // its "/home".
    /// assert!(both.len() < shapes.len());
    /// assert!(shapes.len() < surp::to_vec(&visits)?.len());
    /// # Ok(()) }
    /// ```
    pub fn dedup_strings(mut self, on: bool) -> Options {
        self.dedup_strings = on;
        self
    }

    /// The decoder's other limits (depth, lengths, allocation). Their
    /// deduplication table limits are replaced by this `Options`' sizes.
    pub fn decode_limits(mut self, limits: surp::Options) -> Options {
        self.decode = limits;
        self
    }

    /// Whether the decoder may hand a struct its values by position
    /// (default: yes); see
    /// [`surp::Options::positional_structs`](surp::Options::positional_structs).
    /// Turn it off for a hand-written `Deserialize` whose visitor has no
    /// `visit_seq`.
    pub fn positional_structs(mut self, on: bool) -> Options {
        self.decode = self.decode.positional_structs(on);
        self
    }

    fn decoder(&self) -> surp::Options {
        self.decode
            .clone()
            .max_dedup_strings(self.max_dedup_strings)
            .max_dedup_shapes(self.max_dedup_shapes)
    }

    /// Encodes `value`, deduplicating strings and map key sets.
    ///
    /// The result is never longer than `surp::to_vec(value)`; when nothing
    /// repeats it is exactly that.
    pub fn to_vec<T: Serialize + ?Sized>(&self, value: &T) -> surp::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(128);
        self.append_to_vec(&mut out, value)?;
        Ok(out)
    }

    /// Encodes `value` at the end of `out`, reusing its capacity: the way to
    /// encode many documents without allocating a buffer for each.
    ///
    /// The bytes appended are those [`Options::to_vec`] returns. On an error
    /// `out` is left as it was.
    ///
    /// ```
    /// # fn main() -> Result<(), surp::Error> {
    /// let opts = surp_dedup::Options::new();
    /// let mut buf = Vec::new();
    /// for day in [["rain", "rain"], ["sun", "sun"]] {
    ///     buf.clear();
    ///     opts.append_to_vec(&mut buf, &day)?;
    ///     assert_eq!(buf, opts.to_vec(&day)?);
    /// }
    /// # Ok(()) }
    /// ```
    pub fn append_to_vec<T: Serialize + ?Sized>(
        &self,
        out: &mut Vec<u8>,
        value: &T,
    ) -> surp::Result<()> {
        self.append_counting_moves(out, value).map(|_| ())
    }

    /// [`Options::append_to_vec`], and how many bytes the encoder moved
    /// within its output after writing them.
    pub(crate) fn append_counting_moves<T: Serialize + ?Sized>(
        &self,
        out: &mut Vec<u8>,
        value: &T,
    ) -> surp::Result<usize> {
        let base = out.len();
        // Without string deduplication the table gets no slot: the keys of
        // explicit maps still go through it (their text makes shapes), and
        // with a slot they would become references.
        let strings = if self.dedup_strings {
            self.max_dedup_strings
        } else {
            0
        };
        let mut enc = Encoder::for_document(std::mem::take(out), strings, self.max_dedup_shapes);
        enc.out.push(wire::DEDUP_MARKER);
        // Two serializers: the choice is made once per document, not per string.
        let result = if self.dedup_strings {
            value.serialize(Serializer::<true>::new(&mut enc, ROOT_CONTEXT))
        } else {
            value.serialize(Serializer::<false>::new(&mut enc, ROOT_CONTEXT))
        };
        if result.is_ok() {
            enc.finish(base);
        }
        *out = std::mem::take(&mut enc.out);
        let moved = enc.moved;
        enc.end_document();
        if let Err(e) = result {
            out.truncate(base);
            return Err(e);
        }
        Ok(moved)
    }

    /// Encodes `value` into `writer`.
    ///
    /// The document is built in memory first, because the encoder may
    /// rewrite a map after it has seen all of its keys; the writer receives
    /// it in one `write_all`.
    pub fn to_writer<W: io::Write, T: Serialize + ?Sized>(
        &self,
        mut writer: W,
        value: &T,
    ) -> surp::Result<()> {
        let bytes = self.to_vec(value)?;
        writer
            .write_all(&bytes)
            .map_err(|e| surp::__private::error(surp::ErrorKind::Io(e)))
    }

    /// Decodes a plain or deduplicated document, borrowing where `T` can
    /// (strings reached through references borrow too).
    pub fn from_slice<'de, T: Deserialize<'de>>(&self, input: &'de [u8]) -> surp::Result<T> {
        self.decoder().from_slice(input)
    }

    /// Decodes a plain or deduplicated document from a reader.
    pub fn from_reader<R: io::Read, T: DeserializeOwned>(&self, reader: R) -> surp::Result<T> {
        self.decoder().from_reader(reader)
    }
}
