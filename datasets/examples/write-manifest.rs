//! Regenerates `datasets/manifest.toml`, `datasets/typed-manifest.toml` (and the generated tables in
//! `datasets/README.md`) from the current generators and corpus.
//!
//! Run after bumping `DATASET_VERSION`, never to paper over an unexplained
//! change:
//!
//! ```text
//! cargo run --release -p surp-datasets --example write-manifest
//! ```

use std::path::Path;
use std::process::ExitCode;

use surp_datasets::Manifest;
use surp_datasets::typed::regenerate_typed_manifest;

fn main() -> ExitCode {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = Manifest::regenerate();
    let manifest_path = dir.join("manifest.toml");
    let readme_path = dir.join("README.md");
    let typed_path = dir.join("typed-manifest.toml");
    let result = std::fs::write(&manifest_path, manifest.to_toml())
        .and_then(|()| std::fs::write(&typed_path, regenerate_typed_manifest()))
        .map_err(|e| format!("cannot write {}: {e}", manifest_path.display()))
        .and_then(|()| {
            let readme = std::fs::read_to_string(&readme_path)
                .map_err(|e| format!("cannot read {}: {e}", readme_path.display()))?;
            let updated = manifest.update_readme(&readme).map_err(|e| e.to_string())?;
            std::fs::write(&readme_path, updated)
                .map_err(|e| format!("cannot write {}: {e}", readme_path.display()))
        });
    match result {
        Ok(()) => {
            for e in &manifest.entries {
                println!(
                    "{:<17} {:<4} records {:>7}  canonical bytes {:>9}  sha256 {}",
                    e.dataset, e.scale, e.records, e.canonical_len, e.sha256
                );
            }
            println!(
                "wrote {} and {}",
                manifest_path.display(),
                readme_path.display()
            );
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("write-manifest: {message}");
            ExitCode::FAILURE
        }
    }
}
