// mdcheck.js FILE...: checks that Markdown files carry no live HTML: outside code spans, no
// "<" that could open a tag (a letter, "/", "!" or "?" after it) is left unescaped.
// Prints one line per problem; exits 1 if any.
"use strict";
const fs = require("fs");
let bad = 0;
for (const file of process.argv.slice(2)) {
	fs.readFileSync(file, "utf8").split("\n").forEach((line, i) => {
		// Drop code spans: a run of n backticks up to the next run of exactly n.
		let text = "", pos = 0;
		const re = /`+/g;
		let m;
		while ((m = re.exec(line))) {
			const close = new RegExp("(^|[^`])" + "`".repeat(m[0].length) + "(?!`)", "g");
			close.lastIndex = m.index + m[0].length - 1;
			const c = close.exec(line);
			if (!c) break;
			text += line.slice(pos, m.index);
			pos = c.index + c[0].length;
			re.lastIndex = pos;
		}
		text += line.slice(pos);
		const raw = text.replace(/\\./g, "");
		if (/<[A-Za-z/!?]/.test(raw)) {
			bad++;
			console.log(`${file}:${i + 1}: live markup: ${line.slice(0, 120)}`);
		}
	});
}
process.exit(bad ? 1 : 0);
