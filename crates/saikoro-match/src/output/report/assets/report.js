"use strict";
// The report page's script. Every string that comes from the match (engine names, options,
// openings, details, the title) reaches the page through textContent, setAttribute or an
// input's value, never as markup.
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var errs = $("errors");
  function fail(msg) { errs.hidden = false; errs.textContent += "Error: " + msg + "\n"; }
  window.addEventListener("error", function (e) { fail(e.message); });
  window.addEventListener("unhandledrejection", function (e) { fail(String(e.reason)); });

  // ---- small tools ---------------------------------------------------------------------
  function h(tag, attrs) {
    var e = document.createElement(tag);
    for (var a in attrs) if (attrs[a] !== undefined && attrs[a] !== null) e.setAttribute(a, attrs[a]);
    for (var i = 2; i < arguments.length; i++) {
      var k = arguments[i];
      if (k === null || k === undefined) continue;
      e.appendChild(typeof k === "object" ? k : document.createTextNode(String(k)));
    }
    return e;
  }
  var NS = "http://www.w3.org/2000/svg";
  function s(name, attrs, text) {
    var e = document.createElementNS(NS, name);
    for (var a in attrs) e.setAttribute(a, attrs[a]);
    if (text !== undefined) e.textContent = String(text);
    return e;
  }
  // A figure of the data as a number: "inf" and "-inf" (what the block prints for an infinite
  // figure, which JSON has no number for) as ±Infinity, null (the block's n/a) as null.
  function num(x) { return x === "inf" ? Infinity : x === "-inf" ? -Infinity : x === null || x === undefined ? null : +x; }
  // A figure in the block's words: its decimals, inf or -inf, n/a; signed: +inf, and + before
  // a positive number.
  function fixed(x, d) {
    x = num(x);
    return x === null || isNaN(x) ? "n/a" : x === Infinity ? "inf" : x === -Infinity ? "-inf" : x.toFixed(d);
  }
  function signed(x, d) { var t = fixed(x, d); return num(x) > 0 ? "+" + t : t; }
  function count(n) { return Number(n).toLocaleString("en-US"); }
  // "1 game", "12 games".
  function games(n) { return count(n) + (+n === 1 ? " game" : " games"); }
  // A UTC time as the data writes it (2026-12-03T08:40:00Z), for reading.
  function utc(t) { return t ? String(t).replace("T", " ").replace(/Z$/, "") + " UTC" : null; }

  // ---- the data ------------------------------------------------------------------------
  // Plain JSON, or (data-encoding="gzip+base64") base64 of its gzip, decoded with
  // DecompressionStream where the browser has it.
  function loadData() {
    var node = $("data"), enc = node.getAttribute("data-encoding");
    if (!enc) return JSON.parse(node.textContent);
    if (enc !== "gzip+base64") throw new Error("unknown data encoding " + enc);
    if (typeof DecompressionStream === "undefined")
      throw new Error("this browser cannot read the compressed data (it has no DecompressionStream)");
    var bin = atob(node.textContent.trim()), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }

  var D;
  // Game array fields.
  var G_NUM = 0, G_ROUND = 1, G_B = 2, G_W = 3, G_OPEN = 4, G_RES = 5, G_REASON = 6, G_DETAIL = 7,
    G_PLIES = 8, G_MOVES = 9, G_TB = 10, G_TW = 11, G_OPLIES = 12, G_END = 13;
  function ename(i) { var e = D.engines[i]; return e ? String(e.name) : "engine " + i; }

  var REASONS = {
    mate: "mate (詰み)", resign: "resignation (投了)", time: "time forfeit (切れ負け)",
    illegal_move: "illegal move (反則)", illegal_declaration: "illegal 入玉宣言",
    repetition: "千日手 (repetition)", perpetual_check: "連続王手の千日手 (perpetual check)",
    declaration: "入玉宣言 (declaration)", adjudication: "adjudication", crash: "crash",
    no_response: "no response", max_plies: "ply limit", interrupted: "interrupted"
  };
  function reasonText(r) { return REASONS[r] || String(r); }
  var RESULTS = { "1-0": "1-0 (先手 won)", "0-1": "0-1 (後手 won)", "1/2-1/2": "½-½ (draw)", "*": "* (no result)" };
  function resultText(r) { return RESULTS[r] || String(r); }
  // The rows of the endings table: the kinds, each from the runner's reasons.
  var ENDINGS = [
    ["Mate (詰み)", ["mate"]], ["Resignation (投了)", ["resign"]], ["Time forfeit (切れ負け)", ["time"]],
    ["Illegal move (反則)", ["illegal_move", "illegal_declaration"]],
    ["千日手 (repetition)", ["repetition", "perpetual_check"]], ["入玉宣言 (declaration)", ["declaration"]],
    ["Adjudication", ["adjudication"]], ["Crash or no response", ["crash", "no_response"]],
    ["Ply limit", ["max_plies"]], ["Interrupted", ["interrupted"]]
  ];

  // ---- header --------------------------------------------------------------------------
  function renderHeader() {
    $("title").textContent = D.title;
    document.title = D.title;
    var st = D.finished ? "Finished" + (D.ended ? " at " + utc(D.ended) : "") + "."
      : "Running" + (D.updated ? ": updated " + utc(D.updated) : "") + ".";
    $("status").textContent = st + " " + games(D.games.length) + " played.";
    if (!D.finished) setupLive();
    var meta = $("meta"), S = D.settings || {};
    function row(k, v, wide) {
      if (v !== null && v !== undefined && v !== "")
        meta.append(h("dt", { "class": wide ? "wide" : null }, k), h("dd", { "class": wide ? "wide" : null }, String(v)));
    }
    row("Saikoro", D.version);
    row("Started", utc(D.started));
    row("Ended", D.ended ? utc(D.ended) : D.finished ? null : "not yet (running)");
    row("Page written", D.finished ? null : utc(D.updated));
    row("Time control", S.tc);
    row("Openings", S.openings);
    row("Rounds", S.rounds);
    row("Games per round", S.games);
    row("Concurrency", S.concurrency);
    row("Seed", S.seed);
    row("Ply limit", S.maxplies);
    row("Adjudication", S.adjudication, true);
    row("Command", D.command, true);
    var ol = $("engines");
    D.engines.forEach(function (e) {
      var opts = (e.options || []).map(function (o) { return o[0] + "=" + o[1]; });
      ol.appendChild(h("li", {}, h("strong", {}, String(e.name)), e.cmd ? " — " : "",
        e.cmd ? h("code", {}, String(e.cmd)) : null,
        h("div", { "class": "opts" }, opts.length ? "Options: " + opts.join(", ") : "No options set.")));
    });
    $("engines-box").querySelector("summary").textContent = "Engines and their options (" + D.engines.length + ")";
  }

  // A live page: a control to reload now and, unless the page's own refresh does it, a
  // reload every 10 s that the reader can pause.
  function setupLive() {
    $("live").hidden = false;
    $("reload").addEventListener("click", function () { location.reload(); });
    var box = $("autoreload");
    if (document.querySelector("meta[http-equiv=refresh]")) {
      box.parentNode.hidden = true;
      $("status").textContent += " This page reloads itself every 10 s.";
      return;
    }
    var key = "saikoro-report-autoreload";
    try { if (sessionStorage.getItem(key) === "off") box.checked = false; } catch (e) { /* no storage */ }
    box.addEventListener("change", function () {
      try { sessionStorage.setItem(key, box.checked ? "on" : "off"); } catch (e) { /* no storage */ }
    });
    setInterval(function () { if (box.checked) location.reload(); }, 10000);
  }

  // ---- standings -----------------------------------------------------------------------
  // A standing's points per game as the block prints it (`100.00 %`), n/a without games.
  function score(r) { return r.games ? fixed(100 * (r.points / r.games), 2) + " %" : "n/a"; }
  function renderStandings() {
    var out = $("standings"), st = D.standings || [];
    if (D.engines.length === 2 && st.length) {
      var p = (D.pairs || [])[0], a = p ? p.a : st[0].engine, b = p ? p.b : 1 - a;
      var r = st.filter(function (x) { return x.engine === a; })[0] || st[0];
      out.appendChild(h("p", { "class": "pair" }, h("strong", {}, ename(a)), " vs ", h("strong", {}, ename(b)),
        ": Elo " + signed(r.elo, 2) + " ± " + fixed(r.elo_err, 2) + ", nElo " + signed(r.nelo, 2) + " ± " +
        fixed(r.nelo_err, 2) + "; " + ename(a) + " won " + r.w + ", lost " + r.l + ", drew " + r.d +
        " (" + r.points + (r.points === 1 ? " point" : " points") + " of " + games(r.games) + ", " + score(r) + ")."));
    } else if (st.length) {
      var t = h("table", { id: "field" }, h("caption", { "class": "hint" }, "Elo against the field, from game pairs."));
      var head = h("tr", {});
      ["Rank", "Engine", "Elo", "±", "nElo", "±", "Won", "Lost", "Drawn", "Points", "Score", "Games"].forEach(function (c, i) {
        head.appendChild(h("th", { scope: "col", "class": i > 1 ? "n" : null }, c));
      });
      t.appendChild(h("thead", {}, head));
      var body = h("tbody", {});
      st.forEach(function (x, i) {
        var tr = h("tr", {}, h("td", { "class": "n" }, i + 1), h("th", { scope: "row" }, ename(x.engine)));
        [signed(x.elo, 2), fixed(x.elo_err, 2), signed(x.nelo, 2), fixed(x.nelo_err, 2), x.w, x.l, x.d, x.points, score(x), x.games]
          .forEach(function (v) { tr.appendChild(h("td", { "class": "n" }, v)); });
        body.appendChild(tr);
      });
      t.appendChild(body);
      out.appendChild(t);
    } else out.appendChild(h("p", {}, "No game finished yet."));

    var pairs = $("pairs"), NAMES = ["LL", "LD", "DD+WL", "WD", "WW"];
    (D.pairs || []).forEach(function (p) {
      var max = Math.max.apply(null, p.penta.concat([1])), total = p.penta.reduce(function (x, y) { return x + y; }, 0);
      pairs.appendChild(h("h4", {}, ename(p.a) + " vs " + ename(p.b) + ": " + total + (total === 1 ? " pair" : " pairs")));
      var grid = h("div", { "class": "bars", role: "list" });
      p.penta.forEach(function (n, i) {
        var track = h("div", { "class": "bar-track" }, n ? h("div", { "class": "bar", style: "width:" + (100 * n / max) + "%" }) : null);
        grid.append(h("span", { role: "listitem" }, NAMES[i]), track, h("span", { "class": "n" }, String(n)));
      });
      pairs.appendChild(grid);
      var extra = [];
      if (p.unpaired) extra.push(p.unpaired + " unpaired game" + (p.unpaired === 1 ? "" : "s"));
      if (p.repeated) extra.push(p.repeated + " repeated game" + (p.repeated === 1 ? "" : "s"));
      if (extra.length) pairs.appendChild(h("p", { "class": "hint" }, "Also " + extra.join(", ") + "."));
    });
    var notes = $("notes");
    (D.notes || []).forEach(function (n) { notes.appendChild(h("li", {}, String(n))); });
    notes.hidden = !(D.notes || []).length;
    $("block").textContent = D.block;
  }

  // ---- plots ---------------------------------------------------------------------------
  // About n round values from lo to hi; whole ones only with `whole` (counts: games, plies).
  function ticks(lo, hi, n, whole) {
    if (!(hi > lo)) { hi = lo + 1; }
    var raw = (hi - lo) / n, mag = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / mag;
    var step = (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag, out = [];
    if (whole) step = Math.max(1, step);
    for (var v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    return out;
  }
  function tickText(v) { return Math.abs(v) >= 1000 || Number.isInteger(v) ? count(Math.round(v)) : String(+v.toPrecision(3)); }
  var plotId = 0;
  // An SVG with axes, tick labels and a clip for the plot area; returns the parts to draw on.
  // cfg.top and cfg.bottom label the y axis's ends in words (+inf, -inf), in place of the
  // ticks near them.
  function axes(cfg) {
    var W = 720, H = 300, L = 60, R = 170, T = 14, B = 44, id = "clip" + (plotId++);
    var svg = s("svg", { viewBox: "0 0 " + W + " " + H, width: W, role: "img", "aria-label": cfg.label });
    svg.appendChild(s("title", {}, cfg.label));
    var X = function (x) { return L + (x - cfg.x0) / (cfg.x1 - cfg.x0 || 1) * (W - L - R); };
    var Y = function (y) { return T + (cfg.y1 - y) / (cfg.y1 - cfg.y0 || 1) * (H - T - B); };
    var defs = s("defs", {}), cp = s("clipPath", { id: id });
    cp.appendChild(s("rect", { x: L, y: T, width: W - L - R, height: H - T - B }));
    defs.appendChild(cp); svg.appendChild(defs);
    var ax = s("g", { fill: "currentColor", "font-size": 12 });
    // The x axis counts games or plies.
    ticks(cfg.x0, cfg.x1, 8, true).forEach(function (v) {
      if (v < cfg.x0 || v > cfg.x1) return;
      ax.appendChild(s("line", { x1: X(v), x2: X(v), y1: H - B, y2: H - B + 5, stroke: "currentColor" }));
      ax.appendChild(s("text", { x: X(v), y: H - B + 18, "text-anchor": "middle" }, tickText(v)));
    });
    ticks(cfg.y0, cfg.y1, 6).forEach(function (v) {
      if (v < cfg.y0 || v > cfg.y1) return;
      ax.appendChild(s("line", { x1: L, x2: W - R, y1: Y(v), y2: Y(v), stroke: "#ccc", "stroke-width": 0.5 }));
      if ((cfg.top && Y(v) - T < 14) || (cfg.bottom && H - B - Y(v) < 14)) return;
      ax.appendChild(s("text", { x: L - 6, y: Y(v) + 4, "text-anchor": "end" }, tickText(v)));
    });
    if (cfg.top) ax.appendChild(s("text", { x: L - 6, y: T + 4, "text-anchor": "end", "font-weight": "bold" }, cfg.top));
    if (cfg.bottom) ax.appendChild(s("text", { x: L - 6, y: H - B + 4, "text-anchor": "end", "font-weight": "bold" }, cfg.bottom));
    ax.appendChild(s("rect", { x: L, y: T, width: W - L - R, height: H - T - B, fill: "none", stroke: "currentColor" }));
    ax.appendChild(s("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle" }, cfg.xlabel));
    ax.appendChild(s("text", { x: 14, y: (T + H - B) / 2, "text-anchor": "middle",
      transform: "rotate(-90 14 " + (T + H - B) / 2 + ")" }, cfg.ylabel));
    svg.appendChild(ax);
    var plot = s("g", { "clip-path": "url(#" + id + ")" });
    svg.appendChild(plot);
    return { svg: svg, plot: plot, X: X, Y: Y, right: W - R, legend: function (y, text) {
      svg.appendChild(s("text", { x: W - R + 8, y: y, "font-size": 12, fill: "currentColor" }, text));
    } };
  }
  function path(points) {
    return points.map(function (p, i) { return (i ? "L" : "M") + p[0].toFixed(1) + " " + p[1].toFixed(1); }).join("");
  }
  // A line through the points, each marked when they are few: by a dot, or by a triangle
  // pointing up or down at an infinite value drawn at the edge (a point's third member, "up"
  // or "down"); `tips` are the points' words, shown as their tooltips.
  function line(g, points, colour, tips) {
    g.appendChild(s("path", { d: path(points), fill: "none", stroke: colour, "stroke-width": 2 }));
    if (points.length > 60) return;
    points.forEach(function (p, i) {
      var x = p[0], y = p[1], mark;
      if (p[2] === "up") mark = s("path", { d: "M" + (x - 5).toFixed(1) + " " + (y + 7).toFixed(1) + "L" + (x + 5).toFixed(1) + " " + (y + 7).toFixed(1) + "L" + x.toFixed(1) + " " + y.toFixed(1) + "Z", fill: colour, "data-infinite": "up" });
      else if (p[2] === "down") mark = s("path", { d: "M" + (x - 5).toFixed(1) + " " + (y - 7).toFixed(1) + "L" + (x + 5).toFixed(1) + " " + (y - 7).toFixed(1) + "L" + x.toFixed(1) + " " + y.toFixed(1) + "Z", fill: colour, "data-infinite": "down" });
      else mark = s("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: 3, fill: colour });
      if (tips && tips[i]) mark.appendChild(s("title", {}, tips[i]));
      g.appendChild(mark);
    });
  }
  // The series' points with their figures as numbers: [games, elo, lo, hi, llr], ±Infinity for
  // "inf" and "-inf", null for n/a.
  function seriesRows() {
    return (D.series || []).map(function (r) { return [r[0], num(r[1]), num(r[2]), num(r[3]), num(r[4])]; });
  }
  function renderPlots() {
    var rows = seriesRows();
    renderElo(rows.filter(function (r) { return r[1] !== null; }));
    renderLlr(rows.filter(function (r) { return r[4] !== null; }));
  }
  // The Elo estimate by games: its interval as a band, the estimate as a line. An infinite
  // estimate (every game won or lost) is drawn at the top or bottom edge, marked ▲ or ▼; with
  // no estimate yet (no game counted) the axes say so.
  function renderElo(rows) {
    var x1 = rows.length ? rows[rows.length - 1][0] : 0, last = rows[rows.length - 1];
    // The y range: every finite estimate, and the interval from the tenth of the games on (the
    // first games' intervals are huge and would flatten the rest; they are clipped).
    var ys = [0], from = Math.floor(rows.length / 10);
    rows.forEach(function (r, i) {
      if (isFinite(r[1])) ys.push(r[1]);
      if (i >= from) [r[2], r[3]].forEach(function (v) { if (v !== null && isFinite(v)) ys.push(v); });
    });
    var y0 = Math.max(-1200, Math.min.apply(null, ys)), y1 = Math.min(1200, Math.max.apply(null, ys));
    var pad = (y1 - y0) * 0.05 || 50, lo = y0 - pad, hi = y1 + pad;
    // The series is the first pairing's estimate, by the games of the whole match.
    var p0 = (D.pairs || [])[0], who = p0 ? ename(p0.a) + " against " + ename(p0.b) : ename(0) + " against " + ename(1);
    var now = last ? signed(last[1], 1) + " after " + games(x1) : "no estimate yet, as no game has been counted";
    var won = rows.some(function (r) { return r[1] === Infinity; }), lost = rows.some(function (r) { return r[1] === -Infinity; });
    var a = axes({ x0: 0, x1: x1 || 1, y0: lo, y1: hi, xlabel: "games", ylabel: "Elo",
      label: "Elo of " + who + " by games played: " + now, top: won ? "+inf" : null, bottom: lost ? "-inf" : null });
    $("cap-elo").textContent = "Elo of " + who + (D.engines.length > 2 ? " (the first pairing), by the games of the match" :
      ", by games played") + (last ? ": the line is the estimate, the shaded band its interval." : ": no estimate yet, as no game has been counted.");
    a.plot.appendChild(s("line", { x1: a.X(0), x2: a.X(x1 || 1), y1: a.Y(0), y2: a.Y(0), stroke: "currentColor", "stroke-dasharray": "4 3" }));
    var y = 30, legend = function (t) { a.legend(y, t); y += 18; };
    if (!last) {
      a.svg.appendChild(s("text", { x: (a.X(0) + a.X(1)) / 2, y: a.Y(0) - 10, "text-anchor": "middle", "font-size": 14, fill: "currentColor" },
        "No estimate yet: no game has been counted."));
      legend("- - dashed: 0");
      $("plot-elo").appendChild(a.svg);
      return;
    }
    var band = rows.filter(function (r) { return r[2] !== null && r[3] !== null; });
    if (band.length) {
      var up = band.map(function (r) { return [a.X(r[0]), a.Y(Math.min(r[3], hi + 1e4))]; });
      var dn = band.map(function (r) { return [a.X(r[0]), a.Y(Math.max(r[2], lo - 1e4))]; }).reverse();
      a.plot.appendChild(s("path", { d: path(up.concat(dn)) + "Z", fill: "var(--band)", "fill-opacity": 0.6, stroke: "none" }));
    }
    // The estimate within the range, at its edge beyond it (an infinite one included).
    var points = rows.map(function (r) {
      return [a.X(r[0]), a.Y(Math.max(lo, Math.min(hi, r[1]))), r[1] === Infinity ? "up" : r[1] === -Infinity ? "down" : null];
    });
    line(a.svg, points, "var(--est)", rows.map(function (r) {
      return "after " + games(r[0]) + ": Elo " + signed(r[1], 2) + (r[2] !== null && r[3] !== null ? ", interval [" + fixed(r[2], 2) + ", " + fixed(r[3], 2) + "]" : "");
    }));
    legend("— line: Elo estimate");
    if (band.length) legend("▒ band: its interval");
    legend("- - dashed: 0");
    if (won) legend("▲ at the top: +inf");
    if (lost) legend("▼ at the bottom: -inf");
    y += 12;
    legend("now: " + signed(last[1], 1));
    legend("[" + fixed(last[2], 1) + ", " + fixed(last[3], 1) + "]");
    $("plot-elo").appendChild(a.svg);
  }
  // The SPRT's LLR by games, from 0 before the first game, with its two bounds; drawn from the
  // start of the match, its bounds alone before any game is counted.
  function renderLlr(rows) {
    var P = D.sprt;
    if (!P) return;
    $("fig-llr").hidden = false;
    var lower = num(P.lower), upper = num(P.upper), llr = num(P.llr);
    var x1 = rows.length ? rows[rows.length - 1][0] : 0, ys = [lower, upper, 0];
    rows.forEach(function (r) { if (isFinite(r[4])) ys.push(r[4]); });
    var y0 = Math.min.apply(null, ys), y1 = Math.max.apply(null, ys), pad = (y1 - y0) * 0.08;
    var outcome = P.result === "H1" ? "H1 accepted" : P.result === "H0" ? "H0 accepted" : "no decision yet";
    var a = axes({ x0: 0, x1: x1 || 1, y0: y0 - pad, y1: y1 + pad, xlabel: "games", ylabel: "LLR",
      label: "LLR of the SPRT by games played: " + fixed(llr, 2) + " after " + games(x1) + ", between " + fixed(lower, 2) + " and " +
        fixed(upper, 2) + ", " + outcome });
    [[upper, "upper bound " + fixed(upper, 2) + " (H1)"], [lower, "lower bound " + fixed(lower, 2) + " (H0)"]]
      .forEach(function (b) {
        a.plot.appendChild(s("line", { x1: a.X(0), x2: a.X(x1 || 1), y1: a.Y(b[0]), y2: a.Y(b[0]), stroke: "#a33", "stroke-width": 1.5, "stroke-dasharray": "6 3" }));
        a.legend(a.Y(b[0]) + 4, b[1]);
      });
    // The LLR is 0 before the first game.
    line(a.plot, [[a.X(0), a.Y(0)]].concat(rows.map(function (r) { return [a.X(r[0]), a.Y(r[4])]; })), "var(--est)",
      ["before the first game: LLR 0.00"].concat(rows.map(function (r) { return "after " + games(r[0]) + ": LLR " + fixed(r[4], 2); })));
    if (P.stopped_at !== null && P.stopped_at !== undefined && rows.length) {
      var at = rows.filter(function (r) { return r[0] <= P.stopped_at; }).pop() || rows[rows.length - 1];
      var cx = a.X(at[0]), cy = a.Y(at[4]);
      a.svg.appendChild(s("circle", { cx: cx, cy: cy, r: 6, fill: "none", stroke: "currentColor", "stroke-width": 2 }));
      // Its words in the legend's column, clear of the line (the bounds' labels sit at them).
      var ly = Math.min(Math.max(cy + (at[4] > 0 ? 40 : -40), 30), a.Y(lower) - 36);
      a.legend(ly, "○ stopped at game " + P.stopped_at + ":");
      a.legend(ly + 16, outcome);
    }
    $("plot-llr").appendChild(a.svg);
    $("cap-llr").textContent = "The SPRT's log-likelihood ratio by games played (Elo " + P.elo0 + " against " + P.elo1 +
      ", α " + P.alpha + ", β " + P.beta + "), with its two bounds as dashed lines: now " + fixed(llr, 2) + ", " + outcome + ".";
  }

  // ---- endings, lengths, times ---------------------------------------------------------
  // Which side, if any, the game's result names as the winner: "b", "w" or null.
  function winner(g) { return g[G_RES] === "1-0" ? "b" : g[G_RES] === "0-1" ? "w" : null; }
  function renderEndings() {
    var n = D.engines.length, table = $("endings"), kinds = ENDINGS.slice(), known = {};
    ENDINGS.forEach(function (k) { k[1].forEach(function (r) { known[r] = 1; }); });
    D.games.forEach(function (g) { if (!known[g[G_REASON]]) { known[g[G_REASON]] = 1; kinds.push([String(g[G_REASON]), [g[G_REASON]]]); } });
    var cells = kinds.map(function () {
      var row = []; for (var i = 0; i <= n; i++) row.push({ w: 0, l: 0, d: 0 }); return row;
    });
    var rowOf = {};
    kinds.forEach(function (k, i) { k[1].forEach(function (r) { rowOf[r] = i; }); });
    D.games.forEach(function (g) {
      var row = cells[rowOf[g[G_REASON]]], win = winner(g);
      [[g[G_B], "b"], [g[G_W], "w"]].forEach(function (e) {
        var c = row[e[0]];
        if (!c) return;
        if (!win) c.d++; else if (win === e[1]) c.w++; else c.l++;
      });
      if (!win) row[n].d++; else row[n].w++;
    });
    var head = h("tr", {}, h("th", { scope: "col" }, "Ending"));
    for (var i = 0; i < n; i++) head.appendChild(h("th", { scope: "col" }, ename(i)));
    head.appendChild(h("th", { scope: "col" }, "All games"));
    table.appendChild(h("caption", { "class": "hint" }, "Per engine: the games it won, lost and drew by each ending."));
    table.appendChild(h("thead", {}, head));
    var body = h("tbody", {});
    kinds.forEach(function (k, r) {
      var any = cells[r][n].w + cells[r][n].d;
      if (!any && r >= 8) return;
      var tr = h("tr", {}, h("th", { scope: "row" }, k[0]));
      cells[r].forEach(function (c, i) {
        var parts = [];
        if (i === n) { parts.push(String(c.w + c.d)); }
        else {
          if (c.w) parts.push(c.w + " won");
          if (c.l) parts.push(c.l + " lost");
          if (c.d) parts.push(c.d + " drawn");
        }
        tr.appendChild(h("td", { "class": i === n ? "n" : null }, parts.join(", ") || "0"));
      });
      body.appendChild(tr);
    });
    table.appendChild(body);
    renderLengths();
    renderTimes();
  }
  function renderLengths() {
    var out = $("lengths");
    if (!D.games.length) { out.appendChild(h("p", {}, "No games yet.")); return; }
    var plies = D.games.map(function (g) { return g[G_PLIES]; }), max = Math.max.apply(null, plies);
    var t = ticks(0, Math.max(max, 10), 16, true), w = t[1] - t[0], nb = Math.floor(max / w) + 1, bins = [];
    for (var i = 0; i < nb; i++) bins.push(0);
    plies.forEach(function (p) { bins[Math.floor(p / w)]++; });
    var top = Math.max.apply(null, bins);
    var a = axes({ x0: 0, x1: nb * w, y0: 0, y1: top * 1.15, xlabel: "plies", ylabel: "games",
      label: "Game lengths: " + bins.map(function (b, i) { return (i * w) + "–" + ((i + 1) * w - 1) + " plies: " + b; }).join("; ") });
    bins.forEach(function (b, i) {
      var x = a.X(i * w), x2 = a.X((i + 1) * w), y = a.Y(b);
      var bar = s("rect", { x: x + 1, y: y, width: Math.max(1, x2 - x - 2), height: a.Y(0) - y, fill: "#6a8fbf", stroke: "#334" });
      bar.appendChild(s("title", {}, (i * w) + "–" + ((i + 1) * w - 1) + " plies: " + b + " games"));
      a.plot.appendChild(bar);
      if (b) a.svg.appendChild(s("text", { x: (x + x2) / 2, y: y - 3, "text-anchor": "middle", "font-size": 11, fill: "currentColor" }, b));
    });
    var sorted = plies.slice().sort(function (x, y) { return x - y; });
    a.legend(30, "bars: games by length");
    a.legend(48, "(" + w + " plies a bar)");
    a.legend(78, "median: " + sorted[Math.floor(sorted.length / 2)]);
    a.legend(96, "longest: " + max);
    out.appendChild(a.svg);
  }
  // The side to move at the start of an opening text, cached by the text.
  var sideCache = {};
  function startSide(op) {
    if (!(op in sideCache)) sideCache[op] = parseSfen(startOf(op).sfen).side;
    return sideCache[op];
  }
  // The engines' own moves in game g by side: its plies, after the opening's.
  function engineMoves(g) {
    var n = g[G_PLIES], first = startSide(g[G_OPEN]);
    if ((g[G_OPLIES] || 0) % 2) first = first === "b" ? "w" : "b";
    var firstN = Math.ceil(n / 2), secondN = Math.floor(n / 2);
    return first === "b" ? { b: firstN, w: secondN } : { b: secondN, w: firstN };
  }
  function renderTimes() {
    var n = D.engines.length, ms = [], mv = [], table = $("times"), i;
    for (i = 0; i < n; i++) { ms.push(0); mv.push(0); }
    D.games.forEach(function (g) {
      var m = engineMoves(g);
      if (g[G_TB] !== null && g[G_TB] !== undefined && ms[g[G_B]] !== undefined) { ms[g[G_B]] += g[G_TB]; mv[g[G_B]] += m.b; }
      if (g[G_TW] !== null && g[G_TW] !== undefined && ms[g[G_W]] !== undefined) { ms[g[G_W]] += g[G_TW]; mv[g[G_W]] += m.w; }
    });
    table.appendChild(h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Engine"), h("th", { scope: "col", "class": "n" }, "Moves timed"),
      h("th", { scope: "col", "class": "n" }, "Time used"), h("th", { scope: "col", "class": "n" }, "Mean per move"))));
    var body = h("tbody", {});
    for (i = 0; i < n; i++) {
      body.appendChild(h("tr", {}, h("th", { scope: "row" }, ename(i)), h("td", { "class": "n" }, count(mv[i])),
        h("td", { "class": "n" }, mv[i] ? (ms[i] / 1000).toFixed(1) + " s" : "n/a"),
        h("td", { "class": "n" }, mv[i] ? (ms[i] / mv[i]).toFixed(1) + " ms" : "n/a")));
    }
    table.appendChild(body);
  }

  // ---- the games table: filtered, sorted, shown 200 rows at a time ----------------------
  var PAGE = 200, order = [], page = 0, sortCol = G_NUM, sortDir = 1, openIndex = -1;
  var tbody = document.querySelector("#games tbody");
  function cellValue(g, col) {
    if (col === G_B || col === G_W) return ename(g[col]).toLowerCase();
    if (col === G_REASON) return reasonText(g[col]);
    return g[col];
  }
  function renderGamesSetup() {
    var fe = $("f-engine"), fr = $("f-result"), fs = $("f-reason"), seenR = {}, seenS = {};
    D.engines.forEach(function (e, i) { fe.appendChild(h("option", { value: String(i) }, String(e.name))); });
    D.games.forEach(function (g) { seenR[g[G_RES]] = 1; seenS[g[G_REASON]] = 1; });
    Object.keys(seenR).sort().forEach(function (r) { fr.appendChild(h("option", { value: r }, resultText(r))); });
    Object.keys(seenS).sort().forEach(function (r) { fs.appendChild(h("option", { value: r }, reasonText(r))); });
    [fe, fr, fs].forEach(function (x) { x.addEventListener("change", refilter); });
    $("f-text").addEventListener("input", refilter);
    $("filters").addEventListener("submit", function (e) { e.preventDefault(); });
    document.querySelectorAll("#games th").forEach(function (th) {
      th.querySelector("button").addEventListener("click", function () {
        var col = +th.getAttribute("data-col");
        sortDir = col === sortCol ? -sortDir : 1; sortCol = col;
        document.querySelectorAll("#games th").forEach(function (x) { x.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", sortDir > 0 ? "ascending" : "descending");
        resort(); page = 0; renderPage();
      });
    });
    $("pg-first").onclick = function () { page = 0; renderPage(); };
    $("pg-prev").onclick = function () { page = Math.max(0, page - 1); renderPage(); };
    $("pg-next").onclick = function () { page = Math.min(lastPage(), page + 1); renderPage(); };
    $("pg-last").onclick = function () { page = lastPage(); renderPage(); };
    // A game opened from the table takes the keys at once (Home, End, the arrows), as
    // Lichess's and ShogiHome's boards do, without a click on the board first.
    function openFromRow(tr) {
      openGame(+tr.getAttribute("data-i"));
      $("board").focus({ preventScroll: true });
    }
    tbody.addEventListener("click", function (e) {
      var tr = e.target.closest("tr");
      if (tr) openFromRow(tr);
    });
    tbody.addEventListener("keydown", function (e) {
      var tr = e.target.closest("tr");
      if (!tr) return;
      if (e.key === "Enter" || e.key === " ") { openFromRow(tr); e.preventDefault(); }
      else if (e.key === "ArrowDown" && tr.nextElementSibling) { tr.nextElementSibling.focus(); e.preventDefault(); }
      else if (e.key === "ArrowUp" && tr.previousElementSibling) { tr.previousElementSibling.focus(); e.preventDefault(); }
    });
    refilter();
  }
  function lastPage() { return Math.max(0, Math.ceil(order.length / PAGE) - 1); }
  function refilter() {
    var e = $("f-engine").value, r = $("f-result").value, why = $("f-reason").value, t = $("f-text").value.trim().toLowerCase();
    order = [];
    for (var i = 0; i < D.games.length; i++) {
      var g = D.games[i];
      if (e !== "" && g[G_B] !== +e && g[G_W] !== +e) continue;
      if (r !== "" && g[G_RES] !== r) continue;
      if (why !== "" && g[G_REASON] !== why) continue;
      if (t && [g[G_NUM], ename(g[G_B]), ename(g[G_W]), g[G_OPEN], g[G_RES], reasonText(g[G_REASON]), g[G_DETAIL]]
        .join("\n").toLowerCase().indexOf(t) < 0) continue;
      order.push(i);
    }
    resort(); page = 0; renderPage();
  }
  function resort() {
    var keys = order.map(function (i) { return cellValue(D.games[i], sortCol); });
    var idx = order.map(function (_, k) { return k; });
    idx.sort(function (x, y) {
      var a = keys[x], b = keys[y];
      var c = a < b ? -1 : a > b ? 1 : 0;
      return c * sortDir || D.games[order[x]][G_NUM] - D.games[order[y]][G_NUM];
    });
    order = idx.map(function (k) { return order[k]; });
  }
  function renderPage() {
    var from = page * PAGE, to = Math.min(order.length, from + PAGE), frag = document.createDocumentFragment();
    for (var k = from; k < to; k++) {
      var i = order[k], g = D.games[i];
      var tr = h("tr", { tabindex: "0", "data-i": String(i), "class": i === openIndex ? "open" : null },
        h("td", { "class": "n" }, g[G_NUM]), h("td", { "class": "n" }, g[G_ROUND]),
        h("td", { "class": "open-text", title: String(g[G_OPEN]) }, openingText(g)),
        h("td", {}, ename(g[G_B])), h("td", {}, ename(g[G_W])), h("td", {}, resultText(g[G_RES])),
        h("td", { title: String(g[G_DETAIL] || "") }, reasonText(g[G_REASON])), h("td", { "class": "n" }, g[G_PLIES]));
      frag.appendChild(tr);
    }
    tbody.textContent = "";
    tbody.appendChild(frag);
    $("count").textContent = order.length ? "Games " + count(from + 1) + "–" + count(to) + " of " + count(order.length) +
      (order.length < D.games.length ? " shown (" + count(D.games.length) + " in all)." : ".") : "No game matches.";
    $("pg-first").disabled = $("pg-prev").disabled = page === 0;
    $("pg-next").disabled = $("pg-last").disabled = page >= lastPage();
  }
  // The opening in short: `startpos` or the SFEN's board, then its moves (the first four).
  function openingText(g) {
    var o = startOf(g[G_OPEN]), head = String(g[G_OPEN]).split(" moves ")[0];
    var name = head === "startpos" ? "startpos" : "sfen " + o.sfen.split(" ")[0];
    if (!o.moves.length) return name;
    return name + " " + o.moves.slice(0, 4).join(" ") + (o.moves.length > 4 ? " … (" + o.moves.length + " plies)" : "");
  }

  // ---- positions -----------------------------------------------------------------------
  var KANJI = { P: "歩", L: "香", N: "桂", S: "銀", G: "金", B: "角", R: "飛", K: "玉" };
  var PROMO = { P: "と", L: "杏", N: "圭", S: "全", B: "馬", R: "龍" };
  var PROMO_KIF = { P: "と", L: "成香", N: "成桂", S: "成銀", B: "馬", R: "龍" };
  var CSA = { P: "FU", L: "KY", N: "KE", S: "GI", G: "KI", B: "KA", R: "HI", K: "OU" };
  var CSAP = { P: "TO", L: "NY", N: "NK", S: "NG", B: "UM", R: "RY" };
  var FW = "０１２３４５６７８９", KN = "〇一二三四五六七八九";
  var HAND_ORDER = "RBGSNLP", DROPS = "PLNSGBR";
  var START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
  function parseSfen(t) {
    var f = String(t).trim().split(/\s+/), rows = f[0].split("/"), board = [];
    for (var r = 0; r < 9; r++) {
      var row = [], u = rows[r] || "", prom = false;
      for (var i = 0; i < u.length; i++) {
        var ch = u[i];
        if (ch === "+") { prom = true; continue; }
        if (ch >= "1" && ch <= "9") { for (var n = 0; n < +ch; n++) row.push(null); continue; }
        var up = ch.toUpperCase();
        row.push({ c: ch === up ? "b" : "w", k: up, p: prom }); prom = false;
      }
      while (row.length < 9) row.push(null);
      board.push(row);
    }
    var hands = { b: {}, w: {} }, hs = f[2] || "-", cnt = 0;
    if (hs !== "-") for (var j = 0; j < hs.length; j++) {
      var c = hs[j];
      if (c >= "0" && c <= "9") { cnt = cnt * 10 + (+c); continue; }
      var up2 = c.toUpperCase(), side = c === up2 ? "b" : "w";
      hands[side][up2] = (hands[side][up2] || 0) + (cnt || 1); cnt = 0;
    }
    return { board: board, hands: hands, side: f[1] === "w" ? "w" : "b", ply: +(f[3] || 1), last: null };
  }
  // The opening text: "startpos", an SFEN, "sfen …", each maybe with " moves …".
  function startOf(t) {
    var parts = String(t).split(" moves "), head = parts[0].trim();
    return { sfen: head === "startpos" ? START : head.replace(/^sfen\s+/, ""),
      moves: parts[1] ? parts[1].trim().split(/\s+/) : [] };
  }
  var B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", B64V = {};
  for (var bi = 0; bi < 64; bi++) B64V[B64[bi]] = bi;
  function usiSquare(i) { return String(Math.floor(i / 9) + 1) + String.fromCharCode(97 + i % 9); }
  // A move as 3 base64url characters: v = (from*81+to)*2+promote, a square (file-1)*9+(rank-1),
  // a drop's from 81+k (k in P L N S G B R order); as a USI move.
  function rawMove(str, i) {
    var v = B64V[str[i]] * 4096 + B64V[str[i + 1]] * 64 + B64V[str[i + 2]];
    var promote = v % 2, sqv = (v - promote) / 2, to = sqv % 81, from = (sqv - to) / 81;
    if (from >= 81) return DROPS[from - 81] + "*" + usiSquare(to);
    return usiSquare(from) + usiSquare(to) + (promote ? "+" : "");
  }

  // ---- legal moves, as the rules core lists them ------------------------------------------
  // A position here: board[r][c] (r 0 = rank a, c 0 = file 9), hands, side. The moves of a
  // piece as [dc, dr] from Black's side (forward is dr = -1): steps, and lines it slides along.
  var GOLD = [[0, -1], [-1, -1], [1, -1], [-1, 0], [1, 0], [0, 1]];
  var DIAG = [[-1, -1], [1, -1], [-1, 1], [1, 1]], ORTH = [[0, -1], [0, 1], [-1, 0], [1, 0]];
  var STEPS = { P: [[0, -1]], L: [], N: [[-1, -2], [1, -2]], S: [[0, -1], [-1, -1], [1, -1], [-1, 1], [1, 1]],
    G: GOLD, B: [], R: [], K: DIAG.concat(ORTH), "+B": ORTH, "+R": DIAG };
  var SLIDES = { L: [[0, -1]], B: DIAG, R: ORTH, "+B": DIAG, "+R": ORTH };
  var MOVE_SETS = {};
  function moveSet(x) {
    var k = x.p ? (x.k === "B" || x.k === "R" ? "+" + x.k : "G") : x.k;
    return MOVE_SETS[k] || (MOVE_SETS[k] = { steps: STEPS[k] || [], slides: SLIDES[k] || [] });
  }
  function onBoard(r, c) { return r >= 0 && r < 9 && c >= 0 && c < 9; }
  // For each side and piece, how it attacks along each of the 8 lines (STEPS.K's order) from
  // the square it attacks: 0 not, 1 from the next square only, 2 from any square of the line.
  var ATTACKS = { b: {}, w: {} };
  function attacksOf(x) {
    var key = x.p ? "+" + x.k : x.k, t = ATTACKS[x.c][key];
    if (t) return t;
    var m = moveSet(x), f = x.c === "b" ? 1 : -1;
    t = STEPS.K.map(function (d) {
      // Seen from the attacked square along (dc, dr), the attacker moves (-dc, -dr): in
      // Black's terms (-dc, -dr * f).
      var dc = -d[0], dr = -d[1] * f;
      function has(list) { return list.some(function (v) { return v[0] === dc && v[1] === dr; }); }
      return has(m.slides) ? 2 : has(m.steps) ? 1 : 0;
    });
    ATTACKS[x.c][key] = t;
    return t;
  }
  // Whether side `by` attacks square (r, c): looking out from it along each line for the first
  // piece, and at the two squares a knight of `by` would jump from.
  function attacked(board, r, c, by) {
    var f = by === "b" ? 1 : -1, lines = STEPS.K;
    for (var d = 0; d < 8; d++) {
      var dc = lines[d][0], dr = lines[d][1];
      for (var k = 1; ; k++) {
        var rr = r + dr * k, cc = c + dc * k;
        if (!onBoard(rr, cc)) break;
        var x = board[rr][cc];
        if (!x) continue;
        if (x.c === by) {
          var a = attacksOf(x)[d];
          if (a === 2 || (a === 1 && k === 1)) return true;
        }
        break;
      }
    }
    for (var j = -1; j <= 1; j += 2) {
      var nr = r + 2 * f, nc = c + j;
      if (onBoard(nr, nc)) { var n = board[nr][nc]; if (n && n.c === by && n.k === "N" && !n.p) return true; }
    }
    return false;
  }
  function kingOf(board, side) {
    for (var r = 0; r < 9; r++) for (var c = 0; c < 9; c++) { var x = board[r][c]; if (x && x.c === side && x.k === "K") return [r, c]; }
    return null;
  }
  function index(r, c) { return (8 - c) * 9 + r; }
  // Ranks a piece of `side` may not stay on: the last for a pawn or lance, the last two for a knight.
  function dead(side, k, r) {
    var rel = side === "b" ? r : 8 - r;
    return ((k === "P" || k === "L") && rel === 0) || (k === "N" && rel <= 1);
  }
  var DROP_KINDS = "PLNSBRG", DROP_KEY = 81 * 81 * 2;
  // The legal moves of position p as keys, sorted: (from * 81 + to) * 2 + promote for a board
  // move, DROP_KEY + kind * 81 + to for a drop (kinds in DROP_KINDS order), squares by
  // index(): the rules core's canonical order. With `any`, stops at the first (whether there
  // is one). Drops of a pawn that mate (打ち歩詰め) are left out, but not looked for when
  // `any` (they do not answer a pawn's check).
  function legalMoves(p, any) {
    var board = p.board, us = p.side, them = us === "b" ? "w" : "b", f = us === "b" ? 1 : -1;
    var king = kingOf(board, us), out = [];
    // (Returned as an Int32Array, which sorts numbers without a comparator.)
    function safe() { return !king || !attacked(board, king[0], king[1], them); }
    // Out of check, only a king's move or a move from a line through the king can leave it
    // in check (a drop never does).
    var check = !safe();
    function tryMove(r, c, tr, tc, x, prom) {
      var ok;
      if (!check && x.k !== "K" && king && r !== king[0] && c !== king[1] && Math.abs(r - king[0]) !== Math.abs(c - king[1])) ok = true;
      else {
        var cap = board[tr][tc], kr = king;
        board[tr][tc] = x; board[r][c] = null;
        if (x.k === "K") king = [tr, tc];
        ok = safe();
        board[r][c] = x; board[tr][tc] = cap; king = kr;
      }
      if (ok) out.push((index(r, c) * 81 + index(tr, tc)) * 2 + (prom ? 1 : 0));
      return ok && any;
    }
    function target(r, c, tr, tc, x) {
      if (!x.p && x.k !== "G" && x.k !== "K" && (inZone(us, r) || inZone(us, tr))) {
        if (!dead(us, x.k, tr) && tryMove(r, c, tr, tc, x, false)) return true;
        return tryMove(r, c, tr, tc, x, true);
      }
      return tryMove(r, c, tr, tc, x, false);
    }
    for (var r = 0; r < 9; r++) for (var c = 0; c < 9; c++) {
      var x = board[r][c];
      if (!x || x.c !== us) continue;
      var m = moveSet(x), i, tr, tc, y;
      for (i = 0; i < m.steps.length; i++) {
        tr = r + m.steps[i][1] * f; tc = c + m.steps[i][0];
        if (!onBoard(tr, tc)) continue;
        y = board[tr][tc];
        if (y && y.c === us) continue;
        if (target(r, c, tr, tc, x)) return out;
      }
      for (i = 0; i < m.slides.length; i++) {
        for (tr = r + m.slides[i][1] * f, tc = c + m.slides[i][0]; onBoard(tr, tc); tr += m.slides[i][1] * f, tc += m.slides[i][0]) {
          y = board[tr][tc];
          if (y && y.c === us) break;
          if (target(r, c, tr, tc, x)) return out;
          if (y) break;
        }
      }
    }
    var hand = p.hands[us];
    for (var d = 0; d < DROP_KINDS.length; d++) {
      var k = DROP_KINDS[d];
      if (!hand[k]) continue;
      var piece = { c: us, k: k, p: false };
      for (var cc = 0; cc < 9; cc++) {
        if (k === "P") {
          var pawn = false;
          for (var rr = 0; rr < 9; rr++) { var z = board[rr][cc]; if (z && z.c === us && z.k === "P" && !z.p) pawn = true; }
          if (pawn) continue;
        }
        for (var r2 = 0; r2 < 9; r2++) {
          if (board[r2][cc] || dead(us, k, r2)) continue;
          board[r2][cc] = piece;
          var ok = !check || safe();
          if (ok && k === "P" && !any) {
            var ahead = onBoard(r2 - f, cc) ? board[r2 - f][cc] : null;
            if (ahead && ahead.c === them && ahead.k === "K")
              ok = legalMoves({ board: board, hands: p.hands, side: them }, true).length > 0;
          }
          board[r2][cc] = null;
          if (ok) {
            out.push(DROP_KEY + d * 81 + index(r2, cc));
            if (any) return out;
          }
        }
      }
    }
    return Int32Array.from(out).sort();
  }
  // A key of legalMoves as a USI move.
  function keyMove(v) {
    if (v >= DROP_KEY) return DROP_KINDS[Math.floor((v - DROP_KEY) / 81)] + "*" + usiSquare((v - DROP_KEY) % 81);
    var promote = v % 2, sqv = (v - promote) / 2;
    return usiSquare((sqv - sqv % 81) / 81) + usiSquare(sqv % 81) + (promote ? "+" : "");
  }

  // A game's moves string (see data.rs): "N:", then the moves' indices among the legal moves
  // as the digits of a mixed-radix number in chunks of 8 base64url characters (the last one
  // shorter), the digit below n + 1 for a position with n legal moves, n for a move not
  // among them; after a ".", moves of 3 characters each. Returns the USI moves from `sfen`.
  var CHUNK = Math.pow(2, 48);
  function decodeMoves(str, sfen) {
    var colon = str.indexOf(":"), total = +str.slice(0, colon), body = str.slice(colon + 1);
    var dot = body.indexOf("."), digits = dot < 0 ? body : body.slice(0, dot), raw = dot < 0 ? "" : body.slice(dot + 1);
    var out = [], at = 0, value = 0, scale = 0, p = dot === 0 ? null : parseSfen(sfen), r = 0;
    function digit(n) {
      if (!scale || scale * n > CHUNK) {
        var len = Math.min(8, digits.length - at);
        value = 0;
        for (var i = 0; i < len; i++) value = value * 64 + B64V[digits[at + i]];
        at += len; scale = 1;
      }
      var d = value % n;
      value = (value - d) / n; scale *= n;
      return d;
    }
    while (out.length < total) {
      if (p) {
        var legal = legalMoves(p, false), d = digit(legal.length + 1);
        if (d < legal.length) {
          var mv = keyMove(legal[d]);
          out.push(mv);
          p = apply(p, mv)[0];
          continue;
        }
        p = null;
      }
      if (r + 3 > raw.length) throw new Error("the moves of a game end early");
      out.push(rawMove(raw, r));
      r += 3;
    }
    return out;
  }
  function sq(t) { return { r: t.charCodeAt(1) - 97, c: 9 - (+t[0]) }; }
  function copyPos(p) {
    return { board: p.board.map(function (r) { return r.map(function (x) { return x && { c: x.c, k: x.k, p: x.p }; }); }),
      hands: { b: Object.assign({}, p.hands.b), w: Object.assign({}, p.hands.w) }, side: p.side, ply: p.ply, last: p.last };
  }
  function sqName(x) { return FW[9 - x.c] + KN[x.r + 1]; }
  function pieceName(x) { return x.p ? PROMO[x.k] : KANJI[x.k]; }
  function inZone(side, r) { return side === "b" ? r <= 2 : r >= 6; }
  // A USI move applied to a copy of p: [position, the move in KIF notation without the mark].
  function apply(p, mv) {
    var q = copyPos(p), to = sq(mv.slice(2, 4)), text;
    if (mv[1] === "*") {
      var k = mv[0];
      if (!q.hands[p.side][k]) throw new Error("drop of a piece not in hand: " + mv);
      q.hands[p.side][k]--; q.board[to.r][to.c] = { c: p.side, k: k, p: false };
      text = sqName(to) + KANJI[k] + "打";
    } else {
      var from = sq(mv.slice(0, 2)), piece = q.board[from.r][from.c], prom = mv[4] === "+";
      if (!piece) throw new Error("no piece to move: " + mv);
      var cap = q.board[to.r][to.c];
      if (cap) q.hands[p.side][cap.k] = (q.hands[p.side][cap.k] || 0) + 1;
      var same = p.last && p.last.r === to.r && p.last.c === to.c;
      var could = !piece.p && piece.k !== "G" && piece.k !== "K" && (inZone(p.side, from.r) || inZone(p.side, to.r));
      text = (same ? "同　" : sqName(to)) + (piece.p ? PROMO_KIF[piece.k] : KANJI[piece.k]) +
        (prom ? "成" : could ? "不成" : "") + "(" + (9 - from.c) + (from.r + 1) + ")";
      q.board[from.r][from.c] = null;
      q.board[to.r][to.c] = { c: piece.c, k: piece.k, p: piece.p || prom };
    }
    q.side = p.side === "b" ? "w" : "b"; q.ply = p.ply + 1; q.last = to;
    return [q, text];
  }
  function toSfen(p) {
    var rows = p.board.map(function (row) {
      var t = "", e = 0;
      row.forEach(function (x) {
        if (!x) { e++; return; }
        if (e) { t += e; e = 0; }
        t += (x.p ? "+" : "") + (x.c === "b" ? x.k : x.k.toLowerCase());
      });
      return e ? t + e : t;
    });
    var hs = "";
    ["b", "w"].forEach(function (side) {
      for (var i = 0; i < HAND_ORDER.length; i++) {
        var k = HAND_ORDER[i], n = p.hands[side][k] || 0;
        if (n) hs += (n > 1 ? n : "") + (side === "b" ? k : k.toLowerCase());
      }
    });
    return rows.join("/") + " " + p.side + " " + (hs || "-") + " " + p.ply;
  }

  // ---- the board -----------------------------------------------------------------------
  function handText(p, side) {
    var t = "";
    for (var i = 0; i < HAND_ORDER.length; i++) {
      var k = HAND_ORDER[i], n = p.hands[side][k] || 0;
      if (n) t += KANJI[k] + (n > 1 ? n : "") + " ";
    }
    return t.trim() || "なし (none)";
  }
  function draw(p, names) {
    var C = 44, X = 12, Y = 62, W = X + 9 * C + 30, H = Y + 9 * C + 48;
    var svg = s("svg", { viewBox: "0 0 " + W + " " + H, width: W, role: "img",
      "aria-label": "Board at ply " + p.ply + ": " + toSfen(p) });
    function hand(side, y) {
      var mark = side === "b" ? "☗先手" : "☖後手", turn = p.side === side ? " ← to move" : "";
      svg.appendChild(s("text", { x: X, y: y, "font-size": 15, fill: "#000", "font-weight": turn ? "bold" : "normal" },
        mark + " " + names[side] + turn));
      svg.appendChild(s("text", { x: X, y: y + 19, "font-size": 16, fill: "#000" }, "持駒: " + handText(p, side)));
    }
    svg.appendChild(s("rect", { x: 0, y: 0, width: W, height: H, fill: "#fff" }));
    hand("w", 16);
    for (var f = 0; f < 9; f++) svg.appendChild(s("text", { x: X + f * C + C / 2, y: Y - 6, "font-size": 13, "text-anchor": "middle", fill: "#000" }, FW[9 - f]));
    for (var rr = 0; rr < 9; rr++) svg.appendChild(s("text", { x: X + 9 * C + 6, y: Y + rr * C + C / 2 + 5, "font-size": 14, fill: "#000" }, KN[rr + 1]));
    svg.appendChild(s("rect", { x: X, y: Y, width: 9 * C, height: 9 * C, fill: "#f3d68e", stroke: "#000", "stroke-width": 2 }));
    for (var r = 0; r < 9; r++) for (var c = 0; c < 9; c++) {
      var last = p.last && p.last.r === r && p.last.c === c;
      svg.appendChild(s("rect", { x: X + c * C, y: Y + r * C, width: C, height: C, fill: last ? "#f6b26b" : "none",
        stroke: "#000", "stroke-width": 0.7, "data-last": last ? "true" : null }));
      var x = p.board[r][c];
      if (!x) continue;
      var cx = X + c * C + C / 2, cy = Y + r * C + C / 2;
      var t = s("text", { x: cx, y: cy + 10, "font-size": 28, "text-anchor": "middle", fill: x.p ? "#c00" : "#000",
        "font-weight": x.p ? "bold" : "normal" }, pieceName(x));
      if (x.c === "w") t.setAttribute("transform", "rotate(180 " + cx + " " + cy + ")");
      svg.appendChild(t);
    }
    // The last move's square framed as well as filled: it reads without colour.
    if (p.last) svg.appendChild(s("rect", { x: X + p.last.c * C + 2, y: Y + p.last.r * C + 2, width: C - 4, height: C - 4,
      fill: "none", stroke: "#000", "stroke-width": 3, "stroke-dasharray": "5 3" }));
    hand("b", Y + 9 * C + 22);
    return svg;
  }
  var view = null;
  function show(i) {
    if (!view) return;
    view.ply = Math.max(0, Math.min(view.positions.length - 1, i));
    var p = view.positions[view.ply], b = $("board"), sfen = toSfen(p);
    b.textContent = "";
    b.appendChild(draw(p, view.names));
    b.setAttribute("data-sfen", sfen);
    b.setAttribute("data-ply", String(view.ply));
    $("sfen").setAttribute("value", sfen);
    $("sfen").value = sfen;
    $("copied").textContent = "";
    var n = view.positions.length - 1;
    $("plyinfo").textContent = "Ply " + view.ply + " of " + n +
      (view.ply ? ": " + view.notes[view.ply - 1] + "  (" + view.moves[view.ply - 1] + ")" : ": the start position") +
      (view.ply === n ? " — end: " + resultText(view.game[G_RES]) + ", " + reasonText(view.game[G_REASON]) : "");
    var items = $("moves").children;
    if (view.current) view.current.className = "";
    view.current = items[view.ply - 1] || null;
    if (view.current) {
      view.current.className = "current";
      var ol = $("moves"), li = view.current;
      if (li.offsetTop < ol.scrollTop || li.offsetTop + li.offsetHeight > ol.scrollTop + ol.clientHeight)
        ol.scrollTop = li.offsetTop - ol.clientHeight / 2;
    }
    try { history.replaceState(null, "", "#game=" + view.game[G_NUM] + "&ply=" + view.ply); } catch (e) { /* file: in some browsers */ }
  }
  function gameMoves(g) {
    var o = startOf(g[G_OPEN]);
    return { sfen: o.sfen, moves: decodeMoves(String(g[G_MOVES] || "0:"), o.sfen) };
  }
  function openGame(i) {
    var g = D.games[i];
    if (!g) return;
    var gm = gameMoves(g), p = parseSfen(gm.sfen), positions = [p], notes = [], ol = $("moves"), frag = document.createDocumentFragment();
    gm.moves.forEach(function (mv, k) {
      var r = apply(positions[k], mv);
      positions.push(r[0]);
      notes.push((positions[k].side === "b" ? "▲" : "△") + r[1]);
      frag.appendChild(h("li", { "data-ply": String(k + 1) }, notes[k], h("span", { "class": "usi" }, mv)));
    });
    ol.textContent = "";
    ol.appendChild(frag);
    openIndex = i;
    view = { index: i, game: g, positions: positions, notes: notes, moves: gm.moves, start: gm.sfen, ply: 0, current: null,
      names: { b: ename(g[G_B]), w: ename(g[G_W]) } };
    $("viewer").hidden = false;
    $("h-board").textContent = "Game " + g[G_NUM] + ": " + view.names.b + " (先手) vs " + view.names.w + " (後手)";
    $("game-info").textContent = "Round " + g[G_ROUND] + ", opening " + openingText(g) + "; " + resultText(g[G_RES]) + " by " +
      reasonText(g[G_REASON]) + (g[G_DETAIL] ? " — " + g[G_DETAIL] : "") + "; " + g[G_PLIES] + " plies.";
    setDownload($("kif"), "game-" + g[G_NUM] + ".kif", kifText());
    setDownload($("csa"), "game-" + g[G_NUM] + ".csa", csaText());
    tbody.querySelectorAll("tr.open").forEach(function (tr) { tr.className = ""; });
    var row = tbody.querySelector("tr[data-i=\"" + i + "\"]");
    if (row) row.className = "open";
    show(0);
  }
  function setupViewer() {
    var board = $("board");
    board.addEventListener("keydown", function (e) {
      if (!view) return;
      var m = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, PageDown: 10, PageUp: -10 }[e.key];
      if (m) show(view.ply + m);
      else if (e.key === "Home") show(0);
      else if (e.key === "End") show(view.positions.length - 1);
      else return;
      e.preventDefault();
    });
    $("first").onclick = function () { show(0); };
    $("prev").onclick = function () { show(view.ply - 1); };
    $("next").onclick = function () { show(view.ply + 1); };
    $("last").onclick = function () { show(view.positions.length - 1); };
    $("moves").addEventListener("click", function (e) {
      var li = e.target.closest("li");
      if (li) { show(+li.getAttribute("data-ply")); board.focus(); }
    });
    $("copy").addEventListener("click", function () {
      var input = $("sfen"), done = function (t) { $("copied").textContent = t; };
      var fallback = function () {
        input.focus(); input.select();
        var ok = false;
        try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
        done(ok ? "Copied." : "Selected: press Ctrl+C to copy.");
      };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(function () { done("Copied."); }, fallback);
      else fallback();
    });
  }

  // ---- records to download -------------------------------------------------------------
  function setDownload(a, name, text) {
    a.setAttribute("download", name);
    a.setAttribute("href", "data:text/plain;charset=utf-8," + encodeURIComponent(text));
  }
  // The game's records as `saikoro record convert` writes them from the results file
  // (records.rs's results_record, through kif::write and csa::write), byte for byte. What the
  // writers take from their tables comes from D.records: the event, the handicaps a KIF start
  // is named by, and the words of the game's end ([KIF end word, the tail of KIF's まで line,
  // CSA's end line]), so that no word of them is written here.
  function kifHand(p, side) {
    var t = "";
    for (var i = 0; i < HAND_ORDER.length; i++) {
      var k = HAND_ORDER[i], n = p.hands[side][k] || 0;
      if (n) t += KANJI[k] + (n > 1 ? KN[n] || ("十" + (n > 10 ? KN[n - 10] : "")) : "") + "　";
    }
    return t || "なし";
  }
  // The 手合割 of a start position (its ply count aside), as kif::write names it.
  function handicapName(p) {
    var ours = toSfen(p).replace(/ \S+$/, ""), list = D.records.handicaps;
    for (var i = 0; i < list.length; i++) if (list[i][1].replace(/ \S+$/, "") === ours) return list[i][0];
    return null;
  }
  // A text's width in columns, a character outside ASCII counting two.
  function columns(t) { var n = 0; for (var i = 0; i < t.length; i++) n += t.charCodeAt(i) < 128 ? 1 : 2; return n; }
  function recordComments(g) {
    return [D.records.event + ", game " + g[G_NUM] + ", round " + g[G_ROUND], "opening: " + g[G_OPEN]];
  }
  function kifText() {
    var g = view.game, p0 = view.positions[0], end = D.records.ends[g[G_END]], n = view.notes.length;
    var t = "#KIF version=2.0 encoding=UTF-8\n", name = handicapName(p0);
    if (name) t += "手合割：" + name + "\n";
    else {
      t += "後手の持駒：" + kifHand(p0, "w") + "\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n";
      for (var r = 0; r < 9; r++) {
        t += "|";
        for (var c = 0; c < 9; c++) {
          var x = p0.board[r][c];
          t += x ? (x.c === "w" ? "v" : " ") + pieceName(x) : " ・";
        }
        t += "|" + KN[r + 1] + "\n";
      }
      t += "+---------------------------+\n先手の持駒：" + kifHand(p0, "b") + "\n" + (p0.side === "b" ? "先手番" : "後手番") + "\n";
    }
    // A handicap game's players are 下手 and 上手, as Kifu for Windows writes them.
    var hc = name && name !== "平手";
    t += (hc ? "下手：" : "先手：") + view.names.b + "\n" + (hc ? "上手：" : "後手：") + view.names.w +
      "\n棋戦：" + D.records.event + "\n";
    t += "手数----指手---------消費時間--\n";
    recordComments(g).forEach(function (c) { t += "*" + c + "\n"; });
    // KIF writes no 不成 (the from-square says it all; readers such as tsshogi's and cshogi's
    // refuse it): only the move list shows it.
    view.notes.forEach(function (m, i) { t += String(i + 1).padStart(4) + " " + m.slice(1).replace("不成(", "(") + "\n"; });
    // A record with no move has the time column on its end line, as tsshogi writes it.
    t += String(n + 1).padStart(4) + " " + end[0];
    if (!n) t += " ".repeat(Math.max(0, 12 - columns(end[0]))) + " ( 0:00/00:00:00)";
    t += "\n";
    if (g[G_DETAIL]) t += "*" + g[G_DETAIL] + "\n";
    return t + "まで" + n + "手で" + end[1] + "\n";
  }
  // A CSA line's text: a line break would end it.
  function csaLine(t) { return String(t).replace(/[\r\n]/g, " "); }
  function csaComment(mark, t) {
    return String(t).split("\n").map(function (l) { return mark + l.replace(/\r+$/, "") + "\n"; }).join("");
  }
  // The PI line of a start that is 平手 less some pieces, with empty hands (PI, PI82HI22KA).
  function piLine(p0) {
    var hirate = parseSfen(START), t = "PI";
    if (Object.keys(p0.hands.b).some(function (k) { return p0.hands.b[k]; }) ||
        Object.keys(p0.hands.w).some(function (k) { return p0.hands.w[k]; })) return null;
    for (var file = 1; file <= 9; file++) for (var rank = 1; rank <= 9; rank++) {
      var a = hirate.board[rank - 1][9 - file], b = p0.board[rank - 1][9 - file];
      if (a && b && a.c === b.c && a.k === b.k && a.p === b.p) continue;
      if (!a && !b) continue;
      if (a && !b) { t += String(file) + rank + CSA[a.k]; continue; }
      return null;
    }
    return t;
  }
  function csaText() {
    var g = view.game, p0 = view.positions[0], end = D.records.ends[g[G_END]];
    var t = "'CSA encoding=UTF-8\nV3.0\nN+" + csaLine(view.names.b) + "\nN-" + csaLine(view.names.w) + "\n$EVENT:" + csaLine(D.records.event) + "\n";
    recordComments(g).forEach(function (c) { t += csaComment("'", c); });
    var pi = piLine(p0);
    if (pi) t += pi + "\n";
    else {
      for (var r = 0; r < 9; r++) {
        t += "P" + (r + 1);
        for (var c = 0; c < 9; c++) {
          var x = p0.board[r][c];
          t += x ? (x.c === "b" ? "+" : "-") + (x.p ? CSAP[x.k] : CSA[x.k]) : " * ";
        }
        t += "\n";
      }
      ["b", "w"].forEach(function (side) {
        var hs = "";
        HAND_ORDER.split("").forEach(function (k) { for (var n = 0; n < (p0.hands[side][k] || 0); n++) hs += "00" + CSA[k]; });
        t += "P" + (side === "b" ? "+" : "-") + hs + "\n";
      });
    }
    t += p0.side === "b" ? "+\n" : "-\n";
    view.moves.forEach(function (mv, i) {
      var p = view.positions[i], q = view.positions[i + 1], to = sq(mv.slice(2, 4)), x = q.board[to.r][to.c];
      var from = mv[1] === "*" ? "00" : mv[0] + (mv.charCodeAt(1) - 96);
      t += (p.side === "b" ? "+" : "-") + from + mv[2] + (to.r + 1) + (x.p ? CSAP[x.k] : CSA[x.k]) + "\n";
    });
    t += end[2] + "\n";
    if (g[G_DETAIL]) t += csaComment("'*", g[G_DETAIL]);
    return t;
  }

  // ---- the address: #game=N&ply=K|end&keys=K1,K2*3&view=board, #row=N, #all=moves --------
  // Opens game N at ply K (a link to a position), then sends each named key to the board as a
  // keydown event, as a reader's key press would (`keys=End`, `keys=Home,ArrowRight*5`);
  // `row=N` instead clicks game N's row of the games table, as a reader would, and sends the
  // keys to whatever has the focus then (the board, when the page gives it the focus);
  // `view=board` shows the game alone (a board to print or to capture). `all=moves` reads
  // every game's moves and lists them, a line a game (`N: 7g7f 3c3d …`), in a hidden
  // <pre id="all-moves"> whose data-ms is the time it took: how the page's reading of the
  // moves is checked against the results file.
  function allMoves() {
    var t0 = performance.now(), lines = D.games.map(function (g) { return g[G_NUM] + ": " + gameMoves(g).moves.join(" "); });
    var pre = h("pre", { id: "all-moves", hidden: "" }, lines.join("\n"));
    pre.setAttribute("data-ms", (performance.now() - t0).toFixed(0));
    document.body.appendChild(pre);
  }
  function fromHash() {
    var q = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var at = kv.indexOf("=");
      if (at > 0) q[kv.slice(0, at)] = decodeURIComponent(kv.slice(at + 1));
    });
    if (q.all === "moves") allMoves();
    var num = q.game || q.row;
    if (!num) return;
    var i = -1;
    for (var k = 0; k < D.games.length; k++) if (String(D.games[k][G_NUM]) === num) { i = k; break; }
    if (i < 0) { fail("no game " + num + " in this match"); return; }
    if (q.view === "board") document.body.classList.add("board-only");
    var target;
    if (q.row) {
      var tr = document.querySelector("#games tbody tr[data-i=\"" + i + "\"]");
      if (!tr) { fail("game " + num + " is not on the games table's first page"); return; }
      tr.click();
      target = document.activeElement;
    } else {
      openGame(i);
      if (q.ply) show(q.ply === "end" ? view.positions.length - 1 : +q.ply);
      target = $("board");
      target.focus();
    }
    (q.keys ? q.keys.split(",") : []).forEach(function (spec) {
      var m = /^(\w+)(?:\*(\d+))?$/.exec(spec);
      if (!m) return;
      for (var n = 0; n < +(m[2] || 1); n++)
        target.dispatchEvent(new KeyboardEvent("keydown", { key: m[1], bubbles: true, cancelable: true }));
    });
  }

  function start(data) {
    D = data;
    renderHeader();
    renderStandings();
    renderPlots();
    renderEndings();
    setupViewer();
    renderGamesSetup();
    fromHash();
    document.documentElement.setAttribute("data-ready", performance.now().toFixed(0));
  }
  try {
    var d = loadData();
    if (d && typeof d.then === "function") d.then(start).catch(function (e) { fail(e && e.message || String(e)); });
    else start(d);
  } catch (e) { fail(e.message); }
})();
