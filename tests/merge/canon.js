// canon.js: compares two dumps figure by figure, whatever the order of their functions,
// threads and tree rows.  Usage: node canon.js A B: prints the first differences and exits 1,
// or exits 0 when they are equal.  Each dump is put in a canonical form: functions become
// their module path, build-id, name, file, line and offset; threads sort by pid and tid; tree
// rows become their call paths.  Calibration figures are equal within a millionth (a merged
// dump's are weighted means, whose last digits depend on the order of the additions).  The
// program (path, argv, pid) and the clock's rate are left out: a merged dump names its first
// input's, as a report of several dumps does.
'use strict';
const fs = require('fs');

function canonical(file) {
	const d = JSON.parse(fs.readFileSync(file, 'utf8'));
	const mods = new Map((d.modules || []).map((m) => [m.id, m]));
	const fkey = new Map(d.functions.map((f) => {
		const m = mods.get(f.module) || {};
		return [f.id, [m.path, m.build_id, f.name, f.file, f.line, f.offset].join('|')];
	}));
	const sortBy = (a, k) => a.sort((x, y) => (k(x) < k(y) ? -1 : k(x) > k(y) ? 1 : 0));
	const cal = {};
	for (const k of Object.keys(d.calibration || {}).sort()) if (k !== 'method') cal[k] = d.calibration[k];

	function thread(t) {
		const c = t.tree.columns, at = (n) => c.indexOf(n);
		const paths = new Map(), rows = [];
		for (const r of t.tree.rows) {
			const p = (r[at('parent')] === null ? '' : paths.get(r[at('parent')]) + ' > ') + fkey.get(r[at('fn')]);
			paths.set(r[at('id')], p);
			rows.push([p, ...['calls', 'inclusive_ns', 'self_ns'].map((n) => r[at(n)])]);
		}
		const out = { ...t };
		out.functions = sortBy(t.functions.map((f) => ({ ...f, fn: fkey.get(f.fn) })), (f) => f.fn);
		out.edges = sortBy(t.edges.map((e) => ({ ...e, caller: e.caller === null ? null : fkey.get(e.caller),
			callee: fkey.get(e.callee) })), (e) => `${e.caller}>${e.callee}`);
		out.tree = sortBy(rows, (r) => r[0]);
		if ('folded_first_fn' in t) out.folded_first_fn = fkey.get(t.folded_first_fn);
		return out;
	}

	return {
		format: d.format, version: d.version, start_time: d.start_time, clock: d.clock && d.clock.source,
		calibration: cal, wall_ns: d.wall_ns, clamped_figures: d.clamped_figures,
		warnings: (d.warnings || []).slice().sort(),
		modules: sortBy((d.modules || []).map((m) => ({ path: m.path, build_id: m.build_id,
			symtab_functions: m.symtab_functions,
			uncalled: sortBy((m.uncalled || []).slice(), (u) => JSON.stringify(u)) })), (m) => `${m.path}|${m.build_id}`),
		functions: [...fkey.values()].sort(),
		threads: sortBy(d.threads.map(thread), (t) => `${String(t.pid).padStart(12)} ${String(t.tid).padStart(12)}`),
	};
}

const [a, b] = process.argv.slice(2).map(canonical);
// Calibration figures are means written to the millionth: merged in another order they
// may differ in that last digit, in the nested meterings (calibration.metered) too.  A
// metering's extras are differences of two such means: two units in the last place (and
// the binary rounding of that difference).
const lastPlaces = (k) => (k.startsWith('extra_') ? 2e-6 + 1e-12 : 1e-6);
const nearCopy = (x, y) => {
	for (const k of Object.keys(x)) {
		if (typeof x[k] === 'number' && typeof y[k] === 'number' &&
			Math.abs(x[k] - y[k]) <= lastPlaces(k) * Math.max(1, Math.abs(x[k])))
			y[k] = x[k];
		else if (x[k] && typeof x[k] === 'object' && y[k] && typeof y[k] === 'object')
			nearCopy(x[k], y[k]);
	}
};
nearCopy(a.calibration, b.calibration);
const ta = JSON.stringify(a, null, 1).split('\n'), tb = JSON.stringify(b, null, 1).split('\n');
const diffs = [];
for (let i = 0; i < Math.max(ta.length, tb.length) && diffs.length < 4; i++)
	if (ta[i] !== tb[i]) diffs.push(`line ${i + 1}: ${ta[i]} | ${tb[i]}`);
if (diffs.length) {
	console.log(diffs.join('\n'));
	process.exit(1);
}
