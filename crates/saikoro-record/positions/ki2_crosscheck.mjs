// Compares Saikoro's KI2 move texts with tsshogi's (ShogiHome's record library), by hand; the
// project's tests do not need it. Run from the repository root:
//
//   (cd /tmp && npm install tsshogi)
//   cargo run --release -p saikoro-record --example ki2_moves \
//       < crates/saikoro-core/positions/random-games.sfen > /tmp/ki2-saikoro.tsv
//   cargo run --release -p saikoro-record --example ki2_moves \
//       < crates/saikoro-record/positions/ki2_positions.txt >> /tmp/ki2-saikoro.tsv
//   NODE_PATH=/tmp/node_modules node crates/saikoro-record/positions/ki2_crosscheck.mjs \
//       /tmp/ki2-saikoro.tsv /tmp/ki2-tsshogi.tsv
//   cargo run --release -p saikoro-record --example ki2_moves -- --read < /tmp/ki2-tsshogi.tsv
//
// With --games, whole records instead (made by crates/saikoro-record/examples/ki2_games.rs):
//
//   cargo run --release -p saikoro-record --example ki2_games -- 300 2027 > /tmp/ki2-games.tsv
//   NODE_PATH=/tmp/node_modules node crates/saikoro-record/positions/ki2_crosscheck.mjs \
//       --games /tmp/ki2-games.tsv
//
// Each line is `SFEN<TAB>USI moves<TAB>Saikoro's KI2 record` (line breaks as `\n`); the script
// builds the same game in tsshogi (`Record.newByUSI`, ended by a resignation), exports it with
// `exportKI2`, compares the texts move by move, and reads Saikoro's text back with `importKI2`
// to check it is the same game.
//
// Each input line is `SFEN<TAB>USI move<TAB>Saikoro's text`. The script writes tsshogi's text
// for the same move (tsshogi's `formatMove`, its side mark taken off), counts the agreements
// and prints each disagreement with the kind it falls in (see the README.md beside this
// script), so that the known kinds can be checked one by one.

import { createRequire } from "node:module";
import { readFileSync, writeFileSync } from "node:fs";

const require = createRequire(import.meta.url + "/../");
const { Position, Piece, Square, formatMove, Record, exportKI2, importKI2, exportKIF, importKIF } =
  require("tsshogi");

if (process.argv[2] === "--games") {
  games(process.argv[3]);
  process.exit(0);
}

// The --games mode: whole KI2 records of random games, Saikoro's against tsshogi's export.
function games(file) {
  let same = 0;
  let moves = 0;
  let differ = 0;
  let readBack = 0;
  let sameKif = 0;
  let shownKif = 0;
  let readBackKif = 0;
  const kinds = new Map();
  // tsshogi lists a hand from the pawn up (歩九　香二 …), Saikoro from the rook down (飛　角 …,
  // as the match's KIF records always have): the texts are compared without the hand lines.
  const unhanded = (t) => t.replace(/^(先手|後手)の持駒：.*$/gm, "");
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const [sfen, usi, oursEscaped, oursKifEscaped] = line.split("\t");
    const ours = oursEscaped.replaceAll("\\n", "\n");
    const oursKif = (oursKifEscaped ?? "").replaceAll("\\n", "\n");
    const record = Record.newByUSI(`sfen ${sfen} moves ${usi} resign`.replace("moves  resign", "moves resign"));
    if (record instanceof Error) {
      console.log(`tsshogi refuses ${sfen} ${usi}: ${record}`);
      continue;
    }
    const theirs = exportKI2(record, {});
    const tokens = (t) =>
      t
        .split("\n")
        .filter((l) => /^[▲△]/.test(l))
        .join("")
        .replace(/ +/g, "")
        .split(/(?=[▲△])/)
        .filter((x) => x);
    const a = tokens(ours);
    const b = tokens(theirs);
    moves += a.length;
    if (unhanded(ours) === unhanded(theirs)) same++;
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (a[i] !== b[i]) {
        differ++;
        record.goto(i);
        const move = record.moves[i + 1]?.move;
        const pinned =
          move instanceof Object && move.to && illegalRivals(record.position, move).length
            ? " (a rival tsshogi counts cannot legally move there)"
            : "";
        const k = kindOfText(a[i] ?? "", b[i] ?? "") + pinned;
        kinds.set(k, (kinds.get(k) ?? 0) + 1);
        console.log(`${k}\t${sfen}\tmove ${i + 1}\tsaikoro ${a[i]}\ttsshogi ${b[i]}`);
      }
    }
    record.goto(Number.MAX_SAFE_INTEGER);
    // KIF: tsshogi writes no version line, every move's time (0:00 where none is known) and no
    // `まで` line; Saikoro writes the version line, no times when none is known, and the `まで`
    // line as Kifu for Windows does.
    if (oursKif) {
      const theirsKif = exportKIF(record, {});
      const plain = (t) =>
        unhanded(t)
          .replace(/^#KIF.*\n/, "")
          .replace(/^まで.*\n/m, "")
          .replace(/ *\( 0:00\/00:00:00\)/g, "")
          .replace(/ +$/gm, "");
      if (plain(oursKif) === plain(theirsKif)) sameKif++;
      else if (!shownKif++) console.log(`KIF differs:\n${oursKif}\n---\n${theirsKif}`);
      const backKif = importKIF(oursKif);
      if (!(backKif instanceof Error)) backKif.goto(Number.MAX_SAFE_INTEGER);
      if (!(backKif instanceof Error) && backKif.usi === record.usi) readBackKif++;
    }
    const back = importKI2(ours);
    if (!(back instanceof Error)) back.goto(Number.MAX_SAFE_INTEGER);
    if (!(back instanceof Error) && back.usi === record.usi) readBack++;
    else console.log(`tsshogi reads Saikoro's record otherwise: ${sfen} ${usi}`);
  }
  console.log(`games: identical texts ${same}; moves ${moves}, differing ${differ}; read back by tsshogi as the same game ${readBack}`);
  for (const [k, n] of kinds) console.log(`  ${k}: ${n}`);
  console.log(`KIF: texts the same as tsshogi's ${sameKif}; read back by tsshogi as the same game ${readBackKif}`);
}

