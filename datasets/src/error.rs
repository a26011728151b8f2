//! The one error type of this crate: every way a dataset can fail to load or
//! match its pinned description.

use std::error::Error;
use std::fmt;

use crate::{DATASET_VERSION, Dataset, Scale};

/// Why a dataset could not be loaded, verified or named.
#[derive(Debug)]
#[non_exhaustive]
pub enum DatasetError {
    /// The canonical sha256 of a dataset differs from the one in the manifest:
    /// the data changed.
    Mismatch {
        /// The dataset that changed.
        dataset: Dataset,
        /// The scale at which it changed.
        scale: Scale,
        /// The sha256 recorded in the manifest.
        expected: String,
        /// The sha256 of the value that was checked.
        actual: String,
    },
    /// The sha256 of a typed dataset's JSON encoding differs from the one in
    /// `typed-manifest.toml`: the data changed.
    TypedMismatch {
        /// The typed dataset's name.
        dataset: &'static str,
        /// The scale at which it changed.
        scale: Scale,
        /// The sha256 recorded in the typed manifest.
        expected: String,
        /// The sha256 of the value that was checked.
        actual: String,
    },
    /// An embedded corpus file is not the file the manifest (and its source
    /// note) pins.
    CorpusFileMismatch {
        /// The corpus document.
        dataset: Dataset,
        /// The file sha256 recorded in the manifest.
        expected: String,
        /// The sha256 of the embedded file.
        actual: String,
    },
    /// An embedded corpus file is not valid JSON for the value model.
    CorpusParse {
        /// The corpus document.
        dataset: Dataset,
        /// What the JSON parser reported.
        source: serde_json::Error,
    },
    /// The manifest has no entry for this dataset and scale.
    MissingEntry {
        /// The dataset looked up.
        dataset: Dataset,
        /// The scale looked up.
        scale: Scale,
    },
    /// The embedded manifest describes a different dataset version than this
    /// crate's [`DATASET_VERSION`]: it was not regenerated after a bump.
    StaleManifest {
        /// The version the manifest records.
        manifest_version: String,
    },
    /// The manifest text could not be read.
    InvalidManifest {
        /// What is wrong with it.
        reason: String,
    },
    /// A dataset name that is not in [`Dataset::ALL`].
    UnknownDataset {
        /// The name given.
        name: String,
    },
    /// A scale name other than `ci` or `full`.
    UnknownScale {
        /// The name given.
        name: String,
    },
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatasetError::Mismatch {
                dataset,
                scale,
                expected,
                actual,
            } => write!(
                f,
                "dataset `{dataset}` at scale `{scale}` no longer matches the manifest \
                 (expected sha256 {expected}, got {actual}); a generator change is a new \
                 dataset version: bump DATASET_VERSION (now {DATASET_VERSION}) and regenerate \
                 datasets/manifest.toml"
            ),
            DatasetError::TypedMismatch {
                dataset,
                scale,
                expected,
                actual,
            } => write!(
                f,
                "typed dataset `{dataset}` at scale `{scale}` no longer matches \
                 typed-manifest.toml (expected sha256 {expected}, got {actual}); a generator \
                 change is a new typed dataset version: bump TYPED_DATASET_VERSION and \
                 regenerate the manifest"
            ),
            DatasetError::CorpusFileMismatch {
                dataset,
                expected,
                actual,
            } => write!(
                f,
                "the embedded corpus file for `{dataset}` has sha256 {actual}, but the manifest \
                 pins {expected}; the corpus must not change without a new dataset version \
                 (now {DATASET_VERSION})"
            ),
            DatasetError::CorpusParse { dataset, source } => write!(
                f,
                "the embedded corpus file for `{dataset}` is not valid JSON for the value \
                 model: {source}"
            ),
            DatasetError::MissingEntry { dataset, scale } => write!(
                f,
                "the manifest has no entry for dataset `{dataset}` at scale `{scale}`; \
                 regenerate datasets/manifest.toml"
            ),
            DatasetError::StaleManifest { manifest_version } => write!(
                f,
                "the dataset manifest describes version {manifest_version}, but the datasets \
                 are version {DATASET_VERSION}; regenerate datasets/manifest.toml"
            ),
            DatasetError::InvalidManifest { reason } => {
                write!(f, "the dataset manifest is invalid: {reason}")
            }
            DatasetError::UnknownDataset { name } => {
                write!(f, "there is no dataset named `{name}`; the datasets are ")?;
                write_list(f, Dataset::ALL.iter().map(|d| d.name()))
            }
            DatasetError::UnknownScale { name } => {
                write!(f, "there is no scale named `{name}`; the scales are ")?;
                write_list(f, Scale::ALL.iter().map(|s| s.name()))
            }
        }
    }
}

fn write_list<'a>(f: &mut fmt::Formatter<'_>, names: impl Iterator<Item = &'a str>) -> fmt::Result {
    for (i, name) in names.enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "`{name}`")?;
    }
    Ok(())
}

impl Error for DatasetError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            DatasetError::CorpusParse { source, .. } => Some(source),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mismatch_message_names_dataset_scale_hashes_and_the_version_rule() {
        let message = DatasetError::Mismatch {
            dataset: Dataset::NestedDeep,
            scale: Scale::Ci,
            expected: "aaaa".into(),
            actual: "bbbb".into(),
        }
        .to_string();
        for part in [
            "`nested_deep`",
            "`ci`",
            "expected sha256 aaaa",
            "got bbbb",
            "bump DATASET_VERSION",
        ] {
            assert!(message.contains(part), "{part:?} missing from {message:?}");
        }
    }

    #[test]
    fn unknown_names_list_the_valid_ones() {
        let message = DatasetError::UnknownScale {
            name: "huge".into(),
        }
        .to_string();
        assert_eq!(
            message,
            "there is no scale named `huge`; the scales are `ci`, `full`"
        );
    }
}
