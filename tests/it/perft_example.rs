//! `examples/perft`, the library's perft timed in-process: the position is written as after
//! USI's `position` (startpos, `sfen`, a bare SFEN, `moves`), the depth last; bad input gets a
//! message and exit status 2, never a panic. The counts are the published ones
//! (positions/perft.txt gives their sources) or checked by hand.

use crate::usi_support;

use std::process::Command;

/// Runs the example with `args`: (exit code, stdout, stderr).
fn perft(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(usi_support::example("perft"))
        .args(args)
        .output()
        .expect("run examples/perft");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn count(args: &[&str]) -> String {
    let (code, out, err) = perft(args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    let first = out.split_whitespace().nth(2).unwrap_or_default();
    first.to_string()
}

const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

#[test]
fn positions_as_after_usi_position() {
    assert_eq!(count(&["startpos", "3"]), "25470");
    assert_eq!(count(&["startpos", "moves", "2"]), "900");
    // The SFEN as one argument (the old form) or as several, with or without `sfen`.
    assert_eq!(count(&[MATSURI, "2"]), "28684");
    let words: Vec<&str> = MATSURI.split(' ').collect();
    let mut args = vec!["sfen"];
    args.extend(&words);
    args.push("1");
    assert_eq!(count(&args), "207");
    // Two kings alone; after Black's 9i9h, White's king on 1a has 2a, 1b and 2b.
    assert_eq!(
        count(&[
            "sfen",
            "8k/9/9/9/9/9/9/9/K8",
            "b",
            "-",
            "1",
            "moves",
            "9i9h",
            "1"
        ]),
        "3"
    );
}

#[test]
fn bad_input_is_named_with_exit_status_2() {
    let cases: [(&[&str], &str); 7] = [
        (&[], "no position and depth"),
        (&["startpos"], "'startpos', is not a depth"),
        (&["startpos", "x"], "'x', is not a depth"),
        (&["3"], "no position given"),
        (&["sfen", "foo", "2"], "bad SFEN"),
        (
            &["startpos", "moves", "7g7f", "7g7f", "2"],
            "move 2 '7g7f' is illegal",
        ),
        (
            &["startpos", "moves", "7g7x", "2"],
            "move 1 '7g7x' is not a USI move",
        ),
    ];
    for (args, said) in cases {
        let (code, out, err) = perft(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(
            err.contains(said) && err.contains("usage: perft"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
