"""Sessions and dictionaries (docs/spec.md sections 9.1 and 9.2): the
`dictionaries`, `sessions` and `session_invalid` vectors both ways, and what
a session stream promises on live data.
"""

import pytest

import notation
import surp
from conftest import load_vectors

VECTORS = load_vectors()


# The vectors name a dictionary by its index in the `dictionaries` list.
DICTIONARIES = [surp.Dictionary(d["strings"], d["shapes"]) for d in VECTORS["dictionaries"]]


def dictionary_of(index):
    return None if index is None else DICTIONARIES[index]


def budget_of(limits):
    return (limits["strings"], limits["shapes"], limits["bytes"])


def error_name(e):
    """An error as the vectors name it: `Session(X)` for a session rule."""
    return f"Session({e.session})" if e.kind == "Session" else e.kind


def by_name(entries):
    return pytest.mark.parametrize("vector", entries, ids=[v["name"] for v in entries])


@by_name(VECTORS["sessions"])
def test_the_encoder_writes_and_the_decoder_reads_every_session_vector(vector):
    budget, dictionary = budget_of(vector["budget"]), dictionary_of(vector["dictionary"])
    encoder = surp.SessionEncoder(budget=budget, dictionary=dictionary)
    decoder = surp.SessionDecoder(budget=budget, dictionary=dictionary)
    assert encoder.header().hex() == vector["header"]
    decoder.read_header(bytes.fromhex(vector["header"]))
    for i, message in enumerate(vector["messages"]):
        if message.get("reset"):
            encoder.reset()
        expected = notation.value(message["value"])
        data = notation.document(message["hex"])
        assert encoder.encode(expected).hex() == data.hex(), f"message {i}"
        notation.assert_same(decoder.decode(data), expected)
    assert encoder.messages == len(vector["messages"])


@pytest.mark.parametrize("index", range(len(VECTORS["dictionaries"])),
                         ids=[v["name"] for v in VECTORS["dictionaries"]])
def test_every_dictionary_vector_both_ways(index):
    vector, dictionary = VECTORS["dictionaries"][index], DICTIONARIES[index]
    stored = notation.document(vector["hex"])
    assert dictionary.to_bytes() == stored
    assert f"{dictionary.id:016x}" == vector["id"]
    assert dictionary.strings == vector["strings"]
    assert dictionary.shapes == vector["shapes"]
    loaded = surp.Dictionary.from_bytes(stored)
    assert loaded == dictionary and loaded.to_bytes() == stored
    for document in vector["documents"]:
        expected = notation.value(document["value"])
        data = notation.document(document["hex"])
        # A dict holds a key once: a document that repeats one is read only.
        if not notation.has_duplicate_keys(document["value"]):
            assert dictionary.encode(expected).hex() == data.hex()
        notation.assert_same(loaded.decode(data), expected)


def refused(call, error, offset):
    with pytest.raises(surp.DecodeError) as caught:
        call()
    assert (error_name(caught.value), caught.value.offset) == (error, offset)


@by_name([v for v in VECTORS["session_invalid"] if "documents" not in v])
def test_every_invalid_dictionary_or_document_is_refused(vector):
    error, offset = vector["error"], vector["offset"]
    if "document" in vector:
        dictionary = DICTIONARIES[vector["dictionary"]]
        refused(lambda: dictionary.decode(notation.document(vector["document"])), error, offset)
    else:
        refused(lambda: surp.Dictionary.from_bytes(notation.document(vector["stored"])), error, offset)
        if "strings" in vector:
            refused(lambda: surp.Dictionary(vector["strings"], vector["shapes"]), error, offset)


