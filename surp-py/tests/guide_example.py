import datetime

import surp

# The order of the Rust quick start, as a dict: the same 67 bytes.
order = {
    "id": 1042,
    "customer": "Ada Lovelace",
    "items": ["notebook", "pencil"],
    "total": 12.5,
    "note": None,
}
data = surp.dumps(order)
assert len(data) == 67
assert surp.loads(data) == order

# Bytes stay bytes; a tuple comes back as a list.
value = {"blob": b"\x00\xff", "pair": (1, 2)}
assert surp.loads(surp.dumps(value)) == {"blob": b"\x00\xff", "pair": [1, 2]}

# dedup=True writes repeated strings and key sets once, then refers back.
events = [{"kind": "push", "repo": "surp", "n": n} for n in range(100)]
assert len(surp.dumps(events)) == 2402
assert len(surp.dumps(events, dedup=True)) == 621
assert surp.loads(surp.dumps(events, dedup=True)) == events

# default= turns what Surp cannot write into something it can.
when = {"at": datetime.date(2024, 2, 29)}
encoded = surp.dumps(when, default=lambda obj: obj.isoformat())
assert surp.loads(encoded) == {"at": "2024-02-29"}

# Without it, an EncodeError (a TypeError) says where the object is.
try:
    surp.dumps({"tags": {"a", "b"}})
except surp.EncodeError as err:
    assert err.path == "$['tags']"
    assert str(err) == "cannot encode an object of type 'set' at $['tags']"
else:
    raise AssertionError("a set cannot be encoded")

# A DecodeError (a ValueError) has the Rust decoder's kind and offset.
try:
    surp.loads(data[:10])
except surp.DecodeError as err:
    assert err.kind == "LengthExceedsInput"
    assert err.offset == 0
    assert str(err) == (
        "map declares 5 entries but the input is too short to hold them at byte 0"
    )
else:
    raise AssertionError("a cut document cannot be decoded")

# A session: strings and key sets carry over from message to message, so
# the messages of a stream shrink. The bytes are Rust's and JavaScript's.
encoder = surp.SessionEncoder()  # budget=(strings, shapes, bytes)
decoder = surp.SessionDecoder()
decoder.read_header(encoder.header())  # the header goes first
first = encoder.encode({"kind": "push", "repo": "surp", "n": 0})
later = encoder.encode({"kind": "push", "repo": "surp", "n": 1})
assert (len(first), len(later)) == (27, 9)
assert decoder.decode(first) == {"kind": "push", "repo": "surp", "n": 0}
assert decoder.decode(later) == {"kind": "push", "repo": "surp", "n": 1}

# Every message must be read, in order: a lost one is an error.
skipped = encoder.encode({"kind": "pull", "repo": "surp", "n": 2})
try:
    decoder.decode(encoder.encode({"kind": "push", "repo": "surp", "n": 3}))
except surp.DecodeError as err:
    assert (err.kind, err.session, err.offset) == ("Session", "Sequence", 2)
else:
    raise AssertionError("a message was lost")

# Over a stream (a socket, a pipe), send each document in a frame: its
# length, 4 bytes little-endian, then its bytes, as Rust's surp::frame does.
wire = surp.frame(surp.dumps("ping")) + surp.frame(surp.dumps("pong"))
assert [surp.loads(doc) for doc in surp.read_frames(wire)] == ["ping", "pong"]
# Chunks as they arrive (asyncio's data_received) go to a FrameReader;
# from a binary file object (socket.makefile("rb")), surp.read_frame reads
# the next frame, or gives None at the end.
frames = surp.FrameReader()  # max_len=surp.DEFAULT_MAX_FRAME_LEN (16 MiB)
assert frames.push(wire[:11]) == [surp.dumps("ping")]  # and 2 bytes of pong
assert frames.push(wire[11:]) == [surp.dumps("pong")]
frames.end()  # a DecodeError if the stream stopped inside a frame
