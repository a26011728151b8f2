"""The value notation of the test vectors (docs/spec.md, "Test vectors"), read
into Python objects, and an exact comparison of decoded values.

The notation is also what `surp-bench export` writes beside each `.surp`
file, so one reader serves the vectors and the cross-language datasets.

Mapping to Python: null -> None, bool -> bool, int -> int, float -> float
(from its bits), str -> str, bytes -> bytes, array -> list, map -> dict (in
order), some -> its content (a dynamic decoder reads a `some` marker as the
value inside it), numbers -> a list of zero-padded decimal strings.
"""

import struct


def value(node):
    """The Python object a notation node denotes."""
    ((kind, body),) = node.items()
    if kind == "null":
        return None
    if kind == "bool":
        return body
    if kind == "int":
        return int(body)
    if kind == "float":
        return float_from_bits(int(body, 16))
    if kind == "str":
        if isinstance(body, dict):
            return body["repeat"] * body["count"]
        return body
    if kind == "bytes":
        if isinstance(body, dict):
            return bytes.fromhex(body["repeat"]) * body["count"]
        return bytes.fromhex(body)
    if kind == "array":
        if isinstance(body, dict):
            return [value(body["repeat"]) for _ in range(body["count"])]
        return [value(item) for item in body]
    if kind == "map":
        pairs = map_pairs(body)
        return {key(k): value(v) for k, v in pairs}
    if kind == "some":
        return value(body)
    if kind == "numbers":
        return [str(i).zfill(body["width"]) for i in range(body["count"])]
    raise ValueError(f"unknown notation kind {kind!r}")


def key(node):
    """A map key: as `value`, with arrays as tuples so that they hash."""
    ((kind, body),) = node.items()
    if kind == "array":
        items = [body["repeat"]] * body["count"] if isinstance(body, dict) else body
        return tuple(key(item) for item in items)
    return value(node)


def map_pairs(body):
    """A map's (key, value) notation pairs, repeats expanded."""
    if isinstance(body, dict):
        return [body["repeat"]] * body["count"]
    return body


def has_duplicate_keys(node):
    """Whether a map anywhere in the node repeats a key: a Python dict cannot
    hold such a map, so the vector cannot be written from Python."""
    ((kind, body),) = node.items()
    if kind == "map":
        keys = [key(k) for k, _ in map_pairs(body)]
        if len(set(keys)) != len(keys):
            return True
        return any(has_duplicate_keys(k) or has_duplicate_keys(v) for k, v in map_pairs(body))
    if kind == "array":
        items = [body["repeat"]] if isinstance(body, dict) else body
        return any(has_duplicate_keys(item) for item in items)
    if kind == "some":
        return has_duplicate_keys(body)
    return False


def has_marked_some(node):
    """Whether the node holds a `Some` written with a `some` tag (one whose
    innermost content is null): Python has no `Some(None)`, so `dumps` cannot
    write it."""
    ((kind, body),) = node.items()
    if kind == "some":
        inner = body
        while "some" in inner:
            inner = inner["some"]
        return "null" in inner or has_marked_some(inner)
    if kind == "array":
        items = [body["repeat"]] if isinstance(body, dict) else body
        return any(has_marked_some(item) for item in items)
    if kind == "map":
        return any(has_marked_some(k) or has_marked_some(v) for k, v in map_pairs(body))
    return False


def document(hex_node):
    """The bytes of a vector's `hex`: a hex string, or a list of segments, each
    a hex string or {"repeat": hex, "count": n}."""
    if isinstance(hex_node, str):
        return bytes.fromhex(hex_node)
    out = bytearray()
    for segment in hex_node:
        if isinstance(segment, str):
            out += bytes.fromhex(segment)
        else:
            out += bytes.fromhex(segment["repeat"]) * segment["count"]
    return bytes(out)


def float_from_bits(bits):
    return struct.unpack("<d", bits.to_bytes(8, "little"))[0]


def float_bits(f):
    return int.from_bytes(struct.pack("<d", f), "little")


def exact(obj):
    """A hashable form of an object that tells apart what `==` confuses:
    True and 1, 1 and 1.0, 0.0 and -0.0, NaNs with different bits; dict
    order counts."""
    if obj is None or isinstance(obj, (str, bytes)):
        return (type(obj).__name__, obj)
    if isinstance(obj, bool):
        return ("bool", obj)
    if isinstance(obj, int):
        return ("int", obj)
    if isinstance(obj, float):
        return ("float", float_bits(obj))
    if isinstance(obj, (list, tuple)):
        return (type(obj).__name__, tuple(exact(item) for item in obj))
    if isinstance(obj, dict):
        return ("dict", tuple((exact(k), exact(v)) for k, v in obj.items()))
    raise TypeError(f"unexpected type {type(obj).__name__}")


def assert_same(actual, expected):
    """Asserts two decoded values are identical: types, bits and order."""
    if exact(actual) != exact(expected):
        raise AssertionError(f"values differ: {first_difference(actual, expected)}")


def first_difference(actual, expected, path="$"):
    """Where two values first differ, as a readable sentence."""
    if type(actual) is not type(expected):
        return f"at {path}: {type(actual).__name__} where {type(expected).__name__} was expected"
    if isinstance(actual, (list, tuple)):
        if len(actual) != len(expected):
            return f"at {path}: {len(actual)} items where {len(expected)} were expected"
        for i, (a, e) in enumerate(zip(actual, expected)):
            if exact(a) != exact(e):
                return first_difference(a, e, f"{path}[{i}]")
    if isinstance(actual, dict):
        if list(map(exact, actual)) != list(map(exact, expected)):
            return f"at {path}: keys {list(actual)[:8]} where {list(expected)[:8]} were expected"
        for k in actual:
            if exact(actual[k]) != exact(expected[k]):
                return first_difference(actual[k], expected[k], f"{path}[{k!r}]")
    return f"at {path}: {actual!r:.80} where {expected!r:.80} was expected"
