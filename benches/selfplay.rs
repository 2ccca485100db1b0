//! The shipped command against a bitboard generator: plies per second of
//! `saikoro selfplay --games N --entering-king-rule NoEnteringKing` (the release binary, with
//! its repetition, perpetual-check and declaration tests) beside shunsai's own legal-move
//! generator playing uniformly random games from the start position to mate or 4,000 plies
//! (generate the legal list, pick one move, make it; nothing else).
//!
//! Each side runs in its own process and is timed from outside, start-up included: saikoro as
//! the real binary, shunsai as this bench binary started again with `--shunsai-games N`. The two
//! alternate (A B A B ...) so that a change in the machine's load hits both alike, and the
//! ratio is taken pair by pair; the median is printed.
//!
//! Run: `cargo bench --bench selfplay` (1,000 games, 5 pairs), or
//! `cargo bench --bench selfplay -- --games 200 --runs 3`.

use saikoro_core::SplitMix64;
use std::ops::ControlFlow;
use std::process::Command;
use std::time::Instant;

const MAX_PLIES: u32 = 4_000;
const SEED: u64 = 1;

/// shunsai: random games, the legal list generated and one move drawn at every ply; returns
/// the total number of plies.
fn shunsai_games(games: u64, seed: u64) -> u64 {
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::with_capacity(600);
    let mut total = 0;
    for _ in 0..games {
        let mut pos = shunsai::Position::startpos();
        let mut plies = 0;
        while plies < MAX_PLIES {
            moves.clear();
            let _ = pos.generate_moves(|set| {
                set.write_into(&mut moves);
                ControlFlow::Continue(())
            });
            if moves.is_empty() {
                break;
            }
            pos.do_move(moves[rng.below(moves.len() as u64) as usize]);
            plies += 1;
        }
        total += u64::from(plies);
    }
    total
}

/// Runs `cmd`, returns its wall time in seconds and the number after `key` in its output.
fn timed(cmd: &mut Command, key: &str) -> (f64, u64) {
    let t = Instant::now();
    let out = cmd.output().expect("cannot start a bench child");
    let secs = t.elapsed().as_secs_f64();
    assert!(out.status.success(), "{cmd:?} failed: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let n = text
        .split_once(key)
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .and_then(|w| w.trim_end_matches(',').parse().ok())
        .unwrap_or_else(|| panic!("no '{key}' in the output of {cmd:?}:\n{text}"));
    (secs, n)
}

fn flag(args: &[String], name: &str) -> Option<u64> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(games) = flag(&args, "--shunsai-games") {
        let seed = flag(&args, "--seed").unwrap_or(SEED);
        println!("plies: {}", shunsai_games(games, seed));
        return;
    }
    let games = flag(&args, "--games").unwrap_or(1000);
    let runs = flag(&args, "--runs").unwrap_or(5).max(1);
    let games_text = games.to_string();
    let seed_text = SEED.to_string();
    let mut saikoro = Command::new(env!("CARGO_BIN_EXE_saikoro"));
    saikoro.args([
        "selfplay",
        "--games",
        &games_text,
        "--entering-king-rule",
        "NoEnteringKing",
        "--seed",
        &seed_text,
    ]);
    let mut shunsai = Command::new(std::env::current_exe().expect("own path"));
    shunsai.args(["--shunsai-games", &games_text, "--seed", &seed_text]);

    println!("{games} random games from the start position, {runs} pairs, whole processes timed");
    println!();
    println!("| pair | saikoro selfplay plies/s | shunsai plies/s | ratio |");
    println!("|---:|---:|---:|---:|");
    let (mut a, mut b, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..runs {
        let (ta, pa) = timed(&mut saikoro, " total ");
        let (tb, pb) = timed(&mut shunsai, "plies: ");
        let (ra, rb) = (pa as f64 / ta, pb as f64 / tb);
        println!(
            "| {} | {ra:.0} ({pa} plies) | {rb:.0} ({pb} plies) | {:.2} |",
            i + 1,
            ra / rb
        );
        a.push(ra);
        b.push(rb);
        ratios.push(ra / rb);
    }
    println!();
    println!(
        "median: saikoro selfplay {:.0} plies/s, shunsai {:.0} plies/s, ratio {:.2} \
         (target >= 1.50)",
        median(a),
        median(b),
        median(ratios)
    );
}
