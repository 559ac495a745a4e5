#!/usr/bin/env bash
# Make a small installer ISO shaped like the vendor's for one catalog OS id: the marker files
# Bootsmith recognises it by, the vendor's volume id and tree layout, its boot loaders' config
# files, BIOS and UEFI El Torito entries, a few MiB. It goes through every Bootsmith step
# (detection, install tree, boot ISO, answer disks, deploy) but installs nothing: its kernel
# and boot loaders are placeholders (crates/api/tests/boot_qemu.rs boots real ones).
#
# usage: scripts/sample-iso.sh <out.iso> [os id]     (the id defaults to centos7.4)
# needs: xorriso, mkfs.fat (dosfstools), mtools
#
# Layouts, by family (what each real ISO has; see README "Operating systems"):
#   RHEL 7-9, CentOS, Rocky/Alma 8-9: .discinfo (time stamp, version, arch), .treeinfo,
#     isolinux/ (BIOS), EFI/BOOT/grub.cfg and images/efiboot.img (UEFI), images/pxeboot;
#     8 and later BaseOS/ and AppStream/ repos.
#   RHEL, Rocky and Alma 10: no isolinux. Lorax builds BIOS boot with GRUB 2 since Fedora 37
#     (fedoraproject.org/wiki/Changes/BIOSBootISOWithGrub2, weldr/lorax PR 1226): the BIOS
#     El Torito image is images/eltorito.img, its config boot/grub2/grub.cfg.
#   RHV-H: the RHEL 7 layout with "RHVH <version>" in .discinfo.
#   ESXi: upper-case names, .DISCINFO ("Version: <x.y.z>"), ISOLINUX.CFG, BOOT.CFG and
#     EFI/BOOT/BOOT.CFG, EFIBOOT.IMG.
#   Windows: sources/idwbinfo.txt (BuildBranch: the release branch), boot/etfsboot.com
#     (BIOS), efi/microsoft/boot/efisys.bin (UEFI).
#   Ubuntu: .disk/info ("Ubuntu-Server <version> LTS "<codename>" ..."), casper/,
#     boot/grub/grub.cfg, boot/grub/i386-pc/eltorito.img (BIOS), EFI image (UEFI).
set -euo pipefail

out=${1:?usage: $0 <out.iso> [os id]}
id=${2:-centos7.4}
work=$(mktemp -d)
trap 'rm -rf "$work" "$out.partial"' EXIT
t=$work/tree
mkdir -p "$t"

placeholder() { mkdir -p "$(dirname "$t/$1")" && echo "placeholder $1" >"$t/$1"; }
efi_image() { # <path in tree> <config files to copy into EFI/BOOT>...
  local img=$t/$1
  shift
  mkdir -p "$(dirname "$img")"
  mkfs.fat -C -n EFIBOOT "$img" 2048 >/dev/null
  mmd -i "$img" ::/EFI ::/EFI/BOOT
  mcopy -i "$img" "$@" ::/EFI/BOOT/
}
pack() { # <label> <mkisofs boot arguments>...
  local label=$1
  shift
  xorriso -as mkisofs -quiet -R -J -joliet-long -V "$label" -o "$out.partial" "$@" "$t"
  mv "$out.partial" "$out"
}

