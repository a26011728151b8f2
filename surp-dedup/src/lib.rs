//! String and key-set deduplication for Surp.
