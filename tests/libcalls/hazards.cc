/*
 * hazards.cc: C++ exceptions thrown from inside library functions, through
 * their probed frames, 20 times each: operator new[] failing (bad_alloc from
 * libstdc++), std::stoi of a non-number (strtol, then
 * std::__throw_invalid_argument), std::vector::at out of range
 * (std::__throw_out_of_range_fmt); a throw, a rethrow and the cleanups
 * between (__cxa_throw, __cxa_rethrow, _Unwind_Resume: rethrower's catch-all
 * resumes through it after every one of its 40 rethrows, whatever the
 * compiler).  Each is caught in the function that called it.  Prints
 * "caught N" (N = 100).
 */
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "e2e.h"

static volatile std::size_t huge = ~(std::size_t)0 / 4;
static char *volatile kept; /* an allocation that is used cannot be elided */
static int caught;

struct guard {
	~guard() { caught += 0; }
};

NOINLINE static void allocate()
{
	try {
		kept = new char[huge];
		delete[] kept;
	} catch (const std::bad_alloc &) {
		caught++;
	}
}

NOINLINE static void parse()
{
	try {
		std::string s = "not a number";
		caught += std::stoi(s);
	} catch (const std::invalid_argument &) {
		caught++;
	}
}

NOINLINE static void index()
{
	std::vector<int> v(10);
	try {
		caught += v.at(100);
	} catch (const std::out_of_range &) {
		caught++;
	}
}

NOINLINE static void thrower()
{
	guard g; /* a cleanup: the unwinder resumes through _Unwind_Resume */
	throw std::runtime_error("thrown");
}

NOINLINE static void rethrower()
{
	try {
		thrower();
	} catch (...) {
		throw;
	}
}

NOINLINE static void rethrow()
{
	try {
		rethrower();
	} catch (const std::runtime_error &) {
		caught++;
	}
}

int main()
{
	for (int i = 0; i < 20; i++) {
		allocate();
		parse();
		index();
		rethrow();
		rethrow();
	}
	std::printf("caught %d\n", caught);
	return caught != 100;
}
