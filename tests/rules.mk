# tests/rules.mk: builds what the test suites run (included by the top Makefile).
#
#   make tests-build       everything below (a prerequisite of `make check`)
#   make tests-dumpcheck   build/tests/dumpcheck: the dump invariant checker
#   make tests-unit        build/tests/unit/unit: runtime unit tests, ASan+UBSan
#   make tests-unit-report build/tests/unit/report/unit: the report tool's unit tests, ASan+UBSan
#   make tests-e2e         build/tests/e2e/: the end-to-end programs, every variant
#   make tests-fuzz        build/tests/fuzz/fuzz-load: the dump reader's libFuzzer target
#
# Each suite also builds its own part first, so `sh tests/run.sh e2e` works alone.

T := $(B)/tests

.PHONY: tests-build tests-dumpcheck tests-unit tests-e2e
tests-build: tests-dumpcheck tests-unit tests-e2e tests-fuzz

# ---- dumpcheck ---------------------------------------------------------------
tests-dumpcheck: $(T)/dumpcheck

FLAGS_dumpcheck = $(CC) $(BASE_CFLAGS) $(JSON_CFLAGS) | $(JSON_LIBS)

$(T)/dumpcheck: tests/dumpcheck/dumpcheck.c $(call flags,dumpcheck) | $(T)
	@echo "  CC      $@"
	$(Q)$(CC) $(BASE_CFLAGS) $(JSON_CFLAGS) $< -o $@ $(JSON_LIBS)

