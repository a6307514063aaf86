#!/bin/sh
# Install ascend-doctor from this folder (made by 'make wheelhouse'), with no network and no package index.
#
#   sh install.sh [DIR]     a virtual environment in DIR (default ~/.local/share/ascend-doctor/venv) and the
#                           command linked into ~/.local/bin (created when missing)
#   sh install.sh --user    into the user site-packages of the interpreter instead (no venv module needed)
#
# PYTHON=/usr/bin/python3.9 sh install.sh   chooses the interpreter (default: python3). It must be the Python
# version and machine this folder was made for (see PYTHON_VERSION and ARCH beside this script).
set -eu

here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
py=${PYTHON:-python3}
want_py=$(cat "$here/PYTHON_VERSION")
want_arch=$(cat "$here/ARCH")

fail() {
    echo "install.sh: $*" >&2
    exit 2
}

have_py=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) ||
    fail "cannot run '$py'; set PYTHON=/path/to/python$want_py"
[ "$have_py" = "$want_py" ] ||
    fail "these wheels are for Python $want_py and '$py' is Python $have_py; set PYTHON=/path/to/python$want_py, or make a wheelhouse for $have_py"
have_arch=$(uname -m)
[ "$have_arch" = "$want_arch" ] ||
    fail "these wheels are for $want_arch and this machine is $have_arch; make a wheelhouse with ARCH=$have_arch"

if [ "${1:-}" = "--user" ]; then
    "$py" -m pip install --user --no-index --find-links "$here" ascend-doctor
    echo "installed for $(id -un): run it as $("$py" -c 'import site; print(site.USER_BASE)')/bin/ascend-doctor"
    exit 0
fi

dest=${1:-$HOME/.local/share/ascend-doctor/venv}
"$py" -m venv "$dest" ||
    fail "cannot create a virtual environment with '$py' (Debian/Ubuntu: apt install python3-venv), or run: sh install.sh --user"
"$dest/bin/python" -m pip install --no-index --find-links "$here" ascend-doctor
mkdir -p "$HOME/.local/bin"
ln -sf "$dest/bin/ascend-doctor" "$HOME/.local/bin/ascend-doctor"
echo "installed: $dest/bin/ascend-doctor (linked as $HOME/.local/bin/ascend-doctor)"
