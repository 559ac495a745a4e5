# Bootsmith's system service: its user, its data directory and its options file. The service
# is not enabled; `systemctl enable --now bootsmith` starts it. Data and key stay on upgrades.
# $1: 1 on install, 2 on upgrade.
if ! getent passwd bootsmith >/dev/null; then
    useradd --system --user-group --home-dir /var/lib/bootsmith --no-create-home \
        --shell /sbin/nologin --comment "Bootsmith server" bootsmith
fi
install -d -o bootsmith -g bootsmith -m 0750 /var/lib/bootsmith
install -d -o bootsmith -g bootsmith -m 0750 /var/lib/bootsmith/svc
if [ ! -e /etc/default/bootsmith ]; then
    install -m 0644 /usr/share/bootsmith/bootsmith.default /etc/default/bootsmith
fi
if [ -d /run/systemd/system ]; then
    systemctl --system daemon-reload >/dev/null 2>&1 || :
    if [ "$1" -ge 2 ]; then
        systemctl try-restart bootsmith.service >/dev/null 2>&1 || :
    fi
fi
exit 0
