/* mixed.h: what mixed.c (-pg -mfentry) and mixed_fi.c (-finstrument-functions) call of each other. */
#ifndef MIXED_H
#define MIXED_H

int fe_leaf(int x);
void fe_jump(void);
int fi_middle(int i);
void fi_deep(int n);

#endif
