#!/usr/bin/env bash
# Holds the REST API to its OpenAPI document: a standard validator reads /api/openapi.json, then
# Schemathesis sends generated requests (valid and invalid) to every operation and checks each
# answer against the document. `bootsmith serve` runs against the simulator with a few records,
# so calls get past "not found" into the real work.
#
# Everything runs in a private network namespace holding only loopback: whatever address a
# generated request names, the server can reach nothing but itself and the simulator.
#
#   scripts/api-fuzz.sh                       # about a minute on 2 cores, once built
#   API_FUZZ_EXAMPLES=200 API_FUZZ_SEED=7 scripts/api-fuzz.sh   # longer, or other cases
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
target=${CARGO_TARGET_DIR:-$root/target}

# Versions are pinned so a new release cannot fail CI on its own.
SCHEMATHESIS_VERSION=4.32.5
VALIDATOR_VERSION=0.9.0

name=api-fuzz
# shellcheck source=scripts/lib/loopback.sh
. scripts/lib/loopback.sh

if [ -z "${API_FUZZ_INSIDE:-}" ]; then
  # Outside the namespace: the only steps that need the package registries and the build.
  venv=$target/pyenv
  pinned_venv "$venv" "schemathesis==$SCHEMATHESIS_VERSION" "openapi-spec-validator==$VALIDATOR_VERSION"
  build_bins
  into_loopback API_FUZZ_INSIDE=1 API_FUZZ_VENV="$venv" -- "$0" "$@"
fi

in_loopback
venv=$API_FUZZ_VENV

# A UCS Manager and a standalone IMC, answering at once so power and association finish
# within a request.
"$bin/bootsmith-sim" --listen 127.0.0.1:9000 --effect-ms 50 >"$work/sim.log" 2>&1 &
pids+=($!)
"$bin/bootsmith-sim" --mode imc --listen 127.0.0.1:9001 --effect-ms 50 >"$work/sim-imc.log" 2>&1 &
pids+=($!)

export BOOTSMITH_KEYRING=off
bootsmith=("$bin/bootsmith" --data-dir "$work/data" --svc-dir "$work/svc")
token=$("${bootsmith[@]}" token)
"${bootsmith[@]}" serve --listen 127.0.0.1:8080 >"$work/serve.log" 2>&1 &
pids+=($!)
base=http://127.0.0.1:8080
wait_for "$base/"
wait_for http://127.0.0.1:9000/
wait_for http://127.0.0.1:9001/

api() {
  local method=$1 path=$2 body=${3:-}
  local args=(-sS --fail-with-body -o "$work/last" -X "$method" -H "Authorization: Bearer $token")
  [ -z "$body" ] || args+=(-H "Content-Type: application/json" -d "$body")
  curl "${args[@]}" "$base$path" || { echo "api-fuzz: seeding $method $path failed: $(cat "$work/last")" >&2; exit 1; }
}

# Records for the generated requests to find: both kinds of group (logins checked), a network,
# keys, the boot-server address, a selection, a mapped ISO, hosts in both groups and their media.
api POST /api/v2/servers '{"name": "pod1", "type": "ucsm", "vlan": "default",
  "credentials": {"ip": "http://127.0.0.1:9000", "user": "admin", "password": "password"}}'
api POST /api/v2/servers '{"name": "imc1", "type": "imc",
  "credentials": {"ip": "http://127.0.0.1:9001", "user": "admin", "password": "password"}}'
api POST /api/v2/servers/pod1/servers '{"servers": {"blades": ["1/1", "1/2"], "rack_servers": ["1"]}, "force": true}'
api POST /api/v2/networks '{"name": "mgmt", "netmask": "255.255.255.0", "gateway": "192.0.2.1",
  "nameserver": "192.0.2.53", "ntpserver": "pool.ntp.org"}'
api POST /api/v1/ip '{"svc_ip": "192.0.2.10"}'
api POST /api/v1/keys '{"keys": ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJRsCR05CTCVLtFICOdFoTw56mQeLuHhOQNlJKwXUwaI ops@example"]}'
mkdir -p "$work/svc"
scripts/sample-iso.sh "$work/svc/CentOS-7-x86_64-Minimal-1708.iso"
api POST /api/v1/isos/map '{"iso_map": [{"file": "/svc/CentOS-7-x86_64-Minimal-1708.iso", "os": "centos7.4"}]}'
api POST /api/v2/hosts '[
  {"name": "kube01", "ip": "192.0.2.21", "os": "centos7.4", "role": "k8s master", "network_group": "mgmt", "server_group": "pod1"},
  {"name": "kube02", "ip": "192.0.2.22", "os": "centos7.4", "role": "k8s node", "network_group": "mgmt", "server_group": "pod1"},
  {"name": "rack01", "ip": "192.0.2.31", "os": "centos7.4", "role": "generic", "network_group": "mgmt", "server_group": "imc1"}]'

# Install media for every host, so deploys and vMedia get past "no images" to the managers.
api POST /api/v2/deploy/images

curl -sS -H "Authorization: Bearer $token" "$base/api/openapi.json" >"$work/openapi.json"
"$venv/bin/openapi-spec-validator" "$work/openapi.json" || {
  echo "api-fuzz: 0 passed, 1 failed (the document is not valid OpenAPI)"
  exit 1
}

start=$(date +%s)
status=0
# `timeout` only guards against a hang: the run is bounded by the examples per operation. One
# worker: the parser of Python 3.11, which Hypothesis calls, is not safe across threads.
timeout "${API_FUZZ_TIMEOUT:-900}" "$venv/bin/schemathesis" --config-file "$root/scripts/api-fuzz.toml" run "$base/api/openapi.json" \
  --url "$base" \
  -H "Authorization: Bearer $token" \
  --seed "${API_FUZZ_SEED:-20240601}" \
  --max-examples "${API_FUZZ_EXAMPLES:-50}" \
  --workers 1 \
  --request-timeout 30 \
  --generation-database none \
  --no-color \
  --report junit --report-junit-path "$work/junit.xml" || status=$?
elapsed=$(($(date +%s) - start))

if [ "$status" -ne 0 ]; then
  echo "--- bootsmith serve's log (last 40 lines) ---"
  tail -n 40 "$work/serve.log"
fi
passed=0 failed=0
if [ -f "$work/junit.xml" ]; then
  read -r passed failed < <(python3 - "$work/junit.xml" <<'EOF'
import sys, xml.etree.ElementTree as ET
cases = ET.parse(sys.argv[1]).getroot().iter("testcase")
results = [bool(c.find("failure") is not None or c.find("error") is not None) for c in cases]
print(results.count(False), results.count(True))
EOF
  )
fi
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
echo "api-fuzz: schemathesis took ${elapsed}s"
echo "api-fuzz: $passed passed, $failed failed"
exit "$status"
