// cxx.cc: C++ names, demangled: a namespace, template instantiations, a class
// method, a virtual override, an operator, a constructor, an anonymous namespace.
#include <cstdio>

#include "e2e.h"

namespace geo {

struct Vec {
	int x, y;
	NOINLINE Vec(int x0, int y0);
	NOINLINE Vec operator+(const Vec &o) const;
};

Vec::Vec(int x0, int y0) : x(x0), y(y0) {}

Vec Vec::operator+(const Vec &o) const
{
	return Vec(x + o.x, y + o.y);
}

template <typename T> NOINLINE T twice(T v)
{
	return v + v;
}

class Shape {
public:
	virtual long area() const = 0;
};

class Rect : public Shape {
	long w_, h_;

public:
	Rect(long w, long h) : w_(w), h_(h) {}
	NOINLINE long area() const override;
};

long Rect::area() const
{
	return w_ * h_;
}

NOINLINE long total_area(const Shape *const *shapes, int n);

long total_area(const Shape *const *shapes, int n)
{
	long sum = 0;

	for (int i = 0; i < n; i++)
		sum += shapes[i]->area();
	return sum;
}

class Counter {
	int n_ = 0;

public:
	NOINLINE void bump();
	int value() const { return n_; }
};

void Counter::bump()
{
	n_++;
}

} // namespace geo

namespace {

NOINLINE int hidden(int v)
{
	return v * 3;
}

} // namespace

int main()
{
	geo::Vec a(1, 2), b(3, 4);
	geo::Vec c = a + b + a;
	geo::Rect r1(2, 3), r2(4, 5);
	const geo::Shape *shapes[] = { &r1, &r2, &r1 };
	geo::Counter k;
	volatile double d = geo::twice(1.5);
	int sum = geo::twice(c.x) + hidden(c.y);

	for (int i = 0; i < 4; i++)
		k.bump();
	sum += (int)geo::total_area(shapes, 3) + k.value() + (int)d;
	std::printf("%d\n", sum);
	return sum == 10 + 24 + 32 + 4 + 3 ? 0 : 1;
}
