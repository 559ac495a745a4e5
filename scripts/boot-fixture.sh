#!/usr/bin/env bash
# Builds the boot fixture: a tiny "OS" made from Debian bookworm packages, for the
# test that boots Bootsmith's boot ISO and per-host answer-file disk in QEMU (SeaBIOS
# and OVMF) and reads what the fixture prints on the serial port.
#
#   scripts/boot-fixture.sh [OUT]      OUT defaults to target/boot-fixture (repo root)
#
# Needs the apt packages of scripts/setup.sh (group "boot proof (QEMU)"), apt lists
# (apt-get update) and the Debian archive; not root. The second run, with the same
# inputs, only compares the stamp (OUT/.stamp: this script's hash and the versions of
# every package used) and exits; any change, or a missing output, rebuilds all.
#
# OUT holds:
#   vmlinuz        the kernel of the package linux-image-amd64 depends on (6.1.x-amd64)
#   initrd.img     gzip'd newc cpio: static busybox, the modules below, /init
#   isolinux.bin   isolinux (BIOS El Torito, -no-emul-boot -boot-load-size 4 -boot-info-table)
#   ldlinux.c32    all a plain isolinux.cfg (default/prompt/timeout/label/kernel/append) needs
#   BOOTX64.EFI    GRUB x86_64-efi, prefix /EFI/BOOT and no embedded config: it reads
#                  grub.cfg from /EFI/BOOT of the device it was started from, as RHEL's
#                  does. Started by OVMF from the El Torito entry of a CD, that device is
#                  the whole CD (GRUB maps the firmware's CD-ROM partition node to cd0),
#                  so it reads the ISO9660 tree's /EFI/BOOT/grub.cfg, NOT the copy inside
#                  efiboot.img (seen with a different menu title in each). Has linuxefi/
#                  initrdefi too, which RHEL's grub.cfg uses.
#   eltorito.img   GRUB i386-pc El Torito image, prefix /boot/grub2, its modules built in: what
#                  RHEL 10's media boot BIOS with (they have no isolinux); it reads grub.cfg
#                  from /boot/grub2 of the CD
#   efiboot.img    FAT image with EFI/BOOT/BOOTX64.EFI and a placeholder EFI/BOOT/grub.cfg
#                  (which prints a FIXTURE note and halts), shaped like RHEL's images/efiboot.img
#   OVMF_CODE.fd, OVMF_VARS.fd   copies of Debian's OVMF_CODE_4M.fd/OVMF_VARS_4M.fd (a pair);
#                  give each QEMU run its own writable copy of OVMF_VARS.fd
#
# /init contract. Every line goes to /dev/ttyS0 (the first serial port) whatever the
# kernel command line says, so no console= argument is needed; kernel messages are
# silenced (printk level 1) once /init runs, so they do not cut into its lines. Lines
# end in CRLF (the tty's onlcr) and firmware/GRUB escape sequences may precede the
# first one: match on lines containing "FIXTURE ", after stripping "\r".
#   FIXTURE cmdline: <contents of /proc/cmdline>
#   (if the cmdline has dracut's static ip=<ip>::<gw>:<mask>:<host>:<dev>:none with
#    ifname=<dev>:<mac>: the NIC with that MAC and that address are used for every fetch
#    below instead of eth0 and 10.0.2.15)
#   FIXTURE boot network on <nic> (<mac>) as <ip>
#   (if the cmdline has inst.stage2=hd:LABEL=<S>[:...]; \xHH escapes in S are decoded)
#   FIXTURE stage2 LABEL=<S> on <dev>             | FIXTURE stage2 LABEL=<S> missing
#   (if the cmdline has inst.ks=hd:LABEL=<L>:<path>; path defaults to /ks.cfg)
#   FIXTURE ks LABEL=<L> on <dev>
#   FIXTURE ks begin
#   <the file, as is>
#   FIXTURE ks end
#     or, instead of the lines from the one that failed:  FIXTURE ks missing: <why>
#   (else if the cmdline has inst.ks=http://<url> (single-device media): eth0 is set up as
#    below and the file fetched with busybox wget, 3 tries)
#   FIXTURE ks <url> fetched
#   FIXTURE ks begin
#   <the file, as is>
#   FIXTURE ks end
#     or FIXTURE ks missing: <url> not fetched
#   (else if the cmdline has autoinstall and ds=nocloud;s=http://<seed>/: <seed>user-data
#    fetched the same way)
#   FIXTURE user-data <seed>user-data fetched
#   FIXTURE user-data begin
#   <the file>
#   FIXTURE user-data end
#     or FIXTURE user-data missing: <url> not fetched
#   (else if the cmdline has the word autoinstall: the filesystem labelled CIDATA or cidata)
#   FIXTURE cidata on <dev>
#   FIXTURE user-data begin
#   <the file /user-data>
#   FIXTURE user-data end
#     or FIXTURE cidata missing: <why>  (no such filesystem)
#     or FIXTURE user-data missing: <why>  (not mountable, no /user-data)
#   (if an answer file was read: the first "url --url=<URL>" or "url --url <URL>" in it,
#    anywhere in a line, so "# url --url=..." in user-data counts too; quotes stripped.
#    eth0 is set to 10.0.2.15/24 via 10.0.2.2; <full url> is <URL without trailing
#    slashes>/.treeinfo)
#   FIXTURE fetch <full url> ok
#   FIXTURE fetch begin
#   <the body>
#   FIXTURE fetch end
#     or FIXTURE fetch <full url> failed
#     or FIXTURE fetch skipped: <why>  (no answer file, no url --url in it, or a
#        %pre --erroronfail that failed: then nothing after it happens, as in Anaconda)
#   (if the answer file has a %pre section: its lines up to %end run with busybox sh, before
#    any network is set up, as in Anaconda; what it printed, and the files it wrote for
#    %include)
#   FIXTURE pre ok | FIXTURE pre failed: exit <n>
#   FIXTURE pre begin
#   <its stdout and stderr>
#   FIXTURE pre end
#   FIXTURE network begin
#   <the file /tmp/bootsmith-network.ks>
#   FIXTURE network end
#   FIXTURE network on <nic> (<its MAC>) as <ip>   (the NIC its --device= names: a bond's
#    first port, eth0 for "link"; from then on the network below is set up on that NIC with
#    that address instead of eth0 and 10.0.2.15)
#   FIXTURE disks begin
#   <the file /tmp/bootsmith-disks.ks>
#   FIXTURE disks end
#   (then the "install": "BOOTSMITH-FIXTURE-INSTALLED <dev>" written at the start of the disk
#    its "ignoredisk --only-use=<dev>" line names, and nothing written anywhere else)
#   FIXTURE installed on /dev/<dev> | FIXTURE install skipped: no disk /dev/<dev>
#   (after a successful fetch, as the answer file's %post --nochroot does, and after a
#    failed %pre --erroronfail, as its %onerror does: the log upload. Its URL is the
#    "http://.../logs" before "?file=" in the answer file, its token the hex after
#    "X-Install-Token: "; the body is every FIXTURE line so far (never the answer file),
#    POSTed with wget as ?file=program.log)
#   FIXTURE logs program.log sent to <url>
#     or FIXTURE logs program.log not sent to <url>: <wget's error>
#     or FIXTURE logs skipped: no log upload in the answer file
#   (after a successful fetch, as the answer file's last step does: the callback line of the
#    answer file, the one with ".../installed" and "token": "<hex>" (or \"token\": \"<hex>\")
#    in it, POSTed with wget, with "disk": the second line %pre's disk program printed, which
#    it keeps in /tmp/bootsmith-disk.chosen)
#   FIXTURE installed <url> reported
#     or FIXTURE installed <url> failed: <wget's error>
#     or FIXTURE installed skipped: no callback in the answer file
#   FIXTURE done
# and then poweroff -f, so QEMU exits by itself. Lines "FIXTURE note: ..." are
# diagnostics (a module that failed to load, wget's error) and may appear anywhere.
# Each label lookup waits up to 10 s for the device (busybox findfs).
#
# QEMU (verified with Debian 12's qemu-system-x86 7.2 under TCG). q35 with its AHCI
# controller works with both firmwares; the ISO is on port 0 and boots first, the
# answer-file disk (raw 1 MiB FAT12, labelled OEMDRV or CIDATA) on port 1. QEMU's user
# networking answers 10.0.2.2 with the host's 127.0.0.1, so serve the install tree on
# 127.0.0.1:PORT and write url --url=http://10.0.2.2:PORT/... in the answer file.
# ACCEL: tcg (a boot takes about 20 s with SeaBIOS, 27 s with OVMF on 2 cores), or kvm
# when it really works: a /dev/kvm that exists may not (in a Firecracker guest KVM
# hangs with "KVM internal error ... emulation failure", and aborts with -cpu host), so
# probe it with the fixture itself, which prints "FIXTURE done" in ~2 s under KVM:
#   timeout 15 qemu-system-x86_64 -machine q35 -accel kvm -m 256 -display none \
#     -monitor none -no-reboot -serial stdio -kernel OUT/vmlinuz -initrd OUT/initrd.img \
#     </dev/null 2>/dev/null | grep -q 'FIXTURE done' && ACCEL=kvm || ACCEL=tcg
#
# BIOS (SeaBIOS, QEMU's default firmware):
#   qemu-system-x86_64 -machine q35 -accel "$ACCEL" -m 512 -smp 1 \
#     -display none -monitor none -no-reboot -serial file:console.log \
#     -drive if=none,id=cd,media=cdrom,format=raw,readonly=on,file=boot.iso \
#     -device ide-cd,drive=cd,bus=ide.0,bootindex=0 \
#     -drive if=none,id=answers,format=raw,file=host.img \
#     -device ide-hd,drive=answers,bus=ide.1 \
#     -nic user,model=e1000
# UEFI (OVMF): the same plus, with a fresh copy of OVMF_VARS.fd for each run,
#     -drive if=pflash,format=raw,unit=0,readonly=on,file=OUT/OVMF_CODE.fd \
#     -drive if=pflash,format=raw,unit=1,file=vars.fd
# -serial stdio instead of -serial file:console.log works too (stdin may be /dev/null).
# The guest powers itself off after "FIXTURE done"; QEMU then exits with status 0.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$repo/target/boot-fixture}
self="$repo/scripts/boot-fixture.sh"

