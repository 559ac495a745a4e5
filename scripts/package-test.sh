#!/usr/bin/env bash
# The packages as an operator meets them, on this machine (root or sudo; CI): build them
# (`make package`), lint the .deb (lintian: no errors) and check the unit
# (systemd-analyze verify), install an older version of the package, start the server as
# bootsmith.service would and run the README walkthrough against it with the admin's token,
# upgrade to this version and check that the data, the key, the token and the options stayed,
# then remove (data kept) and purge (data gone). Prints the sizes and how long each step took.
#
# It installs and purges the `bootsmith` package and /var/lib/bootsmith: it refuses to start
# where either is already there (BOOTSMITH_PACKAGE_TEST_REPLACE=1 purges them first).
set -euo pipefail
cd "$(dirname "$0")/.."
CARGO=${CARGO:-cargo}

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
t0=$SECONDS
step() { echo "package-test: [$((SECONDS - t0)) s] $*"; }
fail() {
  echo "package-test: FAILED: $*" >&2
  exit 1
}
apt_get() { DEBIAN_FRONTEND=noninteractive $sudo apt-get -y -qq -o Dpkg::Use-Pty=0 "$@"; }

for tool in lintian systemd-analyze rpm curl bsdtar xorriso xvfb-run; do
  command -v "$tool" >/dev/null || fail "$tool is missing: run scripts/setup.sh"
done
if dpkg-query -W -f='${Status}' bootsmith 2>/dev/null | grep -q installed || [ -e /var/lib/bootsmith ]; then
  [ "${BOOTSMITH_PACKAGE_TEST_REPLACE:-}" = 1 ] ||
    fail "a bootsmith package or /var/lib/bootsmith is already on this machine; this test installs and purges its own: purge it first (apt-get purge bootsmith; rm -rf /var/lib/bootsmith) or set BOOTSMITH_PACKAGE_TEST_REPLACE=1"
  apt_get purge bootsmith >/dev/null 2>&1 || true
  $sudo rm -rf /var/lib/bootsmith /etc/default/bootsmith
fi

step "building the packages (scripts/package.sh)"
build_start=$SECONDS
scripts/package.sh
build_time=$((SECONDS - build_start))
meta=$($CARGO metadata --format-version 1 --no-deps)
target=$(node -e 'console.log(JSON.parse(process.argv[1]).target_directory)' "$meta")
version=$(node -e 'console.log(JSON.parse(process.argv[1]).packages.find(p => p.name === "bootsmith").version)' "$meta")
deb="$target/release/bundle/deb/bootsmith_${version}_amd64.deb"
rpm=$(ls "$target/release/bundle/rpm/bootsmith-${version}-"*.x86_64.rpm)

