//! Legal-move list generation on positions that occur in random games (big hands, promoted
//! pieces, checks), saikoro against shunsai, side by side in one process.
//!
//! The sample is `positions/random-games.sfen` (how it was made: `positions/README.md`). Each
//! pass lists the legal moves of every position once per engine: saikoro's
//! `Position::generate_legal` into one reused `MoveList`, shunsai's `generate_moves` +
//! `MoveSet::write_into` into one reused `Vec`. The engines alternate pass by pass; the median
//! pass of each is reported, and the two engines must agree on every position's move count.
//!
//! Run: `cargo bench --bench movegen` (`-- --passes N`, default 21). One engine alone, for an
//! instruction count: `<bench binary> --one saikoro|shunsai <passes>`.

use shogi_usi_parser::FromUsi;
use shunsai::shogi_core::{self, PartialPosition};
use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

const SAMPLE: &str = include_str!("../positions/random-games.sfen");

fn sfens() -> Vec<&'static str> {
    SAMPLE
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

fn saikoro_positions() -> Vec<saikoro_core::Position> {
    sfens()
        .iter()
        .map(|s| saikoro_core::Position::from_sfen(s).unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect()
}

fn shunsai_positions() -> Vec<shunsai::Position> {
    sfens()
        .iter()
        .map(|s| {
            let p = PartialPosition::from_usi(&format!("sfen {s}"))
                .unwrap_or_else(|e| panic!("shogi_usi_parser rejects {s:?}: {e:?}"));
            shunsai::Position::new(p)
        })
        .collect()
}

/// One pass of saikoro over the sample: the total number of moves listed.
fn pass_saikoro(positions: &[saikoro_core::Position], list: &mut saikoro_core::MoveList) -> usize {
    let mut total = 0;
    for p in positions {
        p.generate_legal(list);
        total += black_box(&*list).len();
    }
    total
}

/// One pass of shunsai over the sample.
fn pass_shunsai(positions: &[shunsai::Position], list: &mut Vec<shogi_core::Move>) -> usize {
    let mut total = 0;
    for p in positions {
        list.clear();
        let _ = p.generate_moves(|set| {
            set.write_into(list);
            ControlFlow::Continue(())
        });
        total += black_box(&*list).len();
    }
    total
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

/// `--one ENGINE PASSES`: one generator alone over the positions, for a profiler or an outside
/// timer (it prints only the moves counted).
fn one(args: &[String], engine: &str) {
    let passes: usize = args
        .iter()
        .skip_while(|a| *a != "--one")
        .nth(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or(100);
    let mut total = 0;
    match engine {
        "saikoro" => {
            let positions = saikoro_positions();
            let mut list = saikoro_core::MoveList::new();
            for _ in 0..passes {
                total += pass_saikoro(&positions, &mut list);
            }
        }
        "shunsai" => {
            let positions = shunsai_positions();
            let mut list = Vec::with_capacity(600);
            for _ in 0..passes {
                total += pass_shunsai(&positions, &mut list);
            }
        }
        _ => panic!("--one saikoro|shunsai <passes>"),
    }
    println!("moves: {total}");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(engine) = flag(&args, "--one") {
        one(&args, &engine);
        return;
    }
    let passes: usize = flag(&args, "--passes")
        .and_then(|n| n.parse().ok())
        .unwrap_or(21)
        .max(1);
    let ours = saikoro_positions();
    let theirs = shunsai_positions();
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        let n = a.legal_moves().len();
        let mut m = Vec::new();
        let _ = b.generate_moves(|set| {
            set.write_into(&mut m);
            ControlFlow::Continue(())
        });
        assert_eq!(n, m.len(), "position {} ({a}): move counts differ", i + 1);
    }
    let in_check = ours.iter().filter(|p| p.in_check()).count();
    let in_hand: u32 = ours
        .iter()
        .map(|p| {
            p.hand(saikoro_core::Color::Black).total() + p.hand(saikoro_core::Color::White).total()
        })
        .sum();
    let (mut list_s, mut list_b) = (saikoro_core::MoveList::new(), Vec::with_capacity(600));
    let moves = pass_saikoro(&ours, &mut list_s);
    let (mut ts, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..passes {
        let t = Instant::now();
        assert_eq!(pass_saikoro(&ours, &mut list_s), moves);
        ts.push(t.elapsed());
        let t = Instant::now();
        assert_eq!(pass_shunsai(&theirs, &mut list_b), moves);
        tb.push(t.elapsed());
    }
    let n = ours.len() as f64;
    let (ms, mb) = (median(ts), median(tb));
    println!(
        "{} positions from random games: {:.1} legal moves on average, {:.1} pieces in hand, \
         {in_check} in check; {passes} passes per engine, median pass",
        ours.len(),
        moves as f64 / n,
        f64::from(in_hand) / n,
    );
    println!();
    println!("| engine | ns per list | lists/s |");
    println!("|---|---:|---:|");
    for (name, t) in [("saikoro", ms), ("shunsai", mb)] {
        println!(
            "| {name} | {:.0} | {:.0} |",
            t.as_secs_f64() * 1e9 / n,
            n / t.as_secs_f64()
        );
    }
    println!();
    println!(
        "ratio saikoro/shunsai (time): {:.2} (target <= 1.00)",
        ms.as_secs_f64() / mb.as_secs_f64()
    );
}
