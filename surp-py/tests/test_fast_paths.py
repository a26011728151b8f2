"""The fast paths of `dumps` and `loads` (src/write.rs and src/read.rs) and
their hand-over to the serde path, seen from Python.

The fast paths read and build objects with CPython's C API; whatever they do
not handle is done again on the serde path. These tests take each branch
(each exact type, each subclass, each kind of hand-over) and check the
result against what the serde path gives: the deduplicating encoder, which
always takes the serde path, writes the plain document when nothing repeats,
and `loads` of a deduplicated document always takes it too. The Rust unit
tests (`cargo test -p surp-py --features python`) compare the two paths
directly.
"""

import collections
import enum
import os
import struct
import subprocess
import sys
import sysconfig

import pytest

import surp


class Colour(enum.IntEnum):
    RED = 300


class Real(float):
    pass


class Text(str):
    pass


class Blob(bytes):
    pass


class Items(list):
    pass


Point = collections.namedtuple("Point", "x y")

# One of each kind the fast encoder writes: exact types, then subclasses.
# No string repeats, so the deduplicating encoder writes the same bytes.
FAST = [
    "ascii", "na\u00efve", "\u4e2d\u6587", "\U0001f600", 0, 127, -8, -9, 2**63 - 1, -2**63, 2**63,
    2**64 - 1, 0.5, 0.1, float("nan"), True, False, None, b"\x00\x01", b"\xab" * 3000,
    [1, [2]], (3, 4), {"key": 1, 5: "v", (6, 7): None}, Colour.RED, Real(2.5), Text("sub"),
    Blob(b"sub"), collections.OrderedDict(od=1), Items([8]), Point(9, 10),
]


@pytest.mark.parametrize("obj", FAST, ids=repr)
def test_each_kind_is_written_as_the_serde_path_writes_it(obj):
    assert surp.dumps(obj) == surp.dumps(obj, dedup=True)


def test_a_large_document_grows_the_output_in_place():
    doc = [{"id": i, "name": f"item {i}", "blob": bytes([i % 256]) * (i % 50)} for i in range(5000)]
    data = surp.dumps(doc)
    assert len(data) > 100_000
    assert surp.loads(data) == doc


class Unknown:
    pass


@pytest.mark.parametrize("obj", [
    2**64, -2**63 - 1, 2**100, bytearray(b"ab"), [1, 2**70], {"k": bytearray(b"x")},
], ids=repr)
def test_what_the_fast_encoder_hands_over_is_still_encoded(obj):
    back = surp.loads(surp.dumps(obj))
    expected = bytes(obj) if isinstance(obj, bytearray) else obj
    if isinstance(obj, dict):
        expected = {"k": b"x"}
    assert back == expected


def test_an_error_after_fast_progress_has_its_path_and_cause():
    doc = {"rows": [{"id": i} for i in range(100)] + [{"bad": "\ud800"}]}
    with pytest.raises(surp.EncodeError) as caught:
        surp.dumps(doc)
    assert caught.value.path == "$['rows'][100]['bad']"
    assert isinstance(caught.value.__cause__, UnicodeEncodeError)
    with pytest.raises(surp.EncodeError, match="'Unknown'") as caught:
        surp.dumps([1, 2, Unknown()])
    assert caught.value.path == "$[2]"
    assert surp.dumps([1, Unknown()], default=lambda o: "u") == surp.dumps([1, "u"])


def test_loads_gives_the_same_value_as_the_serde_path():
    doc = {
        "ints": [0, 127, 128, -8, -9, 2**63, -2**64, 1709251219660],
        "floats": [0.5, 1.5, -796.0, 0.1, 1e300, float("inf"), 2.0**-20],
        "text": ["", "ascii", "na\u00efve", "k" * 100],
        "keys": {1: "int", b"b": "bytes", None: "null", 0.5: "float", (1, (2,)): "tuple"},
        "big": {str(i): i for i in range(40)},
        "bytes": [b"", b"\x00" * 100],
    }
    # The deduplicated document decodes on the serde path.
    slow = surp.loads(surp.dumps(doc, dedup=True))
    fast = surp.loads(surp.dumps(doc))
    assert repr(fast) == repr(slow)
    assert surp.dumps(fast) == surp.dumps(slow) == surp.dumps(doc)


