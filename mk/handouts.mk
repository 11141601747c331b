# mk/handouts.mk — the handouts as HTML, and `make results`, which records the solutions' results they show.
# make handouts   every handouts/chN.md and handouts/instructor/*.md as self-contained HTML in
#                 build/handouts/; each chapter's results table, plot and claims are generated from the
#                 results recorded in handouts/results/ (committed), so no GPU is needed. Quiet like the
#                 other targets: a line per file (GEN, GNUPLOT, PANDOC); V=1 shows the commands.
# make results    (GPU) runs every solution at its default sizes and records handouts/results/chN.json
#                 (the --json lines), chN.txt (the printed table and --claims) and chN.meta.json, then
#                 make handouts-fill.
# make handouts-fill  writes each chapter's results table and claims into handouts/chN.md itself,
#                 between its markers, so that the Markdown students open shows them (no GPU needed;
#                 tests/test_results.c checks that they match handouts/results/).
HANDOUT_DEPS_PKGS := pandoc gnuplot-nox
HANDOUT_OUT   := $(BUILD)/handouts
HANDOUT_GEN   := $(HANDOUT_OUT)/gen
HANDOUT_TOOL  := $(HANDOUT_OUT)/wbresults
RESULTS_DIR   := handouts/results
HANDOUT_SRCS  := $(wildcard handouts/ch[0-9].md handouts/ch[0-9][0-9].md)
INSTRUCTOR_SRCS := $(wildcard handouts/instructor/*.md)
HANDOUT_HTML  := $(patsubst handouts/%.md,$(HANDOUT_OUT)/%.html,$(HANDOUT_SRCS) $(INSTRUCTOR_SRCS))
# pandoc 2.19 renamed --self-contained to --embed-resources; Debian 12 has 2.17.
PANDOC_FLAGS   = --standalone $$(pandoc --help | grep -q -- --embed-resources && echo --embed-resources || echo --self-contained) \
                 --css handouts/style.css --toc --toc-depth=2 -f markdown -t html5

.PHONY: handouts handouts-deps handouts-fill results

handouts: $(HANDOUT_HTML)
	@echo "handouts: $(HANDOUT_HTML)"

# Probe by running the tools (not dpkg); missing: apt when root or passwordless sudo, else the command.
$(HANDOUT_OUT)/.deps-ok:
	@mkdir -p $(@D)
	@$(call ensure_packages,pandoc --version && gnuplot -e 'set terminal pngcairo',$(HANDOUT_DEPS_PKGS),make handouts)
	@touch $@

handouts-deps: $(HANDOUT_OUT)/.deps-ok

$(HANDOUT_TOOL): $(OBJ)/tools/results/main.o $(LINK_RESULTS)
	@mkdir -p $(@D)
	$(call say,LD,$@)$(CC) -o $(ATMP) $< $(LINK_RESULTS) $(SYSLIBS_COMMON) $(PUBLISH)

# The pieces of chapter N, from handouts/results/chN.*; a chapter without results renders with a note.
$(HANDOUT_GEN)/ch%-table.md: $(RESULTS_DIR)/ch%.json $$(wildcard $(RESULTS_DIR)/ch$$*.meta.json) $(HANDOUT_TOOL)
	@mkdir -p $(@D)
	$(call say,GEN,$@)$(HANDOUT_TOOL) table $< $(RESULTS_DIR)/ch$*.meta.json > $(ATMP) $(PUBLISH)

$(HANDOUT_GEN)/ch%-plot.gp: $(RESULTS_DIR)/ch%.json $$(wildcard $(RESULTS_DIR)/ch$$*.meta.json) $(HANDOUT_TOOL)
	@mkdir -p $(@D)
	$(call say,GEN,$@)$(HANDOUT_TOOL) plot $< $(RESULTS_DIR)/ch$*.meta.json $(HANDOUT_GEN)/ch$*-plot.png > $(ATMP) $(PUBLISH)

$(HANDOUT_GEN)/ch%-plot.png: $(HANDOUT_GEN)/ch%-plot.gp | $(HANDOUT_OUT)/.deps-ok
	$(call say,GNUPLOT,$@)gnuplot $<

$(HANDOUT_GEN)/ch%-claims.md: $(RESULTS_DIR)/ch%.json $$(wildcard $(RESULTS_DIR)/ch$$*.txt) $(HANDOUT_TOOL)
	@mkdir -p $(@D)
	$(call say,GEN,$@)$(HANDOUT_TOOL) claims $(RESULTS_DIR)/ch$*.txt > $(ATMP) $(PUBLISH)

# Keep the generated pieces (make would delete them as intermediates), so they can be looked at.
RESULT_NUMS := $(patsubst $(RESULTS_DIR)/ch%.json,%,$(wildcard $(RESULTS_DIR)/ch[0-9].json $(RESULTS_DIR)/ch[0-9][0-9].json))
.SECONDARY: $(foreach n,$(RESULT_NUMS),$(addprefix $(HANDOUT_GEN)/ch$(n),-table.md -plot.gp -plot.png -claims.md)) \
            $(patsubst handouts/%.md,$(HANDOUT_GEN)/%.md,$(HANDOUT_SRCS))
HANDOUT_PIECES = $(if $(wildcard $(RESULTS_DIR)/ch$*.json),$(HANDOUT_GEN)/ch$*-table.md $(HANDOUT_GEN)/ch$*-plot.png $(HANDOUT_GEN)/ch$*-claims.md)
$(HANDOUT_GEN)/ch%.md: handouts/ch%.md $(HANDOUT_TOOL) $$(HANDOUT_PIECES)
	@mkdir -p $(@D)
	$(call say,GEN,$@)$(HANDOUT_TOOL) expand $< $(or $(filter %-table.md,$^),-) $(or $(filter %-plot.png,$^),-) \
	  "Throughput of each variant of chapter $* beside the speed of light" $(or $(filter %-claims.md,$^),-) > $(ATMP) $(PUBLISH)

handouts-fill: $(foreach n,$(RESULT_NUMS),$(HANDOUT_GEN)/ch$(n)-table.md $(HANDOUT_GEN)/ch$(n)-claims.md) $(HANDOUT_TOOL)
	@for n in $(RESULT_NUMS); do \
	  $(HANDOUT_TOOL) fill handouts/ch$$n.md $(HANDOUT_GEN)/ch$$n-table.md $(HANDOUT_GEN)/ch$$n-claims.md \
	    > handouts/ch$$n.md.tmp && mv handouts/ch$$n.md.tmp handouts/ch$$n.md && echo "handouts/ch$$n.md: filled" || exit 1; \
	done

$(HANDOUT_OUT)/ch%.html: $(HANDOUT_GEN)/ch%.md handouts/style.css | $(HANDOUT_OUT)/.deps-ok
	$(call say,PANDOC,$@)pandoc $(PANDOC_FLAGS) --resource-path=$(HANDOUT_GEN):handouts -o $(ATMP) $< $(PUBLISH)

$(HANDOUT_OUT)/instructor/%.html: handouts/instructor/%.md handouts/style.css | $(HANDOUT_OUT)/.deps-ok
	@mkdir -p $(@D)
	$(call say,PANDOC,$@)pandoc $(PANDOC_FLAGS) --resource-path=handouts/instructor:handouts -o $(ATMP) $< $(PUBLISH)

# make results: each solution's --claims table and --json lines, with where and how they were measured
# (scripts/results.sh); a solution that fails keeps its previous results.
RESULTS_CHAPTERS ?= $(SOLUTIONS_PRESENT)
results: $(addprefix $(BUILD)/solution,$(RESULTS_CHAPTERS)) $(HANDOUT_TOOL)
	$(course_only)
	@NVCC=$(call shq,$(NVCC)) ARCH=$(call shq,$(ARCH)) $(SCRIPTS)/results.sh $(call shq,$(BUILD)) $(RESULTS_DIR) \
	  $(call shq,$(HANDOUT_TOOL)) $(RESULTS_CHAPTERS)
	@$(MAKE) --no-print-directory handouts-fill
