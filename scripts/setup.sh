#!/usr/bin/env bash
# Installs what building and testing Bootsmith needs on Debian/Ubuntu, and
# nothing that is already there. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  # build: WebKitGTK and GTK for the desktop window (Tauri 2)
  build-essential pkg-config file libssl-dev
  libwebkit2gtk-4.1-dev libayatana-appindicator3-dev librsvg2-dev libxdo-dev
  # tests: a virtual display, WebKit's WebDriver for the real-window test (xwininfo and xdotool
  # to measure and answer GTK's file chooser), curl for the README walkthrough, Chromium for
  # the browser-mode test (driven by playwright-core from ui/)
  xvfb xauth x11-utils xdotool webkit2gtk-driver curl chromium
  # the OS-keyring test: a private D-Bus session with gnome-keyring
  dbus gnome-keyring
  # install media: boot ISOs, and independent checks of the FAT images
  xorriso dosfstools mtools
  # RHVH: the squashfs image inside the image-update RPM (bsdtar reads RPM payloads)
  libarchive-tools xz-utils
  # boot proof (QEMU): scripts/boot-fixture.sh and booting its ISOs under SeaBIOS and OVMF
  qemu-system-x86 qemu-utils ovmf isolinux syslinux-common grub-efi-amd64-bin grub-pc-bin grub-common cpio kmod
  # answer files through the installers' own parsers: Ubuntu's network section through
  # `netplan generate` (kickstarts go through pykickstart, scripts/pykickstart-venv.sh)
  netplan.io
  # ESXi's %pre runs under busybox's shell: its disk program is run under busybox and dash
  busybox
  # the API fuzz test (scripts/api-fuzz.sh): a Python venv for Schemathesis, loopback in a
  # private network namespace
  python3-venv iproute2
  # the package test (scripts/package-test.sh): lintian on the .deb, systemd-analyze on the
  # unit, rpm to read the .rpm's header
  lintian systemd rpm
)

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Installing qemu-system-x86 removes a backported qemu-utils that came with the machine;
# bring qemu-img back in the same run.
if ! command -v qemu-img >/dev/null; then
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends qemu-utils
fi

if ! command -v cargo >/dev/null; then
  echo "setup: Rust is missing; install it from https://rustup.rs and run this again" >&2
  exit 1
fi
if command -v rustup >/dev/null; then
  for c in rustfmt clippy; do
    rustup component list --installed 2>/dev/null | grep -q "^$c" || rustup component add "$c"
  done
fi

# The web interface in ui/ (Svelte, Vite): Node.js 20.19+ with npm, and the packages that
# ui/package-lock.json pins (again only when the lock file changed).
if ! command -v npm >/dev/null ||
  ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'; then
  echo "setup: building the web interface needs Node.js 20.19 or later with npm (found: $(node --version 2>/dev/null || echo none)); install it from nodejs.org or your distribution" >&2
  exit 1
fi
if [ ! -f ui/node_modules/.package-lock.json ] || [ ui/package-lock.json -nt ui/node_modules/.package-lock.json ]; then
  echo "setup: installing the web interface's packages (npm ci in ui/)"
  (cd ui && npm ci --no-audit --no-fund --loglevel=error)
fi

echo "setup: ready"
