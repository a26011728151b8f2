"""The example of the book's Python chapter (docs/src/python.md includes
guide_example.py as it is), run here so that the chapter cannot drift
from what the module does."""

import runpy
from pathlib import Path


def test_the_python_chapter_example_runs():
    runpy.run_path(str(Path(__file__).with_name("guide_example.py")))
