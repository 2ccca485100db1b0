//! `bench`, as the test farms' workers run it: `bench` then `quit` on stdin (ShogiBench) and
//! `saikoro bench` as arguments (OpenBench), read with the workers' own parsing rules. The
//! node count must be the same on every run (the farms compare the copies' counts and reject
//! an engine whose counts differ); its perft part must be the published counts.

use crate::usi_support;

use std::process::{Command, Stdio};
use usi_support::*;

/// The workers' parsing of a bench's output, re-written from `parse_stream_output` in
/// `Client/bench.py` of ShogiBench (nodchip/ShogiBench) and of OpenBench
/// (AndyGrant/OpenBench): the output must be ASCII; lines are read from the last one up; in
/// each, every run of characters that are neither ASCII letters, digits nor spaces becomes one
/// space; the first (leftmost) match of `(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)`
/// (any case) on the lowest line that has one gives the node count, the same with
/// `(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)` the speed: the first number in the match.
/// (ShogiBench also lists `Nodes searched  : \d+` and `Nodes/second    : \d+`, which can no
/// longer match once `:` and `/` are spaces.)
fn farm_parse(stdout: &[u8]) -> (Option<u64>, Option<u64>) {
    let text = std::str::from_utf8(stdout).expect("ascii");
    assert!(text.is_ascii(), "the workers decode the output as ASCII");
    let (mut nodes, mut nps) = (None, None);
    for line in text.trim().split('\n').rev() {
        let line = normalise(line);
        nps = nps.or_else(|| {
            leftmost(
                &line,
                &[
                    &[D, S, L("nps")],
                    &[L("nps"), S, D],
                    &[L("nodes second"), S, D],
                ],
            )
        });
        nodes = nodes.or_else(|| {
            leftmost(
                &line,
                &[
                    &[D, S, L("nodes")],
                    &[L("nodes"), S, D],
                    &[L("nodes searched"), S, D],
                ],
            )
        });
    }
    (nodes, nps)
}

/// A part of a pattern: `\d+`, `\s+` or a literal (lower case; the workers ignore case).
#[derive(Clone, Copy)]
enum Part {
    Digits,
    Spaces,
    Lit(&'static str),
}
use Part::{Digits as D, Lit as L, Spaces as S};

/// `re.sub(r'[^a-zA-Z0-9 ]+', ' ', line)`, then lower case.
fn normalise(line: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut in_run = false;
    for b in line.bytes() {
        if b.is_ascii_alphanumeric() || b == b' ' {
            out.push(b.to_ascii_lowercase());
            in_run = false;
        } else if !in_run {
            out.push(b' ');
            in_run = true;
        }
    }
    out
}

/// The first number of the leftmost match of any of `patterns` (tried in order at each
/// position, as Python's `re.search` does with an alternation).
fn leftmost(line: &[u8], patterns: &[&[Part]]) -> Option<u64> {
    (0..line.len()).find_map(|start| {
        patterns.iter().find_map(|p| {
            let end = match_at(line, start, p)?;
            let text = &line[start..end];
            let digits: Vec<u8> = text
                .iter()
                .skip_while(|b| !b.is_ascii_digit())
                .take_while(|b| b.is_ascii_digit())
                .copied()
                .collect();
            String::from_utf8(digits).ok()?.parse().ok()
        })
    })
}

/// Where `pattern` matches `line` from `start` (greedy; the classes are disjoint, so no
/// backtracking is needed).
fn match_at(line: &[u8], mut at: usize, pattern: &[Part]) -> Option<usize> {
    for part in pattern {
        let run = |pred: fn(&u8) -> bool| line[at..].iter().take_while(|b| pred(b)).count();
        let n = match part {
            Part::Digits => run(u8::is_ascii_digit),
            Part::Spaces => run(|b| *b == b' '),
            Part::Lit(s) => {
                if line[at..].starts_with(s.as_bytes()) {
                    s.len()
                } else {
                    0
                }
            }
        };
        if n == 0 {
            return None;
        }
        at += n;
    }
    Some(at)
}

/// The parser itself, on the lines other engines print (Stockfish's bench end, YaneuraOu's
/// `go perft`, a UCI info line) and on Saikoro's.
#[test]
fn farm_parse_reads_the_usual_forms() {
    let sf = b"===========================\nTotal time (ms) : 2345\nNodes searched  : 1234567\nNodes/second    : 526468\n";
    assert_eq!(farm_parse(sf), (Some(1234567), Some(526468)));
    // On a UCI info line the leftmost match is `17 nodes` and `4141 nps`, as in Python.
    let uci = b"info depth 13 seldepth 17 nodes 4141 nps 76000 time 12\nbestmove e2e4\n";
    assert_eq!(farm_parse(uci), (Some(17), Some(4141)));
    // The lowest line wins.
    let two = b"Nodes searched: 5\nNodes/second: 7\n300 nodes 9 nps\n";
    assert_eq!(farm_parse(two), (Some(300), Some(9)));
    assert_eq!(farm_parse(b"readyok\n"), (None, None));
}

/// `perft NAME depth D: N (published M)` lines of a bench, as (name, depth, N).
fn perft_lines(lines: &[String]) -> Vec<(String, u32, u64)> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bench: perft "))
        .map(|l| {
            let (name, rest) = l.split_once(" depth ").expect("depth");
            let (depth, rest) = rest.split_once(": ").expect("count");
            let count = rest.split(' ').next().unwrap().parse().expect("a count");
            (name.to_string(), depth.parse().expect("a depth"), count)
        })
        .collect()
}

/// The plies of the bench's games line.
fn game_plies(lines: &[String]) -> u64 {
    let l = lines
        .iter()
        .find(|l| l.contains(" random games "))
        .expect("the games line");
    let (before, _) = l.split_once(" plies").expect("plies");
    before.rsplit(' ').next().unwrap().parse().expect("plies")
}

#[test]
fn bench_gives_the_same_node_count_on_every_run() {
    let piped = [run("bench\nquit"), run("bench")];
    let argv = Command::new(BIN)
        .arg("bench")
        .stdin(Stdio::null())
        .env_remove("RUST_LOG")
        .output()
        .expect("saikoro bench");
    assert!(argv.status.success());
    let mut counts = Vec::new();
    for stdout in [&piped[0].stdout, &piped[1].stdout, &argv.stdout] {
        let (nodes, nps) = farm_parse(stdout);
        let (nodes, nps) = (nodes.expect("a node count"), nps.expect("a speed"));
        assert!(nps > 0);
        counts.push(nodes);

        let lines: Vec<String> = String::from_utf8(stdout.clone())
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        let n = lines.len();
        assert_eq!(lines[n - 2], format!("Nodes searched: {nodes}"));
        assert_eq!(lines[n - 1], format!("Nodes/second: {nps}"));
        // The perft part gives the published counts; the total adds the games' plies.
        let perfts = perft_lines(&lines);
        assert!(perfts.len() >= 4, "{lines:?}");
        let records = saikoro_core::published_perft();
        for (name, depth, count) in &perfts {
            let r = records.iter().find(|r| r.id == name).expect(name);
            let published = r.counts.iter().find(|(d, _)| d == depth).expect("depth").1;
            assert_eq!(*count, published, "{name} depth {depth}");
        }
        let perft_sum: u64 = perfts.iter().map(|p| p.2).sum();
        assert_eq!(nodes, perft_sum + game_plies(&lines));
        assert!(game_plies(&lines) > 0);
    }
    assert!(counts.windows(2).all(|w| w[0] == w[1]), "{counts:?}");
    assert!(piped
        .iter()
        .all(|o| o.status.success() && o.stderr.is_empty()));
}

/// `stop` ends a bench: a partial count, marked, and none of the lines the farms read. (The
/// bench takes about a second; the `stop` comes milliseconds after it starts.)
#[test]
fn stop_ends_a_bench_without_a_node_count() {
    let mut s = Session::start();
    s.send("bench");
    s.send("isready");
    assert_eq!(s.recv(), "readyok");
    s.send("stop");
    let mut lines = Vec::new();
    while !lines
        .last()
        .is_some_and(|l: &String| l.starts_with("info string bench"))
    {
        lines.push(s.recv());
    }
    let last = lines.last().expect("the partial line");
    assert!(
        last.starts_with("info string bench stopped by stop: ")
            && last.contains("(a partial count)"),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("Nodes")), "{lines:?}");
    let (status, rest) = s.quit();
    assert!(status.success() && rest.is_empty(), "{rest:?}");
}
