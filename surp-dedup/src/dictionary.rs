//! Shared dictionaries (`docs/spec.md` section 9.2): strings and shapes
//! agreed out of band, which a document can refer to without sending them.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::Arc;

use serde::de::DeserializeSeed;
use serde::{Deserialize, Serialize};
use surp::__private::session::{self as rules, SessionTables};
use surp::__private::wire;
use surp::error::SessionError;
use surp::{ErrorKind, Result, Value};

use crate::encoder::{Encoder, TablesMark};

/// The stored form of a dictionary: a plain Surp document of this map, in
/// this order.
#[derive(Serialize)]
struct Document<'a> {
    surp_dictionary: u32,
    strings: &'a [String],
    shapes: &'a [Vec<String>],
}

/// [`Document`], read back.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredDocument {
    surp_dictionary: u32,
    strings: Vec<String>,
    shapes: Vec<Vec<String>>,
}

/// A dictionary's content, shared by its clones and by the sessions that
/// start from it.
#[derive(Debug)]
struct Inner {
    strings: Vec<String>,
    shapes: Vec<Vec<String>>,
    bytes: Vec<u8>,
    id: u64,
}

/// Strings and shapes (key sequences of maps) that both sides hold before
/// a document starts, so that a document that must stand alone, such as a
/// queue record or a cache entry, can refer to them as a session's later
/// messages refer to its earlier ones.
///
/// A dictionary is stored as a Surp document ([`Dictionary::to_bytes`],
/// [`Dictionary::from_bytes`]) and named by the hash of those bytes
/// ([`Dictionary::id`]), which every document written with it carries: a
/// document decoded with another dictionary, or with none, is an error,
/// never wrong data.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use surp_dedup::Dictionary;
///
/// #[derive(Serialize, Deserialize, Debug, PartialEq)]
/// struct Event { kind: String, region: String, count: u32 }
///
/// # fn main() -> Result<(), surp::Error> {
/// let sample: Vec<Event> = (0..50)
///     .map(|i| Event { kind: ["push", "fork"][i % 2].into(), region: "eu-west-1".into(), count: i as u32 })
///     .collect();
/// let dict = Dictionary::from_samples(&sample)?;
///
/// let event = Event { kind: "push".into(), region: "eu-west-1".into(), count: 7 };
/// let alone = surp::to_vec(&event)?;
/// let with_dict = dict.to_vec(&event)?;
/// assert!(with_dict.len() < alone.len() / 2);
/// assert_eq!(dict.from_slice::<Event>(&with_dict)?, event);
///
/// // The dictionary travels out of band as bytes; its id checks that both
/// // sides hold the same one.
/// let stored = Dictionary::from_bytes(dict.to_bytes())?;
/// assert_eq!(stored.id(), dict.id());
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct Dictionary {
    inner: Arc<Inner>,
}

impl PartialEq for Dictionary {
    fn eq(&self, other: &Dictionary) -> bool {
        self.inner.bytes == other.inner.bytes
    }
}

impl Eq for Dictionary {}

/// Most strings [`Dictionary::from_samples`] keeps.
const SAMPLE_STRINGS: usize = 4096;
/// Most shapes [`Dictionary::from_samples`] keeps.
const SAMPLE_SHAPES: usize = 1024;

impl Dictionary {
    /// A dictionary of these strings (slots 0, 1, … in order) and shapes
    /// (shapes 0, 1, …), checked by the rules of `docs/spec.md` section 9.2.
    pub fn new<S, K>(strings: &[S], shapes: &[K]) -> Result<Dictionary>
    where
        S: AsRef<str>,
        K: AsRef<[S]>,
    {
        let strings: Vec<String> = strings.iter().map(|s| s.as_ref().to_owned()).collect();
        let shapes: Vec<Vec<String>> = shapes
            .iter()
            .map(|k| k.as_ref().iter().map(|s| s.as_ref().to_owned()).collect())
            .collect();
        {
            let refs: Vec<&str> = strings.iter().map(String::as_str).collect();
            let shape_refs: Vec<Vec<&str>> = shapes
                .iter()
                .map(|k| k.iter().map(String::as_str).collect())
                .collect();
            rules::check_dictionary(&refs, &shape_refs).map_err(invalid)?;
        }
        let bytes = surp::to_vec(&Document {
            surp_dictionary: 1,
            strings: &strings,
            shapes: &shapes,
        })?;
        let id = rules::dictionary_id(&bytes);
        Ok(Dictionary {
            inner: Arc::new(Inner {
                strings,
                shapes,
                bytes,
                id,
            }),
        })
    }

