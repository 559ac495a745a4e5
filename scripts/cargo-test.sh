#!/usr/bin/env bash
# Runs `cargo test` with the given arguments and ends with one line that adds up
# every test binary's result, so a reader (or CI) sees the total at the bottom.
set -euo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cargo test "$@" 2>&1 | tee "$log" || status=$?
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i) ~ /^passed;?$/) p += $(i-1); if ($(i) ~ /^failed;?$/) f += $(i-1) } }
     END { printf "Total: %d passed, %d failed\n", p, f }' "$log"
exit "$status"
