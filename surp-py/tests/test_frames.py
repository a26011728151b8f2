"""Frames (spec section 10): `surp.frame`, `surp.read_frames`,
`surp.read_frame` and `surp.FrameReader`, against every `frames` vector and
on streams that arrive in pieces.
"""

import io
import random
import socket
import threading

import pytest

import surp
from conftest import load_vectors

FRAMES = load_vectors()["frames"]


def by_name(entries):
    return pytest.mark.parametrize("vector", entries, ids=[e["name"] for e in entries])


def expected(vector):
    return [bytes.fromhex(d) for d in vector["documents"]], vector.get("error"), vector.get("offset")


def limit(vector):
    return {"max_len": vector["max_len"]} if "max_len" in vector else {}


def check(docs, error, vector):
    want_docs, want_error, want_offset = expected(vector)
    assert docs == want_docs
    if want_error is None:
        assert error is None
    else:
        assert error is not None, f"no error, expected {want_error}"
        assert (error.kind, error.offset) == (want_error, want_offset)


def frames_of(data, **kw):
    docs, error = [], None
    try:
        for doc in surp.read_frames(data, **kw):
            docs.append(doc)
    except surp.DecodeError as e:
        error = e
    return docs, error


@by_name(FRAMES)
def test_read_frames_gives_each_vectors_documents_then_its_error(vector):
    data = bytes.fromhex(vector["hex"])
    check(*frames_of(data, **limit(vector)), vector)
    # Any byte buffer, not only bytes.
    check(*frames_of(bytearray(data), **limit(vector)), vector)
    check(*frames_of(memoryview(data), **limit(vector)), vector)


@by_name(FRAMES)
def test_read_frame_reads_each_vector_from_a_file(vector):
    f = io.BytesIO(bytes.fromhex(vector["hex"]))
    docs, error = [], None
    try:
        while (doc := surp.read_frame(f, **limit(vector))) is not None:
            docs.append(doc)
    except surp.DecodeError as e:
        error = e
    check(docs, error, vector)


def push_all(reader, chunks):
    docs = []
    try:
        for chunk in chunks:
            docs += reader.push(chunk)
        reader.end()
    except surp.DecodeError as e:
        return docs, e
    return docs, None


@by_name(FRAMES)
@pytest.mark.parametrize("step", [1, 2, 3, 5, 1 << 20])
def test_a_frame_reader_gives_each_vector_in_chunks_of_any_size(vector, step):
    data = bytes.fromhex(vector["hex"])
    chunks = [data[i:i + step] for i in range(0, len(data), step)]
    check(*push_all(surp.FrameReader(**limit(vector)), chunks), vector)


@by_name([v for v in FRAMES if "error" not in v])
def test_frame_writes_each_vectors_bytes(vector):
    docs, _, _ = expected(vector)
    assert b"".join(surp.frame(d) for d in docs) == bytes.fromhex(vector["hex"])
    assert b"".join(surp.frame(bytearray(d)) for d in docs) == bytes.fromhex(vector["hex"])


def test_a_frame_over_the_limit_is_refused_from_its_prefix():
    reader = surp.FrameReader(max_len=10)
    assert reader.push(b"\x0b\x00") == []
    assert reader.buffered == 2
    with pytest.raises(surp.DecodeError) as caught:
        reader.push(b"\x00\x00" + b"x" * 11)
    assert (caught.value.kind, caught.value.offset) == ("FrameTooLong", 0)
    # Nothing of the refused frame is kept.
    assert reader.buffered == 0
    # The reader stays failed.
    for call in (lambda: reader.push(b""), reader.end):
        with pytest.raises(surp.DecodeError, match="exceeds the limit of 10"):
            call()


def test_documents_before_a_refused_frame_come_first():
    good = surp.frame(surp.dumps("ok"))
    reader = surp.FrameReader(max_len=10)
    # The chunk completes a frame, then starts one over the limit: the
    # document is returned, the error raised by the next call.
    assert reader.push(good + b"\xff\x00\x00\x00") == [surp.dumps("ok")]
    with pytest.raises(surp.DecodeError) as caught:
        reader.end()
    assert caught.value.kind == "FrameTooLong"


def test_a_reader_holds_no_more_of_a_frame_than_has_arrived():
    # A prefix that claims 16 MiB: nothing is reserved for it.
    reader = surp.FrameReader()
    big = surp.DEFAULT_MAX_FRAME_LEN
    assert reader.push(big.to_bytes(4, "little")) == []
    for n in range(1, 4):
        reader.push(b"x" * 1000)
        assert reader.buffered == 4 + 1000 * n
    with pytest.raises(surp.DecodeError) as caught:
        reader.end()
    assert (caught.value.kind, caught.value.offset) == ("LengthExceedsInput", 0)
    assert str(big) in str(caught.value)


