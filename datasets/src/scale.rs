//! How big the generated datasets are: `full` for published numbers, `ci` for
//! fast runs of the same generators.

use std::fmt;
use std::str::FromStr;

use crate::DatasetError;

/// The size at which the generated datasets are built.
///
/// Both scales run the same generators from the same seeds; `ci` only uses
/// smaller counts (roughly 1/20 to 1/30 of `full`). The three corpus documents
/// are the same at both scales.
///
/// ```
/// use surp_datasets::Scale;
///
/// assert_eq!("ci".parse::<Scale>().unwrap(), Scale::Ci);
/// assert_eq!(Scale::Full.name(), "full");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scale {
    /// Small counts for CI and quick local runs.
    Ci,
    /// The counts the published benchmark numbers use.
    Full,
}

impl Scale {
    /// Every scale, smallest first.
    pub const ALL: [Scale; 2] = [Scale::Ci, Scale::Full];

    /// The scale's name as written in the manifest and on command lines.
    pub fn name(self) -> &'static str {
        match self {
            Scale::Ci => "ci",
            Scale::Full => "full",
        }
    }

    /// The scale with this name, if there is one.
    pub fn from_name(name: &str) -> Option<Scale> {
        Scale::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Picks the count that belongs to this scale.
    pub(crate) fn pick<T>(self, ci: T, full: T) -> T {
        match self {
            Scale::Ci => ci,
            Scale::Full => full,
        }
    }
}

impl fmt::Display for Scale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for Scale {
    type Err = DatasetError;

    fn from_str(name: &str) -> Result<Scale, DatasetError> {
        Scale::from_name(name).ok_or_else(|| DatasetError::UnknownScale {
            name: name.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scale_parses_from_its_name() {
        for scale in Scale::ALL {
            assert_eq!(scale.name().parse::<Scale>().unwrap(), scale);
            assert_eq!(scale.to_string(), scale.name());
        }
    }

    #[test]
    fn an_unknown_scale_name_is_an_error() {
        let err = "Full".parse::<Scale>().unwrap_err();
        assert!(matches!(err, DatasetError::UnknownScale { name } if name == "Full"));
    }
}
