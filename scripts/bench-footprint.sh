#!/usr/bin/env bash
# The desktop app's footprint (benches/footprint.rs): start to first screen and to the status
# saying ok, then RSS and PSS of the bootsmith process and of every WebKit process it started,
# after walking every screen against a simulated UCS Manager; and `bootsmith serve` alone.
# Figures are printed next to the targets, and next to a baseline measured in the same run:
# this build painting into shared memory (WEBKIT_DISABLE_DMABUF_RENDERER=1), and optionally
# another build.
#
#   scripts/bench-footprint.sh                      # this checkout (release build, gui)
#   FOOTPRINT_RUNS=5 scripts/bench-footprint.sh     # starts of each (default 3)
#   FOOTPRINT_BASELINE_BIN=/path/to/old/bootsmith scripts/bench-footprint.sh
#   scripts/bench-footprint.sh --baseline-rev main  # builds main's window app first (its own
#                                                   # target dir: a full release build)
#
# Needs xvfb-run and WebKitWebDriver (scripts/setup.sh installs both). PSS shares each library
# page among the processes that map it, so other WebKit or GTK programs running at the same
# time lower it; RSS does not depend on them.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
target_dir=${CARGO_TARGET_DIR:-$here/target}

if [ "${1:-}" = "--baseline-rev" ]; then
    rev=${2:?--baseline-rev needs a commit}
    tree="$target_dir/footprint-baseline/src"
    rm -rf "$tree"
    mkdir -p "$(dirname "$tree")"
    git -C "$here" worktree add --detach "$tree" "$rev" >/dev/null
    trap 'git -C "$here" worktree remove --force "$tree"' EXIT
    # Its own target dir, so this build's binary is never overwritten by the baseline's.
    (cd "$tree" && CARGO_TARGET_DIR="$target_dir/footprint-baseline/target" cargo build --release --bin bootsmith)
    export FOOTPRINT_BASELINE_BIN="$target_dir/footprint-baseline/bootsmith-${rev//\//-}"
    cp "$target_dir/footprint-baseline/target/release/bootsmith" "$FOOTPRINT_BASELINE_BIN"
fi

command -v xvfb-run >/dev/null || { echo "xvfb-run is missing: scripts/setup.sh installs it" >&2; exit 1; }
command -v WebKitWebDriver >/dev/null || { echo "WebKitWebDriver is missing: scripts/setup.sh installs it" >&2; exit 1; }
cd "$here"
# Not exec: the trap above removes the baseline's worktree when the bench ends.
xvfb-run -a -s "-screen 0 1280x900x24" cargo bench --bench footprint
