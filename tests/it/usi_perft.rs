//! `go perft` through the binary, as scripts and GUIs drive it: the lines after a count are
//! acted on once it is done (a piped `quit` or the end of input comes after the whole count,
//! and the answers come in the order asked), except `stop`, which ends it with a partial count
//! (marked as such, with no `Nodes searched` line), and `isready`, answered while it counts.
//!
//! The totals are the published ones (positions/perft.txt gives their sources). `go perft 9`
//! from the start position (about 10^13 leaves) cannot end within any of these tests, so each
//! interruption is a real one.

use crate::usi_support;

use usi_support::*;

/// The start position's legal moves, in the canonical order `go perft` lists them (`moves`).
fn root_moves(s: &mut Session) -> Vec<String> {
    s.send("moves");
    s.recv().split(' ').map(str::to_string).collect()
}

/// Reads the lines of a stopped count up to its `info string`; checks that the listed moves
/// are a prefix of `moves`, each with a count, and that the partial total is their sum.
fn expect_partial(s: &mut Session, moves: &[String]) {
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
        "info string perft 9 stopped by stop: {} of 30 moves counted, {sum} nodes in them (a partial count) time ",
        counted.len()
    );
    assert!(info.starts_with(&want), "{info:?}, want {want:?}");
}

/// The piped scripts of the field: `quit` and the end of input wait for the whole count.
#[test]
fn piped_quit_and_end_of_input_come_after_the_whole_count() {
    for script in [
        "position startpos\ngo perft 4\nquit\n",
        "go perft 4\n",
        "go perft 4",
        "position startpos\r\ngo perft 4\r\nquit\r\n",
    ] {
        let out = run_bytes(script.as_bytes());
        let lines = out.lines();
        assert_eq!(lines.len(), 30 + 3, "{script:?}: {lines:?}");
        assert_eq!(lines[31], "Nodes searched: 719731", "{script:?}");
        assert!(lines[32].starts_with("info string perft 4 nodes 719731 time "));
        let sum: u64 = lines[..30]
            .iter()
            .map(|l| l.split_once(": ").unwrap().1.parse::<u64>().unwrap())
            .sum();
        assert_eq!(sum, 719731);
    }
}

/// The answers come in the order the commands came: the whole count first.
#[test]
fn commands_after_a_count_answer_in_order() {
    let out = run("go perft 1\nside\nmoves\nd\nisready\nquit\n");
    let lines = out.lines();
    assert_eq!(lines[30], "");
    assert_eq!(lines[31], "Nodes searched: 30");
    assert!(lines[32].starts_with("info string perft 1 nodes 30 time "));
    assert_eq!(lines[33], "black");
    assert_eq!(lines[34].split(' ').count(), 30, "{:?}", lines[34]);
    assert!(lines[35..].iter().any(|l| l.starts_with("SFEN: ")));
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
}

#[test]
fn isready_and_stop_during_perft() {
    let mut s = Session::start();
    s.send("position startpos");
    let moves = root_moves(&mut s);
    assert_eq!(moves.len(), 30);
    s.send("go perft 9");
    s.send("isready");
    assert_eq!(s.recv(), "readyok");
    s.send("isready");
    assert_eq!(s.recv(), "readyok");
    s.send("stop");
    expect_partial(&mut s, &moves);
    // The session goes on: a second stop has nothing to end, a game follows.
    s.send("stop");
    s.send("isready");
    assert_eq!(s.recv(), "readyok");
    s.send("go byoyomi 1000");
    s.expect("bestmove ");
    let (status, rest) = s.quit();
    assert!(status.success() && rest.is_empty(), "{rest:?}");
}

/// Lines other than `stop` and `isready` wait for the count; `stop` still ends it, and they
/// are answered after it, in order (an `isready` behind a waiting line waits its turn).
#[test]
fn lines_during_a_count_wait_for_it_and_stop_still_ends_it() {
    let mut s = Session::start();
    s.send("position startpos");
    let moves = root_moves(&mut s);
    s.send("go perft 9");
    s.send("side");
    s.send("isready");
    s.send("stop");
    expect_partial(&mut s, &moves);
    assert_eq!(s.recv(), "black");
    assert_eq!(s.recv(), "readyok");
    // A count that ends on its own is printed without another line.
    s.send("go perft 2");
    s.skip_until("");
    assert_eq!(s.recv(), "Nodes searched: 900");
    assert!(s.recv().starts_with("info string perft 2 nodes 900 time "));
    let (status, rest) = s.quit();
    assert!(status.success() && rest.is_empty(), "{rest:?}");
}

/// A `quit` during a count comes after it: `stop` first ends the count, then `quit` exits.
#[test]
fn stop_then_quit_during_perft() {
    let mut s = Session::start();
    s.send("position startpos");
    let moves = root_moves(&mut s);
    s.send("go perft 9");
    s.send("isready");
    assert_eq!(s.recv(), "readyok");
    s.send("stop");
    s.send("quit");
    expect_partial(&mut s, &moves);
    let (status, rest) = s.close();
    assert!(status.success() && rest.is_empty(), "{rest:?}");
}
