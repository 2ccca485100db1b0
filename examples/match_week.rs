//! A week of a test farm in a few minutes: `saikoro match` left to 100,000 very short games
//! (two Saikoros, `--maxplies 4`), with everything a farm turns on: an SPRT asked after every
//! game, the statistics block every 10 games (the default `--ratinginterval`), the results
//! file, the PGN file and the saved state. It prints, for each block of games (a thousand by
//! default), the runner's CPU time per game in that block, and its resident memory and open
//! file descriptors at the block's end; then the first blocks against the last. A runner whose
//! work per game grows with the games played (a statistic recounted from every game, a file
//! rewritten whole) shows it as a rising column.
//!
//! ```sh
//! cargo build --release --bins --examples
//! target/release/examples/match_week --games 100000
//! ```
//!
//! `--block N` sets the block, `--concurrency N` the games at once [1], `--saikoro PATH` the
//! build to measure (another build's binary, to compare; the engines are always this one's
//! `saikoro`). The match plays one block more than `--games`, unmeasured, so that the last
//! block measured does not race the runner's exit. `--callgrind` runs the runner under
//! `valgrind --tool=callgrind` (the engines natively) and adds its instructions per game,
//! which the machine's load does not change (dumped at the end of each block with
//! `callgrind_control --dump`; about 180 games/s). Linux only (it reads `/proc`). Not part of
//! CI.
//!
//! The SPRT is `elo0=-5 elo1=5`: four plies of random moves are always a draw, and with every
//! game a draw the log-likelihood ratio of two hypotheses placed evenly around zero stays at 0,
//! so the test is computed after every game and the match runs to its end.

#[path = "support/runner.rs"]
#[allow(dead_code)]
mod runner;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

fn arg<T: std::str::FromStr>(args: &[String], name: &str) -> Option<T> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1)?.parse().ok())
}

/// One block of games as measured.
#[derive(Clone, Copy, Debug)]
struct Block {
    /// Games finished at its end.
    games: u64,
    /// The runner's CPU time in the block.
    cpu: Duration,
    /// Wall time in the block.
    wall: Duration,
    /// The runner's instructions in the block (under callgrind).
    instructions: Option<u64>,
    /// The runner at its end.
    at_end: runner::Reading,
}

impl Block {
    fn us_per_game(&self, games: u64) -> f64 {
        self.cpu.as_secs_f64() * 1e6 / games.max(1) as f64
    }

    /// Thousands of instructions per game.
    fn k_instructions_per_game(&self, games: u64) -> Option<f64> {
        Some(self.instructions? as f64 / 1e3 / games.max(1) as f64)
    }

