"""`dumps(obj, default=...)`: like `json.dumps`, a callable for the objects
Surp cannot write, whose result is encoded in their place."""

import datetime
import decimal

import pytest

import surp


def test_default_replaces_objects_of_unknown_types():
    when = datetime.date(2024, 2, 29)
    obj = {"when": when, "amount": decimal.Decimal("1.50"), "ids": {3, 1, 2}}

    def default(o):
        if isinstance(o, datetime.date):
            return o.isoformat()
        if isinstance(o, decimal.Decimal):
            return str(o)
        if isinstance(o, set):
            return sorted(o)
        raise TypeError(f"no default for {type(o).__name__}")

    expected = {"when": "2024-02-29", "amount": "1.50", "ids": [1, 2, 3]}
    for dedup in (False, True):
        data = surp.dumps(obj, dedup=dedup, default=default)
        assert data == surp.dumps(expected, dedup=dedup)
        assert surp.loads(data) == expected


def test_default_is_not_called_for_types_surp_writes():
    calls = []
    obj = [None, True, 1, 2**100, 0.5, "s", b"b", bytearray(b"ba"), (1,), {"k": [1]}]
    surp.dumps(obj, default=calls.append)
    assert calls == []


def test_what_default_returns_may_hold_more_unknown_objects():
    def default(o):
        if isinstance(o, frozenset):
            return {"frozen": [set(o)]}
        return sorted(o)

    assert surp.loads(surp.dumps(frozenset([2, 1]), default=default)) == {"frozen": [[1, 2]]}


def test_dict_keys_go_through_default_too():
    obj = {frozenset([1]): "one"}
    assert surp.loads(surp.dumps(obj, default=lambda o: tuple(o))) == {(1,): "one"}


def test_an_exception_from_default_propagates_unchanged():
    class Refused(Exception):
        pass

    raised = Refused("no")

    def default(o):
        raise raised

    with pytest.raises(Refused) as caught:
        surp.dumps({"a": [object()]}, default=default)
    assert caught.value is raised


def test_a_default_that_never_gives_an_encodable_object_hits_the_depth_limit():
    for default in (lambda o: o, lambda o: [o], lambda o: {"again": o}, lambda o: object()):
        with pytest.raises(surp.EncodeError, match="deeper than the limit of 128"):
            surp.dumps(object(), default=default)


def test_encode_errors_after_default_keep_their_path():
    with pytest.raises(surp.EncodeError, match="128-bit") as caught:
        surp.dumps({"a": [object()]}, default=lambda o: [0, 2**200])
    assert caught.value.path == "$['a'][0][1]"


def test_default_must_be_callable():
    with pytest.raises(TypeError, match="callable"):
        surp.dumps(object(), default=1)


def test_without_default_unknown_types_are_encode_errors():
    with pytest.raises(surp.EncodeError, match="type 'object'"):
        surp.dumps([object()])
    with pytest.raises(surp.EncodeError, match="type 'object'"):
        surp.dumps([object()], default=None)
