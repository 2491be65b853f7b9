# tests/matrix.mk: the compiler x optimisation level x mode matrix, defined once.
# tests/rules.mk includes it to build the end-to-end programs; tests/lib.sh reads it for
# the suites that run them (e2e, hostile).  Keep to plain "NAME = words" lines.

# Each program is built by each compiler at each level ...
VARIANTS = gcc-O0 gcc-O2 clang-O0 clang-O2
# ... and run linked to the runtime, and preloaded by `callprof record`.
MODES = link preload

# The compilers of each family, for C and for C++.
CC_gcc = gcc
CXX_gcc = g++
CC_clang = clang
CXX_clang = clang++

# tests/e2e: the programs (P.c or P.cc, plus parts P_*.c), and those also linked with
# libcallprof.a.
E2E_PROGS_C = basic recurse qsort statics threads api exitcode
E2E_PROGS_CC = cxx
E2E_STATIC = basic threads api
