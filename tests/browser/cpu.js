// cpu.js SITE DUMP SCREENS HIDDEN_SITE: CPU time in headless Chromium, on the site of a dump
// with CPU time (tests/report/fixtures/c-cpu.json): the flame graph's switch to the flame graph
// of CPU time and back, boxes sized by CPU time there, the index's cards of CPU and off-CPU
// time, and the call tree's rows, those the page has and (HIDDEN_SITE: c-cpu with the path
// write_output -> parse_line cut to 50 us, 40 of them on a CPU, an estimate with a standard
// error of 10 us) those tree.js draws; and (ESTIMATE_SITE) estimates in the flame graphs' tooltips.
// Prints "ok - NAME" / "not ok - NAME: WHY" lines (tests/run.sh protocol); exits 1 on failure.
"use strict";
const fs = require("fs");
const path = require("path");
const { open } = require("./launch.js");

const [site, dumpPath, screens, hiddenSite, estimateSite] = process.argv.slice(2);
let failures = 0;
const ok = (name) => console.log("ok - " + name);
const notOk = (name, why) => { failures++; console.log("not ok - " + name + ": " + why); };
const expect = (name, cond, why) => (cond ? ok(name) : notOk(name, why));
const url = (file) => "file://" + path.resolve(site, file);

async function main() {
	const dump = JSON.parse(fs.readFileSync(dumpPath, "utf8"));
	const { browser, page, problems } = await open(30000);
	const name = new Map(dump.functions.map((f) => [f.id, f.name]));
	const t = dump.threads[0], col = (c) => t.tree.columns.indexOf(c);
	// The width a box of function fn under main has, as a share of main's, by wall and by CPU time
	// (the CPU one summed from CPU self times up the tree, as the flame graph of CPU time draws it).
	const rowOf = (fn) => t.tree.rows.find((r) => name.get(r[col("fn")]) === fn && r[col("parent")] === 0);
	const cpuIncl = (r) => r[col("cpu_self_ns")] + t.tree.rows.filter((k) => k[col("parent")] === r[col("id")])
		.reduce((s, k) => s + cpuIncl(k), 0);
	const main = t.tree.rows[0], compute = rowOf("compute");
	const wantWall = compute[col("inclusive_ns")] / main[col("inclusive_ns")];
	const wantCpu = cpuIncl(compute) / cpuIncl(main);
	const share = (fn) => page.evaluate((fn) => {
		const boxes = [...document.querySelectorAll("svg.flame a.frame")].map((a) => ({
			text: a.querySelector("text") ? a.querySelector("text").textContent : "",
			w: Number(a.querySelector("rect").getAttribute("width")) }));
		const root = boxes.find((b) => b.text === "main"), box = boxes.find((b) => b.text === fn);
		return root && box ? box.w / root.w : -1;
	}, fn);

	await page.goto(url("flame/all.html"));
	await page.waitForSelector("#flame-wrap[data-ready]");
	const wall = await share("compute");
	expect("the flame graph of wall time sizes compute by its wall time",
		Math.abs(wall - wantWall) < 0.01, "share " + wall + ", expected " + wantWall);
	await page.click("#to-cpu");
	await page.waitForSelector("#flame-wrap[data-ready]");
	const cpu = await share("compute");
	await page.screenshot({ path: path.join(screens, "cpu-1-flame.png"), fullPage: true });
	expect("its switch opens the flame graph of CPU time, which sizes compute by its CPU time",
		page.url().endsWith("/flame/all-cpu.html") && Math.abs(cpu - wantCpu) < 0.01,
		page.url() + ": share " + cpu + ", expected " + wantCpu);
	await page.click("#to-wall");
	await page.waitForSelector("#flame-wrap[data-ready]");
	expect("and its switch leads back", page.url().endsWith("/flame/all.html"), page.url());

	await page.goto(url("index.html"));
	const firstOf = (id) => page.locator("#" + id + " tr td.name a").first().textContent();
	const topSelf = await firstOf("top-self"), topCpu = await firstOf("top-cpu-self"),
		topOff = await firstOf("top-off-cpu-self");
	await page.click("a[href='#cpu']");
	const inView = await page.locator("#cpu h2").first().isVisible();
	await page.screenshot({ path: path.join(screens, "cpu-2-index.png") });
	expect("the index's cards: compute tops wall self time, fib CPU self time, compute off-CPU time",
		topSelf === "compute" && topCpu === "fib" && topOff === "compute" && inView,
		[topSelf, topCpu, topOff, inView].join(", "));

	await page.goto(url("tree/all.html"));
	const computeRow = await page.locator("#tree li[data-n] .figs").nth(1).textContent();
	expect("the call tree's rows say how much ran on a CPU: compute 40 of 70 ms",
		computeRow === "70.0 ms \u00b7 self 40.0 ms \u00b7 on a CPU 40.0 ms \u00b7 10 calls", computeRow);
	await page.goto("file://" + path.resolve(hiddenSite, "tree/all.html"));
	await page.evaluate(() => document.querySelectorAll("#tree details").forEach((d) => { d.open = true; }));
	const before = await page.locator("#tree li[data-n]").count();
	await page.locator("#tree li.hidden button.show-hidden:visible").first().click();
	await page.waitForFunction((n) => document.querySelectorAll("#tree li[data-n]").length > n, before);
	const drawn = await page.locator("#tree li[data-n] .figs").evaluateAll((l) => l.map((e) => e.textContent));
	expect("a hidden path tree.js draws says how much of it ran on a CPU too",
		drawn.includes("\u2248 50.0 \u00b5s \u00b7 self 50.0 \u00b5s \u00b7 on a CPU 40.0 \u00b5s \u00b7 5 calls"),
		drawn.join(" | "));
	const marks = await page.locator("#tree li[data-n] .figs .est").evaluateAll((l) => l.map((e) => e.title));
	expect("and marks it as an estimate, its error on hover, as the page marks its own rows",
		marks.length === 1 && marks[0] === "an estimate: standard error 10.0 \u00b5s (20.0%)", marks.join(" | "));

	// Estimates in the flame graphs (ESTIMATE_SITE: c-cpu with compute's 70 ms an estimate of
	// sampled timing, standard error 3.5 ms): its box's tooltip marks the figures and gives the
	// error, in the flame graph of wall time and in that of CPU time (40 ms, the same 5%).
	const tipOf = async (file, fn) => {
		await page.goto("file://" + path.resolve(estimateSite, file));
		await page.waitForSelector("#flame-wrap[data-ready]");
		const n = await page.evaluate((fn) => {
			const a = [...document.querySelectorAll("svg.flame a.frame")].find((e) =>
				e.querySelector("text") && e.querySelector("text").textContent === fn);
			return a ? a.getAttribute("data-n") : null;
		}, fn);
		await page.locator(`svg.flame a.frame[data-n="${n}"] rect`).hover();
		const tip = await page.locator("#flame-tip").innerText();
		await page.mouse.move(0, 0);
		return tip.replace(/\s+/g, " ");
	};
	let tip = await tipOf("flame/all.html", "compute");
	await page.screenshot({ path: path.join(screens, "cpu-3-estimate.png") });
	expect("the flame graph's tooltip marks an estimate and gives its standard error",
		tip.includes("inclusive \u2248 70.0 ms (75.7% of all)") && tip.includes("self \u2248 40.0 ms") &&
		tip.includes("an estimate standard error 3.50 ms (5.0%)"), tip);
	tip = await tipOf("flame/all.html", "load_input");
	expect("and leaves exact figures unmarked", tip.includes("inclusive 20.0 ms") && !tip.includes("\u2248") &&
		!tip.includes("an estimate"), tip);
	tip = await tipOf("flame/all-cpu.html", "compute");
	expect("the flame graph of CPU time marks it too, with the same relative error",
		tip.includes("inclusive \u2248 40.0 ms") && tip.includes("an estimate standard error 2.00 ms (5.0%)"), tip);
	expect("no page error, no request off the disk", problems.length === 0, problems.join("; "));
	await browser.close();
}

main().then(() => process.exit(failures ? 1 : 0), (e) => {
	console.log("not ok - the CPU time pages: " + e.message.split("\n")[0]);
	process.exit(1);
});
