# CUDA C workbook — one Makefile, pattern rules. `make help` lists the targets.
#
#   make chapterN / solutionN   build and run chapter N's starter / reference (ARGS="--size 1000")
#   make test                   install missing test dependencies, build everything, run Criterion
#   make all | doctor | clean
#   make ARCH=sm_86 ...         build for another GPU than the one detected

NVCC    ?= nvcc
CC      := gcc
BUILD   := build
ARGS    ?=

# ------------------------------------------------------------------ target GPU
# The GPU's compute capability, e.g. "9.0" -> sm_90. No GPU: sm_75, the oldest architecture CUDA 13
# supports, whose embedded PTX the driver compiles for any newer GPU at start-up.
DETECTED_CC := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d '. \r')
ifeq ($(origin ARCH),undefined)
  ARCH := $(if $(DETECTED_CC),sm_$(DETECTED_CC),sm_75)
endif
ARCH_NUM := $(patsubst sm_%,%,$(patsubst compute_%,%,$(ARCH)))
ifeq ($(shell echo '$(ARCH_NUM)' | grep -Ex '[0-9]{2,3}[af]?'),)
  $(error ARCH='$(ARCH)' is not of the form sm_NN (e.g. sm_86, sm_90))
endif
# Machine code for ARCH plus its PTX, so the same binary also runs on later GPUs.
GENCODE := -gencode=arch=compute_$(ARCH_NUM),code=sm_$(ARCH_NUM) \
           -gencode=arch=compute_$(ARCH_NUM),code=compute_$(ARCH_NUM)

NVCCFLAGS := -O3 -std=c++20 -lineinfo $(GENCODE) -Icommon \
             -Xcompiler -Wall,-Wextra,-Wno-unused-parameter,-fopenmp --Werror cross-execution-space-call
CFLAGS    := -O2 -std=gnu11 -Wall -Wextra -Icommon -Igrading
LDLIBS    := -lgomp
# Per-chapter extra libraries (cuBLAS is only the speed-of-light reference of chapter 4).
LDLIBS_4  := -lcublas

