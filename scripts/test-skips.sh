#!/usr/bin/env bash
# test-skips.sh TAP — what a TAP report says ran: the tests passed, failed and skipped (Criterion's own
# synthesis line leaves the skipped ones out), then the skips counted by reason. Run after every
# `make test`, failed or not. With REQUIRE_GPU=1, a skip whose reason names the GPU (cuda, gpu, nvidia)
# fails: exit 1. A skip that does not say why (its reason empty, or stopped at its colon: a program's message
# lost) fails too, the tests named: exit 1. A missing report (the runner never wrote it) is said, exit 1.
set -euo pipefail
if [ $# -ne 1 ]; then echo "usage: $0 TAP" >&2; exit 2; fi
tap=$1
[ -r "$tap" ] || { echo "test-skips.sh: no TAP report $tap (the runner stopped before writing it)" >&2; exit 1; }
count() { grep -cE "$1" "$tap" || true; }
skips=$(count '^ok .*# SKIP')
failed=$(count '^not ok ')
passed=$(($(count '^ok ') - skips))
echo "summary: $((passed + failed + skips)) tests: $passed passed, $failed failed, $skips skipped (the synthesis line leaves skips out)"
reasons=$(grep -o '^ok .*# SKIP.*' "$tap" | sed 's/.*# SKIP *//' || true)
if [ -z "$reasons" ]; then echo "skipped: none"; exit 0; fi
echo "skipped: $skips tests, because:"
printf '%s\n' "$reasons" | sort | uniq -c | sort -rn | sed 's/^/  /'
mute=$(grep -E '^ok .*# SKIP *([^ ].*:)? *$' "$tap" | sed -E 's/^ok [0-9]* *-? *//; s/ *# SKIP.*//' || true)
if [ -n "$mute" ]; then
    echo "a skip that does not say why: $(printf '%s\n' "$mute" | tr '\n' ' ')(cr_skip_test's reason is empty or cut at its colon)" >&2
    exit 1
fi
gpu=$(printf '%s\n' "$reasons" | grep -ciE 'cuda|gpu|nvidia' || true)
if [ "${REQUIRE_GPU:-0}" = 1 ] && [ "$gpu" -gt 0 ]; then
    echo "REQUIRE_GPU=1: $gpu GPU test(s) skipped" >&2
    exit 1
fi
