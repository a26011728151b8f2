"""Every test vector of docs/vectors/surp-v2.json, both ways.

Two kinds of vector cannot be written from Python, and are checked one way:

- maps that repeat a key ("map of 16", "map of 255", "map of 256": the key 1
  sixteen or more times): a dict holds each key once, so `loads` gives the
  dict with the last value per key, and `dumps` cannot produce the bytes;
- `Some(None)`-like values, whose `some` tag Python has no type for: `loads`
  gives the content (`decodes_as`), and `dumps` is checked only where the
  encoding does not depend on the marker (`Some(5)` is written as `5`).
"""

import pytest

import notation
import surp
from conftest import load_vectors

VECTORS = load_vectors()


def by_name(entries):
    return pytest.mark.parametrize("vector", entries, ids=[v["name"] for v in entries])


def one_way(node):
    """Whether a vector's value is one Python cannot hold (see above)."""
    return notation.has_duplicate_keys(node) or notation.has_marked_some(node)


@by_name(VECTORS["vectors"] + VECTORS["dedup"])
def test_loads_reads_every_vector(vector):
    expected = notation.value(vector.get("decodes_as", vector["value"]))
    notation.assert_same(surp.loads(notation.document(vector["hex"])), expected)


@by_name(VECTORS["vectors"])
def test_dumps_writes_every_vector_python_can_hold(vector):
    node = vector["value"]
    if one_way(node):
        pytest.skip("not representable in Python: checked by the loads test only")
    assert surp.dumps(notation.value(node)).hex() == notation.document(vector["hex"]).hex()


def test_only_the_documented_vectors_are_one_way():
    names = [
        v["name"]
        for v in VECTORS["vectors"]
        if one_way(v["value"])
    ]
    assert names == [
        "Some(None)",
        "Some(Some(None))",
        "array holding Some(None)",
        "map of 16",
        "map of 255",
        "map of 256",
    ]


def test_a_map_that_repeats_a_key_keeps_the_last_value():
    assert surp.loads(bytes.fromhex("b3 01 e9 02 e8 01 ea")) == {1: True, 2: None}


@by_name(VECTORS["decode_only"])
def test_loads_reads_every_decode_only_vector(vector):
    notation.assert_same(
        surp.loads(notation.document(vector["hex"])), notation.value(vector["value"])
    )


@by_name(VECTORS["invalid"])
def test_every_invalid_vector_is_a_decode_error_at_its_offset(vector):
    with pytest.raises(surp.DecodeError) as caught:
        surp.loads(notation.document(vector["hex"]))
    assert caught.value.kind == vector["error"]
    assert caught.value.offset == vector["offset"]
    assert str(caught.value).endswith(f" at byte {vector['offset']}")


@by_name(VECTORS["dedup"])
def test_dumps_with_dedup_writes_every_dedup_vector_python_can_hold(vector):
    node = vector["value"]
    if one_way(node):
        pytest.skip("not representable in Python: checked by the loads test only")
    assert surp.dumps(notation.value(node), dedup=True).hex() == notation.document(vector["hex"]).hex()


def test_only_the_documented_dedup_vectors_are_one_way():
    names = [
        v["name"]
        for v in VECTORS["dedup"]
        if one_way(v["value"])
    ]
    assert names == [
        "a some marker inside a deduplicated document",
        "a key written as a some tag is not a string key",
    ]
