"""Reads Saikoro's KIF records of random games with cshogi's KIF parser, by hand (the project's
tests do not need it). Run from the repository root:

    pip install cshogi
    cargo run --release -p saikoro-record --example ki2_games -- 300 2027 > /tmp/ki2-games.tsv
    python3 crates/saikoro-record/positions/kif_crosscheck.py /tmp/ki2-games.tsv

Each line of the input is `SFEN<TAB>USI moves<TAB>KI2 text<TAB>KIF text` (line breaks as `\\n`).
cshogi's parser reads `手合割` lines but no board diagram (it starts such a record from 平手),
so the records are counted apart: those that start from a `手合割` must read to the same moves,
those with a diagram are only counted.
"""

import sys

import cshogi
import cshogi.KIF

same = differ = diagrams = 0
for line in open(sys.argv[1], encoding="utf-8"):
    if not line.strip():
        continue
    sfen, usi, _ki2, kif = line.rstrip("\n").split("\t")
    text = kif.replace("\\n", "\n")
    if "手合割：" not in text:
        diagrams += 1
        continue
    parsed = cshogi.KIF.Parser.parse_str(text)
    record = parsed[0] if isinstance(parsed, list) else parsed
    got = " ".join(cshogi.move_to_usi(m) for m in record.moves)
    if got == usi and record.sfen.rsplit(" ", 1)[0] == sfen.rsplit(" ", 1)[0]:
        same += 1
    else:
        differ += 1
        print("differs:", sfen, "|", got, "|", usi)
print(f"手合割 records read by cshogi as the same game: {same} of {same + differ}; "
      f"with a board diagram (not read by cshogi): {diagrams}")
