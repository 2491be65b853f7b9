// static_catch.cc: linked with -static: catcher() catches what thrower(3) throws, 4 times.
// Calls: main 1, catcher 4, thrower 16; prints 4.  C names: a static program's dump has no
// demangler (docs/ends.md).
#include <cstdio>
#include <stdexcept>

#include "e2e.h"

extern "C" NOINLINE void thrower(int n);
extern "C" NOINLINE int catcher();

extern "C" NOINLINE void thrower(int n)
{
	if (n == 0)
		throw std::runtime_error("deep");
	thrower(n - 1);
}

extern "C" NOINLINE int catcher()
{
	try {
		thrower(3);
	} catch (const std::exception &) {
		return 1;
	}
	return 0;
}

int main()
{
	int caught = 0;

	for (int i = 0; i < 4; i++)
		caught += catcher();
	std::printf("%d\n", caught);
	return 0;
}
