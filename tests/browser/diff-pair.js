// diff-pair.js BASE NEW: writes two small dumps of one program for the differential flame graph:
// main calls grow (2 ms of its own before, 8 ms after), shrink (8 ms, then 2 ms) and same
// (3 ms both times, calling leaf for 1 ms).  Per-function totals, edges and tree rows are
// all derived from one list of nodes, so the figures agree as a real dump's do.
"use strict";
const fs = require("fs");

const names = ["main", "grow", "shrink", "same", "leaf"];
// [parent row, function, calls, self ns]
const shape = (growNs, shrinkNs) => [
	[null, 0, 1, 1000000],
	[0, 1, 10, growNs],
	[0, 2, 10, shrinkNs],
	[0, 3, 5, 3000000],
	[3, 4, 5, 1000000],
];

function dump(rows, pid) {
	const incl = rows.map((r) => r[3]);
	for (let i = rows.length - 1; i > 0; i--) incl[rows[i][0]] += incl[i];
	const fns = names.map(() => ({ calls: 0, self: 0, incl: 0 }));
	const edges = new Map();
	rows.forEach((r, i) => {
		const f = fns[r[1]];
		f.calls += r[2]; f.self += r[3]; f.incl += incl[i];
		const caller = r[0] === null ? null : rows[r[0]][1], k = caller + ">" + r[1];
		const e = edges.get(k) || { caller: caller, callee: r[1], calls: 0, inclusive_ns: 0, self_ns: 0 };
		e.calls += r[2]; e.inclusive_ns += incl[i]; e.self_ns += r[3];
		edges.set(k, e);
	});
	return {
		format: "callprof", version: 1, start_time: "2024-06-01T10:00:00Z",
		program: { path: "/build/prog", argv: ["prog"], pid: pid },
		clock: { source: "tsc", ticks_per_second: 3000000000 },
		calibration: { per_call_ns: 8.0, o_in_ns: 3.0, o_out_ns: 5.0, compensated: true },
		wall_ns: incl[0] + 1000,
		modules: [{ id: 0, path: "/build/prog", build_id: null }],
		functions: names.map((n, i) => ({ id: i, name: n, module: 0, address: "0x" + (4096 + 256 * i).toString(16),
			file: "src/prog.c", line: 10 * (i + 1) })),
		threads: [{
			tid: pid, name: "main", wall_ns: incl[0] + 1000,
			functions: fns.map((f, i) => ({ fn: i, calls: f.calls, inclusive_ns: f.incl, self_ns: f.self,
				raw_inclusive_ns: f.incl, raw_self_ns: f.self })),
			edges: [...edges.values()],
			tree: { columns: ["id", "parent", "fn", "calls", "inclusive_ns", "self_ns"],
				rows: rows.map((r, i) => [i, r[0], r[1], r[2], incl[i], r[3]]) },
		}],
	};
}

const [base, next] = process.argv.slice(2);
fs.writeFileSync(base, JSON.stringify(dump(shape(2000000, 8000000), 100), null, 1) + "\n");
fs.writeFileSync(next, JSON.stringify(dump(shape(8000000, 2000000), 200), null, 1) + "\n");
