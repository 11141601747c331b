# CUDA C workbook — `make help` (or plain `make`) lists the targets; the rules are in mk/, long recipes in scripts/
#
#   make chapterN               build and run chapter N (your file; ARGS="--size 1000")
#   make test                   install missing test dependencies, build everything, run Criterion
#   make all | doctor | clean   build everything | what this machine has | remove build/
#   make V=1 ...                show the compiler commands (quiet by default)
#   make ARCH=sm_86 ...         build for another GPU than the one detected
#   make sass | resources | sanitize | profile CH=N [V=variant]   look inside a chapter
#   make check [CH=N]           grade your own chapters the way the autograder will (without a GPU: what needs none)
#   make handouts               render the handouts to HTML in build/handouts/
#   make chapterN|check ENGINE=slurm [PARTITION=p GRES=gpu:1 TIME=min]   the same on a cluster's GPU node (srun)
#   make packages               the Debian packages each target installs
# -- the course's own (not in the student release):
#   make solutionN              build and run chapter N's reference; SOLUTION=1 looks inside it
#   make references             build every chapter's reference (build/solutionN), run none
#   make starters [CHECK=1]     write chapters/ from solutions/ (each region's `//| ` lines); CHECK=1: only name differences
#   make grade SUB=path | grade-class SUBS=dir | dist-student   the autograder; the student release
#   make diagnose-mutants [CH=N] mutants of the reference solutions graded: which bugs the feedback names (GPU)
#   make results                record the solutions' results for the handouts (GPU)
#   make handouts-fill          write the recorded results tables into handouts/chN.md

.DEFAULT_GOAL := help
# The help above is this file's header: `make help` prints it, up to the first line that is not a
# comment. The sections, in the order they build on one another (mk/README.md says what each holds):
MK := mk
include $(MK)/toolchain.mk
include $(MK)/chapters.mk
include $(MK)/libs.mk
include $(MK)/grader.mk
include $(MK)/tools.mk
include $(MK)/handouts.mk
include $(MK)/tests.mk
include $(MK)/doctor.mk
include $(MK)/release.mk

.PHONY: help clean FORCE
# The header of this file; the student release (no solutions/) stops before the course's own targets.
help:
	@sed -n '3,/^[^#]/p' Makefile | grep '^#' $(if $(COURSE),,| sed '/^# -- the course/,$$d') | sed 's/^# \{0,1\}//'
	@echo "chapters here: $(CHAPTERS)"

clean:
	rm -rf $(BUILD)
