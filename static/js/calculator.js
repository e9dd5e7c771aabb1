/* 二人麻将 — the fan calculator (/calculator/): typing survives a rule-set change.

   Changing the rule set re-renders the whole form (#calc: the situation
   options, the wild and bonus fields, the palette and the answer depend on
   the rule set) when its answer lands, ~300 ms later on a phone.  Whatever
   was typed into the notation field (#calc-notation) meanwhile is carried
   into the new field, with the focus and the caret, and when the field, once
   htmx has settled the new form, does not hold the hand that answer was
   computed for (the value the server rendered) the form is sent again, so the
   typed or pasted hand is what is scored, under the new rule set. */
(function () {
  "use strict";

  var carried = null;

  document.addEventListener("htmx:beforeSwap", function (e) {
    var target = e.detail.target;
    carried = null;
    if (!target || target.id !== "calc" || !e.detail.shouldSwap) return;
    var input = document.getElementById("calc-notation");
    if (!input) return;
    carried = {
      value: input.value,
      focused: document.activeElement === input,
      start: input.selectionStart,
      end: input.selectionEnd
    };
  });

  document.addEventListener("htmx:afterSwap", function (e) {
    // fired on the new #calc (and on the answer alone after typing or a click)
    if (!carried || !e.target || e.target.id !== "calc") return;
    var kept = carried;
    carried = null;
    var input = document.getElementById("calc-notation");
    if (!input) return;
    if (input.value !== kept.value) input.value = kept.value;
    if (kept.focused) {
      input.focus({ preventScroll: true });
      try { input.setSelectionRange(kept.start, kept.end); } catch (err) { /* not a text field */ }
    }
  });

  // htmx takes charge of the new form only when it settles (20 ms after the
  // swap): send it then (sooner, the browser would submit it itself and load a
  // new page).  Whatever the field holds is compared with the hand the form was
  // rendered for (its defaultValue), not only what was carried: a paste is one
  // input event, and one made between the swap and the settle reached a field
  // htmx was not yet listening to, and was never sent.
  document.addEventListener("htmx:afterSettle", function (e) {
    if (!e.target || e.target.id !== "calc") return;
    var input = document.getElementById("calc-notation");
    var form = input && input.form;
    if (!form || input.value === input.defaultValue) return;
    if (form.requestSubmit) form.requestSubmit();
    else window.htmx.trigger(form, "submit");
  });

  // the palette greys out the tiles a click would take past 4 copies in the
  // chosen mode (碰 adds 3, 杠 4, 吃 one of each of three; 吃 greys the
  // tiles no chow starts at too: 8, 9 and the honours): #calc-out's
  // data-counts, sent with every answer, holds the copies in the hand; the
  // server refuses such a click anyway (builder.apply_edit), this only spares
  // the round trip.  A click on a greyed tile goes nowhere.
  var ADDS = { pung: 3, kong: 4, concealed_kong: 4 };

  function added(mode, tile) {
    var suit = tile.charAt(1), rank = parseInt(tile.charAt(0), 10);
    if (suit === "f") return [];
    if (mode === "chi") {
      if (suit === "z" || rank > 7) return [[tile, 5]];  // refused (chi_range)
      return [[tile, 1], [(rank + 1) + suit, 1], [(rank + 2) + suit, 1]];
    }
    return [[tile, ADDS[mode] || 1]];
  }

  function markFull() {
    var out = document.getElementById("calc-out");
    if (!out) return;
    var counts = {};
    (out.getAttribute("data-counts") || "").split(" ").forEach(function (pair) {
      var kv = pair.split(":");
      if (kv.length === 2) counts[kv[0]] = parseInt(kv[1], 10);
    });
    var checked = document.querySelector('#calc-form input[name="mode"]:checked');
    var mode = checked ? checked.value : "hand";
    var tiles = document.querySelectorAll(".palette-tile[data-tile]");
    for (var i = 0; i < tiles.length; i++) {
      var over = added(mode, tiles[i].getAttribute("data-tile")).some(function (a) {
        return (counts[a[0]] || 0) + a[1] > 4;
      });
      if (over) tiles[i].setAttribute("aria-disabled", "true");
      else tiles[i].removeAttribute("aria-disabled");
    }
  }
  document.addEventListener("change", function (e) {
    if (e.target && e.target.name === "mode") markFull();
  });
  document.addEventListener("DOMContentLoaded", markFull);
  document.addEventListener("htmx:afterSwap", function (e) {
    if (e.target && (e.target.id === "calc-out" || e.target.id === "calc")) markFull();
  });
  document.addEventListener("click", function (e) {
    var tile = e.target && e.target.closest && e.target.closest(".palette-tile");
    if (tile && tile.getAttribute("aria-disabled") === "true") {
      e.preventDefault();
      e.stopPropagation();
    }
  }, true);
})();
