//! The list of datasets: names, seeds, descriptions, and how each one is
//! built. [`Dataset::ALL`] is the single list every other crate iterates.

use std::fmt;
use std::str::FromStr;

use crate::generate::{
    binary_blobs, long_strings, mixed_api_events, nested_deep, numeric_heavy, small_objects,
    string_heavy,
};
use crate::{DatasetError, Scale, Value, corpus, verify};

/// One benchmark dataset: seven generated shapes and three real-world
/// documents.
///
/// ```
/// use surp_datasets::{Dataset, Scale};
///
/// for dataset in Dataset::ALL {
///     assert_eq!(Dataset::from_name(dataset.name()), Some(dataset));
/// }
/// let value = Dataset::NestedDeep.load(Scale::Ci).unwrap();
/// assert_eq!(value.depth(), Dataset::NestedDeep.max_depth());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dataset {
    /// A user table of flat six-field objects.
    SmallObjects,
    /// Log events in which most strings repeat from a pool of 50.
    StringHeavy,
    /// A branching tree plus a 50-level linear chain.
    NestedDeep,
    /// File records carrying about 64 KiB of random bytes each.
    BinaryBlobs,
    /// Objects shaped like GitHub's public events API.
    MixedApiEvents,
    /// Sensor readings dominated by integers and floats.
    NumericHeavy,
    /// A software-update catalog, most of it long strings.
    LongStrings,
    /// The twitter.json corpus document.
    Twitter,
    /// The citm_catalog.json corpus document.
    CitmCatalog,
    /// The canada.json corpus document.
    Canada,
}

impl Dataset {
    /// Every dataset, generated ones first, in the order reports list them.
    pub const ALL: [Dataset; 10] = [
        Dataset::SmallObjects,
        Dataset::StringHeavy,
        Dataset::NestedDeep,
        Dataset::BinaryBlobs,
        Dataset::MixedApiEvents,
        Dataset::NumericHeavy,
        Dataset::LongStrings,
        Dataset::Twitter,
        Dataset::CitmCatalog,
        Dataset::Canada,
    ];