# The modules /init loads, by module name; their dependencies are added in load order.
# CD-ROM and disk on q35 (AHCI) and pc (PIIX IDE), their filesystems with the codepage
# and iocharsets vfat mounts with by default on Debian (cp437, ascii; utf8), the e1000 NIC.
# The install-disk proof's disks: SCSI disks on virtio-scsi (serial, WWN, vendor, model,
# rotation rate as QEMU's scsi-hd gives them) and a USB stick on an xHCI controller.
modules=(ahci ata_piix sr_mod sd_mod isofs vfat nls_cp437 nls_ascii nls_utf8 e1000 virtio_pci virtio_scsi xhci_pci usb_storage)

die() {
  echo "boot-fixture: $*" >&2
  exit 1
}

# depmod, modprobe and mkfs.fat live in /usr/sbin, which a user's PATH may lack.
export PATH="$PATH:/usr/sbin:/sbin"
for tool in apt-get apt-cache dpkg-deb dpkg-query depmod modprobe cpio gzip grub-mkimage mkfs.fat mmd mcopy sha256sum; do
  command -v "$tool" >/dev/null || die "$tool is missing: run scripts/setup.sh"
done
isolinux_bin=/usr/lib/ISOLINUX/isolinux.bin
ldlinux_c32=/usr/lib/syslinux/modules/bios/ldlinux.c32
grub_dir=/usr/lib/grub/x86_64-efi
grub_pc_dir=/usr/lib/grub/i386-pc
ovmf_code=/usr/share/OVMF/OVMF_CODE_4M.fd
ovmf_vars=/usr/share/OVMF/OVMF_VARS_4M.fd
for f in "$isolinux_bin" "$ldlinux_c32" "$grub_dir/linux.mod" "$grub_pc_dir/biosdisk.mod" "$ovmf_code" "$ovmf_vars"; do
  [ -e "$f" ] || die "$f is missing: run scripts/setup.sh"
