/* 二人麻将 — live table behaviour. Vanilla JS, progressive: htmx (ws extension)
   does the transport and the swaps; this file adds clocks, keyboard play, the
   waits popover, focus keeping, a double-submit guard and live announcements.

   Hooks it reads (all rendered by templates/games/partials/*.html):
   - #mj-root[ws-connect]           the socket element (never swapped)
   - .mj-timer[data-deadline]       epoch ms; data-total (ms); data-now (server ms at render)
   - #mj-hand .mj-htile             hand tiles (buttons inside ws-send forms); data-waits="3m:2 6m:0"
   - [data-key]                     a shortcut key for a button (h, p, k, c, t, a, ...)
   - [data-action="pass"]           Space / Esc
   - [data-choice]                  a button that opens a choice group (aria-controls)
   - #mj-status[data-say]           text for the polite live region
   - #toast                         refusals (role=alert), auto-cleared
   - #redirect[data-url], [data-goto]  go there (分组's new table; a closed table's way out)
   - #mj-elsewhere[data-testid=elsewhere]  another page of the player holds the seat: its
                                    在此窗口继续 button takes focus (the server refuses this
                                    page's moves meanwhile)
   - details.mj-report[open]        a 举报 form being written: the settlement countdown
                                    pauses for this player (no automatic way out)
   - [data-stay] (aria-pressed)     留在此页: this page is not taken to the lobby when the
                                    settlement countdown ends (the server's countdown, the
                                    rules' 继续 window, still ends on time); scrolling the
                                    panel by hand asks the same; remembered per hand
                                    (sessionStorage "mj-stay")
   - #mj-status[data-callout-id]    the latest call (吃 碰 杠 和 自摸): data-callout (kind),
                                    data-callout-who (me/opponent), data-callout-text; each
                                    id is shown once (#mj-callout) with its sound from
                                    #mj-root[data-sounds] — never on the first paint or
                                    the socket's first frame (Back to a table), and
                                    sound only after the player has touched the page
   - #mj-sound[aria-pressed]        the mute toggle, remembered in localStorage "mj-sound"
   - #mj-ended[data-default]        shown when the server ends this player's place at the
                                    table (close code 4423: suspended or banned):
                                    the reason (the toast sent just before the close), no
                                    "reconnecting", every control disabled
   - #mj-root[data-beat]            ms between two presence heartbeats: {"action": "ping", "seq"}
                                    over the open socket (games.presence; a page that stops
                                    sending them is away within MAHJONG_PRESENCE_TTL)
   - [data-testid=opponent-away]    the opponent is disconnected: data-until (server ms, the
                                    grace ends), data-template ("…{n}…") counted down here
   - #mj-opponent[data-away]        "1" while away; a change 1 → 0 shows #mj-back (对手已回来)
   - [data-testid=timeout-notice]   a timed-out discard: each data-id shown for a few seconds
*/
(function () {
  "use strict";

  var root = null;
  var skewMs = 0; // server clock − client clock, from data-now
  var busyUntil = 0;
  var swapMode = false;
  var lastSaid = "";
  var wantFocus = null; // {tile, index} to restore after a swap
  var settleSeen = null; // the hand whose settlement panel already took focus
  var socketFrames = 0; // frames received over the socket since the page opened
  var quietHand = null; // a hand whose settlement was already there when the page opened
  var leaving = false; // a navigation away (new table, lobby) is under way
  // htmx's HX-Redirect (分组, 回到大厅) navigates too: a frame arriving after that
  // must not start a second navigation, which would abort the first.
  window.addEventListener("beforeunload", function () { leaving = true; });

  var ended = false; // the server ended this player's place at the table
  var lastToast = "";

  function $(sel, ctx) { return (ctx || document).querySelector(sel); }
  function $all(sel, ctx) { return Array.prototype.slice.call((ctx || document).querySelectorAll(sel)); }

  /* ---------------- 举报 pauses the way out ----------------
     While a report form is open (and not yet answered by report-done), the
     settlement countdown stops sending this player to the lobby: the server
     still closes the table on time for the opponent, but the page keeps the
     half-typed report.  Sending it, or closing the form, goes on.  The
     countdown keeps running and says what it counts down to (the table's
     close, data-report-unit), not that it stopped: it does not stop. */
  var pendingGo = null;
  function reportOpen() {
    return $all("details.mj-report[open]").some(function (d) {
      return !d.querySelector("[data-testid=report-done]");
    });
  }
  /* ---------------- 留在此页: reading the settlement ----------------
     A long settlement (many fan lines, on a phone) takes longer to read than
     the countdown.  The countdown is the rules' 继续 window (seed 000: 继续
     only while it runs; 分组 includes a timeout): the server still closes the
     table when it ends, so the opponent waits no longer.  What the player
     can hold back is this page's own way out to the lobby: pressing 留在此页,
     or scrolling the panel by hand (wheel, touch, scroll keys), keeps the page
     with the result; 回到大厅 / 分组 stay one click away. */
  var STAY_KEY = "mj-stay";
  var stayHand = null;
  var settleScroll = null; // {hand, top}: the panel's scroll kept across a frame
  try { stayHand = window.sessionStorage.getItem(STAY_KEY); } catch (err) { /* private mode */ }
  function settleHand() {
    var s = $("[data-testid='settlement']");
    return s ? s.getAttribute("data-hand") : null;
  }
  function staying() { return stayHand !== null && stayHand === settleHand(); }
  function paintStay() {
    var on = staying();
    $all("[data-stay]").forEach(function (b) {
      b.setAttribute("aria-pressed", on ? "true" : "false");
      var label = b.getAttribute(on ? "data-on" : "data-off");
      if (label && b.textContent !== label) b.textContent = label;
    });
  }
  function setStay(on) {
    stayHand = on ? settleHand() : null;
    try {
      if (stayHand) window.sessionStorage.setItem(STAY_KEY, stayHand);
      else window.sessionStorage.removeItem(STAY_KEY);
    } catch (err) { /* private mode */ }
    paintStay();
    if (!on) resumeWayOut();
  }
  function readingScroll(e) {
    var panel = e.target && e.target.closest && e.target.closest(".mj-settle");
    if (!panel || staying() || !panel.querySelector("[data-stay]")) return;
    if (e.type === "keydown" && !/^(ArrowUp|ArrowDown|PageUp|PageDown|Home|End)$/.test(e.key)) return;
    setStay(true);
  }
  function holdWayOut() { return reportOpen() || staying(); }
  function goTo(url) {
    if (leaving) return;
    if (holdWayOut()) { pendingGo = url; return; }
    leaving = true;
    window.location.assign(url);
  }
  function resumeWayOut() {
    if (!pendingGo || holdWayOut()) return;
    var url = pendingGo;
    pendingGo = null;
    setTimeout(function () { goTo(url); }, 1500); // time to read "report sent"
  }
  document.addEventListener("toggle", function (e) {
    if (e.target && e.target.classList && e.target.classList.contains("mj-report")) resumeWayOut();
  }, true);
  document.addEventListener("htmx:afterSwap", resumeWayOut);

  function tileBase() { return (root && root.getAttribute("data-tiles")) || "/static/tiles/"; }

  /* ---------------- call-outs and their sounds ----------------
     A call (吃 碰 杠 和 自摸) flashes over the caller's side of the table and,
     unless muted, plays its sound.  Browsers forbid sound before a user
     gesture; we also wait for one ourselves, so nothing ever plays on its own
     when a page opens. */
  var SOUND_KEY = "mj-sound";
  var interacted = false;
  var lastCallout = null; // the id shown last (set on the first paint, not shown)
  var audio = {};
  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) !== "off"; } catch (err) { return true; }
  }
  function paintSoundToggle() {
    var b = $("#mj-sound");
    if (!b) return;
    var on = soundOn();
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.classList.toggle("is-off", !on);
    var label = b.getAttribute(on ? "data-on" : "data-off");
    if (label) b.setAttribute("aria-label", label);
  }
  function setSound(on) {
    try { window.localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch (err) { /* private mode */ }
    paintSoundToggle();
  }
  function markInteracted() { interacted = true; }
  function playSound(kind) {
    if (!interacted || !soundOn() || !root) return;
    var base = root.getAttribute("data-sounds");
    if (!base || !/^(chi|pung|kong|hu|zimo)$/.test(kind)) return;
    var a = audio[kind];
    if (!a) { a = audio[kind] = new Audio(base + kind + ".wav"); a.preload = "auto"; }
    try { a.currentTime = 0; } catch (err) { /* not loaded yet */ }
    var p = a.play();
    if (p && p.catch) p.catch(function () { /* blocked or interrupted: silent */ });
  }
  function showCallout(first) {
    var st = $("#mj-status");
    var id = st && st.getAttribute("data-callout-id");
    if (!id || id === lastCallout) return;
    lastCallout = id;
    if (first) return; // the page just opened: that call is history
    var box = $("#mj-callout");
    var kind = st.getAttribute("data-callout") || "";
    if (box) {
      box.textContent = st.getAttribute("data-callout-text") || "";
      box.setAttribute("data-kind", kind);
      box.setAttribute("data-who", st.getAttribute("data-callout-who") || "");
      box.setAttribute("data-shown", id);
      box.classList.remove("is-shown");
      void box.offsetWidth; // restart the animation
      box.classList.add("is-shown");
      clearTimeout(showCallout.timer);
      showCallout.timer = setTimeout(function () { box.classList.remove("is-shown"); }, 1400);
    }
    playSound(kind);
  }

  /* ---------------- presence ----------------
     The heartbeat keeps this seat present (a TTL entry on the server); the
     opponent's absence is counted down, and their return said. */
  var wsOpen = false;
  var wsSocket = null;
  var beatTimer = null;
  function beat() {
    if (wsOpen && wsSocket) {
      // the seq this page shows: a server that sent another answers with the
      // whole frame (it otherwise sends only the fragments that changed)
      var msg = { action: "ping" };
      var status = $("#mj-status");
      var seq = status ? parseInt(status.getAttribute("data-seq") || "", 10) : NaN;
      if (!isNaN(seq)) msg.seq = seq;
      try { wsSocket.sendImmediately(JSON.stringify(msg)); } catch (err) { /* closed meanwhile */ }
    }
  }
  function startBeat() {
    var ms = parseInt((root && root.getAttribute("data-beat")) || "", 10);
    if (!ms || ms < 500 || beatTimer) return;
    beatTimer = setInterval(beat, ms);
  }
  var oppAway = null; // "1"/"0" as of the last frame
  var backTimer = null;
  function watchOpponent() {
    var opp = $("#mj-opponent");
    var now = opp ? opp.getAttribute("data-away") : null;
    var back = $("#mj-back");
    if (now === "1" && back) back.hidden = true;
    var st = $("#mj-status");
    var phase = st ? st.getAttribute("data-phase") : "";
    var live = phase && phase !== "ended" && phase !== "waiting"; // not a table that closed
    if (oppAway === "1" && now === "0" && back && live) {
      back.hidden = false;
      clearTimeout(backTimer);
      backTimer = setTimeout(function () { back.hidden = true; }, 5000);
    }
    if (now !== null) oppAway = now;
  }
  function tickAway(serverNow) {
    var el = $("[data-testid='opponent-away'][data-until]");
    if (!el || el.classList.contains("is-auto")) return;
    var until = parseFloat(el.getAttribute("data-until"));
    var text = el.querySelector(".mj-away-text");
    if (isNaN(until) || !text) return;
    var left = Math.ceil((until - serverNow) / 1000);
    var txt = left > 0 ? (el.getAttribute("data-template") || "{n}").replace("{n}", left) : el.getAttribute("data-soon");
    if (txt && text.textContent !== txt) text.textContent = txt;
  }
  var timeoutSeen = {}; // notice id → when it was first shown (client ms)
  function showTimeoutNotice() {
    $all("[data-testid='timeout-notice']").forEach(function (n) {
      var id = n.getAttribute("data-id");
      if (!id) return;
      if (!timeoutSeen[id]) timeoutSeen[id] = Date.now();
      n.hidden = Date.now() - timeoutSeen[id] > 6000;
    });
  }

  /* ---------------- clocks ---------------- */
  function readSkew() {
    var el = $("[data-now]");
    if (!el) return;
    var now = parseFloat(el.getAttribute("data-now"));
    if (!isNaN(now) && now > 0) skewMs = now - Date.now();
  }

  function tick() {
    var serverNow = Date.now() + skewMs;
    tickAway(serverNow);
    showTimeoutNotice();
    $all(".mj-timer[data-deadline]").forEach(function (t) {
      var deadline = parseFloat(t.getAttribute("data-deadline"));
      var total = parseFloat(t.getAttribute("data-total")) || 15000;
      if (isNaN(deadline) || deadline <= 0) { t.style.setProperty("--p", 0); return; }
      var left = Math.max(0, deadline - serverNow);
      var p = Math.max(0, Math.min(1, left / total));
      t.style.setProperty("--p", p.toFixed(4));
      t.classList.toggle("is-low", left < 4000);
      // The settlement countdown: when it runs out the server closes the table;
      // take the player back to the lobby (a moment later, so a last 继续 can land).
      var lobby = t.getAttribute("data-lobby-url");
      var writing = lobby && reportOpen();
      var stay = lobby && !writing && staying();
      if (lobby && deadline - serverNow < -1500 && !leaving) goTo(lobby);
      var num = t.parentNode && t.parentNode.querySelector(".mj-timer-num");
      if (num) {
        var secs = Math.ceil(left / 1000);
        var unit = (writing && num.getAttribute("data-report-unit")) ||
          (stay && num.getAttribute("data-stay-unit")) || num.getAttribute("data-unit") || "s";
        var txt = secs + unit;
        if (num.textContent !== txt) num.textContent = txt;
      }
    });
    window.requestAnimationFrame(tick);
  }

  /* ---------------- waits popover ---------------- */
  function parseWaits(s) {
    if (!s) return [];
    return s.trim().split(/\s+/).map(function (item) {
      var parts = item.split(":");
      return { tile: parts[0], left: parts.length > 1 ? parts[1] : "" };
    });
  }

  function tileImg(code, alt) {
    var img = document.createElement("img");
    img.className = "mj-tile";
    img.src = tileBase() + code + ".svg";
    img.alt = alt || code;
    img.width = 60; img.height = 80;
    return img;
  }

  function showWaits(btn) {
    var pop = $("#mj-waits");
    if (!pop) return;
    var waits = parseWaits(btn.getAttribute("data-waits"));
    if (!waits.length) { hideWaits(); return; }
    pop.textContent = "";
    var label = document.createElement("span");
    label.textContent = pop.getAttribute("data-label") || "听";
    pop.appendChild(label);
    waits.forEach(function (w) {
      var box = document.createElement("span");
      box.className = "mj-wait" + (w.left === "0" ? " is-dead" : "");
      box.appendChild(tileImg(w.tile, w.tile));
      if (w.left !== "") {
        var b = document.createElement("b");
        b.textContent = (pop.getAttribute("data-left") || "余{n}").replace("{n}", w.left);
        box.appendChild(b);
      }
      pop.appendChild(box);
    });
    pop.classList.add("is-shown");
  }

  function hideWaits() {
    var pop = $("#mj-waits");
    if (pop) pop.classList.remove("is-shown");
  }

  /* ---------------- keyboard ---------------- */
  function handTiles() { return $all("#mj-hand .mj-htile"); }

  function setRoving(focusIndex) {
    var tiles = handTiles();
    if (!tiles.length) return;
    var idx = Math.max(0, Math.min(tiles.length - 1, focusIndex));
    tiles.forEach(function (t, i) { t.tabIndex = i === idx ? 0 : -1; t.classList.toggle("is-chosen", false); });
    return tiles[idx];
  }

  function moveFocus(delta) {
    var tiles = handTiles();
    if (!tiles.length) return;
    var cur = tiles.indexOf(document.activeElement);
    if (cur < 0) cur = tiles.findIndex(function (t) { return t.tabIndex === 0; });
    if (cur < 0) cur = tiles.length - 1;
    var next = (cur + delta + tiles.length) % tiles.length;
    var el = setRoving(next);
    if (el) el.focus();
  }

  function clickVisible(sel) {
    var el = $all(sel).find(function (b) { return !b.disabled && b.offsetParent !== null; });
    if (el) { el.click(); return true; }
    return false;
  }

  function onKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    if (t && t.closest && t.closest(".mj-settle-wrap") && e.key !== "Escape") return;
    if (t && t.closest && t.closest(".mj-report")) return; // 举报: its own keys (Space/Enter open it)
    var key = e.key;
    if (key === "ArrowLeft" || key === "ArrowRight") {
      if (!handTiles().length) return;
      e.preventDefault();
      moveFocus(key === "ArrowLeft" ? -1 : 1);
      return;
    }
    if (key === "Escape") {
      var open = $("[data-choice][aria-expanded='true']");
      if (open) { toggleChoice(open, false); open.focus(); e.preventDefault(); return; }
      if (swapMode) { setSwapMode(false); e.preventDefault(); return; }
      if (clickVisible("#mj-actions [data-action='pass']")) e.preventDefault();
      return;
    }
    if (key === " " || key === "Spacebar") {
      // Space passes a claim, except on a focused action button (native press).
      var onButton = t && t.closest && t.closest("#mj-actions button, .mj-settle-wrap");
      if (!onButton && $("#mj-actions [data-action='pass']")) {
        e.preventDefault();
        clickVisible("#mj-actions [data-action='pass']");
      }
      return;
    }
    if (key === "Enter" && (!t || t === document.body || t === root)) {
      var chosen = $("#mj-hand .mj-htile[tabindex='0']");
      if (chosen && !chosen.disabled) { e.preventDefault(); chosen.click(); }
      return;
    }
    if (key.length === 1) {
      var k = key.toLowerCase();
      var btn = $all("#mj-root [data-key='" + k + "']").find(function (b) { return !b.disabled && b.offsetParent !== null; });
      if (btn) { e.preventDefault(); btn.click(); }
    }
  }

  /* ---------------- choice groups (吃 / 杠 / 听 with several options) ---------------- */
  function toggleChoice(btn, open) {
    var id = btn.getAttribute("aria-controls");
    var box = id && document.getElementById(id);
    if (!box) return;
    var show = open === undefined ? btn.getAttribute("aria-expanded") !== "true" : open;
    btn.setAttribute("aria-expanded", show ? "true" : "false");
    box.hidden = !show;
    if (show) {
      var first = box.querySelector("button");
      if (first) first.focus();
    }
  }

  /* ---------------- 换牌 mode ---------------- */
  function setSwapMode(on) {
    swapMode = !!on;
    var hand = $("#mj-hand");
    if (hand) hand.classList.toggle("is-swap-mode", swapMode);
    $all("[data-action='swap']").forEach(function (b) {
      b.classList.toggle("is-armed", swapMode);
      b.setAttribute("aria-pressed", swapMode ? "true" : "false");
    });
    var armed = swapMode && $("[data-action='swap']");
    var text = armed ? armed.getAttribute("data-armed-text") : "";
    showSwapNote(text);
    say(text);
  }

  /* While 换牌 is armed the hint under the hand says so: the frame's own note
     (#mj-hand-note, "点一张牌打出") is hidden and a note of the same look with
     the swap button's data-armed-text stands in its place; disarming removes
     it and shows the frame's note again (fresh tester: the armed text was only
     in the screen-reader live region). A frame that replaces #mj-hand-note
     while armed gets the same treatment from afterFrame → setSwapMode(true). */
  function showSwapNote(text) {
    var note = $("#mj-hand-note");
    var extra = $("#mj-swap-note");
    if (!text || !note) {
      if (extra) extra.remove();
      if (note) note.hidden = false;
      return;
    }
    if (!extra) {
      extra = document.createElement("p");
      extra.id = "mj-swap-note";
      extra.className = "mj-hand-note mj-swap-note";
      extra.setAttribute("data-testid", "swap-note");
      extra.setAttribute("aria-hidden", "true"); // the live region says it already
    }
    if (extra.previousElementSibling !== note) note.after(extra);
    extra.textContent = text;
    note.hidden = true;
  }

  /* ---------------- live region ---------------- */
  function say(text) {
    var live = $("#mj-live");
    if (!live || !text || text === lastSaid) return;
    lastSaid = text;
    live.textContent = text;
  }

  function afterFrame() {
    if (leaving) return; // one navigation only: a second one would abort the first
    var go = $("#redirect[data-url]");
    if (go && go.getAttribute("data-url")) { leaving = true; window.location.assign(go.getAttribute("data-url")); return; }
    // A closed table: the player's new table, or the lobby once the settlement
    // countdown has run out (the server re-sends the frame at that moment).
    var closed = $("[data-goto]");
    if (closed && !leaving) { goTo(closed.getAttribute("data-goto")); if (leaving) return; }
    readSkew();
    paintStay();
    // The settlement panel is drawn anew by each frame (the opponent's 继续):
    // keep where the player was reading.
    var panel = $(".mj-settle");
    if (panel && settleScroll && settleScroll.hand === settleHand()) panel.scrollTop = settleScroll.top;
    settleScroll = null;
    // A pool taller than its box scrolls inside it (table.css): show the newest discards.
    $all("#mj-center .mj-pool").forEach(function (p) { p.scrollTop = p.scrollHeight; });
    var status = $("#mj-status");
    if (status) say(status.getAttribute("data-say"));
    // The socket's first frame is the table as it stands when the page opened
    // (a reload, or Back to a finished table): its call is history, as on the
    // first paint — no 和！ flash and no sound — and a settlement already there
    // is shown still (no level-up pop). Later frames are news.
    var opening = socketFrames <= 1;
    showCallout(opening);
    var shownSettle = $("[data-testid='settlement']");
    var shownHand = shownSettle ? shownSettle.getAttribute("data-hand") : null;
    if (opening && shownHand) quietHand = shownHand;
    if (root) root.toggleAttribute("data-quiet-settlement", shownHand !== null && shownHand === quietHand);
    watchOpponent();
    var toast = $("#toast");
    if (toast && toast.textContent.trim()) {
      clearTimeout(afterFrame.toastTimer);
      afterFrame.toastTimer = setTimeout(function () {
        var t = $("#toast");
        if (t) t.textContent = "";
      }, 4500);
    }
    // Invite links are rendered as paths; show the full address to share.
    $all("input[data-invite]").forEach(function (i) {
      if (i.value.charAt(0) === "/") i.value = window.location.origin + i.value;
    });
    busyUntil = 0;
    if (swapMode && !$("[data-action='swap']")) setSwapMode(false);
    if (swapMode) setSwapMode(true);
    // Keep keyboard focus on the hand across swaps.
    var tiles = handTiles();
    if (tiles.length) {
      var idx = tiles.length - 1;
      if (wantFocus) {
        var same = tiles.findIndex(function (b) { return b.getAttribute("data-tile") === wantFocus.tile; });
        idx = same >= 0 ? same : Math.min(wantFocus.index, tiles.length - 1);
      }
      var el = setRoving(idx);
      if (wantFocus && el) el.focus({ preventScroll: true });
    }
    wantFocus = null;
    // Another page holds this seat: its notice takes focus (在此窗口继续).
    var elsewhere = $("#mj-elsewhere[data-testid='elsewhere'] button");
    if (elsewhere && !elsewhere.contains(document.activeElement)) elsewhere.focus({ preventScroll: true });
    // A settlement panel takes focus so keyboard users land on its buttons.
    var settle = $("[data-testid='settlement']");
    if (settle && settle.getAttribute("data-hand") !== settleSeen) {
      settleSeen = settle.getAttribute("data-hand");
      var cont = settle.querySelector("[data-testid='continue']");
      (cont || settle).focus({ preventScroll: true });
    }
  }

  /* The server closed the socket for good (4423: the player was suspended or
     banned).  htmx does not reconnect on that code; say why and stop
     offering moves instead of showing "reconnecting". */
  function endTable() {
    ended = true;
    var c = $("#mj-conn");
    if (c) {
      c.classList.remove("is-open", "is-closed");
      c.classList.add("is-ended");
      c.textContent = c.getAttribute("data-ended");
    }
    var box = $("#mj-ended");
    if (box) {
      var reason = box.querySelector("[data-reason]");
      if (reason) reason.textContent = lastToast || box.getAttribute("data-default");
      box.hidden = false;
    }
    $all("#mj-root button, #mj-root input, #mj-root select, #mj-root textarea").forEach(function (el) {
      el.disabled = true;
    });
    if (root) root.setAttribute("aria-disabled", "true");
  }

  function init() {
    root = document.getElementById("mj-root");
    if (!root) return;
    showCallout(true);
    paintSoundToggle();
    ["pointerdown", "keydown", "touchstart"].forEach(function (ev) {
      document.addEventListener(ev, markInteracted, { capture: true, passive: true });
    });
    var toggle = $("#mj-sound");
    if (toggle) toggle.addEventListener("click", function () { setSound(!soundOn()); });
    readSkew();
    window.requestAnimationFrame(tick);
    document.addEventListener("keydown", onKey);
    ["wheel", "touchmove", "keydown"].forEach(function (ev) {
      root.addEventListener(ev, readingScroll, { passive: true });
    });

    root.addEventListener("htmx:wsOpen", function (e) {
      wsOpen = true;
      wsSocket = e.detail && e.detail.socketWrapper;
      startBeat();
      var c = $("#mj-conn");
      if (c) { c.classList.add("is-open"); c.classList.remove("is-closed"); c.textContent = c.getAttribute("data-open"); }
    });
    root.addEventListener("htmx:wsClose", function (e) {
      wsOpen = false;
      var code = e.detail && e.detail.event ? e.detail.event.code : 0;
      if (code === 4423) { endTable(); return; }
      if (ended) return;
      var c = $("#mj-conn");
      if (c) { c.classList.remove("is-open"); c.classList.add("is-closed"); c.textContent = c.getAttribute("data-closed"); }
    });
    root.addEventListener("htmx:wsBeforeMessage", function () {
      var a = document.activeElement;
      if (a && a.classList && a.classList.contains("mj-htile")) {
        wantFocus = { tile: a.getAttribute("data-tile"), index: handTiles().indexOf(a) };
      }
      var panel = $(".mj-settle");
      settleScroll = panel ? { hand: settleHand(), top: panel.scrollTop } : null;
      hideWaits();
    });
    root.addEventListener("htmx:wsAfterMessage", function () {
      // a refusal's words, kept: the close that may follow says no more
      var t = $("#toast");
      if (t && t.textContent.trim()) lastToast = t.textContent.trim();
    });
    root.addEventListener("htmx:wsAfterMessage", function () {
      socketFrames += 1;
      afterFrame();
    });

    // One action per prompt: drop a second click until the server answers.
    root.addEventListener("htmx:wsConfigSend", function (e) {
      var now = Date.now();
      if (busyUntil > now) { e.preventDefault(); return; }
      var p = e.detail.parameters;
      if (swapMode && p && p.action === "discard") {
        p.action = "swap";
        setSwapMode(false);
      }
      busyUntil = now + 2500;
    });

    root.addEventListener("click", function (e) {
      var chooser = e.target.closest && e.target.closest("[data-choice]");
      if (chooser) { e.preventDefault(); toggleChoice(chooser); return; }
      var copy = e.target.closest && e.target.closest("[data-copy-invite]");
      if (copy) {
        var input = $("input[data-invite]");
        if (input) {
          input.select();
          var done = function () { copy.textContent = copy.getAttribute("data-done"); };
          if (navigator.clipboard) navigator.clipboard.writeText(input.value).then(done, done);
          else { try { document.execCommand("copy"); } catch (err) { /* ignore */ } done(); }
        }
        return;
      }
      var commit = e.target.closest && e.target.closest("[data-copy-commit]");
      if (commit) {
        var full = commit.getAttribute("data-commitment");
        var label = commit.querySelector("code");
        var copied = function () { if (label) label.textContent = commit.getAttribute("data-done"); };
        if (navigator.clipboard) navigator.clipboard.writeText(full).then(copied, copied);
        return;
      }
      var stayBtn = e.target.closest && e.target.closest("[data-stay]");
      if (stayBtn) { setStay(!staying()); return; }
      var sw = e.target.closest && e.target.closest("[data-action='swap']");
      if (sw) { e.preventDefault(); setSwapMode(!swapMode); return; }
    });
    root.addEventListener("mouseover", function (e) {
      var b = e.target.closest && e.target.closest(".mj-htile");
      if (b) showWaits(b);
    });
    root.addEventListener("mouseout", function (e) {
      var b = e.target.closest && e.target.closest(".mj-htile");
      if (b && !(e.relatedTarget && b.contains(e.relatedTarget))) hideWaits();
    });
    root.addEventListener("focusin", function (e) {
      var b = e.target.closest && e.target.closest(".mj-htile");
      if (b) {
        var tiles = handTiles();
        setRoving(tiles.indexOf(b));
        showWaits(b);
      }
    });
    root.addEventListener("focusout", function (e) {
      if (e.target.classList && e.target.classList.contains("mj-htile")) hideWaits();
    });
    afterFrame();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
