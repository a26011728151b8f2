"""The Python benchmark: surp against msgpack, ormsgpack, cbor2, orjson, json
and pickle on the datasets exported by the Rust harness.

    cargo run -p surp-bench --release -- export --mode ci --output bench/results/export-ci
    python bench/python/bench_surp.py --export bench/results/export-ci

The export folder fixes the mode: its export.json names the dataset scale and
the iteration counts of the Rust harness in that mode (ci: 10 timed runs
after 1 warm-up; full: 20 after 2), which this harness uses too. Output goes
to bench/results/python/ in ci mode and docs/assets/bench/v<version>/python/
in full mode, unless --output says otherwise:

- python_summary.csv: one row per format x dataset x operation, with the
  columns of the Rust harness's summary.csv; `encode` is dumps, `decode` is
  loads;
- python_meta.json: the Python version, package versions, machine and
  methodology;
- python_chart.svg: size, encode and decode time per dataset and format.

Methodology (as in the Rust harness where Python allows):

- Every format is checked before timing: it must give back exactly the
  dataset value (compared through Surp's encoding, which keeps types, float
  bits and order), except that orjson and json, which have no bytes type,
  carry bytes as base64 text and give back that text. ormsgpack runs with
  its defaults, which carry every dataset exactly (its bin type for bytes);
  it would refuse a dict key that is not a str (without OPT_NON_STR_KEYS)
  and an int outside the 64-bit ranges, which no dataset has, and the check
  would stop the run if one did.
- Per dataset: warm-up runs of each operation per format, then each timed
  iteration runs encode, then decode, each round-robin over the formats.
  The round starts one format later at each iteration, so that no format
  always runs first: the first decode after a round of encodes meets the
  allocator in another state (large output buffers just freed); on
  binary_blobs, putting msgpack first instead of surp moved surp's decode
  time over msgpack's from about 1.15 to about 0.8 in trial runs.
- One call per sample, timed with time.perf_counter_ns. The result is
  dropped after the clock stops. The cyclic garbage collector is off while
  a dataset is measured (as timeit does): otherwise a decode's time depends
  on how many container objects the whole process holds.
- Statistics as in surp-bench: median, p95 by nearest rank (the maximum
  below 20 samples, labelled "max"), minimum, coefficient of variation;
  MB/s is the serialized size over the median time (10^6 bytes/s).
"""

import argparse
import base64
import gc
import importlib.metadata
import json
import math
import os
import pickle
import platform
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import cbor2
import msgpack
import orjson
import ormsgpack

import surp

REPO = Path(__file__).resolve().parents[2]
CSV_HEADER = "format,dataset,op,iterations,median_ns,p95_ns,min_ns,cv_pct,mb_per_s,size_bytes"
OPERATIONS = ("encode", "decode")
# Below this many samples the nearest-rank p95 is the maximum.
P95_MIN_SAMPLES = 20
# The reference formats of the ratio table.
RATIO_BASES = ("msgpack", "ormsgpack", "orjson")
# A chart panel whose largest bar is more than this many times its smallest
# gets a log scale (as in the Rust charts).
LOG_SCALE_SPAN = 20


def base64_bytes(obj):
    """The `default` hook of orjson and json: bytes become base64 text, as
    the Rust harness writes them for JSON."""
    if isinstance(obj, bytes):
        return base64.b64encode(obj).decode("ascii")
    raise TypeError(f"cannot serialize {type(obj).__name__}")


def json_dumps(obj):
    return json.dumps(obj, default=base64_bytes, ensure_ascii=False, separators=(",", ":")).encode()


@dataclass(frozen=True)
class Format:
    name: str
    label: str
    package: str
    colour: str
    dumps: Callable[[object], bytes]
    loads: Callable[[bytes], object]
    # Whether bytes travel as base64 text (the format has no bytes type).
    bytes_as_base64: bool
    # How the format is called, for python_meta.json.
    call: str


