//! Speed benchmark: saikoro's mailbox generator against `shunsai` (bitboards), side by side.
//!
//! perft with bulk counting at the last ply, on the start position (depths 5 and 6), matsuri
//! (depth 4) and the 593-move position (depth 3), both engines in the same process, alternating.
//! Both node counts are checked against the published figures; the bench panics if either
//! engine disagrees. (Random games are timed by `benches/selfplay.rs`, legal-move lists on
//! positions from random games by `benches/movegen.rs`.)
//!
//! Run: `cargo bench --bench perft` (a few minutes), or `cargo bench --bench perft -- --quick`
//! (one ply shallower, a few seconds; also `SAIKORO_BENCH_QUICK=1`). Every figure is the best
//! of `SAIKORO_BENCH_RUNS` timed passes (default 3). Plain `std::time::Instant`, no benchmark
//! framework.
//!
//! One run alone, for an instruction count or an outside timer:
//! `<bench binary> --one saikoro|shunsai <startpos|matsuri|593-move> <depth>` prints the nodes.

use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use shogi_usi_parser::FromUsi;
use shunsai::shogi_core::PartialPosition;

const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
const MAX_MOVES: &str = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";

/// Published perft figures: (name, SFEN, depth, nodes).
const FULL: &[(&str, &str, u32, u64)] = &[
    ("startpos", STARTPOS, 5, 19_861_490),
    ("startpos", STARTPOS, 6, 547_581_517),
    ("matsuri", MATSURI, 4, 516_925_165),
    ("593-move", MAX_MOVES, 3, 53_393_368),
];

/// The same positions one ply shallower (smoke test).
const QUICK: &[(&str, &str, u32, u64)] = &[
    ("startpos", STARTPOS, 4, 719_731),
    ("startpos", STARTPOS, 5, 19_861_490),
    ("matsuri", MATSURI, 3, 4_809_015),
    ("593-move", MAX_MOVES, 2, 105_677),
];

// ---------------------------------------------------------------------------------------------
// perft

/// saikoro: the library's own perft, which bulk-counts the last ply with `count_legal`.
fn perft_saikoro(sfen: &str, depth: u32) -> u64 {
    let mut pos = saikoro_core::Position::from_sfen(sfen).expect("saikoro rejects a bench SFEN");
    saikoro_core::perft(&mut pos, depth)
}

fn shunsai_position(sfen: &str) -> shunsai::Position {
    let partial = PartialPosition::from_usi(&format!("sfen {sfen}"))
        .unwrap_or_else(|e| panic!("shogi_usi_parser rejects {sfen:?}: {e:?}"));
    shunsai::Position::new(partial)
}

/// shunsai ships no perft function, so this is written here the way saikoro's is: at depth 1
/// the legal moves are counted without being built (the sum of `MoveSet::len` over the sets
/// `generate_moves` yields, which is shunsai's own fast counting path), and above that the
/// moves are listed with `legal_moves` (one allocation per interior node, as saikoro's
/// `MoveList::new` does) and played with `do_move`/`undo_move`.
fn perft_shunsai_rec(pos: &mut shunsai::Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut n = 0u64;
            let _ = pos.generate_moves(|set| {
                n += set.len() as u64;
                ControlFlow::Continue(())
            });
            n
        }
        _ => {
            let mut n = 0;
            for m in pos.legal_moves() {
                let undo = pos.do_move(m);
                n += perft_shunsai_rec(pos, depth - 1);
                pos.undo_move(m, undo);
            }
            n
        }
    }
}

fn perft_shunsai(sfen: &str, depth: u32) -> u64 {
    let mut pos = shunsai_position(sfen);
    perft_shunsai_rec(&mut pos, depth)
}

/// Times one perft call and checks its node count against the published figure.
fn timed(engine: &str, label: &str, expected: u64, f: impl Fn() -> u64) -> Duration {
    let t = Instant::now();
    let n = black_box(f());
    let dt = t.elapsed();
    assert_eq!(
        n, expected,
        "{engine} perft {label}: {n} nodes, the published figure is {expected}"
    );
    dt
}

// ---------------------------------------------------------------------------------------------

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// `--one <engine> <position> <depth>`: one perft, its node count printed.
fn one(args: &[String]) {
    let [engine, name, depth] = args else {
        panic!("usage: --one saikoro|shunsai <startpos|matsuri|593-move> <depth>");
    };
    let sfen = FULL
        .iter()
        .find(|e| e.0 == name)
        .unwrap_or_else(|| panic!("unknown position {name}"))
        .1;
    let depth: u32 = depth.parse().expect("depth");
    let nodes = match engine.as_str() {
        "saikoro" => perft_saikoro(sfen, depth),
        "shunsai" => perft_shunsai(sfen, depth),
        _ => panic!("unknown engine {engine}"),
    };
    println!("{nodes}");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--one") {
        one(&args[i + 1..]);
        return;
    }
    // `cargo bench` passes `--bench`; anything else but `--quick` is ignored too, so that the
    // usual harness arguments do no harm.
    let quick = std::env::args().any(|a| a == "--quick")
        || std::env::var_os("SAIKORO_BENCH_QUICK").is_some_and(|v| v != "0" && !v.is_empty());
    let runs: u32 = std::env::var("SAIKORO_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(3);
    let table = if quick { QUICK } else { FULL };
    println!(
        "saikoro {} vs shunsai ({} mode, best of {runs} per perft entry)",
        env!("CARGO_PKG_VERSION"),
        if quick { "quick" } else { "full" },
    );
    println!();
    println!(
        "| position | depth | nodes | saikoro ms | shunsai ms | ratio | saikoro Mnps | shunsai Mnps |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut worst: f64 = 0.0;
    for &(name, sfen, depth, nodes) in table {
        let label = format!("{name} depth {depth}");
        // The engines alternate, so a burst of load from elsewhere on the machine hits both
        // alike; the best pass of each is kept.
        let (mut ts, mut tb) = (Duration::MAX, Duration::MAX);
        for _ in 0..runs {
            ts = ts.min(timed("saikoro", &label, nodes, || {
                perft_saikoro(sfen, depth)
            }));
            tb = tb.min(timed("shunsai", &label, nodes, || {
                perft_shunsai(sfen, depth)
            }));
        }
        let ratio = ts.as_secs_f64() / tb.as_secs_f64();
        worst = worst.max(ratio);
        println!(
            "| {name} | {depth} | {nodes} | {:.1} | {:.1} | {ratio:.2} | {:.1} | {:.1} |",
            ms(ts),
            ms(tb),
            nodes as f64 / ts.as_secs_f64() / 1e6,
            nodes as f64 / tb.as_secs_f64() / 1e6,
        );
    }
    println!();
    println!("worst perft ratio saikoro/shunsai: {worst:.2} (target <= 1.00)");
}
