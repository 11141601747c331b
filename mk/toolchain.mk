# mk/toolchain.mk — the compilers, the target GPU's architecture and the flags every section uses; the
# shared helpers (quiet lines, shell quoting, the course-only guard, package installs).

NVCC    ?= nvcc
comma   := ,
# Quiet builds: one line per file built ("  NVCC  build/chapter1"); V=1 shows the commands. (V=variant
# of the look-inside targets is a name, never 1.)
VERBOSE := $(filter 1,$(V))
say      = $(if $(VERBOSE),,@printf '  %-6s %s\n' '$(1)' '$(2)';)
# Build products appear whole: a program that another make in the same checkout may be running (two
# gradings at once run build/doctor, build/grade, the references) is written under a temporary name
# beside it, unique to this shell ($$), and renamed over it (rename(2) in one folder: a reader sees the
# old file or the new one, never a missing or half-linked one; "Permission denied" was seen). A recipe
# writes $(ATMP) and ends with $(PUBLISH); on failure the temporary file is removed.
ATMP     = $@.tmp$$$$
PUBLISH  = && mv -f $(ATMP) $@ || { rm -f $(ATMP); exit 1; }
# $(call shq,TEXT): TEXT as one single-quoted shell word (a path with spaces or quotes).
shq      = '$(subst ','\'',$(1))'
# Only in the full workbook (solutions/ present); the student release refuses with the reason.
COURSE   = $(wildcard solutions)
course_only = $(if $(COURSE),,@echo "make $@: not in the student release (the course's own: it needs solutions/)" >&2; exit 2)
CC      := gcc
BUILD   := build
ARGS    ?=
# The shell programs of the recipes (scripts/README.md).
SCRIPTS := scripts
BUILD   := build
ARGS    ?=
# The toolkit's root, as nvcc itself reports it: `command -v nvcc` may be a wrapper script or a symlink
# (e.g. /usr/local/bin/nvcc), so its directory says nothing about where the headers and tools are.
# Evaluated once, on first use.
CUDA_TOP = $(eval CUDA_TOP := $(abspath $(shell $(NVCC) --dryrun -c -x cu /dev/null -o /dev/null 2>&1 \
             | sed -n 's/^\#\$$ TOP=//p' | head -n1)))$(CUDA_TOP)
