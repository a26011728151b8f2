#!/usr/bin/env bash
# The Python side of CI, called from .ci/run: builds the `surp` extension into
# a venv, runs its pytest suite, and runs the Python benchmark in ci mode.
#
# Everything comes from the package registries: the pinned requirements from
# PyPI (PIP_FIND_LINKS, when set, is only an extra place pip may look), PyO3
# and the surp crates through cargo. Output goes to bench/results/, which git
# ignores.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
target=${CARGO_TARGET_DIR:-$root/target}
venv=$target/py-venv
results=$root/bench/results
export_dir=$results/export-ci
python=${PYTHON:-python3}

echo "== surp-py: venv and requirements"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
# The module's build and test requirements, and the benchmark's (run below).
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    -r surp-py/requirements.txt -r bench/python/requirements.txt

# Neither step below is --quiet: each compiles for minutes on a clean clone,
# and cargo's "Compiling" lines are the progress.
echo "== surp-py: build the extension (maturin develop --release)"
(
    cd surp-py
    VIRTUAL_ENV=$venv PATH=$venv/bin:$PATH maturin develop --release
)

echo "== surp-py: Rust unit tests (the python feature; \`cargo test --workspace\` builds the crate without it)"
cargo test -p surp-py --features python

echo "== surp-py: export the ci datasets with the Rust harness"
cargo run --release -p surp-bench -- export --mode ci --output "$export_dir"

echo "== surp-py: pytest"
SURP_EXPORT_DIR=$export_dir "$venv/bin/python" -m pytest surp-py/tests -q -p no:cacheprovider

echo "== surp-py: Python benchmark, ci mode"
"$venv/bin/python" bench/python/bench_surp.py --export "$export_dir" --output "$results/python"
