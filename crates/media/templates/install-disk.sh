# Bootsmith: the disk to install on, picked on the installer itself by the rule the deploy
# plan used (bootsmith_model::install_disk::resolve), because device names (sda, nvme0n1)
# are known only here. Prints the device's name on stdout, and on a second line the disk in
# words; when no one disk fits, says why on stderr and exits 1: an install never guesses.
#
# POSIX sh for bash (Anaconda), dash (Subiquity) and busybox. Reads sysfs, and udev where
# it runs (a serial that sysfs does not show). BOOTSMITH_SYS and BOOTSMITH_DEV move /sys
# and /dev (for tests); the answer disk is found with findfs or blkid by its label.
#
# Set above this text by Bootsmith: want_serial, want_wwn (hex digits), want_model,
# want_vendor, want_name (empty: any); want_min, want_max (whole GiB, empty: no bound);
# want_rot (1 spinning, 0 solid-state, empty: any); hinted (1: a hint, else the default
# rule); hint_words; answer_labels; min_gib.

sys=${BOOTSMITH_SYS:-/sys}
devdir=${BOOTSMITH_DEV:-/dev}
# 512-byte sectors in a GiB.
gib_sectors=2097152

# Trimmed, runs of blanks as one (managers and the kernel pad model and vendor).
squeeze() { printf '%s' "$1" | sed 's/[[:space:]][[:space:]]*/ /g; s/^ //; s/ $//'; }
# As text keys compare: squeezed, in lower case.
norm() { squeeze "$1" | tr 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' 'abcdefghijklmnopqrstuvwxyz'; }

# 16 or 32 hex digits in lower case without 0x, naa. or eui.; nothing for other forms.
wwn_digits() {
    w=$(norm "$1")
    w=${w#0x}
    w=${w#naa.}
    w=${w#eui.}
    case ${#w} in 16 | 32) ;; *) return 0 ;; esac
    case $w in *[!0-9a-f]*) return 0 ;; esac
    printf '%s' "$w"
}

first_line() { [ -r "$1" ] && head -n 1 "$1" 2>/dev/null; }

udev_prop() { # device name, property
    command -v udevadm >/dev/null 2>&1 || return 0
    udevadm info --query=property --name="$devdir/$1" 2>/dev/null | sed -n "s/^$2=//p" | head -n 1
}

# The disk a filesystem labelled $1 is on (a FAT image may have no partition table).
labelled_disk() {
    d=$(findfs "LABEL=$1" 2>/dev/null || blkid -L "$1" 2>/dev/null) || return 0
    [ -n "$d" ] || return 0
    b=${d##*/}
    if [ -e "$sys/class/block/$b/partition" ]; then
        p=$(readlink -f "$sys/class/block/$b")
        p=${p%/*}
        b=${p##*/}
    fi
    printf '%s' "$b"
}

answer_disks=' '
for l in $answer_labels; do
    answer_disks="$answer_disks$(labelled_disk "$l") "
done

# "local", "remote", "usb" or "sd_card", as the deploy plan says it.
transport() { # name, sysfs dir
    case $1 in mmcblk*) echo sd_card && return ;; esac
    real=$(readlink -f "$2")
    case $real in
    */usb[0-9]*) echo usb ;;
    */rport-* | */session[0-9]* | */nvme-fabrics/*) echo remote ;;
    *) if [ "$(first_line "$2/removable")" = 1 ]; then echo usb; else echo local; fi ;;
    esac
}

multipath() { # sysfs dir: 0 or 1
    for h in "$1"/holders/*; do
        [ -e "$h" ] || continue
        case $(first_line "$sys/block/${h##*/}/dm/uuid") in mpath-*) echo 1 && return ;; esac
    done
    echo 0
}

serial_of() { # name, sysfs dir
    s=$(first_line "$2/device/serial")
    [ -n "$s" ] || s=$(first_line "$2/serial")
    if [ -z "$s" ] && [ -r "$2/device/vpd_pg80" ]; then
        # The unit serial number page: 4 header bytes, then the text.
        s=$(tail -c +5 "$2/device/vpd_pg80" | tr -d '\000')
    fi
    [ -n "$s" ] || s=$(udev_prop "$1" ID_SERIAL_SHORT)
    squeeze "$s"
}

# Whether hint name $1 names disk $2: /dev/sdb, sdb, or a link (/dev/disk/by-path/...) to it.
named() {
    n=$(norm "$1")
    [ "$n" = "$2" ] || [ "$n" = "/dev/$2" ] && return 0
    case $1 in /dev/*) t=$(readlink -f "$devdir/${1#/dev/}" 2>/dev/null) ;; *) return 1 ;; esac
    [ "${t##*/}" = "$2" ]
}

want_serial=$(norm "$want_serial")
want_model=$(norm "$want_model")
want_vendor=$(norm "$want_vendor")

found=''
count=0
all=''
qualifying=''
for p in "$sys"/block/*; do
    [ -e "$p" ] || continue
    b=${p##*/}
    case $b in loop* | ram* | zram* | sr* | fd* | dm-* | md* | nbd* | mtdblock* | mmcblk*boot* | mmcblk*rpmb) continue ;; esac
    case $answer_disks in *" $b "*) continue ;; esac
    sectors=$(first_line "$p/size")
    case $sectors in '' | *[!0-9]*) continue ;; esac
    # An empty card reader.
    [ "$sectors" -gt 0 ] || continue
    gib=$((sectors / gib_sectors))
    rot=$(first_line "$p/queue/rotational")
    serial=$(serial_of "$b" "$p")
    wwn=$(wwn_digits "$(first_line "$p/device/wwid")")
    [ -n "$wwn" ] || wwn=$(wwn_digits "$(first_line "$p/wwid")")
    [ -n "$wwn" ] || wwn=$(wwn_digits "$(udev_prop "$b" ID_WWN)")
    model=$(squeeze "$(first_line "$p/device/model")")
    vendor=$(squeeze "$(first_line "$p/device/vendor")")
    tr_=$(transport "$b" "$p")
    mp=$(multipath "$p")

    what="$b ($gib GiB"
    [ -z "$vendor$model" ] || what="$what, $(echo "$vendor $model" | sed 's/^ //; s/ $//')"
    [ -z "$serial" ] || what="$what, S/N $serial"
    [ -z "$wwn" ] || what="$what, WWN 0x$wwn"
    [ "$tr_" = local ] || what="$what, $tr_"
    [ "$mp" = 0 ] || what="$what, multipath"
    what="$what)"
    all="$all${all:+; }$what"

    if [ "$hinted" = 1 ]; then
        ok=1
        [ -z "$want_serial" ] || [ "$want_serial" = "$(norm "$serial")" ] || ok=0
        [ -z "$want_wwn" ] || [ "$want_wwn" = "$wwn" ] || ok=0
        [ -z "$want_model" ] || [ "$want_model" = "$(norm "$model")" ] || ok=0
        [ -z "$want_vendor" ] || [ "$want_vendor" = "$(norm "$vendor")" ] || ok=0
        [ -z "$want_min" ] || [ "$gib" -ge "$want_min" ] || ok=0
        [ -z "$want_max" ] || [ "$gib" -le "$want_max" ] || ok=0
        [ -z "$want_rot" ] || [ "$want_rot" = "$rot" ] || ok=0
        [ -z "$want_name" ] || named "$want_name" "$b" || ok=0
        if [ "$ok" = 1 ]; then
            found="$found${found:+; }$what"
            count=$((count + 1))
            pick="$b $what"
        fi
    elif [ "$tr_" = local ] && [ "$mp" = 0 ] && [ "$gib" -ge "$min_gib" ]; then
        qualifying="$qualifying$sectors $b $what
"
    fi
done

# For the verdict that follows (install-disk-verdict.sh).
seen_where="The disks here"
tells_apart="a serial or a WWN names one disk"
never_words="never a SAN LUN, USB disk, SD card or multipath disk"
