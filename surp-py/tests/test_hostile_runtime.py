"""The garbage collector and Python code running in the middle of `loads`
and `dumps`, memory running out, and containers changing size while they
are encoded: errors, never a crash or a PanicException.

The crash scenarios run in a child interpreter (gc_hostile.py), whose exit
status would show a segfault or an abort."""

import subprocess
import sys
from pathlib import Path

import pytest

import gc_hostile
import surp


@pytest.mark.parametrize("scenario", sorted(gc_hostile.SCENARIOS))
def test_scenario_in_a_child_interpreter(scenario):
    child = subprocess.run(
        [sys.executable, str(Path(gc_hostile.__file__)), scenario],
        capture_output=True, text=True, timeout=600,
    )
    assert child.returncode == 0, f"exit status {child.returncode}\n{child.stdout}\n{child.stderr}"
    assert child.stdout.startswith(f"{scenario}: ")
    print(child.stdout, end="")


class Unknown:
    pass


def test_a_dict_that_changes_size_during_dumps_is_a_runtime_error():
    d = {"a": Unknown(), "b": 1, "c": 2}

    def shrink(obj):
        d.pop("c")
        return "replaced"

    with pytest.raises(RuntimeError, match="dict changed size during dumps"):
        surp.dumps(d, default=shrink)

    d = {"a": Unknown(), "b": 1}

    def grow(obj):
        d["new"] = 3
        return "replaced"

    for dedup in (False, True):
        with pytest.raises(RuntimeError, match="dict changed size during dumps"):
            surp.dumps(d, dedup=dedup, default=grow)
        d.pop("new")


def test_a_list_that_changes_size_during_dumps_is_a_runtime_error():
    items = [Unknown(), 1, 2]
    with pytest.raises(RuntimeError, match="list changed size during dumps"):
        surp.dumps(items, default=lambda obj: items.pop())
    items = [Unknown(), 1]
    with pytest.raises(RuntimeError, match="list changed size during dumps"):
        surp.dumps(items, default=lambda obj: items.append(0))


def test_a_dict_changed_without_changing_size_still_encodes_its_entries():
    d = {"a": Unknown(), "b": 1}

    def revalue(obj):
        d["b"] = 2
        return 0

    assert surp.loads(surp.dumps(d, default=revalue)) == {"a": 0, "b": 2}
