//! go→bestmove latency through the pipe over long games, as a GUI drives the engine: every
//! turn resends the whole game (`position startpos moves ...`) and a timed `go`, in one write.
//!
//! ```text
//! cargo build --release && cargo run --release --example usi_latency -- [--plies 4000] [--seed 409] [--bin PATH]
//! ```
//!
//! One engine process plays both sides of games with `Seed` 409 (the games of a session are one
//! random stream: the n-th game after the seed is set is always the same) and
//! `EnteringKingRule NoEnteringKing`. When a game ends (a `bestmove` that is no move, mate or a
//! fourfold repetition), `usinewgame` and a new game start; the lengths of the games are
//! printed, so a reader sees whether the last ply range was reached within one game.
//!
//! Prints median, p90, p99 and max latency over all turns and per 1,000 plies of a game; then,
//! from getrusage(RUSAGE_CHILDREN) after the engine has exited, its voluntary context switches
//! and CPU time per `go` (everything the process did, start-up included, divided by the
//! number of `go` commands).
use saikoro_core::{Game, Move, Position};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

const RANGE: usize = 1000;

struct Args {
    plies: usize,
    seed: u64,
    bin: String,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        plies: 4000,
        seed: 409,
        bin: concat!(env!("CARGO_MANIFEST_DIR"), "/target/release/saikoro").to_string(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let v = args.next().ok_or(format!("{flag} needs a value"))?;
        let bad = |what: &str| format!("{flag} {v}: expected {what}");
        match flag.as_str() {
            "--plies" => a.plies = v.parse().map_err(|_| bad("a number of go commands"))?,
            "--seed" => a.seed = v.parse().map_err(|_| bad("a seed, 1 to 2147483647"))?,
            "--bin" => a.bin = v,
            _ => {
                return Err(format!(
                    "unknown option {flag} (--plies N, --seed N, --bin PATH)"
                ))
            }
        }
    }
    Ok(a)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("usi_latency: {e}");
            return ExitCode::from(2);
        }
    };
    let run = play(&args);
    report(&args, &run);
    ExitCode::SUCCESS
}

/// What a run measured.
struct Run {
    /// go→bestmove of each turn, and the ply of its game (0 for the first move).
    lat: Vec<(usize, Duration)>,
    games: Vec<usize>,
    final_line: usize,
    last_game: Vec<Move>,
}

fn play(args: &Args) -> Run {
    let mut child = Command::new(&args.bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot start {}: {e} (cargo build --release first)",
                args.bin
            )
        });
    let mut to = child.stdin.take().unwrap();
    let mut from = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let mut read_until = |prefix: &str, line: &mut String| loop {
        line.clear();
        if from.read_line(line).unwrap() == 0 {
            panic!("engine closed stdout");
        }
        if line.starts_with(prefix) {
            return;
        }
    };
    let seed = args.seed;
    to.write_all(b"usi\n").unwrap();
    read_until("usiok", &mut line);
    let setup = format!("setoption name Seed value {seed}\nsetoption name EnteringKingRule value NoEnteringKing\nisready\n");
    to.write_all(setup.as_bytes()).unwrap();
    read_until("readyok", &mut line);

    let mut game = Game::new(Position::startpos());
    let mut history = String::from("position startpos moves");
    let mut run = Run {
        lat: Vec::with_capacity(args.plies),
        games: Vec::new(),
        final_line: 0,
        last_game: Vec::new(),
    };
    let mut turn = String::new();
    to.write_all(b"usinewgame\n").unwrap();
    while run.lat.len() < args.plies {
        turn.clear();
        turn.push_str(&history);
        turn.push_str("\ngo btime 0 wtime 0 byoyomi 1000\n");
        let t = Instant::now();
        to.write_all(turn.as_bytes()).unwrap();
        read_until("bestmove ", &mut line);
        run.lat.push((game.len(), t.elapsed()));
        let text = line.trim_end().strip_prefix("bestmove ").unwrap();
        let over = match Move::from_usi(text) {
            Ok(m) => {
                game.try_play(m)
                    .unwrap_or_else(|e| panic!("illegal bestmove {text}: {e}"));
                history.push(' ');
                history.push_str(text);
                game.outcome().is_some()
            }
            Err(_) => true, // resign or win
        };
        run.final_line = history.len();
        if over {
            run.games.push(game.len());
            game = Game::new(Position::startpos());
            history = String::from("position startpos moves");
            to.write_all(b"usinewgame\n").unwrap();
        }
    }
    run.games.push(game.len());
    run.last_game = game.moves().collect();
    to.write_all(b"quit\n").unwrap();
    child.wait().unwrap();
    run
}

