# CUDA C workbook — one Makefile, pattern rules. `make help` lists the targets.
#
#   make chapterN               build and run chapter N (your file; ARGS="--size 1000")
#   make test                   install missing test dependencies, build everything, run Criterion
#   make all | doctor | clean   build everything | what this machine has | remove build/
#   make V=1 ...                show the compiler commands (quiet by default)
#   make ARCH=sm_86 ...         build for another GPU than the one detected
#   make sass | resources | sanitize | profile CH=N [V=variant]   look inside a chapter
#   make check [CH=N]           grade your own chapters the way the autograder will (GPU)
#   make handouts               render the handouts to HTML in build/handouts/
# -- the course's own (not in the student release):
#   make solutionN              build and run chapter N's reference; SOLUTION=1 looks inside it
#   make grade SUB=path | grade-class SUBS=dir | dist-student   the autograder; the student release
#   make diagnose-mutants [CH=N] mutants of the reference solutions graded: which bugs the feedback names (GPU)
#   make results                record the solutions' results for the handouts (GPU)

NVCC    ?= nvcc
comma   := ,
# Quiet builds: one line per file built ("  NVCC  build/chapter1"); V=1 shows the commands. (V=variant
# of the look-inside targets is a name, never 1.)
VERBOSE := $(filter 1,$(V))
say      = $(if $(VERBOSE),,@printf '  %-6s %s\n' '$(1)' '$(2)';)
# $(call shq,TEXT): TEXT as one single-quoted shell word (a path with spaces or quotes).
shq      = '$(subst ','\'',$(1))'
# Only in the full workbook (solutions/ present); the student release refuses with the reason.
COURSE   = $(wildcard solutions)
course_only = $(if $(COURSE),,@echo "make $@: not in the student release (the course's own: it needs solutions/)" >&2; exit 2)
CC      := gcc
BUILD   := build
ARGS    ?=
# The toolkit's root, as nvcc itself reports it: `command -v nvcc` may be a wrapper script or a symlink
# (e.g. /usr/local/bin/nvcc), so its directory says nothing about where the headers and tools are.
# Evaluated once, on first use.
CUDA_TOP = $(eval CUDA_TOP := $(abspath $(shell $(NVCC) --dryrun -c -x cu /dev/null -o /dev/null 2>&1 \
             | sed -n 's/^\#\$$ TOP=//p' | head -n1)))$(CUDA_TOP)
CUDA_INCLUDE = $(firstword $(wildcard $(CUDA_TOP)/targets/*/include/cuda_occupancy.h $(CUDA_TOP)/include/cuda_occupancy.h))
# The toolkit's own tools (compute-sanitizer, ncu, cuobjdump) for recipes and tests, after the user's PATH.
# Added only for the targets that run them (see "tests" and the look-inside/grading targets), so that
# make does not ask nvcc where the toolkit is for `make help` or `make chapter1`.
BASE_PATH := $(PATH)
TOOLKIT_PATH = $(BASE_PATH)$(if $(CUDA_TOP),:$(CUDA_TOP)/bin)
test doctor sass resources sanitize profile check grade grade-class diagnose-mutants: export PATH = $(TOOLKIT_PATH)

# ------------------------------------------------------------------ target GPU
# The GPU's compute capability, e.g. "9.0" -> sm_90. No GPU: sm_75, the oldest architecture CUDA 13
# supports, whose embedded PTX the driver compiles for any newer GPU at start-up.
# All of these are evaluated on first use (once), not when the Makefile is read: `make help` or
# `make clean` run no nvidia-smi.
DETECTED_CC = $(eval DETECTED_CC := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null \
                | head -n1 | tr -d '. \r'))$(DETECTED_CC)
ifeq ($(origin ARCH),undefined)
  ARCH = $(eval ARCH := $(if $(DETECTED_CC),sm_$(DETECTED_CC),sm_75))$(ARCH)
endif
ARCH_NUM = $(eval ARCH_NUM := $(patsubst sm_%,%,$(patsubst compute_%,%,$(ARCH))))$(if \
             $(shell echo '$(ARCH_NUM)' | grep -Ex '[0-9]{2,3}[af]?'),,$(error \
             ARCH='$(ARCH)' is not of the form sm_NN (e.g. sm_86, sm_90)))$(ARCH_NUM)
# Machine code for ARCH plus its PTX, so the same binary also runs on later GPUs.
GENCODE = -gencode=arch=compute_$(ARCH_NUM),code=sm_$(ARCH_NUM) \
          -gencode=arch=compute_$(ARCH_NUM),code=compute_$(ARCH_NUM)

NVCCFLAGS = -O3 -std=c++20 -lineinfo $(GENCODE) -Icommon \
             -Xcompiler -Wall,-Wextra,-Wno-unused-parameter,-Wno-missing-field-initializers,-fopenmp \
             --Werror cross-execution-space-call
# Recursive (=), so that a target's `CFLAGS += $(...)` is expanded only when that target is built.
CFLAGS     = -O2 -std=gnu11 -Wall -Wextra -Icommon -Igrading -Itools/inspect -Itools/results -Itools/mutate
# The student release has no solutions/: its tests check the student's own chapters (tests/wbtest.h).
ifeq ($(wildcard solutions),)
  CFLAGS += -DWBT_STUDENT_RELEASE
endif
LDLIBS    := -lgomp
# Per-chapter extra libraries (cuBLAS is only the speed-of-light reference of chapter 4).
LDLIBS_4  := -lcublas

# $(call ensure_packages,PROBE,PACKAGES,WHO): runs the shell command PROBE (compile-and-link or run the
# tool, never ask dpkg: on the GPU machines packages are unpacked, not installed); if it fails, installs
# the Debian PACKAGES with apt when root or with passwordless sudo and probes again, else prints the
# exact command and fails.
ensure_packages = if ! { $(1); } >/dev/null 2>&1; then \
	  cmd="apt-get install -y --no-install-recommends $(2)"; \
	  if [ "$$(id -u)" = 0 ]; then pre=""; elif sudo -n true 2>/dev/null; then pre="sudo"; \
	  else echo "$(3) needs $(2); install them with: sudo apt-get update && sudo $$cmd" >&2; exit 1; fi; \
	  echo "installing $(2) with apt-get"; \
	  $$pre env DEBIAN_FRONTEND=noninteractive apt-get update -qq && $$pre env DEBIAN_FRONTEND=noninteractive $$cmd >/dev/null \
	    && { $(1); } >/dev/null 2>&1 \
	    || { echo "could not install $(2); run: sudo apt-get update && sudo $$cmd" >&2; exit 1; }; \
	fi

# ------------------------------------------------------------------ chapters
# chapters/01-reversal/reversal.cu -> chapter number 1; chapters/10-x/x.cu -> 10 (two digits or more).
CHAPTER_DIRS := $(sort $(wildcard chapters/[0-9][0-9]-*))
CHAPTERS     := $(foreach d,$(CHAPTER_DIRS),$(patsubst 0%,%,$(firstword $(subst -, ,$(notdir $(d))))))
# $(call chapter_src,DIR,N): the .cu file of chapter N under chapters/ or solutions/ (N is 1, 2, … 10 …;
# the folder is 01-…, 09-…, 10-…).
chapter_src   = $(firstword $(wildcard $(1)/$(if $(filter 1 2 3 4 5 6 7 8 9,$(2)),0)$(2)-*/*.cu))
STARTERS     := $(addprefix $(BUILD)/chapter,$(CHAPTERS))
SOLUTIONS_PRESENT := $(foreach n,$(CHAPTERS),$(if $(call chapter_src,solutions,$(n)),$(n)))
SOLUTIONS    := $(addprefix $(BUILD)/solution,$(SOLUTIONS_PRESENT))

