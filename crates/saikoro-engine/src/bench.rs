//! `bench` (and `saikoro bench`): a fixed workload of the engine's own work, for the test
//! farms' workers, which run it to register an engine: its node count is the engine's
//! signature (the same on every run and machine) and its speed scales their clocks.
//!
//! Two parts: perft of positions whose counts are published (positions/perft.txt names the
//! sources; a count that differs is reported), then random games played by a session of this
//! engine through its own commands (`usinewgame`, the whole game resent as `position startpos
//! moves ...`, `go`), one seeded stream for the whole series. The nodes are the perft leaves
//! plus the plies played.

use super::{send, Engine, Flow};
use saikoro_core::{divide_until, Game, Move, Position};
use saikoro_usi::PositionLine;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The perft part: name, SFEN, depth and the published count.
const PERFTS: [(&str, &str, u32, u64); 5] = [
    (
        "startpos",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        5,
        19_861_490,
    ),
    (
        "matsuri",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        3,
        4_809_015,
    ),
    (
        "max-moves",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        3,
        53_393_368,
    ),
    (
        "pin-checker",
        "ln3gsn1/7kl/3+B1p1p1/p4s2p/2P6/P2B3PP/1PNP+rPP2/2G3SK1/L4G1NL b G3Prs3p 65",
        3,
        1_183_354,
    ),
    (
        "habu-kato",
        "ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62",
        3,
        864_786,
    ),
];

/// The games part: how many, the `Seed` of the session that plays them, the ply cap.
pub const BENCH_GAMES: u32 = 100;
/// The `Seed` of the session that plays the bench's games.
pub const BENCH_SEED: u64 = 1;
const MAX_PLIES: usize = 1000;

/// What a bench did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Perft leaves plus plies played.
    pub nodes: u64,
    /// Milliseconds in all.
    pub millis: u64,
    /// False when `stop` ended it early.
    pub complete: bool,
}

/// Runs the bench, printing a line per part to `out` and, when it ran to the end, the lines
/// the farms read last: `Nodes searched: N` and `Nodes/second: N`. `stop` ends it between two
/// steps, with a partial count and no such lines.
pub fn run_bench(stop: &AtomicBool, out: &mut dyn Write) -> io::Result<BenchReport> {
    let started = Instant::now();
    let mut nodes = 0;
    for (name, sfen, depth, published) in PERFTS {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let t = Instant::now();
        let Ok(mut pos) = Position::from_sfen(sfen) else {
            unreachable!("the bench's SFEN {sfen} is valid")
        };
        let divide = divide_until(&mut pos, depth, stop);
        if !divide.is_complete() {
            break;
        }
        let n = divide.total();
        nodes += n;
        let ms = t.elapsed().as_millis();
        send(
            out,
            &format!("bench: perft {name} depth {depth}: {n} (published {published}), {ms} ms"),
        )?;
        if n != published {
            send(out, &format!("info string bench: perft {name} depth {depth} counted {n}, but the published count is {published}: a bug, please report it"))?;
        }
    }
    let t = Instant::now();
    let (games, plies) = play_games(stop)?;
    nodes += plies;
    send(out, &format!("bench: {games} random games (Seed {BENCH_SEED}) through position and go: {plies} plies, {} ms", t.elapsed().as_millis()))?;
    let millis = started.elapsed().as_millis() as u64;
    let complete = !stop.load(Ordering::Relaxed);
    if complete {
        let nps = nodes * 1000 / millis.max(1);
        send(out, "===========================")?;
        send(out, &format!("Total time (ms) : {millis}"))?;
        send(out, &format!("Nodes searched: {nodes}"))?;
        send(out, &format!("Nodes/second: {nps}"))?;
    } else {
        send(out, &format!("info string bench stopped by stop: {nodes} nodes counted so far (a partial count) time {millis}"))?;
    }
    Ok(BenchReport {
        nodes,
        millis,
        complete,
    })
}

/// Plays the bench's games with a fresh engine session; returns the games and plies played.
fn play_games(stop: &AtomicBool) -> io::Result<(u32, u64)> {
    let mut engine = Engine::new();
    let mut sink = Vec::new();
    engine.handle_line(
        &format!("setoption name Seed value {BENCH_SEED}"),
        &mut sink,
    )?;
    let mut plies = 0;
    for game_index in 0..BENCH_GAMES {
        if stop.load(Ordering::Relaxed) {
            return Ok((game_index, plies));
        }
        engine.handle_line("usinewgame", &mut sink)?;
        let mut referee = Game::new(Position::startpos());
        let mut line = PositionLine::new(referee.start());
        while referee.len() < MAX_PLIES && referee.outcome().is_none() {
            sink.clear();
            engine.handle_line(line.as_str(), &mut sink)?;
            let flow = engine.handle_line("go btime 0 wtime 0 byoyomi 0", &mut sink)?;
            debug_assert_eq!(flow, Flow::Continue);
            plies += 1;
            let Some(mv) = bestmove(&sink) else { break };
            if referee.try_play(mv).is_err() {
                unreachable!("the engine played an illegal move {mv}");
            }
            line.push(mv);
        }
    }
    Ok((BENCH_GAMES, plies))
}

/// The move of the last `bestmove` line in `out`; `None` for `resign` and `win`.
fn bestmove(out: &[u8]) -> Option<Move> {
    let text = std::str::from_utf8(out).ok()?;
    let last = text.lines().rev().find(|l| l.starts_with("bestmove "))?;
    Move::from_usi(last.strip_prefix("bestmove ")?).ok()
}
