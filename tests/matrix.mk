# tests/matrix.mk: the compiler x optimisation level x mode matrix, defined once.
# tests/rules.mk includes it to build the end-to-end programs; tests/lib.sh reads it for
# the suites that run them (e2e, hostile).  Keep to plain "NAME = words" lines.

# Each program is built by each compiler at each level ...
VARIANTS = gcc-O0 gcc-O2 clang-O0 clang-O2
# ... and run linked to the runtime, and preloaded by `callprof record`.
MODES = link preload
# The front-ends the suites that take them (hostile, fentry) build each program for, and
# their flags.  A -pg -mfentry build probes only the calls left after optimisation: sibling
# call optimisation turns a function's tail call to itself into a loop, so programs whose
# expected counts are the calls the source writes are built without it (tests/fentry tests
# tail calls apart).
FRONTENDS = finstrument fentry
FRONTEND_FLAGS_finstrument = -finstrument-functions
FRONTEND_FLAGS_fentry = -pg -mfentry -fno-optimize-sibling-calls

# The compilers of each family, for C and for C++.
CC_gcc = gcc
CXX_gcc = g++
CC_clang = clang
CXX_clang = clang++

# tests/e2e: the programs (P.c or P.cc, plus parts P_*.c), and those also linked with
# libcallprof.a.
E2E_PROGS_C = basic recurse qsort statics threads api exitcode offcpu
E2E_PROGS_CC = cxx
E2E_STATIC = basic threads api
