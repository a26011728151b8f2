//! Lets cargo-built binaries that embed Python, the Rust unit tests, find the
//! libpython they were linked against at run time, wherever that interpreter
//! is installed (pyenv puts it outside the loader's search path).
//!
//! A wheel built by maturin (which sets `PYO3_BUILD_EXTENSION_MODULE`) does
//! not link libpython and gets no run path.
//!
//! Without the `python` feature there is no module and nothing to link.
//!
//! It also sets PyO3's cfgs (`Py_3_12`, `PyPy`, ...) for the interpreter
//! the module is built against.

#[cfg(not(feature = "python"))]
fn main() {
    // lib.rs gates the fast paths on `all(feature = "python", not(any(PyPy,
    // GraalPy)))`: without the feature nothing sets PyO3's cfgs, but rustc
    // must still know their names (`unexpected_cfgs`).
    println!("cargo::rustc-check-cfg=cfg(PyPy)");
    println!("cargo::rustc-check-cfg=cfg(GraalPy)");
}

#[cfg(feature = "python")]
fn main() {
    // The `Py_3_*` cfgs of the interpreter built against: the fast paths
    // read a str's data in place up to Python 3.13 (see src/write.rs).
    pyo3_build_config::use_pyo3_cfgs();
    println!("cargo:rerun-if-env-changed=PYO3_BUILD_EXTENSION_MODULE");
    if std::env::var_os("PYO3_BUILD_EXTENSION_MODULE").is_some() {
        return;
    }
    if let Some(dir) = pyo3_build_config::get().lib_dir() {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
}