# Rebuild when the flags change (e.g. another ARCH), not only when sources do: the stamp's recipe runs
# on every build but rewrites the file (and so triggers rebuilds) only when the flags differ.
FLAGS_STAMP := $(BUILD)/.flags
$(FLAGS_STAMP): FORCE
	@mkdir -p $(@D) && echo '$(NVCC) $(NVCCFLAGS)' | cmp -s - $@ || echo '$(NVCC) $(NVCCFLAGS)' > $@

.PHONY: all help test deps slurm-deps course-deps doctor doctor-grader gpu-required clean FORCE $(addprefix chapter,$(CHAPTERS)) $(addprefix solution,$(CHAPTERS))
.SECONDEXPANSION:

all: $(STARTERS) $(SOLUTIONS) $(BUILD)/doctor

$(BUILD)/chapter%: $$(call chapter_src,chapters,$$*) $(wildcard common/*.h) $(FLAGS_STAMP)
	$(call say,NVCC,$@)$(NVCC) $(NVCCFLAGS) -o $@ $< $(LDLIBS) $(LDLIBS_$*)

# The reference build's own flags: chapter 3's also times CUB for its speed-of-light row, whose headers
# cost about 10 s of compiling that a student's build of the starter need not pay.
SOLFLAGS_3 := -DWB_CUB
$(BUILD)/solution%: $$(call chapter_src,solutions,$$*) $(wildcard common/*.h) $(FLAGS_STAMP)
	$(call say,NVCC,$@)$(NVCC) $(NVCCFLAGS) $(SOLFLAGS_$*) -o $@ $< $(LDLIBS) $(LDLIBS_$*)

$(BUILD)/doctor: tools/doctor.cu $(wildcard common/*.h) $(FLAGS_STAMP)
	$(call say,NVCC,$@)$(NVCC) $(NVCCFLAGS) -o $@ $<

# Exit status 3 from a program means "no CUDA device"; make then reports "Error 3".
# Static pattern rules: make never applies implicit (pattern) rules to .PHONY targets, so a plain
# `chapter%:` rule would leave `make chapter5` with "Nothing to be done".
$(addprefix chapter,$(CHAPTERS)): chapter%: $(BUILD)/chapter%
	./$< $(ARGS)

$(addprefix solution,$(SOLUTIONS_PRESENT)): solution%: $(BUILD)/solution%
	./$< $(ARGS)

# The student release (and any copy without solutions/) has no references: say so (also under make -n).
$(addprefix solution,$(filter-out $(SOLUTIONS_PRESENT),$(CHAPTERS))) $(addprefix $(BUILD)/solution,$(filter-out $(SOLUTIONS_PRESENT),$(CHAPTERS))):
	$(error $@: this copy has no reference solution of chapter $(lastword $(subst n, ,$@)) (solutions/ is not part of the student release))

# ------------------------------------------------------------------ tests
# Override to build a subset, e.g. make test CHAPTERS=4 TEST_SRCS="tests/test_common.c tests/test_ch4.c"
TEST_SRCS ?= $(wildcard tests/test_*.c)
# Not into the tests' environment: a test that runs make in another tree (the student release) must get
# that tree's own test list, not this subset (a command-line variable is exported otherwise).
unexport TEST_SRCS
TEST_OBJS := $(patsubst tests/%.c,$(BUILD)/tests/%.o,$(TEST_SRCS))
TEST_DEPS_PKGS := libcriterion-dev libjansson-dev libarchive-dev $(COURSE_LIB_PKGS) libpng-dev
# CUDA programs with planted bugs that the tests run under compute-sanitizer.
PLANTED   := $(patsubst tests/planted/%.cu,$(BUILD)/planted/%,$(wildcard tests/planted/*.cu))

$(BUILD)/tests/%.o: tests/%.c $(wildcard tests/*.h) $(wildcard common/*.h) $(wildcard grading/*.h) | $(BUILD)/tests/.deps-ok
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS) -c -o $@ $<

# -no-pie: Criterion runs each test in a re-executed copy of the runner and hands it the parameters
# byte for byte, so pointers in them (variant names) must mean the same in every copy.
TEST_STAMP := $(BUILD)/.tests
$(TEST_STAMP): FORCE
	@mkdir -p $(@D) && echo '$(TEST_OBJS)' | cmp -s - $@ || echo '$(TEST_OBJS)' > $@
# The C modules the tools share (common/ and grading/), compiled once and linked by each tool.
LIB_SRCS := common/jsonl.c grading/sanitizer.c grading/screen.c grading/honesty.c grading/gr_util.c grading/compare.c grading/regions.c grading/rubric.c grading/report.c grading/sandbox.c \
            grading/job.c grading/gpu.c grading/submission.c grading/build.c grading/correctness.c grading/sanitize.c \
            grading/perf.c grading/pipeline.c grading/class.c grading/gr_archive.c grading/roster.c grading/slurm.c grading/diagnose.c grading/diagnose_scan.c grading/evidence.c \
            tools/results/wbresults.c $(addprefix tools/inspect/,names.c listing.c resources.c ncu.c)
# The mutation tool quotes solution lines: the student release has no tools/mutate/ (release/allow-list).
LIB_SRCS += $(wildcard tools/mutate/ops.c tools/mutate/mutants.c tools/mutate/report.c)
# Where the student code is kept from the course files (grading/isolation.h); a line of its own.
LIB_SRCS += grading/isolation.c
# What one submission may cost, and the GPU's lock (grading/budget.h, grading/gpulock.h).
LIB_SRCS += grading/budget.c grading/gpulock.c
# The course around the grader (grading/course.h): LMS in and out, similarity, the class and student pages.
LIB_SRCS += grading/course.c grading/lms.c grading/similarity.c grading/classpage.c grading/studentpage.c \
            grading/html.c grading/plot.c grading/tool.c
# Their libraries (Debian packages): the roster CSV, Gradescope's YAML, Markdown to HTML.
COURSE_LIB_PKGS := libcsv-dev libyaml-dev libcmark-gfm-dev libcmark-gfm-extensions-dev
COURSE_LIBS     := -lcsv -lyaml -lcmark-gfm-extensions -lcmark-gfm
LIB_OBJS := $(patsubst %.c,$(BUILD)/lib/%.o,$(LIB_SRCS))
# snprintf truncation of over-long paths and messages is deliberate in the grader: -Wno-format-truncation.
$(BUILD)/lib/%.o: %.c $(wildcard common/*.h grading/*.h tools/*/*.h) | $(BUILD)/grading/.deps-ok
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS) -Wno-format-truncation -c -o $@ $<
$(BUILD)/libwb.a: $(LIB_OBJS)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

