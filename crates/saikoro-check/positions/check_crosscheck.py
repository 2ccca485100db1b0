#!/usr/bin/env python3
"""Re-count the facts of check.txt with cshogi, an independent generator (not used by the tests).

For every record: the history is legal, the number of legal moves at the end, the moves that
checkmate (`mates`), the entering-king declaration (`declare`, cshogi's is_nyugyoku, which
applies the CSA 27-point rule) and the perpetual-check loss (`loses`, cshogi's is_draw).
Needs `pip install cshogi`. The `illegal` reasons are the rules core's own words: cshogi only
confirms that those moves are not among the legal ones.
"""
import pathlib
import sys

import cshogi


def records(text):
    rec = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("#"):
            continue
        if not line:
            if rec:
                yield rec
            rec = None
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            if rec:
                yield rec
            rec = {"id": value, "illegal": [], "allows": [], "loses": []}
        elif key in ("illegal", "allows", "loses"):
            rec[key].append(value.split()[0])
        else:
            rec[key] = value
    if rec:
        yield rec


def main():
    path = pathlib.Path(__file__).with_name("check.txt")
    bad = 0
    for r in records(path.read_text()):
        board = cshogi.Board(r["sfen"]) if "sfen" in r else cshogi.Board()
        for m in r.get("moves", "").split():
            move = board.move_from_usi(m)
            assert move in list(board.legal_moves), (r["id"], m)
            board.push(move)
        legal = {cshogi.move_to_usi(m): m for m in board.legal_moves}
        facts = [("legal", len(legal), int(r["legal"]))]
        if "mates" in r:
            mates = set()
            for text, m in legal.items():
                board.push(m)
                if board.is_check() and not list(board.legal_moves):
                    mates.add(text)
                board.pop()
            want = set() if r["mates"] == "-" else set(r["mates"].split())
            facts.append(("mates", sorted(mates), sorted(want)))
        if "declare" in r:
            facts.append(("declare", bool(board.is_nyugyoku()), r["declare"] == "yes"))
        for text in r["illegal"]:
            facts.append((f"illegal {text}", text in legal, False))
        for text in r["allows"]:
            facts.append((f"allows {text}", text in legal, True))
        for text in r["loses"]:
            board.push(legal[text])
            lost = board.is_draw() == cshogi.REPETITION_WIN  # a win for the side to move now
            board.pop()
            facts.append((f"loses {text}", lost, True))
        for name, got, want in facts:
            ok = got == want
            bad += not ok
            print(f"{'ok ' if ok else 'BAD'} {r['id']:20} {name}: {got}" + ("" if ok else f" (file: {want})"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
