"""The Python API: the type mapping both ways, the encoder's errors, and the
depth limit."""

import collections
import enum
import math

import pytest

import notation
import surp


def roundtrip(obj, **kwargs):
    return surp.loads(surp.dumps(obj, **kwargs))


# ---------------------------------------------------------------------------
# Scalars


@pytest.mark.parametrize(
    "obj",
    [None, True, False, 0, 1, -1, 127, -8, -9, 2**63 - 1, -(2**63), 2**64 - 1, "", "naïve 😀",
     b"", b"\x00\xff", 0.0, -0.0, 1.5, math.inf, -math.inf, 1e300, 5e-324],
    ids=repr,
)
def test_scalars_round_trip_exactly(obj):
    notation.assert_same(roundtrip(obj), obj)


def test_nan_payloads_and_signs_survive():
    for bits in [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0x7FF8000000000001]:
        f = notation.float_from_bits(bits)
        assert notation.float_bits(roundtrip(f)) == bits


def test_wide_integers_use_the_128_bit_range():
    for n in [2**64, -(2**64) - 1, 2**100, -(2**100), 2**127 - 1, -(2**127), 2**128 - 1]:
        assert roundtrip(n) == n
    assert surp.dumps(2**128 - 1) == bytes.fromhex("ef10") + b"\xff" * 16


@pytest.mark.parametrize("n", [2**128, -(2**127) - 1, 10**60, -(10**60)])
def test_integers_beyond_128_bits_are_an_encode_error(n):
    with pytest.raises(surp.EncodeError, match="128-bit") as caught:
        surp.dumps([n])
    assert caught.value.path == "$[0]"


def test_bool_stays_bool_and_int_stays_int():
    out = roundtrip([True, 1, False, 0, 1.0])
    assert [type(x) for x in out] == [bool, int, bool, int, float]


def test_floats_are_narrowed_exactly():
    assert surp.dumps(1.0) == bytes.fromhex("ec003c")
    assert surp.dumps(0.1) == bytes.fromhex("ee9a9999999999b93f")


# ---------------------------------------------------------------------------
# Containers and keys


def test_tuples_are_written_as_arrays_and_read_as_lists():
    assert surp.dumps((1, "a")) == surp.dumps([1, "a"])
    assert roundtrip((1, (2, 3))) == [1, [2, 3]]


def test_bytearray_and_bytes_subclasses_are_written_as_byte_strings():
    assert surp.dumps(bytearray(b"ab")) == surp.dumps(b"ab") == bytes.fromhex("cc026162")

    class Blob(bytes):
        pass

    assert roundtrip(Blob(b"xyz")) == b"xyz"


def test_dict_order_is_kept():
    obj = {"z": 1, "a": 2, "m": 3}
    assert list(roundtrip(obj)) == ["z", "a", "m"]


def test_keys_of_every_hashable_kind_round_trip():
    obj = {"s": 1, 7: 2, -3: 3, 2.5: 4, b"k": 5, None: 6, True: 7, (1, "x", (2,)): 8}
    notation.assert_same(roundtrip(obj), obj)


def test_an_array_key_decodes_as_a_tuple_at_every_level():
    # {[1, [2]]: null}
    data = bytes.fromhex("b1 a2 01 a1 02 e8")
    assert surp.loads(data) == {(1, (2,)): None}
    assert type(next(iter(surp.loads(data)))) is tuple


def test_a_map_key_is_a_decode_error():
    # {{1: 2}: null}
    with pytest.raises(surp.DecodeError, match="hashable") as caught:
        surp.loads(bytes.fromhex("b1 b1 01 02 e8"))
    assert caught.value.offset == 1
    assert caught.value.kind == "Message"


def test_a_some_marker_decodes_as_its_content_even_as_a_key():
    assert surp.loads(bytes.fromhex("b1 eb 81 61 eb e8")) == {"a": None}


def test_subclasses_are_written_as_their_base_type():
    class Colour(enum.IntEnum):
        RED = 1

    class Name(str):
        pass

    Point = collections.namedtuple("Point", "x y")
    obj = collections.OrderedDict(
        [("c", Colour.RED), ("n", Name("ann")), ("p", Point(1, 2)), ("d", collections.defaultdict(int))]
    )
    notation.assert_same(roundtrip(obj), {"c": 1, "n": "ann", "p": [1, 2], "d": {}})


def test_dict_subclasses_are_written_in_their_iteration_order():
    # OrderedDict keeps its order apart from the dict's storage: after
    # move_to_end the two differ, and dumps follows OrderedDict's, as json
    # does (through items()).
    od = collections.OrderedDict(a=1, b=2, c=3)
    od.move_to_end("a")
    od["d"] = 4
    od.move_to_end("c", last=False)
    assert list(od) == ["c", "b", "a", "d"]
    for dedup in (False, True):
        back = surp.loads(surp.dumps(od, dedup=dedup))
        assert list(back.items()) == list(od.items())
        # Nested, and beside other dicts on the fast path.
        back = surp.loads(surp.dumps([{"x": od}, od, {"y": 1}], dedup=dedup))
        assert list(back[0]["x"]) == list(back[1]) == ["c", "b", "a", "d"]
    # Subclasses that keep dict's order stay on the fast path and keep it.
    dd = collections.defaultdict(list, z=[1], y=[2])
    assert list(surp.loads(surp.dumps(dd))) == ["z", "y"]
    assert list(surp.loads(surp.dumps(collections.Counter("bba")))) == ["b", "a"]


