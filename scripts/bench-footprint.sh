#!/usr/bin/env bash
# The desktop app's footprint (benches/footprint.rs): start to first screen as an operator
# starts it (no WebDriver; seen on Xvfb's screen), then through WebDriver RSS and PSS of the
# bootsmith process and of every WebKit process it started, fresh and after a day's walk
# against a simulated UCS Manager (FOOTPRINT_ROUNDS rounds, default 20); and `bootsmith serve`.
# Figures are printed next to the targets, and next to a baseline measured in the same run:
# this build with WebKit's DMA-BUF renderer kept on (WEBKIT_DISABLE_DMABUF_RENDERER=0; without
# a GPU the app paints into shared memory), and optionally another build.
#
#   scripts/bench-footprint.sh                      # this checkout (release build, gui)
#   FOOTPRINT_RUNS=5 scripts/bench-footprint.sh     # starts of each (default 3)
#   FOOTPRINT_ROUNDS=50 scripts/bench-footprint.sh  # a longer day (default 20 rounds)
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
tree=""

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
# Xvfb keeps its screen in a file there, which the bench reads to see when the window of a
# start made without WebDriver first shows the Overview.
fbdir=$(mktemp -d)
trap 'rm -rf "$fbdir"; [ -z "$tree" ] || git -C "$here" worktree remove --force "$tree"' EXIT
export FOOTPRINT_FBDIR=$fbdir
# Not exec: the trap above removes the scratch dirs when the bench ends.
xvfb-run -a -s "-screen 0 1280x900x24 -fbdir $fbdir" cargo bench --bench footprint
