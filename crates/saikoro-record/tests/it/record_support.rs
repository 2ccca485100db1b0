//! Seeded random records for the round-trip tests: random legal playouts (drops, promotions,
//! 不成 and captures back all come up in them) from 平手, handicaps with White to move and a
//! middle game with pieces in hand, with header fields, times, comments and an ending.

use saikoro_core::{Color, Move, Position, RandomMover};
use saikoro_record::{Ending, Record, RecordMove};

/// Start positions: 平手, 香落ち and 二枚落ち (上手, White, moves first), a middle game with
/// hands, and a position that is none of the presets.
pub const STARTS: [&str; 5] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "ln1g1g1nl/1r1sk2s1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/7R1/LN1GKGSNL b Bb 1",
    "4k4/9/4P4/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1",
];

/// Every ending.
pub const ENDINGS: [Ending; 16] = [
    Ending::Resign,
    Ending::Interrupt,
    Ending::Repetition,
    Ending::Mate,
    Ending::Jishogi,
    Ending::MaxMoves,
    Ending::TimeUp,
    Ending::Foul(Color::Black),
    Ending::Foul(Color::White),
    Ending::Declaration,
    Ending::Draw,
    Ending::DefaultWin,
    Ending::DefaultLoss,
    Ending::Sealed,
    Ending::NoMate,
    Ending::Error,
];

/// Words for comments and names: ASCII, kana and kanji, JSON's escapes (`"`, `\`), a comma.
const WORDS: [&str; 8] = [
    "good",
    "▲７六歩",
    "同　銀",
    "\"quoted\"",
    "back\\slash",
    "a, b",
    "評価値 +120",
    "*star",
];

/// A seeded random record from `start`: at most `plies` random legal moves, each with a time
/// (`whole_seconds`: multiples of 1000 ms) and sometimes comments; header names, event, site,
/// dates, time control and opening; an ending or none.
pub fn random_record(start: &Position, seed: u64, plies: usize, whole_seconds: bool) -> Record {
    let mut rng = RandomMover::new(seed);
    let mut record = Record::new(start.clone());
    let word = |rng: &mut RandomMover| WORDS[rng.below(WORDS.len() as u64) as usize].to_string();
    record.set_header("先手", format!("black {}", word(&mut rng)));
    record.set_header("後手", format!("white {seed}"));
    for key in ["棋戦", "場所", "開始日時", "終了日時", "持ち時間", "戦型"] {
        if rng.below(2) == 0 {
            record.set_header(key, format!("{key} {}", rng.below(1000)));
        }
    }
    if rng.below(3) == 0 {
        record.comments.push(word(&mut rng));
    }
    let mut pos = start.clone();
    let n = rng.below(plies as u64 + 1) as usize;
    for _ in 0..n {
        let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len() as u64) as usize];
        let mut m = RecordMove::new(mv);
        let ms = rng.below(100_000);
        m.time_ms = match rng.below(4) {
            0 => None,
            _ if whole_seconds => Some(ms / 1000 * 1000),
            _ => Some(ms),
        };
        if rng.below(8) == 0 {
            m.comments_mut().push(word(&mut rng));
        }
        pos.do_move(mv);
        record.moves.push(m);
    }
    if let Some(&end) = ENDINGS.get(rng.below(ENDINGS.len() as u64 + 1) as usize) {
        record.set_end(end, Vec::new());
    }
    record
}

/// The ending as a form with CSA's and JKF's words writes it (不戦勝, 不戦敗 and 封じ手 have
/// none: `CHUDAN`).
pub fn csa_ending(end: Option<Ending>) -> Option<Ending> {
    match end {
        Some(Ending::DefaultWin | Ending::DefaultLoss | Ending::Sealed) => Some(Ending::Interrupt),
        e => e,
    }
}

/// How many drops, promotions and 不成 (moves that could promote and did not) `records` hold.
pub fn counts(records: &[Record]) -> (usize, usize, usize) {
    let (mut drops, mut promotions, mut unpromoted) = (0, 0, 0);
    for r in records {
        let mut pos = r.start.clone();
        for m in &r.moves {
            match m.mv {
                Move::Drop { .. } => drops += 1,
                Move::Normal { promote: true, .. } => promotions += 1,
                Move::Normal { from, to, .. } => {
                    let p = Move::Normal {
                        from,
                        to,
                        promote: true,
                    };
                    if pos.is_legal(p).is_ok() {
                        unpromoted += 1;
                    }
                }
            }
            pos.do_move(m.mv);
        }
    }
    (drops, promotions, unpromoted)
}

/// `base` with one to `edits` random edits (a byte replaced by one of `alphabet`, removed,
/// inserted, or the text cut there), never empty: the input of the no-panic tests.
pub fn mutated(base: &[u8], alphabet: &[u8], edits: u64, rng: &mut RandomMover) -> Vec<u8> {
    let mut b = base.to_vec();
    for _ in 0..=rng.below(edits) {
        let at = rng.below(b.len() as u64) as usize;
        match rng.below(4) {
            0 => b[at] = alphabet[rng.below(alphabet.len() as u64) as usize],
            1 => {
                b.remove(at);
            }
            2 => b.insert(at, alphabet[rng.below(alphabet.len() as u64) as usize]),
            _ => b.truncate(at.max(1)),
        }
        if b.is_empty() {
            b.push(b'\n');
        }
    }
    b
}

/// A seeded random game (`saikoro_core::RandomMover`, self-play's picker) of at most `plies` moves
/// from `start`: it stops at the game's end, a resignation or a declaration.
pub fn random_game(
    start: &saikoro_core::Position,
    seed: u64,
    plies: usize,
) -> Vec<saikoro_core::Move> {
    use saikoro_core::{Choice, EnteringKingRule, Game, RandomMover};
    let mut mover = RandomMover::new(seed);
    let mut game = Game::new(start.clone());
    let mut moves = Vec::new();
    while moves.len() < plies && game.outcome().is_none() {
        match mover.choose(&mut game, EnteringKingRule::default()) {
            Choice::Move(mv) => {
                game.play(mv);
                moves.push(mv);
            }
            Choice::Resign | Choice::DeclareWin => break,
        }
    }
    moves
}