def test_a_dict_subclass_whose_items_fail_raises_their_error():
    # As with default=, the exception of the Python code dumps called is
    # raised as it is.
    class Broken(collections.OrderedDict):
        def items(self):
            raise KeyError("no items today")

    with pytest.raises(KeyError, match="no items today"):
        surp.dumps({"k": Broken(a=1)})


def test_a_dict_subclass_whose_items_are_not_pairs_is_an_encode_error():
    class Triples(collections.OrderedDict):
        def items(self):
            return [("a", 1, 2)]

    with pytest.raises(surp.EncodeError, match=r"items\(\) of a 'Triples' must give \(key, value\) pairs") as info:
        surp.dumps({"k": [Triples(a=1)]})
    assert info.value.path == "$['k'][0]"


def test_repeated_keys_share_one_str_object_and_decode_equal():
    data = surp.dumps([{"name": i, "a_much_longer_key_" * 5: i} for i in range(3)])
    out = surp.loads(data)
    assert out == [{"name": i, "a_much_longer_key_" * 5: i} for i in range(3)]
    keys = [next(iter(d)) for d in out]
    assert keys[0] is keys[1] is keys[2]


# ---------------------------------------------------------------------------
# Deduplication


def test_dedup_output_decodes_to_the_same_value_and_is_never_larger():
    records = [{"kind": ["push", "fork"][i % 2], "region": "eu-west-1", "n": i} for i in range(200)]
    plain = surp.dumps(records)
    dedup = surp.dumps(records, dedup=True)
    assert dedup[0] == 0xF2
    assert len(dedup) < len(plain) // 2
    assert surp.loads(dedup) == records


def test_dedup_without_repeats_is_the_plain_document():
    assert surp.dumps({"a": 1}, dedup=True) == surp.dumps({"a": 1})


def test_dedup_is_keyword_only():
    with pytest.raises(TypeError):
        surp.dumps({}, True)


# ---------------------------------------------------------------------------
# Inputs of loads


def test_loads_takes_bytes_bytearray_and_memoryview():
    data = surp.dumps({"a": [1, 2]})
    assert surp.loads(bytearray(data)) == surp.loads(memoryview(data)) == {"a": [1, 2]}
    assert surp.loads(memoryview(b"xx" + data)[2:]) == {"a": [1, 2]}


def test_loads_refuses_a_str():
    with pytest.raises(TypeError, match="not 'str'"):
        surp.loads("\x05")


# ---------------------------------------------------------------------------
# Encoder errors


def test_an_unsupported_type_names_its_type_and_path():
    with pytest.raises(surp.EncodeError) as caught:
        surp.dumps({"a": [1, {2, 3}]})
    assert str(caught.value) == "cannot encode an object of type 'set' at $['a'][1]"
    assert caught.value.path == "$['a'][1]"
    assert isinstance(caught.value, TypeError)


def test_an_unsupported_key_says_it_is_a_key():
    with pytest.raises(surp.EncodeError) as caught:
        surp.dumps({"a": {frozenset(): 1}})
    assert str(caught.value) == (
        "cannot encode an object of type 'frozenset' in a dict key at $['a'][frozenset()]"
    )


def test_a_lone_surrogate_is_an_encode_error_with_the_unicode_error_as_cause():
    with pytest.raises(surp.EncodeError, match="surrogate") as caught:
        surp.dumps(["ok", "\ud800"])
    assert caught.value.path == "$[1]"
    assert isinstance(caught.value.__cause__, UnicodeEncodeError)


def test_a_reference_cycle_is_an_encode_error_not_a_crash():
    cycle = []
    cycle.append(cycle)
    with pytest.raises(surp.EncodeError, match="reference cycle"):
        surp.dumps(cycle)
    looped = {}
    looped["self"] = looped
    with pytest.raises(surp.EncodeError, match="limit of 128"):
        surp.dumps(looped, dedup=True)


def nested(depth):
    obj = 0
    for _ in range(depth):
        obj = [obj]
    return obj


def test_nesting_at_the_limit_round_trips_and_one_more_level_is_refused():
    assert surp.MAX_DEPTH == 128
    deepest = nested(surp.MAX_DEPTH)
    assert roundtrip(deepest) == deepest
    with pytest.raises(surp.EncodeError) as caught:
        surp.dumps(nested(surp.MAX_DEPTH + 1))
    assert caught.value.path == "$" + "[0]" * surp.MAX_DEPTH
    # And the decoder agrees on where the limit is.
    with pytest.raises(surp.DecodeError) as caught:
        surp.loads(b"\xa1" * (surp.MAX_DEPTH + 1) + b"\x00")
    assert caught.value.kind == "DepthLimitExceeded"


def test_a_deeply_nested_python_object_is_refused_without_recursion_error():
    with pytest.raises(surp.EncodeError):
        surp.dumps(nested(100_000))


def test_decode_error_is_a_value_error_with_offset_and_kind():
    with pytest.raises(ValueError) as caught:
        surp.loads(b"\xa2\x00")
    err = caught.value
    assert isinstance(err, surp.DecodeError)
    assert (err.offset, err.kind) == (0, "LengthExceedsInput")
    assert str(err) == "array declares 2 items but the input is too short to hold them at byte 0"


def test_module_constants():
    assert surp.FORMAT_VERSION == 2
    assert isinstance(surp.__version__, str)
