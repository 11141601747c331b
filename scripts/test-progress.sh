#!/usr/bin/env bash
# test-progress.sh SUITES — `make test`'s progress: reads the Criterion runner's --verbose log on stdin and
# prints it without the per-test lines ([RUN ], [PASS], [SKIP]: test-skips.sh lists the skips after the
# run) and without the suite headers, whose counts leave out parameterised cases. For each suite, when its
# last test has ended, one line: suites done of SUITES (0: unknown), the time so far, the suite's counts.
# A suite is done when a later suite has started (Criterion starts the tests suite by suite) and every test
# of it that started has ended; what is still open when the synthesis line (or the log's end) comes is
# reported then.
set -euo pipefail
if [ $# -ne 1 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then echo "usage: $0 SUITES < criterion-verbose-log" >&2; exit 2; fi
total=$1
[ "$total" != 0 ] || total='?'
declare -A started=() ended=() failed=() skipped=() reported=()
order=() current='' done_suites=0 start=$SECONDS

report() { # SUITE
    local s=$1 t=$((SECONDS - start)) counts
    reported[$s]=1
    done_suites=$((done_suites + 1))
    counts="${ended[$s]} test$([ "${ended[$s]}" = 1 ] || echo s): $((ended[$s] - failed[$s] - skipped[$s])) passed"
    [ "${failed[$s]}" = 0 ] || counts+=", ${failed[$s]} FAILED"
    [ "${skipped[$s]}" = 0 ] || counts+=", ${skipped[$s]} skipped"
    printf '[%s/%s suites, %d:%02d so far] %s: %s\n' "$done_suites" "$total" $((t / 60)) $((t % 60)) "$s" "$counts"
}
# Reports SUITE if it is closed (another suite started after it) and none of its tests is running.
maybe_report() {
    local s=$1
    if [ -z "${reported[$s]:-}" ] && [ "$s" != "$current" ] && [ "${ended[$s]}" -ge "${started[$s]}" ]; then report "$s"; fi
}

# At the end of the run: every suite not yet reported.
flush() {
    current=''
    for s in "${order[@]}"; do [ -n "${reported[$s]:-}" ] || report "$s"; done
}

while IFS= read -r line; do
    case $line in
    '[RUN ] '*)
        s=${line:7} && s=${s%%::*}
        if [ -z "${started[$s]:-}" ]; then
            started[$s]=0 ended[$s]=0 failed[$s]=0 skipped[$s]=0
            order+=("$s")
        fi
        started[$s]=$((started[$s] + 1))
        if [ "$s" != "$current" ]; then
            previous=$current current=$s
            [ -z "$previous" ] || maybe_report "$previous"
        fi
        ;;
    '[PASS] '* | '[FAIL] '* | '[SKIP] '*)
        s=${line:7} && s=${s%%::*}
        # a test that never started (disabled, filtered out) is not this run's
        if [ -z "${started[$s]:-}" ]; then continue; fi
        ended[$s]=$((ended[$s] + 1))
        case $line in
        '[FAIL] '*) failed[$s]=$((failed[$s] + 1)) && printf '%s\n' "$line" ;;
        '[SKIP] '*) skipped[$s]=$((skipped[$s] + 1)) ;;
        esac
        maybe_report "$s"
        ;;
    '[====] Running '* | '[----] Criterion v'*) ;;
    '[====] Synthesis'*) flush && printf '%s\n' "$line" ;;
    *) printf '%s\n' "$line" ;;
    esac
done
flush