# Every format, in the order of reports and the chart. Colours follow the
# Rust charts (Okabe and Ito's palette) for the formats both harnesses have.
FORMATS = [
    Format("surp", "Surp", "surp", "#0072B2", surp.dumps, surp.loads, False,
           "surp.dumps(v) / surp.loads(b)"),
    Format("surp_dedup", "Surp+Dedup", "surp", "#56B4E9",
           lambda v: surp.dumps(v, dedup=True), surp.loads, False,
           "surp.dumps(v, dedup=True) / surp.loads(b)"),
    Format("msgpack", "MessagePack", "msgpack", "#009E73", msgpack.packb, msgpack.unpackb, False,
           "msgpack.packb(v) / msgpack.unpackb(b), defaults (C extension; bin type for bytes)"),
    Format("ormsgpack", "ormsgpack", "ormsgpack", "#D55E00", ormsgpack.packb, ormsgpack.unpackb,
           False,
           "ormsgpack.packb(v) / ormsgpack.unpackb(b), defaults (Rust extension; bin type for "
           "bytes; str dict keys only)"),
    Format("cbor2", "CBOR (cbor2)", "cbor2", "#CC79A7", cbor2.dumps, cbor2.loads, False,
           "cbor2.dumps(v) / cbor2.loads(b), defaults (C extension)"),
    Format("orjson", "orjson", "orjson", "#F0E442",
           lambda v: orjson.dumps(v, default=base64_bytes), orjson.loads, True,
           "orjson.dumps(v, default=<bytes to base64 str>) / orjson.loads(b)"),
    Format("json", "json (stdlib)", "json", "#E69F00", json_dumps, json.loads, True,
           "json.dumps(v, default=<bytes to base64 str>, ensure_ascii=False, "
           "separators=(',', ':')).encode() / json.loads(b)"),
    Format("pickle", "pickle", "pickle", "#999999",
           lambda v: pickle.dumps(v, protocol=pickle.HIGHEST_PROTOCOL), pickle.loads, False,
           f"pickle.dumps(v, protocol={pickle.HIGHEST_PROTOCOL}) / pickle.loads(b)"),
]


def format_named(name):
    for f in FORMATS:
        if f.name == name:
            return f
    raise SystemExit(f"bench_surp.py: there is no format named {name!r}; "
                     f"the formats are {', '.join(f.name for f in FORMATS)}")


@dataclass
class Stats:
    samples: int
    median_ns: int
    p95_ns: int
    min_ns: int
    cv_pct: float

    @staticmethod
    def of(samples):
        s = sorted(samples)
        n = len(s)
        median = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) // 2
        p95 = s[math.ceil(n * 95 / 100) - 1]
        mean = sum(s) / n
        if n < 2 or mean == 0:
            cv = 0.0
        else:
            cv = math.sqrt(sum((x - mean) ** 2 for x in s) / (n - 1)) / mean * 100
        return Stats(n, median, p95, s[0], cv)


@dataclass
class Measurement:
    format: Format
    dataset: str
    op: str
    stats: Stats
    size_bytes: int

    def mb_per_s(self):
        return self.size_bytes * 1e3 / self.stats.median_ns if self.stats.median_ns else 0.0

    def csv_row(self):
        s = self.stats
        return (f"{self.format.name},{self.dataset},{self.op},{s.samples},{s.median_ns},{s.p95_ns},"
                f"{s.min_ns},{s.cv_pct:.2f},{self.mb_per_s():.2f},{self.size_bytes}")


def bytes_to_base64(value):
    """The value with every bytes object replaced by its base64 text: what a
    format without a bytes type gives back."""
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, list):
        return [bytes_to_base64(v) for v in value]
    if isinstance(value, dict):
        return {k: bytes_to_base64(v) for k, v in value.items()}
    return value


def check_round_trip(fmt, name, value, expected_surp):
    """Encodes twice (same bytes) and decodes (the dataset value exactly);
    returns the encoding."""
    first, second = fmt.dumps(value), fmt.dumps(value)
    if first != second:
        raise SystemExit(f"{fmt.name} encoded dataset {name} to different bytes twice")
    back = fmt.loads(first)
    # Surp's encoding keeps types, float bits and map order, so equal
    # encodings mean identical values.
    if surp.dumps(back) != expected_surp:
        raise SystemExit(f"{fmt.name} does not round-trip dataset {name} exactly")
    return first


def measure_dataset(name, value, formats, iterations, warmup):
    """Times every format on one dataset; returns its measurements."""
    surp_bytes = surp.dumps(value)
    as_text = surp.dumps(bytes_to_base64(value))
    encoded = {f.name: check_round_trip(f, name, value, as_text if f.bytes_as_base64 else surp_bytes)
               for f in formats}
    samples = {(f.name, op): [] for f in formats for op in OPERATIONS}
    clock = time.perf_counter_ns

    def run(fmt, op):
        if op == "encode":
            fn, arg = fmt.dumps, value
        else:
            fn, arg = fmt.loads, encoded[fmt.name]
        start = clock()
        result = fn(arg)
        elapsed = clock() - start
        del result  # freed after the clock stops, as in the Rust harness
        return elapsed

    gc.collect()
    gc.disable()
    try:
        for op in OPERATIONS:
            for fmt in formats:
                for _ in range(warmup):
                    run(fmt, op)
        for i in range(iterations):
            start = i % len(formats)
            rotated = formats[start:] + formats[:start]
            for op in OPERATIONS:
                for fmt in rotated:
                    samples[(fmt.name, op)].append(run(fmt, op))
    finally:
        gc.enable()
    return [Measurement(f, name, op, Stats.of(samples[(f.name, op)]), len(encoded[f.name]))
            for f in formats for op in OPERATIONS]


