/* name.h: C++ names made readable: template arguments folded, inline namespaces and ABI tags
 * dropped (the pages show the full name on hover and on the function's own page). */
#ifndef CALLPROF_NAME_H
#define CALLPROF_NAME_H

#include "buf.h"

/*
 * name_simplify appends to out a shorter form of the demangled name full:
 * - every outermost template argument list folds to "<…>":
 *   "std::vector<int, std::allocator<int> >::push_back(int const&)" becomes
 *   "std::vector<…>::push_back(int const&)" (the lists inside the parameters
 *   fold too; "<>" stays);
 * - the inline namespaces of the standard libraries go: "std::__cxx11::",
 *   "std::__1::", "std::__ndk1::" become "std::";
 * - ABI tags go: "name[abi:cxx11]" becomes "name".
 * Operator names keep their angle brackets ("operator<<", "operator<=>",
 * "operator->"); a '<' that follows no name opens no list; and a name whose
 * brackets do not balance is copied as it is ("<script>x</script>" too).
 * A C name comes out unchanged.  Returns 1 when the result differs from full.
 */
int name_simplify(struct buf *out, const char *full);

#endif
