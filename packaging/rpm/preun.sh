# $1: 0 when the package goes away (not on upgrade).
if [ "$1" -eq 0 ] && [ -d /run/systemd/system ]; then
    systemctl stop bootsmith.service >/dev/null 2>&1 || :
fi
exit 0