def duration(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.2f} {unit}"
    return f"{ns} ns"


def table(measurements, datasets, formats, mode, iterations, warmup):
    label = "p95" if iterations >= P95_MIN_SAMPLES else "max"
    lines = [f"bench_surp.py {mode} mode: {iterations} timed runs per cell after {warmup} warm-up "
             f"run(s); medians (± CV, {label})", ""]
    head = f"{'dataset':16}  {'format':10}  {'size (bytes)':>12}  {'encode':>28}  {'decode':>28}"
    lines.append(head)
    cell = {(m.format.name, m.dataset, m.op): m for m in measurements}
    for d in datasets:
        for f in formats:
            enc, dec = cell[(f.name, d, "encode")], cell[(f.name, d, "decode")]
            text = [f"{duration(m.stats.median_ns)} ±{m.stats.cv_pct:.0f}% ({duration(m.stats.p95_ns)})"
                    for m in (enc, dec)]
            lines.append(f"{d:16}  {f.name:10}  {enc.size_bytes:>12,}  {text[0]:>28}  {text[1]:>28}")
    bases = [b for b in RATIO_BASES if any(f.name == b for f in formats)]
    if any(f.name == "surp" for f in formats) and bases:
        lines += ["", "surp divided by each reference (time: median; below 1.0 surp is faster or smaller)", ""]
        cols = "".join(f"  {'enc/' + b:>14}  {'dec/' + b:>14}" for b in bases)
        lines.append(f"{'dataset':16}{cols}  {'size/msgpack':>12}")
        for d in datasets:
            s = {op: cell[("surp", d, op)] for op in OPERATIONS}
            row = f"{d:16}"
            for b in bases:
                for op in OPERATIONS:
                    row += f"  {s[op].stats.median_ns / cell[(b, d, op)].stats.median_ns:>14.2f}"
            if ("msgpack", d, "encode") in cell:
                row += f"  {s['encode'].size_bytes / cell[('msgpack', d, 'encode')].size_bytes:>12.3f}"
            lines.append(row)
    return "\n".join(lines) + "\n"


def chart(measurements, datasets, formats, iterations, path):
    """One SVG with three panels: size, median encode and median decode time."""
    import matplotlib

    matplotlib.use("agg")
    import matplotlib.pyplot as plt

    # Byte-stable output: no random ids, no timestamp, text kept as text.
    matplotlib.rcParams.update({"svg.hashsalt": "surp", "svg.fonttype": "none",
                                "font.family": "sans-serif"})
    cell = {(m.format.name, m.dataset, m.op): m for m in measurements}
    panels = [("Serialized size (bytes)", lambda m: m.size_bytes, "encode"),
              (f"Encode (dumps) time, median of {iterations} runs (ms)",
               lambda m: m.stats.median_ns / 1e6, "encode"),
              (f"Decode (loads) time, median of {iterations} runs (ms)",
               lambda m: m.stats.median_ns / 1e6, "decode")]
    bar = 0.8 / len(formats)
    fig, axes = plt.subplots(1, 3, figsize=(16, 0.2 * len(datasets) * len(formats) + 1.5),
                             sharey=True, layout="constrained")
    for ax, (title, measure, op) in zip(axes, panels):
        values = []
        for i, f in enumerate(formats):
            ys = [j + (i - (len(formats) - 1) / 2) * bar for j in range(len(datasets))]
            xs = [measure(cell[(f.name, d, op)]) for d in datasets]
            values += xs
            ax.barh(ys, xs, height=bar, color=f.colour, label=f.label, edgecolor="#333333",
                    linewidth=0.3)
        if max(values) > LOG_SCALE_SPAN * min(v for v in values if v > 0):
            ax.set_xscale("log")
        ax.set_title(title, fontsize=10)
        ax.grid(axis="x", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
    axes[0].set_yticks(range(len(datasets)), datasets)
    axes[0].invert_yaxis()
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=len(formats), frameon=False)
    fig.suptitle("Python: surp and its peers on the benchmark datasets (lower is better)")
    fig.savefig(path, metadata={"Date": None, "Creator": None} if path.suffix == ".svg" else None)
    plt.close(fig)


