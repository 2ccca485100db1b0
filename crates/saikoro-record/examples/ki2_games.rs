//! Prints seeded random games and Saikoro's KI2 and KIF records of each, one a line:
//! `SFEN<TAB>USI moves<TAB>KI2 text<TAB>KIF text` (the texts' line breaks written as `\n`), for
//! `positions/ki2_crosscheck.mjs --games` to compare with tsshogi's KI2 and KIF exports of the
//! same games:
//!
//! ```text
//! cargo run --release --example ki2_games -- 300 2027 > /tmp/ki2-games.tsv
//! ```
//!
//! The games start from 平手, 香落ち and 二枚落ち, from bare boards with every piece in hand, and from boards where
//! three pieces of a kind stand around one square (those of `tests/it/record_ki2.rs`); each ends
//! in a resignation.

use saikoro_core::{Choice, EnteringKingRule, Game, Position, RandomMover};
use saikoro_record::{ki2, kif, Ending, Record, RecordMove};
use std::io::Write;
use std::process::ExitCode;

const STARTS: [(&str, usize); 7] = [
    (saikoro_core::STARTPOS_SFEN, 150),
    (
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        150,
    ),
    (
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        150,
    ),
    ("4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1", 120),
    ("4k4/9/9/9/9/9/9/9/4K4 w RB2G2S2N2L9Prb2g2s2n2l9p 1", 120),
    (
        "4k4/3+p+p+p3/3g1s3/2GGG4/2+P+P+P2+R1/2SSS4/7+R1/6+B1+B/4K4 b 2N2L6P2n2l6p 1",
        30,
    ),
    ("8k/3G1G3/5G3/3S1S3/9/3S1S3/9/3+P1+P3/K2+P5 b P2r2b8p 1", 10),
];

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(300);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2027);
    let mut out = std::io::stdout().lock();
    for g in 0..games {
        let (sfen, plies) = STARTS[(g % STARTS.len() as u64) as usize];
        let start = Position::from_sfen(sfen).expect("a legal start");
        let mut mover = RandomMover::new(seed.wrapping_mul(1_000_003).wrapping_add(g));
        let mut game = Game::new(start.clone());
        let mut record = Record::new(start);
        while record.moves.len() < plies && game.outcome().is_none() {
            match mover.choose(&mut game, EnteringKingRule::default()) {
                Choice::Move(mv) => {
                    game.play(mv);
                    record.moves.push(RecordMove::new(mv));
                }
                _ => break,
            }
        }
        record.set_end(Ending::Resign, Vec::new());
        let usi: Vec<String> = record.moves.iter().map(|m| m.mv.to_string()).collect();
        let text = ki2::write(&record).replace('\n', "\\n");
        let kif_text = kif::write(&record).replace('\n', "\\n");
        if writeln!(out, "{sfen}\t{}\t{text}\t{kif_text}", usi.join(" ")).is_err() {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
