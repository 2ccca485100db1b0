//! `go perft` through the binary while the GUI keeps talking: `isready` is answered during the
//! count, `stop` and the end of input end it with what was counted (marked as a partial count,
//! with no `Nodes searched` line), `quit` ends it and the process at once, and a count that
//! ends on its own is printed without waiting for another line.
//!
//! `go perft 8` from the start position (about 4.3 * 10^11 leaves) cannot end within any of
//! these tests, so each interruption is a real one.

mod usi_support;

use std::time::{Duration, Instant};
use usi_support::*;

/// The start position's legal moves, in the canonical order `go perft` lists them (`moves`).
fn root_moves(s: &mut Session) -> Vec<String> {
    s.send("moves");
    s.recv().split(' ').map(str::to_string).collect()
}

/// Reads the lines of a stopped count up to its `info string`; checks that the listed moves
/// are a prefix of `moves`, each with a count, and that the partial total is their sum.
fn expect_partial(s: &mut Session, moves: &[String], by: &str) {
    let mut counted = Vec::new();
    let mut sum = 0u64;
    loop {
        let l = s.recv();
        if l.is_empty() {
            break;
        }
        let (m, n) = l.split_once(": ").expect("a 'move: count' line");
        counted.push(m.to_string());
        sum += n.parse::<u64>().expect("a count");
    }
    assert_eq!(counted, moves[..counted.len()], "in canonical order");
    let info = s.recv();
    let want = format!(
        "info string perft 8 stopped by {by}: {} of 30 moves counted, {sum} nodes in them (a partial count) time ",
        counted.len()
    );
    assert!(info.starts_with(&want), "{info:?}, want {want:?}");
}

#[test]
fn isready_and_stop_during_perft() {
    let mut s = Session::start();
    s.send("position startpos");
    let moves = root_moves(&mut s);
    assert_eq!(moves.len(), 30);
    s.send("go perft 8");
    s.send("isready");
    assert_eq!(s.recv(), "readyok");
    std::thread::sleep(Duration::from_millis(300));
    s.send("isready");
    assert_eq!(s.recv(), "readyok");
    s.send("stop");
    expect_partial(&mut s, &moves, "stop");
    // The session goes on: a second stop has nothing to end, a game follows.
    s.send("stop");
    s.send("isready");
    assert_eq!(s.recv(), "readyok");
    s.send("go byoyomi 1000");
    s.expect("bestmove ");
    let (status, rest) = s.quit();
    assert!(status.success() && rest.is_empty(), "{rest:?}");
}

#[test]
fn quit_during_perft_exits_at_once() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go perft 8");
    s.send("isready");
    assert_eq!(s.recv(), "readyok");
    let t = Instant::now();
    let (status, rest) = s.quit();
    assert!(status.success());
    assert!(rest.is_empty(), "nothing after quit: {rest:?}");
    // Generous for a loaded machine: the count checks its stop flag every few microseconds.
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}

#[test]
fn end_of_input_during_perft_prints_the_partial_count() {
    let mut s = Session::start();
    s.send("position startpos");
    let moves = root_moves(&mut s);
    s.send("go perft 8");
    s.send("isready");
    assert_eq!(s.recv(), "readyok");
    let (status, rest) = s.close();
    assert!(status.success());
    let (last, lines) = rest.split_last().expect("the partial count");
    assert!(
        last.starts_with("info string perft 8 stopped by the end of input: "),
        "{rest:?}"
    );
    assert_eq!(lines.last().map(String::as_str), Some(""), "{rest:?}");
    assert!(lines.len() <= moves.len() + 1, "{rest:?}");
    assert!(!rest.iter().any(|l| l.starts_with("Nodes searched")));
}

/// A new `go` ends a running count first: its partial count, then the `bestmove`.
#[test]
fn go_during_perft_ends_it_first() {
    let mut s = Session::start();
    s.send("position startpos");
    let moves = root_moves(&mut s);
    s.send("setoption name Seed value 3");
    s.send("go perft 8");
    s.send("go btime 0 wtime 0 byoyomi 100");
    expect_partial(&mut s, &moves, "a new go");
    s.expect("bestmove ");
    let (status, rest) = s.quit();
    assert!(status.success() && rest.is_empty(), "{rest:?}");
}

/// A count that ends on its own is printed at once (no other line needed), in full: the
/// start position's perft 3 is 25,470 (positions/perft.txt gives its sources), its 30 moves
/// 900 replies in all at depth 2.
#[test]
fn finished_perft_is_printed_without_more_input() {
    let mut s = Session::start();
    s.send("position startpos");
    let moves = root_moves(&mut s);
    s.send("go perft 3");
    let mut counted = Vec::new();
    loop {
        let l = s.recv();
        if l.is_empty() {
            break;
        }
        counted.push(l.split_once(": ").expect("move: count").0.to_string());
    }
    assert_eq!(counted, moves);
    assert_eq!(s.recv(), "Nodes searched: 25470");
    assert!(s
        .recv()
        .starts_with("info string perft 3 nodes 25470 time "));
    s.send("position startpos moves 7g7f");
    s.send("go perft 1");
    s.skip_until("");
    assert_eq!(s.recv(), "Nodes searched: 30");
    s.recv();
    let (status, rest) = s.quit();
    assert!(status.success() && rest.is_empty(), "{rest:?}");
}