# ------------------------------------------------------------------ chapters
# chapters/01-reversal/reversal.cu -> chapter number 1
CHAPTER_DIRS := $(sort $(wildcard chapters/[0-9][0-9]-*))
CHAPTERS     := $(foreach d,$(CHAPTER_DIRS),$(patsubst 0%,%,$(firstword $(subst -, ,$(notdir $(d))))))
STARTERS     := $(addprefix $(BUILD)/chapter,$(CHAPTERS))
SOLUTIONS_PRESENT := $(foreach n,$(CHAPTERS),$(if $(wildcard solutions/0$(n)-*/*.cu),$(n)))
SOLUTIONS    := $(addprefix $(BUILD)/solution,$(SOLUTIONS_PRESENT))

# Rebuild when the flags change (e.g. another ARCH), not only when sources do.
FLAGS_STAMP := $(BUILD)/.flags
$(shell mkdir -p $(BUILD) && echo '$(NVCC) $(NVCCFLAGS)' | cmp -s - $(FLAGS_STAMP) || echo '$(NVCC) $(NVCCFLAGS)' > $(FLAGS_STAMP))

.PHONY: all help test deps doctor clean $(addprefix chapter,$(CHAPTERS)) $(addprefix solution,$(CHAPTERS))
.SECONDEXPANSION:

all: $(STARTERS) $(SOLUTIONS) $(BUILD)/doctor

$(BUILD)/chapter%: $$(wildcard chapters/0$$*-*/*.cu) common/wb.h $(FLAGS_STAMP)
	$(NVCC) $(NVCCFLAGS) -o $@ $< $(LDLIBS) $(LDLIBS_$*)

$(BUILD)/solution%: $$(wildcard solutions/0$$*-*/*.cu) common/wb.h $(FLAGS_STAMP)
	$(NVCC) $(NVCCFLAGS) -o $@ $< $(LDLIBS) $(LDLIBS_$*)

$(BUILD)/doctor: common/doctor.cu common/wb.h $(FLAGS_STAMP)
	$(NVCC) $(NVCCFLAGS) -o $@ $<

# Exit status 3 from a program means "no CUDA device"; make then reports "Error 3".
chapter%: $(BUILD)/chapter%
	./$< $(ARGS)

solution%: $(BUILD)/solution%
	./$< $(ARGS)

# ------------------------------------------------------------------ tests
# Override to build a subset, e.g. make test CHAPTERS=4 TEST_SRCS="tests/test_common.c tests/test_ch4.c"
TEST_SRCS ?= $(wildcard tests/test_*.c)
TEST_OBJS := $(patsubst tests/%.c,$(BUILD)/tests/%.o,$(TEST_SRCS))
TEST_DEPS_PKGS := libcriterion-dev libjansson-dev
# CUDA programs with planted bugs that the tests run under compute-sanitizer.
PLANTED   := $(patsubst tests/planted/%.cu,$(BUILD)/planted/%,$(wildcard tests/planted/*.cu))

$(BUILD)/tests/%.o: tests/%.c $(wildcard tests/*.h) common/wb.h $(wildcard grading/*.h) | $(BUILD)/tests/.deps-ok
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

# -no-pie: Criterion runs each test in a re-executed copy of the runner and hands it the parameters
# byte for byte, so pointers in them (variant names) must mean the same in every copy.
TEST_STAMP := $(BUILD)/.tests
$(shell mkdir -p $(BUILD) && echo '$(TEST_OBJS)' | cmp -s - $(TEST_STAMP) || echo '$(TEST_OBJS)' > $(TEST_STAMP))
$(BUILD)/test-runner: $(TEST_OBJS) $(TEST_STAMP)
	$(CC) -no-pie -o $@ $(TEST_OBJS) -lcriterion -ljansson -lm

$(BUILD)/planted/%: tests/planted/%.cu common/wb.h $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -o $@ $< $(LDLIBS)

# Probe by compiling and linking, not by asking dpkg: on the GPU machines the libraries are unpacked,
# not installed. Missing: install with apt when root or passwordless sudo, else print the command.
$(BUILD)/tests/.deps-ok:
	@mkdir -p $(@D)
	@printf '#include <criterion/criterion.h>\n#include <jansson.h>\nTest(p, p) { json_decref(json_object()); }\n' > $(@D)/probe.c
	@if ! $(CC) $(@D)/probe.c -o $(@D)/probe -lcriterion -ljansson 2>/dev/null; then \
	  cmd="apt-get install -y --no-install-recommends $(TEST_DEPS_PKGS)"; \
	  if [ "$$(id -u)" = 0 ]; then pre=""; elif sudo -n true 2>/dev/null; then pre="sudo"; \
	  else echo "make test needs $(TEST_DEPS_PKGS); install them with: sudo apt-get update && sudo $$cmd" >&2; exit 1; fi; \
	  echo "installing $(TEST_DEPS_PKGS) with apt-get"; \
	  $$pre env DEBIAN_FRONTEND=noninteractive apt-get update -qq && $$pre env DEBIAN_FRONTEND=noninteractive $$cmd >/dev/null \
	    && $(CC) $(@D)/probe.c -o $(@D)/probe -lcriterion -ljansson \
	    || { echo "could not install $(TEST_DEPS_PKGS); run: sudo apt-get update && sudo $$cmd" >&2; exit 1; }; \
	fi
	@touch $@

deps: $(BUILD)/tests/.deps-ok

# Criterion counts a skipped test as passing; the TAP report says which were skipped and why.
# REQUIRE_GPU=1 (on a GPU machine) turns any skip into a failure.
REQUIRE_GPU ?= 0
test: deps all $(PLANTED) $(BUILD)/test-runner
	./$(BUILD)/test-runner --tap=$(BUILD)/test-results.tap
	@skipped=$$(grep -c '# SKIP' $(BUILD)/test-results.tap || true); \
	 if [ "$$skipped" -gt 0 ]; then \
	   echo "skipped: $$skipped tests, because: $$(grep -o '# SKIP.*' $(BUILD)/test-results.tap | sort | uniq -c | sort -rn | head -n1 | sed 's/ *# SKIP//')"; \
	   if [ "$(REQUIRE_GPU)" = 1 ]; then echo "REQUIRE_GPU=1: no test may be skipped" >&2; exit 1; fi; \
	 else echo "skipped: none"; fi

# ------------------------------------------------------------------ the rest
doctor: $(BUILD)/doctor
	@echo "nvcc:     $$($(NVCC) --version | grep -o 'release [0-9.]*, V[0-9.]*')"
	@echo "driver:   $$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1 || true)$$(command -v nvidia-smi >/dev/null || echo 'nvidia-smi not found')"
	@echo "arch:     ARCH=$(ARCH) ($(if $(DETECTED_CC),detected from the GPU,no GPU detected: default)), flags: $(GENCODE)"
	@./$(BUILD)/doctor

help:
	@sed -n '1,8p' Makefile | sed 's/^# \{0,1\}//'
	@echo "chapters here: $(CHAPTERS)"

clean:
	rm -rf $(BUILD)
