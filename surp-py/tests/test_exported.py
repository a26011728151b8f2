"""Byte compatibility with the Rust implementation on the benchmark datasets.

`surp-bench export` writes each dataset as `<name>.surp` (encoded by the
Rust `surp` crate) and `<name>.json` (the same value in the test-vector
notation). Python must decode the first to exactly the second, and encode
the value back to the very same bytes.
"""

import json

import notation
import surp


def exported(export_dir):
    with open(export_dir / "export.json", encoding="utf-8") as f:
        index = json.load(f)
    assert index["surp_format_version"] == surp.FORMAT_VERSION
    assert index["datasets"], "the export lists no datasets"
    for entry in index["datasets"]:
        data = (export_dir / entry["surp"]).read_bytes()
        assert len(data) == entry["surp_bytes"]
        with open(export_dir / entry["json"], encoding="utf-8") as f:
            expected = notation.value(json.load(f))
        yield entry["name"], data, expected


def test_rust_encoded_datasets_decode_to_their_notation(export_dir):
    names = []
    for name, data, expected in exported(export_dir):
        try:
            notation.assert_same(surp.loads(data), expected)
        except AssertionError as e:
            raise AssertionError(f"{name}: {e}") from None
        names.append(name)
    assert "twitter" in names and "binary_blobs" in names


def test_python_encodes_every_dataset_to_the_rust_bytes(export_dir):
    for name, data, expected in exported(export_dir):
        assert surp.dumps(expected) == data, name


def test_dedup_encodings_of_every_dataset_decode_back_and_are_never_larger(export_dir):
    for name, data, expected in exported(export_dir):
        dedup = surp.dumps(expected, dedup=True)
        assert len(dedup) <= len(data), name
        notation.assert_same(surp.loads(dedup), expected)
