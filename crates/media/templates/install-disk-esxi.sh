# Bootsmith: the disk to install ESXi on, picked in the ESXi installer's %pre by the rule the
# deploy plan used (bootsmith_model::install_disk::resolve), from what ESXi itself lists:
# `localcli storage core device list` (Size in MiB, Vendor, Model, Is Local, Is SSD, Is USB,
# Is Removable, Devfs Path; the device id names the disk to `install --disk=`). Prints the
# device id on stdout, and on a second line the disk in words; when no one disk fits, says
# why on stderr and exits 1: an install never guesses.
#
# POSIX sh for ESXi's busybox (and dash, for tests). What ESXi shows decides what a key can
# match here:
# - serial: ESXi shows no serial field. A SATA disk's id is t10.<vendor>_<model>_<serial>,
#   padded with '_', so the serial is the id's last '_'-separated field (Bootsmith writes
#   the hint's serial the way ESXi spells ids: letters and digits as they are, a space as
#   '_', any other character as its two hex digits, '-' as 2D). A disk ESXi names by its WWN
#   (naa., eui.: SAS, most NVMe) shows no serial, so a serial hint never matches it.
# - wwn: the hex digits of a naa. or eui. id.
# - name: the device id, or its /vmfs/devices/disks/ path.
# - rotational: Is SSD false (a disk that does not say never matches).
# - local/USB/remote: Is USB or Is Removable is a USB disk (ESXi lists SD cards as USB too),
#   Is Local false a SAN LUN; ESXi joins a LUN's paths into one device, so no multipath here.
#
# Set above this text by Bootsmith: want_serial (spelt as ESXi spells ids), want_wwn (hex
# digits), want_model, want_vendor, want_name (empty: any); want_min, want_max (whole GiB,
# empty: no bound); want_rot (1 spinning, 0 solid-state, empty: any); hinted (1: a hint,
# else the default rule); hint_words; min_gib.

# Trimmed, runs of blanks as one (ESXi pads model and vendor).
squeeze() { printf '%s' "$1" | sed 's/[[:space:]][[:space:]]*/ /g; s/^ //; s/ $//'; }
# As text keys compare: squeezed, in lower case.
norm() { squeeze "$1" | tr 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' 'abcdefghijklmnopqrstuvwxyz'; }

# 16 or 32 hex digits in lower case, else nothing.
hex_id() {
    case ${#1} in 16 | 32) ;; *) return 0 ;; esac
    case $1 in *[!0-9a-f]*) return 0 ;; esac
    printf '%s' "$1"
}

want_serial=$(norm "$want_serial")
want_model=$(norm "$want_model")
want_vendor=$(norm "$want_vendor")
want_name=$(norm "$want_name")
want_name=${want_name#/vmfs/devices/disks/}

found=''
count=0
all=''
qualifying=''

# Judge the device read so far (its fields in id, size, dtype, vendor, model, local, ssd,
# usb, removable), if any.
judge() {
    [ -n "$id" ] || return 0
    # CD-ROMs, enclosures and the like: only disks.
    [ "$dtype" = Direct-Access ] || return 0
    case $size in '' | *[!0-9]*) return 0 ;; esac
    [ "$size" -gt 0 ] || return 0
    gib=$((size / 1024))
    lid=$(norm "$id")
    wwn=''
    serial=''
    case $lid in
    naa.* | eui.*) wwn=$(hex_id "${lid#*.}") ;;
    t10.*)
        s=$id
        while [ "${s%_}" != "$s" ]; do s=${s%_}; done
        case $s in *_*) serial=${s##*_} ;; esac
        ;;
    esac
    rot=''
    case $ssd in true) rot=0 ;; false) rot=1 ;; esac
    tr_=local
    if [ "$usb" = true ] || [ "$removable" = true ]; then
        tr_=usb
    elif [ "$local" != true ]; then
        tr_=remote
    fi
    model=$(squeeze "$model")
    vendor=$(squeeze "$vendor")

    what="$id ($gib GiB"
    [ -z "$vendor$model" ] || what="$what, $(echo "$vendor $model" | sed 's/^ //; s/ $//')"
    [ -z "$wwn" ] || what="$what, WWN 0x$wwn"
    [ "$tr_" = local ] || what="$what, $tr_"
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
        [ -z "$want_name" ] || [ "$want_name" = "$lid" ] || ok=0
        if [ "$ok" = 1 ]; then
            found="$found${found:+; }$what"
            count=$((count + 1))
            pick="$id $what"
        fi
    elif [ "$tr_" = local ] && [ "$gib" -ge "$min_gib" ]; then
        # Size first, then the id, as the plan orders by size and then slot.
        qualifying="$qualifying$size $id $what
"
    fi
}

listing=$(localcli storage core device list 2>/dev/null) || listing=''
id=''
nl='
'
# Each device: its id alone on a line, then "   Key: value" lines, then a blank line.
while IFS= read -r line; do
    line=${line%"$(printf '\r')"}
    case $line in
    '') ;;
    ' '* | "$(printf '\t')"*)
        key=$(squeeze "${line%%:*}")
        val=$(squeeze "${line#*:}")
        case $key in
        Size) size=$val ;;
        'Device Type') dtype=$val ;;
        Vendor) vendor=$val ;;
        Model) model=$val ;;
        'Is Local') local=$val ;;
        'Is SSD') ssd=$val ;;
        'Is USB') usb=$val ;;
        'Is Removable') removable=$val ;;
        esac
        ;;
    *)
        judge
        id=$(squeeze "$line")
        id=${id%:}
        size='' dtype='' vendor='' model='' local='' ssd='' usb='' removable=''
        ;;
    esac
done <<EOF
$listing$nl
EOF
judge

# For the verdict that follows (install-disk-verdict.sh).
seen_where="The disks ESXi sees"
tells_apart="a WWN names one disk"
never_words="never a SAN LUN, USB disk or SD card"
