// views.js SITE DUMP DIFF_SITE SCALE_SITE HOSTILE_SITE SCREENS: the interactive views of a
// callprof site in headless Chromium, checked against the dumps: the flame graph (zoom, the
// path back, search and its share, Escape, the icicle toggle, hover, keyboard), the
// differential flame graph of callprof diff, the call tree's search and hidden paths, the
// callers tree, and the scale profile's flame page opening and zooming in a generous time.
// Prints "ok - NAME" / "not ok - NAME: WHY" lines (tests/run.sh protocol); exits 1 on failure.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");
const { open } = require("./launch.js");

const [site, dumpPath, diffSite, scaleSite, hostileSite, screens] = process.argv.slice(2);
const SCALE_BOUND_MS = 10000; // a sanity bound, not a benchmark
let failures = 0;
const ok = (name) => console.log("ok - " + name);
const notOk = (name, why) => { failures++; console.log("not ok - " + name + ": " + why); };
const expect = (name, cond, why) => (cond ? ok(name) : notOk(name, why));
const url = (dir, file) => "file://" + path.resolve(dir, file);

// fmtPct as report/fmt.c writes it.
function fmtPct(part, whole) {
	if (!whole) return "-";
	if (!part) return "0%";
	const pct = 100 * part / whole;
	return pct < 0.1 ? "<0.1%" : pct.toFixed(1) + "%";
}

// The data file of a flame page, run as the page runs it.
function dataOf(dir, file) {
	const ctx = { window: {} };
	vm.runInNewContext(fs.readFileSync(path.join(dir, "flame", file), "utf8"), ctx);
	const d = ctx.window.callprofData, parent = [], stack = [];
	d.depth.forEach((dep, i) => { stack.length = dep; parent.push(dep ? stack[dep - 1] : -1); stack.push(i); });
	d.parent = parent;
	d.nameOf = (i) => d.names[d.fn[i]];
	return d;
}

// What the dump says: the time in functions whose name passes test, each call path counted
// once where matches nest (summed over threads), and the run (every function's self time).
function dumpShare(dump, test) {
	let weight = 0, whole = 0;
	const name = new Map(dump.functions.map((f) => [f.id, f.name]));
	for (const t of dump.threads) {
		for (const f of t.functions) whole += f.self_ns;
		const col = (c) => t.tree.columns.indexOf(c);
		const [id, parent, fn, incl] = ["id", "parent", "fn", "inclusive_ns"].map(col);
		const rows = new Map(t.tree.rows.map((r) => [r[id], r]));
		for (const r of t.tree.rows) {
			if (!test(name.get(r[fn]))) continue;
			let p = r[parent], nested = false;
			for (; p !== null && !nested; p = rows.get(p)[parent]) nested = test(name.get(rows.get(p)[fn]));
			if (!nested) weight += r[incl];
		}
	}
	return { weight, whole };
}

// The calls on every caller -> callee edge of the dump, by names ("(root)" for a thread's root).
function dumpEdges(dump) {
	const name = new Map(dump.functions.map((f) => [f.id, f.name]));
	const edges = new Map(), calls = new Map();
	for (const t of dump.threads) {
		for (const e of t.edges) {
			const k = (e.caller === null ? "(root)" : name.get(e.caller)) + " > " + name.get(e.callee);
			edges.set(k, (edges.get(k) || 0) + e.calls);
		}
		for (const f of t.functions) calls.set(name.get(f.fn), (calls.get(name.get(f.fn)) || 0) + f.calls);
	}
	return { edges, calls };
}

