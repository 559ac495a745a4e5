# RPM has no purge: the data directory (database, key, ISOs) and /etc/default/bootsmith stay
# after removal; delete them by hand when they are no longer wanted.
if [ -d /run/systemd/system ]; then
    systemctl --system daemon-reload >/dev/null 2>&1 || :
fi
exit 0
