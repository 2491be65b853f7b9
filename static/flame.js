// flame.js: the interactive flame graph of a callprof site (flame/*.html, and the differential
// one of callprof diff).  It loads the page's data file (data-src of #flame-ui, every node of
// the tree) and redraws the static picture as SVG boxes wider than a pixel at the current
// zoom only, so a million-node tree stays quick.  Click zooms, the path above leads back,
// Escape resets; search by name or regular expression; hover or focus for figures; every
// box is a link to its function's page (Ctrl-click, middle click, or the link under the
// graph).  Optional: without JavaScript the static picture remains.  Needs profile.js.
"use strict";

(function () {
	var SVGNS = "http://www.w3.org/2000/svg";
	var ROW = 18;            // pixels per level, as the static picture
	var MIN_PX = 1;          // narrower boxes (and so their callees) are not drawn
	var MAX_ROWS = 400;      // levels drawn below the zoomed box; zoom in to see deeper
	var CRUMBS_HEAD = 2, CRUMBS_TAIL = 8; // a long zoom path shows its ends and folds the middle ...
	var CRUMBS_MAX = 500;                 // ... and never shows more than this many steps
	// Differential colours, as report/flame_svg.c: grey, deepening toward red or blue.
	var GREY = [224, 224, 224], RED = [214, 39, 40], BLUE = [31, 95, 191], MIN_LEVEL = 0.15;

	var cp = window.callprof;
	var ui, wrap, svg, tip, details, crumbs, search, regex, output, flip;
	var d = null;            // the decoded data (profile.js)
	var zoom = -1;           // the zoomed node, -1 for the whole graph
	var flame = false;       // roots at the bottom (flame) or on top (icicle, the default)
	var nameMatch = null;    // per function: 1 when it matches the search
	var rows = [];           // per drawn row: the nodes drawn there, left to right
	var drawnRow = null;     // per node: its row when drawn, else -1
	var cur = -1;            // the node that holds the keyboard focus (roving tabindex)
	var colours = null;      // per function: its colour (non-differential graphs)
	var charW = 6.6;         // width of a label character, measured once
	var crumbsOpen = false;  // the folded middle of the zoom path is shown

	var el = cp.el;

	// nameColour: report/flame_svg.c's name_colour (FNV-1a of the name's UTF-8 bytes).
	function nameColour(name) {
		var bytes = new TextEncoder().encode(name), h = 2166136261;
		for (var i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619) >>> 0;
		var r = 205 + (h & 0x1f) + (((h >>> 5) & 0x1f) >> 1);
		var g = 80 + ((h >>> 10) % 150), b = 20 + ((h >>> 18) % 50);
		return "#" + [r, g, b].map(function (c) { return (c < 16 ? "0" : "") + c.toString(16); }).join("");
	}

	// diffColour: report/flame_svg.c's diff_colour for node i.
	function diffColour(i) {
		var now = d.weight[i], was = d.base[i] < 0 ? 0 : d.base[i], change = Math.abs(now - was);
		var to = now > was ? RED : BLUE;
		if (!change || change < d.floor) return "#e0e0e0";
		var level = MIN_LEVEL + (1 - MIN_LEVEL) * Math.sqrt(change / Math.max(now, was));
		return "#" + GREY.map(function (g, k) {
			var c = Math.floor(g + (to[k] - g) * level + 0.5) & 0xff;
			return (c < 16 ? "0" : "") + c.toString(16);
		}).join("");
	}

	function nameOf(i) {
		var f = d.fn[i];
		return d.names[f] + (d.files[f] ? " (" + d.files[f] + ")" : "");
	}

	function linkOf(i) {
		var k = d.links[d.fn[i]];
		return "../fn/" + Math.floor(k / 1000) + "/" + k + ".html"; // report/link.h: LINK_FN_SHARD
	}

	// figures: [label, value] lines about node i, for the tooltip and the details line.
	function figures(i) {
		var lines = [], w = d.weight[i];
		if (d.byCalls) {
			lines.push(["calls in this path", cp.fmtCount(w) + " (" + cp.fmtPct(w, d.whole) + " of all)"]);
		} else {
			// An estimate (sampled timing) is marked as report/cell.c marks it, its error beside it.
			var est = d.se && d.se[i] >= 0, approx = est ? "\u2248 " : "";
			lines.push(["inclusive", approx + cp.fmtNs(w) + " (" + cp.fmtPct(w, d.whole) + " of all" +
				(zoom >= 0 && zoom !== i ? ", " + cp.fmtPct(w, d.weight[zoom]) + " of the zoomed box" : "") + ")"]);
			lines.push(["self", approx + cp.fmtNs(d.self[i]) + " (" + cp.fmtPct(d.self[i], d.whole) + ")"]);
			if (est)
				lines.push(["an estimate", "standard error " + cp.fmtNs(d.se[i]) + " (" + cp.fmtPct(d.se[i], w) + ")"]);
		}
		lines.push(["calls", cp.fmtCount(d.calls[i])]);
		if (d.base) {
			var was = d.base[i] < 0 ? 0 : d.base[i], f = d.byCalls ? cp.fmtCount : cp.fmtNs;
			lines.push(["before", d.base[i] < 0 ? "not in the base profile" :
				f(was) + " \u2192 " + f(w) + " (" + (d.byCalls ? "" : cp.fmtNsDelta(was, w) + ", ") +
				cp.fmtChange(was, w) + ")"]);
		}
		return lines;
	}

	function summary(i) {
		return nameOf(i) + " \u2014 " + figures(i).map(function (l) { return l[0] + " " + l[1]; }).join(", ");
	}

	// ---- drawing ----

	function measureChar() {
		var t = document.createElementNS(SVGNS, "text");
		t.textContent = "0123456789abcdefghij";
		svg.appendChild(t);
		var len = t.getComputedTextLength();
		svg.removeChild(t);
		if (len > 0) charW = len / 20;
	}

	// visible: the nodes to draw at the current zoom, depth first.
	function visible(scale, base) {
		var out = [], lo = zoom < 0 ? 0 : zoom, hi = zoom < 0 ? d.n : d.end[zoom];
		for (var i = lo; i < hi;) {
			if (d.w[i] * scale < MIN_PX || d.depth[i] - base >= MAX_ROWS) {
				i = d.end[i];
				continue;
			}
			out.push(i);
			i++;
		}
		return out;
	}

	function label(i, px) {
		var fit = px > 8 ? Math.floor((px - 6) / charW) : 0, name = d.names[d.fn[i]];
		if (fit < 3) return "";
		if (name.length <= fit) return name;
		var cut = fit - 2, c = name.charCodeAt(cut - 1);
		if (c >= 0xd800 && c <= 0xdbff) cut--; // never split a surrogate pair
		return name.slice(0, cut) + "..";
	}

	function frame(i, x, y, px) {
		var a = document.createElementNS(SVGNS, "a");
		var matched = nameMatch && nameMatch[d.fn[i]];
		a.setAttribute("href", linkOf(i));
		a.setAttribute("class", "frame" + (matched ? " match" : nameMatch ? " dim" : ""));
		a.setAttribute("data-n", i);
		a.setAttribute("data-fn", d.links[d.fn[i]]);
		a.setAttribute("tabindex", i === cur ? "0" : "-1");
		a.setAttribute("aria-label", summary(i));
		var r = document.createElementNS(SVGNS, "rect");
		r.setAttribute("x", x.toFixed(2));
		r.setAttribute("y", y);
		r.setAttribute("width", px.toFixed(2));
		r.setAttribute("height", ROW - 1);
		r.setAttribute("fill", d.base ? diffColour(i) : colours[d.fn[i]]);
		a.appendChild(r);
		var text = label(i, px);
		if (text) {
			var t = document.createElementNS(SVGNS, "text");
			t.setAttribute("x", (x + 3).toFixed(2));
			t.setAttribute("y", y + 12);
			t.textContent = text;
			a.appendChild(t);
		}
		return a;
	}

	function graphWidth() {
		return Math.max(300, wrap.clientWidth - 18);
	}

	// render: the boxes visible at the current zoom; once more when drawing them brought or
	// took away the page's scroll bar, so the graph always fits the width it ends up with.
	function render(again) {
		var width = graphWidth();
		var x0 = zoom < 0 ? 0 : d.x[zoom], span = zoom < 0 ? d.span : d.w[zoom];
		var base = zoom < 0 ? 0 : d.depth[zoom], scale = span > 0 ? width / span : 0;
		var nodes = scale ? visible(scale, base) : [];
		var nrows = 0, k, i;
		for (k = 0; k < nodes.length; k++) nrows = Math.max(nrows, d.depth[nodes[k]] - base + 1);
		rows = [];
		for (k = 0; k < nrows; k++) rows.push([]);
		drawnRow.fill(-1);
		for (k = 0; k < nodes.length; k++) {
			i = nodes[k];
			drawnRow[i] = d.depth[i] - base;
			rows[drawnRow[i]].push(i);
		}
		if (cur < 0 || drawnRow[cur] < 0) cur = zoom >= 0 ? zoom : nodes.length ? nodes[0] : -1;
		var frag = document.createDocumentFragment();
		for (k = 0; k < nodes.length; k++) {
			i = nodes[k];
			var row = flame ? nrows - 1 - drawnRow[i] : drawnRow[i];
			frag.appendChild(frame(i, (d.x[i] - x0) * scale, row * ROW, d.w[i] * scale));
		}
		svg.textContent = "";
		svg.appendChild(frag);
		svg.setAttribute("viewBox", "0 0 " + width + " " + Math.max(nrows, 1) * ROW);
		svg.setAttribute("width", width);
		svg.setAttribute("height", Math.max(nrows, 1) * ROW);
		svg.setAttribute("data-zoom", zoom);
		svg.setAttribute("data-frames", nodes.length);
		if (!again && graphWidth() !== width) render(true);
	}

	function frameEl(i) {
		return svg.querySelector('a.frame[data-n="' + i + '"]');
	}

	// ---- zoom and the path back ----

	function crumb(text, node, here) {
		if (here) {
			var s = el("span", "here", text);
			s.setAttribute("aria-current", "location");
			return s;
		}
		var b = el("button", "crumb", text);
		b.type = "button";
		b.setAttribute("data-n", node);
		b.addEventListener("click", function () { setZoom(node, true); });
		return b;
	}

	function renderCrumbs() {
		crumbs.textContent = "";
		var path = [];
		for (var i = zoom; i >= 0; i = d.parent[i]) path.push(i);
		path.reverse();
		crumbs.appendChild(crumb("All", -1, zoom < 0));
		var tail = crumbsOpen ? CRUMBS_MAX : CRUMBS_TAIL, fold = path.length > CRUMBS_HEAD + tail + 1;
		path.forEach(function (n, k) {
			if (fold && k >= CRUMBS_HEAD && k < path.length - tail) {
				if (k === CRUMBS_HEAD) {
					crumbs.appendChild(el("span", "sep", " \u203a "));
					var more = el("button", "crumb more", "\u2026 " + cp.fmtCount(path.length - CRUMBS_HEAD - tail) + " more");
					more.type = "button";
					more.addEventListener("click", function () { crumbsOpen = true; renderCrumbs(); });
					crumbs.appendChild(more);
				}
				return;
			}
			crumbs.appendChild(el("span", "sep", " \u203a "));
			crumbs.appendChild(crumb(nameOf(n), n, n === zoom));
		});
	}

	function setZoom(n, focus) {
		if (n !== zoom) crumbsOpen = false;
		zoom = n;
		cur = n;
		hideTip();
		renderCrumbs();
		render();
		showMatch();
		if (n >= 0) showDetails(n);
		if (focus && cur >= 0) {
			var e = frameEl(cur);
			if (e) e.focus();
		}
	}

	// ---- search ----

	// matcher: a test for names, null for no search; throws on a bad regular expression.
	function matcher() {
		var q = search.value;
		if (!q.trim()) return null;
		if (regex.checked) {
			var re = new RegExp(q);
			return function (s) { return re.test(s); };
		}
		q = q.trim().toLowerCase();
		return function (s) { return s.toLowerCase().indexOf(q) >= 0; };
	}

	// matched: the weight of the boxes of matching functions between lo and hi, each counted
	// once even where matches nest (recursion), and how many boxes matched.
	function matched(lo, hi) {
		var sum = 0, boxes = 0, until = -1;
		for (var i = lo; i < hi; i++) {
			if (!nameMatch[d.fn[i]]) continue;
			boxes++;
			if (i >= until) {
				sum += d.weight[i];
				until = d.end[i];
			}
		}
		return { weight: sum, boxes: boxes };
	}

	function showMatch() {
		output.textContent = "";
		output.removeAttribute("data-weight");
		if (!nameMatch) return;
		var nfns = 0;
		for (var f = 0; f < nameMatch.length; f++) nfns += nameMatch[f];
		var all = matched(0, d.n), fmt = d.byCalls ? cp.fmtCount : cp.fmtNs;
		var text = nfns === 0 ? "No function matches." :
			(nfns === 1 ? "1 function matches: " : cp.fmtCount(nfns) + " functions match: ") +
			cp.fmtPct(all.weight, d.whole) + " of " + (d.byCalls ? "all calls" : "the time") + " (" +
			fmt(all.weight) + (d.byCalls ? " calls" : "") + ") in " + cp.fmtCount(all.boxes) +
			(all.boxes === 1 ? " box" : " boxes");
		if (nfns && zoom >= 0) {
			var z = matched(zoom, d.end[zoom]);
			text += "; " + cp.fmtPct(z.weight, d.weight[zoom]) + " of the zoomed box";
		}
		output.textContent = text + ".";
		output.setAttribute("data-weight", all.weight);
		output.setAttribute("data-whole", d.whole);
		output.setAttribute("data-boxes", all.boxes);
		output.setAttribute("data-functions", nfns);
	}

	function runSearch() {
		var test;
		output.setAttribute("data-query", (regex.checked ? "re:" : "") + search.value);
		search.classList.remove("bad");
		try {
			test = matcher();
		} catch (e) {
			search.classList.add("bad");
			nameMatch = null;
			render();
			output.textContent = "Not a regular expression: " + e.message;
			return;
		}
		if (!test) {
			nameMatch = null;
		} else {
			nameMatch = new Uint8Array(d.names.length);
			for (var f = 0; f < d.names.length; f++) nameMatch[f] = test(d.names[f]) ? 1 : 0;
		}
		render();
		showMatch();
	}

	function reset() {
		search.value = "";
		search.classList.remove("bad");
		nameMatch = null;
		setZoom(-1, document.activeElement && svg.contains(document.activeElement));
	}

	// ---- figures on hover and focus ----

	function fillFigures(box, i) {
		box.textContent = "";
		box.appendChild(el("strong", "name", nameOf(i)));
		figures(i).forEach(function (l) {
			var line = el("span", "fig");
			line.appendChild(el("span", "k", l[0] + " "));
			line.appendChild(document.createTextNode(l[1]));
			box.appendChild(line);
		});
	}

	function showTip(i, ev) {
		fillFigures(tip, i);
		tip.appendChild(el("span", "hint", "Click to zoom in; Ctrl-click opens its page."));
		tip.hidden = false;
		// Fixed to the window (CSSOM, which the CSP allows): the scrolling graph would clip it.
		var x = ev.clientX + 14, y = ev.clientY + 14;
		if (x + tip.offsetWidth > window.innerWidth) x = Math.max(0, ev.clientX - tip.offsetWidth - 14);
		if (y + tip.offsetHeight > window.innerHeight) y = Math.max(0, ev.clientY - tip.offsetHeight - 14);
		tip.style.left = x + "px";
		tip.style.top = y + "px";
	}

	function hideTip() {
		tip.hidden = true;
	}

	function showDetails(i) {
		fillFigures(details, i);
		var a = el("a", "open", "Open the page of " + d.names[d.fn[i]]);
		a.href = linkOf(i);
		details.appendChild(a);
		details.hidden = false;
	}

	// ---- events ----

	function frameOf(target) {
		var a = target && target.closest ? target.closest("a.frame") : null;
		return a ? Number(a.getAttribute("data-n")) : -1;
	}

	function onClick(ev) {
		var i = frameOf(ev.target);
		if (i < 0 || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
		ev.preventDefault(); // a plain click zooms; the link stays for the others
		setZoom(i, true);
	}

	function moveFocus(i) {
		if (i < 0) return;
		var old = cur >= 0 ? frameEl(cur) : null, e = frameEl(i);
		if (!e) return;
		if (old) old.setAttribute("tabindex", "-1");
		e.setAttribute("tabindex", "0");
		cur = i;
		e.focus();
	}

	// neighbour: the drawn node next to i: dx along its row, or dy rows deeper (child) or up.
	function neighbour(i, dx, dy) {
		var r = drawnRow[i], list;
		if (dx) {
			list = rows[r];
			var k = list.indexOf(i) + dx;
			return k >= 0 && k < list.length ? list[k] : -1;
		}
		if (dy < 0) return d.parent[i] >= 0 && drawnRow[d.parent[i]] >= 0 ? d.parent[i] : -1;
		list = rows[r + 1] || [];
		for (var k2 = 0; k2 < list.length; k2++) if (list[k2] > i && list[k2] < d.end[i]) return list[k2];
		return -1;
	}

	function onKey(ev) {
		var i = frameOf(ev.target);
		if (i < 0) return;
		var down = flame ? -1 : 1;
		switch (ev.key) {
		case "ArrowLeft": moveFocus(neighbour(i, -1, 0)); break;
		case "ArrowRight": moveFocus(neighbour(i, 1, 0)); break;
		case "ArrowDown": moveFocus(neighbour(i, 0, down)); break;
		case "ArrowUp": moveFocus(neighbour(i, 0, -down)); break;
		case " ": setZoom(i, true); break;
		default: return;
		}
		ev.preventDefault();
	}

	function setup(data) {
		d = data;
		drawnRow = new Int32Array(d.n);
		if (!d.base) colours = d.names.map(nameColour);
		svg.classList.add("live");
		svg.removeAttribute("role");
		svg.setAttribute("aria-label", "Flame graph: Tab to a box, arrow keys to move, Enter to zoom");
		measureChar();
		var hint = document.getElementById("flame-static-hint");
		if (hint) hint.hidden = true;
		document.querySelectorAll(".js-only").forEach(function (e) { e.hidden = false; });
		ui.hidden = false;
		renderCrumbs();
		render();
		svg.addEventListener("click", onClick);
		svg.addEventListener("keydown", onKey);
		svg.addEventListener("mousemove", function (ev) {
			var i = frameOf(ev.target);
			if (i < 0) { hideTip(); return; }
			showTip(i, ev);
			showDetails(i);
		});
		svg.addEventListener("mouseleave", hideTip);
		svg.addEventListener("focusin", function (ev) {
			var i = frameOf(ev.target);
			if (i >= 0) showDetails(i);
		});
		var timer = 0;
		search.addEventListener("input", function () {
			clearTimeout(timer);
			timer = setTimeout(runSearch, 120);
		});
		regex.addEventListener("change", runSearch);
		document.getElementById("flame-reset").addEventListener("click", reset);
		flip.addEventListener("click", function () {
			flame = !flame;
			flip.setAttribute("aria-pressed", String(flame));
			svg.classList.toggle("roots-bottom", flame);
			render(false);
		});
		document.addEventListener("keydown", function (ev) {
			if (ev.key === "Escape") reset();
		});
		var pending = 0;
		window.addEventListener("resize", function () {
			if (!pending) pending = requestAnimationFrame(function () { pending = 0; render(false); });
		});
		wrap.setAttribute("data-ready", "1");
	}

	function failed(msg) {
		ui.hidden = false;
		ui.textContent = "";
		ui.appendChild(el("p", "pruned", "The interactive graph is not available: " + msg + ". The picture below is the static one."));
	}

	function start() {
		ui = document.getElementById("flame-ui");
		wrap = document.getElementById("flame-wrap");
		svg = document.getElementById("flame");
		if (!ui || !wrap || !svg || !cp) return;
		tip = document.getElementById("flame-tip");
		details = document.getElementById("flame-details");
		crumbs = document.getElementById("flame-crumbs");
		search = document.getElementById("flame-search");
		regex = document.getElementById("flame-regex");
		output = document.getElementById("flame-match");
		flip = document.getElementById("flame-flip");
		cp.loadData(ui.getAttribute("data-src"), setup, failed);
	}

	if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
	else start();
})();
