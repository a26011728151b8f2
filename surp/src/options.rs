//! Decoding limits for untrusted input.
//!
//! Every limit is checked before the decoder acts on a length or a nesting
//! level, so a hostile document gets an [`Error`](crate::Error) instead of
//! a stack overflow or an allocation sized from a claimed length.

/// Default [`Options::max_depth`].
pub const DEFAULT_MAX_DEPTH: usize = 128;
/// Default [`Options::max_alloc`]: 1 GiB.
pub const DEFAULT_MAX_ALLOC: usize = 1 << 30;
/// Default [`Options::max_dedup_strings`].
pub const DEFAULT_MAX_DEDUP_STRINGS: usize = 1 << 20;
/// Default [`Options::max_dedup_shapes`].
pub const DEFAULT_MAX_DEDUP_SHAPES: usize = 1 << 16;
/// Default ratio of [`Options::max_expansion`]: references may expand a
/// document to 64 times the bytes of it read so far...
pub const DEFAULT_EXPANSION_RATIO: usize = 64;
/// ...plus this default allowance of [`Options::max_expansion`] (1 MiB).
pub const DEFAULT_EXPANSION_BASE: usize = 1 << 20;

/// Decoding options: the limits that protect a decoder from hostile input.
///
/// ```
/// # fn main() -> Result<(), surp::Error> {
/// let bytes = surp::to_vec(&vec![vec![1u8]])?;
/// let shallow = surp::Options::new().max_depth(1);
/// let err = shallow.from_slice::<Vec<Vec<u8>>>(&bytes).unwrap_err();
/// assert_eq!(err.to_string(), "nesting deeper than the limit of 1 at byte 1, in [0]");
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub(crate) max_depth: usize,
    pub(crate) max_len: usize,
    pub(crate) max_alloc: usize,
    pub(crate) max_dedup_strings: usize,
    pub(crate) max_dedup_shapes: usize,
    pub(crate) expansion_ratio: usize,
    pub(crate) expansion_base: usize,
    pub(crate) positional_structs: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options::new()
    }
}

impl Options {
    /// The default limits.
    pub const fn new() -> Options {
        Options {
            max_depth: DEFAULT_MAX_DEPTH,
            max_len: usize::MAX,
            max_alloc: DEFAULT_MAX_ALLOC,
            max_dedup_strings: DEFAULT_MAX_DEDUP_STRINGS,
            max_dedup_shapes: DEFAULT_MAX_DEDUP_SHAPES,
            expansion_ratio: DEFAULT_EXPANSION_RATIO,
            expansion_base: DEFAULT_EXPANSION_BASE,
            positional_structs: true,
        }
    }

    /// The deepest nesting of arrays, maps, enum variants and `Some` markers
    /// the decoder follows (default 128). Deeper input is an error, found
    /// before the stack could run out.
    pub const fn max_depth(mut self, depth: usize) -> Options {
        self.max_depth = depth;
        self
    }

    /// The longest string, byte string, array or map accepted (default: no
    /// limit beyond the input itself; a slice can never claim more items than
    /// it has bytes left).
    pub const fn max_len(mut self, len: usize) -> Options {
        self.max_len = len;
        self
    }

    /// The most a decoder holds for one document (default 1 GiB): the
    /// ceiling on what its references expand to, and the longest string or
    /// byte string accepted.
    ///
    /// It bounds what is held, not what streams past: the bytes a document
    /// writes out are not charged (a reader visited by a type that keeps
    /// nothing may stream any amount), but no single string or byte string
    /// may be longer than this, because a reader must hold it whole (or, to
    /// skip it, read it whole). A string reference is charged the length of
    /// its string, a shape reference the length of its keys plus 2 per key;
    /// see also [`max_expansion`](Self::max_expansion), the proportional
    /// limit under this one. Slices and readers charge alike: the same
    /// document with the same options gives the same result from both.
    ///
    /// ```
    /// // A 2-byte string referenced 3 times: 6 bytes of expansion.
    /// let doc = [0xf2, 0xa4, 0x82, b'h', b'i', 0xf3, 0, 0xf3, 0, 0xf3, 0];
    /// let opts = surp::Options::new().max_alloc(6);
    /// assert!(opts.from_slice::<Vec<String>>(&doc).is_ok());
    /// let err = surp::Options::new().max_alloc(5).from_reader::<_, Vec<String>>(&doc[..]).unwrap_err();
    /// assert_eq!(*err.kind(), surp::ErrorKind::AllocationLimitExceeded(5));
    /// ```
    pub const fn max_alloc(mut self, bytes: usize) -> Options {
        self.max_alloc = bytes;
        self
    }