    /// The dataset's name as written in the manifest, reports and command
    /// lines.
    pub fn name(self) -> &'static str {
        match self {
            Dataset::SmallObjects => "small_objects",
            Dataset::StringHeavy => "string_heavy",
            Dataset::NestedDeep => "nested_deep",
            Dataset::BinaryBlobs => "binary_blobs",
            Dataset::MixedApiEvents => "mixed_api_events",
            Dataset::NumericHeavy => "numeric_heavy",
            Dataset::LongStrings => "long_strings",
            Dataset::Twitter => "twitter",
            Dataset::CitmCatalog => "citm_catalog",
            Dataset::Canada => "canada",
        }
    }

    /// The dataset with this name, if there is one.
    pub fn from_name(name: &str) -> Option<Dataset> {
        Dataset::ALL.into_iter().find(|d| d.name() == name)
    }

    /// Whether this is one of the three real-world documents (which ignore
    /// the scale) rather than a generated dataset.
    pub fn is_corpus(self) -> bool {
        matches!(
            self,
            Dataset::Twitter | Dataset::CitmCatalog | Dataset::Canada
        )
    }

    /// One line: the shape, and what it stresses in a codec.
    pub fn description(self) -> &'static str {
        match self {
            Dataset::SmallObjects => {
                "flat user records (id, name, email, active, score, level): per-record overhead and short strings"
            }
            Dataset::StringHeavy => {
                "log events where ~60% of string values repeat from a pool of 50: what string deduplication wins"
            }
            Dataset::NestedDeep => {
                "a depth-10, fanout-3 tree of small nodes plus a 50-level chain: recursion, depth limits, small-container framing"
            }
            Dataset::BinaryBlobs => {
                "file records with ~64 KiB of random bytes each: how raw bytes are carried"
            }
            Dataset::MixedApiEvents => {
                "GitHub-style events with kind-specific payloads: a realistic mix of scalars, nesting and varying key sets"
            }
            Dataset::NumericHeavy => {
                "readings dominated by integers of every magnitude and f32-exact or full-f64 floats: number encoding"
            }
            Dataset::LongStrings => {
                "a software-update catalog: descriptions, notes, URLs and translated titles, most bytes in long strings, some not ASCII: per-byte cost of text"
            }
            Dataset::Twitter => {
                "real Twitter search response: nested objects, repeated keys, non-ASCII text, large integer ids"
            }
            Dataset::CitmCatalog => {
                "real ticketing catalogue: many small objects, repeated keys and values, integer-heavy"
            }
            Dataset::Canada => {
                "real GeoJSON outline of Canada: long arrays of [lon, lat] float pairs"
            }
        }
    }

    /// The fixed seed of a generated dataset (the same at both scales); `0`
    /// for the corpus documents, which are not generated.
    pub fn seed(self) -> u64 {
        // "SURP" in the high bytes, the dataset's position in the low ones;
        // kept below 2^63 so the manifest (TOML integers are i64) can hold it.
        const BASE: u64 = 0x5355_5250_0000_0000;
        match self {
            Dataset::SmallObjects => BASE + 1,
            Dataset::StringHeavy => BASE + 2,
            Dataset::NestedDeep => BASE + 3,
            Dataset::BinaryBlobs => BASE + 4,
            Dataset::MixedApiEvents => BASE + 5,
            Dataset::NumericHeavy => BASE + 6,
            Dataset::LongStrings => BASE + 7,
            Dataset::Twitter | Dataset::CitmCatalog | Dataset::Canada => 0,
        }
    }

    /// The deepest container nesting in the dataset at any scale, counting
    /// each array or map as one level (a scalar is depth 0, `[1]` depth 1).
    /// Every dataset stays at or below 100, inside the default limits of
    /// serde_json and Surp (128).
    pub fn max_depth(self) -> usize {
        match self {
            Dataset::SmallObjects | Dataset::BinaryBlobs => 2,
            Dataset::StringHeavy | Dataset::NumericHeavy | Dataset::LongStrings => 3,
            Dataset::NestedDeep => nested_deep::CHAIN_LINKS as usize + 1,
            Dataset::MixedApiEvents => 6,
            Dataset::Twitter => 10,
            Dataset::CitmCatalog => 8,
            Dataset::Canada => 7,
        }
    }

    /// The dataset's value, built deterministically from its seed at this
    /// scale, or parsed from the embedded file for a corpus document (which
    /// ignores `scale`). Use [`Dataset::load`] to also check it against the
    /// manifest.
    ///
    /// # Panics
    ///
    /// Only if an embedded corpus file is not valid JSON, which the crate's
    /// tests rule out for the files it ships; [`Dataset::load`] reports that
    /// case as an error instead.
    pub fn generate(self, scale: Scale) -> Value {
        let seed = self.seed();
        match self {
            Dataset::SmallObjects => small_objects::generate(seed, scale),
            Dataset::StringHeavy => string_heavy::generate(seed, scale),
            Dataset::NestedDeep => nested_deep::generate(seed, scale),
            Dataset::BinaryBlobs => binary_blobs::generate(seed, scale),
            Dataset::MixedApiEvents => mixed_api_events::generate(seed, scale),
            Dataset::NumericHeavy => numeric_heavy::generate(seed, scale),
            Dataset::LongStrings => long_strings::generate(seed, scale),
            Dataset::Twitter | Dataset::CitmCatalog | Dataset::Canada => {
                corpus::parse(self).unwrap_or_else(|err| panic!("{err}"))
            }
        }
    }

    /// Generates (or parses) the dataset and checks it against the manifest:
    /// what a benchmark calls before measuring anything.
    ///
    /// For a corpus document the embedded file's sha256 is checked first,
    /// then the canonical sha256 of the parsed value.
    pub fn load(self, scale: Scale) -> Result<Value, DatasetError> {
        let value = if self.is_corpus() {
            let entry = crate::manifest()
                .entry(self, scale)
                .ok_or(DatasetError::MissingEntry {
                    dataset: self,
                    scale,
                })?;
            let actual = corpus::file_sha256(self).expect("a corpus dataset has a file");
            let expected = entry.file_sha256.clone().unwrap_or_default();
            if actual != expected {
                return Err(DatasetError::CorpusFileMismatch {
                    dataset: self,
                    expected,
                    actual,
                });
            }
            corpus::parse(self)?
        } else {
            self.generate(scale)
        };
        verify(self, scale, &value)?;
        Ok(value)
    }

    /// The records in a value of this dataset: the planned unit of each
    /// shape (a user, an event, a blob, a reading; a tree node or chain link
    /// in `nested_deep`; a status in twitter, a performance in citm_catalog,
    /// a point in canada). Counted from the value, not assumed.
    pub fn record_count(self, value: &Value) -> u64 {
        match self {
            Dataset::NestedDeep => nested_deep::records(value),
            Dataset::Twitter | Dataset::CitmCatalog | Dataset::Canada => {
                corpus::records(self, value)
            }
            _ => match value {
                Value::Array(items) => items.len() as u64,
                _ => 0,
            },
        }
    }

    /// The raw JSON of a corpus document as embedded in the crate, for
    /// benchmarks that want to start from the original text.
    pub fn corpus_json(self) -> Option<&'static [u8]> {
        corpus::file(self).map(|(_, bytes)| bytes)
    }

    /// The number of records the generator builds at this scale, known
    /// without generating; `None` for corpus documents, whose count is
    /// whatever the file holds.
    pub fn planned_records(self, scale: Scale) -> Option<u64> {
        match self {
            Dataset::SmallObjects => Some(small_objects::count(scale)),
            Dataset::StringHeavy => Some(string_heavy::count(scale)),
            Dataset::NestedDeep => Some(nested_deep::count(scale)),
            Dataset::BinaryBlobs => Some(binary_blobs::count(scale)),
            Dataset::MixedApiEvents => Some(mixed_api_events::count(scale)),
            Dataset::NumericHeavy => Some(numeric_heavy::count(scale)),
            Dataset::LongStrings => Some(long_strings::count(scale)),
            Dataset::Twitter | Dataset::CitmCatalog | Dataset::Canada => None,
        }
    }
}

