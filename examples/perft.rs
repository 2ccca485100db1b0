//! perft of a position with the library's own call, timed in-process:
//!
//! ```text
//! cargo run --release --example perft -- startpos [moves M1 M2 ...] DEPTH
//! cargo run --release --example perft -- sfen BOARD SIDE HANDS [PLY] [moves M1 M2 ...] DEPTH
//! cargo run --release --example perft -- "BOARD SIDE HANDS [PLY]" DEPTH
//! ```
//!
//! The position is written as after USI's `position` (the `sfen` keyword may be left out, the
//! SFEN may be one argument or several); the last argument is the depth. Prints
//! `perft(DEPTH) = NODES  SECONDS s  NODES/S nodes/s`. Bad arguments, an SFEN that is not a
//! position, or an illegal move: a message on stderr and exit status 2.
use saikoro_core::{KingRule, Position};
use saikoro_usi::{parse_line, Command, Start};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str =
    "usage: perft startpos|sfen <SFEN>|\"<SFEN>\" [moves <move>...] <depth>  (e.g. perft startpos moves 7g7f 4)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("perft: {e}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let Some((depth, position)) = args.split_last() else {
        return Err("no position and depth given".to_string());
    };
    let depth: u32 = depth
        .parse()
        .map_err(|_| format!("the last argument, '{depth}', is not a depth (0, 1, 2, ...)"))?;
    if position.is_empty() {
        return Err("no position given before the depth".to_string());
    }
    let mut pos = position_of(&position.join(" "))?;
    let t = Instant::now();
    let n = saikoro_core::perft(&mut pos, depth);
    let s = t.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {n}  {s:.3} s  {:.0} nodes/s",
        n as f64 / s.max(1e-9)
    );
    Ok(())
}

/// The position `text` (what follows `position` in USI) sets, its moves played.
fn position_of(text: &str) -> Result<Position, String> {
    let p = match parse_line(&format!("position {text}")) {
        Ok(Command::Position(p)) => p,
        Ok(other) => unreachable!("a position line parsed as {other:?}"),
        Err(e) => return Err(e.to_string()),
    };
    let mut pos = match &p.start {
        Start::Startpos => Position::startpos(),
        Start::Sfen(setup) => Position::from_setup(setup, KingRule::Optional)
            .map_err(|e| format!("not a position: {e}"))?,
    };
    for (i, &mv) in p.moves.iter().enumerate() {
        pos.is_legal(mv)
            .map_err(|e| format!("move {} '{mv}' is illegal: {e}", i + 1))?;
        pos = pos.play(mv);
    }
    Ok(pos)
}
