// consumers.js: reads an export of callprof with its real reader and compares what the reader
// found with the dumps themselves (read here as plain JSON, not through callprof).
//
//   node consumers.js FORMAT FILE DUMP...     FORMAT: pprof, speedscope, folded, callgrind-annotate
//
// Prints one line per difference and exits 1, or prints a one-line summary and exits 0.
// - pprof: pprof-format (Datadog's pure JavaScript profile.proto decoder) decodes the gunzipped
//   file; per function (the sample's leaf) its calls and self time, and the number of samples.
// - speedscope, folded: speedscope's own importer, from its npm package.  The package ships
//   only the web app, one bundled script; its importer is a module inside that bundle.  We run
//   the bundle in a node vm context with a stub `location` and take the importer from the
//   variable that holds it (found by the call site `importProfileGroupFromText`), the one the
//   app calls when a file is dropped on it; rendering fails at once without a DOM, which does
//   not matter.  Then importProfileGroupFromText(name, text) reads the file as the app does
//   (speedscope JSON, or Brendan Gregg's collapsed stacks), and each frame's self and total
//   weights are what its views show.
// - callgrind-annotate: FILE is the output of `callgrind_annotate --threshold=100 --auto=no`
//   (Valgrind's own reader): per "file:function", its ns and calls, and its cpu where the
//   dumps measured CPU time.
// - callgrind-inclusive: the same with --inclusive=yes: the call arcs' costs.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const zlib = require('zlib');

const [format, file, ...dumpPaths] = process.argv.slice(2);
const problems = [];
const problem = (s) => problems.push(s);

// ---- the dumps, as the dump format describes them -------------------------------------------

const base = (p) => (p ? p.slice(p.lastIndexOf('/') + 1) : '');

