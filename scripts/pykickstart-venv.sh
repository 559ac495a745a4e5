#!/usr/bin/env bash
# Create (once) the Python venv with pykickstart, whose ksvalidator the kickstart tests run:
# the installer's own parser checks every kickstart Bootsmith makes. Idempotent: an
# existing venv with the right version is kept.
#
#   scripts/pykickstart-venv.sh        # venv at ${BOOTSMITH_PYKICKSTART_VENV:-$HOME/.cache/bootsmith/pykickstart-venv}
#
# stdout: the venv's ksvalidator (so BOOTSMITH_KSVALIDATOR=$(scripts/pykickstart-venv.sh) works).
set -euo pipefail

venv=${BOOTSMITH_PYKICKSTART_VENV:-$HOME/.cache/bootsmith/pykickstart-venv}
# 3.78 knows RHEL7 to RHEL10 syntax.
version=3.78
py=$venv/bin/python

if [[ -x $py ]] && "$py" -c "import importlib.metadata as m, sys; sys.exit(m.version('pykickstart') != '$version')" 2>/dev/null; then
    echo "pykickstart $version already in $venv" >&2
else
    echo "creating $venv with pykickstart $version" >&2
    mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "pykickstart==$version" >&2
fi
echo "$venv/bin/ksvalidator"
