#!/usr/bin/env bash
# Create (once) the Python venv with sushy-tools that the Redfish client's integration tests
# start as a BMC emulator. Idempotent: an existing venv with the right version is kept.
#
#   scripts/redfish-venv.sh            # venv at ${BOOTSMITH_REDFISH_VENV:-$HOME/.cache/bootsmith/redfish-venv}
#
# stdout: the venv's python (so BOOTSMITH_SUSHY_PYTHON=$(scripts/redfish-venv.sh) works).
set -euo pipefail

venv=${BOOTSMITH_REDFISH_VENV:-$HOME/.cache/bootsmith/redfish-venv}
version=2.2.0
py=$venv/bin/python

if [[ -x $py ]] && "$py" -c "import importlib.metadata as m, sys, bcrypt, sushy_tools.emulator.main; sys.exit(m.version('sushy-tools') != '$version')" 2>/dev/null; then
    echo "sushy-tools $version already in $venv" >&2
else
    echo "creating $venv with sushy-tools $version" >&2
    mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "sushy-tools==$version" >&2
fi
echo "$py"