$(BUILD)/test-runner: $(TEST_OBJS) $(TEST_STAMP) $(BUILD)/libwb.a
	$(call say,LD,$@)$(CC) -no-pie -o $@ $(TEST_OBJS) $(BUILD)/libwb.a -lcriterion -ljansson -larchive $(COURSE_LIBS) -lpng -lm

$(BUILD)/planted/%: tests/planted/%.cu $(wildcard common/*.h) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(call say,NVCC,$@)$(NVCC) $(NVCCFLAGS) -o $@ $< $(LDLIBS)

$(BUILD)/tests/.deps-ok:
	@mkdir -p $(@D)
	@printf '#include <criterion/criterion.h>\n#include <jansson.h>\n#include <archive.h>\n#include <png.h>\n$(COURSE_PROBE)Test(p, p) { json_decref(json_object()); archive_read_free(archive_read_new()); course_probe(); png_access_version_number(); }\n' > $(@D)/probe.c
	@$(call ensure_packages,$(CC) $(@D)/probe.c -o $(@D)/probe -lcriterion -ljansson -larchive $(COURSE_LIBS) -lpng,$(TEST_DEPS_PKGS),make test)
	@touch $@

# The Slurm test (tests/test_slurm.c) needs a real single-node cluster: installed when root, else the
# command is printed and that test skips with the reason (hence '-': not a failure of make test).
SLURM_TEST_PKGS := slurm-wlm munge
slurm-deps:
	-@$(call ensure_packages,command -v slurmctld && command -v slurmd && command -v sbatch && command -v munged,$(SLURM_TEST_PKGS),the Slurm test)

# The course pages' tools (grading/course.h): sim_c (similarity-tester), gnuplot, and headless Chromium for
# the pages' rendering test. Optional like Slurm: without them the pages say what is left out, and the
# Chromium test skips with the reason.
COURSE_TOOL_PKGS := similarity-tester gnuplot-nox chromium
course-deps:
	-@$(call ensure_packages,command -v sim_c && command -v gnuplot && command -v chromium,$(COURSE_TOOL_PKGS),the course pages)

deps: $(BUILD)/tests/.deps-ok slurm-deps course-deps

# Every prerequisite of `make test`, here and nowhere else (the look-inside tool, the grader, the
# occupancy listing and the exploit generator are defined further down, hence the second expansion).
TEST_PREREQS = deps all $(PLANTED) $(BUILD)/test-runner $(INSPECT) $(GRADER) \
               $(if $(wildcard tests/planted/inspect_occupancy.cu),$(BUILD)/planted/inspect_occupancy.ptxas) \
               $(if $(wildcard tests/grading/exploits/generate.c),$(EXPLOIT_GEN)) \
               $(if $(wildcard tests/test_mutate.c),$(MUTATE))
# Every temporary file of the suite goes to TEST_TMP (TMPDIR for the runner and all it starts: the
# tests' wbt_tmpdir, nvcc, the grader; also the grader's GPU lock files unless WB_GRADE_LOCK_DIR is
# set), which is removed after the run whatever the tests did. Then the
# suite fails if the run left a new entry in /tmp (TMP_CHECK=0: only warn, e.g. where other jobs share /tmp).
TEST_TMP  := $(BUILD)/tmp
TMP_CHECK ?= 1
# Criterion counts a skipped test as passing; the TAP report says which were skipped and why.
# REQUIRE_GPU=1 (on a GPU machine) turns the skip of any GPU test into a failure; other skips (a real
# Slurm that cannot start on that machine, say) are listed with their reasons.
REQUIRE_GPU ?= 0
test: $$(TEST_PREREQS)
	@chmod -R u+w $(TEST_TMP) 2>/dev/null; rm -rf $(TEST_TMP) && mkdir -p $(TEST_TMP)
	@ls -A /tmp | LC_ALL=C sort > $(BUILD)/.tmp-before
	@TMPDIR=$(CURDIR)/$(TEST_TMP) WB_GRADE_LOCK_DIR=$${WB_GRADE_LOCK_DIR:-$(CURDIR)/$(TEST_TMP)} ./$(BUILD)/test-runner --tap=$(BUILD)/test-results.tap; rc=$$?; \
	 chmod -R u+w $(TEST_TMP) 2>/dev/null; rm -rf $(TEST_TMP); \
	 left=$$(ls -A /tmp | LC_ALL=C sort | LC_ALL=C comm -13 $(BUILD)/.tmp-before - | tr '\n' ' '); \
	 if [ -n "$$left" ]; then \
	   echo "make test left new entries in /tmp (tests must use TMPDIR, i.e. wbt_tmpdir): $$left" >&2; \
	   if [ "$(TMP_CHECK)" != 0 ] && [ $$rc = 0 ]; then rc=1; fi; \
	 fi; exit $$rc
	@skipped=$$(grep -c '# SKIP' $(BUILD)/test-results.tap || true); \
	 if [ "$$skipped" -gt 0 ]; then \
	   echo "skipped: $$skipped tests, because:"; \
	   grep -o '# SKIP.*' $(BUILD)/test-results.tap | sed 's/ *# SKIP *//' | sort | uniq -c | sort -rn | sed 's/^/  /'; \
	   gpu=$$(grep -o '# SKIP.*' $(BUILD)/test-results.tap | grep -ciE 'cuda|gpu|nvidia' || true); \
	   if [ "$(REQUIRE_GPU)" = 1 ] && [ "$$gpu" -gt 0 ]; then echo "REQUIRE_GPU=1: $$gpu GPU test(s) skipped" >&2; exit 1; fi; \
	 else echo "skipped: none"; fi

# ------------------------------------------------------------------ the rest
# make doctor: the student's section (compiler, driver, GPU: what `make chapterN` and `make test` need),
# then the grader's tools, then one verdict line. It always exits 0: it reports, it does not fail.
doctor: $(BUILD)/doctor
	@echo "chapters and tests:"
	@echo "  nvcc:     $$($(NVCC) --version | grep -o 'release [0-9.]*, V[0-9.]*') ($$(command -v $(NVCC)); toolkit root $(CUDA_TOP))"
	@echo "  driver:   $$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1 || true)$$(command -v nvidia-smi >/dev/null || echo 'nvidia-smi not found')"
	@echo "  arch:     ARCH=$(ARCH) ($(if $(DETECTED_CC),detected from the GPU,no GPU detected: default)), flags: $(GENCODE)"
	@./$(BUILD)/doctor > $(BUILD)/.doctor.out 2>&1; echo $$? > $(BUILD)/.doctor.rc; sed 's/ (see `make doctor`)//; s/^/  /' $(BUILD)/.doctor.out
	@$(MAKE) -s --no-print-directory doctor-grader
	@rc=$$(cat $(BUILD)/.doctor.rc); case "$$rc" in \
	   0) echo "verdict: ready: a usable GPU; the chapters, the tests and the grader can run here";; \
	   3) echo "verdict: no usable GPU here (above): the chapters build and \`make test\` runs, its GPU tests skip; running a chapter$(if $(COURSE), or grading,) needs a GPU";; \
	   *) echo "verdict: build/doctor failed (exit $$rc): see its lines above";; esac

