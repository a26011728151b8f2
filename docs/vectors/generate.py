#!/usr/bin/env python3
"""Writes surp-v2.json: Surp test vectors derived from docs/spec.md.

This is an independent reading of the spec, deliberately not derived from the
Rust code: the Rust tests check the implementation against these bytes, so a
disagreement means one of the two misreads the spec.

    python3 docs/vectors/generate.py   # rewrites docs/vectors/surp-v2.json
"""
import json
import os
import struct

# --- values in the vector notation (see docs/spec.md, "Test vectors") ------


def null():
    return {"null": None}


def boolean(b):
    return {"bool": b}


def integer(i):
    return {"int": str(i)}


def f64(x):
    return {"float": "0x%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]}


def f64_bits(bits):
    return {"float": "0x%016x" % bits}


def string(s):
    return {"str": s}


def string_repeat(s, n):
    return {"str": {"repeat": s, "count": n}}


def bytestring(b):
    return {"bytes": b.hex()}


def bytes_repeat(b, n):
    return {"bytes": {"repeat": b.hex(), "count": n}}


def array(*items):
    return {"array": list(items)}


def mapping(*pairs):
    return {"map": [[k, v] for k, v in pairs]}


def some(v):
    return {"some": v}


def numbers(count, width):
    return {"numbers": {"count": count, "width": width}}


def nest(wrap, depth, leaf):
    return {"nest": {"wrap": wrap, "depth": depth, "leaf": leaf}}


# --- an encoder written from the spec --------------------------------------


def width(n):
    """Smallest number of bytes (1..) holding n."""
    return max(1, (n.bit_length() + 7) // 8)


def length_header(first_inline, inline_max, first_prefixed, n):
    if n <= inline_max:
        return bytes([first_inline + n])
    c = [1, 2, 4, 8].index(next(w for w in (1, 2, 4, 8) if n < 1 << (8 * w)))
    return bytes([first_prefixed + c]) + n.to_bytes(1 << c, "little")


def enc_int(v):
    if 0 <= v <= 127:
        return bytes([v])
    if -8 <= v < 0:
        return bytes([v + 256])
    if v >= 0:
        n, small, wide = v, 0xD8, 0xEF
    else:
        n, small, wide = -1 - v, 0xE0, 0xF0
    w = width(n)
    if w <= 8:
        return bytes([small + w - 1]) + n.to_bytes(w, "little")
    return bytes([wide, w]) + n.to_bytes(w, "little")


def f16_bits_if_exact(x32_bits):
    sign = (x32_bits >> 16) & 0x8000
    exp = (x32_bits >> 23) & 0xFF
    man = x32_bits & 0x7FFFFF
    if exp == 0xFF:
        return sign | 0x7C00 | (man >> 13) if man & 0x1FFF == 0 else None
    if exp == 0:
        return sign if man == 0 else None
    e = exp - 127
    if -14 <= e <= 15:
        return sign | ((e + 15) << 10) | (man >> 13) if man & 0x1FFF == 0 else None
    if -24 <= e < -14:
        sig = (1 << 23) | man
        shift = -e - 1
        return sign | (sig >> shift) if sig & ((1 << shift) - 1) == 0 else None
    return None


def f32_bits_if_exact(bits64):
    exp = (bits64 >> 52) & 0x7FF
    man = bits64 & ((1 << 52) - 1)
    sign = bits64 >> 63
    if exp == 0x7FF:
        if man & ((1 << 29) - 1):
            return None
        return (sign << 31) | (0xFF << 23) | (man >> 29)
    x = struct.unpack("<d", struct.pack("<Q", bits64))[0]
    try:
        b32 = struct.unpack("<I", struct.pack("<f", x))[0]
    except OverflowError:
        return None
    back = struct.unpack("<Q", struct.pack("<d", struct.unpack("<f", struct.pack("<I", b32))[0]))[0]
    return b32 if back == bits64 else None


def enc_float(bits64):
    b32 = f32_bits_if_exact(bits64)
    if b32 is None:
        return b"\xee" + bits64.to_bytes(8, "little")
    b16 = f16_bits_if_exact(b32)
    if b16 is None:
        return b"\xed" + b32.to_bytes(4, "little")
    return b"\xec" + b16.to_bytes(2, "little")


def written(v):
    """The value an encoder writes for `v`: `Some(x)` is `x` itself unless
    `x` is written as null (section 5.3), so a key written through `Some`
    is a string key exactly when its bytes are a string."""
    while "some" in v and encode(v)[:1] not in (b"\xe8", b"\xeb"):
        v = v["some"]
    return v


def unnumber(v):
    """The array a `numbers` notation stands for."""
    x = v["numbers"]
    return array(*[string("%0*d" % (x["width"], i)) for i in range(x["count"])])


def unnest(v):
    """The nested value a `nest` notation stands for."""
    (kind, x), = v.items()
    if kind != "nest":
        return v
    inner = unnest(x["leaf"])
    for _ in range(x["depth"]):
        inner = {"array": array(inner), "map": mapping((integer(0), inner)), "some": some(inner)}[x["wrap"]]
    return inner


def expand(x):
    """A payload given literally or as {"repeat", "count"}: a string, hex, or
    one item (array) or pair (map) repeated."""
    if not isinstance(x, dict):
        return x
    if isinstance(x["repeat"], str):
        return x["repeat"] * x["count"]
    return [x["repeat"]] * x["count"]


def encode(v):
    (kind, x), = v.items()
    if kind == "null":
        return b"\xe8"
    if kind == "bool":
        return b"\xea" if x else b"\xe9"
    if kind == "int":
        return enc_int(int(x))
    if kind == "float":
        return enc_float(int(x, 16))
    if kind == "str":
        data = expand(x).encode("utf-8")
        return length_header(0x80, 31, 0xC8, len(data)) + data
    if kind == "bytes":
        data = bytes.fromhex(expand(x))
        # No inline form: the length always follows (section 3.4).
        return length_header(0xCC, -1, 0xCC, len(data)) + data
    if kind == "array":
        items = expand(x) if isinstance(x, dict) else x
        return length_header(0xA0, 15, 0xD0, len(items)) + b"".join(encode(i) for i in items)
    if kind == "map":
        pairs = expand(x) if isinstance(x, dict) else x
        return length_header(0xB0, 15, 0xD4, len(pairs)) + b"".join(encode(k) + encode(v) for k, v in pairs)
    if kind == "numbers":
        return encode(unnumber(v))
    if kind == "some":
        inner = encode(x)
        return b"\xeb" + inner if inner[:1] in (b"\xe8", b"\xeb") else inner
    raise ValueError(kind)


# --- the deduplicating encoder, from spec section 7 -----------------------

MAX_SHAPE_KEYS = 64


def str_ref_size(slot):
    return 2 if slot < 1 << 8 else 3 if slot < 1 << 16 else 4


def shape_ref_size(shape):
    return 1 if shape < 8 else 2 if shape < 1 << 8 else 3


def shape_ref(shape):
    if shape < 8:
        return bytes([0xC0 + shape])
    width = shape_ref_size(shape) - 1
    return bytes([0xF6 + width - 1]) + shape.to_bytes(width, "little")


def str_size(n):
    return len(length_header(0x80, 31, 0xC8, n)) + n


class Dedup:
    """A naive, canonical deduplicating encoder: tables as dicts and lists,
    each map decided up front, no prediction and no rewriting."""

    def __init__(self, max_strings=1 << 20, max_shapes=1 << 16):
        self.max_strings = max_strings
        self.max_shapes = max_shapes
        self.out = bytearray([0xF2])
        self.slots = {}
        self.shapes = []
        self.first_shape = {}
        self.references = False

    def encode(self, v):
        self.value(v)
        return bytes(self.out if self.references else self.out[1:])

    def string(self, text):
        data = text.encode("utf-8")
        slot = self.slots.get(text)
        if slot is not None:
            self.references = True
            width = str_ref_size(slot) - 1
            self.out += bytes([0xF3 + width - 1]) + slot.to_bytes(width, "little")
            return
        if len(data) >= str_ref_size(len(self.slots)) and len(self.slots) < self.max_strings:
            self.slots[text] = len(self.slots)
        self.out += length_header(0x80, 31, 0xC8, len(data)) + data

    def size_now(self, key):
        slot = self.slots.get(key)
        return str_size(len(key.encode("utf-8"))) if slot is None else str_ref_size(slot)

    def value(self, v):
        v = written(v)
        (kind, x), = v.items()
        if kind == "str":
            self.string(expand(x))
        elif kind == "array":
            items = expand(x) if isinstance(x, dict) else x
            self.out += length_header(0xA0, 15, 0xD0, len(items))
            for item in items:
                self.value(item)
        elif kind == "map":
            self.map(expand(x) if isinstance(x, dict) else x)
        elif kind == "numbers":
            self.value(unnumber(v))
        else:
            self.out += encode(v)

    def map(self, pairs):
        keys = [expand(written(k)["str"]) for k, _ in pairs if "str" in written(k)]
        eligible = len(keys) == len(pairs) and 1 <= len(pairs) <= MAX_SHAPE_KEYS
        shape = self.first_shape.get(tuple(keys)) if eligible else None
        if shape is not None:
            explicit = len(length_header(0xB0, 15, 0xD4, len(pairs))) + sum(self.size_now(k) for k in keys)
            if shape_ref_size(shape) < explicit:
                self.references = True
                self.out += shape_ref(shape)
                for _, v in pairs:
                    self.value(v)
                return
        header = length_header(0xB0, 15, 0xD4, len(pairs))
        self.out += header
        size = len(header)
        for k, v in pairs:
            before = len(self.out)
            self.value(k)
            size += len(self.out) - before
            self.value(v)
        if eligible and size > shape_ref_size(len(self.shapes)) and len(self.shapes) < self.max_shapes:
            self.first_shape.setdefault(tuple(keys), len(self.shapes))
            self.shapes.append(keys)


def hexify(b):
    """Hex, compressing long runs of one byte into repeat segments."""
    if len(b) < 512:
        return b.hex()
    segments, i = [], 0
    while i < len(b):
        j = i
        while j < len(b) and b[j] == b[i]:
            j += 1
        if j - i >= 64:
            segments.append({"repeat": "%02x" % b[i], "count": j - i})
            i = j
        else:
            if segments and isinstance(segments[-1], str):
                segments[-1] += b[i:j].hex()
            else:
                segments.append(b[i:j].hex())
            i = j
    return segments


# --- the vectors ------------------------------------------------------------


def vectors():
    out = []

    def add(name, value, decodes_as=None):
        entry = {"name": name, "value": value, "hex": hexify(encode(value))}
        if decodes_as is not None:
            entry["decodes_as"] = decodes_as
        out.append(entry)

    # Every inline tag.
    for i in range(128):
        add("fixuint %d" % i, integer(i))
    for i in range(-8, 0):
        add("fixnint %d" % i, integer(i))
    for n in range(32):
        add("fixstr of length %d" % n, string("abcdefghijklmnopqrstuvwxyz012345"[:n]))
    for n in (0, 1, 7, 8):
        add("byte string of length %d: no inline form" % n, bytestring(bytes(range(1, n + 1))))
    for n in range(16):
        add("fixarray of %d" % n, array(*[integer(i) for i in range(n)]))
    for n in range(16):
        add("fixmap of %d" % n, mapping(*[(integer(i), boolean(i % 2 == 1)) for i in range(n)]))

    # Integer widths: both sides of every boundary.
    for w in range(1, 9):
        lo = 128 if w == 1 else 1 << (8 * (w - 1))
        add("uint, %d-byte payload, smallest" % w, integer(lo))
        add("uint, %d-byte payload, largest" % w, integer((1 << (8 * w)) - 1))
        add("nint, %d-byte payload, closest to zero" % w, integer(-9 if w == 1 else -1 - (1 << (8 * (w - 1)))))
        add("nint, %d-byte payload, most negative" % w, integer(-(1 << (8 * w))))
    for w in range(9, 17):
        add("wide uint, %d bytes, smallest" % w, integer(1 << (8 * (w - 1))))
        add("wide nint, %d bytes, closest to zero" % w, integer(-1 - (1 << (8 * (w - 1)))))
    add("wide uint, u128::MAX", integer((1 << 128) - 1))
    add("wide nint, i128::MIN", integer(-(1 << 127)))
    add("i64::MIN", integer(-(1 << 63)))
    add("i64::MAX", integer((1 << 63) - 1))

    # Floats.
    for name, x in [
        ("f16: 1.0", 1.0), ("f16: -2.5", -2.5), ("f16: 0.0", 0.0), ("f16: 65504 (largest binary16)", 65504.0),
        ("f16: 2^-14 (smallest binary16 normal)", 2.0 ** -14), ("f16: 2^-24 (smallest binary16 subnormal)", 2.0 ** -24),
        ("f16: 3 * 2^-24 (binary16 subnormal)", 3 * 2.0 ** -24), ("f16: infinity", float("inf")),
        ("f16: -infinity", float("-inf")),
        ("f32: 65505 (just above binary16)", 65505.0), ("f32: 2^-25 (below binary16)", 2.0 ** -25),
        ("f32: 0.1 as binary32", struct.unpack("<f", struct.pack("<f", 0.1))[0]),
        ("f32: 1.0000001 (needs 24 bits)", 1 + 2.0 ** -23), ("f32: 3.4028235e38 (largest binary32)", struct.unpack("<f", b"\xff\xff\x7f\x7f")[0]),
        ("f64: 0.1", 0.1), ("f64: 1e300", 1e300), ("f64: 5e-324 (smallest subnormal)", 5e-324),
        ("f64: pi", 3.141592653589793),
    ]:
        add(name, f64(x))
    add("f16: -0.0", f64_bits(0x8000000000000000))
    add("f16: quiet NaN", f64_bits(0x7FF8000000000000))
    add("f16: negative quiet NaN", f64_bits(0xFFF8000000000000))
    add("f32: NaN with a payload binary16 cannot hold", f64_bits(0x7FF8000020000000))
    add("f64: NaN with a payload binary32 cannot hold", f64_bits(0x7FF8000000000001))
    add("f64: signalling NaN", f64_bits(0x7FF0000000000001))
    # Payload bits move 42 places between binary64 and binary16 (and 29
    # between binary64 and binary32): the lowest payload bit of binary16.
    add("f16: quiet NaN with payload 1", f64_bits(0x7FF8040000000000))
    add("f16: signalling NaN with payload 1", f64_bits(0x7FF0040000000000))
    add("f32: signalling NaN with payload 1", f64_bits(0x7FF0000020000000))

    # Null, booleans, Some markers.
    add("null", null())
    add("false", boolean(False))
    add("true", boolean(True))
    add("Some(None)", some(null()), decodes_as=null())
    add("Some(Some(None))", some(some(null())), decodes_as=null())
    add("Some(5) is 5", some(integer(5)), decodes_as=integer(5))
    add("array holding Some(None)", array(some(null()), null()), decodes_as=array(null(), null()))

    # Length classes: both sides of each boundary.
    for n in (32, 255, 256, 65535, 65536):
        add("string of length %d" % n, string_repeat("x", n))
    add("string of 4 multi-byte characters", string("h\u00e9\u20ac\U0001f600"))
    for n in (8, 255, 256, 65535, 65536):
        add("byte string of length %d" % n, bytes_repeat(b"\xab", n))
    for n in (16, 255, 256, 65536):
        add("array of %d" % n, {"array": {"repeat": integer(0), "count": n}})
    for n in (16, 255, 256):
        add("map of %d" % n, {"map": {"repeat": [integer(1), null()], "count": n}})

    # Structure.
    add("nested arrays", array(array(array()), array(integer(1))))
    add("map with string keys", mapping((string("id"), integer(7)), (string("name"), string("surp"))))
    add("map with mixed keys, in order", mapping((string("b"), null()), (integer(-1), null()), (bytestring(b"k"), null())))
    add("enum unit variant", string("Unit"))
    add("enum newtype variant", mapping((string("New"), integer(3))))
    add("enum struct variant", mapping((string("S"), mapping((string("a"), integer(-5))))))
    return out


def dedup_vectors():
    out = []

    def add(name, value, decodes_as=None):
        entry = {"name": name, "value": value, "hex": hexify(Dedup().encode(value))}
        if decodes_as is not None:
            entry["decodes_as"] = decodes_as
        out.append(entry)

    def record(**fields):
        return mapping(*[(string(k), v) for k, v in fields.items()])

    add("nothing repeats: the plain document, no marker", array(string("a"), string("bc"), string("def")))
    add("a repeated string becomes a reference", array(string("abc"), string("abc")))
    add("one-byte strings never take a slot", array(string("a"), string("a"), string("ab"), string("ab")))
    add("records of one shape", array(*[record(id=integer(i), status=string("active")) for i in range(3)]))
    add("keys and values share the table", array(record(name=string("id")), record(name=string("name"))))
    add(
        "a shape registered inside a map cannot serve that map",
        mapping((string("abc"), mapping((string("abc"), integer(1))))),
    )
    add(
        "a shape registered inside a map serves later maps",
        array(mapping((string("abc"), mapping((string("abc"), integer(1))))), mapping((string("abc"), integer(2)))),
    )
    add(
        "a duplicate shape: later maps reference the lowest-numbered one",
        array(
            mapping((string("abc"), mapping((string("abc"), integer(1))))),
            mapping((string("abc"), mapping((string("abc"), integer(2))))),
        ),
    )
    add("enum variants as one-entry maps", array(*[mapping((string("Fork"), integer(i))) for i in range(3)]))
    add(
        "maps with non-string keys are never shapes",
        array(mapping((integer(1), string("x")), (string("k"), null())), mapping((integer(1), string("x")), (string("k"), null()))),
    )
    add("an empty string key becomes a one-byte shape", array(mapping((string(""), null())), mapping((string(""), null()))))
    eight = [mapping((string("k%d" % i), integer(i))) for i in range(9)]
    add("shapes 0 to 7 take one-byte references, shape 8 two", array(*(eight + eight)))
    add(
        "after 8 shapes, an empty string key is too small to become a shape",
        array(*(eight[:8] + [mapping((string(""), null()))] * 2 + [mapping((string("x1"), integer(1)))] * 2)),
    )
    add(
        "a some marker inside a deduplicated document",
        array(string("xyz"), some(null()), string("xyz")),
        decodes_as=array(string("xyz"), null(), string("xyz")),
    )
    words = [string("w%03d" % i) for i in range(300)]
    add("slot 256 and beyond take two-byte references", array(*(words + [string("w299"), string("w000")])))
    maps = [mapping((string("k%03d" % i), integer(0))) for i in range(260)]
    add("shape 256 and beyond take two-byte references", array(*(maps + [mapping((string("k259"), integer(1)))])))
    add(
        "a key written through Some is a string key",
        array(mapping((some(string("abc")), integer(1))), mapping((some(string("abc")), integer(2)))),
        decodes_as=array(mapping((string("abc"), integer(1))), mapping((string("abc"), integer(2)))),
    )
    add(
        "a key written as a some tag is not a string key",
        array(mapping((some(null()), integer(1))), mapping((some(null()), integer(2)))),
        decodes_as=array(mapping((null(), integer(1))), mapping((null(), integer(2)))),
    )
    # 256 maps of two one-byte keys: shapes 0 to 255, and no string slot.
    letters = "abcdefghijklmnopqrstuvwxyz"
    pairs = [(a, b) for a in letters for b in letters if a != b][:256]
    two_key = [mapping((string(a), integer(0)), (string(b), integer(0))) for a, b in pairs]
    add(
        "a shape is referenced only if shorter than its keys as written now",
        array(*(two_key + [mapping((string("ab"), integer(1))), mapping((string("ab"), integer(2)))])),
    )
    add(
        "a map inside a value a typed decoder skips still registers its shape",
        mapping(
            (string("skipped"), mapping((string("inner"), integer(1)))),
            (string("kept"), mapping((string("inner"), integer(2)))),
        ),
    )
    return out


def dedup_limited():
    """Documents of an encoder that stops adding table entries early
    (section 7.1 and 7.2, "Limits"): `limits` gives its table sizes."""
    out = []

    def add(name, value, strings=1 << 20, shapes=1 << 16):
        doc = Dedup(max_strings=strings, max_shapes=shapes).encode(value)
        out.append({"name": name, "value": value, "limits": {"strings": strings, "shapes": shapes}, "hex": hexify(doc)})

    words = array(string("abc"), string("abc"), string("def"), string("def"))
    add("an encoder limited to one string slot writes later repeats as literals", words, strings=1)
    add("an encoder limited to no string slot writes no string reference", words, strings=0)
    records = array(*[mapping((string("id"), integer(i)), (string("ok"), boolean(True))) for i in range(3)])
    add("an encoder limited to no shape writes every map explicitly", records, shapes=0)
    add("an encoder limited to one shape", array(mapping((string("a"), integer(0))), records), shapes=1)
    return out


# The baseline limits of section 7.4: references may expand a document to
# EXPANSION_RATIO times the bytes read so far plus EXPANSION_BASE bytes.
EXPANSION_RATIO = 64
EXPANSION_BASE = 1 << 20


def first_over_baseline(doc, charges):
    """The offset of the first reference whose charge passes the baseline
    allowance, given each reference as (offset, size, charge), or None."""
    total = 0
    for at, size, charge in charges:
        total += charge
        if total > EXPANSION_RATIO * (at + size) + EXPANSION_BASE:
            return at
    return None


def limits():
    """Documents at and just past the baseline expansion limit of
    section 7.4: every decoder reads the first; a decoder with exactly the
    baseline limits rejects the second, at the reference that passes it."""
    out = []
    text = "x" * 1000
    literal = length_header(0x80, 31, 0xC8, len(text)) + text.encode()
    for refs in range(1, 1 << 16):
        header = length_header(0xA0, 15, 0xD0, refs + 1)
        start = 1 + len(header) + len(literal)
        charges = [(start + 2 * i, 2, len(text)) for i in range(refs)]
        doc = b"\xf2" + header + literal + b"\xf3\x00" * refs
        over = first_over_baseline(doc, charges)
        if over is None:
            within = (refs, doc)
            continue
        value = {"array": {"repeat": string(text), "count": within[0] + 1}}
        out.append({"name": "references at the baseline expansion limit", "hex": hexify(within[1]), "value": value})
        out.append(
            {
                "name": "one reference past the baseline expansion limit",
                "hex": hexify(doc),
                "error": "AllocationLimitExceeded",
                "offset": over,
            }
        )
        return out


def fnv1a64(b):
    h = 0xCBF29CE484222325
    for byte in b:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def dedup_large():
    """Deduplicated documents too large to store: their length, an FNV-1a
    hash of their bytes, and their last bytes."""
    out = []

    def add(name, value):
        doc = Dedup().encode(value)
        out.append({"name": name, "value": value, "len": len(doc), "fnv1a64": fnv1a64(doc), "tail": doc[-16:].hex()})

    add(
        "slot 65536 and beyond take three-byte references",
        array(numbers(65537, 5), string("65536"), string("00256"), string("00000")),
    )
    return out


# --- sessions and dictionaries, from spec section 9 -----------------------

SESSION_PREFIX = 0xF1
KIND_HEADER, KIND_MESSAGE, KIND_RESET, KIND_DICTIONARY = 0, 1, 2, 3
SESSION_VERSION = 1


def dictionary_stored(strings, shapes):
    """The stored form of a dictionary (section 9.2): a plain document."""
    return encode(
        mapping(
            (string("surp_dictionary"), integer(1)),
            (string("strings"), array(*[string(s) for s in strings])),
            (string("shapes"), array(*[array(*[string(k) for k in keys]) for keys in shapes])),
        )
    )


def dictionary_id(strings, shapes):
    """The id as a document carries it: FNV-1a of the stored form, little-endian."""
    return int(fnv1a64(dictionary_stored(strings, shapes)), 16).to_bytes(8, "little")


def utf8_len(text):
    return len(text.encode("utf-8"))


class Tables:
    """The string slots and shapes an encoder has, starting from a
    dictionary's initial state (or empty) and able to return to it."""

    def __init__(self, strings=(), shapes=()):
        self.strings = list(strings)
        self.initial_shapes = [list(keys) for keys in shapes]
        self.restart()

    def restart(self):
        self.slots = {s: i for i, s in enumerate(self.strings)}
        self.shapes = [list(keys) for keys in self.initial_shapes]
        self.first_shape = {}
        for t, keys in enumerate(self.shapes):
            self.first_shape.setdefault(tuple(keys), t)

    def write(self, v):
        """The value `v` written against the tables, which it fills."""
        enc = Dedup()
        enc.out = bytearray()
        enc.slots, enc.shapes, enc.first_shape = self.slots, self.shapes, self.first_shape
        enc.value(v)
        return bytes(enc.out)

    def added(self):
        """Slots, shapes and bytes added since the initial state (section 9.1)."""
        k, m = len(self.strings), len(self.initial_shapes)
        strings = [s for s, i in self.slots.items() if i >= k]
        shapes = self.shapes[m:]
        size = sum(utf8_len(s) + 32 for s in strings)
        size += sum(32 + sum(utf8_len(key) + 8 for key in keys) for keys in shapes)
        return len(strings), len(shapes), size


def session_header(budget, dictionary=None):
    out = bytes([SESSION_PREFIX, KIND_HEADER, SESSION_VERSION])
    for key in ("strings", "shapes", "bytes"):
        out += budget[key].to_bytes(4, "little")
    if dictionary is None:
        return out + b"\x00"
    return out + b"\x01" + dictionary_id(dictionary["strings"], dictionary["shapes"])


class Session:
    """The encoder of one session (section 9.1)."""

    def __init__(self, budget, dictionary=None):
        self.budget = budget
        self.tables = Tables(dictionary["strings"], dictionary["shapes"]) if dictionary else Tables()
        self.number = 0

    def message(self, value, reset=False):
        if reset:
            self.tables.restart()
        kind = KIND_RESET if reset else KIND_MESSAGE
        doc = bytes([SESSION_PREFIX, kind]) + enc_int(self.number) + self.tables.write(value)
        self.number += 1
        strings, shapes, size = self.tables.added()
        if strings > self.budget["strings"] or shapes > self.budget["shapes"] or size > self.budget["bytes"]:
            self.tables.restart()
        return doc


def dictionary_document(dictionary, value):
    """A dictionary document (kind 03): the tables start from the dictionary
    and end with the document."""
    tables = Tables(dictionary["strings"], dictionary["shapes"])
    head = bytes([SESSION_PREFIX, KIND_DICTIONARY]) + dictionary_id(dictionary["strings"], dictionary["shapes"])
    return head + tables.write(value)


def dictionary_list():
    """The dictionaries: sessions and invalid cases name them by index."""
    three = ["%03d" % i for i in range(257)]
    return [
        {"name": "an empty dictionary", "strings": [], "shapes": []},
        {
            "name": "strings and shapes",
            "strings": ["alpha", "beta", "id", "status"],
            # Keys that are no dictionary string are shorter than refsize(4).
            "shapes": [["id", "status"], ["x", "y"], ["alpha"]],
        },
        {"name": "257 strings: slot 256 takes a reference with a two-byte index", "strings": three, "shapes": []},
        {
            "name": "nine shapes of one-byte keys: shape 8 takes a two-byte reference",
            "strings": [],
            "shapes": [[c] for c in "abcdefghi"],
        },
        {
            "name": "a shape of 64 keys",
            "strings": [],
            "shapes": [[chr(0x21 + i) for i in range(64)]],
        },
        {
            # Shape 8's explicit form (b1 80) is no longer than its
            # reference (f6 08), so it is never referenced; nothing forbids
            # it, nor a key twice in one shape.
            "name": "an empty key as shape 8, and a key twice in one shape",
            "strings": [],
            "shapes": [[c] for c in "abcdefgh"] + [[""], ["x", "x"]],
        },
    ]


DICTIONARIES = dictionary_list()


def dictionaries():
    """Dictionaries (section 9.2): their stored form, their id, and
    dictionary documents written with them."""
    documents = [
        [null(), array(string("abc"), string("abc"))],
        [
            mapping((string("id"), integer(7)), (string("status"), string("beta"))),
            mapping((string("x"), integer(1)), (string("y"), integer(2))),
            mapping((string("alpha"), integer(1))),
            array(string("alpha"), string("gamma"), string("gamma")),
            array(mapping((string("id"), integer(1))), mapping((string("id"), integer(2)))),
            array(mapping((string("beta"), string("status"))), mapping((string("beta"), string("id")))),
            integer(5),
        ],
        [array(string("256"), string("255"), string("000"), string("257"), string("257"))],
        [
            array(mapping((string("i"), integer(1))), mapping((string("a"), integer(2)))),
            array(mapping((string("j"), integer(1))), mapping((string("j"), integer(2)))),
        ],
        [
            mapping(*[(string(chr(0x21 + i)), integer(i)) for i in range(64)]),
            mapping(*[(string(chr(0x21 + i)), integer(i)) for i in range(63)]),
        ],
        [
            array(mapping((string(""), integer(1))), mapping((string(""), integer(2)))),
            mapping((string("x"), integer(1)), (string("x"), integer(2))),
            mapping((string("h"), integer(1))),
        ],
    ]
    out = []
    for d, docs in zip(DICTIONARIES, documents):
        strings, shapes = d["strings"], d["shapes"]
        stored = dictionary_stored(strings, shapes)
        entry = dict(d)
        entry["hex"] = hexify(stored)
        entry["id"] = fnv1a64(stored)
        entry["documents"] = [{"value": v, "hex": hexify(dictionary_document(d, v))} for v in docs]
        out.append(entry)
    return out


def budget(strings, shapes, size):
    return {"strings": strings, "shapes": shapes, "bytes": size}


ROOMY = budget(64, 16, 4096)


def sessions():
    """Sessions (section 9.1): a header and messages, each message written
    against the tables the messages before it left."""
    out = []

    def add(name, limits, values, dictionary=None):
        d = DICTIONARIES[dictionary] if dictionary is not None else None
        session = Session(limits, d)
        messages = []
        for v in values:
            reset = isinstance(v, tuple)
            value = v[1] if reset else v
            entry = {"value": value, "hex": hexify(session.message(value, reset))}
            if reset:
                entry["reset"] = True
            messages.append(entry)
        out.append(
            {
                "name": name,
                "budget": limits,
                "dictionary": dictionary,
                "header": hexify(session_header(limits, d)),
                "messages": messages,
            }
        )

    def reset(v):
        return ("reset", v)

    def record(**fields):
        return mapping(*[(string(k), v) for k, v in fields.items()])

    add(
        "messages reuse the strings and shapes of earlier messages",
        ROOMY,
        [
            record(id=integer(1), status=string("active")),
            record(id=integer(2), status=string("active")),
            record(id=integer(3), status=string("idle")),
            array(string("idle"), string("active"), record(id=integer(4), status=string("gone"))),
            integer(5),
        ],
    )
    nine = [mapping((string("k%d" % i), integer(i))) for i in range(9)]
    add(
        "shape 8, registered in one message, is referenced in the next",
        ROOMY,
        [array(*nine), mapping((string("k8"), integer(9))), mapping((string("k0"), integer(10)))],
    )
    add(
        "at the string budget the tables stay; past it they tumble after the message",
        budget(3, 16, 4096),
        [
            array(string("abc"), string("def"), string("abc")),
            array(string("ghi"), string("abc")),
            array(string("jkl"), string("def"), string("jkl")),
            array(string("abc"), string("jkl")),
            array(string("abc"), string("jkl")),
        ],
    )
    add(
        "at the shape budget the tables stay; past it they tumble after the message",
        budget(64, 1, 4096),
        [
            mapping((string("a"), integer(1))),
            array(mapping((string("a"), integer(2))), mapping((string("b"), integer(3))), mapping((string("b"), integer(4)))),
            mapping((string("b"), integer(5))),
            mapping((string("b"), integer(6))),
            mapping((string("a"), integer(7))),
        ],
    )
    # {"ab": "abcdefgh"}: "ab" 2 + 32, "abcdefgh" 8 + 32, the shape 32 + 2 + 8.
    add(
        "at the byte budget the tables stay; past it they tumble after the message",
        budget(64, 16, 116),
        [
            mapping((string("ab"), string("abcdefgh"))),
            mapping((string("ab"), string("abcdefgh"))),
            array(string("x"), mapping((string("ab"), string("x")))),
            array(string("ijk"), string("abcdefgh"), string("ijk")),
            mapping((string("ab"), string("abcdefgh"))),
            mapping((string("ab"), string("abcdefgh"))),
        ],
    )
    # "ééé" is 3 characters and 6 bytes: 6 + 32 = 38 bytes, within 39.
    # "éééé" is 8 bytes: 40, past 39 (counted in characters, 36 would not be).
    e3, e4 = string("\u00e9" * 3), string("\u00e9" * 4)
    add(
        "the byte budget counts UTF-8 bytes, not characters",
        budget(64, 16, 39),
        [array(e3, e3), array(e3), reset(array(e4, e4)), array(e4)],
    )
    add(
        "a budget of nothing: the tables tumble after every message that adds to them",
        budget(0, 0, 0),
        [
            array(record(id=integer(1)), record(id=integer(2))),
            array(record(id=integer(3)), string("x")),
            record(id=integer(4)),
        ],
    )
    add(
        "a reset message starts from the initial state, and numbers go on",
        ROOMY,
        [
            array(string("abc"), record(id=integer(1))),
            array(string("abc"), record(id=integer(2))),
            reset(array(string("abc"), record(id=integer(3)))),
            array(string("abc"), record(id=integer(4))),
        ],
    )
    add(
        "a session with a dictionary: messages start from it, and tumbles and resets return to it",
        budget(1, 8, 4096),
        [
            mapping((string("alpha"), string("gamma"))),
            array(string("gamma"), string("delta"), string("beta")),
            array(string("delta"), string("gamma"), string("alpha"), record(id=integer(1), status=string("gamma"))),
            array(record(beta=integer(1)), record(beta=integer(2))),
            record(beta=integer(3)),
            reset(array(string("gamma"), record(beta=integer(4)), record(x=integer(5), y=integer(6)))),
            array(string("gamma"), record(beta=integer(7))),
        ],
        dictionary=1,
    )
    add(
        "a session with an empty dictionary",
        ROOMY,
        [array(string("abc"), string("abc")), string("abc")],
        dictionary=0,
    )
    add(
        "slots past 255 carried across messages take two-byte indices",
        budget(512, 16, 65536),
        [
            numbers(300, 3),
            array(string("299"), string("256"), string("255"), string("000")),
            array(string("300"), string("300")),
        ],
    )
    add(
        "sequence numbers from 128 take a uint tag",
        budget(0, 0, 0),
        [integer(i) for i in range(130)],
    )
    return out


def session_invalid():
    """Session documents a decoder rejects (section 9). See the spec's
    "Test vectors" section for the three forms of entry."""
    out = []
    limit = budget(1024, 256, 65536)
    header = session_header(ROOMY).hex()

    def msg(number, value_hex, kind=KIND_MESSAGE):
        return (bytes([SESSION_PREFIX, kind]) + enc_int(number)).hex() + value_hex

    def rejected(hexstr, error, offset):
        return {"hex": hexstr, "error": error, "offset": offset}

    def session(name, documents, error, offset, limits=limit, dictionary=None):
        entry = {"name": name, "limit": limits, "dictionary": dictionary, "documents": documents}
        entry["error"], entry["offset"] = error, offset
        out.append(entry)

    def document(name, dictionary, hexstr, error, offset):
        out.append({"name": name, "dictionary": dictionary, "document": hexstr, "error": error, "offset": offset})

    def stored(name, error, strings=None, shapes=None, hexstr=None, offset=None):
        entry = {"name": name}
        if strings is not None:
            entry["strings"], entry["shapes"] = strings, shapes
            hexstr = dictionary_stored(strings, shapes).hex()
        entry["stored"] = hexstr
        entry["error"], entry["offset"] = error, offset
        out.append(entry)

    # The session prefix and its kinds.
    session("an unknown kind", [header, "f10400e8"], "Session(UnknownKind)", 1)
    session("an unknown kind before the header", ["f1ff"], "Session(UnknownKind)", 1)
    session("a header of another version", ["f10002" + header[6:]], "Session(UnsupportedVersion)", 2)
    session("a header of version 0", ["f10000" + header[6:]], "Session(UnsupportedVersion)", 2)
    session("a header whose flag byte is 2", [header[:-2] + "02"], "Session(InvalidFlag)", 15)
    session("a truncated header", [header[:16]], "UnexpectedEof", 8)
    session("a header without its dictionary id", [session_header(ROOMY).hex()[:-2] + "01"], "UnexpectedEof", 16)
    session("a message before the header", [msg(0, "e8")], "Session(MissingHeader)", 1)
    session("a reset message before the header", [msg(0, "e8", KIND_RESET)], "Session(MissingHeader)", 1)
    session("a second header", [header, msg(0, "e8"), header], "Session(UnexpectedHeader)", 1)
    # Section 9.2 says a decoder given no dictionary rejects a dictionary
    # document at byte 2; the reference's session decoder takes kind 03 for
    # a kind that has no place in a session, at byte 1.
    in_session = "f103" + dictionary_id([], []).hex() + "e8"
    session("a dictionary document in a session", [header, in_session], "Session(UnknownKind)", 1)
    # The kind is checked before what follows it, so a document cut short
    # after its kind is refused for its kind, not for its length.
    session("a dictionary document cut short in a session", [header, "f10301"], "Session(UnknownKind)", 1)
    session("a second header cut short", [header, "f10001"], "Session(UnexpectedHeader)", 1)

    # Budgets.
    session("a string budget above the decoder's", [session_header(budget(1025, 16, 4096)).hex()], "Session(BudgetTooLarge)", 3)
    session("a shape budget above the decoder's", [session_header(budget(64, 257, 4096)).hex()], "Session(BudgetTooLarge)", 7)
    session("a byte budget above the decoder's", [session_header(budget(64, 16, 65537)).hex()], "Session(BudgetTooLarge)", 11)
    wide = budget(1 << 24, 1 << 16, (1 << 32) - 1)
    asks = session_header(budget((1 << 24) + 1, 16, 4096)).hex()
    session("a string budget above 2^24", [asks], "Session(BudgetTooLarge)", 3, limits=wide)
    asks = session_header(budget(64, (1 << 16) + 1, 4096)).hex()
    session("a shape budget above 2^16", [asks], "Session(BudgetTooLarge)", 7, limits=wide)
    session(
        "a header naming a dictionary the decoder does not hold",
        [session_header(ROOMY, DICTIONARIES[1]).hex()],
        "Session(WrongDictionary)",
        15,
    )
    session(
        "a header naming another dictionary than the decoder's",
        [session_header(ROOMY, DICTIONARIES[0]).hex()],
        "Session(WrongDictionary)",
        15,
        dictionary=1,
    )
    # Section 9.1 names only a dictionary the decoder does not hold; the
    # reference also refuses a header without one when it holds one.
    session(
        "a header naming no dictionary to a decoder that holds one",
        [header],
        "Session(WrongDictionary)",
        15,
        dictionary=1,
    )

    # Sequence numbers.
    session("message 0 missing", [header, msg(1, "e8")], "Session(Sequence)", 2)
    # The last number, 2^64 - 1, leaves none for a later message: its
    # replay is out of order like any other.
    last = (1 << 64) - 1
    session("a replay of message 2^64 - 1", [header, msg(last, "e8", KIND_RESET), msg(last, "e8")], "Session(Sequence)", 2)
    session("a reset replaying message 2^64 - 1", [header, msg(last, "e8", KIND_RESET), msg(last, "e8", KIND_RESET)], "Session(Sequence)", 2)
    session("a message lost", [header, msg(0, "e8"), msg(2, "e8")], "Session(Sequence)", 2)
    session("a message replayed", [header, msg(0, "e8"), msg(1, "e8"), msg(1, "e8")], "Session(Sequence)", 2)
    lower = [header, msg(0, "e8"), msg(1, "e8"), msg(1, "e8", KIND_RESET)]
    session("a reset message with a lower number", lower, "Session(Sequence)", 2)
    session(
        "a reset message with a higher number is accepted, and the next number is the one after it",
        [header, msg(0, "e8"), msg(5, "e8", KIND_RESET), msg(5, "e8")],
        "Session(Sequence)",
        2,
    )
    session(
        "sequence numbers in non-minimal widths are accepted",
        [header, "f101d800e8", "f101d90100e8", "f101df0200000000000000e8", msg(2, "e8")],
        "Session(Sequence)",
        2,
    )
    session("a negative sequence number", [header, "f101ffe8"], "Session(InvalidSequence)", 2)
    session("a sequence number that is not an integer", [header, "f101e8e8"], "Session(InvalidSequence)", 2)
    session("a sequence number as a wide uint", [header, "f101ef09" + "00" * 9 + "e8"], "Session(InvalidSequence)", 2)
    session("a message without a value", [header, "f10100"], "UnexpectedEof", 3)

    # What the tables hold: a tumble and a reset drop what messages added.
    abc = "a183616263"
    session(
        "a reference to a slot dropped when the string budget tumbled",
        [session_header(budget(0, 16, 4096)).hex(), msg(0, abc), msg(1, "a1f300")],
        "UnknownStringRef",
        4,
    )
    session(
        "a reference to a shape dropped when the shape budget tumbled",
        [session_header(budget(64, 0, 4096)).hex(), msg(0, "b1816101"), msg(1, "c002")],
        "UnknownShapeRef",
        3,
    )
    session(
        "a reference to a slot dropped when the byte budget tumbled",
        [session_header(budget(64, 16, 34)).hex(), msg(0, abc), msg(1, "a1f300")],
        "UnknownStringRef",
        4,
    )
    session(
        "a slot kept at the byte budget; dropped one message later",
        [
            session_header(budget(64, 16, 35)).hex(),
            msg(0, abc),
            msg(1, "a2f3008178"),
            msg(2, "a183646566"),
            msg(3, "a1f300"),
        ],
        "UnknownStringRef",
        4,
    )
    dropped = [header, msg(0, abc), msg(1, "a1f300", KIND_RESET)]
    session("a reference to a slot dropped by a reset", dropped, "UnknownStringRef", 4)
    session(
        "a reference past the dictionary's slots after a tumble",
        [
            session_header(budget(0, 8, 4096), DICTIONARIES[1]).hex(),
            msg(0, "a2f303" + encode(string("gamma")).hex()),
            msg(1, "a2f303f304"),
        ],
        "UnknownStringRef",
        6,
        dictionary=1,
    )

    # Values: read as in a deduplicated document, with no marker.
    session("a message carrying the dedup marker", [header, msg(0, "f2e8")], "MisplacedDedupMarker", 3)
    session("the session prefix inside a message", [header, msg(0, "a1f1")], "ReservedTag", 4)
    session("a byte after a message's value", [header, msg(0, "0000")], "TrailingBytes", 4)
    session("a byte after the header", [header + "00"], "TrailingBytes", 16)

    # After a message fails, kind 01 messages fail until a reset.
    failed = [header, msg(0, abc), rejected(msg(1, "a1f309"), "UnknownStringRef", 4)]
    # The spec does not say whether a message that failed used its number;
    # the reference's decoder counts it, so the same number is a replay.
    session("a message after one that failed, with the failed one's number", failed + [msg(1, "e8")], "Session(Sequence)", 2)
    session("a message after one that failed, with the next number", failed + [msg(2, "e8")], "Session(Broken)", 0)
    session(
        "a reset message after a failed one starts again; its number is then taken",
        failed + [msg(2, abc, KIND_RESET), msg(3, "a1f300"), msg(2, "e8")],
        "Session(Sequence)",
        2,
    )

    # Dictionary documents (section 9.2).
    d1 = dictionary_id(DICTIONARIES[1]["strings"], DICTIONARIES[1]["shapes"]).hex()
    d0 = dictionary_id([], []).hex()
    document("a dictionary document with another dictionary's id", 1, "f103" + d0 + "e8", "Session(WrongDictionary)", 2)
    document("a dictionary document with a session message's kind", 1, "f10100e8", "Session(WrongDictionary)", 1)
    document("a session message cut short after its kind", 1, "f101", "Session(WrongDictionary)", 1)
    document("a session header cut short, to a dictionary decoder", 1, "f10001", "Session(WrongDictionary)", 1)
    document("a dictionary document referring past its slots", 1, "f103" + d1 + "f304", "UnknownStringRef", 10)
    document("a dictionary document referring past its shapes", 1, "f103" + d1 + "c301", "UnknownShapeRef", 10)
    document("a truncated dictionary id", 1, "f103" + d1[:8], "UnexpectedEof", 6)

    # Invalid dictionaries (section 9.2), as given and as stored.
    stored("two equal strings", "Session(InvalidDictionary)", ["abc", "abc"], [])
    stored("a one-byte string at slot 0", "Session(InvalidDictionary)", ["a"], [])
    stored("a two-byte string at slot 256", "Session(InvalidDictionary)", ["%03d" % i for i in range(256)] + ["zz"], [])
    stored("a shape of no keys", "Session(InvalidDictionary)", [], [[]])
    stored("a shape of 65 keys", "Session(InvalidDictionary)", [], [[chr(0x21 + i) for i in range(65)]])
    stored("two shapes with the same keys", "Session(InvalidDictionary)", ["id"], [["id", "x"], ["id", "x"]])
    stored("a shape key that is no string of it and could take a slot", "Session(InvalidDictionary)", ["id"], [["id", "ok"]])
    stored("a shape key of two bytes with no strings", "Session(InvalidDictionary)", [], [["id"]])
    good = dictionary_stored(["abc"], [["x"]])
    version_2 = good.replace(b"dictionary\x01", b"dictionary\x02")
    stored("a stored form of version 2", "Session(InvalidDictionary)", hexstr=version_2.hex())
    swapped = encode(
        mapping(
            (string("surp_dictionary"), integer(1)),
            (string("shapes"), array(array(string("x")))),
            (string("strings"), array(string("abc"))),
        )
    )
    stored("a stored form with the dedup marker", "Session(InvalidDictionary)", hexstr="f2" + good.hex())
    stored("a stored form with its entries in another order", "Session(InvalidDictionary)", hexstr=swapped.hex())
    stored("a stored form with a fourth entry", "Session(InvalidDictionary)", hexstr=("b4" + good.hex()[2:] + "8178e8"))
    as_bytes = good.replace(b"\xa1\x83abc", b"\xa1\xcc\x03abc")
    stored("a stored form whose string is a byte string", "Session(InvalidDictionary)", hexstr=as_bytes.hex())
    return out


def invalid():
    def case(name, hexstr, error, offset):
        return {"name": name, "hex": hexstr, "error": error, "offset": offset}

    return [
        case("empty input", "", "UnexpectedEof", 0),
        case("reserved tag", "f1", "ReservedTag", 0),
        case("uint missing its payload", "d9ff", "UnexpectedEof", 2),
        case("string shorter than declared", "836162", "LengthExceedsInput", 0),
        case("array shorter than declared", "a200", "LengthExceedsInput", 0),
        case("byte string length 2^63", "cf0000000000000080", "LengthExceedsInput", 0),
        case("map count 2^63", "d70000000000000080", "LengthExceedsInput", 0),
        case("map count 2^32 - 1", "d6ffffffff", "LengthExceedsInput", 0),
        case("f64 missing payload bytes", "ee000000", "UnexpectedEof", 4),
        case("2-byte string reference to an undefined slot", "f2f40001", "UnknownStringRef", 1),
        case("3-byte string reference to an undefined slot", "f2f5000001", "UnknownStringRef", 1),
        case("2-byte shape reference to an undefined shape", "f2f70001", "UnknownShapeRef", 1),
        case("string length 2^32", "cb0000000001000000", "LengthExceedsInput", 0),
        case("string length 2^63", "cb0000000000000080", "LengthExceedsInput", 0),
        case("array count 2^32", "d30000000001000000", "LengthExceedsInput", 0),
        case("array count 2^63", "d30000000000000080", "LengthExceedsInput", 0),
        case("map count larger than half the rest", "b3" + "0000", "LengthExceedsInput", 0),
        case("invalid UTF-8 in a string", "82c328", "InvalidUtf8", 1),
        case("UTF-16 surrogate in a string", "83eda080", "InvalidUtf8", 1),
        case("invalid UTF-8 after valid bytes: the error is at the first invalid byte", "8361ff62", "InvalidUtf8", 2),
        case("wide integer with length 8", "ef08" + "00" * 8, "InvalidWideInteger", 0),
        case("wide integer with length 17", "ef11" + "00" * 17, "InvalidWideInteger", 0),
        case("trailing byte after a value", "0000", "TrailingBytes", 1),
        case("dedup marker inside a document", "a1f2", "MisplacedDedupMarker", 1),
        case("string reference without a marker", "f300", "RefWithoutMarker", 0),
        case("shape reference without a marker", "f600", "RefWithoutMarker", 0),
        case("one-byte shape reference without a marker", "c0", "RefWithoutMarker", 0),
        case("one-byte shape reference inside a plain document", "a1c0", "RefWithoutMarker", 1),
        case("one-byte shape reference to an undefined shape", "f2c7", "UnknownShapeRef", 1),
        case("one-byte shape reference to a shape not yet registered", "f2a2c0b1816100", "UnknownShapeRef", 2),
        case("string reference to an undefined slot", "f2f300", "UnknownStringRef", 1),
        case("shape reference to an undefined shape", "f2f600", "UnknownShapeRef", 1),
        case("forward string reference", "f2a2f30083616263", "UnknownStringRef", 2),
        case("shape reference whose values run past the end", "f2a2b18361626301c0", "UnexpectedEof", 9),
        case("invalid UTF-8 in a literal that takes a slot", "f2a283ff6162f300", "InvalidUtf8", 3),
        case("nesting deeper than 128", "a1" * 129 + "00", "DepthLimitExceeded", 128),
        case("some markers deeper than 128", "eb" * 129 + "e8", "DepthLimitExceeded", 128),
        case("maps deeper than 128", "b100" * 129 + "00", "DepthLimitExceeded", 256),
    ]


def deep():
    """Documents at the depth limit of section 4 (128). Their values are
    written with `nest`, because JSON parsers limit nesting too."""
    out = []

    def add(name, value, decodes_as=None):
        entry = {"name": name, "value": value, "hex": hexify(encode(unnest(value)))}
        if decodes_as is not None:
            entry["decodes_as"] = decodes_as
        out.append(entry)

    add("128 nested arrays around a scalar", nest("array", 128, integer(0)))
    add("128 nested one-entry maps around a scalar", nest("map", 128, integer(0)))
    add("128 some markers around null", nest("some", 128, null()), decodes_as=null())
    return out


def decode_only():
    """Valid documents a canonical encoder never writes: decoders accept them."""

    def case(name, hexstr, value):
        return {"name": name, "hex": hexstr, "value": value}

    return [
        case("uint 5 with a 1-byte payload", "d805", integer(5)),
        case("uint 1 with an 8-byte payload", "df0100000000000000", integer(1)),
        case("nint -1 with a 2-byte payload", "e10000", integer(-1)),
        case("wide uint holding 1", "ef09010000000000000000", integer(1)),
        case("1.0 as binary64", "ee000000000000f03f", f64(1.0)),
        case("1.5 as binary32", "ed0000c03f", f64(1.5)),
        case("string with an 8-byte length", "cb0200000000000000" + "6869", string("hi")),
        case("byte string with an 8-byte length", "cf0100000000000000" + "ff", bytestring(b"\xff")),
        case("array with an 8-byte count", "d30100000000000000" + "e8", array(null())),
        case("map with an 8-byte count", "d70100000000000000" + "00e9", mapping((integer(0), boolean(False)))),
        case("map with a 4-byte count", "d60100000000e9", mapping((integer(0), boolean(False)))),
        case("string with a 1-byte length", "c80161", string("a")),
        # Deduplicated documents (section 7).
        case("marker without references", "f2e8", null()),
        case("marker, and a repeat written as a literal", "f2a2" + "83616263" * 2, array(string("abc"), string("abc"))),
        case("string reference to slot 0 with a 2-byte index", "f2a283616263f40000", array(string("abc"), string("abc"))),
        case("string reference to slot 0 with a 3-byte index", "f2a283616263f5000000", array(string("abc"), string("abc"))),
        case(
            "shape reference to shape 0 with a 1-byte index",
            "f2a2b18361626301f60002",
            array(mapping((string("abc"), integer(1))), mapping((string("abc"), integer(2)))),
        ),
        case(
            "shape reference to shape 0 with a 2-byte index",
            "f2a2b18361626301f7000002",
            array(mapping((string("abc"), integer(1))), mapping((string("abc"), integer(2)))),
        ),
        case(
            "a some tag around a string key is not a string key: the map is no shape",
            "f2a3b1eb8361626301b18378797a02c003",
            array(mapping((string("abc"), integer(1))), mapping((string("xyz"), integer(2))), mapping((string("xyz"), integer(3)))),
        ),
        case(
            "a reference to the higher-numbered of two duplicate shapes",
            "f2a2b183616263b1f30001c102",
            array(mapping((string("abc"), mapping((string("abc"), integer(1))))), mapping((string("abc"), integer(2)))),
        ),
    ]


def frames():
    """Streams of frames (section 10): each document behind its length as
    4 bytes little-endian."""
    out = []

    def framed(docs):
        return "".join(len(bytes.fromhex(d)).to_bytes(4, "little").hex() + d for d in docs)

    def add(name, docs, tail="", max_len=None, error=None, offset=None):
        entry = {"name": name}
        if max_len is not None:
            entry["max_len"] = max_len
        entry["documents"] = docs
        entry["hex"] = framed(docs) + tail
        if error is not None:
            entry["error"] = error
            entry["offset"] = offset
        out.append(entry)

    ping = hexify(encode(array(string("ping"), integer(1))))
    pong = hexify(encode(array(string("pong"), integer(2))))
    add("no frames", [])
    add("one frame", [ping])
    add("two frames back to back", [ping, pong])
    add("a frame of length 0 (its empty document is no document)", [""])
    add("a deduplicated document in a frame", [hexify(Dedup().encode(array(string("abc"), string("abc"))))])
    add("a frame of 300 bytes: the length takes two bytes of the prefix", [hexify(encode(string("x" * 297)))])
    add("the input ends inside a prefix", [], tail="0700", error="UnexpectedEof", offset=2)
    add("the input ends inside a prefix, after a frame", [ping], tail="07", error="UnexpectedEof", offset=1)
    add("the input ends inside a payload", [], tail="07000000a284", error="LengthExceedsInput", offset=0)
    add("a frame longer than the limit", [], tail=framed([ping]), max_len=6, error="FrameTooLong", offset=0)
    add("a frame at the limit, then one over it", [ping], tail=framed([hexify(encode(string("pingpong")))]), max_len=7, error="FrameTooLong", offset=0)
    add("a prefix over the default limit of 16 MiB", [], tail="01000001", error="FrameTooLong", offset=0)
    return out


def main():
    doc = {
        "format": "surp",
        "version": 2,
        "spec": "docs/spec.md",
        "notation": "see docs/spec.md, section 'Test vectors'",
        "vectors": vectors(),
        "decode_only": decode_only(),
        "dedup": dedup_vectors(),
        "deep": deep(),
        "dedup_large": dedup_large(),
        "dedup_limited": dedup_limited(),
        "limits": limits(),
        "dictionaries": dictionaries(),
        "sessions": sessions(),
        "session_invalid": session_invalid(),
        "frames": frames(),
        "invalid": invalid(),
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "surp-v2.json")
    # One vector per line keeps diffs readable.
    lines = ["{"]
    for key in ("format", "version", "spec", "notation"):
        lines.append("%s: %s," % (json.dumps(key), json.dumps(doc[key])))
    keys = (
        "vectors",
        "decode_only",
        "dedup",
        "deep",
        "dedup_large",
        "dedup_limited",
        "limits",
        "dictionaries",
        "sessions",
        "session_invalid",
        "frames",
        "invalid",
    )
    for i, key in enumerate(keys):
        items = [json.dumps(item, ensure_ascii=False) for item in doc[key]]
        lines.append("%s: [" % json.dumps(key))
        lines.append(",\n".join(items))
        lines.append("]" + ("," if i < len(keys) - 1 else ""))
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(
        "wrote %d vectors, %d invalid cases, %d sessions, %d dictionaries, %d invalid session cases to %s"
        % (len(doc["vectors"]), len(doc["invalid"]), len(doc["sessions"]), len(doc["dictionaries"]), len(doc["session_invalid"]), path)
    )


if __name__ == "__main__":
    main()
