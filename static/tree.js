// tree.js: the call tree pages (tree/*.html): a search box that opens the paths to the
// functions it finds, and the hidden (pruned) paths shown on demand.  The whole tree is in
// the flame graph's data file (data-src of #tree-search, loaded when first needed); a page
// without one (the callers tree) searches the rows it has.  Optional: without JavaScript the
// page is the same tree of <details>.  Needs profile.js.
"use strict";

(function () {
	var MAX_OPEN = 100;  // matching paths a search opens, heaviest first
	var MAX_KIDS = 200;  // callees shown at once; a line offers the rest
	var MAX_DEPTH = 400; // a search opens no path deeper than this (deep recursion)

	var cp = window.callprof;
	var tree, box, input, regex, out, src;
	var d = null;        // the decoded data file, once loaded
	var byN = new Map(); // data index -> its <li>, for every node on the page
	var whole = 0;
	var initiallyOpen = [];

	var el = cp.el;

	// ---- nodes from the data file, marked up as report/render_tree.c does ----

	function row(k) {
		var frag = document.createDocumentFragment(), w = d.weight[k], f = d.fn[k];
		var share = el("span", "share"), bar = el("span", "bar"), fill = el("i");
		var pct = whole ? Math.min(100, Math.round(100 * w / whole)) : 0;
		fill.className = "w" + pct;
		bar.appendChild(fill);
		share.appendChild(bar);
		share.appendChild(document.createTextNode(cp.fmtPct(w, whole)));
		frag.appendChild(share);
		frag.appendChild(document.createTextNode(" "));
		var a = el("a", "fn", d.names[f]);
		a.href = "../fn/" + Math.floor(d.links[f] / 1000) + "/" + d.links[f] + ".html"; // report/link.h: LINK_FN_SHARD
		frag.appendChild(a);
		if (d.files[f]) {
			frag.appendChild(document.createTextNode(" "));
			frag.appendChild(el("span", "fn-file", d.files[f]));
		}
		var calls = cp.fmtCount(d.calls[k]) + (d.calls[k] === 1 ? " call" : " calls");
		frag.appendChild(document.createTextNode(" "));
		if (d.byCalls) {
			frag.appendChild(el("span", "figs", cp.fmtCount(w) + " calls in the path \u00b7 " + calls));
			return frag;
		}
		var figs = el("span", "figs"), rest = " \u00b7 self " + cp.fmtNs(d.self[k]) + " \u00b7 " +
			(d.cpu ? "on a CPU " + cp.fmtNs(d.cpu[k]) + " \u00b7 " : "") + calls;
		if (d.se && d.se[k] >= 0) { // an estimate (sampled timing), as report/cell.c marks it
			var est = el("span", "est", "\u2248 " + cp.fmtNs(w));
			est.title = "an estimate: standard error " + cp.fmtNs(d.se[k]) + " (" + cp.fmtPct(d.se[k], w) + ")";
			figs.appendChild(est);
			figs.appendChild(document.createTextNode(rest));
		} else {
			figs.textContent = cp.fmtNs(w) + rest;
		}
		frag.appendChild(figs);
		return frag;
	}

	function hasKids(k) {
		return k + 1 < d.end[k];
	}

	// nodeEl: a new <li> for node k, closed; its callees are made when it first opens.
	function nodeEl(k) {
		var li = el("li");
		li.setAttribute("data-n", k);
		if (!hasKids(k)) {
			li.className = "leaf";
			var span = el("span", "row");
			span.appendChild(row(k));
			li.appendChild(span);
		} else {
			var det = el("details"), sum = el("summary");
			sum.appendChild(row(k));
			det.appendChild(sum);
			det.appendChild(el("ul"));
			li.appendChild(det);
			det.addEventListener("toggle", function () {
				if (det.open && !li.hasAttribute("data-filled")) showKids(k, MAX_KIDS);
			});
		}
		byN.set(k, li);
		return li;
	}

	function kidList(k) {
		var li = byN.get(k), det = li && li.querySelector(":scope > details");
		return det ? det.querySelector(":scope > ul") : null;
	}

	// missing: the callees of k not on the page, heaviest first.
	function missing(k) {
		var out = [];
		for (var j = k + 1; j < d.end[k]; j = d.end[j]) if (!byN.has(j)) out.push(j);
		return out;
	}

	// insert: node j's <li> into its parent's list, in the data's order (heaviest first).
	function insert(j) {
		var ul = kidList(d.parent[j]), li = nodeEl(j), at = null;
		for (var c = ul.firstElementChild; c; c = c.nextElementSibling) {
			var n = c.getAttribute("data-n");
			if (n === null || Number(n) > j) { at = c; break; }
		}
		ul.insertBefore(li, at);
		return li;
	}

	// refreshMore: the line at the end of k's callees: how many are still hidden, with a button.
	function refreshMore(k) {
		var ul = kidList(k);
		if (!ul) return;
		var old = ul.querySelector(":scope > li.hidden"), rest = missing(k);
		if (old) old.remove();
		byN.get(k).setAttribute("data-filled", "");
		if (!rest.length) return;
		var sum = 0;
		rest.forEach(function (j) { sum += d.weight[j]; });
		var li = el("li", "hidden", cp.fmtCount(rest.length) + (rest.length === 1 ? " more callee (" : " more callees (") +
			(d.byCalls ? cp.fmtCount(sum) + " calls" : cp.fmtNs(sum)) + " in all) ");
		li.setAttribute("data-parent", k);
		li.appendChild(showButton(k));
		ul.appendChild(li);
	}

	function showKids(k, limit) {
		missing(k).slice(0, limit).forEach(insert);
		refreshMore(k);
	}

	function showButton(k) {
		var b = el("button", "show-hidden", "show them");
		b.type = "button";
		b.addEventListener("click", function () {
			withData(function () {
				var next = b.closest("li").previousElementSibling;
				showKids(k, MAX_KIDS);
				var first = next ? next.nextElementSibling : kidList(k).firstElementChild;
				var focus = first && first.querySelector("summary, a.fn");
				if (focus) focus.focus();
			});
		});
		return b;
	}

	// ---- loading ----

	function withData(then) {
		if (d) { then(); return; }
		out.textContent = "Loading the tree\u2026";
		cp.loadData(src, function (data) {
			d = data;
			out.textContent = "";
			then();
		}, function (msg) {
			out.textContent = "Hidden paths are not available: " + msg + ".";
		});
	}

	// ---- search ----

	function matcher() {
		var q = input.value;
		if (!q.trim()) return null;
		if (regex.checked) {
			var re = new RegExp(q);
			return function (s) { return re.test(s); };
		}
		q = q.trim().toLowerCase();
		return function (s) { return s.toLowerCase().indexOf(q) >= 0; };
	}

	function clearMarks() {
		tree.querySelectorAll(".match").forEach(function (e) { e.classList.remove("match"); });
		tree.querySelectorAll("details[open]").forEach(function (det) { det.open = false; });
	}

	function restore() {
		clearMarks();
		initiallyOpen.forEach(function (det) { det.open = true; });
		out.textContent = "";
		out.removeAttribute("data-paths");
	}

	// reveal: opens the path to li (its ancestors' <details>) and marks its row.
	function reveal(li) {
		for (var p = li.parentElement; p && p !== tree; p = p.parentElement)
			if (p.tagName === "DETAILS") p.open = true;
		var r = li.querySelector(":scope > details > summary, :scope > .row");
		if (r) r.classList.add("match");
		return r;
	}

	// revealNode: the same for node m of the data, making the rows its path lacks.
	function revealNode(m) {
		var path = [];
		for (var i = m; i >= 0 && !byN.has(i); i = d.parent[i]) path.push(i);
		path.reverse().forEach(function (j) {
			var p = d.parent[j];
			if (p < 0) return; // a root missing from the page: not reachable (roots are never hidden)
			insert(j);
			refreshMore(p);
		});
		return byN.has(m) ? reveal(byN.get(m)) : null;
	}

	function report(paths, shown, first, deep) {
		out.setAttribute("data-paths", paths);
		out.setAttribute("data-query", (regex.checked ? "re:" : "") + input.value);
		out.textContent = paths === 0 ? "No call path matches." :
			(paths === 1 ? "1 call path matches" : cp.fmtCount(paths) + " call paths match") +
			(shown < paths ? "; the " + cp.fmtCount(shown) + " heaviest are open" : ", open below") +
			(deep ? " (" + cp.fmtCount(deep) + " nested deeper than " + MAX_DEPTH + " levels are not)." : ".");
		if (first) first.scrollIntoView({ block: "center" });
	}

	// lighter: node a comes after node b when matches are ranked (heaviest first, then in order).
	function lighter(a, b) {
		return d.weight[a] < d.weight[b] || (d.weight[a] === d.weight[b] && a > b);
	}

	// heaviest: the k heaviest of the nodes i with hit[fn[i]], through a min-heap (a search may
	// match most of a million nodes); returns them and how many matched.
	function heaviest(hit, k) {
		var heap = [], count = 0, deep = 0;
		function down(i) {
			for (;;) {
				var l = 2 * i + 1, m = i;
				if (l < heap.length && lighter(heap[l], heap[m])) m = l;
				if (l + 1 < heap.length && lighter(heap[l + 1], heap[m])) m = l + 1;
				if (m === i) return;
				var t = heap[i]; heap[i] = heap[m]; heap[m] = t;
				i = m;
			}
		}
		for (var i = 0; i < d.n; i++) {
			if (!hit[d.fn[i]]) continue;
			count++;
			if (d.depth[i] > MAX_DEPTH) { deep++; continue; }
			if (heap.length < k) {
				heap.push(i);
				for (var c = heap.length - 1; c > 0;) {
					var p = (c - 1) >> 1;
					if (!lighter(heap[c], heap[p])) break;
					var t = heap[c]; heap[c] = heap[p]; heap[p] = t;
					c = p;
				}
			} else if (lighter(heap[0], i)) {
				heap[0] = i;
				down(0);
			}
		}
		return { nodes: heap, count: count, deep: deep };
	}

	function searchData(test) {
		var hit = new Uint8Array(d.names.length);
		for (var f = 0; f < d.names.length; f++) hit[f] = test(d.names[f]) ? 1 : 0;
		var found = heaviest(hit, MAX_OPEN);
		clearMarks();
		var first = null, top = found.nodes;
		top.sort(function (a, b) { return a - b; }); // top to bottom, so "first" is the topmost
		top.forEach(function (m) {
			var r = revealNode(m);
			if (!first) first = r;
		});
		report(found.count, top.length, first, found.deep);
	}

	function searchPage(test) {
		var found = [];
		clearMarks();
		tree.querySelectorAll("li").forEach(function (li) {
			var a = li.querySelector(":scope > details > summary > a.fn, :scope > .row > a.fn");
			if (a && test(a.textContent)) found.push(li);
		});
		var first = null;
		found.slice(0, MAX_OPEN).forEach(function (li) {
			var r = reveal(li);
			if (!first) first = r;
		});
		report(found.length, Math.min(found.length, MAX_OPEN), first);
	}

	function runSearch() {
		var test;
		input.classList.remove("bad");
		try {
			test = matcher();
		} catch (e) {
			input.classList.add("bad");
			out.textContent = "Not a regular expression: " + e.message;
			return;
		}
		if (!test) { restore(); return; }
		if (!src) { searchPage(test); return; }
		withData(function () {
			if (matcher() === null) return; // cleared while loading
			searchData(matcher());
		});
	}

	function start() {
		tree = document.getElementById("tree");
		box = document.getElementById("tree-search");
		if (!tree || !box || !cp) return;
		input = document.getElementById("tree-filter");
		regex = document.getElementById("tree-regex");
		out = document.getElementById("tree-found");
		src = box.getAttribute("data-src") || "";
		whole = Number(tree.getAttribute("data-whole")) || 0;
		tree.querySelectorAll("li[data-n]").forEach(function (li) { byN.set(Number(li.getAttribute("data-n")), li); });
		tree.querySelectorAll("details[open]").forEach(function (det) { initiallyOpen.push(det); });
		if (src) {
			tree.querySelectorAll("li.hidden[data-parent]").forEach(function (li) {
				li.appendChild(document.createTextNode(" "));
				li.appendChild(showButton(Number(li.getAttribute("data-parent"))));
			});
			document.querySelectorAll(".js-only").forEach(function (e) { e.hidden = false; });
		}
		box.hidden = false;
		var timer = 0;
		input.addEventListener("input", function () {
			clearTimeout(timer);
			timer = setTimeout(runSearch, 200);
		});
		regex.addEventListener("change", runSearch);
		input.addEventListener("keydown", function (ev) {
			if (ev.key === "Escape") { input.value = ""; runSearch(); }
		});
	}

	if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
	else start();
})();