# Every tool the grader needs, and whether it is here (a line each; never fails).
doctor-grader:
	@have() { if command -v "$$1" >/dev/null 2>&1; then printf '  %-18s yes  %s\n' "$$1" "$$(command -v $$1)"; else printf '  %-18s NO   %s\n' "$$1" "$$2"; fi; }; \
	 echo "the grader ($(if $(COURSE),make grade / grade-class / check,make check)):"; \
	 have $(NVCC) "the CUDA toolkit (every build)"; \
	 have compute-sanitizer "the sanitizer step (the CUDA toolkit's bin/)"; \
	 have bwrap "the sandbox (apt-get install bubblewrap)"; \
	 have nvidia-smi "the GPU driver (grading needs a GPU)"; \
	 if [ -x $(GRADER) ]; then printf '  %-18s %s\n' isolation "$$(./$(GRADER) --isolation 2>&1)"; \
	 else printf '  %-18s %s\n' isolation "unknown: build the grader first (make $(GRADER))"; fi; \
	 printf '#include <archive.h>\nint main(void){archive_read_free(archive_read_new());return 0;}\n' | \
	   $(CC) -x c - -o /dev/null -larchive >/dev/null 2>&1 && printf '  %-18s yes\n' libarchive || printf '  %-18s NO   %s\n' libarchive "archives (apt-get install libarchive-dev)"; \
	 printf '#include <jansson.h>\nint main(void){json_decref(json_object());return 0;}\n' | \
	   $(CC) -x c - -o /dev/null -ljansson >/dev/null 2>&1 && printf '  %-18s yes\n' jansson || printf '  %-18s NO   %s\n' jansson "the rubric and reports (apt-get install libjansson-dev)"; \
	 echo "course pages (make grade-class):"; \
	 have sim_c "similarity between students (apt-get install similarity-tester); SIMILARITY=off skips it"; \
	 have gnuplot "the plots of class.html and feedback.html (apt-get install gnuplot-nox)"; \
	 $(if $(COURSE),echo "ENGINE=slurm only:"; \
	 have sbatch "submitting the job array (the cluster's Slurm client)"; \
	 have squeue "the cluster's Slurm client"; \
	 have sacct "the array's accounting (optional)",true)

# The header of this file; the student release (no solutions/) stops before the course's own targets.
help:
	@sed -n '3,/^[^#]/p' Makefile | grep '^#' $(if $(COURSE),,| sed '/^# -- the course/,$$d') | sed 's/^# \{0,1\}//'
	@echo "chapters here: $(CHAPTERS)"

clean:
	rm -rf $(BUILD)

