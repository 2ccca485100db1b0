//! go→bestmove latency through the pipe over one long game, as a GUI drives the engine: every
//! turn resends the whole game (`position startpos moves ...`) and a timed `go`.
//!
//! ```text
//! cargo build --release && cargo run --release --example usi_latency -- [--plies 4000] [--seed 409] [--bin PATH]
//! ```
//!
//! One engine process plays both sides with `Seed` 409 and `EnteringKingRule NoEnteringKing`,
//! which (with this version's move order) gives a game of more than 10,000 plies; if the game
//! ends earlier, a new one starts. Prints median, p90, p99 and max latency, per ply range too,
//! and, for comparison, what replaying the whole game from scratch costs in-process.
use saikoro::{Game, Move, Position};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let mut plies = 4000usize;
    let mut seed = 409u64;
    let mut bin = concat!(env!("CARGO_MANIFEST_DIR"), "/target/release/saikoro").to_string();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v = args.next().expect("option value");
        match a.as_str() {
            "--plies" => plies = v.parse().expect("--plies N"),
            "--seed" => seed = v.parse().expect("--seed N"),
            "--bin" => bin = v,
            _ => panic!("unknown option {a}"),
        }
    }
    let mut child = Command::new(&bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {bin}: {e} (cargo build --release first)"));
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
    writeln!(to, "usi").unwrap();
    read_until("usiok", &mut line);
    writeln!(
        to,
        "setoption name Seed value {seed}\nsetoption name EnteringKingRule value NoEnteringKing\nisready"
    )
    .unwrap();
    read_until("readyok", &mut line);

    let mut game = Game::new(Position::startpos());
    let mut history = String::from("position startpos moves");
    let mut lat: Vec<Duration> = Vec::with_capacity(plies);
    let mut games = 1;
    writeln!(to, "usinewgame").unwrap();
    while lat.len() < plies {
        let t = Instant::now();
        writeln!(to, "{history}\ngo btime 0 wtime 0 byoyomi 1000").unwrap();
        to.flush().unwrap();
        read_until("bestmove ", &mut line);
        lat.push(t.elapsed());
        let text = line
            .trim_end()
            .strip_prefix("bestmove ")
            .unwrap()
            .to_string();
        match Move::from_usi(&text) {
            Ok(m) => {
                game.try_play(m)
                    .unwrap_or_else(|e| panic!("illegal bestmove {text}: {e}"));
                history.push(' ');
                history.push_str(&text);
            }
            Err(_) => {
                // resign or win: start another game.
                games += 1;
                game = Game::new(Position::startpos());
                history = String::from("position startpos moves");
                writeln!(to, "usinewgame").unwrap();
            }
        }
    }
    writeln!(to, "quit").unwrap();
    child.wait().unwrap();

    let stats = |v: &[Duration]| {
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
    };
    println!("engine {bin}");
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!(
            "load average {} (latency spikes track other processes on the machine)",
            load.trim()
        );
    }
    println!(
        "{plies} go commands, {games} game(s), last game {} plies, final position line {} bytes",
        game.len(),
        history.len()
    );
    println!("all plies      {}", stats(&lat));
    let step = (plies / 4).max(1);
    for (i, chunk) in lat.chunks(step).enumerate() {
        println!(
            "plies {:5}-{:<5} {}",
            i * step + 1,
            i * step + chunk.len(),
            stats(chunk)
        );
    }
    // For comparison: replaying the final game from scratch, as an engine without the cache
    // would on every turn.
    let moves: Vec<Move> = game.moves().collect();
    let t = Instant::now();
    let mut g = Game::new(Position::startpos());
    for &m in &moves {
        g.try_play(m).unwrap();
    }
    println!(
        "full replay of the final {}-ply game in-process: {:.3} ms (the cost per turn without the cache)",
        moves.len(),
        t.elapsed().as_secs_f64() * 1e3
    );
}