done

installed() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo none; }

# One apt-cache call (each one rebuilds apt's cache where it is not kept): the candidate
# linux-image-amd64 depends on exactly one linux-image-6.1.*-amd64 version.
apt_info=$(apt-cache show --no-all-versions linux-image-amd64 busybox-static 2>/dev/null) || true
IFS='|' read -r kernel_pkg kernel_ver busybox_ver < <(awk '
  /^Package: / { p = $2 }
  p == "linux-image-amd64" && /^Depends: / && match($0, /linux-image-[0-9][^ ]*-amd64 \(= [^)]*\)/) {
    split(substr($0, RSTART, RLENGTH), d, /[ ()=]+/); k = d[1]; kv = d[2]
  }
  p == "busybox-static" && /^Version: / { bv = $2 }
  END { print k "|" kv "|" bv }' <<<"$apt_info")
if [ -z "$kernel_pkg" ] || [ -z "$kernel_ver" ] || [ -z "$busybox_ver" ]; then
  die "apt knows no linux-image-amd64 -> linux-image-*-amd64 (=version) or no busybox-static (run apt-get update)"
fi

stamp_text="script $(sha256sum "$self" | cut -d' ' -f1)
$kernel_pkg $kernel_ver
busybox-static $busybox_ver
grub-efi-amd64-bin $(installed grub-efi-amd64-bin)
grub-pc-bin $(installed grub-pc-bin)
isolinux $(installed isolinux)
syslinux-common $(installed syslinux-common)
ovmf $(installed ovmf)
modules ${modules[*]}"

