// fit.js DIFF_SITE MANY_SITE CPP_SITE SCREENS: the pages at real size in headless Chromium, at
// 1280 x 900 like browser.js: every table of a diff site fits the page (no sideways scrolling,
// none inside a table's box either); a report of hundreds of dumps shows "Hottest by self time"
// on its first screen; C++ names come shortened, the full name on hover, and the header's "Full
// names" box shows them whole, with JavaScript (remembered on the next page) and without it.
// Prints "ok - NAME" / "not ok - NAME: WHY" lines (tests/run.sh protocol); exits 1 on failure.
"use strict";
const fs = require("fs");
const path = require("path");
const { open } = require("./launch.js");

const [diffSite, manySite, cppSite, screens] = process.argv.slice(2);
let failures = 0;
const ok = (name) => console.log("ok - " + name);
const notOk = (name, why) => { failures++; console.log("not ok - " + name + ": " + why); };
const expect = (name, cond, why) => (cond ? ok(name) : notOk(name, why));
const url = (site, file) => "file://" + path.resolve(site, file);

// pages: the site's HTML files, the index first, at most max of them.
function pages(site, max) {
	const out = [];
	const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1)).forEach((e) => {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) walk(p); else if (e.name.endsWith(".html")) out.push(path.relative(site, p));
	});
	walk(path.resolve(site));
	out.sort((a, b) => (a === "index.html" ? -1 : b === "index.html" ? 1 : 0));
	return out.slice(0, max);
}

// overflow: what sticks out sideways on the page open in p: the page itself, or a box that scrolls.
function overflow(p) {
	return p.evaluate(() => {
		const out = [];
		const w = document.documentElement.clientWidth;
		if (document.documentElement.scrollWidth > w) out.push("page " + document.documentElement.scrollWidth + " > " + w);
		document.querySelectorAll("table").forEach((t) => {
			const box = t.parentElement;
			if (t.getBoundingClientRect().right > w + 0.5) out.push("#" + t.id + " ends at " + Math.round(t.getBoundingClientRect().right));
			if (box.scrollWidth > box.clientWidth) out.push("#" + t.id + " scrolls " + box.scrollWidth + " > " + box.clientWidth);
		});
		return out;
	});
}

async function main() {
	const { browser, page, problems } = await open(15000);

	// Diff tables fit the page.
	const list = pages(diffSite, 25);
	let wide = [];
	for (const f of list) {
		await page.goto(url(diffSite, f));
		wide = wide.concat((await overflow(page)).map((x) => f + ": " + x));
	}
	await page.goto(url(diffSite, "index.html"));
	await page.screenshot({ path: path.join(screens, "diff-1280.png"), fullPage: true });
	expect("every table of the diff fits a 1280-pixel page (" + list.length + " pages, long C++ names)",
		list.length > 3 && wide.length === 0, wide.slice(0, 4).join("; "));

	// Hundreds of dumps: the hot lists on the first screen.
	await page.goto(url(manySite, "index.html"));
	const top = await page.locator("h2", { hasText: "Hottest by self time" }).first().boundingBox();
	await page.screenshot({ path: path.join(screens, "many-dumps.png") });
	expect("300 dumps: \"Hottest by self time\" shows on the first screen", top && top.y < 900,
		top ? "at " + Math.round(top.y) + " px" : "not found");
	const folded = await page.locator("details.dumps li").first().isVisible();
	expect("300 dumps: the list of dumps is folded", !folded, "the list shows");

	// Names: shortened, full on hover, the box shows them whole and is remembered.
	await page.goto(url(cppSite, "index.html"));
	const link = page.locator("#top-self a.fn", { hasText: "push_back" }).first();
	const shown = (await link.innerText()).trim();
	const title = await link.getAttribute("title");
	expect("a C++ name is shortened on the index", shown === "std::vector<\u2026>::push_back(int const&)", shown);
	expect("its full name is on hover", title === "std::vector<int, std::allocator<int> >::push_back(int const&)", title);
	const label = page.locator("label.names-toggle");
	expect("the \"Full names\" box shows on a page with shortened names", await label.isVisible(), "hidden");
	await label.click();
	const full = (await link.innerText()).trim();
	expect("ticked, the box shows names whole", full === title, full);
	await page.goto(url(cppSite, "tree/all.html"));
	await page.goto(url(cppSite, "index.html"));
	const again = (await page.locator("#top-self a.fn", { hasText: "push_back" }).first().innerText()).trim();
	expect("with JavaScript, the next page remembers the box", again === title, again);
	await page.locator("label.names-toggle").click();
	await page.screenshot({ path: path.join(screens, "names.png") });

	// Without JavaScript the box works on its page.
	const plain = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
	const p2 = await plain.newPage();
	await p2.goto(url(cppSite, "index.html"));
	const l2 = p2.locator("#top-self a.fn", { hasText: "push_back" }).first();
	const before = (await l2.innerText()).trim();
	await p2.locator("label.names-toggle").click();
	const after = (await l2.innerText()).trim();
	expect("without JavaScript: shortened, and the box shows the full name", before.includes("\u2026") && after === title,
		before + " / " + after);
	await plain.close();

	expect("no console error, script error or network request", problems.length === 0, problems.join("; "));
	await browser.close();
}

main().then(() => process.exit(failures ? 1 : 0), (e) => {
	notOk("fit run", String(e && e.stack || e).split("\n").slice(0, 3).join(" "));
	process.exit(1);
});
