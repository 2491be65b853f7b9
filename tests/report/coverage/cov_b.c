/* cov_b.c: the other file of t-coverage.sh's program: one function called, two not. */
int used(int x)
{
	return x * 2;
}

int never_b(int x)
{
	return x - 1;
}

int never_c(int x)
{
	return x - 2;
}
