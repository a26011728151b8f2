"""The garbage collector and Python code running in the middle of `loads`:
never a crash.

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
