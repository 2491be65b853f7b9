/* dump_merge.h: the parts of `callprof merge` (dump.h's dump_merge) that have a file of their own. */
#ifndef CALLPROF_DUMP_MERGE_H
#define CALLPROF_DUMP_MERGE_H

#include <stddef.h>

#include "dump.h"

/*
 * dump_merge_args: the value profiles in[0..n) of one function (NULL where a
 * dump has none) as one, owned by the caller (dump_args_free), or NULL when
 * no dump has one.  Equal tuples and return values add their counts and
 * times (min and max the extremes); the entries with the most calls are
 * kept, at most the largest bound of the inputs; inputs whose signature
 * differs from the first captured one's are left out; when every input
 * refused the function, the first one's reason.
 */
struct dump_args *dump_merge_args(const struct dump_args *const *in, size_t n);

#endif
