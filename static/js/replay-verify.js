/* 二人麻将 — 验证: recompute the commitment and the whole wall in the browser
   (WebCrypto SHA-256, no server call) from the revealed seed and the
   documented shuffle (docs/fairness.md, the /fair/ page), and compare them
   with the tiles the log shows were dealt and drawn.  The same checks as
   tools/verify_hand.py.  Result: [data-testid="verify-result"] with
   data-verified="true|false" and the findings in words. */
(function () {
  "use strict";
  var PREFIX = { 1: "erren2:", 2: "erren2-wall-v2:" };
  var TWO32 = 4294967296;

  function hex(buf) {
    return Array.prototype.map.call(new Uint8Array(buf), function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function sha256(text) {
    return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  }

  function Stream(seed) {
    this.prefix = PREFIX[2] + seed + ":";
    this.block = 0;
    this.words = [];
  }
  Stream.prototype.u32 = async function () {
    if (!this.words.length) {
      var view = new DataView(await sha256(this.prefix + String(this.block)));
      this.block += 1;
      for (var i = 0; i < 32; i += 4) this.words.push(view.getUint32(i, false));
    }
    return this.words.shift();
  };
  Stream.prototype.below = async function (n) {
    var limit = TWO32 - (TWO32 % n);
    for (;;) {
      var u = await this.u32();
      if (u < limit) return u % n;
    }
  };
  Stream.prototype.shuffle = async function (items) {
    for (var i = items.length - 1; i > 0; i--) {
      var j = await this.below(i + 1);
      var t = items[i]; items[i] = items[j]; items[j] = t;
    }
  };
  Stream.prototype.choice = async function (items) {
    return items[await this.below(items.length)];
  };

  var ORDER = { m: 0, p: 9, s: 18, z: 27, f: 34 };
  function index(code) { return ORDER[code.charAt(1)] + parseInt(code.charAt(0), 10) - 1; }
  function sorted(list) { return list.slice().sort(function (a, b) { return index(a) - index(b); }); }
  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (_, k) { return values[k]; });
  }

  async function verify(fair, words) {
    var lines = [];
    var ok = true;
    var version = fair.shuffle;
    var computed = hex(await sha256((PREFIX[version] || PREFIX[1]) + fair.seed));
    if (computed === fair.commitment) {
      lines.push(words.commitOk + " (" + computed.slice(0, 16) + "…)");
    } else {
      ok = false;
      lines.push(words.commitBad + ": " + computed.slice(0, 16) + "… ≠ " + String(fair.commitment).slice(0, 16) + "…");
    }
    if (fair.file_commitment && fair.file_commitment !== fair.commitment) {
      ok = false;
      lines.push(words.commitBad);
    }
    var partial = false;
    if (version !== 2) {
      lines.push(words.v1);
      var r1 = checkResult(fair, words);
      return { ok: ok && r1.ok, lines: lines.concat(r1.lines), partial: true };
    }
    var rng = new Stream(fair.seed);
    var wall = fair.wall.slice();
    await rng.shuffle(wall);
    var head = 0, tail = wall.length, count = 0, wrong = 0;
    var dealer = fair.dealer || 0;
    var dealt = {}; dealt[dealer] = []; dealt[1 - dealer] = [];
    for (var r = 0; r < 3; r++) {
      [dealer, 1 - dealer].forEach(function (s) { dealt[s] = dealt[s].concat(wall.slice(head, head + 4)); head += 4; });
    }
    [dealer, 1 - dealer, dealer].forEach(function (s) { dealt[s].push(wall[head]); head += 1; });
    function bad(seq, log, want) {
      wrong += 1; ok = false;
      if (wrong <= 5) lines.push(fill(words.tileBad, { seq: seq, log: log, wall: want }));
    }
    for (var i = 0; i < fair.moves.length; i++) {
      var m = fair.moves[i];
      if (m.kind === "deal") {
        var got = sorted(m.tiles || []).join(" ");
        var want = sorted(dealt[m.seat] || []).join(" ");
        count += (dealt[m.seat] || []).length;
        if (got !== want) bad(m.seq, got, want);
      } else if (m.kind === "draw") {
        if (head >= tail) { bad(m.seq, m.tile, "–"); continue; }
        var tile;
        if (m.replacement) { tail -= 1; tile = wall[tail]; } else { tile = wall[head]; head += 1; }
        count += 1;
        if (m.tile !== tile) bad(m.seq, m.tile, tile);
        else if (typeof m.wall === "number" && m.wall !== tail - head) bad(m.seq, m.wall, tail - head);
      } else if (m.kind === "indicator" && m.wild) {
        var k = tail - 1;
        while (wall[k].charAt(1) === "f") k -= 1;
        var tmp = wall[k]; wall[k] = wall[tail - 1]; wall[tail - 1] = tmp;
        tail -= 1; count += 1;
        if (m.wild !== wall[tail]) bad(m.seq, m.wild, wall[tail]);
      } else if (m.kind === "indicator" && m.bonus_tile) {
        var bonus = await rng.choice(fair.kinds);
        if (m.bonus_tile !== bonus) bad(m.seq, m.bonus_tile, bonus);
      } else if (m.kind === "task") {
        var kind = await rng.choice(fair.task_kinds);
        var expect = kind;
        var gotTask = m.task_kind;
        if (kind === "pung") {
          expect = "pung " + (await rng.choice(fair.kinds));
          gotTask = m.task_kind + " " + m.task_tile;
        } else if (kind === "fan") {
          if (fair.task_fans.length) {
            expect = "fan " + (await rng.choice(fair.task_fans));
            gotTask = m.task_kind + " " + m.task_fan;
          } else {
            expect = "kong";
          }
        }
        if (gotTask !== expect) bad(m.seq, gotTask, expect);
      } else if (m.kind === "hand_ended" && m.seed && m.seed !== fair.seed) {
        bad(m.seq, m.seed, fair.seed);
      }
    }
    if (!wrong) lines.push(fill(words.wallOk, { n: count }));
    var res = checkResult(fair, words);
    if (!res.ok) ok = false;
    lines = lines.concat(res.lines);
    return { ok: ok, lines: lines, partial: partial };
  }

  /* JSON with sorted keys, so two results compare by value. */
  function canon(v) {
    if (Array.isArray(v)) return "[" + v.map(canon).join(",") + "]";
    if (v && typeof v === "object") {
      return "{" + Object.keys(v).sort().map(function (k) {
        return JSON.stringify(k) + ":" + canon(v[k]);
      }).join(",") + "}";
    }
    return JSON.stringify(v === undefined ? null : v);
  }

  /* The result shown against the log's last event (as tools/verify_hand.py):
     the same result and settlement, the winner is the seat of the winning
     move, self-drawn when it was made on the winner's turn, the fan total is
     the sum of the fans, the coins follow from coins and rake. */
  function checkResult(fair, words) {
    var end = null;
    fair.moves.forEach(function (m) { if (m.kind === "hand_ended") end = m; });
    var shown = fair.result || {};
    var st = fair.settlement || {};
    var bad = [];
    if (!end) {
      var coins = (st.deltas || [0, 0]).some(function (d) { return d !== 0; });
      if (shown.winner !== null && shown.winner !== undefined || coins) bad.push("winner");
      return bad.length ? { ok: false, lines: [fill(words.resultBad, { what: bad.join(", ") })] }
                        : { ok: true, lines: [] };
    }
    var log = end.result || {};
    var keys = {};
    Object.keys(shown).concat(Object.keys(log)).forEach(function (k) { keys[k] = 1; });
    Object.keys(keys).sort().forEach(function (k) {
      if (canon(shown[k]) !== canon(log[k])) bad.push("result." + k);
    });
    var logSt = log.settlement || {};
    keys = {};
    Object.keys(st).concat(Object.keys(logSt)).forEach(function (k) { keys[k] = 1; });
    Object.keys(keys).sort().forEach(function (k) {
      if (k !== "skill" && canon(st[k]) !== canon(logSt[k])) bad.push("settlement." + k);
    });
    var winner = end.win_seat === undefined ? null : end.win_seat;
    if ((log.winner === undefined ? null : log.winner) !== winner) bad.push("winner");
    if (winner !== null) {
      if (log.self_drawn !== (end.phase === "turn")) bad.push("self_drawn");
      var total = 0;
      (log.fans || []).forEach(function (f) {
        if (f.counted !== false) total += (f.points || 0) * (f.count || 1);
      });
      if (total !== log.fan_total) bad.push("fan_total");
      var want = [0, 0];
      want[winner] = (logSt.coins || 0) - (logSt.rake || 0);
      want[1 - winner] = -(logSt.coins || 0);
      if (canon(logSt.deltas) !== canon(want)) bad.push("deltas");
    } else if (canon(logSt.deltas || [0, 0]) !== canon([0, 0])) {
      bad.push("deltas");
    }
    if (bad.length) return { ok: false, lines: [fill(words.resultBad, { what: bad.slice(0, 6).join(", ") })] };
    return { ok: true, lines: [words.resultOk] };
  }

  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest('[data-testid="replay-verify"]');
    if (!btn) return;
    var out = document.querySelector('[data-testid="verify-result"]');
    var dataEl = document.getElementById("replay-data");
    if (!out || !dataEl) return;
    var fair = JSON.parse(dataEl.textContent).fair;
    var d = out.dataset;
    var words = {
      commitOk: d.commitOk, commitBad: d.commitBad, wallOk: d.wallOk,
      tileBad: d.tileBad, v1: d.v1, resultOk: d.resultOk, resultBad: d.resultBad
    };
    function show(ok, lines, partial) {
      out.setAttribute("data-verified", ok ? "true" : "false");
      out.innerHTML = "";
      var head = document.createElement("strong");
      head.textContent = ok ? (partial ? d.okV1 : d.ok) : d.bad;
      out.appendChild(head);
      var ul = document.createElement("ul");
      lines.forEach(function (line) {
        var li = document.createElement("li");
        li.textContent = line;
        ul.appendChild(li);
      });
      out.appendChild(ul);
    }
    if (!window.crypto || !crypto.subtle || !window.TextEncoder) {
      show(false, [d.nocrypto]);
      return;
    }
    var label = btn.textContent;
    btn.disabled = true;
    btn.textContent = btn.getAttribute("data-running") || label;
    verify(fair, words).then(function (res) {
      // the server's engine replayed the log: a log the rules do not give is
      // not genuine, whatever the seed and the wall say
      if (fair.engine_ok === false) {
        res.ok = false;
        res.lines.push(d.engineBad + " " + (fair.engine_reason || ""));
      }
      show(res.ok, res.lines, res.partial);
    }).catch(function (e) {
      show(false, [String(e)]);
    }).then(function () {
      btn.disabled = false;
      btn.textContent = label;
    });
  });
  // the button works from here on: it is disabled in the page until then,
  // so a press before this script ran is not lost silently
  document.querySelectorAll('[data-testid="replay-verify"]').forEach(function (b) {
    b.disabled = false;
  });
})();
