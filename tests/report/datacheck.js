// datacheck.js SITE DUMP...: the data files of a report or diff site (flame/*.data.js) are
// scripts that only set window.callprofData.  Each one, run in an empty context, gives names
// that are exactly the dumps' function names (so every string was escaped for a script, even
// "</script>" and U+2028), arrays of one length, depths that go down one level at a time;
// and no byte of it could end a <script> element or a line of older JavaScript (no raw
// <, >, & or U+2028/U+2029 past the comment on its first line).
// Prints the problems (at most 20) and exits 1 if there are any.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const [site, ...dumps] = process.argv.slice(2);
const names = new Set(["(anonymous)"]);
for (const d of dumps) for (const f of JSON.parse(fs.readFileSync(d, "utf8")).functions) names.add(f.name);
const problems = [];
const files = fs.readdirSync(path.join(site, "flame")).filter((f) => f.endsWith(".data.js"));
if (!files.length) problems.push("no data files in " + site + "/flame");
for (const f of files) {
	const file = path.join(site, "flame", f);
	const text = fs.readFileSync(file, "utf8");
	const body = text.slice(text.indexOf("\n") + 1);
	const raw = body.match(/[<>&\u2028\u2029]/);
	if (raw) problems.push(f + ": a raw " + JSON.stringify(raw[0]) + " at " + (text.indexOf("\n") + 1 + raw.index));
	const ctx = { window: {} };
	try {
		vm.runInNewContext(text, ctx, { timeout: 10000 });
	} catch (e) {
		problems.push(f + ": does not run: " + e.message);
		continue;
	}
	const d = ctx.window.callprofData;
	if (Object.keys(ctx).length !== 1 || Object.keys(ctx.window).length !== 1 || !d) {
		problems.push(f + ": sets more than window.callprofData");
		continue;
	}
	for (const name of d.names)
		if (!names.has(name) && !(name.endsWith("\u2026") && [...names].some((n) => n.startsWith(name.slice(0, -1)))))
			problems.push(f + ": a name that is no dump's: " + JSON.stringify(name.slice(0, 80)));
	const n = d.depth.length;
	for (const k of ["fn", "weight", "self", "calls"].concat(d.base ? ["base"] : []))
		if (d[k].length !== n) problems.push(f + ": " + k + " has " + d[k].length + " entries, depth " + n);
	if (d.files.length !== d.names.length || d.links.length !== d.names.length)
		problems.push(f + ": files or links do not match names");
	for (let i = 0; i < n; i++) {
		if (d.depth[i] > (i ? d.depth[i - 1] + 1 : 0) || d.fn[i] < 0 || d.fn[i] >= d.names.length) {
			problems.push(f + ": node " + i + " is out of order or names no function");
			break;
		}
	}
}
problems.slice(0, 20).forEach((p) => console.log(p));
process.exit(problems.length ? 1 : 0);
