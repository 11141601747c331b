# mk/chapters.mk — the chapters' starters and references: found by folder (a new chapter is a folder), built
# with the flags of mk/toolchain.mk, run by `make chapterN` / `make solutionN`.

# chapters/01-reversal/reversal.cu -> chapter number 1; chapters/10-x/x.cu -> 10 (two digits or more).
CHAPTER_DIRS := $(sort $(wildcard chapters/[0-9][0-9]-*))
CHAPTERS     := $(foreach d,$(CHAPTER_DIRS),$(patsubst 0%,%,$(firstword $(subst -, ,$(notdir $(d))))))
# $(call chapter_src,DIR,N): the .cu file of chapter N under chapters/ or solutions/ (N is 1, 2, … 10 …;
# the folder is 01-…, 09-…, 10-…).
chapter_src   = $(firstword $(wildcard $(1)/$(if $(filter 1 2 3 4 5 6 7 8 9,$(2)),0)$(2)-*/*.cu))
STARTERS     := $(addprefix $(BUILD)/chapter,$(CHAPTERS))
SOLUTIONS_PRESENT := $(foreach n,$(CHAPTERS),$(if $(call chapter_src,solutions,$(n)),$(n)))
SOLUTIONS    := $(addprefix $(BUILD)/solution,$(SOLUTIONS_PRESENT))


.PHONY: all $(addprefix chapter,$(CHAPTERS)) $(addprefix solution,$(CHAPTERS))

all: $(STARTERS) $(SOLUTIONS) $(BUILD)/doctor $(if $(wildcard tools/gpu-keeper.cu),$(BUILD)/gpu-keeper)

$(BUILD)/chapter%: $$(call chapter_src,chapters,$$*) $(wildcard common/*.h) $(FLAGS_STAMP)
	$(call say,NVCC,$@)$(NVCC) $(NVCCFLAGS) $(ARCHFLAGS_$*) -o $(ATMP) $< $(LDLIBS) $(LDLIBS_$*) $(PUBLISH)

# The reference build's own flags: chapter 3's also times CUB for its speed-of-light row, whose headers
# cost about 10 s of compiling that a student's build of the starter need not pay.
SOLFLAGS_3 := -DWB_CUB
$(BUILD)/solution%: $$(call chapter_src,solutions,$$*) $(wildcard common/*.h) $(FLAGS_STAMP)
	$(call say,NVCC,$@)$(NVCC) $(NVCCFLAGS) $(ARCHFLAGS_$*) $(SOLFLAGS_$*) -o $(ATMP) $< $(LDLIBS) $(LDLIBS_$*) $(PUBLISH)

# Exit status 3 from a program means "no CUDA device"; make then reports "Error 3".
# Static pattern rules: make never applies implicit (pattern) rules to .PHONY targets, so a plain
# `chapter%:` rule would leave `make chapter5` with "Nothing to be done".
# ENGINE=slurm: built here, run on a cluster's GPU node (engine_run, mk/grader.mk).
$(addprefix chapter,$(CHAPTERS)): chapter%: $(BUILD)/chapter%
	$(engine_run) ./$< $(ARGS)

$(addprefix solution,$(SOLUTIONS_PRESENT)): solution%: $(BUILD)/solution%
	$(engine_run) ./$< $(ARGS)

# Every reference, built and not run: what the grader times students beside.
.PHONY: references
references: $(SOLUTIONS) $(if $(SOLUTIONS),$(BUILD)/gpu-keeper)
	$(if $(SOLUTIONS),@:,$(error references: this copy has no reference solutions (solutions/ is not part of the student release)))

# The student release (and any copy without solutions/) has no references: say so (also under make -n).
$(addprefix solution,$(filter-out $(SOLUTIONS_PRESENT),$(CHAPTERS))) $(addprefix $(BUILD)/solution,$(filter-out $(SOLUTIONS_PRESENT),$(CHAPTERS))):
	$(error $@: this copy has no reference solution of chapter $(lastword $(subst n, ,$@)) (solutions/ is not part of the student release))

