# offcpu.jq: what a dump of tests/e2e/offcpu.c says of CPU time, as
# [cpu_time, cpu_read measured, wait_for_work's calls that read the CPU clock, its off-CPU
#  time >= 190 ms, its CPU time < 20 ms, the same for nap (>= 19 ms off), compute read,
#  tiny read at least once and at most every call, functions with more CPU self time than
#  compute]: [true,true,4,true,true,2,true,true,true,0] for a run that went as it should.
# The sleeps give off-CPU time of at least their length whatever the load, and little CPU time.
[.threads[].functions[]] as $f | .functions as $n |
def fig(name): [$f[] | select($n[.fn].name == name)][0];
def off(name): fig(name) | .inclusive_ns - .cpu_ns;
[.clock.cpu_time, (.calibration.cpu_read_ns > 0),
 fig("wait_for_work").cpu_calls, (off("wait_for_work") >= 190000000),
 (fig("wait_for_work").cpu_ns < 20000000),
 fig("nap").cpu_calls, (off("nap") >= 19000000),
 (fig("compute").cpu_calls >= 1), (fig("tiny").cpu_calls | . >= 1 and . <= 1000),
 ([$f[] | select(.cpu_self_ns > fig("compute").cpu_self_ns)] | length)]