// One entry per function of the dumps merged: its label (as callprof's exports name it), its
// figures over every thread, and per path of every thread's tree its calls and self time.
function readDumps(paths) {
	const fns = new Map(); // key -> { name, file, line, calls, self, incl, rowsSelf, rowsCalls, root }
	const order = [];
	let rows = 0, calls = 0, self = 0, timed = false, cpu = false;
	const threads = [];
	for (const p of paths) {
		const d = JSON.parse(fs.readFileSync(p, 'utf8'));
		const mods = new Map((d.modules || []).map((m) => [m.id, m]));
		const seen = new Map();
		const keyOf = new Map();
		// As report/fnid.h: functions of one module, name and file (called, or listed uncalled; one
		// entry per offset) are told apart by their line, and those of one line by their code.
		const src = (m, name, file) => [m, name, file || ''].join('\x1f');
		const entries = new Map(); // source -> Map(offset or unique -> line)
		const add = (m, name, file, line, offset, uniq) => {
			const g = src(m, name, file);
			if (!entries.has(g)) entries.set(g, new Map());
			const at = offset ? `o${BigInt(offset)}` : `u${uniq}`;
			if (!entries.get(g).has(at) || uniq.startsWith('f')) entries.get(g).set(at, line || 0);
		};
		for (const f of d.functions) add(f.module, f.name, f.file, f.line, f.offset, `f${f.id}`);
		for (const m of d.modules || [])
			(m.uncalled || []).forEach((u, i) => add(m.id, u.name, u.file, u.line, u.offset, `u${m.id}.${i}`));
		for (const f of d.functions) {
			const lines = [...entries.get(src(f.module, f.name, f.file)).values()];
			let k = [base(mods.get(f.module)?.path), f.name, f.file || ''].join('\x1f');
			if (lines.length > 1) k += `\x1fL${f.line || 0}`;
			if (lines.filter((l) => l === (f.line || 0)).length > 1 && f.offset)
				k += '\x1f' + (mods.get(f.module)?.build_id || mods.get(f.module)?.path || '') + '\x1f' + f.offset;
			const n = seen.get(k) || 0;
			seen.set(k, n + 1);
			k += '\x1f' + n;
			keyOf.set(f.id, k);
			if (!fns.has(k)) {
				const module = base(mods.get(f.module)?.path);
				fns.set(k, { name: f.name, file: f.file, line: f.line, module, offset: f.offset, calls: 0, self: 0, incl: 0,
					cpuSelf: 0, cpuIncl: 0, rowsSelf: 0, rowsCalls: 0, rowsCpu: 0 });
				order.push(k);
			}
		}
		for (const t of d.threads) {
			const c = t.tree.columns, at = (name) => c.indexOf(name);
			const [iId, iParent, iFn, iCalls, iSelf, iCpu] = ['id', 'parent', 'fn', 'calls', 'self_ns', 'cpu_self_ns'].map(at);
			if (iCpu >= 0) cpu = true;
			const paths = [];
			const byId = new Map();
			for (const e of t.edges) {
				const f = fns.get(keyOf.get(e.callee));
				f.edgesIn = (f.edgesIn || 0) + 1;
				if (e.caller === null) f.root = true;
			}
			for (const f of t.functions) {
				const e = fns.get(keyOf.get(f.fn));
				e.calls += f.calls; e.self += f.self_ns; e.incl += f.inclusive_ns;
				// Without CPU time, all of it counts as on a CPU.
				e.cpuSelf += f.cpu_self_ns ?? f.self_ns; e.cpuIncl += f.cpu_ns ?? f.inclusive_ns;
				calls += f.calls; self += f.self_ns;
				if (f.self_ns || f.inclusive_ns) timed = true;
			}
			for (const r of t.tree.rows) {
				const e = fns.get(keyOf.get(r[iFn]));
				e.rowsSelf += r[iSelf]; e.rowsCalls += r[iCalls];
				e.rowsCpu += iCpu >= 0 ? r[iCpu] : r[iSelf]; // without CPU time, all of it counts as on a CPU
				const stack = (r[iParent] === null ? [] : byId.get(r[iParent])).concat([keyOf.get(r[iFn])]);
				byId.set(r[iId], stack);
				paths.push({ stack, calls: r[iCalls], self: r[iSelf], cpu: iCpu >= 0 ? r[iCpu] : r[iSelf] });
				rows++;
			}
			threads.push(paths);
		}
	}
	// Labels: the name; where names repeat, what tells them apart (report/fnid.h's levels: the
	// file's base name, its path, file:line, and the code's offset); then " #2", ...
	const same = (a, b, depth) => a.name === b.name && (depth < 1 || base(a.file) === base(b.file)) &&
		(depth < 2 || (a.file || '') === (b.file || '')) && (depth < 3 || (a.line || 0) === (b.line || 0));
	const all = order.map((k) => fns.get(k));
	for (const e of all) {
		let level = 0;
		for (let depth = 0; depth < 4; depth++) if (all.some((o) => o !== e && same(o, e, depth))) level = depth + 1;
		let tell = '';
		if (level && e.file) {
			tell = level === 2 ? e.file : base(e.file);
			if (level >= 3 && e.line) tell += `:${e.line}`;
		} else if (level) {
			tell = e.module || 'unknown module';
		}
		if ((level >= 4 || (!e.file && level >= 2)) && e.offset) tell += ` @0x${BigInt(e.offset).toString(16)}`;
		e.label = (e.name || '(anonymous)') + (level ? ` (${tell})` : '');
	}
	const byLabel = new Map();
	for (const k of order) {
		const e = fns.get(k), n = (byLabel.get(e.label) || 0) + 1;
		byLabel.set(e.label, n);
		if (n > 1) e.label += ` #${n}`;
	}
	return { fns, order, rows, calls, self, timed, threads, cpu };
}

const want = readDumps(dumpPaths);
const byLabel = new Map(want.order.map((k) => [want.fns.get(k).label, want.fns.get(k)]));
// Weights without a clock are calls, as callprof's exports give them.
const weight = (e) => (want.timed ? e.rowsSelf : e.rowsCalls);

function compare(what, label, got, expected) {
	if (got !== expected) problem(`${what} of ${JSON.stringify(label)}: the reader has ${got}, the dumps ${expected}`);
}

// ---- pprof --------------------------------------------------------------------------------

