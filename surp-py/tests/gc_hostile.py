"""Hostile runtimes for `surp.loads` and `surp.dumps`: the garbage collector
running (and Python code running inside it) while `loads` builds its lists,
and memory running out. Each scenario runs in a child interpreter
(`python gc_hostile.py SCENARIO`), because what it guards against is a
crash; it prints one line saying what it checked and exits 0.
"""

import gc
import resource
import sys

import surp

# Lists of every kind of item, nested, with dicts (which the collector
# tracks) and the size hint the decoder gives: exact for plain documents.
DOCUMENT = {
    "rows": [
        {"id": i, "tags": ["a", "b", str(i)], "point": [i * 0.5, -i * 0.25], "blob": bytes([i % 256]) * 3}
        for i in range(60)
    ],
    "matrix": [[[j, [k for k in range(j % 4)]] for j in range(8)] for _ in range(10)],
    "empty": [[], [[]], {}],
}
DOCUMENTS = [surp.dumps(DOCUMENT), surp.dumps(DOCUMENT, dedup=True)]


def read_every_list():
    """What a gc callback or a finalizer may do: find the lists the
    collector knows of and read every item. A list with an unset (NULL)
    slot crashes the interpreter here."""
    seen = 0
    for generation in (0, 1):
        for obj in gc.get_objects(generation):
            if type(obj) is list:
                for item in obj:
                    seen += item is not None
    return seen


def gc_callback_reads_lists():
    calls = []

    def callback(phase, info):
        if phase == "start":
            calls.append(read_every_list())

    gc.callbacks.append(callback)
    gc.set_threshold(1)
    try:
        for _ in range(20):
            for data in DOCUMENTS:
                assert surp.loads(data) == DOCUMENT
    finally:
        gc.set_threshold(700, 10, 10)
        gc.callbacks.remove(callback)
    assert len(calls) > 100, f"the collector ran only {len(calls)} times"
    return f"{len(calls)} collections during loads, every list read whole"


class Finalized:
    """Part of a reference cycle, so only the collector frees it; its
    finalizer forces a collection, reads every list, and decodes (a
    `loads` inside a `loads`)."""

    runs = 0

    def __init__(self):
        self.me = self

    def __del__(self):
        Finalized.runs += 1
        gc.collect()
        read_every_list()
        assert surp.loads(DOCUMENTS[Finalized.runs % 2]) == DOCUMENT


def finalizers_run_during_loads():
    gc.set_threshold(1)
    try:
        for _ in range(20):
            for data in DOCUMENTS:
                for _ in range(3):
                    Finalized()
                assert surp.loads(data) == DOCUMENT
    finally:
        gc.set_threshold(700, 10, 10)
    gc.collect()
    assert Finalized.runs >= 100, f"only {Finalized.runs} finalizers ran"
    return f"{Finalized.runs} finalizers ran gc.collect() and loads() during loads"


def limit_memory(headroom):
    """Caps this process's address space at its current size plus
    `headroom` bytes."""
    with open("/proc/self/status", encoding="ascii") as f:
        size = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
    resource.setrlimit(resource.RLIMIT_AS, (size + headroom, resource.RLIM_INFINITY))


def memory_runs_out():
    """Allocations larger than the memory left fail: a 300 MB str, a 300 MB
    bytes object, the copy loads() makes of a 300 MB buffer that is not
    bytes, a list of 40 million slots (320 MB of pointers), and a dumps()
    output growing past 256 MB. The process goes on afterwards."""
    mb = 1024 * 1024
    huge_str = b"\xca" + (300 * mb).to_bytes(4, "little") + b"x" * (300 * mb)
    huge_bytes = b"\xce" + (300 * mb).to_bytes(4, "little") + bytes(300 * mb)
    huge_list = b"\xd2" + (40_000_000).to_bytes(4, "little") + bytes(40_000_000)
    big_object = ["x" * 1000] * 400_000
    limit_memory(256 * mb)
    calls = [
        ("loads(str)", lambda: surp.loads(huge_str)),
        ("loads(bytes)", lambda: surp.loads(huge_bytes)),
        # Not bytes, so loads decodes a copy, which does not fit.
        ("loads(memoryview)", lambda: surp.loads(memoryview(huge_str))),
        ("loads(list)", lambda: surp.loads(huge_list)),
        ("dumps", lambda: surp.dumps(big_object)),
    ]
    outcomes = []
    for name, call in calls:
        try:
            call()
        except MemoryError:
            outcomes.append(f"{name}: MemoryError")
        except (surp.DecodeError, surp.EncodeError) as e:
            outcomes.append(f"{name}: {type(e).__name__}")
        else:
            raise AssertionError(f"{name} did not run out of memory")
        # The module still works afterwards.
        assert surp.loads(surp.dumps(DOCUMENT)) == DOCUMENT
    return "; ".join(outcomes)


SCENARIOS = {
    "gc_callback_reads_lists": gc_callback_reads_lists,
    "finalizers_run_during_loads": finalizers_run_during_loads,
    "memory_runs_out": memory_runs_out,
}

if __name__ == "__main__":
    print(f"{sys.argv[1]}: {SCENARIOS[sys.argv[1]]()}")
