# mk/release.mk — `make dist-student`, the student release (scripts/dist-student.sh): what release/allow-list
# names (one regular expression per line, the whole path) of the files git tracks, the student's README
# (release/README.md) and pristine copies of the starters, so that `make check` and `make test` can tell
# edits outside the TODO regions. There, `make test` checks the student's own chapters. An allow-list, not
# a list of exclusions: an untracked stray, a new tool or a tool that holds solution code
# (research/sgemm-tune, tools/mutate) stays out unless it is named. In a copy without git (an unpacked
# tarball of the workbook) the files under it, outside build/, are listed instead; the allow-list still
# decides. tests/test_release.c checks the result for solution lines and untracked files.
#
# The release's Makefile is this one, mk/ and scripts/ included: without solutions/ (COURSE empty) its
# help stops before the course's own targets, and those refuse with the reason (course_only).
DIST_NAME ?= cuda-workbook-student
.PHONY: dist-student
dist-student:
	@$(SCRIPTS)/dist-student.sh $(call shq,$(BUILD)) $(call shq,$(DIST_NAME))