outputs=(vmlinuz initrd.img isolinux.bin ldlinux.c32 eltorito.img BOOTX64.EFI efiboot.img OVMF_CODE.fd OVMF_VARS.fd)
if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp_text" ]; then
  complete=1
  for f in "${outputs[@]}"; do [ -s "$out/$f" ] || complete=0; done
  if ((complete)); then
    echo "boot-fixture: $out is up to date ($kernel_pkg $kernel_ver)"
    exit 0
  fi
fi

echo "boot-fixture: building $out ($kernel_pkg $kernel_ver, busybox-static $busybox_ver)"
mkdir -p "$out"
rm -f "$out/.stamp"
work=$(cd "$(mktemp -d "$out/.build.XXXXXX")" && pwd)
trap 'rm -rf "$work"' EXIT

# --- packages: downloaded and unpacked here, never installed --------------------------
apt_opts=(-q)
# As root, apt downloads as _apt, who cannot write into this private directory.
[ "$(id -u)" -ne 0 ] || apt_opts+=(-o APT::Sandbox::User=root)
(cd "$work" && apt-get "${apt_opts[@]}" download "$kernel_pkg=$kernel_ver" "busybox-static=$busybox_ver" >/dev/null) ||
  die "apt-get download $kernel_pkg busybox-static failed"
mkdir "$work/kernel" "$work/busybox"
dpkg-deb -x "$work/${kernel_pkg}_"*.deb "$work/kernel"
dpkg-deb -x "$work/busybox-static_"*.deb "$work/busybox"

kroot="$work/kernel"
# bookworm's kernel packages ship /lib/modules (not yet /usr/lib/modules).
if [ ! -d "$kroot/lib/modules" ] && [ -d "$kroot/usr/lib/modules" ]; then kroot="$kroot/usr"; fi
kvers=("$kroot"/lib/modules/*)
if [ "${#kvers[@]}" -ne 1 ] || [ ! -d "${kvers[0]}" ]; then
  die "expected one kernel in $kernel_pkg, found: ${kvers[*]}"
fi
kver=${kvers[0]##*/}
[ -f "$work/kernel/boot/vmlinuz-$kver" ] || die "$kernel_pkg has no boot/vmlinuz-$kver"
depmod -b "$kroot" "$kver"
# Soft dependencies are optional (crc-t10dif's crct10dif-pclmul, which fails without
# PCLMULQDQ, as under TCG); leave them out, and the host's /etc/modprobe.d too.
: >"$kroot/lib/modules/$kver/modules.softdep"
mkdir "$work/modprobe.d"

# --- initrd -----------------------------------------------------------------------------
root="$work/initrd"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,mnt,tmp,etc,lib/modules/"$kver"}
install -m 0755 "$work/busybox/bin/busybox" "$root/bin/busybox"

