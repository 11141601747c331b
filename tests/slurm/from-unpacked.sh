#!/usr/bin/env bash
# Makes Slurm and munge usable from Debian packages that were unpacked (dpkg -x) under PREFIX instead of
# installed, as on a lent GPU machine without a package registry:
#   source tests/slurm/from-unpacked.sh [PREFIX]      (default /tmp/wb-deps; needs root)
# The packages' maintainer scripts would have linked slurmctld -> slurmctld-wlm (and slurmd, slurmstepd);
# slurmd starts slurmstepd from /usr/sbin and loads its plugins from the compiled-in
# /usr/lib/x86_64-linux-gnu/slurm-wlm, so those paths get links to PREFIX. Nothing existing is replaced.
# Packages: slurmctld slurmd slurm-client slurm-wlm-basic-plugins munge libmunge2 libhwloc15 libdbus-1-3.
_p=${1:-/tmp/wb-deps}
export PATH="$_p/usr/sbin:$_p/sbin:$PATH"
export LD_LIBRARY_PATH="$_p/lib/x86_64-linux-gnu:$_p/usr/lib/x86_64-linux-gnu/slurm-wlm${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[ -e /usr/lib/x86_64-linux-gnu/slurm-wlm ] || ln -s "$_p/usr/lib/x86_64-linux-gnu/slurm-wlm" /usr/lib/x86_64-linux-gnu/slurm-wlm
for _b in slurmstepd slurmd slurmctld; do [ -e /usr/sbin/$_b ] || ln -s "$_p/usr/sbin/$_b-wlm" /usr/sbin/$_b; done
[ -e /usr/sbin/munged ] || ln -s "$_p/usr/sbin/munged" /usr/sbin/munged
for _b in sbatch srun sinfo scontrol squeue sacct scancel; do [ -e /usr/bin/$_b ] || ln -s "$_p/usr/bin/$_b" /usr/bin/$_b; done
unset _p _b
