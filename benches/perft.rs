//! Speed benchmark: saikoro's mailbox generator against `shunsai` (bitboards), side by side.
//!
//! Two parts, both run for each engine in the same process:
//!
//! 1. perft with bulk counting at the last ply, on the start position (depths 5 and 6), matsuri
//!    (depth 4) and the 593-move position (depth 3). Both node counts are checked against the
//!    published figures; the bench panics if either engine disagrees.
//! 2. random games per second: from the start position, a uniformly random legal move each ply
//!    until the side to move has none, the same position has occurred four times, or 4,000
//!    plies have been played.
//!
//! Run: `cargo bench --bench perft` (a few minutes), or `cargo bench --bench perft -- --quick`
//! (smaller depths and fewer games, a few seconds; also `SAIKORO_BENCH_QUICK=1`). Every figure is
//! the best of `SAIKORO_BENCH_RUNS` timed passes (default 3). Plain `std::time::Instant`, no
//! benchmark framework.

use std::collections::HashMap;
use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use shogi_usi_parser::FromUsi;
use shunsai::shogi_core::{self, PartialPosition};

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

/// Game length cap of the random games.
const MAX_PLIES: u32 = 4_000;
/// Random games per engine (full / quick).
const GAMES_FULL: u32 = 1_000;
const GAMES_QUICK: u32 = 50;
const SEED: u64 = 0x5A1C_0B0E_2024_0001;

// ---------------------------------------------------------------------------------------------
// perft

/// saikoro: the library's own perft, which bulk-counts the last ply with `count_legal`.
fn perft_saikoro(sfen: &str, depth: u32) -> u64 {
    let mut pos = saikoro::Position::from_sfen(sfen).expect("saikoro rejects a bench SFEN");
    saikoro::perft(&mut pos, depth)
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
// random games

/// SplitMix64: small, fast, and fixed-seed reproducible.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` ≥ 1), without modulo bias (Lemire's multiply-and-reject).
    fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }
}

/// How a random game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// The side to move had no legal move (it is mated; shogi has no stalemate draw).
    NoMove,
    /// The same position (board, hands, side to move) occurred for the fourth time (千日手).
    Repetition,
    /// The ply cap was reached.
    Cap,
    /// A winning entering-king declaration (library loop only).
    Declaration,
}

#[derive(Clone, Copy, Debug)]
struct Game {
    plies: u32,
    end: End,
}

/// Scratch space reused across games, so that no game pays for allocation.
struct Scratch<L> {
    moves: L,
    seen: HashMap<u64, u8>,
}

/// Records the position key; true on its fourth occurrence.
fn fourth_occurrence(seen: &mut HashMap<u64, u8>, key: u64) -> bool {
    let n = seen.entry(key).or_insert(0);
    *n += 1;
    *n >= 4
}

/// One random game with saikoro, the same procedure as [`game_shunsai`]. The library's own
/// `selfplay::play_game` is timed beside it; it also tests perpetual check and declarations,
/// so it is a different workload.
fn game_saikoro(rng: &mut Rng, s: &mut Scratch<saikoro::MoveList>) -> Game {
    let mut pos = saikoro::Position::startpos();
    s.seen.clear();
    let mut plies = 0;
    let end = loop {
        if fourth_occurrence(&mut s.seen, pos.key()) {
            break End::Repetition;
        }
        if plies == MAX_PLIES {
            break End::Cap;
        }
        pos.generate_legal(&mut s.moves);
        if s.moves.is_empty() {
            break End::NoMove;
        }
        let m = s.moves[rng.below(s.moves.len() as u64) as usize];
        pos.do_move(m);
        plies += 1;
    };
    Game { plies, end }
}

/// One random game with shunsai, move for move the same procedure as [`game_saikoro`]. The
/// move buffer is filled with `generate_moves` + `MoveSet::write_into` (what shunsai's
/// `legal_moves` does, without its per-call allocation); the key is shunsai's Zobrist `key()`,
/// which covers board, hands and side to move.
fn game_shunsai(rng: &mut Rng, s: &mut Scratch<Vec<shogi_core::Move>>) -> Game {
    let mut pos = shunsai::Position::startpos();
    s.seen.clear();
    let mut plies = 0;
    let end = loop {
        if fourth_occurrence(&mut s.seen, pos.key()) {
            break End::Repetition;
        }
        if plies == MAX_PLIES {
            break End::Cap;
        }
        s.moves.clear();
        let _ = pos.generate_moves(|set| {
            set.write_into(&mut s.moves);
            ControlFlow::Continue(())
        });
        if s.moves.is_empty() {
            break End::NoMove;
        }
        let m = s.moves[rng.below(s.moves.len() as u64) as usize];
        pos.do_move(m);
        plies += 1;
    };
    Game { plies, end }
}

/// One random game through the library's own self-play loop (`saikoro::selfplay::play_game`,
/// the code behind `saikoro selfplay`): the engine's `RandomMover` (Xoshiro256++, moves drawn
/// from the canonically ordered list), a `Game` with its history, perpetual-check and
/// entering-king (CSA 27-point, the default) tests. It does more per ply than the bench loops
/// above, so it is reported beside them rather than compared with shunsai.
fn game_saikoro_library(player: &mut saikoro::RandomMover) -> Game {
    let start = saikoro::Position::startpos();
    let (game, outcome) = saikoro::selfplay::play_game(
        player,
        &start,
        MAX_PLIES,
        saikoro::EnteringKingRule::default(),
    );
    let end = match outcome {
        saikoro::Outcome::Checkmate { .. } => End::NoMove,
        saikoro::Outcome::MaxMoves => End::Cap,
        saikoro::Outcome::Declaration { .. } => End::Declaration,
        // Perpetual check is a fourfold repetition too.
        saikoro::Outcome::Repetition | saikoro::Outcome::PerpetualCheck { .. } => End::Repetition,
    };
    Game {
        plies: game.len() as u32,
        end,
    }
}

