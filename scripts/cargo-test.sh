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
if [ "$status" -ne 0 ]; then
  # A build failure's cause sits above a long linker command line: repeat it at the bottom,
  # where a reader (or a CI summary that keeps only the tail) looks.
  echo "cargo test failed (exit $status); its error lines:"
  grep -E '^(error|warning: unused)|No space left|Killed|signal [0-9]+|collect2|ld(\.lld)?: ' "$log" | cut -c1-300 | tail -20 || true
fi
exit "$status"
