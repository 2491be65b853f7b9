// hostile-dump.js OUT [SEED_DUMP]: writes a valid dump in which every string that can reach a
// report holds markup and script: function names, files, module paths, build ids, the
// program path and arguments, thread names, call sites, never-called functions, warnings,
// the clock source and the date.  Each copy of the payload carries a tag naming its field
// (F_NAME, F_FILE, ...), so a test can tell which fields reached which page.
"use strict";
const fs = require("fs");

const payload = (tag) => `<script>alert("${tag}")</script><img src=x onerror=alert('${tag}')>&javascript:alert(${tag})`;
const [out, seed] = process.argv.slice(2);
const d = JSON.parse(fs.readFileSync(seed || __dirname + "/fixtures/c-small.json", "utf8"));

d.start_time = payload("F_DATE");
d.program = { path: "/bin/" + payload("F_PROGRAM"), argv: [payload("F_ARGV0"), "--x", payload("F_ARGV")], pid: 7 };
d.clock.source = payload("F_CLOCK");
d.warnings = [payload("F_WARNING")];
d.modules = [{ id: 0, path: "/lib/" + payload("F_MODULE"), build_id: payload("F_BUILDID"), symtab_functions: 9,
	uncalled: [{ name: payload("F_UNCALLED"), offset: "0x10", file: "/src/" + payload("F_UNCALLED_FILE"), line: 3 }] }];
d.functions.forEach((f, i) => {
	// U+2028 and U+2029 end a line in older JavaScript: a script's data must escape them.
	f.name = payload("F_NAME") + "\u2028\u2029" + i;
	f.file = "/src/" + payload("F_FILE") + ".c";
	f.address = payload("F_ADDRESS");
	f.offset = payload("F_OFFSET");
});
// Two functions of the same name in different files: the page then shows each one's file.
d.functions[1].name = d.functions[2].name;
d.threads.forEach((t) => {
	t.name = payload("F_THREAD");
	t.edges.forEach((e) => { e.call_file = "/src/" + payload("F_CALL_FILE") + ".c"; e.call_line = 9; });
});
fs.writeFileSync(out, JSON.stringify(d, null, 1) + "\n");