    /// The proportional limit on what references may expand a document to
    /// (default 64 and 1 MiB): at any reference, all the references of the
    /// document so far may stand for at most `ratio` times the bytes of the
    /// document read so far (its marker included) plus `base` bytes, and
    /// never more than [`max_alloc`](Self::max_alloc). The error is
    /// [`AllocationLimitExceeded`](crate::ErrorKind::AllocationLimitExceeded)
    /// with the limit in force at that reference.
    ///
    /// With the defaults, an `n`-byte document expands to at most
    /// `64 n + 1 MiB`, so a small deduplicated "bomb" cannot make a decoder
    /// build gigabytes. `max_expansion(usize::MAX, 0)` leaves only
    /// `max_alloc`.
    ///
    /// ```
    /// // One 1000-byte string, then 1000 references to it: 1 MB from 3 KB.
    /// let mut doc = vec![0xf2, 0xd1, 0xe9, 0x03, 0xc9, 0xe8, 0x03];
    /// doc.extend([b'x'; 1000]);
    /// for _ in 0..1000 {
    ///     doc.extend([0xf3, 0x00]);
    /// }
    /// assert!(surp::from_slice::<Vec<String>>(&doc).is_ok());
    /// let strict = surp::Options::new().max_expansion(16, 0);
    /// let err = strict.from_slice::<Vec<String>>(&doc).unwrap_err();
    /// assert_eq!(err.to_string(), "document expands beyond the allocation limit of 16656 bytes at byte 1039, in [17]");
    /// ```
    pub const fn max_expansion(mut self, ratio: usize, base: usize) -> Options {
        self.expansion_ratio = ratio;
        self.expansion_base = base;
        self
    }

    /// The most string table slots a deduplicated document may define
    /// (default 2^20). References past it are errors.
    pub const fn max_dedup_strings(mut self, slots: usize) -> Options {
        self.max_dedup_strings = slots;
        self
    }

    /// The most shapes (map key sets) a deduplicated document may define
    /// (default 2^16). References past it are errors.
    pub const fn max_dedup_shapes(mut self, shapes: usize) -> Options {
        self.max_dedup_shapes = shapes;
        self
    }

    /// Whether a deduplicated document's struct may be handed to its
    /// visitor as a sequence (default: yes).
    ///
    /// When `deserialize_struct` meets a shape reference whose keys are
    /// exactly the struct's `fields`, in order, the decoder calls the
    /// visitor's `visit_seq` with the values, so that no key is matched
    /// against the field names. `visit_seq` then gets exactly
    /// `fields.len()` values, in the order of `fields`. Derived
    /// `Deserialize` impls (and serde's own, such as `Duration`) accept both
    /// a sequence and a map, and decode what serde wrote the same way
    /// either way; `visit_seq` costs less than `visit_map`. Plain
    /// documents, explicit maps in deduplicated ones, and structs whose
    /// name starts with `$` (a format's private type, such as toml's
    /// datetime) always go to `visit_map`.
    ///
    /// Turn this off for a hand-written visitor that implements only
    /// `visit_map`, or whose `visit_seq` does not read one value per field
    /// in the order of `fields`. Such a visitor decodes the first record of
    /// a deduplicated document (an explicit map) and fails on the next ones
    /// (shape references); the error names this option.
    ///
    /// A struct read by position is a sequence to serde, so a wrapper that
    /// tracks paths itself (such as `serde_path_to_error`) names its fields
    /// by index. The path of an error from [`from_slice`](Self::from_slice)
    /// ([`Error::path`](crate::Error::path)) still names them: the decode that finds it reads
    /// structs as maps.
    ///
    /// ```
    /// // For a hand-written `Deserialize` whose visitor has no `visit_seq`.
    /// let opts = surp::Options::new().positional_structs(false);
    /// # let bytes = surp::to_vec(&(1u8, 2u8)).unwrap();
    /// # let _: (u8, u8) = opts.from_slice(&bytes).unwrap();
    /// ```
    pub const fn positional_structs(mut self, on: bool) -> Options {
        self.positional_structs = on;
        self
    }
}