    /// Reads a dictionary stored by [`Dictionary::to_bytes`]. The bytes
    /// must be exactly what `to_bytes` writes, since the id is their hash.
    pub fn from_bytes(bytes: impl AsRef<[u8]>) -> Result<Dictionary> {
        let bytes = bytes.as_ref();
        let doc: StoredDocument = surp::from_slice(bytes)
            .map_err(|e| invalid(format!("not a stored dictionary: {e}")))?;
        if doc.surp_dictionary != 1 {
            return Err(invalid(format!(
                "dictionary format {} is not supported (only 1)",
                doc.surp_dictionary
            )));
        }
        let dict = Dictionary::new(&doc.strings, &doc.shapes)?;
        if dict.inner.bytes != bytes {
            return Err(invalid(
                "the document is not in the form `to_bytes` writes, which its id depends on"
                    .to_owned(),
            ));
        }
        Ok(dict)
    }

    /// A dictionary of what repeats in `samples`: the strings (values, map
    /// keys, enum variant names) and the key sequences of maps and structs
    /// that occur at least twice, most frequent first, up to 4,096 strings
    /// and 1,024 shapes.
    ///
    /// Samples should be like the values the documents will carry, and
    /// drawn apart from them: what a dictionary holds that the documents
    /// never use costs them nothing but the decoder's memory.
    pub fn from_samples<T: Serialize>(samples: &[T]) -> Result<Dictionary> {
        let mut counts = Counts::default();
        for sample in samples {
            counts.walk(&surp::to_value(sample)?);
        }
        counts.dictionary(SAMPLE_STRINGS, SAMPLE_SHAPES)
    }

    /// A dictionary of the names `T` is written with: the field names of
    /// its structs and struct variants (each field list a shape), and the
    /// names of its enums' variants (those with content, one-key shapes).
    /// Names shorter than a string reference are left out; so is anything
    /// `T` holds as data (map keys, string values): for those, use
    /// [`Dictionary::from_samples`].
    ///
    /// The names are found by deserializing `T` from a tracer that makes
    /// up values: a type whose `Deserialize` refuses them (say, one that
    /// validates its content) is traced as far as it accepts them.
    ///
    /// ```
    /// use serde::{Deserialize, Serialize};
    /// use surp_dedup::Dictionary;
    ///
    /// #[derive(Serialize, Deserialize, Debug, PartialEq)]
    /// enum Shape { Circle { radius: f32 }, Square(f32), Empty }
    ///
    /// #[derive(Serialize, Deserialize, Debug, PartialEq)]
    /// struct Drawing { title: String, shapes: Vec<Shape> }
    ///
    /// # fn main() -> Result<(), surp::Error> {
    /// let dict = Dictionary::from_type::<Drawing>()?;
    /// let names: Vec<&str> = dict.strings().collect();
    /// assert!(names.contains(&"title") && names.contains(&"Circle") && names.contains(&"Empty"));
    ///
    /// let drawing = Drawing { title: "t".into(), shapes: vec![Shape::Circle { radius: 1.0 }, Shape::Empty] };
    /// let bytes = dict.to_vec(&drawing)?;
    /// assert!(bytes.len() < surp::to_vec(&drawing)?.len());
    /// assert_eq!(dict.from_slice::<Drawing>(&bytes)?, drawing);
    /// # Ok(()) }
    /// ```
    pub fn from_type<T: serde::de::DeserializeOwned>() -> Result<Dictionary> {
        let names = crate::trace::trace::<T>();
        let mut strings: Vec<&str> = Vec::new();
        let field_names = names.shapes.iter().flatten().copied();
        for name in field_names
            .chain(names.variant_shapes.iter().copied())
            .chain(names.strings.iter().copied())
        {
            if name.len() >= wire::str_ref_size(strings.len()) && !strings.contains(&name) {
                strings.push(name);
            }
        }
        let never = wire::str_ref_size(strings.len());
        let mut shapes: Vec<Vec<&str>> = names
            .shapes
            .iter()
            .filter(|keys| keys.len() <= surp::__private::dedup::MAX_SHAPE_KEYS)
            .cloned()
            .collect();
        shapes.extend(names.variant_shapes.iter().map(|name| vec![*name]));
        // A key that could take a slot must be one of the strings.
        shapes.retain(|keys| keys.iter().all(|k| k.len() < never || strings.contains(k)));
        Dictionary::new(&strings, &shapes)
    }

    /// The stored form: a plain Surp document.
    pub fn to_bytes(&self) -> &[u8] {
        &self.inner.bytes
    }

    /// The id: the 64-bit FNV-1a hash of [`Dictionary::to_bytes`].
    pub fn id(&self) -> u64 {
        self.inner.id
    }

