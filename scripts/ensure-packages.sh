#!/usr/bin/env bash
# ensure-packages.sh WHO PACKAGES PROBE — makes PROBE (a shell command: compile-and-link a probe or run
# the tool) succeed. Packages are probed by use, never by asking dpkg: on the GPU machines they are
# unpacked, not installed. When PROBE fails, installs the Debian PACKAGES with apt-get as root or with
# passwordless sudo and probes again; otherwise prints the exact command and exits 1.
# WB_PACKAGES_LOCK (make sets it in BUILD): a file whose lock one install at a time holds, so that the
# installs of `make -j test` (the tests' libraries, Slurm, the course tools) do not fight over apt's lock;
# the next one probes again once it has the lock, since the last may have installed what it needs.
set -euo pipefail
if [ $# -ne 3 ]; then echo "usage: $0 WHO PACKAGES PROBE" >&2; exit 2; fi
who=$1 packages=$2 probe=$3

probe() { bash -c "$probe" >/dev/null 2>&1; }

probe && exit 0
if [ -n "${WB_PACKAGES_LOCK:-}" ]; then
    exec 9>>"$WB_PACKAGES_LOCK"
    flock 9
    probe && exit 0
fi
cmd="apt-get install -y --no-install-recommends $packages"
if [ "$(id -u)" = 0 ]; then pre=()
elif sudo -n true 2>/dev/null; then pre=(sudo)
else echo "$who needs $packages; install them with: sudo apt-get update && sudo $cmd" >&2; exit 1; fi
echo "installing $packages with apt-get"
# shellcheck disable=SC2086 # $cmd is words: the command and its packages
if ! { "${pre[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
       "${pre[@]}" env DEBIAN_FRONTEND=noninteractive $cmd >/dev/null && probe; }; then
    echo "could not install $packages; run: sudo apt-get update && sudo $cmd" >&2
    exit 1
fi
