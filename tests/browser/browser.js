// browser.js SITE DUMP SCREENS [HOSTILE_SITE [EVERY_FIELD_SITE]]: clicks through a callprof
// report in headless Chromium the way a developer would, and checks what it shows against the
// dump itself.  EVERY_FIELD_SITE (markup and script in every string of its dump) is opened
// page by page: no script of its strings may run, no dialog open, nothing load remotely.
// Prints "ok - NAME" / "not ok - NAME: WHY" lines (tests/run.sh protocol); exits 1 on failure.
"use strict";
const fs = require("fs");
const path = require("path");
const { open } = require("./launch.js");

const [site, dumpPath, screens, hostileSite, everyFieldSite] = process.argv.slice(2);
const url = (file) => "file://" + path.resolve(site, file);
let failures = 0;
const ok = (name) => console.log("ok - " + name);
const notOk = (name, why) => { failures++; console.log("not ok - " + name + ": " + why); };
const expect = (name, cond, why) => (cond ? ok(name) : notOk(name, why));

// The figures as the report prints them (report/fmt.c).
function fmtCount(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
function sig3(v, unit) {
	if (v < 9.995) return v.toFixed(2) + " " + unit;
	if (v < 99.95) return v.toFixed(1) + " " + unit;
	return v.toFixed(0) + " " + unit;
}
function fmtNs(ns) {
	if (ns < 1000) return ns + " ns";
	if (ns < 999.5e3) return sig3(ns / 1e3, "\u00b5s");
	if (ns < 999.5e6) return sig3(ns / 1e6, "ms");
	return sig3(ns / 1e9, "s");
}

// What the dump says: per-function totals and edges, summed over threads.
function expected(dump) {
	const fns = new Map(dump.functions.map((f) => [f.id, { name: f.name, calls: 0, self: 0, incl: 0 }]));
	const edges = new Map();
	for (const t of dump.threads) {
		for (const s of t.functions) {
			const f = fns.get(s.fn);
			f.calls += s.calls; f.self += s.self_ns; f.incl += s.inclusive_ns;
		}
		for (const e of t.edges) {
			const k = e.caller + ">" + e.callee;
			const x = edges.get(k) || { caller: e.caller, callee: e.callee, incl: 0 };
			x.incl += e.inclusive_ns;
			edges.set(k, x);
		}
	}
	const all = [...fns.entries()];
	all.sort((a, b) => b[1].self - a[1].self || b[1].incl - a[1].incl);
	const hottest = all[0];
	const kids = [...edges.values()].filter((e) => e.caller === hottest[0] && e.callee !== hottest[0]);
	kids.sort((a, b) => b.incl - a.incl);
	return { hottest: hottest[1], child: fns.get(kids[0].callee), order: all.map((x) => x[1].name) };
}

async function main() {
	const want = expected(JSON.parse(fs.readFileSync(dumpPath, "utf8")));
	const { browser, page, problems } = await open(15000);
	const shot = (name, full) => page.screenshot({ path: path.join(screens, name), fullPage: !!full });
	const h1 = async () => (await page.locator("h1").first().innerText()).trim();

	// The index, with its script allowed by the Content-Security-Policy.
	await page.goto(url("index.html"));
	await shot("1-index.png", true);
	expect("index opens from file://", (await page.title()).startsWith("Overview"), await page.title());
	expect("sort.js runs under the page's CSP (the filter box shows)", await page.locator("p.search").isVisible(),
		"the filter box is still hidden");
	const firstName = () => page.locator("#flat-table tbody tr:visible td.name a").first().innerText();
	expect("the flat profile starts with the hottest function", (await firstName()) === want.order[0], await firstName());
	await page.locator("#flat-table th", { hasText: "Calls" }).click();
	const byCalls = await firstName();
	await page.locator("#flat-table th", { hasText: "Function" }).click();
	const byName = await firstName();
	const sortedNames = [...want.order].sort();
	expect("clicking a column heading sorts by it", byCalls === "cmp_int" && byName === sortedNames[0],
		"by calls: " + byCalls + ", by name: " + byName);
	await page.locator("#filter").fill("fib");
	const visible = await page.locator("#flat-table tbody tr:visible").count();
	expect("the search box filters the flat profile", visible === 1 && (await firstName()) === "fib",
		visible + " rows visible");
	await page.locator("#filter").fill("");

	// Drill down: the hottest function, then its costliest callee.
	await page.locator("#top-self a.fn").first().click();
	await page.waitForURL(/\/fn\/\d+\/\d+\.html$/);
	await shot("2-hottest.png", true);
	expect("a click on the hottest function opens its page", (await h1()) === want.hottest.name,
		"h1 is " + (await h1()));
	await page.locator("#callees tbody tr").first().locator("a.fn").click();
	await page.waitForURL(/\/fn\/\d+\/\d+\.html$/);
	await shot("3-child.png", true);
	expect("a click on its costliest callee opens that page", (await h1()) === want.child.name, "h1 is " + (await h1()));
	const calls = page.locator("#fig-calls");
	const incl = page.locator("#fig-incl");
	expect("the callee's page shows the dump's call count",
		(await calls.innerText()) === fmtCount(want.child.calls) &&
		(await calls.getAttribute("data-v")) === String(want.child.calls),
		(await calls.innerText()) + " for " + want.child.calls);
	expect("the callee's page shows the dump's inclusive time",
		(await incl.innerText()) === fmtNs(want.child.incl) &&
		(await incl.getAttribute("data-v")) === String(want.child.incl),
		(await incl.innerText()) + " for " + want.child.incl + " ns");

	// The call tree: fold a closed node open.
	await page.locator("nav.main a", { hasText: "Call tree" }).click();
	await page.waitForURL(/tree\/all\.html$/);
	const closed = page.locator("ul.tree details:not([open])").first();
	const nClosed = await page.locator("ul.tree details:not([open])").count();
	if (nClosed === 0) {
		notOk("a tree node expands on click", "no collapsed node in the tree");
	} else {
		const node = await closed.elementHandle(); // the locator would stop matching once open
		await (await node.$("summary")).click();
		expect("a tree node expands on click", await node.evaluate((e) => e.open), "still closed");
	}
	await shot("4-tree.png", true);

	// The flame graph: the frame of the hottest function, then the link to its page (a plain
	// click zooms; static/flame.js keeps each frame a link for Ctrl-click and the keyboard).
	await page.locator("nav.main a", { hasText: "Flame graph" }).click();
	await page.waitForURL(/flame\/all\.html$/);
	await page.waitForSelector("#flame-wrap[data-ready]");
	await shot("5-flame.png", false);
	const frames = page.locator("svg.flame a.frame");
	let target = -1;
	for (let i = 0; i < (await frames.count()); i++)
		if ((await frames.nth(i).getAttribute("aria-label")).startsWith(want.hottest.name + " \u2014")) { target = i; break; }
	if (target < 0) {
		notOk("a flame graph frame links to its function", "no frame for " + want.hottest.name);
	} else {
		await frames.nth(target).locator("rect").click();
		await page.locator("#flame-details a.open").click();
		await page.waitForURL(/\/fn\/\d+\/\d+\.html$/);
		expect("a flame graph frame links to its function", (await h1()) === want.hottest.name, "h1 is " + (await h1()));
	}

	// Without JavaScript: pre-sorted tables, no filter box, trees still fold.
	const nojs = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
	const p2 = await nojs.newPage();
	await p2.goto(url("index.html"));
	const first2 = await p2.locator("#flat-table tbody tr td.name a").first().innerText();
	expect("without JavaScript the flat profile is sorted by self time and the filter hidden",
		first2 === want.order[0] && !(await p2.locator("p.search").isVisible()), first2);
	await p2.goto(url("tree/all.html"));
	const closed2 = p2.locator("ul.tree details:not([open])").first();
	if ((await p2.locator("ul.tree details:not([open])").count()) > 0) {
		const node = await closed2.elementHandle();
		await (await node.$("summary")).click();
		expect("without JavaScript a tree node expands", await node.evaluate((e) => e.open), "still closed");
	}
	await p2.goto(url("flame/all.html"));
	const staticFrame = p2.locator("svg.flame a").filter({ has: p2.locator("title", { hasText: want.hottest.name + " \u2014" }) });
	if ((await staticFrame.count()) > 0) {
		await staticFrame.first().locator("rect").click();
		await p2.waitForURL(/\/fn\/\d+\/\d+\.html$/);
		expect("without JavaScript a flame graph frame opens its function's page",
			(await p2.locator("h1").first().innerText()).trim() === want.hottest.name, p2.url());
	} else {
		notOk("without JavaScript a flame graph frame opens its function's page", "no frame for " + want.hottest.name);
	}
	await nojs.close();

	// Hostile names: shown as text, never run.
	if (hostileSite) {
		await page.goto("file://" + path.resolve(hostileSite, "index.html"));
		await shot("6-hostile.png", true);
		const text = await page.locator("#flat-table").innerText();
		expect("hostile names show as text", text.includes("<script>alert(1)</script>") && text.includes("a&b"),
			"not in the flat profile");
	}
	if (everyFieldSite) {
		const pages = [];
		const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).forEach((e) => {
			const p = path.join(dir, e.name);
			if (e.isDirectory()) walk(p); else if (e.name.endsWith(".html")) pages.push(p);
		});
		walk(path.resolve(everyFieldSite));
		let foreign = [];
		for (const p of pages) {
			await page.goto("file://" + p);
			// Elements a payload would have made: scripts not the site's, handlers, images, javascript: links.
			foreign = foreign.concat(await page.evaluate(() => [
				...[...document.scripts].filter((s) => !/\/static\/(sort|names|profile|flame|tree)\.js$|\/flame\/(all|t\d+)\.data\.js$/.test(s.src)).map((s) => "script " + s.outerHTML.slice(0, 60)),
				...[...document.querySelectorAll("img, iframe, object, embed")].map((e) => e.tagName),
				...[...document.querySelectorAll("*")].filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).map((e) => "handler on " + e.tagName),
				...[...document.querySelectorAll("[href], [src]")].filter((e) => /^\s*javascript:/i.test(e.getAttribute("href") || e.getAttribute("src"))).map((e) => "javascript: link"),
			]).then((l) => l.map((x) => path.relative(path.resolve(everyFieldSite), p) + ": " + x)));
		}
		expect("every page of the every-field hostile site opens with nothing of its strings run or made markup (" +
			pages.length + " pages)", pages.length > 10 && foreign.length === 0, foreign.slice(0, 5).join("; ") || pages.length + " pages");
	}
	expect("no console error, script error, dialog or network request", problems.length === 0, problems.join("; "));
	await browser.close();
}

main().then(() => process.exit(failures ? 1 : 0), (e) => {
	notOk("browser run", String(e && e.stack || e).split("\n").slice(0, 3).join(" "));
	process.exit(1);
});
