/* 二人麻将 — a 举报 being written survives a reload (issue 14).

   Every report form (form.mj-report-form, the partial
   games/partials/report_form.html, wherever it is: the settlement panel, the
   table's top bar, the replay, a player page) keeps its category and text in
   sessionStorage under its own address (hx-post) while the player types.  On
   a page load, or when htmx brings a form in, an empty form gets its draft
   back and its <details> opens again — at the table that also keeps the
   settlement countdown from taking the player away (table.js pauses it while
   a report is open).  A report sent (report-done) forgets its draft. */
(function () {
  "use strict";

  var PREFIX = "mj-report-draft:";

  function store() {
    try { return window.sessionStorage; } catch (e) { return null; }
  }
  function keyOf(form) { return PREFIX + (form.getAttribute("hx-post") || ""); }

  function save(form) {
    var s = store();
    if (!s) return;
    var text = form.querySelector("textarea[name=text]");
    var category = form.querySelector("select[name=category]");
    var draft = { text: text ? text.value : "", category: category ? category.value : "" };
    if (draft.text.trim()) s.setItem(keyOf(form), JSON.stringify(draft));
    else s.removeItem(keyOf(form));
  }

  function restore(root) {
    var s = store();
    if (!s) return;
    root = root || document;
    var forms = root.querySelectorAll ? Array.prototype.slice.call(root.querySelectorAll("form.mj-report-form")) : [];
    if (root.matches && root.matches("form.mj-report-form")) forms.push(root);
    forms.forEach(function (form) {
      var raw = s.getItem(keyOf(form));
      if (!raw) return;
      var draft;
      try { draft = JSON.parse(raw); } catch (e) { return; }
      var text = form.querySelector("textarea[name=text]");
      var category = form.querySelector("select[name=category]");
      if (text && !text.value && draft.text) text.value = draft.text;
      if (category && draft.category) category.value = draft.category;
      var details = form.closest("details");
      if (details && !details.open) details.open = true;
    });
  }

  document.addEventListener("input", function (e) {
    var form = e.target && e.target.closest && e.target.closest("form.mj-report-form");
    if (form) save(form);
  });
  document.addEventListener("change", function (e) {
    var form = e.target && e.target.closest && e.target.closest("form.mj-report-form");
    if (form) save(form);
  });
  // sent: the answer replaces the form with report-done; forget the draft
  // (before the swap: the form is detached afterwards and its events stop)
  document.addEventListener("htmx:beforeSwap", function (e) {
    var form = e.target;
    if (!form || !form.matches || !form.matches("form.mj-report-form")) return;
    var xhr = e.detail && e.detail.xhr;
    if (xhr && xhr.status < 300 && /data-testid="report-done"/.test(xhr.responseText || "")) {
      var s = store();
      if (s) s.removeItem(keyOf(form));
    }
  });
  document.addEventListener("htmx:load", function (e) { restore(e.target); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { restore(document); });
  } else {
    restore(document);
  }
})();
