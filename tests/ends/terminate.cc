// terminate.cc: ends by std::terminate: `terminate throw` lets thrower(3)'s exception go
// uncaught, `terminate call` calls std::terminate() from thrower(0).  Before that, work()
// runs 5 times.  Calls: main 1, work 5, thrower 4.  Dies of SIGABRT, as unprofiled.
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>

#include "e2e.h"

static volatile int sink;
static bool call_it;

extern "C" NOINLINE void work(int i);
extern "C" NOINLINE void thrower(int n);

extern "C" NOINLINE void work(int i)
{
	sink += i;
}

extern "C" NOINLINE void thrower(int n)
{
	if (n == 0) {
		if (call_it)
			std::terminate();
		throw std::runtime_error("uncaught");
	}
	thrower(n - 1);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	call_it = !std::strcmp(argv[1], "call");
	for (int i = 0; i < 5; i++)
		work(i);
	std::printf("terminate: %s\n", argv[1]);
	std::fflush(stdout);
	thrower(3);
	return 0;
}
