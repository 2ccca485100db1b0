// Checks Saikoro's records with variations against tsshogi (ShogiHome's record library), by
// hand; the project's tests do not need it (they read the trees this script prints, stored
// beside each fixture). Run from the repository root:
//
//   (cd /tmp && npm install tsshogi@2.2.0)
//   cargo build --release
//   D=crates/saikoro-record/positions/records/trees
//   NODE_PATH=/tmp/node_modules node crates/saikoro-record/positions/tree_crosscheck.mjs tree $D/nested.kifu
//   NODE_PATH=/tmp/node_modules node crates/saikoro-record/positions/tree_crosscheck.mjs check target/release/saikoro $D /tmp/tc
//
// `tree FILE` prints tsshogi's tree of FILE as JSON (the NAME.EXT.tree.json beside each
// fixture): {initialSfen, nodeCount, root}, each node {ply, move (USI) | special (tsshogi's
// SpecialMoveType, or any:NAME), comment, bookmark, elapsedMs, children}, children[0] the main
// line; {"error": …} when tsshogi refuses the file. `.kif`/`.ki2` are read as Shift_JIS, as
// ShogiHome reads them; everything else as UTF-8.
//
// `check SAIKORO DIR OUT` has Saikoro convert every fixture of DIR to .kifu, .kif (Shift_JIS),
// .ki2u and .jkf in OUT, reads each back with tsshogi and compares its tree with tsshogi's tree
// of the fixture: the same, but for the times when either side is KI2, the bookmarks when either
// is JKF, and a comment's last line break (tsshogi ends a KIF comment with one, a JKF comment
// not). It prints each conversion that differs and the count; the edge_* fixtures differ where
// Saikoro departs from tsshogi by design (positions/records/trees/README.md).

import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, mkdirSync } from "node:fs";
import path from "node:path";

const require = createRequire(import.meta.url + "/../");
const { importKIF, importKI2, importJKFString, Move, isKnownSpecialMove } = require("tsshogi");

function load(file) {
  const ext = path.extname(file).toLowerCase();
  const sjis = ext === ".kif" || ext === ".ki2";
  let text = new TextDecoder(sjis ? "shift_jis" : "utf-8").decode(readFileSync(file));
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const read = { ".kif": importKIF, ".kifu": importKIF, ".ki2": importKI2, ".ki2u": importKI2 }[ext]
    || importJKFString;
  return read(text);
}

function children(node) {
  const out = [];
  for (let p = node.next; p; p = p.branch) out.push(p);
  return out;
}

// A node and all below as JSON (iterative: a long main line does not blow the stack).
function nodeJSON(root) {
  const conv = (n) => {
    const o = { ply: n.ply };
    if (n.move instanceof Move) o.move = n.move.usi;
    else o.special = isKnownSpecialMove(n.move) ? n.move.type : "any:" + n.move.name;
    Object.assign(o, { comment: n.comment, bookmark: n.bookmark, elapsedMs: n.elapsedMs, children: [] });
    return o;
  };
  const top = conv(root);
  const stack = [[root, top]];
  let count = 0;
  while (stack.length) {
    const [n, o] = stack.pop();
    count++;
    for (const c of children(n)) {
      const co = conv(c);
      o.children.push(co);
      stack.push([c, co]);
    }
  }
  return [top, count];
}

function tree(file) {
  const record = load(file);
  if (record instanceof Error) return { error: record.message };
  const [root, nodeCount] = nodeJSON(record.first);
  return { initialSfen: record.initialPosition.sfen, nodeCount, root };
}

function norm(n, opt) {
  const o = { m: n.move ?? n.special, c: (n.comment || "").replace(/\n$/, "") };
  if (!opt.noBookmarks) o.b = n.bookmark || "";
  if (!opt.noTimes) o.t = n.elapsedMs || 0;
  o.k = n.children.map((c) => norm(c, opt));
  return o;
}

function check(saikoro, dir, out) {
  mkdirSync(out, { recursive: true });
  let same = 0, differ = 0;
  const files = readdirSync(dir).filter((f) => /\.(kifu|ki2u|jkf)$/.test(f)).sort();
  for (const f of files) {
    const want = tree(path.join(dir, f));
    if (want.error) { console.log(`${f}: tsshogi refuses it (${want.error})`); continue; }
    for (const to of ["kifu", "kif", "ki2u", "jkf"]) {
      const o = path.join(out, `${f}.${to}`);
      try {
        execFileSync(saikoro, ["record", "convert", path.join(dir, f), "-o", o, "--force"],
          { stdio: ["ignore", "ignore", "pipe"] });
      } catch (e) {
        console.log(`${f} -> ${to}: Saikoro refuses it: ${e.stderr.toString().trim()}`);
        differ++;
        continue;
      }
      const got = tree(o);
      const opt = {
        noTimes: f.endsWith(".ki2u") || to === "ki2u",
        noBookmarks: f.endsWith(".jkf") || to === "jkf",
      };
      const ok = !got.error && got.initialSfen === want.initialSfen
        && JSON.stringify(norm(got.root, opt)) === JSON.stringify(norm(want.root, opt));
      if (ok) same++;
      else { differ++; console.log(`${f} -> ${to}: the tree tsshogi reads differs`); }
    }
  }
  console.log(`${same} conversions read back as the same tree, ${differ} not`);
}

const [mode, ...args] = process.argv.slice(2);
if (mode === "tree" && args.length === 1) {
  process.stdout.write(JSON.stringify(tree(args[0]), null, 1) + "\n");
} else if (mode === "check" && args.length === 3) {
  check(...args);
} else {
  console.error("usage: tree_crosscheck.mjs tree FILE | check SAIKORO DIR OUT");
  process.exit(2);
}
