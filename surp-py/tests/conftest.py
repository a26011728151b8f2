"""Shared fixtures: the repository's test vectors and the datasets exported
by the Rust harness."""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
VECTORS = REPO / "docs" / "vectors" / "surp-v2.json"


def load_vectors():
    with open(VECTORS, encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="session")
def export_dir(tmp_path_factory):
    """A folder written by `surp-bench export --mode ci`: the one named by
    SURP_EXPORT_DIR (ci.sh exports once for the tests and the benchmark),
    or a fresh export made with cargo (not --quiet: compiling the harness
    takes minutes on a clean checkout, and cargo's lines show progress)."""
    given = os.environ.get("SURP_EXPORT_DIR")
    if given:
        return Path(given)
    out = tmp_path_factory.mktemp("export")
    subprocess.run(
        ["cargo", "run", "--release", "-p", "surp-bench", "--",
         "export", "--mode", "ci", "--output", str(out)],
        cwd=REPO,
        check=True,
    )
    return out
