#!/usr/bin/env bash
# doctor.sh [grader] — `make doctor`: the student's section (compiler, driver, GPU: what `make chapterN`
# and `make test` need), then the grader's tools, then one verdict line; `grader`: that section alone.
# It reports, it does not fail: exit 0 whatever it finds (2 on bad usage). make passes, in the
# environment: NVCC, CC, BUILD, GRADER, COURSE (non-empty in the full workbook) and, for the student's
# section, CUDA_TOP, ARCH, ARCH_FROM (how ARCH was chosen) and GENCODE.
set -euo pipefail
case "${1:-}" in grader | '') [ $# -le 1 ] || { echo "usage: $0 [grader]" >&2; exit 2; } ;; *) echo "usage: $0 [grader]" >&2; exit 2 ;; esac
: "${NVCC:?doctor.sh: NVCC is not set (run it through make doctor)}" "${CC:?}" "${BUILD:?}" "${GRADER:?}"
COURSE=${COURSE:-}
# A program's path as a command (a relative one with ./, never looked up on PATH).
exe() { case $1 in /*) printf '%s' "$1" ;; *) printf './%s' "$1" ;; esac; }

# have TOOL WHY: a line saying whether TOOL is on PATH, and what it is for when it is not.
have() {
    if command -v "$1" >/dev/null 2>&1; then printf '  %-18s yes  %s\n' "$1" "$(command -v "$1")"
    else printf '  %-18s NO   %s\n' "$1" "$2"; fi
}

# links NAME HEADER CALL LIB WHY: whether a C program calling CALL links with LIB.
links() {
    if printf '#include <%s>\nint main(void){%s;return 0;}\n' "$2" "$3" | "$CC" -x c - -o /dev/null "$4" >/dev/null 2>&1
    then printf '  %-18s yes\n' "$1"; else printf '  %-18s NO   %s\n' "$1" "$5"; fi
}

# Whether the grader can read hardware counters here (the cause of a correct but slow variant): ncu on
# the doctor's own probe program, a counter that every kernel has. Without them the feedback names no cause.
counters_line() {
    local ncu out
    ncu=$(command -v ncu || true)
    if [ -z "$ncu" ]; then printf '  %-18s NO   %s\n' counters "no ncu (Nsight Compute, the CUDA toolkit's bin/): slow variants get no measured cause"; return; fi
    if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1 || [ ! -x "$BUILD/doctor" ]; then
        printf '  %-18s ?    %s\n' counters "no GPU here (or make $BUILD/doctor first): cannot tell whether ncu may read the counters"; return
    fi
    out=$(timeout 120 "$ncu" --csv --metrics smsp__inst_executed.sum "$(exe "$BUILD/doctor")" 2>&1 || true)
    if grep -q ERR_NVGPUCTRPERM <<<"$out"; then
        printf '  %-18s NO   %s\n' counters "ERR_NVGPUCTRPERM: the driver lets only admins profile (grade as root, or set NVreg_RestrictProfilingToAdminUsers=0)"
    elif grep -q '"smsp__inst_executed.sum"' <<<"$out"; then printf '  %-18s yes  %s\n' counters "ncu reads the GPU's counters ($ncu)"
    else printf '  %-18s NO   %s\n' counters "ncu ran but measured no kernel: $(tail -n 1 <<<"$out")"; fi
}

grader_section() {
    echo "the grader ($(if [ -n "$COURSE" ]; then echo make grade / grade-class / check; else echo make check; fi)):"
    have "$NVCC" "the CUDA toolkit (every build)"
    have compute-sanitizer "the sanitizer step (the CUDA toolkit's bin/)"
    counters_line
    have bwrap "the sandbox (apt-get install bubblewrap)"
    have nvidia-smi "the GPU driver (grading needs a GPU)"
    if [ -x "$GRADER" ]; then printf '  %-18s %s\n' isolation "$("$(exe "$GRADER")" --isolation 2>&1 || true)"
    else printf '  %-18s %s\n' isolation "unknown: build the grader first (make $GRADER)"; fi
    links libarchive archive.h 'archive_read_free(archive_read_new())' -larchive "archives (apt-get install libarchive-dev)"
    links jansson jansson.h 'json_decref(json_object())' -ljansson "the rubric and reports (apt-get install libjansson-dev)"
    echo "course pages (make grade-class):"
    have sim_c "similarity between students (apt-get install similarity-tester); SIMILARITY=off skips it"
    have gnuplot "the plots of class.html and feedback.html (apt-get install gnuplot-nox)"
    if [ -n "$COURSE" ]; then
        echo "ENGINE=slurm only:"
        have sbatch "submitting the job array (the cluster's Slurm client)"
        have squeue "the cluster's Slurm client"
        have sacct "the array's accounting (optional)"
    fi
}

student_section() {
    : "${ARCH:?}" "${ARCH_FROM:?}" "${GENCODE:?}"
    echo "chapters and tests:"
    echo "  nvcc:     $("$NVCC" --version | grep -o 'release [0-9.]*, V[0-9.]*' || true) ($(command -v "$NVCC" || true); toolkit root ${CUDA_TOP:-})"
    echo "  driver:   $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1 || true)$(command -v nvidia-smi >/dev/null || echo 'nvidia-smi not found')"
    echo "  arch:     ARCH=$ARCH ($ARCH_FROM), flags: $GENCODE"
    if c=$(command -v cuobjdump || ls "${CUDA_TOP:-/nonexistent}/bin/cuobjdump" 2>/dev/null); then echo "  cuobjdump: $c (make sass shows SASS)"; else echo "  cuobjdump: NO (make sass shows PTX, not SASS): the CUDA toolkit's package cuda-cuobjdump-$("$NVCC" --version | grep -o 'release [0-9]*\.[0-9]*' | sed 's/release //; s/\./-/') (NVIDIA's apt repository) or pip's nvidia-cuda-cuobjdump brings it"; fi
    probe_rc=0
    "$(exe "$BUILD/doctor")" > "$BUILD/.doctor.out" 2>&1 || probe_rc=$?
    # shellcheck disable=SC2016 # the backquotes are the probe's text, not a command
    sed 's/ (see `make doctor`)//; s/^/  /' "$BUILD/.doctor.out"
}

# What `make test` skips here, for the user running this, and why: a line each on stdout, each the same
# reason the tests give (the GPU probe's, the grader's own refusal, tests/slurm/cluster.sh's, the course
# pages'). $1: the GPU probe's exit code.
skips() {
    local iso
    # shellcheck disable=SC2016 # the backquotes are the probe's text, not a command
    [ "$1" = 0 ] || echo "the GPU tests: $(head -n 1 "$BUILD/.doctor.out" | sed 's/ (see `make doctor`)//')"
    if [ -n "$COURSE" ]; then
        if [ ! -x "$GRADER" ]; then echo "the tests that grade (perhaps): build the grader first (make $GRADER) to know"
        elif ! iso=$("$(exe "$GRADER")" --isolation 2>&1 | head -n 1) || [[ $iso == *"cannot isolate"* ]]; then
            echo "the tests that grade: $iso"
        fi
        if [ "$(id -u)" != 0 ]; then
            echo "the Slurm test and the run-uid tests: not root (Slurm's daemons and the grader's run uids need root)"
        elif ! { command -v slurmctld && command -v slurmd && command -v sbatch && command -v munged; } >/dev/null 2>&1; then
            echo "the Slurm test: no Slurm (apt-get install slurm-wlm munge)"
        fi
        command -v chromium >/dev/null 2>&1 || echo "the course pages' rendering test: no headless Chromium (apt-get install chromium)"
    fi
}

verdict() {
    local s
    s=$(skips "$1" | sed 's/:.*//' | paste -sd ',' - | sed 's/,/, /g')
    s=${s:+; as $(id -un), \`make test\` skips $s (why: above)}
    case "$1" in
    0) echo "verdict: ready: a usable GPU; the chapters, the tests and the grader can run here$s" ;;
    3) echo "verdict: no usable GPU here (above): the chapters build and \`make test\` runs$s; running a chapter$(if [ -n "$COURSE" ]; then echo ' or grading'; fi) needs a GPU" ;;
    *) echo "verdict: build/doctor failed (exit $1): see its lines above$s" ;;
    esac
}

skips_section() {
    local s
    s=$(skips "$1")
    echo "make test as $(id -un) (what skips, and why):"
    if [ -z "$s" ]; then echo "  nothing skips"; return; fi
    while IFS= read -r line; do echo "  $line"; done <<<"$s"
}

if [ "${1:-}" = grader ]; then
    grader_section
else
    student_section
    grader_section
    skips_section "$probe_rc"
    verdict "$probe_rc"
fi
