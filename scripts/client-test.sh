#!/usr/bin/env bash
# A client nobody here wrote: openapi-python-client generates a Python client from the document
# `bootsmith serve` serves (by URL, without the token, as a client generator reads it), and
# scripts/client/walkthrough.py runs the README's walkthrough through it against the UCS
# Manager simulator: records, images and a deploy followed with ?wait=false through GET
# /api/v2/jobs/<id>, whose typed models must read what the server answers. A document the
# generator cannot model (a type it drops) fails here, not in an automation engineer's day.
# Then the TypeScript side: openapi-typescript (the version ui/package.json pins) generates types
# from the same served document, and `tsc --noEmit` compiles scripts/client/job-result.ts against
# them, which reads a job's result by its kind and fails to compile when a job kind is a plain
# string or a job-result member comes out `never`.
#
# Like scripts/api-fuzz.sh it runs in a private network namespace holding only loopback.
#
#   scripts/client-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
target=${CARGO_TARGET_DIR:-$root/target}

# Pinned, so a new release cannot fail CI on its own.
GENERATOR_VERSION=0.29.0
DATEUTIL_VERSION=2.9.0.post0

name=client-test
# shellcheck source=scripts/lib/loopback.sh
. scripts/lib/loopback.sh

if [ -z "${CLIENT_TEST_INSIDE:-}" ]; then
  # The TypeScript generator and compiler are the web interface's, installed from its lock file
  # (outside the namespace: the only step that needs the registry).
  if [ ! -x ui/node_modules/.bin/openapi-typescript ] || [ ! -x ui/node_modules/.bin/tsc ]; then
    echo "client-test: installing the web interface's packages (npm ci in ui/)"
    (cd ui && npm ci --silent)
  fi
  venv=$target/client-venv
  pinned_venv "$venv" "openapi-python-client==$GENERATOR_VERSION" "python-dateutil==$DATEUTIL_VERSION"
  build_bins
  into_loopback CLIENT_TEST_INSIDE=1 CLIENT_TEST_VENV="$venv" -- "$0" "$@"
fi

in_loopback
venv=$CLIENT_TEST_VENV

"$bin/bootsmith-sim" --listen 127.0.0.1:9000 --effect-ms 200 >"$work/sim.log" 2>&1 &
pids+=($!)
export BOOTSMITH_KEYRING=off
bootsmith=("$bin/bootsmith" --data-dir "$work/data" --svc-dir "$work/svc")
token=$("${bootsmith[@]}" token)
mkdir -p "$work/svc"
scripts/sample-iso.sh "$work/svc/CentOS-7-x86_64-Minimal-1708.iso" >/dev/null
"${bootsmith[@]}" serve --listen 127.0.0.1:8080 >"$work/serve.log" 2>&1 &
pids+=($!)
base=http://127.0.0.1:8080
wait_for "$base/"
wait_for http://127.0.0.1:9000/

# Generated from the served document, by URL and without the token.
(cd "$work" && "$venv/bin/openapi-python-client" generate --url "$base/api/openapi.json" \
  --meta none --output-path bootsmith_client >"$work/generate.log" 2>&1) || {
  cat "$work/generate.log" >&2
  exit 1
}
# Every schema must survive: the generator drops what it cannot model and only warns.
if grep -q "Unable to process schema\|Cannot parse response\|removal of" "$work/generate.log"; then
  echo "client-test: the generated client is missing parts of the document:" >&2
  cat "$work/generate.log" >&2
  exit 1
fi
# TypeScript: types generated from the served document, and a client's code compiled against them.
ts=$work/ts
mkdir -p "$ts"
cp scripts/client/job-result.ts "$ts/"
ts_version=$(node -p 'require("./ui/node_modules/openapi-typescript/package.json").version')
case "$ts_version" in
  7.13.*) ;;
  *)
    echo "client-test: ui/ has openapi-typescript $ts_version, not the pinned 7.13; run npm ci in ui/" >&2
    exit 1
    ;;
esac
ui/node_modules/.bin/openapi-typescript "$base/api/openapi.json" -o "$ts/schema.ts" >"$work/ts-generate.log" 2>&1 || {
  cat "$work/ts-generate.log" >&2
  exit 1
}
if ! ui/node_modules/.bin/tsc --noEmit --strict --skipLibCheck --target es2022 --module esnext \
  --moduleResolution bundler "$ts/job-result.ts"; then
  echo "client-test: scripts/client/job-result.ts does not compile against the TypeScript types openapi-typescript $ts_version generates from the document" >&2
  exit 1
fi
echo "client-test: TypeScript types from the document compile (openapi-typescript $ts_version)"

status=0
PYTHONPATH=$work BOOTSMITH_URL=$base BOOTSMITH_TOKEN=$token SIM=http://127.0.0.1:9000 \
  "$venv/bin/python" scripts/client/walkthrough.py || status=$?
if [ "$status" -ne 0 ]; then
  echo "client-test: the walkthrough failed; the server's log:" >&2
  tail -30 "$work/serve.log" >&2
fi
exit "$status"
