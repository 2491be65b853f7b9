/* statics.h: the two halves of statics.c, each with its own static helper(). */
int run_a(void);
int run_b(void);
