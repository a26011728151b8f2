#!/usr/bin/env bash
# Bounded fuzz smoke for CI (called from .ci/run): every cargo-fuzz target
# runs for about 30 seconds on the committed seed corpus (fuzz/corpus/<target>)
# plus the new inputs it finds, and any crash, panic, timeout or out-of-memory
# fails the script. The long campaigns use the same commands with
# `-runs=10000000` instead of `-max_total_time`.
#
# Needs the nightly toolchain (cargo-fuzz builds with sanitizer flags that
# stable rejects); without it the smoke is skipped with a message. Installs
# the pinned cargo-fuzz when it is missing. Set SURP_FUZZ_SECONDS to change
# the time per target. For a campaign, set SURP_FUZZ_RUNS (for example
# 10000000) to run each target for that many executions instead, and
# SURP_FUZZ_KEEP to a directory that keeps the inputs found between runs;
# name targets as arguments to run only those.
set -euo pipefail
cd "$(dirname "$0")"

CARGO_FUZZ_VERSION=0.13.2
seconds=${SURP_FUZZ_SECONDS:-30}
if [ -n "${SURP_FUZZ_RUNS:-}" ]; then
  budget=(-runs="$SURP_FUZZ_RUNS")
  what="$SURP_FUZZ_RUNS runs"
else
  budget=(-max_total_time="$seconds")
  what="${seconds}s"
fi

if ! rustup toolchain list | grep '^nightly' >/dev/null; then
  echo "== fuzz smoke: SKIPPED, no nightly toolchain (rustup toolchain list has none; cargo-fuzz needs one)"
  exit 0
fi

if [ "$(cargo fuzz --version 2>/dev/null || true)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]; then
  echo "== fuzz smoke: installing cargo-fuzz $CARGO_FUZZ_VERSION"
  cargo install --locked cargo-fuzz --version "$CARGO_FUZZ_VERSION"
fi

# Without a sanitizer: ASan would halve the executions per second. The
# crates' few `unsafe` blocks (listed at the top of surp/src/lib.rs) have
# their own tests, and the deduplicated-decoding targets that reach the
# slice reader's unchecked recall were run under ASan when it was added
# (`cargo +nightly fuzz run --sanitizer address <target>`). Debug
# assertions, and so overflow checks and the recall's own checks, stay on.
fuzz=(cargo +nightly fuzz)
"${fuzz[@]}" build --sanitizer none

if [ -n "${SURP_FUZZ_KEEP:-}" ]; then
  new_inputs=$SURP_FUZZ_KEEP
  mkdir -p "$new_inputs"
else
  new_inputs=$(mktemp -d)
  trap 'rm -rf "$new_inputs"' EXIT
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <("${fuzz[@]}" list)
fi
for target in "${targets[@]}"; do
  # The structured targets build values from their input; longer inputs
  # only make each run slower.
  case "$target" in
    roundtrip | dedup_size) max_len=(-max_len=1024) ;;
    *) max_len=() ;;
  esac
  echo "== fuzz smoke: $target for $what"
  mkdir -p "$new_inputs/$target"
  # New inputs go to the first directory; the committed corpus is only read.
  log="$new_inputs/$target.log"
  status=0
  "${fuzz[@]}" run --sanitizer none "$target" "$new_inputs/$target" "corpus/$target" -- \
    "${budget[@]}" -timeout=10 -print_final_stats=1 "${max_len[@]}" >"$log" 2>&1 ||
    status=$?
  if [ "$status" -ne 0 ]; then
    tail -n 60 "$log"
    echo "== fuzz smoke: $target FAILED (exit $status); the input is under fuzz/artifacts/$target/"
    exit "$status"
  fi
  grep -E '^(Done|stat::peak_rss_mb)' "$log"
done
echo "== fuzz smoke: every target ran $what without a crash"
