/* 二人麻将 — the replay viewer's controls.
   The page works without this script (every control is a link to ?step=N);
   with it, moving fetches only the board (?step=N&part=board), keeps the URL
   on the step shown (so a moment can be shared), and adds autoplay, the
   slider, decision jumps and the keyboard: ←/→ step, Shift+←/→ decision of
   the chosen seat, Home/End, space plays or pauses. */
(function () {
  "use strict";
  var root = document.querySelector('[data-testid="replay-page"]');
  var stage = document.getElementById("rp-stage");
  var dataEl = document.getElementById("replay-data");
  if (!root || !stage || !dataEl) return;
  var data = JSON.parse(dataEl.textContent);
  var base = root.getAttribute("data-base");
  var bottom = root.getAttribute("data-bottom") || "0";
  var last = data.last;
  var step = parseInt(root.getAttribute("data-step"), 10) || 0;
  var slider = root.querySelector('[data-testid="replay-slider"]');
  var stepEl = root.querySelector('[data-testid="replay-step"]');
  var playBtn = root.querySelector('[data-testid="replay-play"]');
  var speedSel = root.querySelector('[data-testid="replay-speed"]');
  var seatSel = root.querySelector('[data-testid="replay-decision-seat"]');
  var cache = {};
  var inflight = {};
  var pending = 0;
  /* The step the viewer is going to: it moves at once with every click or
     key, while `step` is the one drawn.  Relative moves count from it, so fast
     presses are never lost to a fetch still on its way; a fetch that is no
     longer the latest is ignored. */
  var target = step;
  var timer = null;

  root.querySelectorAll("[hidden]").forEach(function (el) {
    if (el.closest(".rp-controls")) el.hidden = false;
  });
  // under 900 px the slider and options fold behind ⋯ (replay.css)
  var controls = root.querySelector(".rp-controls");
  var more = root.querySelector('[data-testid="replay-more"]');
  if (controls && more) {
    controls.classList.add("rp-more-js");
    more.addEventListener("click", function () {
      var open = !controls.classList.contains("is-open");
      controls.classList.toggle("is-open", open);
      more.setAttribute("aria-expanded", open ? "true" : "false");
    });
  }

  function url(n, part) {
    var q = "?seat=" + encodeURIComponent(bottom) + "&step=" + n;
    return base + q + (part ? "&part=board" : "");
  }

  function load(n) {
    if (cache[n]) return Promise.resolve(cache[n]);
    if (inflight[n]) return inflight[n];
    var p = fetch(url(n, true), { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.text();
      })
      .then(function (html) {
        cache[n] = html;
        delete inflight[n];
        return html;
      }, function (e) {
        delete inflight[n];
        throw e;
      });
    inflight[n] = p;
    return p;
  }

  function clamp(n) {
    return Math.max(0, Math.min(last, n));
  }

  function decisionSteps() {
    var seat = seatSel ? seatSel.value : bottom;
    return (data.decisions && data.decisions[seat]) || [];
  }

  function setLink(name, n, disabled) {
    var a = root.querySelector('[data-go="' + name + '"]');
    if (!a) return;
    if (a.tagName === "A") a.setAttribute("href", url(n, false));
    a.setAttribute("aria-disabled", disabled ? "true" : "false");
  }

  function refresh() {
    if (slider) {
      slider.value = String(step);
      slider.setAttribute("aria-valuetext", step + " / " + last);
    }
    if (stepEl) stepEl.textContent = String(step);
    root.setAttribute("data-step", String(step));
    setLink("first", 0, step === 0);
    setLink("prev", clamp(step - 1), step === 0);
    setLink("next", clamp(step + 1), step === last);
    setLink("last", last, step === last);
    var ds = decisionSteps();
    setLink("prev-decision", 0, !ds.some(function (s) { return s < step; }));
    setLink("next-decision", 0, !ds.some(function (s) { return s > step; }));
    var flip = root.querySelector("[data-flip]");
    if (flip) flip.setAttribute("href", base + "?seat=" + (bottom === "0" ? "1" : "0") + "&step=" + step);
  }

  function go(n) {
    n = clamp(n);
    target = n;
    var token = ++pending;
    root.setAttribute("data-target", String(n));
    return load(n).then(function (html) {
      if (token !== pending) return; // a later move superseded this one
      stage.innerHTML = html;
      step = n;
      refresh();
      try {
        history.replaceState(null, "", url(n, false));
      } catch (e) { /* file:// or sandboxed */ }
      if (n < last) load(n + 1).catch(function () {});
    }).catch(function () {
      if (token === pending) window.location.href = url(n, false);
    });
  }

  function jumpDecision(dir) {
    var ds = decisionSteps();
    var to = null;
    if (dir > 0) {
      for (var i = 0; i < ds.length; i++) if (ds[i] > target) { to = ds[i]; break; }
    } else {
      for (var j = ds.length - 1; j >= 0; j--) if (ds[j] < target) { to = ds[j]; break; }
    }
    if (to !== null) go(to);
  }

  function stop() {
    if (timer) clearTimeout(timer);
    timer = null;
    if (playBtn) {
      playBtn.textContent = playBtn.getAttribute("data-play");
      playBtn.setAttribute("aria-pressed", "false");
    }
  }

  function tick() {
    if (target >= last) { stop(); return; }
    go(target + 1).then(function () {
      if (timer !== null) timer = setTimeout(tick, parseInt(speedSel ? speedSel.value : "800", 10));
    });
  }

  function play() {
    if (timer) { stop(); return; }
    if (target >= last) go(0);
    if (playBtn) {
      playBtn.textContent = playBtn.getAttribute("data-pause");
      playBtn.setAttribute("aria-pressed", "true");
    }
    timer = setTimeout(tick, parseInt(speedSel ? speedSel.value : "800", 10));
  }

  root.addEventListener("click", function (ev) {
    var link = ev.target.closest("[data-go]");
    if (link) {
      ev.preventDefault();
      stop();
      var what = link.getAttribute("data-go");
      if (what === "first") go(0);
      else if (what === "last") go(last);
      else if (what === "prev") go(target - 1);
      else if (what === "next") go(target + 1);
      else if (what === "prev-decision") jumpDecision(-1);
      else if (what === "next-decision") jumpDecision(1);
      return;
    }
    var stepLink = ev.target.closest("[data-step-link]");
    if (stepLink) {
      ev.preventDefault();
      stop();
      go(parseInt(stepLink.getAttribute("data-step-link"), 10)).then(function () {
        stage.scrollIntoView({ behavior: "smooth", block: "start" });
      });
    }
  });
  if (playBtn) playBtn.addEventListener("click", play);
  if (seatSel) seatSel.addEventListener("change", refresh);
  if (slider) {
    slider.addEventListener("input", function () {
      stop();
      go(parseInt(slider.value, 10));
    });
  }

  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var t = ev.target;
    var tag = t && t.tagName;
    if (tag === "INPUT" && t !== slider) return;
    if (tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
    var key = ev.key;
    if (t === slider && (key === "ArrowLeft" || key === "ArrowRight" || key === "Home" || key === "End")) {
      return; // the slider moves itself and fires "input"
    }
    if (key === "ArrowLeft" || key === "ArrowRight") {
      ev.preventDefault();
      stop();
      var dir = key === "ArrowLeft" ? -1 : 1;
      if (ev.shiftKey) jumpDecision(dir);
      else go(target + dir);
    } else if (key === "Home") {
      ev.preventDefault(); stop(); go(0);
    } else if (key === "End") {
      ev.preventDefault(); stop(); go(last);
    } else if (key === " " || key === "Spacebar") {
      if (tag === "A" && t.hasAttribute("data-go")) {
        // the step links (|◀ ‹ › ▶|) act as the buttons they look like
        ev.preventDefault();
        t.click();
        return;
      }
      if (tag === "BUTTON" || tag === "A" || tag === "SUMMARY") return; // activates it
      ev.preventDefault();
      play();
    }
  });

  refresh();
})();
