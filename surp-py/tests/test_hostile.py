"""Hostile input: always a DecodeError (or, for a mutation that happens to be
valid, a value), never another exception and never a crash. The families
are in hostile.py; the last test runs them all in a child interpreter, whose
exit status would show a crash."""

import subprocess
import sys
from pathlib import Path

import pytest

import hostile
import surp


@pytest.mark.parametrize("document", [hostile.PLAIN, hostile.DEDUP], ids=["plain", "dedup"])
def test_every_truncation_is_a_decode_error(document):
    assert surp.loads(document) is not None
    for data in hostile.truncations(document):
        err = hostile.expect_rejected(data)
        assert err.offset <= len(data)


def test_truncated_datasets_are_decode_errors(export_dir):
    for path in sorted(export_dir.glob("*.surp")):
        document = path.read_bytes()
        step = max(1, len(document) // 200)
        for data in hostile.truncations(document, range(0, len(document), step)):
            hostile.expect_rejected(data)


@pytest.mark.parametrize("document", [hostile.PLAIN, hostile.DEDUP], ids=["plain", "dedup"])
def test_bit_flips_decode_or_fail_cleanly(document):
    outcomes = {"ok": 0, "rejected": 0}
    for data in hostile.bit_flips(document):
        outcomes[hostile.check(data)[0]] += 1
    # Both happen: flips inside payloads give other valid documents.
    assert outcomes["ok"] > 0 and outcomes["rejected"] > 0


@pytest.mark.parametrize("document", [hostile.PLAIN, hostile.DEDUP], ids=["plain", "dedup"])
def test_random_byte_replacements_decode_or_fail_cleanly(document):
    for data in hostile.replacements(document, 2000, seed=7):
        hostile.check(data)


def test_arbitrary_bytes_decode_or_fail_cleanly():
    for data in hostile.arbitrary(5000, seed=1):
        hostile.check(data)


@pytest.mark.parametrize("kind,tag", hostile.LENGTH_FAMILIES, ids=[k for k, _ in hostile.LENGTH_FAMILIES])
@pytest.mark.parametrize("length", hostile.CLAIMS)
def test_huge_declared_lengths_are_rejected_at_the_header(kind, tag, length):
    bomb = hostile.claiming(tag, length)
    err = hostile.expect_rejected(bomb, "LengthExceedsInput", 0)
    unit = {"Str": "bytes", "Bytes": "bytes", "Array": "items", "Map": "entries"}[kind]
    assert f"declares {length} {unit}" in str(err)
    hostile.expect_rejected(b"\xa1" + bomb, "LengthExceedsInput", 1)
    hostile.expect_rejected(b"\xf2" + bomb, "LengthExceedsInput", 1)


@pytest.mark.parametrize("name,level", hostile.LEVELS, ids=[n for n, _ in hostile.LEVELS])
@pytest.mark.parametrize("prefix", [b"", b"\xf2"], ids=["plain", "dedup"])
def test_a_million_levels_of_nesting_hit_the_depth_limit(name, level, prefix):
    deep = prefix + level * hostile.MILLION + b"\x00"
    err = hostile.expect_rejected(
        deep, "DepthLimitExceeded", len(prefix) + len(level) * surp.MAX_DEPTH
    )
    assert "nesting deeper than the limit of 128" in str(err)


@pytest.mark.parametrize("name,level", hostile.LEVELS, ids=[n for n, _ in hostile.LEVELS])
def test_nesting_at_the_depth_limit_decodes(name, level):
    assert hostile.check(level * surp.MAX_DEPTH + b"\x00")[0] == "ok"


@pytest.mark.parametrize(
    "name,data,at", list(hostile.bad_strings()), ids=[n for n, _, _ in hostile.bad_strings()]
)
def test_invalid_utf8_is_an_error_at_the_first_bad_byte(name, data, at):
    hostile.expect_rejected(data, "InvalidUtf8", at)


def test_no_hostile_family_crashes_the_interpreter():
    script = Path(hostile.__file__)
    child = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=600
    )
    assert child.returncode == 0, f"exit status {child.returncode}\n{child.stdout}\n{child.stderr}"
    assert "hostile inputs decoded or rejected cleanly" in child.stdout
