# mk/grader.mk — the autograder: the judge (grading/, build/grade) and the course's program (course/,
# build/course, a class), the compile command the judge records, and the targets that run them.
# make grade SUB=dir|file.zip|file.tar.gz [OUT=dir] [CH=n] [SEEDS=a,b]   one submission
# make grade-class SUBS=dir [OUT=dir] [JOBS=n] [FORCE=1]                   a class (resumable)
# make check [CH=n]                                                        the student's practice run
# The grader compiles student code with the command recorded in build/grading-flags.json (the flags of
# mk/toolchain.mk: one source of truth; `make grading-flags` prints it). The rubric is grading/rubric.json
# (JSON, read with jansson).
GRADER      := $(BUILD)/grade
GRADING_FLAGS := $(BUILD)/grading-flags.json
GRADER_DEPS_PKGS := libjansson-dev libarchive-dev $(COURSE_LIB_PKGS)
# OUT counts only on make's command line: an OUT in the environment (common in shells and CI) must not
# send the reports elsewhere.
GRADE_ARGS   = $(if $(CH),--ch $(CH)) $(if $(SEEDS),--seeds $(SEEDS)) \
               $(if $(filter command line,$(origin OUT)),--out $(call shq,$(OUT))) \
               $(if $(JOBS),--jobs $(JOBS)) $(if $(FORCE),--force) $(if $(RUBRIC),--rubric $(call shq,$(RUBRIC))) $(GRADE_FLAGS)
# The class's course options (course/class.h): ROSTER=file.csv LMS=canvas|moodle|gradescope|plain (default: detected)
# SIMILARITY=off|PCT ASSIGNMENT="name of the Canvas column"
COURSE_ARGS  = $(if $(ROSTER),--roster $(call shq,$(ROSTER))) $(if $(LMS),--lms $(LMS)) \
               $(if $(filter off 0 no,$(SIMILARITY)),--no-similarity,$(if $(SIMILARITY),--similarity $(SIMILARITY))) \
               $(if $(ASSIGNMENT),--assignment $(call shq,$(ASSIGNMENT)))

.PHONY: grade grade-class check grading-flags grader-deps gpu-required

# The grader's libraries alone: the student release needs the grader for `make check`, not Criterion.
$(BUILD)/grading/.deps-ok: $(SCRIPTS)/probe/grader.c
	@mkdir -p $(@D)
	@$(call ensure_packages,$(CC) $< -o $(@D)/probe -ljansson -larchive $(COURSE_LIBS),$(GRADER_DEPS_PKGS),the grader)
	@touch $@

grader-deps: $(BUILD)/grading/.deps-ok

# An idle context on each GPU while the grader runs (tools/gpu-keeper.cu says why; grading/gpu.h starts it).
GPU_KEEPER := $(BUILD)/gpu-keeper
$(GPU_KEEPER): tools/gpu-keeper.cu $(FLAGS_STAMP)
	$(call say,NVCC,$@)$(NVCC) $(NVCCFLAGS) -o $(ATMP) $< $(PUBLISH)

$(GRADER): $(OBJ)/grading/grade.o $(LINK_GRADING) $(GRADING_FLAGS)
	$(call say,LD,$@)$(CC) -o $(ATMP) $< $(LINK_GRADING) $(SYSLIBS_GRADING) $(PUBLISH)

# The class on the judge (course/): the student release has no course/, hence no build/course.
COURSE_BIN := $(if $(LIB_COURSE),$(BUILD)/course)
ifneq ($(COURSE_BIN),)
$(COURSE_BIN): $(OBJ)/course/main.o $(LINK_COURSE) $(GRADING_FLAGS)
	$(call say,LD,$@)$(CC) -o $(ATMP) $< $(LINK_COURSE) $(SYSLIBS_GRADING) $(PUBLISH)
endif

# The compile command and the libraries, recorded for the grader (it reads this file instead of calling
# back into make); rewritten whenever the flags change. "sol_libs" are the chapters' speed-of-light
# libraries (LDLIBS_N): recorded, never linked to student code (grading/build.c). "chapter_nvcc" is the
# command of a chapter (by folder) whose build has arch flags for this GPU (ARCH_FEATURES_N: sm_90a on an
# H200): a student's build gets them as the reference's does; without a GPU and without ARCH, also what a
# grader's GPU would build (mk/toolchain.mk's grader_archflags: sm_80, sm_90), so make check compiles every
# path of the chapter.
json_str = "$(subst ",\",$(subst \,\\,$(1)))"
GRADING_FLAGS_JSON = {"nvcc": $(call json_str,$(NVCC) $(NVCCFLAGS)), "libs": {"default": $(call json_str,$(LDLIBS))}, \
  "sol_libs": {"comment": "never linked to student code"$(foreach n,$(CHAPTERS),$(if $(LDLIBS_$(n)),$(comma) "$(n)": $(call json_str,$(LDLIBS_$(n)))))}, \
  "chapter_nvcc": {"comment": "a chapter's own, with its arch flags"$(foreach d,$(CHAPTER_DIRS),$(if $(call \
    grader_archflags,$(call chapter_num,$(d))),$(comma) "$(notdir $(d))": $(call json_str,$(NVCC) $(NVCCFLAGS) $(call \
    grader_archflags,$(call chapter_num,$(d))))))}}
# Written only when its text changes, as the flags stamps are (a chapter.mk added or removed included).
$(GRADING_FLAGS): FORCE
	$(call write_stamp,$(GRADING_FLAGS_JSON))

grading-flags: $(GRADING_FLAGS)
	@cat $(GRADING_FLAGS)

