//! The kinds of length-prefixed items, apart from the tag table so that
//! errors can name them: [`crate::wire`] says where each kind's tags are,
//! and [`crate::error`] says what went wrong with one.

/// Kinds of length-prefixed items: the container or payload a header opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A UTF-8 string.
    Str,
    /// A byte string.
    Bytes,
    /// An array of values.
    Array,
    /// A map of key-value pairs.
    Map,
}

impl Kind {
    /// A lowercase noun for messages.
    pub const fn noun(self) -> &'static str {
        match self {
            Kind::Str => "string",
            Kind::Bytes => "byte string",
            Kind::Array => "array",
            Kind::Map => "map",
        }
    }
}
