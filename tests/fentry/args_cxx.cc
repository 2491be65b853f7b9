/*
 * args_cxx.cc: argument capture in C++: a method (its `this` shown as a
 * pointer), a reference, an enum class, a class passed by value in registers
 * and one that is not trivially copyable (passed by reference: its type's
 * name), and a method returning a struct.
 */
#include <cstdio>
#include <string>

#include "e2e.h"

enum class mode : short { off = 0, slow = 10, fast = 20 };

struct point {
	int x, y;
};

class counter {
public:
	NOINLINE int add(int k, mode m)
	{
		total += k + static_cast<int>(m);
		return total;
	}
	NOINLINE point where(int k) const
	{
		return point{ k, -k };
	}
	int total = 0;
};

NOINLINE int by_ref(const int &r, point p)
{
	return r + p.x + p.y;
}

NOINLINE std::size_t length(std::string s, const char *tag)
{
	return s.size() + (tag ? 1 : 0);
}

int main()
{
	counter c;
	int v = 42;
	long s = 0;

	s += c.add(3, mode::fast);
	s += c.add(3, mode::fast);
	s += c.add(-1, mode::off);
	s += c.where(7).y;
	s += by_ref(v, point{ 1, 2 });
	s += static_cast<long>(length(std::string(5, 'z'), "t"));
	std::printf("%ld %p\n", s, static_cast<void *>(&c));
	return 0;
}
