//! Surp: a compact, fast, self-describing binary serialization format for serde.