function checkPprof() {
	const { Profile } = require('pprof-format');
	const p = Profile.decode(zlib.gunzipSync(fs.readFileSync(file)));
	const str = (i) => p.stringTable.strings[Number(i)];
	const types = p.sampleType.map((t) => `${str(t.type)}/${str(t.unit)}`).join(' ');
	// With CPU time (dump-format.md), a third value: the path's self time on a CPU.
	if (types !== 'calls/count time/nanoseconds' + (want.cpu ? ' cpu/nanoseconds' : '')) problem(`sample types are ${types}`);
	const fnName = new Map(p.function.map((f) => [Number(f.id), str(f.name)]));
	const fnOf = new Map(p.location.map((l) => [Number(l.id), fnName.get(Number(l.line[0].functionId))]));
	const got = new Map();
	for (const s of p.sample) {
		const leaf = fnOf.get(Number(s.locationId[0]));
		const g = got.get(leaf) || { calls: 0, self: 0, cpu: 0 };
		g.calls += Number(s.value[0]); g.self += Number(s.value[1]); g.cpu += Number(s.value[want.cpu ? 2 : 1]);
		got.set(leaf, g);
	}
	if (p.sample.length !== want.rows) problem(`${p.sample.length} samples, the dumps have ${want.rows} call paths`);
	if (p.function.length !== want.order.length) problem(`${p.function.length} functions, the dumps have ${want.order.length}`);
	for (const [label, e] of byLabel) {
		const g = got.get(label) || { calls: 0, self: 0, cpu: 0 };
		compare('calls', label, g.calls, e.calls);
		compare('self time', label, g.self, e.rowsSelf);
		if (want.cpu) compare('CPU self time', label, g.cpu, e.rowsCpu);
	}
	for (const f of p.function) {
		const e = byLabel.get(str(f.name));
		if (!e) problem(`function ${JSON.stringify(str(f.name))} is not in the dumps`);
		else if ((str(f.filename) || null) !== (e.file || null) || Number(f.startLine) !== (e.line || 0))
			problem(`${str(f.name)} is at ${str(f.filename)}:${f.startLine}, the dumps say ${e.file}:${e.line}`);
	}
	const mappings = p.mapping.map((m) => `${str(m.filename)} ${str(m.buildId)}`).join(', ');
	return `${p.sample.length} samples, ${p.function.length} functions, mappings ${mappings}`;
}

// ---- speedscope's importer ------------------------------------------------------------------

async function speedscopeImport(name, text) {
	const dir = path.dirname(require.resolve('speedscope/package.json'));
	const release = path.join(dir, 'dist', 'release');
	const bundle = fs.readdirSync(release).find((f) => /^speedscope-.*\.js$/.test(f));
	let src = fs.readFileSync(path.join(release, bundle), 'utf8');
	const m = src.match(/async function \w+\(\w+,\w+\)\{return\(await (\w+)\)\.importProfileGroupFromText\(\w+,\w+\)\}/);
	if (!m) throw new Error(`no importProfileGroupFromText in ${bundle}`);
	src = src.replace(m[0], `${m[0]};globalThis.__callprofImporter=${m[1]};`);
	const ctx = { console: { log() {}, warn() {}, error() {}, info() {} }, TextDecoder, TextEncoder, atob, btoa,
		setTimeout, clearTimeout, URL, performance,
		location: { hash: '', href: 'file:///speedscope/index.html', search: '', protocol: 'file:' } };
	ctx.globalThis = ctx.window = ctx.self = ctx;
	vm.createContext(ctx);
	try {
		vm.runInContext(src, ctx);
	} catch (e) {
		if (!/document is not defined/.test(String(e))) throw e; // the app's first render, without a DOM
	}
	if (!ctx.__callprofImporter) throw new Error('the importer did not load');
	const importer = await ctx.__callprofImporter;
	return importer.importProfileGroupFromText(name, text);
}

// frameTotals: per frame name, the self and total weights summed over the group's profiles
// (or those given).
function frameTotals(group, profiles = group.profiles) {
	const got = new Map();
	for (const prof of profiles)
		prof.forEachFrame((f) => {
			const g = got.get(f.name) || { self: 0, total: 0, file: f.file, line: f.line };
			g.self += f.getSelfWeight(); g.total += f.getTotalWeight();
			got.set(f.name, g);
		});
	return got;
}