def package_version(package):
    if package in ("json", "pickle"):
        return f"stdlib (Python {platform.python_version()})"
    return importlib.metadata.version(package)


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def git_commit():
    """The checkout the run is made from, read before any output is written
    (as the Rust harness does); untracked files do not make it dirty."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=REPO, capture_output=True, text=True,
                               check=True).stdout.strip()
        return {"commit": out, "dirty": bool(dirty)}
    except (OSError, subprocess.CalledProcessError):
        return {"commit": None, "dirty": None}


def meta(index, formats, iterations, warmup, git):
    return {
        "harness": "bench/python/bench_surp.py",
        "mode": index["mode"],
        "iterations": iterations,
        "warmup_iterations": warmup,
        "python": {
            "version": platform.python_version(),
            "implementation": platform.python_implementation(),
            "compiler": platform.python_compiler(),
        },
        "packages": {f.name: {"package": f.package, "version": package_version(f.package),
                              "call": f.call, "bytes": "base64 text" if f.bytes_as_base64 else "native"}
                     for f in formats},
        "matplotlib": importlib.metadata.version("matplotlib"),
        "machine": {"os": platform.system(), "release": platform.release(),
                    "arch": platform.machine(), "cpu_model": cpu_model(), "cores": os.cpu_count()},
        "dataset_version": index["dataset_version"],
        "surp_format_version": index["surp_format_version"],
        "datasets": [{"name": d["name"], "sha256": d["sha256"]} for d in index["datasets"]],
        "git": git,
        "methodology": {
            "check": "before timing, each format encodes each dataset twice (identical bytes) and "
                     "decodes it back to the dataset value, compared through Surp's encoding "
                     "(types, float bits and map order); orjson and json give back bytes as "
                     "base64 text",
            "order": "per dataset: warm-up runs of each operation per format; then each timed "
                     "iteration runs encode, then decode, each round-robin over the formats, "
                     "starting one format later at each iteration",
            "timer": "time.perf_counter_ns around one call; the result is freed after the clock stops",
            "gc": "the cyclic garbage collector is disabled while a dataset is measured (as timeit "
                  "does) and a collection runs before each dataset",
            "p95": "nearest rank; with fewer than 20 samples it is the maximum (labelled max)",
            "throughput": "serialized bytes / median time, in MB/s (10^6 bytes/s)",
            "ops": "encode is dumps (object to bytes), decode is loads (bytes to object)",
        },
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--export", type=Path, required=True,
                        help="a folder written by `surp-bench export` (its mode is the run's mode)")
    parser.add_argument("--output", type=Path,
                        help="output folder [ci: bench/results/python; full: "
                             "docs/assets/bench/v<version>/python]")
    parser.add_argument("--iterations", type=int, help="timed runs per cell [the Rust harness's]")
    parser.add_argument("--formats", help="only these formats (comma-separated)")
    parser.add_argument("--datasets", help="only these datasets (comma-separated)")
    args = parser.parse_args(argv)

    with open(args.export / "export.json", encoding="utf-8") as f:
        index = json.load(f)
    mode = index["mode"]
    iterations = args.iterations or index["iterations"]
    if iterations < 1 or (mode == "full" and iterations < 10):
        raise SystemExit(f"bench_surp.py: {mode} mode needs at least {10 if mode == 'full' else 1} "
                         f"iterations, not {iterations}")
    warmup = index["warmup_iterations"]
    formats = [format_named(n) for n in args.formats.split(",")] if args.formats else FORMATS
    formats = [f for f in FORMATS if f in formats]
    entries = index["datasets"]
    if args.datasets:
        wanted = args.datasets.split(",")
        unknown = set(wanted) - {e["name"] for e in entries}
        if unknown:
            raise SystemExit(f"bench_surp.py: the export has no dataset {sorted(unknown)}")
        entries = [e for e in entries if e["name"] in wanted]
    output = args.output or (REPO / "bench/results/python" if mode == "ci"
                             else REPO / f"docs/assets/bench/v{surp.__version__}/python")
    output.mkdir(parents=True, exist_ok=True)
    git = git_commit()

    measurements = []
    for entry in entries:
        data = (args.export / entry["surp"]).read_bytes()
        value = surp.loads(data)
        if surp.dumps(value) != data:
            raise SystemExit(f"{entry['name']}: re-encoding the exported file gives other bytes")
        print(f"measuring {entry['name']}", file=sys.stderr, flush=True)
        measurements += measure_dataset(entry["name"], value, formats, iterations, warmup)
        del value

    names = [e["name"] for e in entries]
    with open(output / "python_summary.csv", "w", encoding="utf-8") as f:
        f.write(CSV_HEADER + "\n")
        f.writelines(m.csv_row() + "\n" for m in measurements)
    with open(output / "python_meta.json", "w", encoding="utf-8") as f:
        json.dump(meta(index, formats, iterations, warmup, git), f, indent=2, ensure_ascii=False)
        f.write("\n")
    chart(measurements, names, formats, iterations, output / "python_chart.svg")
    sys.stdout.write(table(measurements, names, formats, mode, iterations, warmup))
    print(f"Results written to {output}")


if __name__ == "__main__":
    main()
