// linkcheck.js SITE [NFUNCS]: checks a report site the way a browser on file:// would see it.
//  - every href/src in every page is relative (no scheme, no //host, no /root) and names a
//    file of the site; a #fragment names an id in that file;
//  - every page reachable from index.html, and with NFUNCS, the function pages
//    fn/<i/1000>/<i>.html for i = 0 .. NFUNCS-1 are all reachable from index.html by links alone.
// Prints the problems (at most 20) and exits 1 if there are any.
"use strict";
const fs = require("fs");
const path = require("path");

const site = path.resolve(process.argv[2]);
const nfuncs = process.argv[3] === undefined ? -1 : Number(process.argv[3]);
const problems = [];
const ids = new Map(); // file -> Set of ids

function decode(s) {
	return s.replace(/&(amp|lt|gt|quot|#39);/g, (m, e) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e]);
}

function idsOf(file) {
	if (!ids.has(file)) {
		const set = new Set();
		if (file.endsWith(".html")) {
			const text = fs.readFileSync(file, "utf8");
			for (const m of text.matchAll(/\sid="([^"]*)"/g)) set.add(decode(m[1]));
		}
		ids.set(file, set);
	}
	return ids.get(file);
}

// links: the relative targets of a page, resolved to absolute paths (fragments checked here).
function links(file) {
	const text = fs.readFileSync(file, "utf8");
	const out = [];
	for (const m of text.matchAll(/\s(href|src)="([^"]*)"/g)) {
		const raw = decode(m[2]);
		const where = path.relative(site, file) + ": " + m[1] + '="' + raw + '"';
		if (/^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith("//") || raw.startsWith("/")) {
			problems.push(where + " is not a relative link");
			continue;
		}
		const [target, frag] = raw.split("#", 2);
		const abs = target === "" ? file : path.resolve(path.dirname(file), target);
		if (!abs.startsWith(site + path.sep)) {
			problems.push(where + " leaves the site");
			continue;
		}
		if (!fs.existsSync(abs) || !fs.statSync(abs).isFile()) {
			problems.push(where + " names no file");
			continue;
		}
		if (frag !== undefined && frag !== "" && !idsOf(abs).has(frag))
			problems.push(where + " names no id in " + path.relative(site, abs));
		out.push(abs);
	}
	return out;
}

const start = path.join(site, "index.html");
if (!fs.existsSync(start)) {
	console.log("no index.html in " + site);
	process.exit(1);
}
const seen = new Set([start]);
const queue = [start];
while (queue.length) {
	const file = queue.shift();
	for (const target of links(file)) {
		if (target.endsWith(".html") && !seen.has(target)) {
			seen.add(target);
			queue.push(target);
		}
	}
}
// Pages nothing links to are still checked, and reported (function pages are in folders of 1,000).
const fnDir = path.join(site, "fn");
const shards = fs.existsSync(fnDir) ? fs.readdirSync(fnDir).filter((n) => /^[0-9]+$/.test(n)).map((n) => path.join("fn", n)) : [];
for (const dir of ["", "fn", "tree", "flame", "thread", ...shards]) {
	const d = path.join(site, dir);
	if (!fs.existsSync(d)) continue;
	for (const name of fs.readdirSync(d)) {
		const file = path.join(d, name);
		if (!name.endsWith(".html") || seen.has(file)) continue;
		problems.push(path.relative(site, file) + " is not reachable from index.html");
		links(file);
	}
}
for (let i = 0; i < nfuncs; i++)
	if (!seen.has(path.join(site, "fn", String(Math.floor(i / 1000)), i + ".html")))
		problems.push("fn/" + Math.floor(i / 1000) + "/" + i + ".html (a function of the dump) is not reachable from index.html");

for (const p of problems.slice(0, 20)) console.log(p);
if (problems.length > 20) console.log("... and " + (problems.length - 20) + " more");
console.log(seen.size + " pages reachable, " + problems.length + " problems");
process.exit(problems.length ? 1 : 0);
