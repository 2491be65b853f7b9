// callprof report: remembers the header's "Full names" box from page to page.  Optional: the box
// works without JavaScript on each page (style.css), and the pages read well without it.
"use strict";

(function () {
	var KEY = "callprof-full-names";

	function setup() {
		var box = document.getElementById("full-names");
		if (!box) return;
		try {
			if (window.localStorage.getItem(KEY) === "1") box.checked = true;
		} catch (e) {
			return; // no storage from file:// here: the box still works on this page
		}
		box.addEventListener("change", function () {
			try {
				window.localStorage.setItem(KEY, box.checked ? "1" : "0");
			} catch (e) {
				// nothing to remember it in
			}
		});
	}

	if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
	else setup();
})();
