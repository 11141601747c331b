#!/usr/bin/env bash
# test.sh RUNNER TAP TMP — `make test`'s run: the Criterion RUNNER with TMP as the TMPDIR of everything
# it starts (and the grader's GPU lock folder unless WB_GRADE_LOCK_DIR is set), its TAP report in TAP.
# TMP is emptied before and removed after, whatever the tests did. A new entry in /tmp (TMP_WATCH, for the
# tests of this script) after the run fails it (TMP_CHECK=0: only warns, where other jobs share /tmp).
# Then the skips are listed (scripts/test-skips.sh; REQUIRE_GPU=1 fails on a skipped GPU test).
# Exit: the runner's status, else 1 (an entry left in /tmp, a GPU test skipped) or 0.
set -euo pipefail
if [ $# -ne 3 ]; then echo "usage: $0 RUNNER TAP TMP" >&2; exit 2; fi
abs() { case $1 in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
runner=$(abs "$1") tap=$2 tmp=$(abs "$3")
here=$(cd "$(dirname "$0")" && pwd)
watch=${TMP_WATCH:-/tmp}

clear_tmp() { chmod -R u+w "$tmp" 2>/dev/null || true; rm -rf "$tmp"; }
# Whether other users may pass through every folder above $1 (the graded runs have uids of their own).
others_pass() {
    local p=$1 mode
    while [ "$p" != / ]; do
        p=$(dirname "$p") mode=$(stat -c %A "$p")
        case ${mode:9:1} in x | t) ;; *) return 1 ;; esac
    done
}
clear_tmp
mkdir -p "$tmp"
# In a clone the runs cannot reach (under root's 0700 home), the grader and the tests would put their
# folders in /tmp instead, outside what is removed after the run (seen on the H100: wb-grade.*, wbtest.*
# left behind). Then the run's TMPDIR is a folder of its own in /tmp that others may pass (0711).
if ! others_pass "$tmp"; then
    clear_tmp
    tmp=$(mktemp -d /tmp/wb-test.XXXXXX) && chmod 0711 "$tmp"
fi
before=$(ls -A "$watch" | LC_ALL=C sort)
rc=0
TMPDIR=$tmp WB_GRADE_LOCK_DIR=${WB_GRADE_LOCK_DIR:-$tmp} "$runner" --tap="$tap" || rc=$?
clear_tmp
left=$(ls -A "$watch" | LC_ALL=C sort | LC_ALL=C comm -13 <(printf '%s\n' "$before") - | tr '\n' ' ')
if [ -n "$left" ]; then
    echo "make test left new entries in $watch (tests must use TMPDIR, i.e. wbt_tmpdir): $left" >&2
    if [ "${TMP_CHECK:-1}" != 0 ] && [ "$rc" = 0 ]; then rc=1; fi
fi
[ "$rc" = 0 ] || exit "$rc"
"$here/test-skips.sh" "$tap"
