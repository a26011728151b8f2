#![doc = include_str!("../README.md")]

mod canonical;
mod corpus;
mod dataset;
mod error;
mod generate;
mod manifest;
pub mod model;
mod scale;
pub mod typed;

pub use canonical::{canonical_bytes, canonical_len, sha256_hex};
pub use dataset::Dataset;
pub use error::DatasetError;
pub use manifest::{Manifest, ManifestEntry, manifest, verify};
pub use model::Value;
pub use scale::Scale;

/// The version of the datasets as a whole. Any change that alters the
/// canonical bytes of any dataset at any scale (a generator, a seed, a count,
/// the corpus, the canonical encoding) bumps it, and `datasets/manifest.toml`
/// is regenerated with it.
pub const DATASET_VERSION: &str = "1.0.0";