impl fmt::Display for Dataset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for Dataset {
    type Err = DatasetError;

    fn from_str(name: &str) -> Result<Dataset, DatasetError> {
        Dataset::from_name(name).ok_or_else(|| DatasetError::UnknownDataset {
            name: name.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        for (i, dataset) in Dataset::ALL.into_iter().enumerate() {
            assert_eq!(dataset.name().parse::<Dataset>().unwrap(), dataset);
            assert_eq!(dataset.to_string(), dataset.name());
            assert!(
                Dataset::ALL[..i].iter().all(|d| d.name() != dataset.name()),
                "{dataset} appears twice"
            );
        }
    }

    #[test]
    fn an_unknown_dataset_name_is_an_error() {
        assert_eq!(Dataset::from_name("twitter.json"), None);
        let err = "tweets".parse::<Dataset>().unwrap_err();
        assert!(err.to_string().contains("`small_objects`"), "{err}");
    }

    #[test]
    fn exactly_the_three_documents_are_corpus() {
        let corpus: Vec<Dataset> = Dataset::ALL.into_iter().filter(|d| d.is_corpus()).collect();
        assert_eq!(
            corpus,
            [Dataset::Twitter, Dataset::CitmCatalog, Dataset::Canada]
        );
        for dataset in Dataset::ALL {
            assert_eq!(dataset.corpus_json().is_some(), dataset.is_corpus());
            assert_eq!(
                dataset.planned_records(Scale::Ci).is_none(),
                dataset.is_corpus()
            );
        }
    }

    #[test]
    fn generated_seeds_are_distinct() {
        let mut seeds: Vec<u64> = Dataset::ALL
            .into_iter()
            .filter(|d| !d.is_corpus())
            .map(Dataset::seed)
            .collect();
        seeds.sort_unstable();
        seeds.dedup();
        assert_eq!(seeds.len(), 7);
    }
}
