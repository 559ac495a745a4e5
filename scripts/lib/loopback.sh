# Shared by scripts/api-fuzz.sh and scripts/client-test.sh, which run `bootsmith serve` and the
# simulator in a private network namespace holding only loopback: a venv of pinned Python
# packages and the build (outside, the only steps that need the registries), the step into the
# namespace, and inside it a work directory, the background processes stopped on exit, and a
# wait for a URL to answer. Sourced by bash after `set -euo pipefail`; the caller sets `name`
# (its messages' prefix) and `target` (the cargo target directory).

# pinned_venv DIR PACKAGE...: DIR holds a venv of exactly PACKAGE... (pinned `pkg==version`),
# made again when the list changes.
pinned_venv() {
  local venv=$1
  shift
  local stamp
  stamp="$venv/.pinned-$(printf '%s\n' "$@" | sha256sum | cut -c1-16)"
  [ -f "$stamp" ] && return 0
  echo "$name: installing $* into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$@"
  touch "$stamp"
}

# build_bins: bootsmith and the simulator, without the window.
build_bins() {
  PKG_CONFIG_LIBDIR=${PKG_CONFIG_LIBDIR:-/nonexistent} cargo build --quiet --no-default-features \
    -p bootsmith -p bootsmith-sim --bin bootsmith --bin bootsmith-sim
}

# into_loopback VAR=VALUE... -- COMMAND...: run COMMAND (the calling script again) in a private
# network namespace with VAR=VALUE set; refuses rather than run on the open network.
into_loopback() {
  local vars=()
  while [ "$1" != -- ]; do
    vars+=("$1")
    shift
  done
  shift
  local unshare=(unshare --net)
  [ "$(id -u)" -eq 0 ] || unshare+=(--map-root-user)
  if ! "${unshare[@]}" true 2>/dev/null; then
    echo "$name: cannot make a private network namespace (unshare --net); refusing to run on the open network" >&2
    exit 1
  fi
  exec "${unshare[@]}" env "${vars[@]}" CARGO_TARGET_DIR="$target" "$@"
}

# in_loopback: inside the namespace, bring loopback up and set `bin` (the built binaries), `work`
# (a scratch directory, removed on exit) and `pids` (background processes, stopped on exit).
in_loopback() {
  ip link set lo up
  bin=$target/debug
  work=$(mktemp -d)
  pids=()
  trap loopback_cleanup EXIT
}

loopback_cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}

# wait_for URL: until it answers (10 s).
wait_for() {
  for _ in $(seq 1 100); do
    curl -s -o /dev/null "$1" && return 0
    sleep 0.1
  done
  echo "$name: $1 did not come up" >&2
  return 1
}
