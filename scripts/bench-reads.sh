#!/usr/bin/env bash
# Read performance of the REST API: starts `bootsmith serve` on a temporary data dir, stores
# 1000 hosts (one network group, catalog OS, no server group: ~91 KB of JSON), then drives
# `GET /api/v2/hosts` and `GET /api/v2/networks` with wrk and prints the figures.
#
#   scripts/bench-reads.sh                 # uses target/release/bootsmith (build it first:
#                                          #   cargo build --release --no-default-features)
#   BIN=path/to/bootsmith DURATION=20s scripts/bench-reads.sh
#
# Needs wrk (apt-get install wrk); with oha on PATH it also measures p99 at a fixed 500
# requests/s (wrk only drives closed loops: each connection sends its next request when the
# last one is answered). Figures depend on the machine and what else runs on it.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
target_dir=${CARGO_TARGET_DIR:-$here/target}
BIN=${BIN:-$target_dir/release/bootsmith}
DURATION=${DURATION:-10s}
HOSTS=${HOSTS:-1000}
PORT=${PORT:-18$((RANDOM % 900 + 100))}
RATE=${RATE:-500}

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
[ -x "$BIN" ] || { echo "$BIN is missing: cargo build --release --no-default-features" >&2; exit 1; }

scratch=$(mktemp -d)
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$scratch"
}
trap cleanup EXIT

# A key file, not the developer's keyring; logs go to the scratch data dir.
export BOOTSMITH_KEYRING=off BOOTSMITH_DATA_DIR="$scratch/data" RUST_LOG=${RUST_LOG:-warn}
token=$("$BIN" token)
"$BIN" serve --listen "127.0.0.1:$PORT" >"$scratch/serve.log" 2>&1 &
server=$!
base="http://127.0.0.1:$PORT"
for _ in $(seq 100); do curl -fsS "$base/" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fsS "$base/" >/dev/null || { echo "the server did not start:" >&2; cat "$scratch/serve.log" >&2; exit 1; }

auth="Authorization: Bearer $token"
json="Content-Type: application/json"
curl -fsS -o /dev/null -H "$auth" -H "$json" "$base/api/v2/networks" \
    -d '{"name": "mgmt", "netmask": "255.255.0.0", "gateway": "10.1.0.1", "nameserver": "10.1.0.53", "ntpserver": "pool.ntp.org"}'
python3 - "$HOSTS" >"$scratch/hosts.json" <<'EOF'
import json, sys
n = int(sys.argv[1])
print(json.dumps([{"name": f"node{i:04d}", "ip": f"10.1.{i // 250 + 1}.{i % 250 + 1}",
                   "os": "centos7.4", "role": "generic", "network_group": "mgmt"}
                  for i in range(n)]))
EOF
curl -fsS -o /dev/null -H "$auth" -H "$json" "$base/api/v2/hosts" -d @"$scratch/hosts.json"
bytes=$(curl -fsS -H "$auth" "$base/api/v2/hosts" | wc -c)
echo "GET /api/v2/hosts: $HOSTS hosts, $bytes bytes"

run() { # connections path
    echo "== wrk -t$1 -c$1 -d$DURATION --latency GET $2"
    wrk -t"$1" -c"$1" -d"$DURATION" --latency -H "$auth" "$base$2" |
        grep -E '^\s+(50|90|99)%|Requests/sec|Non-2xx|Socket errors'
}
# Warm up (page cache, statement cache, allocator), then measure.
wrk -t1 -c1 -d2s -H "$auth" "$base/api/v2/hosts" >/dev/null
run 1 /api/v2/hosts
run 4 /api/v2/hosts
run 1 /api/v2/networks
run 4 /api/v2/networks
if command -v oha >/dev/null; then
    echo "== oha -z $DURATION -c 4 -q $RATE GET /api/v2/hosts (fixed rate)"
    oha --no-tui -z "$DURATION" -c 4 -q "$RATE" -H "$auth" "$base/api/v2/hosts" |
        grep -E 'Requests/sec|^\s+(50|90|99)\.00% in|\[[0-9]+\] [0-9]+ responses|Error'
fi
