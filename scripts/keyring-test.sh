#!/usr/bin/env bash
# Runs the OS-keyring test inside a private D-Bus session with an unlocked
# gnome-keyring, so it never touches the developer's own keyring.
set -euo pipefail
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# gnome-keyring keeps its files under the XDG dirs: point them at scratch space.
export XDG_DATA_HOME="$scratch/data" XDG_RUNTIME_DIR="$scratch/run"
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
exec dbus-run-session -- bash -c '
  printf "test-unlock" | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null
  cargo test -p bootsmith-core --test keyring "$@" -- --ignored
' bash "$@"
