"use strict";
(function () {
  var errs = document.getElementById("errors");
  window.onerror = function (msg) { errs.hidden = false; errs.textContent += "Error: " + msg + "\n"; };
  var D = JSON.parse(document.getElementById("data").textContent);
  var $ = function (id) { return document.getElementById(id); };
  $("title").textContent = D.title;
  $("status").textContent = D.finished ? "Finished." : "Running: this page reloads itself every 10 s.";
  $("block").textContent = D.block;
  var KANJI = { P: "歩", L: "香", N: "桂", S: "銀", G: "金", B: "角", R: "飛", K: "玉" };
  var PROMO = { P: "と", L: "杏", N: "圭", S: "全", B: "馬", R: "龍" };
  var CSA = { P: "FU", L: "KY", N: "KE", S: "GI", G: "KI", B: "KA", R: "HI", K: "OU" };
  var CSAP = { P: "TO", L: "NY", N: "NK", S: "NG", B: "UM", R: "RY" };
  var FW = "０１２３４５６７８９", KN = "〇一二三四五六七八九";
  var HAND_ORDER = "RBGSNLP";
  function parseSfen(s) {
    var f = s.trim().split(/\s+/), rows = f[0].split("/"), board = [];
    for (var r = 0; r < 9; r++) {
      var row = [], t = rows[r] || "", prom = false;
      for (var i = 0; i < t.length; i++) {
        var ch = t[i];
        if (ch === "+") { prom = true; continue; }
        if (ch >= "1" && ch <= "9") { for (var n = 0; n < +ch; n++) row.push(null); continue; }
        var up = ch.toUpperCase();
        row.push({ c: ch === up ? "b" : "w", k: up, p: prom }); prom = false;
      }
      board.push(row);
    }
    var hands = { b: {}, w: {} }, h = f[2] || "-", cnt = 0;
    if (h !== "-") for (var j = 0; j < h.length; j++) {
      var c = h[j];
      if (c >= "0" && c <= "9") { cnt = cnt * 10 + (+c); continue; }
      var u = c.toUpperCase(), side = c === u ? "b" : "w";
      hands[side][u] = (hands[side][u] || 0) + (cnt || 1); cnt = 0;
    }
    return { board: board, hands: hands, side: f[1] || "b", ply: +(f[3] || 1), last: null };
  }
  var START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
  function sq(t) { return { r: t.charCodeAt(1) - 97, c: 9 - (+t[0]) }; }
  function copy(p) {
    return { board: p.board.map(function (r) { return r.map(function (x) { return x && { c: x.c, k: x.k, p: x.p }; }); }),
      hands: { b: Object.assign({}, p.hands.b), w: Object.assign({}, p.hands.w) }, side: p.side, ply: p.ply, last: p.last };
  }
  function sqName(s) { return FW[9 - s.c] + KN[s.r + 1]; }
  function pieceName(x) { return x.p ? PROMO[x.k] : KANJI[x.k]; }
  // Applies a USI move to a copy of p; returns [position, Japanese notation].
  function apply(p, mv) {
    var q = copy(p), mark = p.side === "b" ? "▲" : "△", to = sq(mv.slice(2, 4)), text;
    if (mv[1] === "*") {
      var k = mv[0];
      q.hands[p.side][k]--; q.board[to.r][to.c] = { c: p.side, k: k, p: false };
      text = mark + sqName(to) + KANJI[k] + "打";
    } else {
      var from = sq(mv.slice(0, 2)), piece = q.board[from.r][from.c], prom = mv[4] === "+";
      var cap = q.board[to.r][to.c];
      if (cap) q.hands[p.side][cap.k] = (q.hands[p.side][cap.k] || 0) + 1;
      var same = p.last && p.last.r === to.r && p.last.c === to.c;
      text = mark + (same ? "同　" : sqName(to)) + pieceName(piece) + (prom ? "成" : "") +
        "(" + (9 - from.c) + (from.r + 1) + ")";
      q.board[from.r][from.c] = null;
      q.board[to.r][to.c] = { c: piece.c, k: piece.k, p: piece.p || prom };
    }
    q.side = p.side === "b" ? "w" : "b"; q.ply = p.ply + 1; q.last = to;
    return [q, text];
  }
  function toSfen(p) {
    var rows = p.board.map(function (row) {
      var s = "", e = 0;
      row.forEach(function (x) {
        if (!x) { e++; return; }
        if (e) { s += e; e = 0; }
        var ch = x.c === "b" ? x.k : x.k.toLowerCase();
        s += (x.p ? "+" : "") + ch;
      });
      return e ? s + e : s;
    });
    var h = "";
    ["b", "w"].forEach(function (side) {
      for (var i = 0; i < HAND_ORDER.length; i++) {
        var k = HAND_ORDER[i], n = p.hands[side][k] || 0;
        if (n) h += (n > 1 ? n : "") + (side === "b" ? k : k.toLowerCase());
      }
    });
    return rows.join("/") + " " + p.side + " " + (h || "-") + " " + p.ply;
  }
  // The opening text "startpos [moves …]" or "sfen … [moves …]": start position and moves.
  function opening(t) {
    var parts = t.split(" moves "), head = parts[0].trim(), mv = parts[1] ? parts[1].trim().split(/\s+/) : [];
    var sfen = head === "startpos" ? START : head.replace(/^sfen\s+/, "");
    return { sfen: sfen, moves: mv };
  }
  var NS = "http://www.w3.org/2000/svg";
  function el(name, attrs, text) {
    var e = document.createElementNS(NS, name);
    for (var a in attrs) e.setAttribute(a, attrs[a]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function handText(p, side) {
    var s = "";
    for (var i = 0; i < HAND_ORDER.length; i++) {
      var k = HAND_ORDER[i], n = p.hands[side][k] || 0;
      if (n) s += KANJI[k] + (n > 1 ? n : "");
    }
    return (side === "b" ? "☗先手 " : "☖後手 ") + (s || "なし");
  }
  function draw(p) {
    var C = 40, X = 20, Y = 40, svg = el("svg", { viewBox: "0 0 400 460", width: "420", role: "img",
      "aria-label": "Board " + toSfen(p) });
    svg.appendChild(el("text", { x: 10, y: 22, "font-size": 16 }, handText(p, "w")));
    svg.appendChild(el("rect", { x: X, y: Y, width: 9 * C, height: 9 * C, fill: "#f3d68e", stroke: "#000" }));
    for (var r = 0; r < 9; r++) for (var c = 0; c < 9; c++) {
      var last = p.last && p.last.r === r && p.last.c === c;
      svg.appendChild(el("rect", { x: X + c * C, y: Y + r * C, width: C, height: C,
        fill: last ? "#f7a" : "none", stroke: "#000", "stroke-width": last ? 3 : 0.7 }));
      var x = p.board[r][c];
      if (!x) continue;
      var g = el("text", { x: X + c * C + C / 2, y: Y + r * C + C / 2 + 9, "font-size": 26, "text-anchor": "middle",
        fill: x.p ? "#c00" : "#000", "font-weight": x.p ? "bold" : "normal" }, pieceName(x));
      if (x.c === "w") g.setAttribute("transform", "rotate(180 " + (X + c * C + C / 2) + " " + (Y + r * C + C / 2) + ")");
      svg.appendChild(g);
    }
    svg.appendChild(el("text", { x: 10, y: Y + 9 * C + 30, "font-size": 16 }, handText(p, "b")));
    return svg;
  }
  var view = null;
  function show(i) {
    view.ply = Math.max(0, Math.min(view.positions.length - 1, i));
    var p = view.positions[view.ply], b = $("board");
    b.textContent = ""; b.appendChild(draw(p));
    $("sfen").value = toSfen(p);
    $("plyinfo").textContent = "Ply " + view.ply + " of " + (view.positions.length - 1);
    var items = $("moves").children;
    for (var k = 0; k < items.length; k++) items[k].className = k === view.ply - 1 ? "current" : "";
    document.body.setAttribute("data-sfen", toSfen(p));
  }
  function openGame(g) {
    var o = opening(g[4]), p = parseSfen(o.sfen), all = o.moves.concat(g[8] ? g[8].split(" ") : []);
    var positions = [p], notes = [], ol = $("moves");
    ol.textContent = "";
    all.forEach(function (mv, i) {
      var r = apply(positions[i], mv); positions.push(r[0]); notes.push(r[1]);
      var li = document.createElement("li"); li.textContent = r[1] + "  " + mv; ol.appendChild(li);
    });
    view = { game: g, positions: positions, notes: notes, moves: all, start: o.sfen, ply: 0 };
    $("viewer").hidden = false;
    $("h-board").textContent = "Game " + g[0] + ": " + D.engines[g[2]] + " vs " + D.engines[g[3]] +
      " — " + g[5] + " (" + g[6] + ")";
    show(0);
  }
  var tbody = document.querySelector("#games tbody");
  D.games.forEach(function (g) {
    var tr = document.createElement("tr"), plies = g[8] ? g[8].split(" ").length : 0;
    [g[0], g[1], g[4], D.engines[g[2]], D.engines[g[3]], g[5], g[6], plies].forEach(function (v) {
      var td = document.createElement("td"); td.textContent = String(v); tr.appendChild(td);
    });
    tr.tabIndex = 0;
    tr.addEventListener("click", function () { openGame(g); });
    tr.addEventListener("keydown", function (e) { if (e.key === "Enter") openGame(g); });
    tbody.appendChild(tr);
  });
  $("filter").addEventListener("input", function () {
    var f = this.value.toLowerCase();
    for (var i = 0; i < tbody.children.length; i++) {
      var tr = tbody.children[i];
      tr.hidden = f !== "" && tr.textContent.toLowerCase().indexOf(f) < 0;
    }
  });
  function key(e) {
    if (!view) return;
    var m = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (m) { show(view.ply + m); e.preventDefault(); }
    else if (e.key === "Home") { show(0); e.preventDefault(); }
    else if (e.key === "End") { show(view.positions.length - 1); e.preventDefault(); }
  }
  $("board").addEventListener("keydown", key);
  $("first").onclick = function () { show(0); };
  $("prev").onclick = function () { show(view.ply - 1); };
  $("next").onclick = function () { show(view.ply + 1); };
  $("last").onclick = function () { show(view.positions.length - 1); };
  function download(name, text) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
    a.download = name; document.body.appendChild(a); a.click(); a.remove();
  }
  $("kif").onclick = function () {
    var g = view.game, t = "先手：" + D.engines[g[2]] + "\n後手：" + D.engines[g[3]] + "\n";
    if (view.start !== START) t += "# SFEN " + view.start + "\n";
    t += "手数----指手---------消費時間--\n";
    view.notes.forEach(function (n, i) { t += (i + 1) + " " + n.slice(1) + "\n"; });
    download("game" + g[0] + ".kif", t);
  };
  $("csa").onclick = function () {
    var g = view.game, t = "V2.2\nN+" + D.engines[g[2]].replace(/\n/g, " ") + "\nN-" + D.engines[g[3]].replace(/\n/g, " ") + "\n";
    var p0 = view.positions[0];
    for (var r = 0; r < 9; r++) {
      t += "P" + (r + 1);
      for (var c = 0; c < 9; c++) {
        var x = p0.board[r][c];
        t += x ? (x.c === "b" ? "+" : "-") + (x.p ? CSAP[x.k] : CSA[x.k]) : " * ";
      }
      t += "\n";
    }
    ["b", "w"].forEach(function (s) {
      var h = "";
      HAND_ORDER.split("").forEach(function (k) { for (var n = 0; n < (p0.hands[s][k] || 0); n++) h += "00" + CSA[k]; });
      if (h) t += "P" + (s === "b" ? "+" : "-") + h + "\n";
    });
    t += p0.side === "b" ? "+\n" : "-\n";
    view.moves.forEach(function (mv, i) {
      var p = view.positions[i], q = view.positions[i + 1], to = sq(mv.slice(2, 4)), x = q.board[to.r][to.c];
      var from = mv[1] === "*" ? "00" : mv.slice(0, 1) + (mv.charCodeAt(1) - 96);
      t += (p.side === "b" ? "+" : "-") + from + mv[2] + (to.r + 1) + (x.p ? CSAP[x.k] : CSA[x.k]) + "\n";
    });
    download("game" + g[0] + ".csa", t);
  };
  // Test hook: #game=N&ply=end (or a number) opens game N, focuses the board and steps with keys.
  var m = /game=(\d+)(?:&ply=(\w+))?/.exec(location.hash);
  if (m) {
    var g = D.games.filter(function (x) { return x[0] === +m[1]; })[0];
    if (g) {
      openGame(g); $("board").focus();
      var target = m[2] === "end" ? view.positions.length - 1 : +(m[2] || 0);
      while (view.ply < target && view.ply < view.positions.length - 1) {
        var before = view.ply;
        $("board").dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
        if (view.ply === before) break;
      }
      if (m[2] === "end") $("board").dispatchEvent(new KeyboardEvent("keydown", { key: "End", bubbles: true }));
    }
  }
})();
