/* test_name.c: C++ names made readable (report/name.c). */
#include "check.h"
#include "name.h"

/* simple: name_simplify's result for full, in a buffer the caller releases; *changed its return. */
static struct buf simple(const char *full, int *changed)
{
	struct buf b = BUF_INIT;

	*changed = name_simplify(&b, full);
	return b;
}

void test_name_folds_templates(void)
{
	int changed;
	struct buf b =
		simple("std::vector<int, std::allocator<int> >::push_back(int const&)", &changed);

	CHECK_STR(b.data, "std::vector<\xe2\x80\xa6>::push_back(int const&)");
	CHECK(changed);
	buf_release(&b);
	b = simple("std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> "
		   ">::append("
		   "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> "
		   "> const&)",
		   &changed);
	CHECK_STR(
		b.data,
		"std::basic_string<\xe2\x80\xa6>::append(std::basic_string<\xe2\x80\xa6> const&)");
	buf_release(&b);
	b = simple("",
		   &changed); /* an empty name (found by fuzzing: the buffer was never allocated) */
	CHECK_STR(b.data, "");
	CHECK(!changed);
	buf_release(&b);
	b = simple("void f<>()", &changed); /* an empty list stays */
	CHECK_STR(b.data, "void f<>()");
	CHECK(!changed);
	buf_release(&b);
	b = simple("std::__1::map<K, V>::find[abi:cxx11](K const&)", &changed);
	CHECK_STR(b.data, "std::map<\xe2\x80\xa6>::find(K const&)");
	buf_release(&b);
}

void test_name_keeps_operators_and_c(void)
{
	int changed;
	struct buf b = simple("operator<<(std::ostream&, Point const&)", &changed);

	CHECK_STR(b.data, "operator<<(std::ostream&, Point const&)");
	CHECK(!changed);
	buf_release(&b);
	b = simple("bool operator< <Foo<int> >(Foo<int> const&, Foo<int> const&)", &changed);
	CHECK_STR(b.data, "bool operator< <\xe2\x80\xa6>(Foo<\xe2\x80\xa6> const&, "
			  "Foo<\xe2\x80\xa6> const&)");
	buf_release(&b);
	b = simple("Iter::operator->() const", &changed);
	CHECK_STR(b.data, "Iter::operator->() const");
	buf_release(&b);
	b = simple("auto operator<=>(X const&) const", &changed);
	CHECK_STR(b.data, "auto operator<=>(X const&) const");
	buf_release(&b);
	b = simple("parse_expr", &changed);
	CHECK_STR(b.data, "parse_expr");
	CHECK(!changed);
	buf_release(&b);
	b = simple("broken<name", &changed); /* brackets that do not balance: copied */
	CHECK_STR(b.data, "broken<name");
	CHECK(!changed);
	buf_release(&b);
	b = simple(">", &changed);
	CHECK_STR(b.data, ">");
	buf_release(&b);
}
