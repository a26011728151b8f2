//! The seven generated datasets: one file per shape, all drawing from the same
//! seeded source ([`draw`]) and word pools ([`vocabulary`]).

pub(crate) mod draw;
pub(crate) mod timestamp;
pub(crate) mod vocabulary;

pub(crate) mod binary_blobs;
pub(crate) mod long_strings;
pub(crate) mod mixed_api_events;
pub(crate) mod nested_deep;
pub(crate) mod numeric_heavy;
pub(crate) mod small_objects;
pub(crate) mod string_heavy;
