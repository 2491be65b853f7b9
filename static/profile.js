// profile.js: what flame.js and tree.js share: figures formatted as the report writes them
// (report/fmt.c), the one DOM helper (el), and a page's data file (<page>.data.js, written by
// report/flame_data.c), loaded as a script because a page opened from file:// may not fetch() a
// file, and decoded into typed arrays.  No inline script anywhere: the pages' Content-Security-Policy allows
// scripts from the site's own files only.
"use strict";

(function () {
	function sig3(v, unit) {
		if (v < 9.995) return v.toFixed(2) + " " + unit;
		if (v < 99.95) return v.toFixed(1) + " " + unit;
		return v.toFixed(0) + " " + unit;
	}

	// fmtNs: "812 ns", "1.23 µs", "45.6 ms", "2.50 s" (fmt_ns).
	function fmtNs(ns) {
		if (ns < 1000) return Math.round(ns) + " ns";
		if (ns < 999.5e3) return sig3(ns / 1e3, "\u00b5s");
		if (ns < 999.5e6) return sig3(ns / 1e6, "ms");
		return sig3(ns / 1e9, "s");
	}

	// fmtCount: "1,234,567" (fmt_count).
	function fmtCount(n) {
		return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
	}

	// fmtPct: part of whole, "45.1%", "<0.1%", "0%", "-" (fmt_pct).
	function fmtPct(part, whole) {
		if (!whole) return "-";
		if (!part) return "0%";
		var pct = 100 * part / whole;
		return pct < 0.1 ? "<0.1%" : pct.toFixed(1) + "%";
	}

	// fmtNsDelta: "+1.23 ms", "-812 ns", "0 ns" (fmt_ns_delta).
	function fmtNsDelta(before, after) {
		if (before === after) return "0 ns";
		return (after > before ? "+" : "-") + fmtNs(Math.abs(after - before));
	}

	// fmtChange: "+12.3%", "-4.5%", "0%", "from 0", "-" (fmt_change).
	function fmtChange(before, after) {
		if (!before) return after ? "from 0" : "-";
		if (before === after) return "0%";
		var pct = 100 * (after / before - 1);
		if (Math.abs(pct) < 0.05) return (after > before ? "+" : "-") + "<0.1%";
		return (pct > 0 ? "+" : "") + pct.toFixed(1) + "%";
	}

	// loadData: runs the data file src (a script setting window.callprofData) once, then
	// calls done(decoded) or fail(message).  Later calls share the first load.
	var loads = {};
	function loadData(src, done, fail) {
		var l = loads[src];
		if (!l) {
			l = loads[src] = { waiting: [], data: null, error: null };
			var s = document.createElement("script");
			s.src = src;
			s.onload = function () {
				var raw = window.callprofData;
				window.callprofData = undefined;
				try {
					l.data = decode(raw);
				} catch (e) {
					l.error = "the data file " + src + " is damaged (" + e.message + ")";
				}
				l.waiting.forEach(function (w) { l.data ? w.done(l.data) : w.fail(l.error); });
				l.waiting = [];
			};
			s.onerror = function () {
				l.error = "the data file " + src + " could not be loaded";
				l.waiting.forEach(function (w) { w.fail(l.error); });
				l.waiting = [];
			};
			document.head.appendChild(s);
		}
		if (l.data) done(l.data);
		else if (l.error) fail(l.error);
		else l.waiting.push({ done: done, fail: fail });
	}

	// decode: the data file's arrays as typed arrays, with each node's parent, the end of its
	// subtree (nodes are in depth-first order: node i's descendants are i+1 .. end[i]-1) and
	// its box (x, width) in weight units, children never wider than what their parent has left.
	function decode(raw) {
		if (!raw || raw.version !== 1) throw new Error("unknown version");
		var n = raw.depth.length;
		if (raw.fn.length !== n || raw.weight.length !== n || raw.self.length !== n || raw.calls.length !== n ||
			(raw.base && raw.base.length !== n) || (raw.cpu && raw.cpu.length !== n) ||
			(raw.se && raw.se.length !== n))
			throw new Error("arrays of different lengths");
		var d = {
			n: n, names: raw.names, files: raw.files, links: raw.links,
			whole: raw.whole, total: raw.total, byCalls: !!raw.byCalls,
			baseWhole: raw.baseWhole || 0, floor: raw.floor || 0,
			depth: Int32Array.from(raw.depth), fn: Int32Array.from(raw.fn),
			weight: Float64Array.from(raw.weight), self: Float64Array.from(raw.self),
			calls: Float64Array.from(raw.calls), base: raw.base ? Float64Array.from(raw.base) : null,
			cpu: raw.cpu ? Float64Array.from(raw.cpu) : null,
			se: raw.se ? Float64Array.from(raw.se) : null, // -1: exact
			parent: new Int32Array(n), end: new Int32Array(n),
			x: new Float64Array(n), w: new Float64Array(n), span: 0,
		};
		var path = new Int32Array(n + 1), next = new Float64Array(n), top = 0, rootX = 0;
		for (var i = 0; i < n; i++) {
			var dep = d.depth[i];
			if (dep > top || dep < 0 || d.fn[i] < 0 || d.fn[i] >= d.names.length) throw new Error("bad node " + i);
			while (top > dep) d.end[path[--top]] = i;
			var p = dep ? path[dep - 1] : -1, w = d.weight[i];
			d.parent[i] = p;
			if (p < 0) {
				d.x[i] = rootX;
				d.w[i] = Math.max(0, Math.min(w, d.total - rootX));
				rootX += d.w[i];
			} else {
				d.x[i] = next[p];
				d.w[i] = Math.max(0, Math.min(w, d.x[p] + d.w[p] - next[p]));
				next[p] += d.w[i];
			}
			next[i] = d.x[i];
			path[top++] = i;
		}
		while (top > 0) d.end[path[--top]] = n;
		d.span = rootX;
		return d;
	}

	// el: a new element of class cls (if any) holding text (if any), as text, never markup.
	function el(tag, cls, text) {
		var e = document.createElement(tag);
		if (cls) e.className = cls;
		if (text !== undefined) e.textContent = text;
		return e;
	}

	window.callprof = {
		fmtNs: fmtNs, fmtCount: fmtCount, fmtPct: fmtPct, fmtNsDelta: fmtNsDelta, fmtChange: fmtChange,
		loadData: loadData, el: el,
	};
})();
