#!/usr/bin/env bash
# A single-node Slurm cluster (munged, slurmctld, slurmd) for tests/test_slurm.c, all of it under DIR:
#   cluster.sh start DIR   writes DIR/slurm.conf, starts the daemons, waits (bounded) for the node idle;
#                          exit 0, or 77 with the reason on stdout's last line when Slurm cannot run here
#   cluster.sh stop DIR    stops the daemons it started (their pid files under DIR) and nothing else
# A second start on the same host waits (up to WB_SLURM_LOCK_WAIT s, default 900) for the first stop.
# Cgroup-free (proctrack/linuxproc, task/none), no accounting daemon (jobcomp/filetxt), own ports and
# munge socket, so it never meets a site's Slurm.
set -u
cmd=${1:-}; dir=${2:-}
[ -n "$dir" ] || { echo "usage: cluster.sh start|stop DIR"; exit 2; }
skip() { echo "$*"; release; exit 77; }
# One cluster at a time on a host: two slurmd of one node name share its cgroup scope, and the first stop
# would remove the system.slice the other still uses. The lock is a folder (mkdir is atomic) that names
# its owner; a lock whose owner folder is gone is stale and taken over.
lock="${TMPDIR:-/tmp}/wb-slurm-cluster.lock"
release() { [ "$(cat "$lock/owner" 2>/dev/null)" = "$dir" ] && rm -rf "$lock"; return 0; }
acquire() {
  local waited=0
  until mkdir "$lock" 2>/dev/null; do
    owner=$(cat "$lock/owner" 2>/dev/null)
    if [ -n "$owner" ] && [ ! -d "$owner" ]; then rm -rf "$lock"; continue; fi
    [ "$waited" -ge "${WB_SLURM_LOCK_WAIT:-900}" ] && { echo "another test cluster held $lock for ${waited} s"; exit 77; }
    sleep 1; waited=$((waited + 1))
  done
  echo "$dir" > "$lock/owner"
}

stop() {
  for f in slurmd slurmctld munged; do
    p=$(cat "$dir/$f.pid" 2>/dev/null) || continue
    kill "$p" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
    rm -f "$dir/$f.pid"
  done
  if [ -f "$dir/made-cgroup" ]; then # the step daemons' cgroups first, then the slice made by start
    for _ in $(seq 20); do # a step daemon may take a moment to leave its cgroup
      for c in $(find "$(cat "$dir/made-cgroup")" -mindepth 1 -depth -type d 2>/dev/null) "$(cat "$dir/made-cgroup")"; do
        rmdir "$c" 2>/dev/null
      done
      [ -d "$(cat "$dir/made-cgroup")" ] || break
      sleep 0.1
    done
    rm -f "$dir/made-cgroup"
  fi
  release
}

if [ "$cmd" = stop ]; then stop; exit 0; fi
[ "$cmd" = start ] || { echo "usage: cluster.sh start|stop DIR"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "Slurm needs root to start here (run make test as root, or: sudo apt-get install slurm-wlm munge)"; exit 77; }
for t in munged slurmctld slurmd sbatch sinfo scontrol; do
  command -v $t >/dev/null || { echo "$t not found (apt-get install slurm-wlm munge)"; exit 77; }
done
acquire
mkdir -p "$dir/state" "$dir/spool" "$dir/munge" && chmod 700 "$dir/munge"
host=$(hostname -s)
base=$(( 20000 + ($$ % 5000) * 2 ))
dd if=/dev/urandom of="$dir/munge/key" bs=1024 count=1 status=none && chmod 400 "$dir/munge/key"
munged --force --key-file="$dir/munge/key" --socket="$dir/munge/socket" --pid-file="$dir/munged.pid" \
  --log-file="$dir/munge/log" --seed-file="$dir/munge/seed" >/dev/null 2>&1 \
  || skip "munged did not start: $(tail -n1 "$dir/munge/log" 2>/dev/null)"
cpus=$(nproc)
cat > "$dir/slurm.conf" <<CONF
ClusterName=wbtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.txt
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=wbtest Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
# Slurm 22.05+ always loads a cgroup plugin. Without systemd (a container, such as the GPU machine) slurmd
# makes its own cgroup for the step daemons under system.slice, which must then exist; a system.slice made
# here is removed again by stop.
printf 'CgroupAutomount=yes\nIgnoreSystemdOnFailure=yes\n' > "$dir/cgroup.conf"
if [ ! -d /run/systemd/system ] && [ -f /sys/fs/cgroup/cgroup.controllers ] && [ ! -d /sys/fs/cgroup/system.slice ]; then
  mkdir /sys/fs/cgroup/system.slice 2>/dev/null && echo /sys/fs/cgroup/system.slice > "$dir/made-cgroup"
fi
export SLURM_CONF="$dir/slurm.conf"
slurmctld -i >/dev/null 2>&1 || { stop; skip "slurmctld did not start: $(tail -n1 "$dir/slurmctld.log" 2>/dev/null)"; }
slurmd >/dev/null 2>&1 || { stop; skip "slurmd did not start: $(tail -n1 "$dir/slurmd.log" 2>/dev/null)"; }
for _ in $(seq 60); do
  state=$(sinfo -h -N -o %t 2>/dev/null | head -n1)
  [ "$state" = idle ] && { echo "slurm up: node $host idle, SLURM_CONF=$SLURM_CONF"; exit 0; }
  sleep 0.5
done
stop
skip "the Slurm node did not become idle in 30 s (state '${state:-none}'): $(tail -n1 "$dir/slurmd.log" 2>/dev/null)"
