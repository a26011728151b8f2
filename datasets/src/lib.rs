//! Seeded, sha256-pinned benchmark datasets and the neutral value model.
