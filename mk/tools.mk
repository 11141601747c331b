# mk/tools.mk — the course's C tools (tools/): the look-inside tool and its targets (sass, resources,
# sanitize, profile), the mutation tool with `make diagnose-mutants`, and the starters' generator with
# `make starters`. The results tool is the handouts' (mk/handouts.mk); the libraries they link are in
# mk/libs.mk.

# make sass CH=N [V=variant] [SOLUTION=1]   the SASS of the variant's kernels, a legend of the instructions
#                                           that matter and a count per kind (PTX when cuobjdump is missing)
# make resources CH=N [V=..] [SOLUTION=1] [ALL=1] [BLOCK=n] [DSMEM=bytes]
#                                           registers, shared memory, stack and spills per kernel, and the
#                                           occupancy they allow on this GPU at the block each variant
#                                           launches (BLOCK/DSMEM: what if, for every kernel), with the
#                                           limiting resource; ALL=1: the harness's kernels too
# make sanitize [CH=N] [V=..] [SOLUTION=1] [SIZE=..] [JOBS=4]
#                                           (GPU) compute-sanitizer memcheck, racecheck, synccheck, initcheck
#                                           at a small odd size, one line per tool and variant; no CH: all
# make profile CH=N V=variant [SOLUTION=1] [SIZE=..]
#                                           (GPU) Nsight Compute: a short summary; the full report is kept
#                                           in build/profile/ for the Nsight Compute GUI
# Without SOLUTION=1 they look at your code (chapters/); with it, at the reference (solutions/).
# sass, resources and profile's ptxas -v compile for one architecture, LI_ARCH: this GPU's; without a
# GPU the H100's (sm_90, the GPU the course is timed on), unless ARCH=sm_NN is given.
INSPECT     := $(BUILD)/inspect
LI_SOL      := $(filter 1 yes true,$(SOLUTION))
LI_KIND     := $(if $(LI_SOL),solution,chapter)
LI_DIR      := $(if $(LI_SOL),solutions,chapters)
LI_VALID    := $(strip $(if $(LI_SOL),$(SOLUTIONS_PRESENT),$(CHAPTERS)))
LI_PROG      = $(BUILD)/$(LI_KIND)$(CH)
LI_SRC       = $(call chapter_src,$(LI_DIR),$(CH))
LI_OUT       = $(BUILD)/look/$(LI_KIND)$(CH)
LI_ARCH      = $(if $(DETECTED_CC),$(ARCH),$(if $(filter file,$(origin ARCH)),sm_90,$(ARCH)))
LI_ARCH_NUM  = $(patsubst sm_%,%,$(patsubst compute_%,%,$(LI_ARCH)))
LI_DEVFLAGS  = $(filter-out -gencode=%,$(NVCCFLAGS))
CUOBJDUMP   ?= $(or $(shell command -v cuobjdump 2>/dev/null),$(wildcard $(CUDA_TOP)/bin/cuobjdump))
LI_VARG      = $(if $(filter-out 1,$(V)),--variant '$(V)')
LI_SIZEARG   = $(if $(SIZE),--size '$(SIZE)')

# A bad or missing CH gets the list of valid ones; a bad V the chapter's variants, read from its
# chapter.json (where the grader reads them too; V=1 is make's verbose switch, `all` every variant). Both
# before anything is built or the GPU is asked: exit 2, one line.
define LI_CHECK_CH
$(if $(LI_SOL),$(if $(strip $(SOLUTIONS_PRESENT)),,echo "SOLUTION=1 looks at the reference solutions, and this copy has none (solutions/ is not part of the student release): leave SOLUTION=1 out to look at your own code (chapters/)" >&2; exit 2;)) \
case "$(CH)" in ''|*[!0-9]*) ok=;; *) ok="$(filter $(CH),$(LI_VALID))";; esac; \
if [ -z "$$ok" ]; then \
  echo "CH='$(CH)' is not a chapter$(if $(LI_SOL), with a solution); valid: $(LI_VALID)" >&2; exit 2; fi
endef
LI_FACTS = $(dir $(call chapter_src,chapters,$(CH)))chapter.json
define LI_CHECK_V
if [ -n $(call shq,$(filter-out 1 all,$(V))) ]; then \
  names=$$(sed -n 's/^ *"name": *"\([^"]*\)".*/\1/p' $(call shq,$(LI_FACTS))); \
  for v in $$(printf '%s' $(call shq,$(V)) | tr ',' ' '); do \
    printf '%s\n' "$$names" | grep -qxF -- "$$v" || { \
      echo "V='$$v' is not a variant of chapter $(CH); valid: $$(echo $$names)" >&2; exit 2; }; \
  done; fi