async function main() {
	const dump = JSON.parse(fs.readFileSync(dumpPath, "utf8"));
	const { browser, context, page, problems } = await open(30000);
	const shot = (name) => page.screenshot({ path: path.join(screens, name), fullPage: true });
	const ready = async (dir, file) => {
		await page.goto(url(dir, file));
		await page.waitForSelector("#flame-wrap[data-ready]");
	};
	const frames = () => page.evaluate(() => [...document.querySelectorAll("svg.flame a.frame")].map((a) => {
		const r = a.querySelector("rect"), t = a.querySelector("text");
		return { n: Number(a.getAttribute("data-n")), cls: a.getAttribute("class"), href: a.getAttribute("href"),
			text: t ? t.textContent : "", x: Number(r.getAttribute("x")), y: Number(r.getAttribute("y")),
			w: Number(r.getAttribute("width")), fill: r.getAttribute("fill"), label: a.getAttribute("aria-label") };
	}));
	const zoomed = () => page.locator("svg.flame").getAttribute("data-zoom").then(Number);
	const clickFrame = (n) => page.locator(`svg.flame a.frame[data-n="${n}"] rect`).click();
	const search = async (q, regex) => {
		if ((await page.isChecked("#flame-regex")) !== !!regex) await page.click("#flame-regex");
		await page.fill("#flame-search", q);
		await page.waitForFunction((q) => document.getElementById("flame-match").getAttribute("data-query") === q,
			(regex ? "re:" : "") + q);
	};

	// ---- the flame graph ----
	const d = dataOf(site, "all.data.js");
	await ready(site, "flame/all.html");
	expect("the flame graph turns interactive under the page's CSP, from file://",
		await page.locator("#flame-ui").isVisible() && !(await page.locator("#flame-static-hint").isVisible()),
		"the controls are hidden");
	const first = await frames();
	expect("every node wide enough is drawn as a box linking to its function's page",
		first.length === d.depth.length && first.every((f) => /^\.\.\/fn\/\d+\/\d+\.html$/.test(f.href)),
		first.length + " boxes for " + d.depth.length + " nodes");

	// Zoom into a box too narrow for its label until the label shows whole.
	const narrow = first.find((f) => f.text === "" || f.text.endsWith(".."));
	if (!narrow) {
		notOk("zooming into a box narrower than its label shows the label", "every label fits already");
	} else {
		const name = d.nameOf(narrow.n);
		for (let step = 0; step < 8; step++) {
			const now = await frames(), here = now.find((f) => f.n === narrow.n);
			if (here && here.text === name) break;
			let k = narrow.n; // the drawn box nearest the target on its path
			while (!now.some((f) => f.n === k)) k = d.parent[k];
			await clickFrame(k);
		}
		const after = (await frames()).find((f) => f.n === narrow.n);
		await shot("views-1-zoomed.png");
		expect("zooming into a box narrower than its label shows the label (" + name + ")",
			after && after.text === name && (await zoomed()) === narrow.n && after.x === 0,
			after ? "label " + JSON.stringify(after.text) + " at x " + after.x : "the box is gone");
		const crumbs = await page.locator("#flame-crumbs button").allTextContents();
		const want = [];
		for (let k = d.parent[narrow.n]; k >= 0; k = d.parent[k]) want.unshift(d.nameOf(k));
		expect("the path above the graph names every caller of the zoomed box",
			JSON.stringify(crumbs) === JSON.stringify(["All"].concat(want)) &&
			(await page.locator("#flame-crumbs .here").textContent()) === name, JSON.stringify(crumbs));
		if (want.length) {
			await page.locator("#flame-crumbs button").last().click();
			expect("a caller in the path zooms out to it", (await zoomed()) === d.parent[narrow.n], "zoom " + (await zoomed()));
		}
		await page.locator("#flame-crumbs button", { hasText: "All" }).click();
		expect("the path's first step returns to the whole graph",
			(await zoomed()) === -1 && (await frames()).length === first.length, "zoom " + (await zoomed()));
	}

	// Search: exactly the boxes of the matching functions, and their share from the dump.
	for (const [q, regex, test] of [["fib", false, (s) => s === "fib"],
		["^(compute|fib)$", true, (s) => s === "compute" || s === "fib"]]) {
		await search(q, regex);
		const now = await frames(), bad = now.filter((f) => /\bmatch\b/.test(f.cls) !== test(d.nameOf(f.n)));
		expect("search " + JSON.stringify(q) + " highlights exactly the boxes of the matching functions",
			bad.length === 0 && now.some((f) => /\bmatch\b/.test(f.cls)),
			bad.length + " boxes wrong: " + bad.slice(0, 3).map((f) => d.nameOf(f.n)).join(", "));
		const want = dumpShare(dump, test), out = page.locator("#flame-match");
		const text = await out.textContent();
		expect("search " + JSON.stringify(q) + " reports the matches' share of the time, counted once where they nest",
			Number(await out.getAttribute("data-weight")) === want.weight &&
			Number(await out.getAttribute("data-whole")) === want.whole && text.includes(fmtPct(want.weight, want.whole) + " of the time"),
			text + " (the dump: " + want.weight + " of " + want.whole + " ns)");
	}
	await shot("views-2-search.png");
	await search("(", true);
	expect("a bad regular expression says so", (await page.locator("#flame-search.bad").count()) === 1 &&
		(await page.locator("#flame-match").textContent()).startsWith("Not a regular expression"),
		await page.locator("#flame-match").textContent());

	// Escape resets the zoom and the search.
	await search("fib", false);
	await clickFrame(first[1].n);
	await page.keyboard.press("Escape");
	const reset = await frames();
	expect("Escape resets the zoom and the search", (await zoomed()) === -1 && reset.length === first.length &&
		!reset.some((f) => /\b(match|dim)\b/.test(f.cls)) && (await page.inputValue("#flame-search")) === "",
		"zoom " + (await zoomed()) + ", " + reset.filter((f) => /match/.test(f.cls)).length + " matches");

	// The icicle toggle: roots on top, then at the bottom, then on top again.
	const rootY = async () => (await frames()).find((f) => f.n === 0).y;
	const y0 = await rootY();
	await page.click("#flame-flip");
	const y1 = await rootY();
	const pressed = await page.getAttribute("#flame-flip", "aria-pressed");
	await shot("views-3-flame.png");
	await page.click("#flame-flip");
	expect("the icicle toggle puts the roots at the bottom and back", y0 === 0 && y1 > 0 && pressed === "true" &&
		(await rootY()) === 0, "root at y " + y0 + ", " + y1 + ", pressed " + pressed);

	// Hover: the figures of the box.
	const compute = first.find((f) => d.nameOf(f.n) === "compute");
	await page.locator(`svg.flame a.frame[data-n="${compute.n}"] rect`).hover();
	const tip = await page.locator("#flame-tip").innerText();
	expect("hovering a box shows its figures", (await page.locator("#flame-tip").isVisible()) &&
		tip.includes("compute") && /inclusive 70\.0 ms \(75\.7% of all\)/.test(tip) && /calls 10\b/.test(tip),
		JSON.stringify(tip));

	// The keyboard: into the graph, down to a callee, Enter zooms, Tab reaches its page's link.
	await page.mouse.move(0, 0);
	await page.focus('svg.flame a.frame[tabindex="0"]');
	await page.keyboard.press("ArrowDown");
	const focused = await page.evaluate(() => Number(document.activeElement.getAttribute("data-n")));
	await page.keyboard.press("Enter");
	const zk = await zoomed();
	await page.keyboard.press("Tab");
	const link = await page.evaluate(() => ({ id: document.activeElement.id, cls: document.activeElement.className,
		href: document.activeElement.getAttribute("href"), inDetails: !!document.activeElement.closest("#flame-details") }));
	expect("the keyboard moves between boxes, Enter zooms, and Tab reaches the box's page",
		d.parent[focused] === 0 && zk === focused && link.inDetails && link.href === "../fn/" + Math.floor(d.links[d.fn[focused]] / 1000) + "/" + d.links[d.fn[focused]] + ".html",
		"focused " + focused + ", zoom " + zk + ", then " + JSON.stringify(link));
	await page.keyboard.press("Enter");
	await page.waitForURL(/\/fn\/\d+\/\d+\.html$/);
	expect("the link under the graph opens the function's page",
		(await page.locator("h1").first().innerText()).trim() === d.nameOf(focused), await page.locator("h1").first().innerText());

	// Ctrl-click keeps the box a link: the function's page opens in a new tab.
	await ready(site, "flame/all.html");
	const [tab] = await Promise.all([context.waitForEvent("page"),
		page.locator(`svg.flame a.frame[data-n="${compute.n}"] rect`).click({ modifiers: ["Control"] })]);
	await tab.waitForLoadState();
	expect("Ctrl-click on a box opens its function's page in a new tab", /\/fn\/\d+\/\d+\.html$/.test(tab.url()) &&
		(await tab.locator("h1").first().innerText()).trim() === "compute" && (await zoomed()) === -1, tab.url());
	await tab.close();

	// ---- the differential flame graph ----
	const dd = dataOf(diffSite, "all.data.js");
	const rgb = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
	const colours = async () => Object.fromEntries((await frames()).map((f) => [dd.nameOf(f.n), rgb(f.fill)]));
	await ready(diffSite, "flame/all.html");
	await shot("views-4-diff.png");
	const c = await colours();
	const red = (x) => x && x[0] > x[2] + 80, blue = (x) => x && x[2] > x[0] + 80, grey = (x) => x && x[0] === x[1] && x[1] === x[2];
	expect("the differential flame graph colours the box that grew red, the one that shrank blue, the same grey",
		red(c.grow) && blue(c.shrink) && grey(c.same) && grey(c.leaf), JSON.stringify(c));
	await search("grow", false);
	expect("the differential graph searches like the other", (await page.locator("svg.flame a.match").count()) === 1,
		await page.locator("#flame-match").textContent());
	const nojs = await browser.newContext({ javaScriptEnabled: false });
	const p2 = await nojs.newPage();
	await p2.goto(url(diffSite, "flame/all.html"));
	const stat = await p2.evaluate(() => Object.fromEntries([...document.querySelectorAll("svg.flame a")].map((a) =>
		[a.querySelector("title").textContent.split(" \u2014 ")[0], a.querySelector("rect").getAttribute("fill")])));
	expect("without JavaScript the differential picture has the same colours",
		["grow", "shrink", "same"].every((n) => JSON.stringify(rgb(stat[n])) === JSON.stringify(c[n])), JSON.stringify(stat));

	// ---- the call tree ----
	await page.goto(url(site, "tree/all.html"));
	const closed = await page.locator("ul.tree details:not([open])").count();
	await page.fill("#tree-filter", "parse_line");
	await page.waitForFunction(() => document.getElementById("tree-found").getAttribute("data-query") === "parse_line");
	const rows = page.locator("#tree .match");
	const seen = await rows.evaluateAll((rs) => rs.map((r) => {
		let open = true;
		for (let p = r.parentElement; p && p.id !== "tree"; p = p.parentElement) if (p.tagName === "DETAILS" && !p.open) open = false;
		const a = r.querySelector("a.fn");
		return { name: a && a.textContent, open };
	}));
	await shot("views-5-tree.png");
	expect("the tree search opens the paths to every matching node", closed > 0 && seen.length === 2 &&
		seen.every((s) => s.name === "parse_line" && s.open) && (await rows.first().isVisible()) &&
		(await page.getAttribute("#tree-found", "data-paths")) === "2", JSON.stringify(seen) + ", " + closed + " closed");

	// ---- the callers tree ----
	await page.goto(url(site, "tree/callers.html"));
	const callers = await page.evaluate(() => [...document.querySelectorAll("#tree > li")].map((li) => {
		const calls = (e) => Number(e.querySelector(".figs").textContent.match(/([\d,]+) calls?$/)[1].replace(/,/g, ""));
		const row = (e) => e.querySelector(":scope > details > summary, :scope > .row");
		const kids = [...li.querySelectorAll(":scope > details > ul > li:not(.hidden)")];
		return { name: row(li).querySelector("a.fn").textContent, calls: calls(row(li)),
			callers: kids.map((k) => ({ name: (row(k).querySelector("a.fn") || { textContent: "(root)" }).textContent,
				calls: calls(row(k)) })) };
	}));
	const want = dumpEdges(dump), wrong = [];
	for (const f of callers) {
		if (f.calls !== want.calls.get(f.name)) wrong.push(f.name + " " + f.calls + " calls");
		const into = [...want.edges.entries()].filter(([k]) => k.endsWith(" > " + f.name));
		const plain = into.length === 1 && into[0][0].startsWith("(root)"); // main: no callers to list
		if (!plain && into.length !== f.callers.length) wrong.push(f.name + ": " + f.callers.length + " callers");
		for (const k of f.callers)
			if (want.edges.get(k.name + " > " + f.name) !== k.calls) wrong.push(k.name + " > " + f.name + " " + k.calls);
	}
	expect("the callers tree lists every function's callers with the dump's call counts (" + callers.length + " functions)",
		callers.length === dump.functions.length && wrong.length === 0, wrong.slice(0, 4).join("; "));

	// ---- the hostile names' flame page: </script>, U+2028 and markup stay text ----
	const hd = dataOf(hostileSite, "all.data.js");
	await ready(hostileSite, "flame/all.html");
	const hf = await frames();
	expect("names holding </script>, U+2028 and markup show as text in the interactive graph",
		hf.length > 0 && hf.every((f) => f.label.startsWith(hd.nameOf(f.n))) &&
		hd.names.some((n) => n.includes("</script>") && n.includes("\u2028")), hf.slice(0, 1).map((f) => f.label).join());

	// ---- the scale profile ----
	const sd = dataOf(scaleSite, "all.data.js");
	let t0 = Date.now();
	await ready(scaleSite, "flame/all.html");
	const openMs = Date.now() - t0;
	const sf = await frames();
	const deep = sf.filter((f) => sd.depth[f.n] > 2 && f.w >= 3 && f.w < 600).sort((a, b) => b.w - a.w)[0];
	t0 = Date.now();
	if (deep) await clickFrame(deep.n);
	await page.waitForFunction((n) => document.querySelector("svg.flame").getAttribute("data-zoom") === String(n), deep && deep.n);
	const zoomMs = Date.now() - t0;
	const zf = await frames();
	await shot("views-6-scale.png");
	expect("the scale profile's flame page (" + sd.depth.length + " nodes) opens in " + openMs + " ms (bound " + SCALE_BOUND_MS + ")",
		sd.depth.length >= 100000 && openMs < SCALE_BOUND_MS && sf.length > 0, openMs + " ms, " + sf.length + " boxes");
	expect("and zooms into a box in " + zoomMs + " ms, its callees drawn at full width",
		deep && zoomMs < SCALE_BOUND_MS && zf.some((f) => f.n === deep.n && f.x === 0 && f.w > 1000) && zf.length > 1,
		zoomMs + " ms, " + zf.length + " boxes");

	// The scale tree: hidden paths shown on demand, and a search reaching into them.
	await page.goto(url(scaleSite, "tree/all.html"));
	const shown = new Set(await page.$$eval("#tree li[data-n]", (l) => l.map((e) => Number(e.getAttribute("data-n")))));
	const line = page.locator("#tree li.hidden button.show-hidden:visible").first();
	const parentN = Number(await line.evaluate((b) => b.closest("li").getAttribute("data-parent")));
	const before = await page.locator("#tree li[data-n]").count();
	await line.click();
	await page.waitForFunction((n) => document.querySelectorAll("#tree li[data-n]").length > n, before);
	const kids = [];
	for (let j = parentN + 1; j < sd.depth.length && sd.depth[j] > sd.depth[parentN]; j++)
		if (sd.depth[j] === sd.depth[parentN] + 1 && !shown.has(j)) kids.push(j);
	const made = await page.$$eval("#tree li[data-n]", (l) => l.map((e) => Number(e.getAttribute("data-n"))));
	const added = made.filter((n) => !shown.has(n));
	expect("a hidden line shows its callees on demand (" + added.length + " rows)",
		added.length === Math.min(kids.length, 200) && added.every((n) => kids.includes(n)),
		added.length + " rows for " + kids.length + " hidden callees");
	const onPage = new Set(made.map((n) => sd.fn[n]));
	const hiddenFn = sd.fn.findIndex((f) => !onPage.has(f));
	const hname = sd.names[sd.fn[hiddenFn]], hcount = sd.fn.filter((f) => f === sd.fn[hiddenFn]).length;
	await page.click("#tree-regex");
	await page.fill("#tree-filter", "^" + hname + "$");
	await page.waitForFunction((q) => document.getElementById("tree-found").getAttribute("data-query") === q,
		"re:^" + hname + "$");
	const hit = await page.locator("#tree .match a.fn").allTextContents();
	expect("the tree search opens paths the page had hidden (" + hname + ": " + hcount + " paths)",
		Number(await page.getAttribute("#tree-found", "data-paths")) === hcount && hit.length === Math.min(hcount, 100) &&
		hit.every((n) => n === hname) && (await page.locator("#tree .match").first().isVisible()),
		(await page.locator("#tree-found").textContent()) + " " + hit.length + " rows");

	expect("no console error, script error, dialog or network request", problems.length === 0, problems.slice(0, 5).join("; "));
	await browser.close();
}

main().then(() => process.exit(failures ? 1 : 0), (e) => {
	notOk("browser run", String(e && e.stack || e).split("\n").slice(0, 3).join(" "));
	process.exit(1);
});
