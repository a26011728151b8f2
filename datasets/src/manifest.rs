//! The manifest: the committed record of what every dataset is at every scale
//! (seed, record count, canonical size and sha256), and the check against it.
//!
//! `datasets/manifest.toml` is embedded in the crate, so a benchmark binary
//! carries the expectations it verifies against. The manifest is written by
//! the `write-manifest` example and never edited by hand; a generator change
//! that alters any dataset must come with a new [`DATASET_VERSION`] and a
//! regenerated manifest, never a silent change.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::{
    DATASET_VERSION, Dataset, DatasetError, Scale, Value, canonical_len, corpus, sha256_hex,
};

/// The committed manifest text.
const MANIFEST_TOML: &str = include_str!("../manifest.toml");

/// The pinned description of every dataset at every scale.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The dataset version the entries describe.
    pub version: String,
    /// One entry per dataset and scale, in [`Dataset::ALL`] order, `ci`
    /// before `full`.
    pub entries: Vec<ManifestEntry>,
}

/// What one dataset is at one scale.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestEntry {
    /// The dataset described.
    pub dataset: Dataset,
    /// The scale described.
    pub scale: Scale,
    /// The generator's seed (`0` for corpus documents).
    pub seed: u64,
    /// The record count, as [`Dataset::record_count`] counts it.
    pub records: u64,
    /// The length of the dataset's [`canonical_bytes`](crate::canonical_bytes).
    pub canonical_len: u64,
    /// The sha256 of the dataset's canonical bytes, lowercase hex.
    pub sha256: String,
    /// For corpus documents, the sha256 of the embedded JSON file.
    pub file_sha256: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    version: String,
    entry: Vec<RawEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    dataset: String,
    scale: String,
    seed: u64,
    records: u64,
    canonical_len: u64,
    sha256: String,
    file_sha256: Option<String>,
}

fn is_sha256_hex(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

impl Manifest {
    /// Reads a manifest from its TOML text, rejecting unknown datasets or
    /// scales, malformed sums and duplicate entries.
    pub fn parse(text: &str) -> Result<Manifest, DatasetError> {
        let invalid = |reason: String| DatasetError::InvalidManifest { reason };
        let raw: RawManifest = toml::from_str(text).map_err(|e| invalid(e.to_string()))?;
        let mut entries: Vec<ManifestEntry> = Vec::with_capacity(raw.entry.len());
        for e in raw.entry {
            let dataset = e.dataset.parse::<Dataset>()?;
            let scale = e.scale.parse::<Scale>()?;
            let sums = std::iter::once(&e.sha256).chain(&e.file_sha256);
            if let Some(bad) = sums.into_iter().find(|s| !is_sha256_hex(s)) {
                return Err(invalid(format!(
                    "the entry for `{dataset}` at scale `{scale}` has `{bad}`, which is not \
                     64 lowercase hex digits"
                )));
            }
            if entries
                .iter()
                .any(|x| x.dataset == dataset && x.scale == scale)
            {
                return Err(invalid(format!(
                    "`{dataset}` at scale `{scale}` has more than one entry"
                )));
            }
            entries.push(ManifestEntry {
                dataset,
                scale,
                seed: e.seed,
                records: e.records,
                canonical_len: e.canonical_len,
                sha256: e.sha256,
                file_sha256: e.file_sha256,
            });
        }
        Ok(Manifest {
            version: raw.version,
            entries,
        })
    }

    /// The entry for a dataset at a scale.
    pub fn entry(&self, dataset: Dataset, scale: Scale) -> Option<&ManifestEntry> {
        self.entries
            .iter()
            .find(|e| e.dataset == dataset && e.scale == scale)
    }

    /// Builds the manifest the current code produces, by generating (or
    /// parsing) every dataset at every scale. This is slow at full scale
    /// (seconds); it is what `write-manifest` writes.
    pub fn regenerate() -> Manifest {
        let entries = Dataset::ALL
            .into_iter()
            .flat_map(|dataset| Scale::ALL.map(|scale| (dataset, scale)))
            .map(|(dataset, scale)| {
                ManifestEntry::describe(dataset, scale, &dataset.generate(scale))
            })
            .collect();
        Manifest {
            version: DATASET_VERSION.to_owned(),
            entries,
        }
    }

    /// The manifest as TOML, in the layout of the committed file.
    pub fn to_toml(&self) -> String {
        let mut out = String::from(
            "# The pinned description of every benchmark dataset at every scale.\n\
             # Written by `cargo run --release -p surp-datasets --example write-manifest`;\n\
             # do not edit by hand. A change to any sha256 here is a new dataset version.\n\
             # canonical_len is the size in bytes of the dataset's canonical encoding.\n",
        );
        out.push_str(&format!("version = \"{}\"\n", self.version));
        for e in &self.entries {
            out.push_str(&format!(
                "\n[[entry]]\ndataset = \"{}\"\nscale = \"{}\"\nseed = {:#018x}\nrecords = {}\n\
                 canonical_len = {}\nsha256 = \"{}\"\n",
                e.dataset, e.scale, e.seed, e.records, e.canonical_len, e.sha256
            ));
            if let Some(file_sha256) = &e.file_sha256 {
                out.push_str(&format!("file_sha256 = \"{file_sha256}\"\n"));
            }
        }
        out
    }
}

/// The marker lines around the generated tables in `datasets/README.md`.
const README_TABLES_START: &str =
    "<!-- tables written by the write-manifest example: do not edit -->";
const README_TABLES_END: &str = "<!-- end of generated tables -->";

impl Manifest {
    /// Two Markdown tables: each dataset's seed, maximum depth and
    /// description, then every entry's record count, canonical size and
    /// sha256, as `datasets/README.md` shows them.
    pub fn to_markdown(&self) -> String {
        let mut out = String::from(
            "| dataset | seed | max depth | shape and what it stresses |\n| --- | --- | --- | --- |\n",
        );
        for dataset in Dataset::ALL {
            let seed = if dataset.is_corpus() {
                "corpus".to_owned()
            } else {
                format!("`{:#018x}`", dataset.seed())
            };
            out.push_str(&format!(
                "| `{dataset}` | {seed} | {} | {} |\n",
                dataset.max_depth(),
                dataset.description()
            ));
        }
        out.push_str(&format!(
            "\nDataset version {}.\n\n| dataset | scale | records | canonical bytes | sha256 of the canonical bytes |\n| --- | --- | --: | --: | --- |\n",
            self.version
        ));
        for e in &self.entries {
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | `{}` |\n",
                e.dataset,
                e.scale,
                thousands(e.records),
                thousands(e.canonical_len),
                e.sha256
            ));
        }
        out
    }

    /// `readme` with the text between its two generated-table marker
    /// comments replaced by [`Manifest::to_markdown`]; an error if the
    /// markers are missing.
    pub fn update_readme(&self, readme: &str) -> Result<String, DatasetError> {
        let missing = || DatasetError::InvalidManifest {
            reason: format!(
                "the README lacks the lines `{README_TABLES_START}` and `{README_TABLES_END}` \
                 around its generated tables"
            ),
        };
        let start =
            readme.find(README_TABLES_START).ok_or_else(missing)? + README_TABLES_START.len();
        let end = start
            + readme[start..]
                .find(README_TABLES_END)
                .ok_or_else(missing)?;
        Ok(format!(
            "{}\n{}{}",
            &readme[..start],
            self.to_markdown(),
            &readme[end..]
        ))
    }
}

