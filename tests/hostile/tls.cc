// tls.cc: C++ thread_local objects whose destructors run instrumented code
// after each thread's function has returned, on 8 threads; then a thread
// whose function throws through three frames to a catch at its top.
#include <thread>
#include <vector>

#include "e2e.h"

#define THREADS 8

// Every function writes here, so no call is elided as useless.
static volatile int sink;

NOINLINE static void leaf(int i)
{
	sink += i;
}

struct Tracker {
	int uses = 0;
	NOINLINE void use();
	NOINLINE ~Tracker();
};

void Tracker::use()
{
	uses++;
	leaf(uses);
}

Tracker::~Tracker()
{
	for (int i = 0; i < uses; i++)
		leaf(i);
}

static thread_local Tracker tracker;

NOINLINE static void worker(int n)
{
	for (int i = 0; i < n; i++)
		tracker.use();
}

NOINLINE static void thrower(int i)
{
	leaf(i);
	throw i;
}

NOINLINE static void mid(int i)
{
	thrower(i);
	leaf(-1);
}

NOINLINE static void catching_worker()
{
	try {
		mid(1);
	} catch (int v) {
		leaf(v);
	}
	tracker.use();
}

int main()
{
	std::vector<std::thread> threads;

	for (int i = 0; i < THREADS; i++)
		threads.emplace_back(worker, 3);
	for (std::thread &t : threads)
		t.join();
	std::thread(catching_worker).join();
	return 0;
}