# ------------------------------------------------------------------ handouts (BEGIN handouts section)
# make handouts   every handouts/chN.md and handouts/instructor/*.md as self-contained HTML in
#                 build/handouts/; each chapter's results table, plot and claims are generated from the
#                 results recorded in handouts/results/ (committed), so no GPU is needed.
# make results    (GPU) runs every solution at its default sizes and records handouts/results/chN.json
#                 (the --json lines), chN.txt (the printed table and --claims) and chN.meta.json.
HANDOUT_DEPS_PKGS := pandoc gnuplot-nox
HANDOUT_OUT   := $(BUILD)/handouts
HANDOUT_GEN   := $(HANDOUT_OUT)/gen
HANDOUT_TOOL  := $(HANDOUT_OUT)/wbresults
RESULTS_DIR   := handouts/results
HANDOUT_SRCS  := $(wildcard handouts/ch[0-9].md)
INSTRUCTOR_SRCS := $(wildcard handouts/instructor/*.md)
HANDOUT_HTML  := $(patsubst handouts/%.md,$(HANDOUT_OUT)/%.html,$(HANDOUT_SRCS) $(INSTRUCTOR_SRCS))
# pandoc 2.19 renamed --self-contained to --embed-resources; Debian 12 has 2.17.
PANDOC_FLAGS   = --standalone $$(pandoc --help | grep -q -- --embed-resources && echo --embed-resources || echo --self-contained) \
                 --css handouts/style.css --toc --toc-depth=2 -f markdown -t html5

.PHONY: handouts handouts-deps results

handouts: $(HANDOUT_HTML)
	@echo "handouts: $(HANDOUT_HTML)"

# Probe by running the tools (not dpkg); missing: apt when root or passwordless sudo, else the command.
$(HANDOUT_OUT)/.deps-ok:
	@mkdir -p $(@D)
	@$(call ensure_packages,pandoc --version && gnuplot -e 'set terminal pngcairo',$(HANDOUT_DEPS_PKGS),make handouts)
	@touch $@

handouts-deps: $(HANDOUT_OUT)/.deps-ok

$(HANDOUT_TOOL): tools/results/main.c tools/results/wbresults.h $(BUILD)/libwb.a | $(BUILD)/tests/.deps-ok
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libwb.a -ljansson -lm

# The pieces of chapter N, from handouts/results/chN.*; a chapter without results renders with a note.
$(HANDOUT_GEN)/ch%-table.md: $(RESULTS_DIR)/ch%.json $$(wildcard $(RESULTS_DIR)/ch$$*.meta.json) $(HANDOUT_TOOL)
	@mkdir -p $(@D)
	$(HANDOUT_TOOL) table $< $(RESULTS_DIR)/ch$*.meta.json > $@.tmp && mv $@.tmp $@

$(HANDOUT_GEN)/ch%-plot.gp: $(RESULTS_DIR)/ch%.json $$(wildcard $(RESULTS_DIR)/ch$$*.meta.json) $(HANDOUT_TOOL)
	@mkdir -p $(@D)
	$(HANDOUT_TOOL) plot $< $(RESULTS_DIR)/ch$*.meta.json $(HANDOUT_GEN)/ch$*-plot.png > $@.tmp && mv $@.tmp $@

$(HANDOUT_GEN)/ch%-plot.png: $(HANDOUT_GEN)/ch%-plot.gp | $(HANDOUT_OUT)/.deps-ok
	gnuplot $<

$(HANDOUT_GEN)/ch%-claims.md: $(RESULTS_DIR)/ch%.json $$(wildcard $(RESULTS_DIR)/ch$$*.txt) $(HANDOUT_TOOL)
	@mkdir -p $(@D)
	$(HANDOUT_TOOL) claims $(RESULTS_DIR)/ch$*.txt > $@.tmp && mv $@.tmp $@

# Keep the generated pieces (make would delete them as intermediates), so they can be looked at.
RESULT_NUMS := $(patsubst $(RESULTS_DIR)/ch%.json,%,$(wildcard $(RESULTS_DIR)/ch[0-9].json))
.SECONDARY: $(foreach n,$(RESULT_NUMS),$(addprefix $(HANDOUT_GEN)/ch$(n),-table.md -plot.gp -plot.png -claims.md)) \
            $(patsubst handouts/%.md,$(HANDOUT_GEN)/%.md,$(HANDOUT_SRCS))
HANDOUT_PIECES = $(if $(wildcard $(RESULTS_DIR)/ch$*.json),$(HANDOUT_GEN)/ch$*-table.md $(HANDOUT_GEN)/ch$*-plot.png $(HANDOUT_GEN)/ch$*-claims.md)
$(HANDOUT_GEN)/ch%.md: handouts/ch%.md $(HANDOUT_TOOL) $$(HANDOUT_PIECES)
	@mkdir -p $(@D)
	$(HANDOUT_TOOL) expand $< $(or $(filter %-table.md,$^),-) $(or $(filter %-plot.png,$^),-) \
	  "Throughput of each variant of chapter $* beside the speed of light" $(or $(filter %-claims.md,$^),-) > $@.tmp && mv $@.tmp $@

$(HANDOUT_OUT)/ch%.html: $(HANDOUT_GEN)/ch%.md handouts/style.css | $(HANDOUT_OUT)/.deps-ok
	pandoc $(PANDOC_FLAGS) --resource-path=$(HANDOUT_GEN):handouts -o $@ $<

$(HANDOUT_OUT)/instructor/%.html: handouts/instructor/%.md handouts/style.css | $(HANDOUT_OUT)/.deps-ok
	@mkdir -p $(@D)
	pandoc $(PANDOC_FLAGS) --resource-path=handouts/instructor:handouts -o $@ $<

$(BUILD)/tests/test_handouts.o $(BUILD)/tests/test_results.o: tools/results/wbresults.h

RESULTS_CHAPTERS ?= $(SOLUTIONS_PRESENT)
results: $(addprefix $(BUILD)/solution,$(RESULTS_CHAPTERS)) $(HANDOUT_TOOL)
	$(course_only)
	@fail=0; for n in $(RESULTS_CHAPTERS); do \
	  out=$(RESULTS_DIR)/ch$$n; cmd="./$(BUILD)/solution$$n --claims --json $$out.json"; \
	  echo "$$cmd > $$out.txt"; \
	  if ./$(BUILD)/solution$$n --claims --json $$out.json.tmp > $$out.txt.tmp 2>&1; then \
	    mv $$out.json.tmp $$out.json && mv $$out.txt.tmp $$out.txt && cat $$out.txt && \
	    $(HANDOUT_TOOL) meta $$out.meta.json "date=$$(date -u +%F)" "command=$$cmd" \
	      "commit=$$(git rev-parse --short HEAD 2>/dev/null)$$(git diff --quiet HEAD -- solutions common 2>/dev/null || echo '+changes')" \
	      "driver=$$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1)" \
	      "nvcc=$$($(NVCC) --version | grep -o 'release [0-9.]*' | head -n1)" "arch=$(ARCH)"; \
	  else echo "solution$$n failed (exit $$?); kept the previous $$out.* — its output:" >&2; tail -n 20 $$out.txt.tmp >&2; \
	    rm -f $$out.json.tmp $$out.txt.tmp; fail=1; fi; \
	done; exit $$fail
# ------------------------------------------------------------------ (END handouts section)

# ------------------------------------------------------------------ look inside (BEGIN look-inside section)
# make sass CH=N [V=variant] [SOLUTION=1]   the SASS of the variant's kernels, a legend of the instructions
#                                           that matter and a count per kind (PTX when cuobjdump is missing)
# make resources CH=N [V=..] [SOLUTION=1] [BLOCK=256] [DSMEM=0]
#                                           registers, shared memory, stack and spills per kernel, and the
#                                           occupancy they allow on this GPU, with the limiting resource
# make sanitize [CH=N] [V=..] [SOLUTION=1] [SIZE=..] [JOBS=4]
#                                           (GPU) compute-sanitizer memcheck, racecheck, synccheck, initcheck
#                                           at a small odd size, one line per tool and variant; no CH: all
# make profile CH=N V=variant [SOLUTION=1] [SIZE=..]
#                                           (GPU) Nsight Compute: a short summary; the full report is kept
#                                           in build/profile/ for the Nsight Compute GUI
# Without SOLUTION=1 they look at your code (chapters/); with it, at the reference (solutions/).
INSPECT     := $(BUILD)/inspect
LI_SOL      := $(filter 1 yes true,$(SOLUTION))
LI_KIND     := $(if $(LI_SOL),solution,chapter)
LI_DIR      := $(if $(LI_SOL),solutions,chapters)
LI_VALID    := $(if $(LI_SOL),$(SOLUTIONS_PRESENT),$(CHAPTERS))
LI_PROG      = $(BUILD)/$(LI_KIND)$(CH)
LI_SRC       = $(call chapter_src,$(LI_DIR),$(CH))
LI_OUT       = $(BUILD)/look/$(LI_KIND)$(CH)
# Resources are compiled for the GPU here; without one, for the H100 (sm_90) unless ARCH= is given.
LI_RES_ARCH  = $(if $(DETECTED_CC),$(ARCH),$(if $(filter file,$(origin ARCH)),sm_90,$(ARCH)))
LI_DEVFLAGS  = $(filter-out -gencode=%,$(NVCCFLAGS))
CUOBJDUMP   ?= $(or $(shell command -v cuobjdump 2>/dev/null),$(wildcard $(CUDA_TOP)/bin/cuobjdump))
BLOCK       ?= 256
DSMEM       ?= 0
LI_VARG      = $(if $(filter-out 1,$(V)),--variant '$(V)')
LI_SIZEARG   = $(if $(SIZE),--size '$(SIZE)')

# A bad or missing CH gets the list of valid ones (the tool does the same for V).
define LI_CHECK_CH
case "$(CH)" in ''|*[!0-9]*) ok=;; *) ok="$(filter $(CH),$(LI_VALID))";; esac; \
if [ -z "$$ok" ]; then \
  echo "CH='$(CH)' is not a chapter$(if $(LI_SOL), with a solution); valid: $(LI_VALID)" >&2; exit 2; fi
endef
# ptxas -v for one architecture, from the chapter's source (only device code is compiled: seconds).
define LI_PTXAS
$(NVCC) -cubin $(LI_DEVFLAGS) -arch=$(LI_RES_ARCH) -Xptxas -v -o $(LI_OUT)-$(LI_RES_ARCH).cubin $(LI_SRC) \
  2> $(LI_OUT)-$(LI_RES_ARCH).ptxas || { cat $(LI_OUT)-$(LI_RES_ARCH).ptxas >&2; exit 1; }
endef

.PHONY: sass resources sanitize profile

# tools/inspect/: the look-inside tool (its README has the module map); its parsers are in libwb.a,
# so the test runner checks them on captured output.
INSPECT_SRCS := $(addprefix tools/inspect/,common.c look.c run.c inspect.c gpu.cu)
$(INSPECT): $(INSPECT_SRCS) $(wildcard tools/inspect/*.h) $(wildcard common/*.h) $(BUILD)/libwb.a | $(BUILD)/tests/.deps-ok
	$(call say,NVCC,$@)$(NVCC) -O2 -Igrading -Icommon -Itools/inspect -Xcompiler -Wall,-Wextra -o $@ $(INSPECT_SRCS) $(BUILD)/libwb.a -ljansson

sass: $(INSPECT)
	@$(LI_CHECK_CH)
	@$(MAKE) -s --no-print-directory $(LI_PROG)
	@mkdir -p $(BUILD)/look
	@if [ -n "$(CUOBJDUMP)" ]; then \
	  $(CUOBJDUMP) -sass $(LI_PROG) > $(LI_OUT).sass && \
	  $(INSPECT) sass --program $(LI_PROG) --listing $(LI_OUT).sass $(LI_VARG); \
	else \
	  echo "cuobjdump is not installed beside $(NVCC): showing PTX (nvcc -ptx), not SASS"; \
	  $(NVCC) -ptx $(LI_DEVFLAGS) -arch=compute_$(ARCH_NUM) -o $(LI_OUT).ptx $(LI_SRC) && \
	  $(INSPECT) sass --program $(LI_PROG) --listing $(LI_OUT).ptx $(LI_VARG); \
	fi

resources: $(INSPECT)
	@$(LI_CHECK_CH)
	@$(MAKE) -s --no-print-directory $(LI_PROG)
	@mkdir -p $(BUILD)/look
	@$(LI_PTXAS)
	@$(INSPECT) resources --program $(LI_PROG) --ptxas $(LI_OUT)-$(LI_RES_ARCH).ptxas --arch $(LI_RES_ARCH) \
	  --block $(BLOCK) --dsmem $(DSMEM) $(LI_VARG)

sanitize: $(INSPECT)
	@$(INSPECT) gpu --check --label "make sanitize"
	@if [ -n "$(V)" ] && [ -z "$(CH)" ]; then echo "V= needs CH= (variant names differ by chapter)" >&2; exit 2; fi
	@if [ -n "$(CH)" ]; then $(LI_CHECK_CH); fi; \
	fail=0; for n in $(if $(CH),$(CH),$(LI_VALID)); do \
	  $(MAKE) -s --no-print-directory $(BUILD)/$(LI_KIND)$$n || { fail=1; continue; }; \
	  $(INSPECT) sanitize --program $(BUILD)/$(LI_KIND)$$n --label "chapter $$n ($(LI_KIND))" $(LI_VARG) \
	    $(LI_SIZEARG) $(if $(JOBS),--jobs $(JOBS)) || fail=1; \
	done; exit $$fail

profile: $(INSPECT)
	@$(LI_CHECK_CH)
	@$(MAKE) -s --no-print-directory $(LI_PROG)
	@mkdir -p $(BUILD)/look $(BUILD)/profile
	@$(LI_PTXAS)
	@$(INSPECT) profile --program $(LI_PROG) $(LI_VARG) --report $(BUILD)/profile/$(LI_KIND)$(CH)-$(or $(V),none) \
	  --ptxas $(LI_OUT)-$(LI_RES_ARCH).ptxas $(LI_SIZEARG)

# The occupancy cross-check of tests/test_inspect.c: ptxas -v of the planted program, for its own arch.
$(BUILD)/planted/inspect_occupancy.ptxas: tests/planted/inspect_occupancy.cu $(wildcard common/*.h) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(call say,PTXAS,$@)$(NVCC) -cubin $(LI_DEVFLAGS) -arch=sm_$(ARCH_NUM) -Xptxas -v -o $(@:.ptxas=.cubin) $< 2> $@ || { cat $@ >&2; exit 1; }

# tests/test_inspect.c compares the occupancy formula with CUDA's cuda_occupancy.h (plain C).
$(BUILD)/tests/test_inspect.o: CFLAGS += $(if $(CUDA_INCLUDE),-I$(dir $(CUDA_INCLUDE)),$(error \
  cuda_occupancy.h not found under nvcc's toolkit root '$(CUDA_TOP)' (is $(NVCC) a CUDA toolkit nvcc?)))
# ------------------------------------------------------------------ (END look-inside section)

# ------------------------------------------------------------------ grading (the autograder, grading/)
# make grade SUB=dir|file.zip|file.tar.gz [OUT=dir] [CH=n] [SEEDS=a,b]   one submission
# make grade-class SUBS=dir [OUT=dir] [JOBS=n] [FORCE=1]                   a class (resumable)
# make check [CH=n]                                                        the student's practice run
# make dist-student                                                        the release without solutions/
# The grader compiles student code with the command recorded in build/grading-flags.json (the flags
# above: one source of truth; `make grading-flags` prints it). The rubric is grading/rubric.json (JSON, read with jansson).
GRADER      := $(BUILD)/grade
GRADING_FLAGS := $(BUILD)/grading-flags.json
GRADER_DEPS_PKGS := libjansson-dev libarchive-dev $(COURSE_LIB_PKGS)
# A C probe of the course libraries (csv, yaml, cmark-gfm): course_probe() links all three.
COURSE_PROBE := \#include <csv.h>\n\#include <yaml.h>\n\#include <cmark-gfm.h>\n\#include <cmark-gfm-core-extensions.h>\nstatic void course_probe(void) { struct csv_parser p; csv_init(&p, 0); csv_free(&p); yaml_parser_t y; yaml_parser_initialize(&y); yaml_parser_delete(&y); cmark_gfm_core_extensions_ensure_registered(); }\n
# OUT counts only on make's command line: an OUT in the environment (common in shells and CI) must not
# send the reports elsewhere.
GRADE_ARGS   = $(if $(CH),--ch $(CH)) $(if $(SEEDS),--seeds $(SEEDS)) \
               $(if $(filter command line,$(origin OUT)),--out $(call shq,$(OUT))) \
               $(if $(JOBS),--jobs $(JOBS)) $(if $(FORCE),--force) $(if $(RUBRIC),--rubric $(RUBRIC)) $(GRADE_FLAGS)
# The class's course options (grading/course.h): ROSTER=file.csv LMS=canvas|moodle|gradescope|plain (default: detected)
# SIMILARITY=off|PCT ASSIGNMENT="name of the Canvas column"
COURSE_ARGS  = $(if $(ROSTER),--roster '$(ROSTER)') $(if $(LMS),--lms $(LMS)) \
               $(if $(filter off 0 no,$(SIMILARITY)),--no-similarity,$(if $(SIMILARITY),--similarity $(SIMILARITY))) \
               $(if $(ASSIGNMENT),--assignment '$(ASSIGNMENT)')

.PHONY: grade grade-class check dist-student grading-flags grader-deps

# jansson alone: the student release needs the grader for `make check`, not Criterion.
$(BUILD)/grading/.deps-ok:
	@mkdir -p $(@D)
	@printf '#include <jansson.h>\n#include <archive.h>\n$(COURSE_PROBE)int main(void) { json_decref(json_object()); archive_read_free(archive_read_new()); course_probe(); return 0; }\n' > $(@D)/probe.c
	@$(call ensure_packages,$(CC) $(@D)/probe.c -o $(@D)/probe -ljansson -larchive $(COURSE_LIBS),$(GRADER_DEPS_PKGS),the grader)
	@touch $@

grader-deps: $(BUILD)/grading/.deps-ok

# snprintf truncation of over-long paths is deliberate there, hence -Wno-format-truncation.
$(GRADER): grading/grade.c $(wildcard grading/*.h) common/contract.h $(BUILD)/libwb.a $(GRADING_FLAGS) | $(BUILD)/grading/.deps-ok
	$(call say,CC,$@)$(CC) $(CFLAGS) -Wno-format-truncation -o $@ grading/grade.c $(BUILD)/libwb.a -ljansson -larchive $(COURSE_LIBS) -lm

# The compile command and the libraries, recorded for the grader (it reads this file instead of calling
# back into make); rewritten whenever the flags change. "sol_libs" are the chapters' speed-of-light
# libraries (LDLIBS_N): recorded, never linked to student code (grading/build.c).
json_str = "$(subst ",\",$(subst \,\\,$(1)))"
$(GRADING_FLAGS): $(FLAGS_STAMP) Makefile
	@printf '{"nvcc": %s, "libs": {"default": %s}, "sol_libs": {"comment": "never linked to student code"%s}}\n' \
	  '$(call json_str,$(NVCC) $(NVCCFLAGS))' '$(call json_str,$(LDLIBS))' \
	  '$(foreach n,$(CHAPTERS),$(if $(LDLIBS_$(n)),$(comma) "$(n)": $(call json_str,$(LDLIBS_$(n)))))' > $@

grading-flags: $(GRADING_FLAGS)
	@cat $(GRADING_FLAGS)

# Grading needs a GPU here: say so before anything is compiled for it (ENGINE=slurm grades on the
# cluster's nodes, so there the submitting host needs none). build/doctor is the one probe: without a
# usable GPU it prints the reason and exits 3.
gpu-required: $(BUILD)/doctor
	@$(BUILD)/doctor >/dev/null

grade:
	$(course_only)
	@if [ -z $(call shq,$(SUB)) ]; then echo "usage: make grade SUB=dir|file.zip|file.tar.gz [OUT=dir] [CH=n] [SEEDS=a,b]" >&2; exit 2; fi
	@$(MAKE) --no-print-directory gpu-required
	@$(MAKE) --no-print-directory $(GRADER) $(SOLUTIONS)
	./$(GRADER) $(GRADE_ARGS) $(call shq,$(SUB))

# ENGINE=slurm [PARTITION=p] [GRES=gpu:1] [TIME=minutes]: one job array on the cluster (grading/slurm.h);
# it waits for the merge job, so the target ends when the class is graded.
ENGINE ?= local
SLURM_ARGS = --engine $(ENGINE) $(if $(PARTITION),--partition $(PARTITION)) $(if $(GRES),--gres $(GRES)) $(if $(TIME),--time $(TIME))
grade-class:
	$(course_only)
	@if [ -z $(call shq,$(SUBS)) ]; then echo "usage: make grade-class SUBS=dir [OUT=dir] [JOBS=n] [FORCE=1] [ROSTER=csv] [LMS=canvas|moodle|gradescope|plain] [SIMILARITY=off|PCT] [ASSIGNMENT=name] [ENGINE=local|slurm PARTITION=p GRES=gpu:1]" >&2; exit 2; fi
	@$(if $(filter slurm,$(ENGINE)),true,$(MAKE) --no-print-directory gpu-required)
	@$(MAKE) --no-print-directory $(GRADER) $(SOLUTIONS)
	./$(GRADER) $(GRADE_ARGS) $(COURSE_ARGS) $(SLURM_ARGS) --class $(call shq,$(SUBS))

# make diagnose-mutants [CH=n] [JOBS=j]: mutants of the reference solutions' regions (tools/mutate/) graded as
# a class, then the confusion table intended x named. The slow classes (uncoalesced, padding, host-work)
# are graded with perf, the rest with --no-perf; each mutant holds one chapter, so CH only picks whose.
MUTATE      := $(BUILD)/mutate
MUTANTS     := $(BUILD)/mutants
MUTANT_JOBS ?= $(or $(JOBS),6)
# one fixed seed: half the correctness runs of a grading, and a table that can be replayed
MUTANT_SEED ?= 20261123
$(MUTATE): tools/mutate/mutate.c $(wildcard tools/mutate/*.h) $(BUILD)/libwb.a | $(BUILD)/grading/.deps-ok
	$(call say,CC,$@)$(CC) $(CFLAGS) -Wno-format-truncation -o $@ tools/mutate/mutate.c $(BUILD)/libwb.a -ljansson -larchive -lm
.PHONY: diagnose-mutants
diagnose-mutants:
	$(course_only)
	@$(MAKE) --no-print-directory gpu-required
	@$(MAKE) --no-print-directory $(GRADER) $(MUTATE) $(SOLUTIONS)
	./$(MUTATE) --out $(MUTANTS) $(if $(CH),--ch $(CH))
	-./$(GRADER) --class $(MUTANTS)/subs --out $(MUTANTS)/out --no-perf --jobs $(MUTANT_JOBS) --seeds $(MUTANT_SEED) $(if $(CH),--ch $(CH)) >/dev/null
	@if [ -d $(MUTANTS)/subs-perf ]; then set -x; ./$(GRADER) --class $(MUTANTS)/subs-perf --out $(MUTANTS)/out-perf --jobs 1 --seeds $(MUTANT_SEED) $(if $(CH),--ch $(CH)) >/dev/null; fi
	./$(MUTATE) --report $(MUTANTS)

check:
	@$(MAKE) --no-print-directory gpu-required
	@$(MAKE) --no-print-directory $(GRADER)
	./$(GRADER) $(GRADE_ARGS) --check

# The student release: what release/allow-list names (one regular expression per line, the whole
# path) of the files git tracks, the student's README (release/README.md) and pristine copies of the
# starters, so that `make check` and `make test` can tell edits outside the TODO regions. There,
# `make test` checks the student's own chapters. An allow-list, not a list of exclusions: an untracked
# stray, a new tool or a tool that holds solution code (tools/sgemm-tune, tools/mutate) stays out unless
# it is named. In a copy without git (an unpacked tarball of the workbook) the files under it, outside
# build/, are listed instead; the allow-list still decides. tests/test_release.c checks the result for
# solution lines and untracked files.
DIST_NAME ?= cuda-workbook-student
DIST_DIR   = $(BUILD)/dist/$(DIST_NAME)
dist-student:
	@test -f release/README.md -a -f release/allow-list || { echo "dist-student: release/README.md or release/allow-list is missing from this copy" >&2; exit 1; }
	@rm -rf "$(BUILD)/dist" && mkdir -p "$(DIST_DIR)"
	@grep -Ev '^(#|$$)' release/allow-list | sed 's/.*/^(&)$$/' > "$(BUILD)/dist/allow.re"
	@if git rev-parse --is-inside-work-tree >/dev/null 2>&1 && [ "$$(git rev-parse --show-toplevel)" = "$$(pwd -P)" ]; then \
	   git ls-files -z | tr '\0' '\n'; \
	 else echo "dist-student: not a git checkout: listing the files with find (release/allow-list decides)" >&2; \
	   find . -path ./build -prune -o -path ./.git -prune -o -type f -print | sed 's|^\./||'; fi \
	 | LC_ALL=C sort | grep -E -f "$(BUILD)/dist/allow.re" | while IFS= read -r f; do [ -f "$$f" ] && printf '%s\n' "$$f"; done \
	 | tar -cf - -T - | tar -xf - -C "$(DIST_DIR)"
	@cp release/README.md "$(DIST_DIR)/README.md"
	@for d in chapters/[0-9][0-9]-*/; do mkdir -p "$(DIST_DIR)/grading/pristine/$$(basename $$d)" && \
	  cp "$(DIST_DIR)/$$d"*.cu "$(DIST_DIR)/grading/pristine/$$(basename $$d)/"; done
	@tar -C "$(BUILD)/dist" -czf "$(BUILD)/$(DIST_NAME).tar.gz" "$(DIST_NAME)"
	@echo "$(BUILD)/$(DIST_NAME).tar.gz: $$(tar -tzf "$(BUILD)/$(DIST_NAME).tar.gz" | grep -vc '/$$') files (release/allow-list)"

# The exploit corpus (tests/grading/exploits/, not in the student release): its generator writes each
# exploit as a submission under build/exploits/ for tests/test_exploits.c (a prerequisite of `make test`).
EXPLOIT_GEN := $(BUILD)/exploit-gen
$(EXPLOIT_GEN): tests/grading/exploits/generate.c $(BUILD)/libwb.a | $(BUILD)/grading/.deps-ok
	$(call say,CC,$@)$(CC) $(CFLAGS) -Wno-format-truncation -o $@ $< $(BUILD)/libwb.a -ljansson -lm

# ------------------------------------------------------------------ (END grading section)