/// 1234567 as "1,234,567".
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl ManifestEntry {
    /// Describes `value` as the given dataset at the given scale: what the
    /// manifest should say about it.
    pub fn describe(dataset: Dataset, scale: Scale, value: &Value) -> ManifestEntry {
        ManifestEntry {
            dataset,
            scale,
            seed: dataset.seed(),
            records: dataset.record_count(value),
            canonical_len: canonical_len(value),
            sha256: sha256_hex(value),
            file_sha256: corpus::file_sha256(dataset),
        }
    }
}

/// The committed manifest, parsed once.
///
/// # Panics
///
/// If the embedded `manifest.toml` does not parse, which the crate's tests
/// rule out.
pub fn manifest() -> &'static Manifest {
    static MANIFEST: OnceLock<Manifest> = OnceLock::new();
    MANIFEST.get_or_init(|| Manifest::parse(MANIFEST_TOML).unwrap_or_else(|err| panic!("{err}")))
}

/// Checks that `value` is exactly the dataset the manifest pins for this
/// scale, by its canonical sha256. A benchmark calls this (or
/// [`Dataset::load`], which calls it) and refuses to measure on an error.
///
/// ```
/// use surp_datasets::{Dataset, Scale, Value, verify};
///
/// let mut value = Dataset::SmallObjects.generate(Scale::Ci);
/// assert!(verify(Dataset::SmallObjects, Scale::Ci, &value).is_ok());
///
/// if let Value::Array(users) = &mut value {
///     users.pop();
/// }
/// let err = verify(Dataset::SmallObjects, Scale::Ci, &value).unwrap_err();
/// assert!(err.to_string().contains("`small_objects` at scale `ci`"));
/// ```
pub fn verify(dataset: Dataset, scale: Scale, value: &Value) -> Result<(), DatasetError> {
    let manifest = manifest();
    if manifest.version != DATASET_VERSION {
        return Err(DatasetError::StaleManifest {
            manifest_version: manifest.version.clone(),
        });
    }
    let entry = manifest
        .entry(dataset, scale)
        .ok_or(DatasetError::MissingEntry { dataset, scale })?;
    let actual = sha256_hex(value);
    if actual == entry.sha256 {
        Ok(())
    } else {
        Err(DatasetError::Mismatch {
            dataset,
            scale,
            expected: entry.sha256.clone(),
            actual,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUM: &str = "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d";

    fn one_entry(dataset: &str, scale: &str, sha256: &str) -> String {
        format!(
            "version = \"1.0.0\"\n[[entry]]\ndataset = \"{dataset}\"\nscale = \"{scale}\"\n\
             seed = 1\nrecords = 2\ncanonical_len = 3\nsha256 = \"{sha256}\"\n"
        )
    }

    #[test]
    fn the_committed_manifest_parses_and_is_complete() {
        let manifest = manifest();
        assert_eq!(manifest.version, DATASET_VERSION);
        assert_eq!(
            manifest.entries.len(),
            Dataset::ALL.len() * Scale::ALL.len()
        );
        for dataset in Dataset::ALL {
            for scale in Scale::ALL {
                let entry = manifest.entry(dataset, scale).unwrap();
                assert_eq!(entry.file_sha256.is_some(), dataset.is_corpus());
            }
        }
    }

    #[test]
    fn the_committed_manifest_is_in_canonical_layout() {
        // Hand edits show up here: the file must be exactly what the writer
        // produces from its own contents.
        assert_eq!(manifest().to_toml(), MANIFEST_TOML);
    }

    #[test]
    fn the_readme_shows_the_committed_manifest() {
        let readme = include_str!("../README.md");
        assert_eq!(
            manifest().update_readme(readme).unwrap(),
            readme,
            "README.md is out of date: run the write-manifest example"
        );
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(12_345_678), "12,345,678");
    }

    #[test]
    fn a_well_formed_entry_parses() {
        let m = Manifest::parse(&one_entry("canada", "full", SUM)).unwrap();
        let e = m.entry(Dataset::Canada, Scale::Full).unwrap();
        assert_eq!((e.seed, e.records, e.canonical_len), (1, 2, 3));
        assert_eq!(m.entry(Dataset::Canada, Scale::Ci), None);
    }

    #[test]
    fn an_unknown_dataset_in_the_manifest_is_an_error() {
        let err = Manifest::parse(&one_entry("tweets", "ci", SUM)).unwrap_err();
        assert!(matches!(err, DatasetError::UnknownDataset { .. }), "{err}");
    }

    #[test]
    fn a_malformed_sum_in_the_manifest_is_an_error() {
        let err = Manifest::parse(&one_entry("canada", "ci", &SUM.to_uppercase())).unwrap_err();
        assert!(err.to_string().contains("64 lowercase hex digits"), "{err}");
    }

    #[test]
    fn a_duplicate_entry_in_the_manifest_is_an_error() {
        let one = one_entry("canada", "ci", SUM);
        let twice = format!("{one}{}", &one[one.find("[[entry]]").unwrap()..]);
        let err = Manifest::parse(&twice).unwrap_err();
        assert!(err.to_string().contains("more than one entry"), "{err}");
    }

    #[test]
    fn an_unknown_field_in_the_manifest_is_an_error() {
        let text = format!("{}extra = 1\n", one_entry("canada", "ci", SUM));
        let err = Manifest::parse(&text).unwrap_err();
        assert!(matches!(err, DatasetError::InvalidManifest { .. }), "{err}");
    }

    #[test]
    fn changing_one_generated_value_is_caught() {
        let mut value = Dataset::MixedApiEvents.generate(Scale::Ci);
        verify(Dataset::MixedApiEvents, Scale::Ci, &value).unwrap();
        // Flip one boolean deep inside one event: the smallest change there is.
        let Value::Array(events) = &mut value else {
            panic!("mixed_api_events is an array")
        };
        let Value::Map(fields) = &mut events[17] else {
            panic!("an event is a map")
        };
        let public = fields.iter_mut().find(|(k, _)| k == "public").unwrap();
        let Value::Bool(b) = &mut public.1 else {
            panic!("public is a bool")
        };
        *b = !*b;
        let err = verify(Dataset::MixedApiEvents, Scale::Ci, &value).unwrap_err();
        let DatasetError::Mismatch {
            dataset,
            scale,
            expected,
            actual,
        } = &err
        else {
            panic!("expected a mismatch, got {err}")
        };
        assert_eq!((*dataset, *scale), (Dataset::MixedApiEvents, Scale::Ci));
        assert_eq!(
            expected,
            &manifest()
                .entry(Dataset::MixedApiEvents, Scale::Ci)
                .unwrap()
                .sha256
        );
        assert_ne!(expected, actual);
    }

    #[test]
    fn a_value_verified_at_the_wrong_scale_is_caught() {
        let value = Dataset::NumericHeavy.generate(Scale::Ci);
        assert!(verify(Dataset::NumericHeavy, Scale::Full, &value).is_err());
        assert!(verify(Dataset::StringHeavy, Scale::Ci, &value).is_err());
    }
}