# ---- unit tests: the runtime's internals, linked in, under the sanitizers ---
UNIT_SAN    := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
UNIT_CFLAGS := $(RT_CFLAGS) $(UNIT_SAN) -Iruntime
UNIT_RT     := cct shadow fold clock compensate verdict sampled cputime meter meter_stats args_sketch
UNIT_OBJ    := $(patsubst tests/unit/%.c,$(T)/unit/%.o,$(wildcard tests/unit/*.c)) \
               $(UNIT_RT:%=$(T)/unit/rt/%.o)
FLAGS_unit  = $(CC) $(UNIT_CFLAGS)

tests-unit: $(T)/unit/unit

$(T)/unit/rt/%.o: runtime/%.c $(call flags,unit)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(UNIT_CFLAGS) -c $< -o $@

$(T)/unit/%.o: tests/unit/%.c $(call flags,unit)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(UNIT_CFLAGS) -c $< -o $@

$(T)/unit/unit: $(UNIT_OBJ) $(call flags,unit)
	@echo "  LD      $@"
	$(Q)$(CC) $(UNIT_SAN) -o $@ $(UNIT_OBJ)

# ---- end-to-end programs -----------------------------------------------------
# Every program tests/e2e/P.c (or P.cc, plus its parts P_*.c) is built by each
# compiler at each level, with -finstrument-functions -g, twice: P links the
# runtime (-lcallprof, and -z now as pkg-config's line has it, so the library
# probes find every slot bound), P.pre does not (for `callprof record`, LD_PRELOAD).
# build/tests/e2e/static/P links build/libcallprof.a instead.
# The programs, variants and compilers come from tests/matrix.mk.
include tests/matrix.mk
E2E          := $(T)/e2e
E2E_PROGS    := $(E2E_PROGS_C) $(E2E_PROGS_CC)
E2E_PARTS_statics := statics_a statics_b
E2E_LIBDIR   := $(abspath $(B))
E2E_FLAGS    := -g -finstrument-functions -MMD -MP -Iruntime -Itests/e2e
E2E_CFLAGS   := -std=c11 -D_GNU_SOURCE $(WARN) $(E2E_FLAGS)
E2E_CXXFLAGS := -std=c++17 $(filter-out -Wstrict-prototypes -Wmissing-prototypes,$(WARN)) \
                -Wmissing-declarations $(E2E_FLAGS)

e2e_family = $(word 1,$(subst -, ,$(1)))
e2e_level  = $(word 2,$(subst -, ,$(1)))
e2e_objs   = $(addprefix $(E2E)/$(1)/,$(addsuffix .o,$(2) $(E2E_PARTS_$(2))))
e2e_linker = $(if $(filter $(2),$(E2E_PROGS_CC)),$(CXX_$(call e2e_family,$(1))),$(CC_$(call e2e_family,$(1))))

# $(1): a variant such as gcc-O2
define e2e_variant_rules
FLAGS_e2e-$(1) = $(CC_$(call e2e_family,$(1))) $(CXX_$(call e2e_family,$(1))) \
	-$(call e2e_level,$(1)) $(E2E_CFLAGS) | $(E2E_CXXFLAGS) | -L$(E2E_LIBDIR) -Wl,-rpath,$(E2E_LIBDIR)

$(E2E)/$(1)/%.o: tests/e2e/%.c $(call flags,e2e-$(1))
	@mkdir -p $$(@D)
	@echo "  CC      $$@"
	$(Q)$(CC_$(call e2e_family,$(1))) -$(call e2e_level,$(1)) $(E2E_CFLAGS) -c $$< -o $$@

$(E2E)/$(1)/%.o: tests/e2e/%.cc $(call flags,e2e-$(1))
	@mkdir -p $$(@D)
	@echo "  CXX     $$@"
	$(Q)$(CXX_$(call e2e_family,$(1))) -$(call e2e_level,$(1)) $(E2E_CXXFLAGS) -c $$< -o $$@
endef

# $(1): a variant, $(2): a program
define e2e_program_rules
$(E2E)/$(1)/$(2): $(call e2e_objs,$(1),$(2)) $(B)/libcallprof.so $(call flags,e2e-$(1))
	@echo "  LD      $$@"
	$(Q)$(call e2e_linker,$(1),$(2)) -o $$@ $(call e2e_objs,$(1),$(2)) \
	    -L$(E2E_LIBDIR) -Wl,-z,now -lcallprof -Wl,-rpath,$(E2E_LIBDIR) -lpthread

$(E2E)/$(1)/$(2).pre: $(call e2e_objs,$(1),$(2))
	@echo "  LD      $$@"
	$(Q)$(call e2e_linker,$(1),$(2)) -o $$@ $(call e2e_objs,$(1),$(2)) -lpthread
endef

$(foreach v,$(VARIANTS),$(eval $(call e2e_variant_rules,$(v))))
$(foreach v,$(VARIANTS),$(foreach p,$(E2E_PROGS),$(eval $(call e2e_program_rules,$(v),$(p)))))

FLAGS_e2e-static = $(CC) $(RT_LIBS)

$(E2E)/static/%: $(E2E)/gcc-O2/%.o $(B)/libcallprof.a $(call flags,e2e-static)
	@mkdir -p $(@D)
	@echo "  LD      $@"
	$(Q)$(CC) -o $@ $(E2E)/gcc-O2/$*.o $(B)/libcallprof.a $(RT_LIBS)

E2E_BINS := $(foreach v,$(VARIANTS),$(foreach p,$(E2E_PROGS),$(E2E)/$(v)/$(p) $(E2E)/$(v)/$(p).pre)) \
            $(E2E_STATIC:%=$(E2E)/static/%)

tests-e2e: $(E2E_BINS) $(T)/dumpcheck $(B)/callprof

# ---- fuzz target: the dump reader under libFuzzer (clang), ASan+UBSan ------------
# build/tests/fuzz/fuzz-load reads each input as a dump and renders what loads into
# a site kept in memory (tests/fuzz/fuzz_load.c replaces site.c).  `make fuzz` runs it
# for FUZZ_SECONDS from tests/fuzz/corpus/; tests/fuzz/t-fuzz.sh runs it briefly.
FUZZ         := $(T)/fuzz
FUZZ_CC      := clang
FUZZ_SECONDS ?= 300
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS  := $(filter-out -Wconversion,$(TOOL_CFLAGS)) -gline-tables-only -O1
FUZZ_SRC     := $(filter-out report/main.c report/site.c,$(TOOL_SRC))
FUZZ_OBJ     := $(FUZZ_SRC:report/%.c=$(FUZZ)/obj/%.o) $(FUZZ)/obj/fuzz_load.o $(TOOL_GEN)
FLAGS_fuzz    = $(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) | $(TOOL_LIBS)

.PHONY: tests-fuzz
tests-fuzz: $(FUZZ)/fuzz-load

$(FUZZ)/obj/%.o: report/%.c $(call flags,fuzz)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ)/obj/export_pprof.o: $(B)/gen/profile.pb-c.h

$(FUZZ)/obj/fuzz_load.o: tests/fuzz/fuzz_load.c $(call flags,fuzz)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ)/fuzz-load: $(FUZZ_OBJ) $(call flags,fuzz)
	@echo "  LD      $@"
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $(FUZZ_OBJ) $(TOOL_LIBS)

# make fuzz: FUZZ_SECONDS of fuzzing; new inputs collect in build/tests/fuzz/corpus,
# a crash lands in build/tests/fuzz/ as crash-* (add it to tests/fuzz/regressions/).
fuzz: test-deps $(FUZZ)/fuzz-load
	$(Q)mkdir -p $(FUZZ)/corpus
	$(Q)$(FUZZ)/fuzz-load -max_total_time=$(FUZZ_SECONDS) -timeout=5 -rss_limit_mb=2048 \
	    -max_len=65536 -dict=tests/fuzz/dump.dict -artifact_prefix=$(FUZZ)/ -print_final_stats=1 \
	    $(FUZZ)/corpus tests/fuzz/corpus

# ---- unit tests of the report tool's building blocks, under the sanitizers ---
# tests/unit/report/test_*.c with the report modules they test, run by the same
# runner (tests/unit/main.c) built with their list, tests/unit/report/list.h.
# (flags: the tracked build flags, where the top Makefile defines them.)
UNIT_REPORT        := $(T)/unit/report
UNIT_REPORT_MODS   := buf fmt keymap html tmpl assets rowscan opts load_check pstat json_out flame_diff estimate \
                      name fnid run
UNIT_REPORT_CFLAGS := $(TOOL_CFLAGS) $(UNIT_SAN) -Itests/unit -DUNIT_LIST='"report/list.h"'
UNIT_REPORT_TEST_CFLAGS := $(UNIT_REPORT_CFLAGS) -D_GNU_SOURCE
FLAGS_unit-report   = $(CC) $(UNIT_REPORT_TEST_CFLAGS) | $(UNIT_SAN)
UNIT_REPORT_OBJ    := $(patsubst tests/unit/report/%.c,$(UNIT_REPORT)/%.o,$(wildcard tests/unit/report/*.c)) \
                      $(UNIT_REPORT)/main.o $(UNIT_REPORT_MODS:%=$(UNIT_REPORT)/obj/%.o) $(B)/gen/assets.o

.PHONY: tests-unit-report
tests-unit-report: $(UNIT_REPORT)/unit
tests-build: tests-unit-report

$(UNIT_REPORT)/obj/%.o: report/%.c $(call flags,unit-report)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(UNIT_REPORT_CFLAGS) -c $< -o $@

$(UNIT_REPORT)/main.o: tests/unit/main.c $(call flags,unit-report)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(UNIT_REPORT_TEST_CFLAGS) -c $< -o $@

$(UNIT_REPORT)/%.o: tests/unit/report/%.c $(call flags,unit-report)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(UNIT_REPORT_TEST_CFLAGS) -c $< -o $@

$(UNIT_REPORT)/unit: $(UNIT_REPORT_OBJ) $(call flags,unit-report)
	@echo "  LD      $@"
	$(Q)$(CC) $(UNIT_SAN) -o $@ $(UNIT_REPORT_OBJ) -lm
