#!/usr/bin/env bash
# release-e2e.sh [WORK] — the student release end to end (issue 39), from the workbook's root, as root:
# builds the release (make dist-student), fills it with the references' regions (the release ships none)
# and runs the release's own `make test`, as root and then as a user of its own (E2E_USER, default wbt,
# created when missing) in a copy of their own, while another process (uid 65534) keeps writing new
# entries into /tmp; then the same with only chapter 1 solved. Each run must exit 0 with `Failing: 0`.
# WORK (default build/release-e2e) holds the trees and each run's log (ROOT-solved.log, …); the user's
# copies go to its home. JOBS (default 2) is make's -j. Exit: 0, or 1 with the runs that failed named.
# Not in the student release (release/allow-list lists no tests/*.sh); .ci/run calls it.
set -euo pipefail
if [ $# -gt 1 ]; then echo "usage: $0 [WORK]" >&2; exit 2; fi
[ "$(id -u)" = 0 ] || { echo "release-e2e.sh: run it as root (it runs the release as root and as E2E_USER)" >&2; exit 2; }
[ -d solutions ] && [ -f release/allow-list ] || { echo "release-e2e.sh: run it from the workbook's root (with solutions/)" >&2; exit 2; }
work=$(realpath -m "${1:-build/release-e2e}")
user=${E2E_USER:-wbt} jobs=${JOBS:-2}
start=$SECONDS
failed=()

# Another process writing into /tmp all along, as a uid that is neither root nor $user: new entries that
# neither rule of scripts/test.sh may count (it keeps at most 50 at a time; they are removed at the end).
other_writes() {
    setpriv --reuid=65534 --regid=65534 --clear-groups sh -c \
        'i=0; while :; do i=$((i+1)); touch "/tmp/wb-e2e-other.$$.$i"; [ $((i % 50)) != 0 ] || rm -f /tmp/wb-e2e-other.$$.*; sleep 0.1; done' &
    writer=$!
}
stop_writes() {
    [ -n "${writer:-}" ] || return 0
    kill "$writer" 2>/dev/null || true
    wait "$writer" 2>/dev/null || true
    rm -f /tmp/wb-e2e-other."$writer".*
    writer=
}
trap stop_writes EXIT

# run_test WHO NAME DIR: the release's make test in DIR, as root or as $user (in a copy of the user's own,
# tests/as-user.sh); its log in $work/WHO-NAME.log.
run_test() {
    local who=$1 name=$2 dir=$3 rc=0 log=$work/$1-$2.log t=$SECONDS
    if [ "$who" = root ]; then
        (cd "$dir" && make -j"$jobs" test) > "$log" 2>&1 || rc=$?
    else
        "$(dirname "$0")/as-user.sh" "$user" "$dir" "release-e2e-$name" -- make -j"$jobs" test > "$log" 2>&1 || rc=$?
    fi
    local synth
    synth=$(grep -a 'Synthesis:' "$log" | tail -n 1 || true)
    echo "$who, $name: exit $rc in $((SECONDS - t)) s; ${synth:-no synthesis line}"
    grep -a -E '^summary: |^make test: ' "$log" | sed 's/^/  /' || true
    if [ "$rc" != 0 ] || ! grep -q 'Failing: 0 ' <<<"$synth"; then
        failed+=("$who/$name")
        grep -a -E '^\[FAIL\]|left new entries' "$log" | head -n 20 | sed 's/^/  /' || true
    fi
}
rm -rf "$work" && mkdir -p "$work"
make -s dist-student BUILD="$work/b" > "$work/dist.log" 2>&1 || { cat "$work/dist.log" >&2; exit 1; }
release=$(find "$work/b/dist" -mindepth 1 -maxdepth 1 -type d | head -n 1)
# Solved: each chapter is its pristine starter with the reference's regions spliced in. The starters equal
# the references outside the regions (tests/test_regions.c), so that splice is the reference's file itself;
# the release's own test_regions checks it against the pristine starter it ships.
mv "$release" "$work/solved"
for ref in solutions/[0-9][0-9]-*/*.cu; do cp "$ref" "$work/solved/chapters/${ref#solutions/}"; done
other_writes
run_test root solved "$work/solved"
run_test "$user" solved "$work/solved"
# Only chapter 1 solved: the others back to their pristine starters (only they are rebuilt).
cp -a "$work/solved" "$work/ch1"
for p in "$work"/ch1/grading/pristine/[0-9][0-9]-*/; do
    ch=$(basename "$p")
    [ "${ch%%-*}" = 01 ] || cp "$p"*.cu "$work/ch1/chapters/$ch/"
done
run_test root ch1-only "$work/ch1"
run_test "$user" ch1-only "$work/ch1"
stop_writes
echo "release end to end: $((SECONDS - start)) s"
if [ ${#failed[@]} -gt 0 ]; then echo "release-e2e.sh: failed: ${failed[*]} (logs in $work)" >&2; exit 1; fi
