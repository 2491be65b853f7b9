// exc.cc: C++ exceptions thrown through three instrumented frames and caught
// higher up, 100 times; a rethrow (`throw;`) caught one level further up; an
// exception that escapes a std::async task and is caught by main from
// future::get; one that a std::thread catches at its top and hands to main as
// an exception_ptr.  Calls made in and after each catch attach to the catcher.
// With the argument "local", only the first two, on the main thread.
#include <exception>
#include <future>
#include <stdexcept>
#include <thread>

#include "e2e.h"

#define ROUNDS 100

// Every function writes here, so no call is elided as useless.
static volatile int sink;

struct Err {
	int v;
};

NOINLINE static void thrower(int i)
{
	sink += i;
	throw Err{ i };
}

NOINLINE static void mid2(int i)
{
	thrower(i);
	sink++;
}

NOINLINE static void mid1(int i)
{
	mid2(i);
	sink++;
}

NOINLINE static void after_catch(int v)
{
	sink += v;
}

NOINLINE static void log_error(int v)
{
	sink += v;
}

NOINLINE static void catcher(int i)
{
	try {
		mid1(i);
	} catch (const Err &e) {
		after_catch(e.v);
	}
	after_catch(0);
}

NOINLINE static void rethrower(int i)
{
	try {
		mid1(i);
	} catch (...) {
		log_error(i);
		throw;
	}
}

NOINLINE static void outer_catcher(int i)
{
	try {
		rethrower(i);
	} catch (const Err &e) {
		after_catch(e.v);
	}
}

NOINLINE static int async_task(int i)
{
	mid1(i);
	return i;
}

NOINLINE static void async_catcher(int i)
{
	std::future<int> f = std::async(std::launch::async, async_task, i);

	try {
		sink += f.get();
	} catch (const Err &e) {
		after_catch(e.v);
	}
}

NOINLINE static void thread_body(int i, std::exception_ptr *out)
{
	try {
		mid1(i);
	} catch (...) {
		*out = std::current_exception();
		log_error(i);
	}
}

NOINLINE static void thread_catcher(int i)
{
	std::exception_ptr ep;
	std::thread t(thread_body, i, &ep);

	t.join();
	try {
		std::rethrow_exception(ep);
	} catch (const Err &e) {
		after_catch(e.v);
	}
}

int main(int argc, char **)
{
	for (int i = 0; i < ROUNDS; i++)
		catcher(i);
	for (int i = 0; i < ROUNDS; i++)
		outer_catcher(i);
	if (argc > 1)
		return 0;
	for (int i = 0; i < 10; i++)
		async_catcher(i);
	for (int i = 0; i < 10; i++)
		thread_catcher(i);
	return 0;
}
