// callprof report: sortable tables and the flat-profile filter.  Optional: every page
// works without JavaScript (tables come sorted by self time).  No inline script: the
// pages' Content-Security-Policy allows scripts from the site's own files only.
"use strict";

(function () {
	function cellValue(row, col, numeric) {
		var cell = row.cells[col];
		if (!cell) return numeric ? -Infinity : "";
		if (numeric) {
			var v = parseFloat(cell.getAttribute("data-v"));
			return isNaN(v) ? -Infinity : v;
		}
		return cell.textContent.trim().toLowerCase();
	}

	function sortTable(table, th) {
		var col = th.cellIndex;
		var numeric = th.getAttribute("data-sort") === "num";
		var body = table.tBodies[0];
		// A click on the sorted column flips it; a new column starts with the biggest first
		// (numbers) or A first (names).
		var asc = th.classList.contains("sorted") ? !th.classList.contains("asc") : !numeric;
		var rows = Array.prototype.slice.call(body.rows);
		var keyed = rows.map(function (r, i) { return { r: r, k: cellValue(r, col, numeric), i: i }; });
		keyed.sort(function (a, b) {
			if (a.k < b.k) return asc ? -1 : 1;
			if (a.k > b.k) return asc ? 1 : -1;
			return a.i - b.i;
		});
		var frag = document.createDocumentFragment();
		keyed.forEach(function (x) { frag.appendChild(x.r); });
		body.appendChild(frag);
		Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) {
			c.classList.remove("sorted", "asc");
			c.removeAttribute("aria-sort");
		});
		th.classList.add("sorted");
		if (asc) th.classList.add("asc");
		th.setAttribute("aria-sort", asc ? "ascending" : "descending");
	}

	function setupTables() {
		document.querySelectorAll("table.sortable").forEach(function (table) {
			if (!table.tHead || !table.tBodies.length) return;
			table.classList.add("js");
			Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
				if (!th.hasAttribute("data-sort")) return;
				th.tabIndex = 0;
				th.addEventListener("click", function () { sortTable(table, th); });
				th.addEventListener("keydown", function (e) {
					if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortTable(table, th); }
				});
			});
		});
	}

	function setupFilter() {
		var input = document.getElementById("filter");
		if (!input) return;
		var table = document.getElementById(input.getAttribute("data-table"));
		if (!table) return;
		input.parentNode.hidden = false;
		var rows = table.tBodies[0].rows;
		input.addEventListener("input", function () {
			var q = input.value.trim().toLowerCase();
			// Rows move when sorted: look names up on the row, not by position.
			Array.prototype.forEach.call(rows, function (r) {
				r.hidden = q !== "" && r.cells[0].textContent.toLowerCase().indexOf(q) < 0;
			});
		});
	}

	document.addEventListener("DOMContentLoaded", function () {
		setupTables();
		setupFilter();
	});
})();
