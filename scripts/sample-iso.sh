#!/usr/bin/env bash
# Make a small CentOS 7.4 look-alike installer ISO: the vendor's layout (.discinfo, isolinux
# with its menu, EFI/BOOT/grub.cfg, images/efiboot.img, LiveOS, Packages), BIOS and UEFI
# El Torito entries, a few MiB. It goes through every Bootsmith step (detection, install tree,
# boot ISO, answer disks, deploy) but installs nothing: its kernel is a placeholder.
#
# usage: scripts/sample-iso.sh <out.iso>
# needs: xorriso, mkfs.fat (dosfstools), mtools
set -euo pipefail

out=${1:?usage: $0 <out.iso>}
label='CentOS 7 x86_64'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
t=$work/tree
mkdir -p "$t"/{isolinux,EFI/BOOT,images/pxeboot,LiveOS,Packages,repodata}

printf '1503417240.398946\n7.4\nx86_64\n' >"$t/.discinfo"
printf '[general]\nfamily = CentOS\nversion = 7\narch = x86_64\n' >"$t/.treeinfo"
head -c 4096 /dev/zero | tr '\0' '\220' >"$t/isolinux/isolinux.bin"
for d in isolinux images/pxeboot; do
  echo "placeholder kernel" >"$t/$d/vmlinuz"
  echo "placeholder initrd" >"$t/$d/initrd.img"
done
head -c 1048576 /dev/zero >"$t/LiveOS/squashfs.img"
head -c 262144 /dev/zero >"$t/Packages/bash-4.2.46-28.el7.x86_64.rpm"
echo '<repomd/>' >"$t/repodata/repomd.xml"

cat >"$t/isolinux/isolinux.cfg" <<EOF
default vesamenu.c32
timeout 600
menu title CentOS 7

label linux
  menu label ^Install CentOS 7
  kernel vmlinuz
  append initrd=initrd.img inst.stage2=hd:LABEL=CentOS\x207\x20x86_64 quiet

label check
  menu label Test this ^media & install CentOS 7
  menu default
  kernel vmlinuz
  append initrd=initrd.img inst.stage2=hd:LABEL=CentOS\x207\x20x86_64 rd.live.check quiet
EOF

cat >"$t/EFI/BOOT/grub.cfg" <<EOF
set default="1"
search --no-floppy --set=root -l 'CentOS 7 x86_64'

menuentry 'Install CentOS 7' --class fedora --class gnu-linux --class gnu --class os {
	linuxefi /images/pxeboot/vmlinuz inst.stage2=hd:LABEL=CentOS\x207\x20x86_64 quiet
	initrdefi /images/pxeboot/initrd.img
}
menuentry 'Test this media & install CentOS 7' --class fedora --class gnu-linux --class gnu --class os {
	linuxefi /images/pxeboot/vmlinuz inst.stage2=hd:LABEL=CentOS\x207\x20x86_64 rd.live.check quiet
	initrdefi /images/pxeboot/initrd.img
}
EOF
echo "placeholder shim" >"$t/EFI/BOOT/BOOTX64.EFI"

mkfs.fat -C -n EFIBOOT "$t/images/efiboot.img" 2048 >/dev/null
mmd -i "$t/images/efiboot.img" ::/EFI ::/EFI/BOOT
mcopy -i "$t/images/efiboot.img" "$t/EFI/BOOT/grub.cfg" "$t/EFI/BOOT/BOOTX64.EFI" ::/EFI/BOOT/

xorriso -as mkisofs -quiet -R -J -V "$label" -o "$out.partial" \
  -b isolinux/isolinux.bin -c isolinux/boot.cat \
  -no-emul-boot -boot-load-size 4 -boot-info-table \
  -eltorito-alt-boot -e images/efiboot.img -no-emul-boot \
  "$t"
mv "$out.partial" "$out"
