# mk/libs.mk — the C libraries, one per folder, and the objects of the C files (the tests' own: mk/tests.mk).
#
# Each folder's library holds every .c file in it (a new file is in it without an edit here) except its
# program's main file; a program links its own library and the ones it uses, the test runner all of them:
#
#   library                    from                                 uses
#   build/lib/libwbcommon.a    common/*.c                           -
#   build/lib/libgrading.a     grading/*.c but grade.c              common
#   build/lib/libcourse.a      course/*.c but main.c                grading, common (not in the release)
#   build/lib/libinspect.a     tools/inspect/*.c but inspect.c      grading (regions, sanitizer), common
#   build/lib/libwbresults.a   tools/results/*.c but main.c         common
#   build/lib/libmutate.a      tools/mutate/*.c but mutate.c        starter, grading, common (not in the release)
#   build/lib/libstarter.a     tools/starter/*.c but main.c         grading (regions, chapters), common (not in the release)
#
# Objects go to build/obj/<the source's path>.o; the include paths are the folder's own and those of the
# libraries it uses, nothing else.
OBJ := $(BUILD)/obj
LIBDIR := $(BUILD)/lib
objs_of = $(patsubst %.c,$(OBJ)/%.o,$(1))

LIB_COMMON_SRCS  := $(wildcard common/*.c)
LIB_GRADING_SRCS := $(filter-out grading/grade.c,$(wildcard grading/*.c))
# The class, the LMS layouts and the pages: the student release has no course/ (release/allow-list).
LIB_COURSE_SRCS  := $(filter-out course/main.c,$(wildcard course/*.c))
LIB_INSPECT_SRCS := $(filter-out tools/inspect/inspect.c,$(wildcard tools/inspect/*.c))
LIB_RESULTS_SRCS := $(filter-out tools/results/main.c,$(wildcard tools/results/*.c))
# The mutation tool quotes solution lines: the student release has no tools/mutate/ (release/allow-list).
LIB_MUTATE_SRCS  := $(filter-out tools/mutate/mutate.c,$(wildcard tools/mutate/*.c))
# The starters' generator reads the references: the student release has no tools/starter/ either.
LIB_STARTER_SRCS := $(filter-out tools/starter/main.c,$(wildcard tools/starter/*.c))

LIB_COMMON  := $(LIBDIR)/libwbcommon.a
LIB_GRADING := $(LIBDIR)/libgrading.a
LIB_COURSE  := $(if $(LIB_COURSE_SRCS),$(LIBDIR)/libcourse.a)
LIB_INSPECT := $(LIBDIR)/libinspect.a
LIB_RESULTS := $(LIBDIR)/libwbresults.a
LIB_MUTATE  := $(if $(LIB_MUTATE_SRCS),$(LIBDIR)/libmutate.a)
LIB_STARTER := $(if $(LIB_STARTER_SRCS),$(LIBDIR)/libstarter.a)

$(LIB_COMMON):  $(call objs_of,$(LIB_COMMON_SRCS))
$(LIB_GRADING): $(call objs_of,$(LIB_GRADING_SRCS))
ifneq ($(LIB_COURSE),)
$(LIB_COURSE):  $(call objs_of,$(LIB_COURSE_SRCS))
endif
$(LIB_INSPECT): $(call objs_of,$(LIB_INSPECT_SRCS))
$(LIB_RESULTS): $(call objs_of,$(LIB_RESULTS_SRCS))
ifneq ($(LIB_MUTATE),)
$(LIB_MUTATE):  $(call objs_of,$(LIB_MUTATE_SRCS))
endif
ifneq ($(LIB_STARTER),)
$(LIB_STARTER): $(call objs_of,$(LIB_STARTER_SRCS))
endif
ALL_LIBS := $(LIB_MUTATE) $(LIB_STARTER) $(LIB_COURSE) $(LIB_INSPECT) $(LIB_RESULTS) $(LIB_GRADING) $(LIB_COMMON)
$(ALL_LIBS):
	@mkdir -p $(@D)
	$(call say,AR,$@)rm -f $(ATMP) && ar rcs $(ATMP) $^ $(PUBLISH)

# What a program links, in link order (a library before the ones it uses).
LINK_GRADING := $(LIB_GRADING) $(LIB_COMMON)
LINK_COURSE  := $(LIB_COURSE) $(LINK_GRADING)
LINK_INSPECT := $(LIB_INSPECT) $(LINK_GRADING)
LINK_RESULTS := $(LIB_RESULTS) $(LIB_COMMON)
LINK_STARTER := $(LIB_STARTER) $(LINK_GRADING)
# the mutator skips the references' hint lines as the starters' generator reads them (st_hint_line)
LINK_MUTATE  := $(LIB_MUTATE) $(LINK_STARTER)
LINK_ALL     := $(ALL_LIBS)
# The system libraries under each (Debian packages), linked with it wherever it is, so that a module that
# starts using one of them needs no edit of its users' links: jansson and libm under common/; libarchive
# for submissions and Markdown to HTML (feedback.html) under grading/; the roster CSV and Gradescope's
# YAML under course/.
COURSE_LIB_PKGS := libcsv-dev libyaml-dev libcmark-gfm-dev libcmark-gfm-extensions-dev
COURSE_LIBS     := -lcsv -lyaml -lcmark-gfm-extensions -lcmark-gfm
SYSLIBS_COMMON  := -ljansson -lm
SYSLIBS_GRADING := -larchive $(COURSE_LIBS) $(SYSLIBS_COMMON)

# Include paths by folder: what the folder's own files and its tests include.
INC_COMMON  := -Icommon
INC_GRADING := $(INC_COMMON) -Igrading
INC_COURSE  := $(INC_GRADING) -Icourse
INC_INSPECT := $(INC_GRADING) -Itools/inspect
INC_RESULTS := $(INC_COMMON) -Itools/results
INC_STARTER := $(INC_GRADING) -Itools/starter
INC_MUTATE  := $(INC_STARTER) -Itools/mutate
$(OBJ)/common/%.o:        INCLUDES = $(INC_COMMON)
$(OBJ)/grading/%.o:       INCLUDES = $(INC_GRADING)
$(OBJ)/course/%.o:        INCLUDES = $(INC_COURSE)
$(OBJ)/tools/inspect/%.o: INCLUDES = $(INC_INSPECT)
$(OBJ)/tools/results/%.o: INCLUDES = $(INC_RESULTS)
$(OBJ)/tools/mutate/%.o:  INCLUDES = $(INC_MUTATE)
$(OBJ)/tools/starter/%.o: INCLUDES = $(INC_STARTER)

# snprintf truncation of over-long paths and messages is deliberate in the grader and the tools:
# -Wno-format-truncation. Needs jansson and libarchive's headers: the grader's probe installs them.
$(OBJ)/%.o: %.c | $(BUILD)/grading/.deps-ok
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS) $(INCLUDES) -Wno-format-truncation $(DEPFLAGS) -c -o $(ATMP) $< $(PUBLISH)

# Header dependencies written by the compiler (-MMD), for the objects built so far.
-include $(wildcard $(OBJ)/*/*.d $(OBJ)/*/*/*.d $(OBJ)/*/*/*/*.d)
