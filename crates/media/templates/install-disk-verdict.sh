# Bootsmith: the verdict of an install-disk program (install-disk.sh, install-disk-esxi.sh),
# appended after it: with a hint, the one disk that matched, else why none or several did;
# without one, the smallest qualifying disk, else why none did. The program before it sets
# hinted, count, pick ("<device> <words>"), found, all, qualifying ("<size> <device>
# <words>" lines), hint_words, min_gib, and its own words: seen_where, tells_apart and
# never_words.

# "<device> <words>": the device, then the words on a line of their own.
chosen() {
    echo "${1%% *}"
    echo "${1#* }"
}

if [ "$hinted" = 1 ]; then
    if [ "$count" = 1 ]; then
        chosen "$pick"
        exit 0
    fi
    if [ "$count" = 0 ]; then
        echo "No disk matches the install-disk hint ($hint_words). $seen_where: ${all:-none}. Change the hint (the host's install_disk, or its server group's) to name one of them." >&2
    else
        echo "$count disks match the install-disk hint ($hint_words): $found. Add a key that tells them apart ($tells_apart)." >&2
    fi
    exit 1
fi
pick=$(printf '%s' "$qualifying" | sort -k1,1n -k2,2 | head -n 1)
if [ -n "$pick" ]; then
    chosen "${pick#* }"
    exit 0
fi
echo "No disk qualifies as the default install disk (the smallest local disk of at least $min_gib GiB, $never_words). $seen_where: ${all:-none}. Give the host an install_disk hint naming the disk to install on." >&2
exit 1
