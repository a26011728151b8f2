//! The baseline: an earlier run's output folder, found by version and read
//! back for the regression check.

use std::fs;
use std::path::{Path, PathBuf};

use semver::Version;

use crate::regression::RunIdentity;
use crate::{BenchError, Measurement, parse_csv};

/// An earlier run, as read from its output folder.
#[derive(Clone, Debug)]
pub struct Baseline {
    /// The folder it was read from.
    pub dir: PathBuf,
    /// Its mode, dataset version and format version, from `meta.json`.
    pub identity: RunIdentity,
    /// Its rows, from `summary.csv`.
    pub measurements: Vec<Measurement>,
    /// Rows naming formats, datasets or operations this build does not know.
    pub skipped_rows: Vec<String>,
}

impl Baseline {
    /// Reads `summary.csv` and `meta.json` from a run's output folder.
    pub fn load(dir: &Path) -> Result<Baseline, BenchError> {
        let unusable = |reason: String| BenchError::Baseline {
            path: dir.to_owned(),
            reason,
        };
        let csv_path = dir.join("summary.csv");
        let csv = fs::read_to_string(&csv_path).map_err(BenchError::io(&csv_path))?;
        let (measurements, skipped_rows) =
            parse_csv(&csv).map_err(|reason| unusable(format!("summary.csv: {reason}")))?;
        let meta_path = dir.join("meta.json");
        let meta_text = fs::read_to_string(&meta_path).map_err(BenchError::io(&meta_path))?;
        let meta: serde_json::Value = serde_json::from_str(&meta_text)
            .map_err(|err| unusable(format!("meta.json is not JSON: {err}")))?;
        let text = |key: &str| {
            meta.get(key)
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| unusable(format!("meta.json has no string `{key}`")))
        };
        Ok(Baseline {
            dir: dir.to_owned(),
            identity: RunIdentity {
                mode: text("mode")?,
                dataset_version: text("dataset_version")?,
                surp_format_version: meta
                    .get("surp_format_version")
                    .and_then(serde_json::Value::as_u64),
            },
            measurements,
            skipped_rows,
        })
    }
}

/// The default baseline: among the `v<semver>` folders directly under
/// `bench_root` (normally `docs/assets/bench/`), the one with the highest
/// version not above `version`, other than `output` itself. `None` when
/// there is none.
pub fn default_baseline(bench_root: &Path, version: &Version, output: &Path) -> Option<PathBuf> {
    let output = fs::canonicalize(output).unwrap_or_else(|_| output.to_owned());
    let mut best: Option<(Version, PathBuf)> = None;
    for entry in fs::read_dir(bench_root).ok()?.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        let Some(found) = entry
            .file_name()
            .to_str()
            .and_then(|name| name.strip_prefix('v'))
            .and_then(|v| Version::parse(v).ok())
        else {
            continue;
        };
        if found > *version || fs::canonicalize(&path).is_ok_and(|p| p == output) {
            continue;
        }
        if best.as_ref().is_none_or(|(b, _)| found > *b) {
            best = Some((found, path));
        }
    }
    best.map(|(_, path)| path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_version_not_above_the_current_one_is_the_default() {
        let root = tempfile::tempdir().unwrap();
        for name in ["v0.1.0", "v0.2.0", "v0.10.0", "v1.0.0", "notes", "v0.3"] {
            fs::create_dir(root.path().join(name)).unwrap();
        }
        fs::write(root.path().join("v0.9.0"), "a file, not a run").unwrap();
        let current = Version::new(0, 10, 0);
        let elsewhere = root.path().join("elsewhere");
        assert_eq!(
            default_baseline(root.path(), &current, &elsewhere),
            Some(root.path().join("v0.10.0"))
        );
        // The output folder itself is never its own baseline.
        let output = root.path().join("v0.10.0");
        assert_eq!(
            default_baseline(root.path(), &current, &output),
            Some(root.path().join("v0.2.0"))
        );
        assert_eq!(
            default_baseline(root.path(), &Version::new(0, 0, 1), &output),
            None
        );
    }

    #[test]
    fn a_missing_bench_folder_has_no_baseline() {
        let root = tempfile::tempdir().unwrap();
        let missing = root.path().join("docs");
        assert_eq!(
            default_baseline(&missing, &Version::new(1, 0, 0), root.path()),
            None
        );
    }

    #[test]
    fn a_folder_without_a_summary_is_not_a_baseline() {
        let root = tempfile::tempdir().unwrap();
        let err = Baseline::load(root.path()).unwrap_err();
        assert!(err.to_string().contains("summary.csv"), "{err}");
    }
}