# Load order from modprobe itself (dependencies first); each module once.
# Modules are plain .ko in bookworm (CONFIG_MODULE_COMPRESS_NONE); .ko.xz/.ko.zst would
# need unpacking first for busybox insmod, so they are refused rather than copied.
declare -A seen=()
: >"$root/etc/fixture-modules"
for m in "${modules[@]}"; do
  deps=$(modprobe -C "$work/modprobe.d" -d "$kroot" -S "$kver" --show-depends "$m") || die "no module $m in $kernel_pkg"
  while read -r kind path _; do
    [ "$kind" = insmod ] || continue # "builtin NAME": nothing to load
    case $path in *.ko) ;; *) die "$path: compressed modules are not handled" ;; esac
    rel=${path#*/lib/modules/"$kver"/}
    [ -z "${seen[$rel]:-}" ] || continue
    seen[$rel]=1
    mkdir -p "$root/lib/modules/$kver/$(dirname "$rel")"
    cp "$path" "$root/lib/modules/$kver/$rel"
    echo "/lib/modules/$kver/$rel" >>"$root/etc/fixture-modules"
  done <<<"$deps"
done

cat >"$root/init" <<'INIT'
#!/bin/busybox sh
# Bootsmith boot fixture: prints what it was booted with on the serial port; the
# output contract is in scripts/boot-fixture.sh of the Bootsmith repository.
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo 1 >/proc/sys/kernel/printk
if (: >/dev/ttyS0) 2>/dev/null; then
  exec </dev/null >/dev/ttyS0 2>&1
else
  exec </dev/null >/dev/console 2>&1
fi
set -f
echo

# Every line also goes to /tmp/transcript: the log the fixture sends as its installer's
# program.log (its own lines only: the answer file, which holds secrets, is never in it).
say() { echo "FIXTURE $*"; echo "FIXTURE $*" >>/tmp/transcript; }

while read -r m; do
  [ -n "$m" ] || continue
  err=$(insmod "$m" 2>&1) || say "note: insmod ${m##*/} failed: $err"
done </etc/fixture-modules

# Disks appear while SCSI and USB buses are scanned: wait (up to 10 s) until the list of
# block devices holds still for a second, as udev settles before Anaconda looks at disks.
prev='' i=0
while [ "$i" -lt 20 ]; do
  now=$(ls /sys/block | tr '\n' ' ')
  [ "$now" = "$prev" ] && [ -n "$now" ] && break
  prev=$now
  sleep 1
  i=$((i + 1))
done

# \x20 and other backslash escapes, as udev writes labels.
decode() { printf '%b' "$1"; }

# The device whose filesystem is labelled $1, waiting up to 10 s for it.
find_label() {
  i=0
  while [ "$i" -lt 50 ]; do
    d=$(findfs "LABEL=$1" 2>/dev/null) && [ -n "$d" ] && { echo "$d"; return 0; }
    sleep 0.2
    i=$((i + 1))
  done
  return 1
}

# Copy file $2 from device $1 to /tmp/answer; on failure print why and return 1.
copy_answer() {
  mkdir -p /mnt/answer
  if ! err=$(mount -t vfat -o ro "$1" /mnt/answer 2>&1) && ! mount -o ro "$1" /mnt/answer 2>/dev/null; then
    echo "cannot mount $1: $err"
    return 1
  fi
  if [ -f "/mnt/answer$2" ]; then
    cp "/mnt/answer$2" /tmp/answer
    umount /mnt/answer
    return 0
  fi
  umount /mnt/answer
  echo "no $2 on $1"
  return 1
}

show() {
  cat "$1"
  [ -z "$(tail -c 1 "$1")" ] || echo
}

read -r cmdline </proc/cmdline
say "cmdline: $cmdline"

stage2='' ks='' ks_url='' seed='' auto='' ifnames='' boot_ip='' boot_dev=''
for w in $cmdline; do
  case $w in
  ifname=*) ifnames="$ifnames ${w#ifname=}" ;;
  ip=*:*:*:*:*:*:none*)
    rest=${w#ip=}
    boot_ip=${rest%%:*}
    boot_dev=$(echo "$rest" | cut -d: -f6)
    ;;
  inst.stage2=hd:LABEL=*) stage2=${w#inst.stage2=hd:LABEL=} ;;
  inst.ks=hd:LABEL=*) ks=${w#inst.ks=hd:LABEL=} ;;
  inst.ks=http://*) ks_url=${w#inst.ks=} ;;
  ds=nocloud\;s=http://*) seed=${w#ds=nocloud;s=} ;;
  autoinstall) auto=1 ;;
  esac
done

