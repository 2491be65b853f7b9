# callprof: the one build entry point.  `make help` lists the targets.
#
# Knobs: V=1 (full command lines), SAN=address,undefined (sanitizers for the
# tool and the unit tests), PREFIX/DESTDIR (install), CC/CXX.

.DEFAULT_GOAL := all

PREFIX  ?= /usr/local
DESTDIR ?=
VERSION := 0.1.0
CC      ?= cc
CXX     ?= c++
B       := build

ifeq ($(V),1)
Q :=
else
Q := @
endif

PKGS       := libdw json-c libcmark libprotobuf-c zlib
DW_CFLAGS  := $(shell pkg-config --cflags libdw 2>/dev/null)
DW_LIBS    := $(shell pkg-config --libs libdw 2>/dev/null)
JSON_CFLAGS:= $(shell pkg-config --cflags json-c 2>/dev/null)
JSON_LIBS  := $(shell pkg-config --libs json-c 2>/dev/null)
CMARK_CFLAGS:= $(shell pkg-config --cflags libcmark 2>/dev/null)
CMARK_LIBS := $(shell pkg-config --libs libcmark 2>/dev/null)
PROTOBUF_C_CFLAGS := $(shell pkg-config --cflags libprotobuf-c 2>/dev/null)
PROTOBUF_C_LIBS := $(shell pkg-config --libs libprotobuf-c 2>/dev/null || echo -lprotobuf-c)
ZLIB_CFLAGS := $(shell pkg-config --cflags zlib 2>/dev/null)
ZLIB_LIBS  := $(shell pkg-config --libs zlib 2>/dev/null || echo -lz)

WARN := -Wall -Wextra -Wshadow -Wconversion -Wstrict-prototypes \
        -Wmissing-prototypes -Wformat=2 -Wwrite-strings -Wpointer-arith -Wvla
ifeq ($(CI),true)
WARN += -Werror
endif
BASE_CFLAGS := -std=c11 -g -O2 $(WARN) -MMD -MP
ifneq ($(SAN),)
SAN_FLAGS := -fsanitize=$(SAN) -fno-omit-frame-pointer -fno-sanitize-recover=all
endif

# ---- build flags tracked ------------------------------------------------------
# Each kind of object writes the command lines that build it, FLAGS_<kind> (its
# compiler first), and that compiler's version into $(B)/flags/<kind>, and depends
# on that file.  The file is rewritten only when they change, so `make SAN=address`
# or `make CC=clang` after a plain `make`, or a compiler upgrade, rebuilds exactly
# what the change touches, and nothing otherwise.
flags = $(B)/flags/$(1)
shquote = '$(subst ','\'',$(1))'
version_of = $(shell $(1) --version 2>/dev/null | head -n 1)

$(B)/flags/%: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' $(call shquote,$(FLAGS_$*)) \
	    $(call shquote,$(call version_of,$(firstword $(FLAGS_$*)))) >$@.tmp.$$$$ && \
	if cmp -s $@.tmp.$$$$ $@; then rm -f $@.tmp.$$$$; else mv -f $@.tmp.$$$$ $@; fi
FORCE:
.PRECIOUS: $(B)/flags/%