// The inclusive weight of each function as a flame graph sums it: every path it is on, once
// (by its time on a CPU: `cpu`).
function wantTotals(perThread, cpu = false) {
	const tot = new Map();
	for (const paths of perThread)
		for (const p of paths)
			for (const k of new Set(p.stack)) {
				const w = !want.timed ? p.calls : cpu ? p.cpu : p.self;
				tot.set(k, (tot.get(k) || 0) + w);
			}
	return tot;
}

// A profile per thread, by its time; with CPU time, then one per thread by its time on a CPU.
async function checkSpeedscope() {
	const group = await speedscopeImport(path.basename(file), fs.readFileSync(file, 'utf8'));
	if (!group) return problem('speedscope could not import the file');
	const nt = want.threads.length, cpu = want.cpu && want.timed;
	if (group.profiles.length !== nt * (cpu ? 2 : 1))
		problem(`${group.profiles.length} profiles, the dumps have ${nt} threads${cpu ? ' with CPU time' : ''}`);
	const unit = group.profiles[0] && group.profiles[0].getWeightUnit();
	if (unit !== (want.timed ? 'nanoseconds' : 'none')) problem(`weights in ${unit}`);
	const views = [['', group.profiles.slice(0, nt), weight, wantTotals(want.threads)]];
	if (cpu) {
		const names = group.profiles.slice(nt).map((p) => p.getName());
		if (!names.every((n) => n.endsWith(', on a CPU'))) problem(`CPU profiles named ${names.join(', ')}`);
		views.push(['on a CPU: ', group.profiles.slice(nt), (e) => e.rowsCpu, wantTotals(want.threads, true)]);
	}
	let frames = 0;
	for (const [what, profiles, selfOf, tot] of views) {
		const got = frameTotals(group, profiles);
		frames += got.size;
		for (const [label, e] of byLabel) {
			const g = got.get(label), k = want.order.find((key) => want.fns.get(key) === e);
			if (!g) { // speedscope leaves out frames that weigh nothing
				if (tot.get(k)) problem(`${what}no frame ${JSON.stringify(label)}`);
				continue;
			}
			compare(what + 'self weight', label, g.self, selfOf(e));
			compare(what + 'total weight', label, g.total, tot.get(k) || 0);
			if ((g.file || null) !== (e.file || null) || (g.line || 0) !== (e.line || 0))
				problem(`frame ${label} is at ${g.file}:${g.line}, the dumps say ${e.file}:${e.line}`);
		}
		for (const name of got.keys()) if (!byLabel.has(name)) problem(`frame ${JSON.stringify(name)} is not in the dumps`);
	}
	return `${group.profiles.length} profiles, ${frames} frames, unit ${unit}`;
}

// Folded stacks: ';' in a name became ':', control characters '?', and a blank before
// trailing digits '_' (as export_folded.c says); apply the same to the labels.
const foldName = (s) => s.replace(/;/g, ':').replace(/[\x00-\x1f\x7f]/g, '?').replace(/[ \t]([0-9.]+)$/, '_$1');

async function checkFolded() {
	const text = fs.readFileSync(file, 'utf8');
	const group = await speedscopeImport(path.basename(file), text);
	if (!group) return problem('speedscope could not import the file');
	const got = frameTotals(group);
	let ours = 0;
	for (const [label, e] of byLabel) {
		const g = got.get(foldName(label));
		ours += weight(e);
		if (!g) {
			if (weight(e)) problem(`no frame ${JSON.stringify(foldName(label))}`);
			continue;
		}
		compare('self weight', label, g.self, weight(e));
	}
	const total = group.profiles[0].getTotalWeight();
	if (total !== ours) problem(`total weight ${total}, the dumps ${ours}`);
	return `${got.size} frames, total ${total}`;
}

// ---- callgrind_annotate's report --------------------------------------------------------------