    fn print(&self, block: u64) {
        let ki = self
            .k_instructions_per_game(block)
            .map_or("-".to_string(), |k| format!("{k:.1}"));
        println!(
            "{:>8} {:>12.1} {:>14} {:>9.0} {:>9} {:>8}",
            self.games,
            self.us_per_game(block),
            ki,
            block as f64 / self.wall.as_secs_f64().max(1e-9),
            self.at_end.rss_kb,
            self.at_end.fds
        );
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// The instructions counted in each of callgrind's dumps in `work` (`cg.out.1`, `cg.out.2`,
/// …: one per block, the counters zeroed after each), in order.
fn dumped_instructions(work: &Path) -> Vec<u64> {
    let mut out = Vec::new();
    for n in 1.. {
        let Ok(text) = std::fs::read_to_string(work.join(format!("cg.out.{n}"))) else {
            break;
        };
        let total = text
            .lines()
            .find_map(|l| {
                l.strip_prefix("summary:")
                    .or_else(|| l.strip_prefix("totals:"))
            })
            .and_then(|v| v.split_whitespace().next()?.parse().ok());
        out.push(total.unwrap_or(0));
    }
    out
}

/// The match's command line.
fn match_command(
    saikoro: &Path,
    engine: &Path,
    work: &Path,
    games: u64,
    concurrency: u32,
    callgrind: bool,
) -> Command {
    let mut cmd = if callgrind {
        let mut c = Command::new("valgrind");
        c.args(["--tool=callgrind", "--dump-line=no"]);
        c.arg(format!(
            "--callgrind-out-file={}",
            work.join("cg.out").display()
        ));
        c.arg(saikoro);
        c
    } else {
        Command::new(saikoro)
    };
    cmd.arg("match");
    for name in ["a", "b"] {
        cmd.arg("--engine")
            .arg(format!("cmd={}", engine.display()))
            .arg(format!("name={name}"));
    }
    cmd.args(["--each", "depth=1", "--maxplies", "4"]);
    cmd.args(["--rounds", &games.div_ceil(2).to_string(), "--games", "2"]);
    cmd.args(["--concurrency", &concurrency.to_string()]);
    cmd.args(["--sprt", "elo0=-5", "elo1=5", "--ratinginterval", "10"]);
    cmd.arg("--results").arg(work.join("results.jsonl"));
    cmd.arg("--pgnout")
        .arg(format!("file={}", work.join("games.pgn").display()));
    cmd.arg("--state").arg(work.join("state"));
    cmd.current_dir(work);
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    cmd
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = arg(&args, "--games").unwrap_or(100_000).max(2);
    let block: u64 = arg(&args, "--block").unwrap_or(1000).max(1);
    let concurrency: u32 = arg(&args, "--concurrency").unwrap_or(1).max(1);
    let callgrind = args.iter().any(|a| a == "--callgrind");
    let exe = std::env::current_exe().expect("own path");
    let engine: PathBuf = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target directory")
        .join("saikoro");
    let saikoro: PathBuf = arg(&args, "--saikoro").unwrap_or_else(|| engine.clone());
    for p in [&saikoro, &engine] {
        if !p.exists() {
            eprintln!(
                "{} is missing: run `cargo build --release --bins --examples` first",
                p.display()
            );
            return ExitCode::FAILURE;
        }
    }
    let work = std::env::temp_dir().join(format!("saikoro-week-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("scratch directory");
    println!(
        "saikoro match, {games} games of 4 plies (Saikoro against Saikoro), concurrency \
         {concurrency}, --sprt elo0=-5 elo1=5, a block every 10 games, results, PGN and state \
         files; the runner ({}{}) per block of {block} games:",
        saikoro.display(),
        if callgrind { ", under callgrind" } else { "" }
    );
    println!(
        "{:>8} {:>12} {:>14} {:>9} {:>9} {:>8}",
        "games", "CPU us/game", "k instr/game", "games/s", "RSS kB", "open fds"
    );
    let t0 = Instant::now();
    // One block more than measured: the last block measured ends before the runner does.
    let played = games.div_ceil(block) * block + block;
    let mut child = match_command(&saikoro, &engine, &work, played, concurrency, callgrind)
        .spawn()
        .expect("start saikoro match");
    let (mut blocks, finished, tail) = watch(&mut child, block, played / block - 1, callgrind);
    let status = child.wait().expect("wait");
    let wall = t0.elapsed();
    if callgrind {
        for (b, n) in blocks.iter_mut().zip(dumped_instructions(&work)) {
            b.instructions = Some(n);
            b.print(block);
        }
    }
    summary(&blocks, block, finished, wall);
    for l in tail.iter().rev().take(2).rev() {
        println!("  {l}");
    }
    let _ = std::fs::remove_dir_all(&work);
    if status.success() && finished == played.div_ceil(2) * 2 {
        ExitCode::SUCCESS
    } else {
        println!("the match ended early or failed: {status}, {finished} games");
        ExitCode::FAILURE
    }
}

/// Has callgrind dump the runner's counts so far and zero them (one file per block); waits for
/// the dump, 30 s at most (`callgrind_control` waits for ever for a process that has ended).
fn dump(pid: u32) {
    let Ok(mut c) = Command::new("callgrind_control")
        .arg("--dump")
        .arg(pid.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
    else {
        return;
    };
    let t = Instant::now();
    while c.try_wait().ok().flatten().is_none() {
        if t.elapsed() > Duration::from_secs(30) {
            let _ = c.kill();
            let _ = c.wait();
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Reads the match's stdout to its end, measuring the runner at the end of each of the first
/// `measured` blocks of `block` games (printing each at once, but under callgrind, whose counts
/// come at the end); returns the blocks, the games finished and the last lines that were not a
/// game's.
fn watch(
    child: &mut Child,
    block: u64,
    measured: u64,
    callgrind: bool,
) -> (Vec<Block>, u64, Vec<String>) {
    let pid = child.id();
    let out = child.stdout.take().expect("stdout");
    let mut blocks: Vec<Block> = Vec::new();
    let (mut finished, mut tail) = (0u64, Vec::new());
    let (mut last_cpu, mut last_wall) = (runner::cpu(pid).unwrap_or_default(), Instant::now());
    for l in BufReader::new(out).lines().map_while(Result::ok) {
        if !l.starts_with("Finished game ") {
            tail.push(l);
            if tail.len() > 16 {
                tail.remove(0);
            }
            continue;
        }
        finished += 1;
        if finished % block != 0 || finished / block > measured {
            continue;
        }
        if callgrind {
            dump(pid);
        }
        let (Some(cpu), Some(at_end)) = (runner::cpu(pid), runner::read(pid)) else {
            break;
        };
        let now = Instant::now();
        let b = Block {
            games: finished,
            cpu: cpu.saturating_sub(last_cpu),
            wall: now - last_wall,
            instructions: None,
            at_end,
        };
        (last_cpu, last_wall) = (cpu, now);
        if !callgrind {
            b.print(block);
        }
        blocks.push(b);
    }
    (blocks, finished, tail)
}

/// The first blocks (but the first, which holds the engines' start) against the last, a
/// tenth of them each.
fn summary(blocks: &[Block], block: u64, finished: u64, wall: Duration) {
    let tenth = (blocks.len() / 10).max(1);
    if blocks.len() < 3 {
        println!("{finished} games in {:.0} s", wall.as_secs_f64());
        return;
    }
    let first = &blocks[1..(1 + tenth).min(blocks.len())];
    let last = &blocks[blocks.len() - tenth..];
    let cpu = |bs: &[Block]| median(bs.iter().map(|b| b.us_per_game(block)).collect());
    let (a, b) = (cpu(first), cpu(last));
    let (m0, m1) = (blocks[0].at_end, blocks[blocks.len() - 1].at_end);
    println!(
        "{finished} games in {:.0} s; runner CPU per game, median of blocks 2-{} {a:.1} us, of \
         the last {tenth} {b:.1} us (ratio {:.2}); resident memory {} kB after the first block, \
         {} kB at the end; open files {} and {}",
        wall.as_secs_f64(),
        1 + first.len(),
        b / a.max(1e-9),
        m0.rss_kb,
        m1.rss_kb,
        m0.fds,
        m1.fds
    );
    let ki = |bs: &[Block]| {
        let v: Option<Vec<f64>> = bs
            .iter()
            .map(|b| b.k_instructions_per_game(block))
            .collect();
        v.map(median)
    };
    if let (Some(a), Some(b)) = (ki(first), ki(last)) {
        println!(
            "instructions per game (callgrind), median of blocks 2-{}: {a:.1} k, of the last \
             {tenth}: {b:.1} k (ratio {:.3})",
            1 + first.len(),
            b / a.max(1e-9)
        );
    }
}
