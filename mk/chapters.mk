# mk/chapters.mk — the chapters' starters and references: found by folder (a new chapter is a folder), built
# with the flags of mk/toolchain.mk, run by `make chapterN` / `make solutionN`.

# chapters/01-reversal/reversal.cu -> chapter number 1; chapters/10-x/x.cu -> 10 (two digits or more).
CHAPTER_DIRS := $(sort $(wildcard chapters/[0-9][0-9]-*))
chapter_num   = $(patsubst 0%,%,$(firstword $(subst -, ,$(notdir $(1)))))
CHAPTERS     := $(foreach d,$(CHAPTER_DIRS),$(call chapter_num,$(d)))
# $(call chapter_src,DIR,N): the .cu file of chapter N under chapters/ or solutions/ (N is 1, 2, … 10 …;
# the folder is 01-…, 09-…, 10-…).
chapter_src   = $(firstword $(wildcard $(1)/$(if $(filter 1 2 3 4 5 6 7 8 9,$(2)),0)$(2)-*/*.cu))
STARTERS     := $(addprefix $(BUILD)/chapter,$(CHAPTERS))
SOLUTIONS_PRESENT := $(foreach n,$(CHAPTERS),$(if $(call chapter_src,solutions,$(n)),$(n)))
SOLUTIONS    := $(addprefix $(BUILD)/solution,$(SOLUTIONS_PRESENT))
# Each chapter's own build facts, in its folder: LDLIBS_N, SOLFLAGS_N, ARCH_FEATURES_N (mk/toolchain.mk
# says what each does). A chapter without the file builds with the common flags.
CHAPTER_MKS  := $(wildcard $(addsuffix /chapter.mk,$(CHAPTER_DIRS)))
include $(CHAPTER_MKS)


.PHONY: all $(addprefix chapter,$(CHAPTERS)) $(addprefix solution,$(CHAPTERS))

all: $(STARTERS) $(SOLUTIONS) $(BUILD)/doctor $(if $(wildcard tools/gpu-keeper.cu),$(BUILD)/gpu-keeper)

# Each build depends on a stamp of its own whole command (mk/toolchain.mk's write_stamp): a flag changed
# in one chapter.mk rebuilds that chapter only, a SOLFLAGS_N its reference only, another ARCH all of them.
$(BUILD)/chapter%: $$(call chapter_src,chapters,$$*) $(wildcard common/*.h) $(BUILD)/.flags-chapter%
	$(call say,NVCC,$@)$(call starter_cmd,$*) -o $(ATMP) $< $(call chapter_libs,$*) $(PUBLISH)

$(BUILD)/solution%: $$(call chapter_src,solutions,$$*) $(wildcard common/*.h) $(BUILD)/.flags-solution%
	$(call say,NVCC,$@)$(call solution_cmd,$*) -o $(ATMP) $< $(call chapter_libs,$*) $(PUBLISH)

# The stamps, named as targets so that make keeps them (a file only a pattern rule makes is deleted).
$(addprefix $(BUILD)/.flags-chapter,$(CHAPTERS)): $(BUILD)/.flags-chapter%: FORCE
	$(call write_stamp,$(call starter_cmd,$*) $(call chapter_libs,$*))
$(addprefix $(BUILD)/.flags-solution,$(SOLUTIONS_PRESENT)): $(BUILD)/.flags-solution%: FORCE
	$(call write_stamp,$(call solution_cmd,$*) $(call chapter_libs,$*))

# Exit status 3 from a program means "no CUDA device"; make then reports "Error 3".
# Static pattern rules: make never applies implicit (pattern) rules to .PHONY targets, so a plain
# `chapter%:` rule would leave `make chapter5` with "Nothing to be done".
# ENGINE=slurm: built here, run on a cluster's GPU node (engine_run, mk/grader.mk).
$(addprefix chapter,$(CHAPTERS)): chapter%: $(BUILD)/chapter%
	$(engine_run) ./$< $(ARGS)

$(addprefix solution,$(SOLUTIONS_PRESENT)): solution%: $(BUILD)/solution%
	$(engine_run) ./$< $(ARGS)

# make new-chapter N=6 NAME=scan [WITH_MK=1]: a new chapter's scaffold and the checklist of what is left
# (scripts/new-chapter.sh; WITH_MK=1 writes its chapter.mk too).
.PHONY: new-chapter
new-chapter:
	$(course_only)
	@$(SCRIPTS)/new-chapter.sh $(call shq,$(N)) $(call shq,$(NAME)) $(if $(filter 1 yes true,$(WITH_MK)),1,0)

# Every reference, built and not run: what the grader times students beside.
.PHONY: references
references: $(SOLUTIONS) $(if $(SOLUTIONS),$(BUILD)/gpu-keeper)
	$(if $(SOLUTIONS),@:,$(error references: this copy has no reference solutions (solutions/ is not part of the student release)))

# The student release (and any copy without solutions/) has no references: say so (also under make -n).
$(addprefix solution,$(filter-out $(SOLUTIONS_PRESENT),$(CHAPTERS))) $(addprefix $(BUILD)/solution,$(filter-out $(SOLUTIONS_PRESENT),$(CHAPTERS))):
	$(error $@: this copy has no reference solution of chapter $(lastword $(subst n, ,$@)) (solutions/ is not part of the student release))

