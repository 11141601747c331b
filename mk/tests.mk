# mk/tests.mk — `make test`: the test runner (Criterion), the planted CUDA programs, the test cases'
# generator, the packages they need, and the run itself (scripts/test.sh). tests/README.md maps the tests.
# Override to build a subset, e.g. make test CHAPTERS=4 TEST_SRCS="tests/test_common.c tests/test_ch4.c"
TEST_SRCS ?= $(wildcard tests/test_*.c)
# Not into the tests' environment: a test that runs make in another tree (the student release) must get
# that tree's own test list, not this subset (a command-line variable is exported otherwise).
unexport TEST_SRCS
TEST_OBJS := $(patsubst tests/%.c,$(BUILD)/tests/%.o,$(TEST_SRCS))
TEST_DEPS_PKGS := libcriterion-dev libjansson-dev libarchive-dev $(COURSE_LIB_PKGS) libpng-dev
# CUDA programs with planted bugs that the tests run under compute-sanitizer.
PLANTED   := $(patsubst tests/planted/%.cu,$(BUILD)/planted/%,$(wildcard tests/planted/*.cu))

.PHONY: test deps slurm-deps course-deps isolation-deps packages

# The tests test every module: they include every folder (each of them only its own, mk/libs.mk).
$(BUILD)/tests/%.o: INCLUDES = $(INC_COURSE) -Itools/inspect -Itools/results -Itools/mutate -Itools/starter
$(BUILD)/tests/%.o: tests/%.c | $(BUILD)/tests/.deps-ok
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS) $(INCLUDES) $(DEPFLAGS) -c -o $(ATMP) $< $(PUBLISH)
-include $(wildcard $(BUILD)/tests/*.d)
# A test object without its .d (built by a Makefile from before -MMD, in the same build/tests/) knows no
# header it was built from: rebuilt once, or it keeps an old struct layout (seen: rubric.h changed, 43
# tests failed on a stale object).
$(foreach o,$(TEST_OBJS),$(if $(wildcard $(o:.o=.d)),,$(eval $(o): FORCE)))

# -no-pie: Criterion runs each test in a re-executed copy of the runner and hands it the parameters
# byte for byte, so pointers in them (variant names) must mean the same in every copy.
TEST_STAMP := $(BUILD)/.tests
$(TEST_STAMP): FORCE
	@mkdir -p $(@D) && echo '$(TEST_OBJS)' | cmp -s - $@ || { echo '$(TEST_OBJS)' > $(ATMP) $(PUBLISH); }

$(BUILD)/test-runner: $(TEST_OBJS) $(TEST_STAMP) $(LINK_ALL)
	$(call say,LD,$@)$(CC) -no-pie -o $(ATMP) $(TEST_OBJS) $(LINK_ALL) -lcriterion $(SYSLIBS_GRADING) -lpng $(PUBLISH)

$(BUILD)/planted/%: tests/planted/%.cu $(wildcard common/*.h) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(call say,NVCC,$@)$(NVCC) $(NVCCFLAGS) -o $(ATMP) $< $(LDLIBS) $(PUBLISH)

# The test cases (tests/cases/, not in the student release): build/case-gen writes a suite's cases as
# submissions; the bug corpora are written once here, as the classes the tests grade (build/cases/bugs/chN:
# chapter 1's, and the fake chapter 9's that the tests without a GPU grade), the other suites by their tests.
CASE_GEN := $(BUILD)/case-gen
$(OBJ)/tests/cases/%.o: INCLUDES = $(INC_GRADING)
$(CASE_GEN): $(OBJ)/tests/cases/case-gen.o $(LINK_GRADING)
	$(call say,LD,$@)$(CC) -o $(ATMP) $< $(LINK_GRADING) $(SYSLIBS_GRADING) $(PUBLISH)
CASES_BUGS := $(BUILD)/cases/bugs/.stamp
# (a suite's folder among the prerequisites: a case removed is a case no longer in the class)
$(CASES_BUGS): $(CASE_GEN) $(wildcard tests/cases/*/bugs tests/cases/*/bugs/* solutions/*/*.cu chapters/*/*.cu \
                                      tests/grading/fake/*/*/*.cu)
	$(call say,GEN,$(@D))rm -rf $(@D) && ./$(CASE_GEN) bugs $(@D) >/dev/null && touch $@

$(BUILD)/tests/.deps-ok: $(SCRIPTS)/probe/tests.c $(SCRIPTS)/probe/grader.c
	@mkdir -p $(@D)
	@$(call ensure_packages,$(CC) $< -o $(@D)/probe -lcriterion -ljansson -larchive $(COURSE_LIBS) -lpng,$(TEST_DEPS_PKGS),make test)
	@touch $@

# The Slurm test (tests/test_slurm.c) needs a real single-node cluster: installed when root, else the
# command is printed and that test skips with the reason (hence '-': not a failure of make test).
SLURM_TEST_PKGS := slurm-wlm munge
slurm-deps:
	-@$(call ensure_packages,command -v slurmctld && command -v slurmd && command -v sbatch && command -v munged,$(SLURM_TEST_PKGS),the Slurm test)

# The course pages' tools (course/class.h): sim_c (similarity-tester), gnuplot, and headless Chromium for
# the pages' rendering test. Optional like Slurm: without them the pages say what is left out, and the
# Chromium test skips with the reason.
COURSE_TOOL_PKGS := similarity-tester gnuplot-nox chromium
course-deps:
	-@$(call ensure_packages,command -v sim_c && command -v gnuplot && command -v chromium,$(COURSE_TOOL_PKGS),the course pages)

# The grader's sandbox for a plain user (grading/isolation.h): bubblewrap. Optional like Slurm: root grades
# with run uids without it, and where the grader refuses, the tests that grade skip with its reason.
ISOLATION_PKGS := bubblewrap
isolation-deps:
	-@$(call ensure_packages,command -v bwrap,$(ISOLATION_PKGS),the grader's sandbox for a plain user)

deps: $(BUILD)/tests/.deps-ok slurm-deps course-deps isolation-deps

# Every Debian package a target installs, by what needs it: the README's requirements name each one
# (tests/test_makefile.c compares them).
packages:
	@printf '%s: %s\n' 'make test' '$(TEST_DEPS_PKGS)' 'the grader' '$(GRADER_DEPS_PKGS)' \
	  "the grader's sandbox" '$(ISOLATION_PKGS)' 'the Slurm test' '$(SLURM_TEST_PKGS)' \
	  'the course pages' '$(COURSE_TOOL_PKGS)' 'make handouts' '$(HANDOUT_DEPS_PKGS)'

# Every prerequisite of `make test`, here and nowhere else.
TEST_PREREQS = deps all $(PLANTED) $(BUILD)/test-runner $(INSPECT) $(GRADER) $(COURSE_BIN) \
               $(if $(wildcard tests/planted/inspect_occupancy.cu),$(BUILD)/planted/inspect_occupancy.ptxas) \
               $(if $(wildcard tests/cases/case-gen.c),$(CASE_GEN) $(CASES_BUGS)) \
               $(if $(wildcard tests/test_mutate.c),$(MUTATE)) $(if $(wildcard tests/test_starters.c),$(STARTER_GEN))
# Every temporary file of the suite goes to TEST_TMP (TMPDIR for the runner and all it starts: the
# tests' wbt_tmpdir, nvcc, the grader; also the grader's GPU lock files unless WB_GRADE_LOCK_DIR is
# set), which is removed after the run whatever the tests did. Then the suite fails if it left an entry
# in /tmp (TMP_CHECK=0: only warn): as root in a private /tmp of the run's own (a mount namespace), else
# among the new entries owned by the runner's uid (TMP_PRIVATE=0 asks for that rule as root); the
# progress per suite and the counts on every run are scripts/test.sh's too.
TEST_TMP  := $(BUILD)/tmp
TMP_CHECK ?= 1
TMP_PRIVATE ?= 1
# Criterion's synthesis line leaves skipped tests out; the TAP report says which were skipped and why.
# REQUIRE_GPU=1 (on a GPU machine) turns the skip of any GPU test into a failure; other skips (a real
# Slurm that cannot start on that machine, say) are listed with their reasons (scripts/test-skips.sh).
REQUIRE_GPU ?= 0
test: $$(TEST_PREREQS)
	@TMP_CHECK=$(call shq,$(TMP_CHECK)) TMP_PRIVATE=$(call shq,$(TMP_PRIVATE)) REQUIRE_GPU=$(call shq,$(REQUIRE_GPU)) \
	  $(SCRIPTS)/test.sh $(call shq,$(BUILD)/test-runner) $(call shq,$(BUILD)/test-results.tap) $(call shq,$(TEST_TMP))