@pytest.mark.parametrize("bits", [0x7FC00001, 0xFF800001, 0x00000001, 0x7F7FFFFF])
def test_binary32_values_and_nan_payloads_widen_exactly(bits):
    (narrow,) = struct.unpack("<f", struct.pack("<I", bits))
    value = surp.loads(b"\xed" + struct.pack("<I", bits))
    wide = struct.unpack("<Q", struct.pack("<d", value))[0]
    if narrow == narrow:
        assert value == narrow
    else:
        # The payload moves to the top of the binary64 mantissa, the sign
        # stays, and the NaN stays signalling if it was.
        sign = (bits >> 31) << 63
        assert wide == sign | (0x7FF << 52) | ((bits & 0x7FFFFF) << 29)


@pytest.mark.parametrize("half", [0x0001, 0x03FF, 0x0400, 0x3C00, 0x7BFF, 0x7C00, 0xFC00, 0x8001])
def test_binary16_values_widen_exactly(half):
    value = surp.loads(b"\xec" + struct.pack("<H", half))
    assert value == struct.unpack("<e", struct.pack("<H", half))[0]


def test_keys_are_shared_and_long_keys_are_not_cached():
    rows = surp.loads(surp.dumps([{"name": 1, "k" * 100: 2}] * 3))
    first, second = (list(row) for row in rows[:2])
    assert first[0] is second[0]
    assert first[1] == second[1]


def test_short_strings_and_bytes_come_back_equal_and_shared_where_cpython_shares():
    values = ["", "a", "\x7f", "\xe9", "ab", b"", b"\x00", b"\xff", b"ab", b"\xab" * 2047,
              b"\xab" * 2048]
    first, second = surp.loads(surp.dumps([values, values]))
    assert first == values and second == values
    assert [type(v) for v in first] == [type(v) for v in values]
    if sys.implementation.name == "cpython":
        # CPython keeps one object for the empty string and bytes, each
        # one-character latin-1 string and each one-byte bytes; loads hands
        # those out instead of a new object per value.
        for a, b in zip(first, second):
            if len(a) <= 1:
                assert a is b, repr(a)


@pytest.mark.parametrize("data,kind", [
    (b"\x00\x00", "TrailingBytes"),
    (b"\xa2\x00", "LengthExceedsInput"),
    (b"\xb1\xb0\x00", "Message"),
    (b"\x82\xc0\xaf", "InvalidUtf8"),
    (b"\xb1\x81\xff\x00", "InvalidUtf8"),
    (b"\xf1", "ReservedTag"),
    (b"\xc0", None),
    (b"\xeb" * 129 + b"\x00", "DepthLimitExceeded"),
])
def test_what_the_fast_decoder_hands_over_is_reported_by_the_serde_path(data, kind):
    with pytest.raises(surp.DecodeError) as caught:
        surp.loads(data)
    if kind is not None:
        assert caught.value.kind == kind


@pytest.mark.parametrize("n", [1, 5, 6, 11, 40, 1000])
def test_a_decoded_dict_is_the_size_of_one_built_in_python(n):
    # The fast decoder makes dicts as Python and the serde path do, empty and
    # grown by insertion; presizing them (_PyDict_NewPresized) gave dicts of
    # str keys a table for keys of any type on 3.11-3.13, a third larger.
    items = [(f"key{i}", i) for i in range(n)]
    built = {}
    for key, value in items:
        built[key] = value
    fast = surp.loads(surp.dumps(built))
    # Repeated keys make a deduplicated document: the serde path decodes it.
    slow = surp.loads(surp.dumps([built, built], dedup=True))[0]
    assert fast == slow == built
    assert sys.getsizeof(fast) == sys.getsizeof(slow) == sys.getsizeof(built)
    mixed = dict(items + [(7, "int key")])
    assert sys.getsizeof(surp.loads(surp.dumps(mixed))) == sys.getsizeof(mixed)


def test_wide_integers_are_decoded_by_the_serde_path():
    for n in (2**64, -2**64 - 1, 2**127 - 1, -2**127):
        assert surp.loads(surp.dumps([n, {"k": n}])) == [n, {"k": n}]


@pytest.mark.skipif(
    not sysconfig.get_config_var("Py_GIL_DISABLED"), reason="not a free-threaded build"
)
def test_a_free_threaded_interpreter_turns_the_gil_on_for_surp():
    # The fast paths read borrowed references, sound only under the GIL, so
    # the module is declared `gil_used = true` (src/module.rs). A fresh
    # interpreter, so that no other extension has turned the GIL on.
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_GIL"}
    code = "import sys; assert not sys._is_gil_enabled(); import surp; print(sys._is_gil_enabled())"
    result = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code],
        env=env, capture_output=True, text=True, check=True,
    )
    assert result.stdout.strip() == "True"
