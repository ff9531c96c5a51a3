#!/usr/bin/env bash
# Builds the Shuttle peer of the harness speed rows (src/main.rs) against Shuttle 0.6.1,
# offline, from Debian's crates (the recipe of ../shared/peers/shuttle/README.md):
#
#   Benchmarks/Peers/shuttle/build.sh <Shuttle's git directory or a v0.6.1 source tree>
#
# A git directory is archived at tag v0.6.1 and patched with the Debian diff beside the
# recipe; a source tree is used as it is (it must be patched already). Prints the path of
# the binary to give `BenchmarkTable --harness-speed --peer`. Needs, once:
#   apt-get install --no-install-recommends librust-generator-dev librust-hex-dev \
#     librust-rand-dev librust-rand-core-dev librust-rand-pcg-dev librust-scoped-tls-dev \
#     librust-smallvec-dev librust-tracing-dev
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source="${1:?usage: build.sh <Shuttle git directory or patched v0.6.1 source tree>}"
patch_file="${SHUTTLE_PATCH:-$here/../../../../shared/peers/shuttle/shuttle-0.6.1-debian.diff}"
tree="$here/shuttle-0.6.1"

if [[ -f "$source/HEAD" && -d "$source/objects" ]]; then
    [[ -f "$patch_file" ]] || { echo "build.sh: no Debian patch at $patch_file (set SHUTTLE_PATCH)" >&2; exit 1; }
    rm -rf "$tree"
    mkdir -p "$tree"
    git --git-dir="$source" archive v0.6.1 | tar -x -C "$tree"
    patch -s -p1 -d "$tree" < "$patch_file"
elif [[ -f "$source/Cargo.toml" ]] && grep -q '^version = "0.6.1"' "$source/Cargo.toml"; then
    rm -rf "$tree"
    ln -s "$(cd "$source" && pwd)" "$tree"
else
    echo "build.sh: $source is neither a git directory nor Shuttle 0.6.1's source tree" >&2
    exit 1
fi
(cd "$here" && cargo build --release --quiet)
echo "$here/target/release/shuttle-peer"
