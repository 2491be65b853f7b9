// launch.js: the headless Chromium every browser test opens, and what it watches on its pages.
"use strict";
const { chromium } = require("playwright-core");

// open(timeout): { browser, context, page, problems }: a 1280 x 900 window whose every page
// (the first, and any a click opens) adds to problems its console errors, script errors,
// dialogs and any request that is not for a file:// address.
async function open(timeout) {
	// launch() gives Chromium a fresh temporary --user-data-dir of its own (under TMPDIR).
	const browser = await chromium.launch({
		executablePath: "/usr/bin/chromium",
		headless: true,
		args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync"],
	});
	const problems = [];
	const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
	context.setDefaultTimeout(timeout);
	context.on("page", (p) => {
		p.on("console", (m) => { if (m.type() === "error") problems.push("console: " + m.text()); });
		p.on("pageerror", (e) => problems.push("page error: " + e.message));
		p.on("dialog", (d) => { problems.push("dialog: " + d.message()); d.dismiss(); });
		p.on("request", (r) => { if (!r.url().startsWith("file://")) problems.push("request: " + r.url()); });
	});
	const page = await context.newPage();
	return { browser, context, page, problems };
}

module.exports = { open };
