#!/usr/bin/env bash
# test.sh RUNNER TAP TMP — `make test`'s run: the Criterion RUNNER with TMP as the TMPDIR of everything
# it starts (and the grader's GPU lock folder unless WB_GRADE_LOCK_DIR is set), its TAP report in TAP.
# TMP is emptied before and removed after, whatever the tests did.
# While it runs, a line per suite when the suite's last test has ended: its counts and the time so far
# (from Criterion's --verbose log, whose per-test lines are left out; failures are printed as they come).
# /tmp (TMP_WATCH, for the tests of this script): as root, where a mount namespace can be made, the run gets
# a private /tmp (an overlay: /tmp's entries stay readable, what the run writes stays in the run's own
# tmpfs), so whatever is left in it is the suite's and nobody else's files count. Otherwise (not root, no
# namespace, or TMP_PRIVATE=0) /tmp is shared, and only new entries owned by the runner's uid count. Each
# run says which rule is in force. An entry the suite left fails the run (TMP_CHECK=0: only warns).
# Then, failed or not, the counts and the skips with their reasons (scripts/test-skips.sh; REQUIRE_GPU=1
# fails on a skipped GPU test).
# Exit: the runner's status, else 1 (an entry left in /tmp, a GPU test skipped) or 0.
set -euo pipefail
usage="usage: $0 RUNNER TAP TMP"
# --in-private-tmp: this script again, inside the mount namespace it made (not for callers).
inside=0
if [ $# -eq 4 ] && [ "$1" = --in-private-tmp ]; then inside=1 && shift; fi
if [ $# -ne 3 ]; then echo "$usage" >&2; exit 2; fi
abs() { case $1 in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
runner=$(abs "$1") tap=$2 tmp=$(abs "$3")
here=$(cd "$(dirname "$0")" && pwd)
watch=$(abs "${TMP_WATCH:-/tmp}")
uid=$(id -u)
# The private /tmp's own tmpfs (its overlay's upper and work folders), beside TMP.
ns=$tmp.ns

if [ "$inside" = 0 ] && [ "$uid" = 0 ] && [ "${TMP_PRIVATE:-1}" != 0 ] && unshare -m --propagation private true 2>/dev/null; then
    mkdir -p "$ns"
    rc=0
    unshare -m --propagation private "$0" --in-private-tmp "$@" || rc=$?
    rmdir "$ns" 2>/dev/null || true
    exit "$rc"
fi

clear_tmp() { chmod -R u+w "$tmp" 2>/dev/null || true; rm -rf "$tmp"; }
# Whether other users may pass through every folder above $1 (the graded runs have uids of their own).
others_pass() {
    local p=$1 mode
    while [ "$p" != / ]; do
        p=$(dirname "$p") mode=$(stat -c %A "$p")
        case ${mode:9:1} in x | t) ;; *) return 1 ;; esac
    done
}
# Makes $watch private to this namespace: an overlay whose upper layer is a tmpfs of its own, kept open on
# fd 9 (where TMP lies under $watch, the overlay hides the tmpfs's path). Fails (and changes nothing)
# where the kernel refuses either mount.
private_watch() {
    mount -t tmpfs -o mode=0700 wb-test-tmp "$ns" 2>/dev/null || return 1
    if mkdir "$ns/upper" "$ns/work" && chmod --reference="$watch" "$ns/upper" && chown --reference="$watch" "$ns/upper" &&
        exec 9<"$ns" && mount -t overlay wb-test-tmp -o "lowerdir=$watch,upperdir=$ns/upper,workdir=$ns/work" "$watch" 2>/dev/null; then
        upper=/proc/$$/fd/9/upper
        return 0
    fi
    umount "$ns" 2>/dev/null || true
    return 1
}
# The entries of $watch that count as the suite's, one a line: under the private rule whatever its upper
# layer holds, else the entries owned by this uid (an entry another process removes while find reads it is
# no error: -ignore_readdir_race).
suite_entries() {
    if [ "$rule" = private ]; then ls -A "$upper"
    else find "$watch" -mindepth 1 -maxdepth 1 -ignore_readdir_race -uid "$uid" -printf '%f\n'; fi |
        LC_ALL=C sort
}

rule=shared
if [ "$inside" = 1 ] && private_watch; then rule=private; fi
case $rule in
private) echo "make test: $watch is private to this run (a mount namespace; what was there stays readable): whatever the run leaves in it is the suite's" ;;
*) why="not root"; [ "$uid" != 0 ] || why="no mount namespace here"; [ "$inside" = 0 ] || why="the kernel refused the private mounts"
   [ "${TMP_PRIVATE:-1}" != 0 ] || why="TMP_PRIVATE=0"
   echo "make test: $watch is shared ($why): only new entries in it owned by uid $uid count as the suite's" ;;
esac
clear_tmp
mkdir -p "$tmp"
# In a clone the runs cannot reach (under root's 0700 home), the grader and the tests would put their
# folders in /tmp instead, outside what is removed after the run (seen on the H100: wb-grade.*, wbtest.*
# left behind). Then the run's TMPDIR is a folder of its own in /tmp that others may pass (0711).
if ! others_pass "$tmp"; then
    clear_tmp
    tmp=$(mktemp -d /tmp/wb-test.XXXXXX) && chmod 0711 "$tmp"
fi
before=$(suite_entries)
rm -f "$tap"
suites=$("$runner" --list 2>/dev/null | grep -cE '^[A-Za-z0-9_]+: [0-9]+ tests?$' || true)
set +e
TMPDIR=$tmp WB_GRADE_LOCK_DIR=${WB_GRADE_LOCK_DIR:-$tmp} "$runner" --verbose --tap="$tap" 2>&1 9<&- |
    "$here/test-progress.sh" "${suites:-0}"
rc=${PIPESTATUS[0]}
set -e
clear_tmp
left=$(suite_entries | LC_ALL=C comm -13 <(printf '%s\n' "$before") - | tr '\n' ' ')
if [ -n "$left" ]; then
    echo "make test left new entries in $watch (tests must use TMPDIR, i.e. wbt_tmpdir): $left" >&2
    if [ "${TMP_CHECK:-1}" != 0 ] && [ "$rc" = 0 ]; then rc=1; fi
fi
src=0
"$here/test-skips.sh" "$tap" || src=$?
[ "$rc" != 0 ] || rc=$src
exit "$rc"
