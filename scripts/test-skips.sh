#!/usr/bin/env bash
# test-skips.sh TAP — the tests a TAP report skipped, counted by reason (Criterion counts a skip as a
# pass). With REQUIRE_GPU=1, a skip whose reason names the GPU (cuda, gpu, nvidia) fails: exit 1.
set -euo pipefail
if [ $# -ne 1 ]; then echo "usage: $0 TAP" >&2; exit 2; fi
tap=$1
[ -r "$tap" ] || { echo "test-skips.sh: no TAP report $tap" >&2; exit 1; }
reasons=$(grep -o '# SKIP.*' "$tap" | sed 's/ *# SKIP *//' || true)
if [ -z "$reasons" ]; then echo "skipped: none"; exit 0; fi
echo "skipped: $(printf '%s\n' "$reasons" | wc -l) tests, because:"
printf '%s\n' "$reasons" | sort | uniq -c | sort -rn | sed 's/^/  /'
gpu=$(printf '%s\n' "$reasons" | grep -ciE 'cuda|gpu|nvidia' || true)
if [ "${REQUIRE_GPU:-0}" = 1 ] && [ "$gpu" -gt 0 ]; then
    echo "REQUIRE_GPU=1: $gpu GPU test(s) skipped" >&2
    exit 1
fi