# ---- runtime: libcallprof.so / libcallprof.a -------------------------------
# The runtime itself is never instrumented, except calib_target.c: the private
# function calibration drives through the real probes.
# linkage_shared.c and spawn.c go into the shared library only, linkage_static.c
# into the archive only (runtime/linkage.h).
RT_TARGETS := runtime/calib_target.c runtime/calib_target_fentry.c
RT_SO_ONLY := runtime/linkage_shared.c runtime/spawn.c
RT_SRC   := $(filter-out $(RT_TARGETS) runtime/linkage_static.c $(RT_SO_ONLY),$(wildcard runtime/*.c))
RT_ASM   := $(wildcard runtime/*.S)
RT_OBJ   := $(RT_SRC:%.c=$(B)/%.o) $(RT_ASM:%.S=$(B)/%.o) $(RT_TARGETS:%.c=$(B)/%.o)
SO_OBJ   := $(RT_OBJ) $(RT_SO_ONLY:%.c=$(B)/%.o)
AR_OBJ   := $(RT_OBJ) $(B)/runtime/linkage_static.o
RT_CFLAGS:= $(BASE_CFLAGS) -D_GNU_SOURCE -fPIC -fvisibility=hidden -fno-omit-frame-pointer \
            -ftls-model=initial-exec $(DW_CFLAGS)
RT_LIBS  := $(DW_LIBS) -lelf -ldl -lpthread
RT_TARGET_CFLAGS := -finstrument-functions -O2 -fno-inline -fno-optimize-sibling-calls
RT_FENTRY_TARGET_CFLAGS := -pg -mfentry -O2 -fno-inline -fno-optimize-sibling-calls
# The shared library is libcallprof.so.$(VERSION), named libcallprof.so.$(SO_MAJOR) in the
# programs linked with it (its soname), reached through the usual two symbolic links; it is
# never unloaded (-z nodelete: its exit handler is tied to no module, lifecycle.c).
SO_MAJOR := 0
SO_REAL  := libcallprof.so.$(VERSION)
SO_NAME  := libcallprof.so.$(SO_MAJOR)
RT_LDFLAGS := -shared -Wl,--version-script=runtime/libcallprof.map -Wl,-soname,$(SO_NAME) -Wl,-z,nodelete
# The hot paths the -pg -mfentry and library-call front-ends run before a
# function's prologue and at its return leave every vector register alone (hijack.h).
RT_GPR_CFLAGS := -mgeneral-regs-only
RT_GPR_OBJ := $(B)/runtime/fentry.o $(B)/runtime/hijack_fast.o $(B)/runtime/libcall.o \
	$(B)/runtime/verdict.o $(B)/runtime/meter.o
$(RT_GPR_OBJ): RT_ONLY_FLAGS := $(RT_GPR_CFLAGS)
# Their assembly entries keep the stack as the probed call found it, which may
# be 8 bytes off (fentry_entry.S): the C they call aligns its own.
RT_ENTRY_C_CFLAGS := -mstackrealign
$(B)/runtime/fentry.o $(B)/runtime/libcall.o: RT_ONLY_FLAGS += $(RT_ENTRY_C_CFLAGS)
FLAGS_runtime = $(CC) $(RT_CFLAGS) | $(RT_TARGET_CFLAGS) | $(RT_FENTRY_TARGET_CFLAGS) | $(RT_GPR_CFLAGS) | $(RT_LDFLAGS) $(RT_LIBS)
# Nor do they keep a frame pointer: a register more, and no frame, on every probe.
RT_GPR_NOFP_CFLAGS := -fomit-frame-pointer
$(RT_GPR_OBJ): RT_ONLY_FLAGS += $(RT_GPR_NOFP_CFLAGS)
FLAGS_runtime += | $(RT_GPR_NOFP_CFLAGS) | $(RT_ENTRY_C_CFLAGS)

$(B)/runtime/%.o: runtime/%.c $(call flags,runtime) | $(B)/runtime
	@echo "  CC      $@" $(if $(Q),,)
	$(Q)$(CC) $(RT_CFLAGS) $(RT_ONLY_FLAGS) -c $< -o $@

$(B)/runtime/%.o: runtime/%.S $(call flags,runtime) | $(B)/runtime
	@echo "  AS      $@"
	$(Q)$(CC) -fPIC -MMD -MP -c $< -o $@

$(B)/runtime/calib_target.o: runtime/calib_target.c $(call flags,runtime) | $(B)/runtime
	@echo "  CC      $@"
	$(Q)$(CC) $(RT_CFLAGS) $(RT_TARGET_CFLAGS) -c $< -o $@

$(B)/runtime/calib_target_fentry.o: runtime/calib_target_fentry.c $(call flags,runtime) | $(B)/runtime
	@echo "  CC      $@"
	$(Q)$(CC) $(RT_CFLAGS) $(RT_FENTRY_TARGET_CFLAGS) -c $< -o $@

$(B)/$(SO_REAL): $(SO_OBJ) runtime/libcallprof.map $(call flags,runtime)
	@echo "  LD      $@"
	$(Q)$(CC) $(RT_LDFLAGS) -o $@ $(SO_OBJ) $(RT_LIBS)

$(B)/$(SO_NAME): $(B)/$(SO_REAL)
	$(Q)ln -sf $(SO_REAL) $@

$(B)/libcallprof.so: $(B)/$(SO_NAME)
	$(Q)ln -sf $(SO_NAME) $@

# The static archive holds the runtime as one object whose only global symbols
# are those the shared library exports (libcallprof.map is the one list): a
# program may define its own `options` or `process`.  Its code is one section
# (runtime/archive.ld), which tells the runtime's functions from the program's.
# Its _Unwind_SetIP and context switches are weak: a program linked with
# -static brings libgcc_eh.a's and libc.a's.
$(B)/archive/exports.txt: runtime/libcallprof.map
	@mkdir -p $(@D)
	@echo "  GEN     $@"
	$(Q)sed -n '/global:/,/shared library only/s/^[[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\);.*/\1/p' $< > $@

# Its __cxa_begin_catch is weak: a program linked with -static brings libstdc++.a's
# own (with __cxa_end_catch), which then takes the catches; so are its unshare and
# setns, should libc.a's strong ones come along (docs/ends.md); and so are the names
# libgcc_eh.a and libc.a define too (_Unwind_Backtrace, backtrace, vfork, gprof's).
AR_WEAK := _Unwind_SetIP makecontext swapcontext setcontext __cxa_begin_catch unshare setns _Unwind_Backtrace backtrace vfork __monstartup monstartup _mcleanup
FLAGS_runtime += | $(AR_WEAK)
$(B)/archive/libcallprof.o: $(AR_OBJ) $(B)/archive/exports.txt runtime/archive.ld $(call flags,runtime)
	@echo "  LD -r   $@"
	$(Q)$(CC) -r -nostdlib -Wl,-T,runtime/archive.ld -o $@.all $(AR_OBJ) && \
	    objcopy --keep-global-symbols=$(B)/archive/exports.txt $(AR_WEAK:%=--weaken-symbol=%) $@.all $@ && \
	    rm -f $@.all

$(B)/libcallprof.a: $(B)/archive/libcallprof.o
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $<

# ---- report tool: build/callprof --------------------------------------------
# templates/ and static/ are embedded with .incbin so the tool works from anywhere.
# It also writes its output files through the runtime's safefile.c (export, merge), and the
# pprof export through the C that protoc-c generates from report/profile.proto.
TOOL_SRC    := $(wildcard report/*.c)
TOOL_GEN    := $(B)/gen/assets.o $(B)/gen/profile.pb-c.o $(B)/report/rt/safefile.o
TOOL_OBJ    := $(TOOL_SRC:%.c=$(B)/%.o) $(TOOL_GEN)
TOOL_CFLAGS := $(BASE_CFLAGS) $(SAN_FLAGS) -Ireport -Iruntime -I$(B)/gen $(JSON_CFLAGS) $(CMARK_CFLAGS) \
               $(PROTOBUF_C_CFLAGS) $(ZLIB_CFLAGS) \
               -DCALLPROF_VERSION='"$(VERSION)"' -DCALLPROF_LIBDIR='"$(PREFIX)/lib"' -DCALLPROF_SONAME='"$(SO_NAME)"'
TOOL_LIBS   := $(JSON_LIBS) $(CMARK_LIBS) $(PROTOBUF_C_LIBS) $(ZLIB_LIBS) -lm
ASSETS      := $(sort $(wildcard templates/* static/*))
FLAGS_tool   = $(CC) $(TOOL_CFLAGS) | $(SAN_FLAGS) $(TOOL_LIBS)

$(B)/report/%.o: report/%.c $(call flags,tool) | $(B)/report
	@echo "  CC      $@"
	$(Q)$(CC) $(TOOL_CFLAGS) -c $< -o $@

$(B)/gen/assets.S: $(ASSETS) report/gen-assets.sh | $(B)/gen
	@echo "  GEN     $@"
	$(Q)sh report/gen-assets.sh $(ASSETS) > $@

$(B)/gen/assets.o: $(B)/gen/assets.S $(call flags,tool)
	@echo "  AS      $@"
	$(Q)$(CC) -c -I. $< -o $@

$(B)/report/rt/%.o: runtime/%.c $(call flags,tool)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(TOOL_CFLAGS) -D_GNU_SOURCE -c $< -o $@

# Generated: compiled without our warnings, which are about our code, not protoc-c's.
$(B)/gen/profile.pb-c.c: report/profile.proto | $(B)/gen
	@echo "  PROTOC  $@"
	$(Q)protoc-c --proto_path=report --c_out=$(B)/gen report/profile.proto

$(B)/gen/profile.pb-c.h: $(B)/gen/profile.pb-c.c

$(B)/gen/profile.pb-c.o: $(B)/gen/profile.pb-c.c $(call flags,tool)
	@echo "  CC      $@"
	$(Q)$(CC) -std=c11 -g -O2 $(SAN_FLAGS) $(PROTOBUF_C_CFLAGS) -I$(B)/gen -c $< -o $@

$(B)/report/export_pprof.o: $(B)/gen/profile.pb-c.h

$(B)/callprof: $(TOOL_OBJ) $(call flags,tool)
	@echo "  LD      $@"
	$(Q)$(CC) $(SAN_FLAGS) -o $@ $(TOOL_OBJ) $(TOOL_LIBS)

$(B)/runtime $(B)/report $(B)/gen $(B)/tests:
	$(Q)mkdir -p $@

# ---- top-level targets -------------------------------------------------------
.PHONY: all deps test-deps check demo bench fuzz install uninstall clean format format-check help FORCE
all: $(B)/libcallprof.so $(B)/libcallprof.a $(B)/callprof

help:
	@echo "make            build the runtime (build/libcallprof.{so,a}) and the tool (build/callprof)"
	@echo "make demo       profile examples/demo and write its report"
	@echo "make check      build and run every test (ends with 'N passed, N failed')"
	@echo "make bench      overhead, accuracy and scale benchmarks -> bench/RESULTS.md"
	@echo "make fuzz       fuzz the dump reader for FUZZ_SECONDS (default 300) with libFuzzer"
	@echo "make install    install into \$$DESTDIR\$$PREFIX (PREFIX=$(PREFIX)); make uninstall"
	@echo "make format     clang-format the sources that differ from .clang-format; make format-check"
	@echo "knobs: V=1, SAN=address,undefined, CC=clang"

# Build dependencies: installed with apt-get when run as root, else the command is printed.
# check, demo and bench install them first and then build in a new make, which asks
# pkg-config for the flags only after the install: on a fresh machine this make's own
# answers (read when it parsed this file) are empty.  So nothing they build may be a
# prerequisite here.
deps:
	$(Q)sh tests/deps.sh build

test-deps:
	$(Q)sh tests/deps.sh test

check: test-deps
	$(Q)$(MAKE) --no-print-directory all tests-build
	$(Q)$(MAKE) --no-print-directory SAN=address,undefined B=$(B)/san $(B)/san/callprof
	$(Q)sh tests/run.sh

DEMO_DIR := $(B)/demo
demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh examples/demo/run.sh $(B) $(DEMO_DIR)

bench: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh bench/run.sh

# Programs linked through callprof.pc find the library by a run path, unless it is
# installed where the dynamic linker looks anyway (PREFIX=/usr).
SYSTEM_LIBDIRS := /lib /lib64 /usr/lib /usr/lib64
PC_RPATH := $(if $(filter $(patsubst %/,%,$(PREFIX))/lib,$(SYSTEM_LIBDIRS)),,-Wl,-rpath,$${libdir})

install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(B)/$(SO_REAL) $(DESTDIR)$(PREFIX)/lib/$(SO_REAL)
	ln -sf $(SO_REAL) $(DESTDIR)$(PREFIX)/lib/$(SO_NAME)
	ln -sf $(SO_NAME) $(DESTDIR)$(PREFIX)/lib/libcallprof.so
	install -m 644 $(B)/libcallprof.a $(DESTDIR)$(PREFIX)/lib/libcallprof.a
	install -m 755 $(B)/callprof $(DESTDIR)$(PREFIX)/bin/callprof
	install -m 644 runtime/callprof.h $(DESTDIR)$(PREFIX)/include/callprof.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' -e 's|@RPATH@|$(PC_RPATH)|g' runtime/callprof.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/callprof.pc
	if [ -f docs/callprof.1 ]; then install -m 644 docs/callprof.1 $(DESTDIR)$(PREFIX)/share/man/man1/callprof.1; fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/lib/libcallprof.so $(DESTDIR)$(PREFIX)/lib/$(SO_NAME) \
	    $(DESTDIR)$(PREFIX)/lib/$(SO_REAL) $(DESTDIR)$(PREFIX)/lib/libcallprof.a \
	    $(DESTDIR)$(PREFIX)/bin/callprof $(DESTDIR)$(PREFIX)/include/callprof.h \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig/callprof.pc $(DESTDIR)$(PREFIX)/share/man/man1/callprof.1

# .clang-format is the style.  format rewrites the files of FORMAT_FILES that differ from
# it, and names them; format-check names them and fails.  For the files a branch changed:
#   make format FORMAT_FILES="$(git diff --name-only main -- '*.c' '*.h')"
# The test programs are left out: their expectations name source lines.
FORMAT_FILES := $(wildcard runtime/*.[ch] report/*.[ch] tests/unit/*.[ch] tests/unit/*/*.[ch] tests/dumpcheck/*.c \
                tests/fuzz/*.c)
CLANG_FORMAT ?= clang-format

format:
	$(Q)for f in $(strip $(FORMAT_FILES)); do \
	    $(CLANG_FORMAT) "$$f" | cmp -s - "$$f" && continue; \
	    echo "  FORMAT  $$f"; $(CLANG_FORMAT) -i "$$f" || exit 1; \
	done

format-check:
	$(Q)n=0; t=0; for f in $(strip $(FORMAT_FILES)); do t=$$((t + 1)); \
	    $(CLANG_FORMAT) "$$f" | cmp -s - "$$f" || { echo "$$f"; n=$$((n + 1)); }; \
	done; \
	[ $$n -eq 0 ] || { echo "$$n of $$t files differ from .clang-format: make format rewrites them" >&2; exit 1; }

clean:
	rm -rf $(B)

include tests/rules.mk

# Our own dependency files: not those of the real programs make bench builds (bench/real.sh).
-include $(shell find $(B) \( -path '*/bench/src' -o -path '*/bench/real' \) -prune -o -name '*.d' -type f -print 2>/dev/null)