work=$(mktemp -d)
chmod 755 "$work"
server_pid=""
sim_pid=""
stop_server() {
  if [ -d /run/systemd/system ]; then
    $sudo systemctl stop bootsmith.service || true
  elif [ -n "$server_pid" ]; then
    $sudo kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=""
}
cleanup() {
  stop_server
  [ -z "$sim_pid" ] || kill "$sim_pid" 2>/dev/null || true
  if dpkg-query -W -f='${Status}' bootsmith 2>/dev/null | grep -q installed; then
    apt_get purge bootsmith >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

step "the packages' contents"
dpkg-deb --info "$deb"
deb_files=$(dpkg-deb --contents "$deb")
rpm_files=$(bsdtar -tf "$rpm")
echo "$deb_files"
for f in usr/bin/bootsmith usr/bin/bootsmith-sim usr/lib/systemd/system/bootsmith.service \
  usr/share/man/man1/bootsmith.1.gz usr/share/bootsmith/bootsmith.default \
  usr/share/applications/bootsmith.desktop usr/share/icons/hicolor/32x32/apps/bootsmith.png; do
  grep -Eq " (\./)?$f\$" <<<"$deb_files" || fail "the .deb has no /$f"
  grep -Eqx "(\./)?$f" <<<"$rpm_files" || fail "the .rpm has no /$f"
done
grep -Eq ' (\./)?usr/share/doc/bootsmith/copyright$' <<<"$deb_files" || fail "the .deb has no copyright file"

rpm_info=$(rpm -qp --info --requires --scripts "$rpm")
for want in "Name        : bootsmith" "Version     : $version" xorriso bsdtar webkit2gtk4.1 "useradd --system" "systemctl stop bootsmith.service"; do
  grep -qF -- "$want" <<<"$rpm_info" || fail "the .rpm's header has no \"$want\": $rpm_info"
done

step "lintian (errors fail, warnings are listed)"
lintian --fail-on error --no-tag-display-limit "$deb" || fail "lintian found errors in $deb"

step "an older version of the package: $version~older"
dpkg-deb -R "$deb" "$work/older"
sed -i "s/^Version: .*/Version: ${version}~older/" "$work/older/DEBIAN/control"
dpkg-deb --root-owner-group -b "$work/older" "$work/bootsmith_${version}~older_amd64.deb" >/dev/null
apt_get install "$work/bootsmith_${version}~older_amd64.deb"
[ "$(dpkg-query -W -f='${Version}' bootsmith)" = "${version}~older" ] || fail "the older package is not installed"
getent passwd bootsmith >/dev/null || fail "postinst made no bootsmith user"
[ "$(stat -c %U /var/lib/bootsmith)" = bootsmith ] || fail "/var/lib/bootsmith is not the bootsmith user's"
[ -f /etc/default/bootsmith ] || fail "postinst wrote no /etc/default/bootsmith"
[ -x /usr/bin/bootsmith-sim ] || fail "no /usr/bin/bootsmith-sim"
grep -q '^Exec=bootsmith' /usr/share/applications/*.desktop || fail "the desktop entry does not start bootsmith"

step "systemd-analyze verify"
# It works without systemd as PID 1; a warning (an unknown key, a value it ignores) fails too.
verify=$(systemd-analyze verify /usr/lib/systemd/system/bootsmith.service 2>&1) && [ -z "$verify" ] ||
  fail "systemd-analyze verify: ${verify:-failed}"

# The options file decides where the server listens: a free port on loopback for this test.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
$sudo sed -i "s/^BOOTSMITH_LISTEN=.*/BOOTSMITH_LISTEN=127.0.0.1:$port/" /etc/default/bootsmith
base="http://127.0.0.1:$port"

# The server as bootsmith.service runs it: with systemd, the unit itself; without (a container),
# the same user, umask, working directory and environment (the unit's, then the options file's).
start_server() {
  if [ -d /run/systemd/system ]; then
    $sudo systemctl daemon-reload
    $sudo systemctl start bootsmith.service
  else
    local env
    env=$(sed -n 's/^Environment=//p' /usr/lib/systemd/system/bootsmith.service)
    # shellcheck disable=SC2046 # one KEY=VALUE word each
    (cd / && umask 0027 && exec $sudo setpriv --reuid=bootsmith --regid=bootsmith --init-groups \
      env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
      $env $(grep -E '^[A-Z_]+=' /etc/default/bootsmith) /usr/bin/bootsmith serve) \
      >>"$work/server.log" 2>&1 &
    server_pid=$!
  fi
  for _ in $(seq 1 100); do
    curl -fsS "$base/" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  cat "$work/server.log" >&2 || true
  fail "the server did not answer on $base"
}
start_server
curl -fsS "$base/"
echo

step "the README walkthrough against the installed server, with the admin's token"
/usr/bin/bootsmith-sim --listen 127.0.0.1:0 >"$work/sim.log" 2>&1 &
sim_pid=$!
sim=""
for _ in $(seq 1 100); do
  sim=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$work/sim.log" | head -1) && [ -n "$sim" ] && break
  sleep 0.1
done
[ -n "$sim" ] || fail "bootsmith-sim did not start: $(cat "$work/sim.log")"
iso=/var/lib/bootsmith/svc/CentOS-7-x86_64-Minimal-1708.iso
scripts/sample-iso.sh "$work/sample.iso" >/dev/null
$sudo install -o bootsmith -g bootsmith -m 0640 "$work/sample.iso" "$iso"
# The first sh block after the marker, as tests/serve.rs reads it.
walkthrough=$(awk '/<!-- walkthrough/ { on = 1; next } on && /^```sh$/ { inside = 1; next } inside && /^```$/ { exit } inside' README.md)
[ -n "$walkthrough" ] || fail "no walkthrough block in README.md"
walkthrough=${walkthrough//http:\/\/127.0.0.1:8080/$base}
walkthrough=${walkthrough//http:\/\/127.0.0.1:9000/$sim}
# `bootsmith token` as root against the service's data: run as its owner, nothing of root's left.
$sudo env BOOTSMITH_DATA_DIR=/var/lib/bootsmith PATH="$PATH" bash -euo pipefail -c "$walkthrough" >"$work/walkthrough.out" ||
  fail "the walkthrough failed: $(tail -c 1000 "$work/walkthrough.out")
server: $(tail -n 20 "$work/server.log" 2>/dev/null)
simulator: $(tail -n 20 "$work/sim.log")"
token=$($sudo bootsmith token --data-dir /var/lib/bootsmith)
not_ours=$($sudo find /var/lib/bootsmith ! -user bootsmith)
[ -z "$not_ours" ] || fail "files in /var/lib/bootsmith the service cannot own: $not_ours"
hosts=$(curl -fsS -H "Authorization: Bearer $token" "$base/api/v2/hosts")
echo "$hosts" | grep -q '"name":"kube01"' || fail "the walkthrough's host is missing: $hosts"
key_sum=$($sudo sha256sum /var/lib/bootsmith/secret.key)
stop_server

step "the window from /usr/bin under a virtual display (it serves the REST API too)"
gui_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/gui"
xvfb-run -a -s "-screen 0 1280x900x24" env BOOTSMITH_KEYRING=off /usr/bin/bootsmith \
  --data-dir "$work/gui/data" --listen "127.0.0.1:$gui_port" >"$work/gui.log" 2>&1 &
gui_pid=$!
for _ in $(seq 1 200); do
  curl -fsS "http://127.0.0.1:$gui_port/" >/dev/null 2>&1 && break
  kill -0 "$gui_pid" 2>/dev/null || break
  sleep 0.1
done
sleep 2
kill -0 "$gui_pid" 2>/dev/null && curl -fsS "http://127.0.0.1:$gui_port/" >/dev/null ||
  fail "the window did not start: $(tail -n 20 "$work/gui.log")"
! grep -q "no display found" "$work/gui.log" || fail "the window ran without its display: $(cat "$work/gui.log")"
# The window's process, then xvfb-run ends and takes its X server with it.
kill -TERM $(pgrep -P "$gui_pid" -x bootsmith) 2>/dev/null || true
wait "$gui_pid" 2>/dev/null || true

step "upgrade to $version"
apt_get install "$deb"
[ "$(dpkg-query -W -f='${Version}' bootsmith)" = "$version" ] || fail "the upgrade did not install $version"
grep -q "^BOOTSMITH_LISTEN=127.0.0.1:$port\$" /etc/default/bootsmith || fail "the upgrade replaced /etc/default/bootsmith"
[ "$($sudo sha256sum /var/lib/bootsmith/secret.key)" = "$key_sum" ] || fail "the upgrade changed the data key"
start_server
status=$(curl -fsS "$base/")
echo "$status"
echo "$status" | grep -q "\"version\":\"$version\"" || fail "GET / does not report $version"
[ "$($sudo bootsmith token --data-dir /var/lib/bootsmith)" = "$token" ] || fail "the token changed on upgrade"
curl -fsS -H "Authorization: Bearer $token" "$base/api/v2/hosts" | grep -q '"name":"kube01"' ||
  fail "the hosts are gone after the upgrade"
groups=$(curl -fsS -H "Authorization: Bearer $token" "$base/api/v2/servers/pod1")
echo "$groups" | grep -q '"name":"pod1"' || fail "the server group is gone after the upgrade: $groups"
stop_server

step "remove: the data, the key and the options stay"
apt_get remove bootsmith
[ ! -e /usr/bin/bootsmith ] || fail "remove left /usr/bin/bootsmith"
$sudo test -f /var/lib/bootsmith/bootsmith.db || fail "remove deleted the database"
[ "$($sudo sha256sum /var/lib/bootsmith/secret.key)" = "$key_sum" ] || fail "remove changed the data key"
[ -f /etc/default/bootsmith ] || fail "remove deleted /etc/default/bootsmith"

step "purge: they go"
apt_get purge bootsmith
[ ! -e /var/lib/bootsmith ] || fail "purge left /var/lib/bootsmith"
[ ! -e /etc/default/bootsmith ] || fail "purge left /etc/default/bootsmith"

step "done"
for f in "$deb" "$rpm"; do
  echo "package-test: $(basename "$f"): $(du -k "$f" | cut -f1) KiB, installed $(
    if [ "$f" = "$deb" ]; then dpkg-deb -f "$f" Installed-Size; else bsdtar -tvf "$f" | awk '{ s += $5 } END { print int(s / 1024) }'; fi
  ) KiB"
done
echo "package-test: make package took ${build_time} s; the whole test $((SECONDS - t0)) s"
