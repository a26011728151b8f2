//! Seeded, sha256-pinned benchmark datasets and the neutral value model.

pub mod model;

pub use model::Value;