struct GamesReport {
    elapsed: Duration,
    games: u32,
    plies: u64,
    /// Sum of squared game lengths, for the spread of the mean.
    plies_sq: f64,
    /// Games ended by: no legal move, fourfold repetition, ply cap, declaration.
    ends: [u32; 4],
}

impl GamesReport {
    fn games_per_sec(&self) -> f64 {
        f64::from(self.games) / self.elapsed.as_secs_f64()
    }

    fn mean_plies(&self) -> f64 {
        self.plies as f64 / f64::from(self.games)
    }

    /// Standard error of [`GamesReport::mean_plies`]. Both engines play uniformly random
    /// games under the same rules, so their means must agree within a few of these; a larger
    /// gap points at a rules difference (and makes games/s incomparable).
    fn mean_plies_error(&self) -> f64 {
        let n = f64::from(self.games);
        let mean = self.mean_plies();
        let var = (self.plies_sq / n - mean * mean).max(0.0) * n / (n - 1.0).max(1.0);
        (var / n).sqrt()
    }
}

/// Plays `games` games from the fixed seed and times them.
fn games_pass<S>(
    games: u32,
    scratch: &mut S,
    mut play: impl FnMut(&mut Rng, &mut S) -> Game,
) -> GamesReport {
    let mut rng = Rng(SEED);
    let mut report = GamesReport {
        elapsed: Duration::ZERO,
        games,
        plies: 0,
        plies_sq: 0.0,
        ends: [0; 4],
    };
    let t = Instant::now();
    for _ in 0..games {
        let g = black_box(play(&mut rng, scratch));
        report.plies += u64::from(g.plies);
        report.plies_sq += f64::from(g.plies) * f64::from(g.plies);
        report.ends[g.end as usize] += 1;
    }
    report.elapsed = t.elapsed();
    report
}

/// Keeps the faster of two passes over the same (deterministic) games.
fn keep_best(best: &mut Option<GamesReport>, pass: GamesReport) {
    if let Some(b) = best {
        assert_eq!(b.plies, pass.plies, "random games are not reproducible");
    }
    if best.as_ref().is_none_or(|b| pass.elapsed < b.elapsed) {
        *best = Some(pass);
    }
}

// ---------------------------------------------------------------------------------------------

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    // `cargo bench` passes `--bench`; anything else but `--quick` is ignored too, so that the
    // usual harness arguments do no harm.
    let quick = std::env::args().any(|a| a == "--quick")
        || std::env::var_os("SAIKORO_BENCH_QUICK").is_some_and(|v| v != "0" && !v.is_empty());
    let runs: u32 = std::env::var("SAIKORO_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(3);
    let (table, games) = if quick {
        (QUICK, GAMES_QUICK)
    } else {
        (FULL, GAMES_FULL)
    };
    println!(
        "saikoro vs shunsai {} ({} mode, best of {runs} per perft entry)",
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
    println!("worst perft ratio saikoro/shunsai: {worst:.2} (target ≤ 1.50)");
    println!();

    // Same games (same seed) every pass, engines alternating; the best pass of each is kept.
    let mut scratch_s = Scratch {
        moves: saikoro::MoveList::new(),
        seen: HashMap::with_capacity(MAX_PLIES as usize + 1),
    };
    let mut scratch_b = Scratch {
        moves: Vec::with_capacity(600),
        seen: HashMap::with_capacity(MAX_PLIES as usize + 1),
    };
    let (mut rs, mut rb, mut rl) = (None, None, None);
    for _ in 0..runs {
        keep_best(&mut rs, games_pass(games, &mut scratch_s, game_saikoro));
        keep_best(&mut rb, games_pass(games, &mut scratch_b, game_shunsai));
        // The library's player has its own generator: seeded from SEED, not driven by `Rng`.
        let mut player = saikoro::RandomMover::new(SEED);
        keep_best(
            &mut rl,
            games_pass(games, &mut player, |_, p| game_saikoro_library(p)),
        );
    }
    let (rs, rb, rl) = (
        rs.expect("runs > 0"),
        rb.expect("runs > 0"),
        rl.expect("runs > 0"),
    );
    println!(
        "random games from startpos (cap {MAX_PLIES} plies, fourfold repetition ends a game), \
         {games} games each, best of {runs} passes"
    );
    println!();
    println!(
        "| engine | games/s | plies/s | mean plies (± s.e.) | mated | repetition | cap | declared | total ms |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (engine, r) in [
        ("saikoro", &rs),
        ("shunsai", &rb),
        ("saikoro selfplay::play_game", &rl),
    ] {
        println!(
            "| {engine} | {:.0} | {:.0} | {:.1} ± {:.1} | {} | {} | {} | {} | {:.1} |",
            r.games_per_sec(),
            r.plies as f64 / r.elapsed.as_secs_f64(),
            r.mean_plies(),
            r.mean_plies_error(),
            r.ends[0],
            r.ends[1],
            r.ends[2],
            r.ends[3],
            ms(r.elapsed),
        );
    }
    println!();
    println!(
        "saikoro games/s: {:.0} (target ≥ 1300); shunsai/saikoro: {:.2}; \
         library loop: {:.0} games/s",
        rs.games_per_sec(),
        rb.games_per_sec() / rs.games_per_sec(),
        rl.games_per_sec(),
    );
}