CUDA_INCLUDE = $(firstword $(wildcard $(CUDA_TOP)/targets/*/include/cuda_occupancy.h $(CUDA_TOP)/include/cuda_occupancy.h))
# The toolkit's own tools (compute-sanitizer, ncu, cuobjdump) for recipes and tests, after the user's PATH.
# Added only for the targets that run them (test, doctor, the look-inside and grading targets), so that
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
# Whether ARCH was given (the command line, the environment): then no build adds an architecture of its own.
ARCH_GIVEN := $(if $(filter undefined,$(origin ARCH)),,1)
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
# The C of the grader, the tools and the tests. Include paths are not here: each folder's objects get
# only the folders they use (mk/libs.mk). Recursive (=), so that a target's `CFLAGS += $(...)` is
# expanded only when that target is built. -MMD -MP: each object's header dependencies, from the compiler,
# named after the object and not after the temporary file the object is compiled to (ATMP below).
CFLAGS     = -O2 -std=gnu11 -Wall -Wextra -Werror=implicit-function-declaration
DEPFLAGS   = -MMD -MP -MT $@ -MF $(@:.o=.d)
# The student release has no solutions/: its tests check the student's own chapters (tests/wbtest.h).
ifeq ($(wildcard solutions),)
  CFLAGS += -DWBT_STUDENT_RELEASE
endif
LDLIBS    := -lgomp

# ------------------------------------------------------------------ a chapter's own flags
# A chapter's chapters/NN-name/chapter.mk (included by mk/chapters.mk; N below is the number without its
# leading zero) may set LDLIBS_N (libraries of both builds), SOLFLAGS_N (the reference's build only) and
# ARCH_FEATURES_N, the arch-specific targets its code has a path for (sm_90a: wgmma, setmaxnreg). A
# feature's machine code is built only for the GPU it runs on: sm_90a when ARCH is sm_90 (an H100 or
# H200 detected, or ARCH=sm_90 given), nothing for any other ARCH (sm_90a code runs on no other GPU, and
# the chapter's portable code is built as always).
# $(call arch_family,90a) -> 90: a target without its arch-specific (a) or family (f) suffix.
arch_family = $(patsubst %a,%,$(patsubst %f,%,$(1)))
# $(call chapter_archflags,N): the -gencode flags of chapter N's features that ARCH runs (ARCH=sm_90a
# itself already builds that code: nothing twice); a feature not of the form sm_NNa is an error.
chapter_archflags = $(strip $(foreach f,$(ARCH_FEATURES_$(1)),$(if $(shell echo '$(f)' | grep -Ex 'sm_[0-9]{2,3}[af]'),,$(error \
                      ARCH_FEATURES_$(1) = '$(f)' is not of the form sm_NNa (e.g. sm_90a)))$(call \
                      arch_feature_gencode,$(patsubst sm_%,%,$(f)))))
arch_feature_gencode = $(if $(filter $(call arch_family,$(ARCH_NUM)),$(call arch_family,$(1))),$(if \
                         $(filter $(1),$(ARCH_NUM)),,-gencode=arch=compute_$(1)$(comma)code=sm_$(1)))
# The whole commands of chapter N's two builds, up to the file names: the build and its stamp (below)
# read the same text.
starter_cmd  = $(NVCC) $(NVCCFLAGS) $(call chapter_archflags,$(1))
solution_cmd = $(NVCC) $(NVCCFLAGS) $(call chapter_archflags,$(1)) $(SOLFLAGS_$(1))
chapter_libs = $(LDLIBS) $(LDLIBS_$(1))
# The grader's build of a student's chapter (make check): where no GPU is detected and no ARCH given (sm_75),
# also the machine code of the architectures the chapters' code paths test for (`__CUDA_ARCH__ >= 800`:
# cp.async; sm_90, the H100's) and of the chapter's ARCH_FEATURES_N, as a grader's GPU builds them, so that
# an error in such a path is found on the student's laptop and not first on the grader's GPU. With a GPU,
# or ARCH given, that architecture is the one built.
NO_GPU_ARCHS    := 80 90
no_gpu_archflags = $(if $(ARCH_GIVEN)$(DETECTED_CC),,$(foreach a,$(filter-out $(ARCH_NUM),$(NO_GPU_ARCHS) \
                     $(patsubst sm_%,%,$(ARCH_FEATURES_$(1)))),-gencode=arch=compute_$(a)$(comma)code=sm_$(a)))
grader_archflags = $(strip $(call chapter_archflags,$(1)) $(filter-out $(call chapter_archflags,$(1)),$(call \
                     no_gpu_archflags,$(1))))

# $(call ensure_packages,PROBE,PACKAGES,WHO): runs the shell command PROBE; if it fails, installs the
# Debian PACKAGES and probes again, else prints the exact command and fails (scripts/ensure-packages.sh);
# one install at a time, under BUILD/.packages.lock (make -j test starts several).
ensure_packages = mkdir -p $(call shq,$(BUILD)) && WB_PACKAGES_LOCK=$(call shq,$(BUILD)/.packages.lock) \
                  $(SCRIPTS)/ensure-packages.sh $(call shq,$(3)) $(call shq,$(2)) $(call shq,$(1))

# Rebuild when the flags change (e.g. another ARCH), not only when sources do: the stamp's recipe runs
# on every build but rewrites the file (and so triggers rebuilds) only when the flags differ.
# $(call write_stamp,TEXT): the recipe of a stamp holding TEXT.
write_stamp = @mkdir -p $(@D) && printf '%s\n' $(call shq,$(strip $(1))) | cmp -s - $@ || \
              { printf '%s\n' $(call shq,$(strip $(1))) > $(ATMP) $(PUBLISH); }
FLAGS_STAMP := $(BUILD)/.flags
$(FLAGS_STAMP): FORCE
	$(call write_stamp,$(NVCC) $(NVCCFLAGS))

.SECONDEXPANSION:
