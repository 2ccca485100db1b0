//! A soak run of `saikoro match`: thousands of games at concurrency 2, Saikoro against five
//! fault engines in a gauntlet, so that the games rotate through an engine that crashes, one
//! that hangs, one that answers late, one that plays an illegal move and one that writes
//! garbage around its moves. It reports whether every scheduled game has exactly one result
//! in the results file, and the runner's memory, open file descriptors and child processes
//! early in the run and at its end (they must stay flat), and that no engine outlives it.
//!
//! ```sh
//! cargo build --release --bins --examples
//! target/release/examples/match_soak --games 2000
//! ```
//!
//! Linux only (it reads `/proc`). Not part of CI: the hanging engine costs each of its games
//! the move time and the runner's grace after `stop`.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// The faults, one fault engine each (fault-engine syntax, firing from ply 30 on).
const FAULTS: [(&str, &str); 5] = [
    ("crash", "--fault crash@30"),
    ("hang", "--fault hang@30"),
    ("late", "--fault slow=150@30"),
    ("illegal", "--fault illegal=nifu@30"),
    ("garbage", "--fault junk --fault illegal=malformed@60"),
];

#[path = "support/runner.rs"]
#[allow(dead_code)]
mod runner;

use runner::{processes_in, read, Reading};

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(default)
}

/// The match of the soak: Saikoro against each fault engine (a gauntlet), `rounds` rounds of
/// game pairs at `movetime` ms, two at a time, its files in `work`.
fn soak_command(saikoro: &Path, fault: &Path, work: &Path, rounds: u64, movetime: u64) -> Command {
    let marker = work.display().to_string();
    let mut cmd = Command::new(saikoro);
    cmd.arg("match").arg("--gauntlet");
    cmd.args([
        "--engine",
        &format!("cmd={}", saikoro.display()),
        "name=saikoro",
    ]);
    let each_dir = format!("dir={marker}");
    for (i, (name, faults)) in FAULTS.iter().enumerate() {
        cmd.args([
            "--engine".to_string(),
            format!("cmd={}", fault.display()),
            format!("args={faults} --seed {i}"),
            format!("name={name}"),
        ]);
    }
    cmd.args(["--each", &format!("movetime={movetime}"), &each_dir]);
    cmd.args(["--rounds", &rounds.to_string(), "--games", "2"]);
    cmd.args([
        "--concurrency",
        "2",
        "--max-failures",
        "0",
        "--ratinginterval",
        "0",
    ]);
    cmd.arg("--results").arg(work.join("results.jsonl"));
    cmd.arg("--state").arg(work.join("state"));
    cmd.arg("--log-file").arg(work.join("log"));
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    cmd
}

/// How many results lines name each game, and how many games ended for each reason.
fn count_results(text: &str) -> (BTreeMap<u64, u32>, BTreeMap<String, u64>) {
    let mut per_game: BTreeMap<u64, u32> = BTreeMap::new();
    let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
    for l in text.lines() {
        let num = |key: &str| {
            let at = l.find(&format!("\"{key}\":"))? + key.len() + 3;
            let rest = &l[at..];
            Some(rest[..rest.find([',', '}'])?].trim_matches('"').to_string())
        };
        if let Some(n) = num("game").and_then(|n| n.parse().ok()) {
            *per_game.entry(n).or_default() += 1;
        }
        if let Some(r) = num("reason") {
            *reasons.entry(r).or_default() += 1;
        }
    }
    (per_game, reasons)
}

/// The runner's readings while it runs: the first once 5 % of the `scheduled` games are in
/// `results` (engines started, buffers grown), then every second; the last one, and the
/// peak of each figure.
fn watch(
    child: &mut std::process::Child,
    pid: u32,
    results: &Path,
    scheduled: u64,
) -> (Reading, Reading, Reading) {
    let done = |p: &Path| {
        std::fs::read_to_string(p)
            .map(|t| t.lines().count() as u64)
            .unwrap_or(0)
    };
    let (mut early, mut last, mut peak) = (None, Reading::default(), Reading::default());
    while child.try_wait().expect("wait").is_none() {
        std::thread::sleep(Duration::from_secs(1));
        let Some(r) = read(pid) else { break };
        if early.is_none() && done(results) >= scheduled / 20 {
            early = Some(r);
        }
        if early.is_some() {
            last = r;
            peak.rss_kb = peak.rss_kb.max(r.rss_kb);
            peak.fds = peak.fds.max(r.fds);
            peak.children = peak.children.max(r.children);
        }
    }
    (early.unwrap_or_default(), last, peak)
}

/// The runner's stdout, read in a thread: the `Finished game` lines counted, the others kept.
fn read_stdout(out: std::process::ChildStdout) -> std::thread::JoinHandle<(u64, Vec<String>)> {
    std::thread::spawn(move || {
        let mut finished = 0u64;
        let mut tail = Vec::new();
        for l in BufReader::new(out).lines().map_while(Result::ok) {
            if l.starts_with("Finished game ") {
                finished += 1;
            } else {
                tail.push(l);
            }
        }
        (finished, tail)
    })
}

fn print_readings(early: &Reading, last: &Reading, peak: &Reading) {
    println!(
        "runner at 5 % of the games / at the end / peak: memory {} / {} / {} kB, open files {} / \
         {} / {}, child processes {} / {} / {}",
        early.rss_kb,
        last.rss_kb,
        peak.rss_kb,
        early.fds,
        last.fds,
        peak.fds,
        early.children,
        last.children,
        peak.children
    );
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let games = arg(&args, "--games", 2000).max(20);
    let movetime = arg(&args, "--movetime", 50);
    let exe = std::env::current_exe().expect("own path");
    let dir_of = exe.parent().expect("examples directory");
    let saikoro: PathBuf = dir_of.parent().expect("target directory").join("saikoro");
    let fault = dir_of.join("fault_engine");
    for p in [&saikoro, &fault] {
        if !p.exists() {
            eprintln!(
                "{} is missing: run `cargo build --release --bins --examples` first",
                p.display()
            );
            return ExitCode::FAILURE;
        }
    }
    let work = std::env::temp_dir().join(format!("saikoro-soak-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("scratch directory");
    // Five pairings, two games a round each.
    let rounds = games.div_ceil(10);
    let scheduled = rounds * 10;
    let mut cmd = soak_command(&saikoro, &fault, &work, rounds, movetime);
    let t0 = Instant::now();
    let mut child = cmd.spawn().expect("start saikoro match");
    let pid = child.id();
    let lines = read_stdout(child.stdout.take().expect("stdout"));
    // Readings: the first once 5 % of the games are done (engines started, buffers grown),
    // then every second; the last one standing is the end of the run.
    let results = work.join("results.jsonl");
    let (early, last, peak) = watch(&mut child, pid, &results, scheduled);
    let status = child.wait().expect("wait");
    let wall = t0.elapsed();
    let (finished, tail) = lines.join().expect("stdout reader");
    std::thread::sleep(Duration::from_millis(500));
    let leftover = processes_in(&work);

    // Every scheduled game exactly once.
    let text = std::fs::read_to_string(&results).unwrap_or_default();
    let (per_game, reasons) = count_results(&text);
    let once =
        (1..=scheduled).all(|n| per_game.get(&n) == Some(&1)) && per_game.len() as u64 == scheduled;
    println!(
        "saikoro match soak: {scheduled} games scheduled, movetime {movetime} ms, concurrency 2, \
         {:.0} s, exit {}",
        wall.as_secs_f64(),
        status.code().map_or("signal".into(), |c| c.to_string())
    );
    println!(
        "results: {} lines for {} games, every game exactly once: {}; {finished} Finished lines",
        text.lines().count(),
        per_game.len(),
        if once { "yes" } else { "NO" }
    );
    let reasons: Vec<String> = reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
    println!("reasons: {}", reasons.join(", "));
    print_readings(&early, &last, &peak);
    println!(
        "engine processes left after the runner exited: {}",
        leftover.len()
    );
    for l in tail.iter().rev().take(3).rev() {
        println!("  {l}");
    }
    let ok = once && leftover.is_empty() && status.success();
    let _ = std::fs::remove_dir_all(&work);
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
