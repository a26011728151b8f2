#!/usr/bin/env bash
# Builds the docs site and checks it in a real browser; .ci/run calls this.
# Works on a clean clone: it installs what it needs (mdBook with cargo,
# Debian's chromium with apt-get, the check's one npm package with npm ci).
#
# 1. the benchmark pages must be exactly what the committed runs generate;
# 2. `mdbook build docs` must succeed;
# 3. docs/check/check.mjs loads the built site in headless Chromium: every
#    chart image loads, the newest benchmark page's table has one row per
#    summary.csv line, no link on the site is broken; and it writes
#    target/docs-screenshot.png.
set -euo pipefail
cd "$(dirname "$0")/.."

MDBOOK_VERSION=0.5.4
started=$SECONDS
step() { echo "== docs: $* ($((SECONDS - started)) s)"; }

# Root in CI; elsewhere apt-get needs sudo.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

mdbook_bin() {
    command -v mdbook || echo "${CARGO_HOME:-$HOME/.cargo}/bin/mdbook"
}

if [ "$("$(mdbook_bin)" --version 2>/dev/null || true)" = "mdbook v$MDBOOK_VERSION" ]; then
    step "mdbook $MDBOOK_VERSION is installed"
else
    step "installing mdbook $MDBOOK_VERSION"
    # Only the renderer and search: `mdbook serve` and `watch` are not needed
    # here, and leaving them out shortens the build. It is built in a
    # throwaway folder, not in the workspace's target directory.
    build_dir="$(mktemp -d)"
    cargo install --locked mdbook --version "$MDBOOK_VERSION" \
        --no-default-features --features search --target-dir "$build_dir"
    rm -rf "$build_dir"
fi
MDBOOK="$(mdbook_bin)"

if command -v chromium >/dev/null; then
    step "chromium is installed"
else
    step "installing chromium"
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi

if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' 2>/dev/null \
    || ! command -v npm >/dev/null; then
    echo "docs/ci.sh: the browser check needs Node.js 20 or later and npm" >&2
    exit 1
fi

# Not --quiet: on a clean clone compiling docs-gen takes minutes, and cargo's
# "Compiling" lines are the progress.
step "checking that the benchmark pages match the committed runs (compiles docs-gen first)"
cargo run --locked -p docs-gen -- --check

step "building the book"
# mdBook reports problems such as broken HTML in a chapter as warnings and
# still succeeds: here they fail the build.
build_log="$(mktemp)"
"$MDBOOK" build docs 2>&1 | tee "$build_log"
if grep -q 'WARN' "$build_log"; then
    echo "docs/ci.sh: mdbook build warned (see above)" >&2
    exit 1
fi
rm -f "$build_log"

step "installing the browser check's dependencies"
npm ci --prefix docs/check --no-audit --no-fund

step "checking the built site in headless Chromium"
node docs/check/check.mjs

step "done"
