#!/usr/bin/env python3
"""Re-count every figure of perft.txt with independent generators (not used by the tests).

cshogi (C++ core) counts every entry; python-shogi (pure Python) the ones up to
PYTHON_SHOGI_LIMIT nodes. Needs `pip install cshogi python-shogi`.
"""
import pathlib
import sys

import cshogi
import shogi

PYTHON_SHOGI_LIMIT = 200_000


def cshogi_perft(board, depth):
    if depth == 1:
        return len(board.legal_moves)
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += cshogi_perft(board, depth - 1)
        board.pop()
    return total


def python_shogi_perft(board, depth):
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += python_shogi_perft(board, depth - 1)
        board.pop()
    return total


def records(path):
    rec = None
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            if rec and not line:
                yield rec
                rec = None
            continue
        key, value = line.split(" ", 1)
        if key == "id":
            rec = {"id": value, "perft": []}
        elif key == "sfen":
            rec["sfen"] = value
        elif key == "perft":
            depth, nodes = value.split()
            rec["perft"].append((int(depth), int(nodes)))
    if rec:
        yield rec


def main():
    bad = 0
    for rec in records(pathlib.Path(__file__).with_name("perft.txt")):
        for depth, nodes in rec["perft"]:
            got = {"cshogi": cshogi_perft(cshogi.Board(rec["sfen"]), depth)}
            if nodes <= PYTHON_SHOGI_LIMIT:
                got["python-shogi"] = python_shogi_perft(shogi.Board(rec["sfen"]), depth)
            ok = all(v == nodes for v in got.values())
            bad += not ok
            print(f"{'ok ' if ok else 'BAD'} {rec['id']} perft {depth} {nodes}: {got}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
