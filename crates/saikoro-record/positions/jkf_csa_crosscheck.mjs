// Compares Saikoro's JKF and CSA output with tsshogi's (ShogiHome's record library), by hand;
// the project's tests do not need it. Run from the repository root:
//
//   (cd /tmp && npm install tsshogi)
//   cargo build --release
//   rm -rf /tmp/jc && target/release/saikoro selfplay --games 300 --seed 1 --max-plies 200 --record-dir /tmp/jc
//   for f in /tmp/jc/*.csa; do
//     target/release/saikoro record convert "$f" --to jkf -o "${f%.csa}.jkf"
//     target/release/saikoro record convert "$f" --to csa -o "${f%.csa}.v3"
//   done
//   NODE_PATH=/tmp/node_modules node crates/saikoro-record/positions/jkf_csa_crosscheck.mjs /tmp/jc
//
// For each game X.csa (self-play's V2.2 record), tsshogi imports it and exports JKF and CSA
// V3.0; the script compares tsshogi's JKF moves (every field of each `move`, the `special`)
// with Saikoro's X.jkf, and tsshogi's CSA move and end lines with Saikoro's X.v3. It also has
// tsshogi import Saikoro's JKF and CSA and checks they give the same moves (USI) as the
// original. Disagreements are printed with the game and the move (the first 5 of each kind),
// and counted by kind; the kinds are explained in the README.md beside this script.

import { createRequire } from "node:module";
import { readFileSync, readdirSync } from "node:fs";

const require = createRequire(import.meta.url + "/../");
const { importCSA, exportCSA, exportJKFString, importJKFString } = require("tsshogi");

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node crates/saikoro-record/positions/jkf_csa_crosscheck.mjs DIR");
  process.exit(2);
}

const moveLines = (csa) =>
  csa
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^[+-]\d{4}[A-Z]{2}/.test(l) || l.startsWith("%"));

// The fields of a JKF move, in one order, for comparison.
const fields = (m) => {
  if (!m) return "";
  const mv = m.move;
  if (!mv) return m.special ? `special:${m.special}` : "";
  const p = (s) => (s ? `${s.x}${s.y}` : "");
  return [
    p(mv.from),
    p(mv.to),
    mv.color,
    mv.piece,
    mv.same ? "same" : "",
    mv.promote === undefined ? "" : `promote:${mv.promote}`,
    mv.capture ?? "",
    mv.relative ?? "",
  ].join(" ");
};

const counts = { games: 0, moves: 0, jkfDiffer: 0, csaDiffer: 0, rereadDiffer: 0 };
const kinds = new Map();
const note = (kind, text) => {
  kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  if (kinds.get(kind) <= 5) console.log(`${kind}: ${text}`);
};

for (const name of readdirSync(dir).filter((n) => n.endsWith(".csa")).sort()) {
  const base = `${dir}/${name.slice(0, -4)}`;
  const original = importCSA(readFileSync(`${dir}/${name}`, "utf8"));
  if (original instanceof Error) {
    note("tsshogi refuses the original", `${name}: ${original.message}`);
    continue;
  }
  counts.games++;
  const usi = original.getUSI({ allMoves: true });
  const ours = JSON.parse(readFileSync(`${base}.jkf`, "utf8"));
  const theirs = JSON.parse(exportJKFString(original));
  const n = Math.max(ours.moves.length, theirs.moves.length);
  for (let i = 1; i < n; i++) {
    counts.moves++;
    const a = fields(ours.moves[i]);
    const b = fields(theirs.moves[i]);
    if (a !== b) {
      counts.jkfDiffer++;
      const [as, bs] = [a.split(" "), b.split(" ")];
      const only = (k) => as.every((x, j) => j === k || x === bs[j]);
      const kind =
        only(4) && as[4] === "same"
          ? "same: Saikoro writes it, tsshogi does not"
          : only(7)
            ? "relative differs"
            : "JKF move differs";
      note(kind, `${name} moves[${i}]: saikoro '${a}' tsshogi '${b}'`);
    }
  }
  const ourCSA = moveLines(readFileSync(`${base}.v3`, "utf8"));
  const theirCSA = moveLines(exportCSA(original, { v3: {} }));
  for (let i = 0; i < Math.max(ourCSA.length, theirCSA.length); i++) {
    if (ourCSA[i] !== theirCSA[i]) {
      counts.csaDiffer++;
      note("CSA line differs", `${name} line ${i}: saikoro '${ourCSA[i]}' tsshogi '${theirCSA[i]}'`);
    }
  }
  for (const [what, rec] of [
    ["JKF", importJKFString(readFileSync(`${base}.jkf`, "utf8"))],
    ["CSA", importCSA(readFileSync(`${base}.v3`, "utf8"))],
  ]) {
    if (rec instanceof Error || rec.getUSI({ allMoves: true }) !== usi) {
      counts.rereadDiffer++;
      note(`tsshogi reads Saikoro's ${what} differently`, `${name}: ${rec instanceof Error ? rec.message : rec.getUSI({ allMoves: true })}`);
    }
  }
}
console.log(JSON.stringify(counts));
for (const [k, v] of kinds) console.log(`${v}\t${k}`);