const file = process.argv[2];
if (!file) {
  console.error("usage: node positions/ki2_crosscheck.mjs SAIKORO.tsv [TSSHOGI.tsv]");
  process.exit(2);
}

let agree = 0;
const differ = [];
const cache = new Map();
// With a second argument, tsshogi's texts are also written there (`SFEN<TAB>USI<TAB>text`), for
// `ki2_moves --read` to read back with Saikoro.
const theirsOut = [];
for (const line of readFileSync(file, "utf8").split("\n")) {
  if (!line.trim()) continue;
  const [sfen, usi, ours] = line.split("\t");
  let pos = cache.get(sfen);
  if (!pos) {
    pos = Position.newBySFEN(sfen);
    if (!pos) {
      console.error(`tsshogi refuses the SFEN ${sfen}`);
      process.exit(1);
    }
    cache.clear();
    cache.set(sfen, pos);
  }
  const move = pos.createMoveByUSI(usi);
  if (!move) {
    differ.push({ sfen, usi, ours, theirs: "(no move)" });
    continue;
  }
  const theirs = formatMove(pos, move).replace(/^[☗☖▲△]/, "");
  theirsOut.push(`${sfen}\t${usi}\t${theirs}\n`);
  if (theirs === ours) {
    agree++;
  } else {
    differ.push({ sfen, usi, ours, theirs, illegal: illegalRivals(pos, move) });
  }
}

// The other pieces of the kind that tsshogi counts as reaching the square but whose move there
// its own legality check (isValidMove: the king left in check) refuses: pinned pieces, or pieces
// whose move does not answer a check.
function illegalRivals(pos, move) {
  const piece = new Piece(move.color, move.pieceType);
  return pos
    .listAttackersByPiece(move.to, piece)
    .filter((sq) => !(move.from instanceof Square) || !sq.equals(move.from))
    .filter((sq) => {
      const m = pos.createMove(sq, move.to);
      return !m || !pos.isValidMove(m);
    })
    .map((sq) => `${sq.file}${sq.rank}`);
}

// The kind of a disagreement: where tsshogi adds words (or 打) that Saikoro leaves out, or the
// words differ.
function kind({ ours, theirs, illegal }) {
  const pinned = illegal.length ? " (a rival tsshogi counts cannot legally move there)" : "";
  return kindOfText(ours, theirs) + pinned;
}

function kindOfText(ours, theirs) {
  if (theirs.startsWith(ours) && /^[右左直上引寄打]+$/.test(theirs.slice(ours.length))) {
    return "tsshogi adds " + theirs.slice(ours.length);
  }
  const core = (t) => t.replace(/(不成|成)$/, "");
  if (core(theirs).startsWith(core(ours)) && theirs.endsWith(ours.slice(core(ours).length))) {
    return "tsshogi adds words before the promotion word";
  }
  return "other";
}

const kinds = new Map();
for (const d of differ) {
  const k = kind(d);
  kinds.set(k, (kinds.get(k) ?? 0) + 1);
  const rivals = d.illegal.length ? `\trivals ${d.illegal.join(",")}` : "";
  console.log(`${k}\t${d.sfen}\t${d.usi}\tsaikoro ${d.ours}\ttsshogi ${d.theirs}${rivals}`);
}
console.log(`moves ${agree + differ.length}, agree ${agree}, differ ${differ.length}`);
for (const [k, n] of kinds) console.log(`  ${k}: ${n}`);
if (process.argv[3]) writeFileSync(process.argv[3], theirsOut.join(""));