endef
# ptxas -v for one architecture, from the chapter's source (only device code is compiled: seconds).
define LI_PTXAS
$(NVCC) -cubin $(LI_DEVFLAGS) -arch=$(LI_ARCH) -Xptxas -v -o $(LI_OUT)-$(LI_ARCH).cubin $(LI_SRC) \
  2> $(LI_OUT)-$(LI_ARCH).ptxas || { cat $(LI_OUT)-$(LI_ARCH).ptxas >&2; exit 1; }
endef

.PHONY: sass resources sanitize profile

# tools/inspect/: the look-inside tool (its README has the module map): inspect.c's main and the CUDA
# probe gpu.cu, over libinspect.a (whose parsers the test runner checks on captured output). gpu.cu is
# compiled in the link, hence the headers it may include as prerequisites.
INSPECT_CU := $(wildcard tools/inspect/*.cu)
$(INSPECT): $(OBJ)/tools/inspect/inspect.o $(INSPECT_CU) $(wildcard tools/inspect/*.h common/*.h) $(LINK_INSPECT) \
            | $(BUILD)/tests/.deps-ok
	$(call say,NVCC,$@)$(NVCC) -O2 $(INC_INSPECT) -Xcompiler -Wall,-Wextra -o $(ATMP) $< $(INSPECT_CU) $(LINK_INSPECT) $(SYSLIBS_GRADING) $(PUBLISH)

sass:
	@$(LI_CHECK_CH)
	@$(LI_CHECK_V)
	@$(MAKE) -s --no-print-directory $(INSPECT) $(LI_PROG)
	@mkdir -p $(BUILD)/look
	@if [ -n "$(CUOBJDUMP)" ]; then \
	  $(LI_PTXAS); \
	  $(CUOBJDUMP) -sass $(LI_OUT)-$(LI_ARCH).cubin > $(LI_OUT)-$(LI_ARCH).sass && \
	  $(INSPECT) sass --program $(LI_PROG) --listing $(LI_OUT)-$(LI_ARCH).sass $(LI_VARG); \
	else \
	  $(NVCC) -ptx $(LI_DEVFLAGS) -arch=compute_$(LI_ARCH_NUM) -o $(LI_OUT)-$(LI_ARCH).ptx $(LI_SRC) && \
	  $(INSPECT) sass --program $(LI_PROG) --listing $(LI_OUT)-$(LI_ARCH).ptx $(LI_VARG); \
	fi

resources:
	@$(LI_CHECK_CH)
	@$(LI_CHECK_V)
	@$(MAKE) -s --no-print-directory $(INSPECT) $(LI_PROG)
	@mkdir -p $(BUILD)/look
	@$(LI_PTXAS)
	@$(INSPECT) resources --program $(LI_PROG) --ptxas $(LI_OUT)-$(LI_ARCH).ptxas --arch $(LI_ARCH) \
	  $(if $(BLOCK),--block '$(BLOCK)') $(if $(DSMEM),--dsmem '$(DSMEM)') $(if $(filter 1 yes true,$(ALL)),--all) $(LI_VARG)

sanitize:
	@if [ -n "$(filter-out 1,$(V))" ] && [ -z "$(CH)" ]; then echo "V= needs CH= (variant names differ by chapter)" >&2; exit 2; fi
	@if [ -n "$(CH)" ]; then $(LI_CHECK_CH); $(LI_CHECK_V); fi
	@$(MAKE) -s --no-print-directory $(INSPECT)
	@$(INSPECT) gpu --check --label "make sanitize"
	@fail=0; for n in $(if $(CH),$(CH),$(LI_VALID)); do \
	  $(MAKE) -s --no-print-directory $(BUILD)/$(LI_KIND)$$n || { fail=1; continue; }; \
	  $(INSPECT) sanitize --program $(BUILD)/$(LI_KIND)$$n --label "chapter $$n ($(LI_KIND))" $(LI_VARG) \
	    $(LI_SIZEARG) $(if $(JOBS),--jobs $(JOBS)) || fail=1; \
	done; exit $$fail

profile:
	@$(LI_CHECK_CH)
	@$(LI_CHECK_V)
	@$(MAKE) -s --no-print-directory $(INSPECT) $(LI_PROG)
	@mkdir -p $(BUILD)/look $(BUILD)/profile
	@$(LI_PTXAS)
	@$(INSPECT) profile --program $(LI_PROG) $(LI_VARG) --report $(BUILD)/profile/$(LI_KIND)$(CH)-$(or $(V),none) \
	  --ptxas $(LI_OUT)-$(LI_ARCH).ptxas $(LI_SIZEARG)

# The occupancy cross-check of tests/test_inspect_run.c: ptxas -v of the planted program, for its own arch.
$(BUILD)/planted/inspect_occupancy.ptxas: tests/planted/inspect_occupancy.cu $(wildcard common/*.h) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(call say,PTXAS,$@)$(NVCC) -cubin $(LI_DEVFLAGS) -arch=sm_$(ARCH_NUM) -Xptxas -v -o $(@:.ptxas=.cubin) $< 2> $@ || { cat $@ >&2; exit 1; }

# tests/test_inspect.c compares the occupancy formula with CUDA's cuda_occupancy.h (plain C).
$(BUILD)/tests/test_inspect.o: CFLAGS += $(if $(CUDA_INCLUDE),-I$(dir $(CUDA_INCLUDE)),$(error \
  cuda_occupancy.h not found under nvcc's toolkit root '$(CUDA_TOP)' (is $(NVCC) a CUDA toolkit nvcc?)))

# make diagnose-mutants [CH=n] [JOBS=j]: mutants of the reference solutions' regions (tools/mutate/) graded as
# a class, then the confusion table intended x named, and the slow mutants' own (cause intended x named from
# the counters). The slow classes (gr_bug_is_perf) and the correct alternatives marked "perf" are graded with
# perf, the rest with --no-perf; each mutant holds one chapter, so CH only picks whose.
MUTATE      := $(BUILD)/mutate
MUTANTS     := $(BUILD)/mutants
MUTANT_JOBS ?= $(or $(JOBS),6)
# one fixed seed: half the correctness runs of a grading, and a table that can be replayed
MUTANT_SEED ?= 20261123
$(MUTATE): $(OBJ)/tools/mutate/mutate.o $(LINK_MUTATE)
	$(call say,LD,$@)$(CC) -o $(ATMP) $< $(LINK_MUTATE) $(SYSLIBS_GRADING) $(PUBLISH)
.PHONY: diagnose-mutants
diagnose-mutants:
	$(course_only)
	@$(MAKE) -s --no-print-directory $(BUILD)/doctor
	@$(GPU_REQUIRED)
	@$(MAKE) --no-print-directory $(GRADER) $(COURSE_BIN) $(MUTATE) $(SOLUTIONS)
	./$(MUTATE) --out $(MUTANTS) $(if $(CH),--ch $(CH))
	-./$(COURSE_BIN) --class $(MUTANTS)/subs --out $(MUTANTS)/out --no-perf --jobs $(MUTANT_JOBS) --seeds $(MUTANT_SEED) $(if $(CH),--ch $(CH)) >/dev/null
	@if [ -d $(MUTANTS)/subs-perf ]; then set -x; ./$(COURSE_BIN) --class $(MUTANTS)/subs-perf --out $(MUTANTS)/out-perf --jobs 1 --seeds $(MUTANT_SEED) $(if $(CH),--ch $(CH)) >/dev/null; fi
	./$(MUTATE) --report $(MUTANTS)


# make starters [CHECK=1]: every chapter's starter (chapters/NN-name/name.cu) made from its reference
# (solutions/NN-name/name.cu): each region's `//| ` hint lines become the starter's region (tools/starter/);
# a starter is never edited by hand. CHECK=1 writes nothing and names each starter that differs (exit 1);
# a bad reference (a region without a hint line, unbalanced markers) or a chapter without one: one line
# naming the file and line, nothing written. tests/test_starters.c fails when a committed starter differs.
STARTER_GEN := $(BUILD)/starter
$(STARTER_GEN): $(OBJ)/tools/starter/main.o $(LINK_STARTER)
	$(call say,LD,$@)$(CC) -o $(ATMP) $< $(LINK_STARTER) $(SYSLIBS_GRADING) $(PUBLISH)
.PHONY: starters
starters:
	$(course_only)
	@$(MAKE) -s --no-print-directory $(STARTER_GEN)
	@./$(STARTER_GEN) $(if $(filter 1 yes true,$(CHECK)),--check)
