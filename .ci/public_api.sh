#!/usr/bin/env bash
# The public API of the crates we publish, as cargo-public-api lists it from
# rustdoc's JSON, must equal the committed listing in api/<crate>.txt: every
# change to the API then shows up as a diff in the commit that makes it.
#
#   bash .ci/public_api.sh           # check (CI)
#   bash .ci/public_api.sh --write   # rewrite the listings after an intended change
#
# rustdoc's JSON needs the nightly toolchain; cargo-public-api is installed
# at the pinned version when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=0.52.0
CRATES=(surp surp-dedup)
# Features whose API the listing includes: surp-dedup's codec is behind one.
declare -A FEATURES=([surp-dedup]=tokio)

if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    echo "public API: no nightly toolchain, which rustdoc's JSON output needs" >&2
    exit 1
fi
if [ "$(cargo public-api --version 2>/dev/null || true)" != "cargo-public-api $VERSION" ]; then
    echo "public API: installing cargo-public-api $VERSION"
    build_dir="$(mktemp -d)"
    cargo install --locked cargo-public-api --version "$VERSION" --target-dir "$build_dir"
    rm -rf "$build_dir"
fi

status=0
for crate in "${CRATES[@]}"; do
    listing="api/$crate.txt"
    features=()
    if [ -n "${FEATURES[$crate]:-}" ]; then
        features=(--features "${FEATURES[$crate]}")
    fi
    actual="$(cargo public-api -p "$crate" "${features[@]}" --simplified 2>/dev/null)"
    if [ "${1:-}" = "--write" ]; then
        printf '%s\n' "$actual" >"$listing"
        echo "public API: wrote $listing"
    elif ! diff -u "$listing" <(printf '%s\n' "$actual"); then
        echo "public API of $crate differs from $listing: if the change is meant, run bash .ci/public_api.sh --write and commit the listing" >&2
        status=1
    else
        echo "public API of $crate: as committed ($(wc -l <"$listing") lines)"
    fi
done
exit $status