# The RHEL family. $1 product name, $2 version, $3 volume id, $4 .discinfo product line (RHV-H).
rhel_like() {
  local product=$1 version=$2 label=$3 discinfo=${4:-$2} major=${2%%.*}
  local esc=${label// /\\x20}
  printf '1746000000.000000\n%s\nx86_64\n' "$discinfo" >"$t/.discinfo"
  printf '[general]\nname = %s %s\nfamily = %s\nversion = %s\narch = x86_64\n' \
    "$product" "$version" "$product" "$version" >"$t/.treeinfo"
  for f in images/pxeboot/vmlinuz images/pxeboot/initrd.img images/install.img; do placeholder "$f"; done
  if ((major >= 8)); then
    for repo in BaseOS AppStream; do
      mkdir -p "$t/$repo/Packages" "$t/$repo/repodata"
      echo '<repomd/>' >"$t/$repo/repodata/repomd.xml"
    done
  else
    mkdir -p "$t/Packages" "$t/repodata" "$t/LiveOS"
    echo '<repomd/>' >"$t/repodata/repomd.xml"
    head -c 1048576 /dev/zero >"$t/LiveOS/squashfs.img"
    head -c 262144 /dev/zero >"$t/Packages/bash-4.2.46-28.el7.x86_64.rpm"
  fi
  local linux=linuxefi initrd=initrdefi
  ((major >= 9)) && linux=linux initrd=initrd
  mkdir -p "$t/EFI/BOOT"
  cat >"$t/EFI/BOOT/grub.cfg" <<EOF
set default="1"
search --no-floppy --set=root -l '$label'

menuentry 'Install $product $version' --class fedora --class gnu-linux --class gnu --class os {
	$linux /images/pxeboot/vmlinuz inst.stage2=hd:LABEL=$esc quiet
	$initrd /images/pxeboot/initrd.img
}
menuentry 'Test this media & install $product $version' --class fedora --class gnu-linux --class gnu --class os {
	$linux /images/pxeboot/vmlinuz inst.stage2=hd:LABEL=$esc rd.live.check quiet
	$initrd /images/pxeboot/initrd.img
}
EOF
  placeholder EFI/BOOT/BOOTX64.EFI
  efi_image images/efiboot.img "$t/EFI/BOOT/grub.cfg" "$t/EFI/BOOT/BOOTX64.EFI"
  if ((major >= 10)); then
    mkdir -p "$t/boot/grub2/i386-pc"
    sed -e 's/linuxefi/linux/; s/initrdefi/initrd/' "$t/EFI/BOOT/grub.cfg" >"$t/boot/grub2/grub.cfg"
    placeholder boot/grub2/i386-pc/normal.mod
    head -c 4096 /dev/zero | tr '\0' '\220' >"$t/images/eltorito.img"
    pack "$label" -b images/eltorito.img -c boot.cat -no-emul-boot -boot-load-size 4 -boot-info-table \
      -eltorito-alt-boot -e images/efiboot.img -no-emul-boot
  else
    mkdir -p "$t/isolinux"
    head -c 4096 /dev/zero | tr '\0' '\220' >"$t/isolinux/isolinux.bin"
    cp "$t/images/pxeboot/vmlinuz" "$t/images/pxeboot/initrd.img" "$t/isolinux/"
    cat >"$t/isolinux/isolinux.cfg" <<EOF
default vesamenu.c32
timeout 600

label linux
  menu label ^Install $product $version
  kernel vmlinuz
  append initrd=initrd.img inst.stage2=hd:LABEL=$esc quiet

label check
  menu label Test this ^media & install $product $version
  menu default
  kernel vmlinuz
  append initrd=initrd.img inst.stage2=hd:LABEL=$esc rd.live.check quiet
EOF
    pack "$label" -b isolinux/isolinux.bin -c isolinux/boot.cat -no-emul-boot -boot-load-size 4 \
      -boot-info-table -eltorito-alt-boot -e images/efiboot.img -no-emul-boot
  fi
}

# ESXi. $1 version (x.y.z), $2 its .DISCINFO file name (lower case on 6.7).
esxi_like() {
  local version=$1 discinfo=$2
  printf 'Product: VMware ESXi\nVersion: %s\nBuild: 24000000\n' "$version" >"$t/$discinfo"
  for f in B.B00 K.B00 S.V00 MBOOT.C32 EFI/BOOT/BOOTX64.EFI; do placeholder "$f"; done
  head -c 4096 /dev/zero | tr '\0' '\220' >"$t/ISOLINUX.BIN"
  printf 'DEFAULT menu.c32\nLABEL install\n  KERNEL mboot.c32\n  APPEND -c boot.cfg\n' >"$t/ISOLINUX.CFG"
  for cfg in BOOT.CFG EFI/BOOT/BOOT.CFG; do
    printf 'bootstate=0\ntitle=Loading ESXi installer\ntimeout=5\nprefix=\nkernel=/b.b00\nkernelopt=runweasel cdromBoot\nmodules=/k.b00 --- /s.v00\nbuild=\nupdated=0\n' >"$t/$cfg"
  done
  efi_image EFIBOOT.IMG "$t/EFI/BOOT/BOOT.CFG" "$t/EFI/BOOT/BOOTX64.EFI"
  pack "ESXI-$version-24000000-STANDARD" -b ISOLINUX.BIN -c BOOT.CAT -no-emul-boot -boot-load-size 4 \
    -boot-info-table -eltorito-alt-boot -e EFIBOOT.IMG -no-emul-boot
}

# Windows Server. $1 build branch (idwbinfo.txt), $2 volume id.
windows_like() {
  mkdir -p "$t/sources"
  printf '[BUILDINFO]\r\nBuildArch=amd64\r\nBuildBranch=%s\r\nBuildType=fre\r\n' "$1" >"$t/sources/idwbinfo.txt"
  placeholder sources/install.wim
  placeholder sources/boot.wim
  mkdir -p "$t/boot" "$t/efi/microsoft/boot"
  head -c 4096 /dev/zero | tr '\0' '\220' >"$t/boot/etfsboot.com"
  head -c 1474560 /dev/zero >"$t/efi/microsoft/boot/efisys.bin"
  pack "$2" -b boot/etfsboot.com -c boot/boot.cat -no-emul-boot -boot-load-size 8 \
    -eltorito-alt-boot -e efi/microsoft/boot/efisys.bin -no-emul-boot
}

# Ubuntu Server. $1 version (with the point release), $2 codename.
ubuntu_like() {
  local version=$1 codename=$2
  mkdir -p "$t/.disk" "$t/boot/grub/i386-pc" "$t/EFI/boot"
  printf 'Ubuntu-Server %s LTS "%s" - Release amd64 (20260423)' "$version" "$codename" >"$t/.disk/info"
  for f in casper/vmlinuz casper/initrd casper/hwe-vmlinuz casper/hwe-initrd EFI/boot/bootx64.efi; do placeholder "$f"; done
  cat >"$t/boot/grub/grub.cfg" <<EOF
set timeout=30
menuentry "Try or Install Ubuntu Server" {
	set gfxpayload=keep
	linux	/casper/vmlinuz  ---
	initrd	/casper/initrd
}
menuentry "Ubuntu Server with the HWE kernel" {
	linux	/casper/hwe-vmlinuz  ---
	initrd	/casper/hwe-initrd
}
EOF
  printf 'configfile /boot/grub/grub.cfg\n' >"$t/EFI/boot/grub.cfg"
  head -c 4096 /dev/zero | tr '\0' '\220' >"$t/boot/grub/i386-pc/eltorito.img"
  efi_image boot/grub/efi.img "$t/EFI/boot/grub.cfg" "$t/EFI/boot/bootx64.efi"
  pack "Ubuntu-Server $version LTS amd64" -b boot/grub/i386-pc/eltorito.img -c boot.catalog \
    -no-emul-boot -boot-load-size 4 -boot-info-table \
    -eltorito-alt-boot -e boot/grub/efi.img -no-emul-boot
}

v=${id#"${id%%[0-9]*}"} # the version part of the id: 7.4, 10.1, 2012r2, 26.04, 24.04.3
case $id in
centos7.*) rhel_like CentOS "$v" 'CentOS 7 x86_64' ;;
redhat7.* | rhel*) rhel_like 'Red Hat Enterprise Linux' "$v" "RHEL-${v//./-}-0-BaseOS-x86_64" ;;
rocky*) rhel_like 'Rocky Linux' "$v.0" "Rocky-$v-0-x86_64-dvd" ;;
alma*) rhel_like AlmaLinux "$v.0" "AlmaLinux-$v-0-x86_64-dvd" ;;
rhvh*) rhel_like 'Red Hat Virtualization Host' "$v" "RHVH-$v-RHVH-x86_64-0" "RHVH $v" ;;
esxi6.0 | esxi6.5) esxi_like "$v.0" .DISCINFO ;;
esxi6.7) esxi_like "$v.0" .discinfo ;;
esxi*) esxi_like "$v.0" .DISCINFO ;;
win2012r2) windows_like winblue_rtm IR5_SSS_X64FREV_EN-US_DV9 ;;
win2016) windows_like rs1_release SSS_X64FREV_EN-US_DV9 ;;
win2019) windows_like rs5_release SSS_X64FREV_EN-US_DV9 ;;
win2022) windows_like fe_release_svc_refresh SSS_X64FREV_EN-US_DV9 ;;
# Build 26100.1742.240906-0331.ge_release_svc_refresh: the Windows Server 2025 GA media.
win2025) windows_like ge_release_svc_refresh SSS_X64FREV_EN-US_DV9 ;;
ubuntu18.04*) ubuntu_like "$v" 'Bionic Beaver' ;;
ubuntu22.04*) ubuntu_like "$v" 'Jammy Jellyfish' ;;
ubuntu24.04*) ubuntu_like "$v" 'Noble Numbat' ;;
ubuntu26.04*) ubuntu_like "$v" 'Resolute Raccoon' ;;
*)
  echo "sample-iso: no sample layout for '$id'" >&2
  exit 2
  ;;
esac
