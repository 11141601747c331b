#!/usr/bin/env bash
# as-user.sh USER SRC NAME [VAR=value ...] -- COMMAND... — COMMAND as USER (created when missing), from the
# root: in a copy of SRC of the user's own ($HOME/NAME, build/ included so nothing is rebuilt, removed
# after), with a clean environment (PATH, HOME, LANG and the VAR=value pairs). What a person without root
# gets: .ci/run's second and third runs and tests/release-e2e.sh's runs as that user. Exit: COMMAND's, or 2.
set -euo pipefail
usage="usage: $0 USER SRC NAME [VAR=value ...] -- COMMAND..."
[ $# -ge 5 ] || { echo "$usage" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "as-user.sh: run it as root (it creates the user and runs as it)" >&2; exit 2; }
user=$1 src=$2 name=$3
shift 3
vars=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    [[ $1 == [A-Za-z_]*=* ]] || { echo "as-user.sh: '$1' is not VAR=value ($usage)" >&2; exit 2; }
    vars+=("$1") && shift
done
[ "${1:-}" = -- ] && [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
shift
[ -d "$src" ] || { echo "as-user.sh: $src is not a folder" >&2; exit 2; }
id "$user" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$user"
home=$(getent passwd "$user" | cut -d: -f6)
[ -d "$home" ] || { echo "as-user.sh: $user has no home folder ($home)" >&2; exit 2; }
copy=$home/$name
rm -rf "$copy" && cp -a "$src" "$copy" && chown -R "$user:" "$copy"
rc=0
runuser -u "$user" -- env -i PATH="$PATH" HOME="$home" LANG=C.UTF-8 "${vars[@]}" \
    bash -c 'cd "$1" && shift && "$@"' sh "$copy" "$@" || rc=$?
rm -rf "$copy"
exit "$rc"