@by_name([v for v in VECTORS["session_invalid"] if "documents" in v])
def test_every_invalid_session_is_refused_with_the_reference_error(vector):
    decoder = surp.SessionDecoder(
        budget=budget_of(vector["limit"]), dictionary=dictionary_of(vector["dictionary"])
    )
    header = False

    def read(data):
        nonlocal header
        if header:
            return decoder.decode(data)
        decoder.read_header(data)
        header = True

    last = len(vector["documents"]) - 1
    for i, document in enumerate(vector["documents"]):
        if isinstance(document, dict):
            data, error, offset = bytes.fromhex(document["hex"]), document["error"], document["offset"]
        elif i < last:
            read(bytes.fromhex(document))
            continue
        else:
            data, error, offset = bytes.fromhex(document), vector["error"], vector["offset"]
        with pytest.raises(surp.DecodeError) as caught:
            read(data)
        assert (error_name(caught.value), caught.value.offset) == (error, offset), f"document {i}"


def log_line(i):
    return {"level": "info", "service": "checkout", "order": f"#{i}", "amount": i * 1.5}


def test_messages_shrink_and_come_back_whatever_the_buffer_type():
    encoder = surp.SessionEncoder()
    decoder = surp.SessionDecoder()
    decoder.read_header(encoder.header())
    for i in range(200):
        line = log_line(i)
        message = encoder.encode(line)
        if i > 0:
            assert len(message) < len(surp.dumps(line)) / 2
        data = [message, bytearray(message), memoryview(message)][i % 3]
        assert decoder.decode(data) == line
    assert encoder.messages == 200
    assert encoder.usage[0] > 0 and decoder.usage == encoder.usage


def test_lost_reordered_and_replayed_messages_are_errors():
    encoder = surp.SessionEncoder()
    header = encoder.header()
    messages = [encoder.encode(log_line(i)) for i in range(4)]
    for order in ([0, 2], [1], [0, 0], [0, 1, 3]):
        decoder = surp.SessionDecoder()
        decoder.read_header(header)
        for n in order[:-1]:
            decoder.decode(messages[n])
        with pytest.raises(surp.DecodeError) as caught:
            decoder.decode(messages[order[-1]])
        assert (caught.value.kind, caught.value.session, caught.value.offset) == ("Session", "Sequence", 2)
    # A plain document's error has no session rule.
    with pytest.raises(surp.DecodeError) as caught:
        surp.loads(b"\xa1")
    assert caught.value.session is None


def test_a_message_that_cannot_be_encoded_is_followed_by_a_reset():
    encoder = surp.SessionEncoder()
    decoder = surp.SessionDecoder()
    decoder.read_header(encoder.header())
    decoder.decode(encoder.encode(log_line(0)))
    assert encoder.usage != (0, 0, 0)
    # The string takes a slot before the set fails: the failed message
    # must leave no trace in the tables.
    with pytest.raises(surp.EncodeError):
        encoder.encode({"note": "a string long enough for a slot", "bad": {1, 2}})
    assert encoder.messages == 1
    assert encoder.usage == (0, 0, 0)
    # The next message starts again from the initial state and says so
    # (kind 2, a reset message), with the string written out.
    after = encoder.encode({"note": "a string long enough for a slot"})
    assert after[:2] == b"\xf1\x02"
    assert b"a string long enough for a slot" in after
    assert decoder.decode(after) == {"note": "a string long enough for a slot"}
    # default= works as for dumps.
    dated = surp.SessionEncoder(default=str)
    decoder = surp.SessionDecoder()
    decoder.read_header(dated.header())
    assert decoder.decode(dated.encode({"at": {1}})) == {"at": "{1}"}


def test_an_encoder_in_a_cycle_through_default_is_collected():
    import gc
    import weakref

    class Connection:
        def __init__(self):
            self.encoder = surp.SessionEncoder(default=self.extra)

        def extra(self, obj):
            return str(obj)

    connection = Connection()
    gone = weakref.ref(connection)
    del connection
    gc.collect()
    assert gone() is None


