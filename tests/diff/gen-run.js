// gen-run.js OUT ARG WORK_NS WORK_CALLS [WAIT_NS [PROBE_NS]]: writes a dump of one run of
// `prog ARG` with exact figures, for tests/diff/t-runs.sh: main (1 call, 1 ms of its own) calls
// work (WORK_CALLS calls, WORK_NS inclusive, all of it self) from main.c:7.  The thread ran
// WORK_NS + 1 ms of wall time and, with WAIT_NS, waited that long for a CPU.  With PROBE_NS,
// work's probes took that long too: its raw figures and the wall time are that much more, and
// the compensated ones (the dump's inclusive_ns and self_ns) are as above.
"use strict";
const fs = require("fs");
const [out, arg, workNs, workCalls, waitNs, probeNs] = process.argv.slice(2);
const work = Number(workNs), calls = Number(workCalls), probe = Number(probeNs || 0);
const wall = work + probe + 1000000, compensated = work + 1000000;
const thread = {
	tid: 100, name: "main", wall_ns: wall, running: true,
	functions: [
		{ fn: 0, calls: 1, inclusive_ns: compensated, self_ns: 1000000, raw_inclusive_ns: wall, raw_self_ns: 1000000 },
		{ fn: 1, calls, inclusive_ns: work, self_ns: work, raw_inclusive_ns: work + probe, raw_self_ns: work + probe },
	],
	edges: [
		{ caller: null, callee: 0, calls: 1, inclusive_ns: compensated, self_ns: 1000000 },
		{ caller: 0, callee: 1, calls, inclusive_ns: work, self_ns: work, call_site: "0x1150",
		  call_file: "main.c", call_line: 7 },
	],
	tree: {
		columns: ["id", "parent", "fn", "calls", "inclusive_ns", "self_ns"],
		rows: [[0, null, 0, 1, compensated, 1000000], [1, 0, 1, calls, work, work]],
	},
};
if (waitNs !== undefined) thread.runq_wait_ns = Number(waitNs);
fs.writeFileSync(out, JSON.stringify({
	format: "callprof", version: 1,
	program: { path: "/opt/prog", argv: ["prog", arg], pid: 1 },
	start_time: "2024-01-01T00:00:00Z", wall_ns: wall,
	modules: [{ id: 0, path: "/opt/prog", build_id: "ab12" }],
	functions: [
		{ id: 0, name: "main", module: 0, address: "0x1130", offset: "0x1130", file: "main.c", line: 5 },
		{ id: 1, name: "work", module: 0, address: "0x1200", offset: "0x1200", file: "work.c", line: 3 },
	],
	threads: [thread],
}));