// callgrind_annotate --inclusive=yes: a function's inclusive cost is the sum of the cost lines
// of the call arcs into it, which is its inclusive time when no activation of it nests in
// another (not recursive) and none is a root call (a root has no arc into it); its calls
// event is then every call on the paths through it.
function checkInclusive() {
	const got = parseAnnotate();
	const keyOf = new Map(want.order.map((k) => [want.fns.get(k), k]));
	let checked = 0;
	for (const [label, e] of byLabel) {
		const k = keyOf.get(e);
		const paths = want.threads.flat().filter((p) => p.stack.includes(k));
		if (e.root || paths.some((p) => p.stack.indexOf(k) !== p.stack.lastIndexOf(k)) || !e.calls) continue;
		const g = got.get(cgName(`${e.file || '???'}:${label}`));
		if (!g) {
			problem(`no line for ${e.file || '???'}:${label}`);
			continue;
		}
		// Each arc's time was rounded to whole nanoseconds on its own: 1 ns each.
		if (Math.abs(g.ns - e.incl) > e.edgesIn)
			problem(`inclusive ns of ${JSON.stringify(label)}: the reader has ${g.ns}, the dumps ${e.incl}`);
		if (want.cpu && Math.abs(g.cpu - e.cpuIncl) > e.edgesIn)
			problem(`inclusive cpu of ${JSON.stringify(label)}: the reader has ${g.cpu}, the dumps ${e.cpuIncl}`);
		compare('inclusive calls', label, g.calls, paths.reduce((n, p) => n + p.calls, 0));
		checked++;
	}
	if (!checked) problem('no function to check (all roots or recursive)');
	return `${checked} functions' inclusive costs checked`;
}

// The callgrind format has no escapes: control characters became '?' (export_callgrind.c).
const cgName = (s) => s.replace(/[\x00-\x1f\x7f]/g, '?');

// The cost columns of callgrind_annotate's lines: "1,234 (5.67%)" per event, or a bare "0" or
// "." for none, then "file:function [object]"; its events are ns calls, or ns calls cpu.
function parseAnnotate() {
	const got = new Map();
	const cell = String.raw`([\d,]+|\.)(?:\s+\([^)]*\))?\s+`;
	const re = new RegExp('^\\s*' + cell + cell + (want.cpu ? cell : '') + String.raw`(\S.*?)(?: \[[^\]]*\])?$`);
	const num = (x) => (x === '.' ? 0 : Number(x.replace(/,/g, '')));
	for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
		const m = line.match(re);
		if (!m) continue;
		const name = m[want.cpu ? 4 : 3];
		if (m[1] === '.' && m[2] === '.' && !name.includes(':')) continue;
		got.set(name, { ns: num(m[1]), calls: num(m[2]), cpu: want.cpu ? num(m[3]) : 0 });
	}
	return got;
}

function checkAnnotate() {
	const got = parseAnnotate();
	const totals = got.get('PROGRAM TOTALS');
	got.delete('PROGRAM TOTALS');
	if (!totals) problem('no PROGRAM TOTALS line');
	else {
		compare('total ns', 'PROGRAM TOTALS', totals.ns, want.self);
		compare('total calls', 'PROGRAM TOTALS', totals.calls, want.calls);
		if (want.cpu) compare('total cpu', 'PROGRAM TOTALS', totals.cpu, want.order.reduce((n, k) => n + want.fns.get(k).cpuSelf, 0));
	}
	for (const [label, e] of byLabel) {
		const g = got.get(cgName(`${e.file || '???'}:${label}`));
		if (!g) {
			if (e.calls || e.self) problem(`no line for ${e.file || '???'}:${label}`);
			continue;
		}
		compare('calls', label, g.calls, e.calls);
		compare('self ns', label, g.ns, e.self);
		if (want.cpu) compare('cpu self ns', label, g.cpu, e.cpuSelf);
	}
	if (got.size > byLabel.size) problem(`${got.size} functions, the dumps have ${byLabel.size}`);
	return `${got.size} functions, totals ${totals && totals.ns} ns, ${totals && totals.calls} calls` +
		(want.cpu ? `, ${totals && totals.cpu} ns on a CPU` : '');
}

const checks = { pprof: checkPprof, speedscope: checkSpeedscope, folded: checkFolded, 'callgrind-annotate': checkAnnotate,
	'callgrind-inclusive': checkInclusive };
(async () => {
	if (!checks[format]) throw new Error(`unknown format ${format}`);
	const summary = await checks[format]();
	if (problems.length) {
		for (const p of problems.slice(0, 20)) console.log(p);
		process.exit(1);
	}
	console.log(summary);
})().catch((e) => {
	console.log(String(e && e.stack || e));
	process.exit(1);
});