def test_an_encoder_used_from_its_own_default_says_so():
    seen = []

    def default(obj):
        for call in (lambda: encoder.encode(1), lambda: encoder.messages, encoder.reset,
                     encoder.header):
            with pytest.raises(RuntimeError, match="in use by its own encode") as caught:
                call()
            seen.append(caught.value)
        return str(obj)

    encoder = surp.SessionEncoder(default=default)
    decoder = surp.SessionDecoder()
    decoder.read_header(encoder.header())
    assert decoder.decode(encoder.encode({"at": Exception()})) == {"at": ""}
    assert len(seen) == 4
    # The session goes on.
    assert decoder.decode(encoder.encode({"at": 1})) == {"at": 1}
    assert encoder.messages == 2


def test_budgets_are_capped_at_what_a_header_states_and_checked():
    assert surp.DEFAULT_BUDGET == (16384, 2048, 1048576)
    most = surp.SessionEncoder(budget=(2**24, 2**16, 2**32 - 1)).header()
    for big in [(2**40, 2**20, 2**40), (2**64, 2**70, 2**100)]:
        assert surp.SessionEncoder(budget=big).header() == most
    # A decoder with the default budget refuses a header that asks for more.
    with pytest.raises(surp.DecodeError) as caught:
        surp.SessionDecoder().read_header(most)
    assert (caught.value.session, caught.value.offset) == ("BudgetTooLarge", 3)
    # A decoder given more than a header can state takes the most.
    surp.SessionDecoder(budget=(2**64, 2**64, 2**64)).read_header(most)
    for cls in (surp.SessionEncoder, surp.SessionDecoder):
        with pytest.raises(ValueError):
            cls(budget=(1, -1, 1))
        for wrong in [(1, 2), [1, 2, 3], (1.5, 2, 3), (True, 2, 3), "1,2,3", 7]:
            with pytest.raises(TypeError):
                cls(budget=wrong)
    with pytest.raises(TypeError):
        surp.SessionEncoder(default=1)
    with pytest.raises(TypeError):
        surp.SessionDecoder().decode("not bytes")


def test_a_message_before_the_header_is_refused():
    with pytest.raises(surp.DecodeError) as caught:
        surp.SessionDecoder().decode(surp.SessionEncoder().encode(1))
    assert (caught.value.session, caught.value.offset) == ("MissingHeader", 0)


def test_a_dictionary_learnt_from_samples_is_rust_s_and_shrinks_documents():
    samples = [{"level": "info", "service": "checkout", "n": i} for i in range(50)]
    dictionary = surp.Dictionary.from_samples(samples)
    assert "checkout" in dictionary.strings
    assert ["level", "service", "n"] in dictionary.shapes
    line = {"level": "info", "service": "checkout", "n": 7}
    document = dictionary.encode(line)
    # The keys and "checkout" are references to the dictionary.
    assert b"checkout" not in document and b"service" not in document
    assert len(document) < len(surp.dumps(line))
    assert dictionary.decode(document) == line
    # The stored form is a plain document, and another dictionary refuses
    # the document at its id.
    assert surp.loads(dictionary.to_bytes())["strings"] == dictionary.strings
    other = surp.Dictionary(["another"], [])
    with pytest.raises(surp.DecodeError) as caught:
        other.decode(document)
    assert (caught.value.session, caught.value.offset) == ("WrongDictionary", 2)
    # A session that starts from it is small from its first message.
    encoder = surp.SessionEncoder(dictionary=dictionary)
    decoder = surp.SessionDecoder(dictionary=dictionary)
    decoder.read_header(encoder.header())
    first = encoder.encode(line)
    assert b"checkout" not in first
    assert decoder.decode(first) == line
    # A decoder without it refuses the header.
    with pytest.raises(surp.DecodeError) as caught:
        surp.SessionDecoder().read_header(encoder.header())
    assert caught.value.session == "WrongDictionary"
    with pytest.raises(TypeError):
        surp.SessionEncoder(dictionary="not a dictionary")
    with pytest.raises(TypeError):
        surp.Dictionary.from_samples([{1, 2}])