# Grading needs a GPU here: say so before the references are compiled for it (ENGINE=slurm grades on the
# cluster's nodes, so there the submitting host needs none). build/doctor is the one probe: without a
# usable GPU it prints the reason and exits 3, the chapter programs' code (CONTRACT.md), which is passed
# on as the grader's own for it (report.h GR_EXIT_NO_GPU; tests/test_grading_build.c checks they agree).
GR_EXIT_NO_GPU := 6
GPU_REQUIRED = $(BUILD)/doctor >/dev/null || { rc=$$?; [ $$rc -eq 3 ] && exit $(GR_EXIT_NO_GPU); exit $$rc; }
gpu-required: $(BUILD)/doctor
	@$(GPU_REQUIRED)

# The order of a grading target, so that what the user sees is the grader's code: the grader (it needs no
# GPU to build) checks the command line and the paths it names (`grade --validate`: exit 2 and one line),
# then the GPU (exit 6), then the references are built and the grading runs. Each step is a command of
# the target's own recipe, not a make within make, so make ends with "Error N", N the grader's code (make
# itself then exits 2; README's table).

# The grader and the GPU probe built without a line of their own, so that the first line a user sees is
# the grader's answer (issue 40: a mistyped path named in the first line, not after 60 build lines); a
# failed build shows its whole log. The log's name is this shell's own: two makes at once never share it.
build_quietly = mkdir -p $(BUILD) && log=$(BUILD)/.build-$$$$.log && \
  if $(MAKE) -s --no-print-directory $(1) > $$log 2>&1; then rm -f $$log; else cat $$log >&2; rm -f $$log; exit 2; fi

grade:
	$(course_only)
	@if [ -z $(call shq,$(SUB)) ]; then echo "usage: make grade SUB=dir|file.zip|file.tar.gz [OUT=dir] [CH=n] [SEEDS=a,b]" >&2; exit 2; fi
	@$(call build_quietly,$(GRADER) $(BUILD)/doctor)
	@./$(GRADER) --validate --quiet $(GRADE_ARGS) $(call shq,$(SUB))
	@$(GPU_REQUIRED)
	@$(MAKE) --no-print-directory $(SOLUTIONS) $(GPU_KEEPER)
	./$(GRADER) $(GRADE_ARGS) $(call shq,$(SUB))

# ENGINE=slurm [PARTITION=p] [GRES=gpu:1] [TIME=minutes]: one job array on the cluster (course/slurm.h);
# it waits for the merge job, so the target ends when the class is graded.
ENGINE ?= local
SLURM_ARGS = --engine $(ENGINE) $(if $(PARTITION),--partition $(PARTITION)) $(if $(GRES),--gres $(GRES)) $(if $(TIME),--time $(TIME))
# ENGINE=slurm for one program (make chapterN, solutionN) or make check, from a cluster's login node: the
# command runs on a node through srun with the class's PARTITION, GRES (e.g. gpu:1) and TIME (minutes, 60
# as for a class); srun passes its output on and exits with its exit code. Expanded in recipes only (when
# the target runs, so reading the Makefile still runs no tool): "" when local.
engine_run = $(if $(filter slurm,$(ENGINE)),$(if $(shell command -v srun),,$(error ENGINE=slurm: no srun here (run it on the cluster's login node)))srun --quiet \
               $(if $(PARTITION),--partition=$(call shq,$(PARTITION))) $(if $(GRES),--gres=$(call shq,$(GRES))) --time=$(or $(TIME),60),$(if \
               $(filter-out local,$(ENGINE)),$(error ENGINE is local or slurm, not $(ENGINE))))
grade-class:
	$(course_only)
	@if [ -z $(call shq,$(SUBS)) ]; then echo "usage: make grade-class SUBS=dir [OUT=dir] [JOBS=n] [FORCE=1] [ROSTER=csv] [LMS=canvas|moodle|gradescope|plain] [SIMILARITY=off|PCT] [ASSIGNMENT=name] [ENGINE=local|slurm PARTITION=p GRES=gpu:1]" >&2; exit 2; fi
	@$(call build_quietly,$(GRADER) $(COURSE_BIN) $(BUILD)/doctor)
	@./$(COURSE_BIN) --validate $(GRADE_ARGS) $(COURSE_ARGS) --class $(call shq,$(SUBS))
	@$(if $(filter slurm,$(ENGINE)),true,$(GPU_REQUIRED))
	@$(MAKE) --no-print-directory $(SOLUTIONS) $(GPU_KEEPER)
	./$(COURSE_BIN) $(GRADE_ARGS) $(COURSE_ARGS) $(SLURM_ARGS) --class $(call shq,$(SUBS))

# make check needs no GPU: without one the grader runs what needs none and says what it did not check
# (grading/check.h; exits 7 or 8). With one, the references are built where this copy has them (the
# course repository), so the student's code is timed beside them as the grader will; the student release
# has none.
CHECK_REFS = $(if $(CH),$(filter $(BUILD)/solution$(CH),$(SOLUTIONS)),$(SOLUTIONS))
# ENGINE=slurm: built here, the grader runs on a node (it compiles there: the node needs nvcc).
check: $(BUILD)/doctor
	@$(MAKE) --no-print-directory $(GRADER)
	@$(if $(CHECK_REFS),if $(if $(filter slurm,$(ENGINE)),true,$(BUILD)/doctor >/dev/null 2>&1); then $(MAKE) --no-print-directory $(CHECK_REFS); fi,:)
	$(engine_run) ./$(GRADER) $(GRADE_ARGS) --check