# $net_dev (eth0 unless a kickstart's %pre named another NIC) as $net_ip/24 via 10.0.2.2
# (QEMU's user network), once.
net='' net_dev=eth0 net_ip=10.0.2.15
net_up() {
  [ -z "$net" ] || return 0
  net=1
  i=0
  while [ ! -e "/sys/class/net/$net_dev" ] && [ "$i" -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
  ip link set lo up
  ip link set "$net_dev" up
  ip addr add "$net_ip/24" dev "$net_dev" 2>/dev/null
  ip route add default via 10.0.2.2 2>/dev/null
  i=0
  while [ "$(cat "/sys/class/net/$net_dev/carrier" 2>/dev/null)" != 1 ] && [ "$i" -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
}

# GET $1 into $2 with busybox wget, 3 tries; notes say why a try failed.
get() {
  net_up
  for try in 1 2 3; do
    # (busybox-static 1.35's wget -T crashes: bound it with timeout instead)
    if err=$(timeout 15 wget -q -O "$2" "$1" 2>&1); then
      return 0
    fi
    say "note: wget try $try: $err"
    sleep 1
  done
  return 1
}

# dracut's static boot network (ip=<ip>::<gw>:<mask>:<host>:<dev>:none, ifname=<dev>:<mac>):
# the NIC of that MAC, with that address, is the one the network below is set up on.
if [ -n "$boot_ip" ]; then
  mac=''
  for pair in $ifnames; do
    [ "${pair%%:*}" = "$boot_dev" ] && mac=${pair#*:}
  done
  # (no glob: /init runs with set -f)
  for n in $(ls /sys/class/net); do
    [ -n "$mac" ] && [ "$(cat "/sys/class/net/$n/address")" = "$mac" ] && net_dev=$n
  done
  net_ip=$boot_ip
  say "boot network on $net_dev (${mac:-no MAC named}) as $net_ip"
fi

if [ -n "$stage2" ]; then
  s=$(decode "${stage2%%:*}")
  if dev=$(find_label "$s"); then
    say "stage2 LABEL=$s on $dev"
  else
    say "stage2 LABEL=$s missing"
  fi
fi

answer=''
if [ -n "$ks" ]; then
  l=$(decode "${ks%%:*}")
  p=/ks.cfg
  case $ks in *:*) p=${ks#*:} ;; esac
  if dev=$(find_label "$l"); then
    say "ks LABEL=$l on $dev"
    if why=$(copy_answer "$dev" "$p"); then
      say "ks begin"
      show /tmp/answer
      say "ks end"
      answer=/tmp/answer
    else
      say "ks missing: $why"
    fi
  else
    say "ks missing: no filesystem labelled $l"
  fi
elif [ -n "$ks_url" ]; then
  if get "$ks_url" /tmp/answer; then
    say "ks $ks_url fetched"
    say "ks begin"
    show /tmp/answer
    say "ks end"
    answer=/tmp/answer
  else
    say "ks missing: $ks_url not fetched"
  fi
elif [ -n "$auto" ] && [ -n "$seed" ]; then
  if get "${seed}user-data" /tmp/answer; then
    say "user-data ${seed}user-data fetched"
    say "user-data begin"
    show /tmp/answer
    say "user-data end"
    answer=/tmp/answer
  else
    say "user-data missing: ${seed}user-data not fetched"
  fi
elif [ -n "$auto" ]; then
  if dev=$(find_label CIDATA) || dev=$(findfs LABEL=cidata 2>/dev/null); then
    say "cidata on $dev"
    if why=$(copy_answer "$dev" /user-data); then
      say "user-data begin"
      show /tmp/answer
      say "user-data end"
      answer=/tmp/answer
    else
      say "user-data missing: $why"
    fi
  else
    say "cidata missing: no filesystem labelled CIDATA"
  fi
fi

# A kickstart's %pre, run as Anaconda runs it (before the %include it writes is read), with
# this busybox as its shell; then the "install": a marker on the one disk it chose.
chosen='' pre_failed=''
if [ -n "$answer" ] && grep -q '^%pre' "$answer"; then
  awk '/^%pre/ { on = 1; next } on && /^%end/ { exit } on { print }' "$answer" >/tmp/pre.sh
  if sh /tmp/pre.sh >/tmp/pre.out 2>&1; then
    say "pre ok"
  else
    say "pre failed: exit $?"
    # %pre --erroronfail: Anaconda stops there.
    grep -q '^%pre.*--erroronfail' "$answer" && pre_failed=1
  fi
  say "pre begin"
  show /tmp/pre.out
  say "pre end"
  if [ -f /tmp/bootsmith-network.ks ]; then
    say "network begin"
    show /tmp/bootsmith-network.ks
    say "network end"
    # The NIC the network line names (a bond's first port; "link": eth0), and its address.
    nd=$(sed -n 's/.*--device=\([^ ]*\).*/\1/p' /tmp/bootsmith-network.ks | head -n 1)
    [ "$nd" != bond0 ] || nd=$(sed -n 's/.*--bondslaves=\([^ ,]*\).*/\1/p' /tmp/bootsmith-network.ks | head -n 1)
    [ "$nd" != link ] || nd=eth0
    nip=$(sed -n 's/.*--ip=\([^ ]*\).*/\1/p' /tmp/bootsmith-network.ks | head -n 1)
    net_dev=$nd net_ip=${nip:-$net_ip}
    say "network on $net_dev ($(cat "/sys/class/net/$net_dev/address" 2>/dev/null)) as $net_ip"
  fi
  if [ -f /tmp/bootsmith-disks.ks ]; then
    say "disks begin"
    show /tmp/bootsmith-disks.ks
    say "disks end"
    d=$(sed -n 's/^ignoredisk --only-use=\([^ ]*\).*/\1/p' /tmp/bootsmith-disks.ks | head -n 1)
    if [ -n "$d" ] && [ -b "/dev/$d" ]; then
      printf 'BOOTSMITH-FIXTURE-INSTALLED %s\n' "$d" | dd of="/dev/$d" conv=notrunc 2>/dev/null
      sync
      say "installed on /dev/$d"
    else
      say "install skipped: no disk /dev/$d"
    fi
  fi
  chosen=$(cat /tmp/bootsmith-disk.chosen 2>/dev/null | tr -d '"\\')
fi

# The answer file's log upload, as its %post --nochroot and %onerror run it: the transcript
# so far, as program.log, POSTed to the .../logs URL it names with its X-Install-Token.
send_log() {
  logs_url=$(sed -nE "s/.*(http[^\"' ]*\/logs)\?file=.*/\1/p" "$answer" | head -n 1)
  log_token=$(sed -nE 's/.*X-Install-Token: ([0-9a-f]+).*/\1/p' "$answer" | head -n 1)
  if [ -z "$logs_url" ] || [ -z "$log_token" ]; then
    say "logs skipped: no log upload in the answer file"
  elif err=$(timeout 15 wget -q -O /tmp/logs-reply --header "X-Install-Token: $log_token" --header 'Content-Type: application/octet-stream' --post-data "$(cat /tmp/transcript)" "$logs_url?file=program.log" 2>&1); then
    say "logs program.log sent to $logs_url"
  else
    say "logs program.log not sent to $logs_url: $err"
  fi
}

url=''
[ -z "$answer" ] || url=$(awk '{
  sub(/\r$/, "")
  for (i = 1; i < NF; i++) if ($i == "url") {
    for (j = i + 1; j <= NF; j++) {
      if ($j == "--url" && j < NF) u = $(j + 1)
      else if (index($j, "--url=") == 1) u = substr($j, 7)
      else continue
      gsub(/^["\047]|["\047]$/, "", u)
      print u
      exit
    }
  }
}' "$answer")

if [ -n "$pre_failed" ]; then
  say "fetch skipped: %pre --erroronfail failed"
  # Anaconda runs %onerror now: it sends the logs (the network is up: %pre's failure report
  # brought it up).
  send_log
elif [ -z "$answer" ]; then
  say "fetch skipped: no answer file"
elif [ -z "$url" ]; then
  say "fetch skipped: no url --url in the answer file"
else
  while [ "${url%/}" != "$url" ]; do url=${url%/}; done
  full="$url/.treeinfo"
  if get "$full" /tmp/fetched; then
    say "fetch $full ok"
    say "fetch begin"
    show /tmp/fetched
    say "fetch end"
    # The logs first, as %post --nochroot does: the installed call below spends the token.
    send_log
    # The answer file's last step: tell Bootsmith the host is installed, with its token.
    done_url=$(awk '/\/installed/ { for (i = 1; i <= NF; i++) if ($i ~ /^["\047]?http.*\/installed["\047]?$/) { u = $i; gsub(/["\047]/, "", u); print u; exit } }' "$answer")
    # The token as the kickstart writes it, with or without its quotes escaped.
    token=$(sed -nE 's/.*"token\\?": \\?"([0-9a-f]+).*/\1/p' "$answer" | head -n 1)
    body="{\"token\": \"$token\"}"
    [ -z "$chosen" ] || body="{\"token\": \"$token\", \"disk\": \"$chosen\"}"
    if [ -z "$done_url" ] || [ -z "$token" ]; then
      say "installed skipped: no callback in the answer file"
    elif err=$(timeout 15 wget -q -O /tmp/reported --header 'Content-Type: application/json' --post-data "$body" "$done_url" 2>&1); then
      say "installed $done_url reported"
    else
      say "installed $done_url failed: $err"
    fi
  else
    say "fetch $full failed"
  fi
fi

say "done"
sync
poweroff -f
sleep 5
reboot -f
INIT
chmod 0755 "$root/init"

# dev/console as a character device (5,1), so the kernel can open it for /init; cpio
# cannot archive a device node it cannot create without root, so this newc archive is
# written by hand and appended (the kernel reads concatenated archives).
newc_entry() { # name mode rdevmajor rdevminor
  local name=$1 size=$((${#1} + 1))
  printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
    0 "$2" 0 0 1 0 0 0 0 "$3" "$4" "$size" 0
  printf '%s\0' "$name"
  # header (110) + name padded to a multiple of 4
  local pad=$(((4 - (110 + size) % 4) % 4))
  head -c "$pad" /dev/zero
}

find "$root" -exec touch -h -d @0 {} +
(
  cd "$root"
  find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --reproducible --quiet
  newc_entry dev/console $((0020600)) 5 1
  newc_entry 'TRAILER!!!' 0 0 0
) | gzip -9 -n >"$work/initrd.img"

# --- boot loaders ------------------------------------------------------------------------
cp "$work/kernel/boot/vmlinuz-$kver" "$work/vmlinuz"
cp "$isolinux_bin" "$work/isolinux.bin"
cp "$ldlinux_c32" "$work/ldlinux.c32"

grub_modules=(
  normal configfile echo test true sleep halt reboot ls cat
  search search_label search_fs_file search_fs_uuid
  iso9660 fat part_msdos part_gpt gzio
  linux linuxefi
  all_video efi_gop efi_uga video_bochs video_cirrus
  serial terminal
)
grub-mkimage -O x86_64-efi -p /EFI/BOOT -d "$grub_dir" -o "$work/BOOTX64.EFI" "${grub_modules[@]}"
# BIOS: the same commands from the CD through the BIOS disk calls; every module is built in,
# since the test ISOs carry no boot/grub2/i386-pc/*.mod to load.
grub_pc_modules=(
  normal configfile echo test true sleep halt reboot ls cat
  search search_label search_fs_file search_fs_uuid
  biosdisk iso9660 part_msdos part_gpt gzio
  linux serial terminal
)
grub-mkimage -O i386-pc-eltorito -p /boot/grub2 -d "$grub_pc_dir" -o "$work/eltorito.img" "${grub_pc_modules[@]}"

cat >"$work/grub.cfg" <<'CFG'
# Placeholder from scripts/boot-fixture.sh: replace it with the real grub.cfg.
echo 'FIXTURE note: placeholder EFI/BOOT/grub.cfg of efiboot.img'
sleep 3
halt
CFG
efi_kib=$(($(stat -c %s "$work/BOOTX64.EFI") / 1024))
img_kib=$((((efi_kib + 512) / 1024 + 1) * 1024))
mkfs.fat -C -n ANACONDA "$work/efiboot.img" "$img_kib" >/dev/null
mmd -i "$work/efiboot.img" ::EFI ::EFI/BOOT
mcopy -i "$work/efiboot.img" "$work/BOOTX64.EFI" "$work/grub.cfg" ::EFI/BOOT/

cp "$ovmf_code" "$work/OVMF_CODE.fd"
cp "$ovmf_vars" "$work/OVMF_VARS.fd"
chmod 0644 "$work/OVMF_VARS.fd"

for f in "${outputs[@]}"; do mv -f "$work/$f" "$out/$f"; done
printf '%s\n' "$stamp_text" >"$out/.stamp"
echo "boot-fixture: built $out (kernel $kver, $(wc -l <"$root/etc/fixture-modules") modules)"