    /// The strings, which take string slots 0, 1, … in order.
    pub fn strings(&self) -> impl ExactSizeIterator<Item = &str> {
        self.inner.strings.iter().map(String::as_str)
    }

    /// The shapes' key sequences, shapes 0, 1, … in order.
    pub fn shapes(&self) -> impl ExactSizeIterator<Item = &[String]> {
        self.inner.shapes.iter().map(Vec::as_slice)
    }

    /// Encodes `value` as a dictionary document: it refers to the
    /// dictionary's strings and shapes and carries the dictionary's id.
    ///
    /// Builds the encoder's tables each time; [`Dictionary::encoder`] keeps
    /// them for many documents.
    pub fn to_vec<T: Serialize + ?Sized>(&self, value: &T) -> Result<Vec<u8>> {
        self.encoder().to_vec(value)
    }

    /// Decodes a dictionary document written with this dictionary.
    ///
    /// Builds the decoder's tables each time; [`Dictionary::decoder`] keeps
    /// them for many documents.
    pub fn from_slice<'de, T: Deserialize<'de>>(&self, input: &'de [u8]) -> Result<T> {
        self.decoder(surp::Options::new()).from_slice(input)
    }

    /// An encoder of dictionary documents that keeps its tables.
    pub fn encoder(&self) -> DictionaryEncoder {
        let (enc, initial) = initial_encoder(Some(self));
        DictionaryEncoder {
            enc,
            initial,
            id: self.inner.id,
        }
    }

    /// A decoder of dictionary documents, with these limits, that keeps its
    /// tables.
    pub fn decoder(&self, options: surp::Options) -> DictionaryDecoder {
        DictionaryDecoder {
            tables: self.tables(
                options,
                rules::Budget {
                    strings: 0,
                    shapes: 0,
                    bytes: 0,
                },
            ),
            id: self.inner.id,
        }
    }

    /// Decoder tables whose initial state is this dictionary.
    pub(crate) fn tables(&self, options: surp::Options, budget: rules::Budget) -> SessionTables {
        let mut tables = SessionTables::new(options, budget);
        let strings: Vec<&str> = self.strings().collect();
        let shapes: Vec<Vec<&str>> = self
            .shapes()
            .map(|k| k.iter().map(String::as_str).collect())
            .collect();
        tables.set_initial(&strings, &shapes);
        tables
    }
}

/// An encoder for documents whose tables outlive them (session messages,
/// dictionary documents), with the standard table limits and `dictionary`'s
/// entries, and the mark of that initial state.
pub(crate) fn initial_encoder(dictionary: Option<&Dictionary>) -> (Encoder, TablesMark) {
    let mut enc = Encoder::new(
        Vec::new(),
        surp::DEFAULT_MAX_DEDUP_STRINGS,
        surp::DEFAULT_MAX_DEDUP_SHAPES,
    );
    if let Some(dictionary) = dictionary {
        enc.add_initial(&dictionary.inner.strings, &dictionary.inner.shapes);
    }
    let initial = enc.tables_mark();
    (enc, initial)
}

fn invalid(why: String) -> surp::Error {
    surp::__private::error(ErrorKind::Session(SessionError::InvalidDictionary(why)))
}

/// Writes dictionary documents (`docs/spec.md` section 9.2) with one
/// dictionary, keeping its tables from one document to the next.
pub struct DictionaryEncoder {
    enc: Encoder,
    initial: TablesMark,
    id: u64,
}

impl DictionaryEncoder {
    /// Encodes `value` as a dictionary document.
    pub fn to_vec<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(64);
        self.append_to_vec(&mut out, value)?;
        Ok(out)
    }

    /// Encodes `value` as a dictionary document at the end of `out`. On an
    /// error `out` is left as it was.
    pub fn append_to_vec<T: Serialize + ?Sized>(
        &mut self,
        out: &mut Vec<u8>,
        value: &T,
    ) -> Result<()> {
        let id = self.id;
        let result =
            self.enc
                .append_prefixed(out, |out| rules::write_dictionary_prefix(out, id), value);
        // A document's own entries end with it.
        self.enc.truncate_tables(self.initial);
        result
    }
}

/// Reads dictionary documents written with one dictionary, keeping its
/// tables from one document to the next.
pub struct DictionaryDecoder {
    tables: SessionTables,
    id: u64,
}

impl DictionaryDecoder {
    /// Decodes a dictionary document, borrowing from `input` where `T`
    /// can (strings of the dictionary itself are copied).
    pub fn from_slice<'de, T: Deserialize<'de>>(&mut self, input: &'de [u8]) -> Result<T> {
        self.from_slice_seed(input, PhantomData)
    }