fn p99(v: &[Duration]) -> f64 {
    let mut s: Vec<f64> = v.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    s.sort_by(f64::total_cmp);
    s[((s.len() - 1) as f64 * 0.99).round() as usize]
}

fn stats(v: &[Duration]) -> String {
    let mut s: Vec<f64> = v.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    s.sort_by(f64::total_cmp);
    let q = |p: f64| s[((s.len() - 1) as f64 * p).round() as usize];
    format!(
        "n {:5}  median {:.3} ms  p90 {:.3} ms  p99 {:.3} ms  max {:.3} ms",
        s.len(),
        q(0.5),
        q(0.9),
        q(0.99),
        s[s.len() - 1]
    )
}

fn report(args: &Args, run: &Run) {
    println!("engine {}", args.bin);
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!(
            "load average {} (latency spikes track other processes on the machine)",
            load.trim()
        );
    }
    let gos = run.lat.len();
    println!(
        "{gos} go commands, {} game(s) of {:?} plies, longest position line {} bytes",
        run.games.len(),
        run.games,
        run.final_line
    );
    let all: Vec<Duration> = run.lat.iter().map(|&(_, d)| d).collect();
    println!("all turns         {}", stats(&all));
    let longest = run.lat.iter().map(|&(p, _)| p).max().unwrap_or(0);
    let mut p99s = Vec::new();
    for from in (0..=longest).step_by(RANGE) {
        let range: Vec<Duration> = run
            .lat
            .iter()
            .filter(|&&(p, _)| (from..from + RANGE).contains(&p))
            .map(|&(_, d)| d)
            .collect();
        println!("plies {:5}-{:<5} {}", from + 1, from + RANGE, stats(&range));
        p99s.push(format!("{:.3}", p99(&range)));
    }
    println!("p99 per 1,000 plies (ms): {}", p99s.join(" / "));
    child_usage(gos);
    // For comparison: replaying the last game from scratch, as an engine without reuse would
    // on every turn.
    let t = Instant::now();
    let mut g = Game::new(Position::startpos());
    for &m in &run.last_game {
        g.try_play(m).unwrap();
    }
    println!(
        "full replay of the last {}-ply game in-process: {:.3} ms",
        run.last_game.len(),
        t.elapsed().as_secs_f64() * 1e3
    );
}

/// The engine's voluntary context switches and CPU per `go`, from the exited child's usage.
#[cfg(unix)]
fn child_usage(gos: usize) {
    use nix::sys::resource::{getrusage, UsageWho};
    let Ok(u) = getrusage(UsageWho::RUSAGE_CHILDREN) else {
        println!("getrusage(RUSAGE_CHILDREN) failed: no usage figures");
        return;
    };
    let us = |t: nix::sys::time::TimeVal| t.tv_sec() as f64 * 1e6 + t.tv_usec() as f64;
    let (user, sys) = (us(u.user_time()), us(u.system_time()));
    let n = gos.max(1) as f64;
    let (vol, invol) = (
        u.voluntary_context_switches(),
        u.involuntary_context_switches(),
    );
    println!(
        "engine: context switches per go {:.2} voluntary + {:.2} involuntary ({vol} + {invol}); CPU {:.1} us per go ({:.1} user + {:.1} system)",
        vol as f64 / n,
        invol as f64 / n,
        (user + sys) / n,
        user / n,
        sys / n
    );
}

#[cfg(not(unix))]
fn child_usage(_gos: usize) {
    println!("(the engine's context switches and CPU are read with getrusage, on Unix only)");
}
