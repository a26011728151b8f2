"""Hostile inputs for `surp.loads`, the families of the Rust crate's
`surp/tests/hostile/`: truncation, bit flips and byte replacements,
arbitrary bytes, declared lengths far beyond the input, a million levels of
nesting, and invalid UTF-8.

Every family yields (name, data, expectation); `check` decodes and returns
what happened. A decoder may accept a mutated document that happens to be
valid, but it must never raise anything other than `DecodeError`.

Run as a script, it checks every family in this process and exits 0, so a
test can run it in a child interpreter and prove that none of it crashes
the interpreter.
"""

import random
import sys

import surp

# A document with every kind of value, and the same with deduplication.
SAMPLE = {
    "null": None,
    "bools": [True, False],
    "ints": [0, 1, 127, 128, -1, -8, -9, 65535, -(2**40), 2**63, -(2**63), 2**64 - 1, 2**100, -(2**100)],
    "floats": [0.5, -0.0, 0.1, 1e300, float("inf")],
    "text": ["", "short", "naïve 😀", "x" * 40],
    "bytes": [b"", b"\x00\x01", b"\xab" * 20],
    "records": [{"kind": "push", "region": "eu-west-1", "n": i} for i in range(4)],
    7: {"nested": [[[]], {}]},
}
PLAIN = surp.dumps(SAMPLE)
DEDUP = surp.dumps(SAMPLE, dedup=True)

# Invalid UTF-8, as in surp/tests/hostile/utf8.rs.
NOT_UTF8 = [
    ("lone continuation byte", b"\x80"),
    ("truncated two-byte sequence", b"\xc3"),
    ("overlong encoding of '/'", b"\xc0\xaf"),
    ("UTF-16 surrogate", b"\xed\xa0\x80"),
    ("byte 0xff", b"\xff"),
    ("code point above U+10FFFF", b"\xf4\x90\x80\x80"),
]

# The first tag of each length-prefixed family (str, bin, array, map) and
# the lengths claimed: the largest 4-byte length, 2^32, 2^63 and 2^64 - 1.
LENGTH_FAMILIES = [("Str", 0xC8), ("Bytes", 0xCC), ("Array", 0xD0), ("Map", 0xD4)]
CLAIMS = [2**32 - 1, 2**32, 2**63, 2**64 - 1]

# One level of nesting each, as in the Rust tests.
LEVELS = [
    ("fixarray", b"\xa1"),
    ("array with a 1-byte count", b"\xd0\x01"),
    ("fixmap with an integer key", b"\xb1\x00"),
    ("fixmap with a string key", b"\xb1\x81k"),
    ("map with a 1-byte count", b"\xd4\x01\x00"),
    ("some marker", b"\xeb"),
]
MILLION = 1_000_000


def check(data):
    """Decodes `data`: returns ("ok", value) or ("rejected", error); any
    other exception is raised as an AssertionError."""
    try:
        return "ok", surp.loads(data)
    except surp.DecodeError as e:
        if not isinstance(e.offset, int) or not 0 <= e.offset <= len(data):
            raise AssertionError(f"offset {e.offset!r} outside a {len(data)}-byte input: {e}")
        if not str(e).endswith(f" at byte {e.offset}"):
            raise AssertionError(f"message without its offset: {e}")
        return "rejected", e
    except Exception as e:  # noqa: BLE001 - the point is to catch everything else
        raise AssertionError(f"{type(e).__name__} instead of DecodeError: {e}") from e


def expect_rejected(data, kind=None, offset=None):
    outcome, err = check(data)
    if outcome != "rejected":
        raise AssertionError(f"accepted {data[:32].hex()}…: {err!r:.80}")
    if kind is not None and err.kind != kind:
        raise AssertionError(f"{err.kind} instead of {kind}: {err}")
    if offset is not None and err.offset != offset:
        raise AssertionError(f"offset {err.offset} instead of {offset}: {err}")
    return err


def truncations(document, offsets=None):
    """Every proper prefix of a document (or those at `offsets`). Surp values
    are self-delimiting, so no proper prefix is a whole document."""
    for end in offsets if offsets is not None else range(len(document)):
        yield document[:end]


def bit_flips(document):
    """The document with each single bit flipped in turn."""
    for at in range(len(document)):
        for bit in range(8):
            mutated = bytearray(document)
            mutated[at] ^= 1 << bit
            yield bytes(mutated)


def replacements(document, count, seed):
    """`count` copies with 1 to 5 bytes replaced at random (fixed seed)."""
    rng = random.Random(seed)
    for _ in range(count):
        mutated = bytearray(document)
        for _ in range(rng.randint(1, 5)):
            mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        yield bytes(mutated)


def arbitrary(count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        yield bytes(rng.randrange(256) for _ in range(rng.randrange(65)))


def claiming(first_tag, length):
    """A header claiming `length` items, then 16 zero bytes of content."""
    if length <= 2**32 - 1:
        header = bytes([first_tag + 2]) + length.to_bytes(4, "little")
    else:
        header = bytes([first_tag + 3]) + length.to_bytes(8, "little")
    return header + bytes(16)


def bad_strings():
    """(name, document, offset of the first bad byte) for each kind of
    invalid UTF-8, as a value, an array item and a map key, in short and
    long strings, plain and deduplicated."""
    for name, bad in NOT_UTF8:
        for long in (False, True):
            payload = b"ok" + bad + (b"x" * 40 if long else b"")
            header = bytes([0x80 | len(payload)]) if len(payload) <= 31 else bytes([0xC8, len(payload)])
            string = header + payload
            at = len(header) + 2
            yield f"{name} (value, long={long})", string, at
            yield f"{name} (array item, long={long})", b"\xa2\x00" + string, at + 2
            yield f"{name} (map key, long={long})", b"\xb1" + string + b"\x00", at + 1
            yield f"{name} (deduplicated, long={long})", b"\xf2\xa1" + string, at + 2


def run_all():
    """Checks every family; returns the number of inputs decoded."""
    count = 0
    for document in (PLAIN, DEDUP):
        for data in truncations(document):
            expect_rejected(data)
            count += 1
        for data in bit_flips(document):
            check(data)
            count += 1
        for data in replacements(document, 2000, seed=len(document)):
            check(data)
            count += 1
    for data in arbitrary(5000, seed=1):
        check(data)
        count += 1
    for kind, tag in LENGTH_FAMILIES:
        for length in CLAIMS:
            bomb = claiming(tag, length)
            expect_rejected(bomb, "LengthExceedsInput", 0)
            expect_rejected(b"\xa1" + bomb, "LengthExceedsInput", 1)
            expect_rejected(b"\xf2" + bomb, "LengthExceedsInput", 1)
            count += 3
    for name, level in LEVELS:
        for prefix in (b"", b"\xf2"):
            deep = prefix + level * MILLION + b"\x00"
            expect_rejected(deep, "DepthLimitExceeded", len(prefix) + len(level) * surp.MAX_DEPTH)
            count += 1
    for name, data, at in bad_strings():
        expect_rejected(data, "InvalidUtf8", at)
        count += 1
    return count


if __name__ == "__main__":
    print(f"{run_all()} hostile inputs decoded or rejected cleanly")
    sys.exit(0)
