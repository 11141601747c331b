#!/usr/bin/env bash
# test-progress.sh SUITES — `make test`'s progress: reads the Criterion runner's --verbose log on stdin and
# prints it without the per-test lines ([RUN ], [PASS], [SKIP]: test-skips.sh lists the skips after the
# run) and without the suite headers, whose counts leave out parameterised cases. For each suite, when its
# last test has ended, one line: suites done of SUITES (0: unknown), the time so far, the suite's counts.
# Criterion starts the tests suite by suite, up to JOBS at once (CRITERION_JOBS, else one per CPU), and
# each test says it started from its own process, so a start can be read after the next suite's first:
# a suite counts as done once a later suite has started, JOBS more tests have started since, and every
# test of it that started has ended. A suite whose counts changed after its line is reported again at the
# end, with the synthesis line (or the log's end), where what is still open is reported too.
set -euo pipefail
if [ $# -ne 1 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then echo "usage: $0 SUITES < criterion-verbose-log" >&2; exit 2; fi
total=$1
[ "$total" != 0 ] || total='?'
jobs=${CRITERION_JOBS:-$(nproc)}
declare -A rank=() started=() ended=() failed=() skipped=() closed_at=() shown=()
order=() current=-1 runs=0 done_suites=0 start=$SECONDS

report() { # SUITE [NOTE]
    local s=$1 t=$((SECONDS - start)) counts
    [ -n "${shown[$s]:-}" ] || done_suites=$((done_suites + 1))
    shown[$s]=${ended[$s]}
    counts="${ended[$s]} test$([ "${ended[$s]}" = 1 ] || echo s): $((ended[$s] - failed[$s] - skipped[$s])) passed"
    [ "${failed[$s]}" = 0 ] || counts+=", ${failed[$s]} FAILED"
    [ "${skipped[$s]}" = 0 ] || counts+=", ${skipped[$s]} skipped"
    printf '[%s/%s suites, %d:%02d so far] %s: %s%s\n' "$done_suites" "$total" $((t / 60)) $((t % 60)) "$s" "$counts" "${2:-}"
}
# Reports every suite that is done (see above) and not yet reported.
report_done() {
    local s
    for s in "${order[@]}"; do
        if [ -z "${shown[$s]:-}" ] && [ -n "${closed_at[$s]:-}" ] && [ $((runs - closed_at[$s])) -ge "$jobs" ] &&
            [ "${ended[$s]}" -ge "${started[$s]}" ]; then report "$s"; fi
    done
}
# At the end of the run: every suite not yet reported, and any whose counts changed since its line.
flush() {
    local s
    for s in "${order[@]}"; do
        if [ -z "${shown[$s]:-}" ]; then report "$s"
        elif [ "${shown[$s]}" != "${ended[$s]}" ]; then report "$s" " (corrected: a test's start came late)"; fi
    done
}

while IFS= read -r line; do
    case $line in
    '[RUN ] '*)
        s=${line:7} && s=${s%%::*}
        runs=$((runs + 1))
        if [ -z "${rank[$s]:-}" ]; then
            rank[$s]=${#order[@]} started[$s]=0 ended[$s]=0 failed[$s]=0 skipped[$s]=0
            order+=("$s")
        fi
        started[$s]=$((started[$s] + 1))
        # a later suite's start closes the ones before it; a late start of an earlier one changes nothing
        if [ "${rank[$s]}" -gt "$current" ]; then
            for p in "${order[@]}"; do [ -n "${closed_at[$p]:-}" ] || [ "$p" = "$s" ] || closed_at[$p]=$runs; done
            current=${rank[$s]}
        fi
        report_done
        ;;
    '[PASS] '* | '[FAIL] '* | '[SKIP] '*)
        s=${line:7} && s=${s%%::*}
        # a test that never started (disabled, filtered out) is not this run's
        if [ -z "${rank[$s]:-}" ]; then continue; fi
        ended[$s]=$((ended[$s] + 1))
        case $line in
        '[FAIL] '*) failed[$s]=$((failed[$s] + 1)) && printf '%s\n' "$line" ;;
        '[SKIP] '*) skipped[$s]=$((skipped[$s] + 1)) ;;
        esac
        report_done
        ;;
    '[====] Running '* | '[----] Criterion v'*) ;;
    '[====] Synthesis'*) flush && printf '%s\n' "$line" ;;
    *) printf '%s\n' "$line" ;;
    esac
done
flush