    /// [`DictionaryDecoder::from_slice`] through a [`DeserializeSeed`], for
    /// values built with state of the caller's.
    pub fn from_slice_seed<'de, S: DeserializeSeed<'de>>(
        &mut self,
        input: &'de [u8],
        seed: S,
    ) -> Result<S::Value> {
        let wrong = |found, at| {
            let expected = Some(self.id);
            let e = SessionError::WrongDictionary { expected, found };
            surp::__private::error_at(ErrorKind::Session(e), at)
        };
        // The kind before what follows it: another kind is refused at
        // byte 1 even when it is cut short (spec section 9.2).
        if rules::kind_of(input)? != rules::DICTIONARY {
            return Err(wrong(None, 1));
        }
        let (id, value_at) = rules::document_dictionary_id(input)?;
        if id != self.id {
            return Err(wrong(Some(id), 2));
        }
        let result = self.tables.decode(input, value_at, false, seed);
        if result.is_err() {
            self.tables.reset();
        }
        result.map(|(value, _)| value)
    }
}

/// How often each string and key sequence occurs in the samples.
#[derive(Default)]
struct Counts {
    strings: HashMap<String, usize>,
    shapes: HashMap<Vec<String>, usize>,
    /// First occurrence, so that ties keep the order of the samples.
    order: HashMap<String, usize>,
    shape_order: HashMap<Vec<String>, usize>,
}

impl Counts {
    fn string(&mut self, s: &str) {
        if s.len() < wire::str_ref_size(0) {
            return;
        }
        let next = self.order.len();
        self.order.entry(s.to_owned()).or_insert(next);
        *self.strings.entry(s.to_owned()).or_default() += 1;
    }

    fn walk(&mut self, value: &Value) {
        match value {
            Value::String(s) => self.string(s),
            Value::Array(items) => items.iter().for_each(|v| self.walk(v)),
            Value::Map(entries) => {
                let keys: Option<Vec<String>> = entries
                    .iter()
                    .map(|(k, _)| match k {
                        Value::String(s) => Some(s.clone()),
                        _ => None,
                    })
                    .collect();
                if let Some(keys) =
                    keys.filter(|k| (1..=surp::__private::dedup::MAX_SHAPE_KEYS).contains(&k.len()))
                {
                    let next = self.shape_order.len();
                    self.shape_order.entry(keys.clone()).or_insert(next);
                    *self.shapes.entry(keys).or_default() += 1;
                }
                for (k, v) in entries {
                    self.walk(k);
                    self.walk(v);
                }
            }
            _ => {}
        }
    }

    /// The strings and shapes that occur at least twice, most frequent
    /// first, within the rules of a dictionary.
    fn dictionary(self, max_strings: usize, max_shapes: usize) -> Result<Dictionary> {
        let mut shapes: Vec<(Vec<String>, usize)> =
            self.shapes.into_iter().filter(|(_, n)| *n >= 2).collect();
        shapes.sort_by_key(|(k, n)| (std::cmp::Reverse(*n), self.shape_order[k]));
        shapes.truncate(max_shapes);
        // Keys of the shapes are strings too, counted once per shape use.
        let mut strings: HashMap<String, usize> =
            self.strings.into_iter().filter(|(_, n)| *n >= 2).collect();
        for (keys, n) in &shapes {
            for k in keys.iter().filter(|k| k.len() >= wire::str_ref_size(0)) {
                *strings.entry(k.clone()).or_default() += n;
            }
        }
        let mut strings: Vec<(String, usize)> = strings.into_iter().collect();
        // Most frequent first; among equals, the longer one saves more.
        strings.sort_by_key(|(s, n)| {
            (
                std::cmp::Reverse(*n),
                std::cmp::Reverse(s.len()),
                self.order.get(s).copied(),
            )
        });
        // A string must be at least as long as a reference to its slot.
        let mut kept: Vec<String> = Vec::new();
        for (s, _) in strings {
            if kept.len() < max_strings && s.len() >= wire::str_ref_size(kept.len()) {
                kept.push(s);
            }
        }
        // A shape whose key could take a slot but is not among the strings
        // cannot be in the dictionary.
        let never = wire::str_ref_size(kept.len());
        let known: std::collections::HashSet<&str> = kept.iter().map(String::as_str).collect();
        let shapes: Vec<Vec<String>> = shapes
            .into_iter()
            .map(|(k, _)| k)
            .filter(|k| {
                k.iter()
                    .all(|key| key.len() < never || known.contains(key.as_str()))
            })
            .collect();
        Dictionary::new(&kept, &shapes)
    }
}
