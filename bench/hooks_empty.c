/* hooks_empty.c: no-op probes linked into the program: the floor of the -finstrument-functions mechanism. */
__attribute__((no_instrument_function)) void __cyg_profile_func_enter(void *fn, void *call_site);
__attribute__((no_instrument_function)) void __cyg_profile_func_exit(void *fn, void *call_site);

void __cyg_profile_func_enter(void *fn, void *call_site)
{
	(void)fn;
	(void)call_site;
}

void __cyg_profile_func_exit(void *fn, void *call_site)
{
	(void)fn;
	(void)call_site;
}
