//! Captures, at build time, what `meta.json` reports about the build: the
//! rustc that compiled the harness and the locked version of every crate in
//! the workspace's `Cargo.lock` (so each format's implementation version is
//! recorded without a second list to keep in step).

use std::env;
use std::fs;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|s| s.trim().to_owned())
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=SURP_BENCH_RUSTC_VERSION={version}");
    println!("cargo:rerun-if-env-changed=RUSTC");

    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let lock = manifest_dir.join("../Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    let text = fs::read_to_string(&lock).unwrap_or_default();

    // Cargo.lock lists each package as `name = "..."` followed by
    // `version = "..."`; that is all this needs from it.
    let mut entries = String::new();
    let mut name: Option<&str> = None;
    for line in text.lines() {
        if let Some(value) = quoted_value(line, "name") {
            name = Some(value);
        } else if let (Some(n), Some(v)) = (name, quoted_value(line, "version")) {
            entries.push_str(&format!("    ({n:?}, {v:?}),\n"));
            name = None;
        }
    }
    let out = PathBuf::from(env::var("OUT_DIR").expect("set by cargo")).join("locked_versions.rs");
    fs::write(
        out,
        format!("pub(crate) const LOCKED_VERSIONS: &[(&str, &str)] = &[\n{entries}];\n"),
    )
    .expect("OUT_DIR is writable");
}

fn quoted_value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line
        .strip_prefix(key)?
        .trim_start()
        .strip_prefix('=')?
        .trim();
    rest.strip_prefix('"')?.strip_suffix('"')
}