def test_a_stream_of_session_messages_in_frames_through_a_socket():
    encoder = surp.SessionEncoder()
    messages = [{"id": i, "level": "info", "user": f"user-{i % 3}"} for i in range(50)]
    wire = surp.frame(encoder.header()) + b"".join(surp.frame(encoder.encode(m)) for m in messages)
    left, right = socket.socketpair()

    def send():
        # In pieces that cut prefixes and documents anywhere.
        rng = random.Random(7)
        at = 0
        while at < len(wire):
            n = rng.randint(1, 9)
            left.sendall(wire[at:at + n])
            at += n
        left.close()

    sender = threading.Thread(target=send)
    sender.start()
    try:
        with right.makefile("rb") as f:
            decoder = surp.SessionDecoder()
            decoder.read_header(surp.read_frame(f))
            got = []
            while (doc := surp.read_frame(f)) is not None:
                got.append(decoder.decode(doc))
    finally:
        sender.join()
        right.close()
    assert got == messages

    # The same bytes through a FrameReader, as asyncio's data_received gets them.
    reader = surp.FrameReader()
    docs = []
    for i in range(0, len(wire), 7):
        docs += reader.push(wire[i:i + 7])
    reader.end()
    decoder = surp.SessionDecoder()
    decoder.read_header(docs[0])
    assert [decoder.decode(d) for d in docs[1:]] == messages


class Failing(io.RawIOBase):
    def readable(self):
        return True

    def read(self, n=-1):
        raise ConnectionResetError("peer went away")


class Text:
    def read(self, n):
        return "text"


class NonBlocking:
    def read(self, n):
        return None


def test_read_frame_passes_on_what_the_file_raises():
    with pytest.raises(ConnectionResetError, match="peer went away"):
        surp.read_frame(Failing())
    with pytest.raises(TypeError, match="binary file"):
        surp.read_frame(Text())
    with pytest.raises(TypeError, match="blocking file"):
        surp.read_frame(NonBlocking())


@pytest.mark.parametrize("bad,exc", [(-1, ValueError), (True, TypeError), ("10", TypeError), (1.5, TypeError)])
def test_max_len_is_a_whole_number_of_at_least_0(bad, exc):
    for call in (lambda: surp.read_frames(b"", max_len=bad),
                 lambda: surp.read_frame(io.BytesIO(b""), max_len=bad),
                 lambda: surp.FrameReader(max_len=bad)):
        with pytest.raises(exc, match="max_len"):
            call()
    # Past what a prefix can state is no limit.
    assert list(surp.read_frames(surp.frame(b"x" * 20), max_len=2**70)) == [b"x" * 20]
    assert list(surp.read_frames(surp.frame(b""), max_len=0)) == [b""]


def test_the_inputs_are_byte_buffers():
    for call in (lambda: surp.frame("text"), lambda: surp.read_frames("text"),
                 lambda: surp.FrameReader().push("text")):
        with pytest.raises(TypeError, match="bytes, bytearray or memoryview"):
            call()
    # A chunk of the wrong type is refused, and the reader goes on.
    reader = surp.FrameReader()
    assert reader.push(b"\x01\x00") == []
    with pytest.raises(TypeError):
        reader.push("text")
    assert reader.push(b"\x00\x00\x07") == [b"\x07"]
    reader.end()


def test_random_bytes_give_documents_or_a_decode_error():
    rng = random.Random(11)
    for _ in range(3000):
        data = rng.randbytes(rng.randint(0, 40)) if rng.random() < 0.5 else bytes(
            rng.choice([0, 1, 2, 3, 0xFF]) for _ in range(rng.randint(0, 40)))
        max_len = rng.choice([0, 3, 16, surp.DEFAULT_MAX_FRAME_LEN])
        docs, error = frames_of(data, max_len=max_len)
        chunks = [data[i:i + 3] for i in range(0, len(data), 3)]
        pushed, pushed_error = push_all(surp.FrameReader(max_len=max_len), chunks)
        # Every reader agrees on the documents and the error.
        assert pushed == docs
        assert (pushed_error is None) == (error is None)
        if error is not None:
            assert (pushed_error.kind, pushed_error.offset) == (error.kind, error.offset)
        assert b"".join(surp.frame(d) for d in docs) == data[:sum(4 + len(d) for d in docs)]
