//! `saikoro check --movegen` through the binary: a correct generator (Saikoro's own engine, the
//! fault engine without faults) agrees everywhere; each move-generator fault of the fault
//! engine is found at the position where its moves first differ, with the rule named. The
//! expected positions and moves are worked out by hand in each test's comment, not taken from
//! the debugger's output.

use crate::usi_support;

use saikoro_check::JsonOutcome;
use std::path::PathBuf;
use usi_support::{fault_engine, BIN};

/// Runs `saikoro check --movegen ARGS -- ENGINE`: the exit status and stdout.
fn movegen(args: &[&str], engine: &[&str]) -> (Option<i32>, String) {
    let mut all = vec!["check", "--movegen"];
    all.extend_from_slice(args);
    all.push("--");
    all.extend_from_slice(engine);
    let out = usi_support::run_with(b"", &all, &[]);
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

/// A positions file in a fresh directory.
fn positions_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("saikoro-movegen-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("positions.txt");
    std::fs::write(&path, text).unwrap();
    path
}

fn fe() -> String {
    fault_engine().display().to_string()
}

/// Saikoro against itself, and the fault engine without faults (the same generator behind
/// another front end): every built-in position agrees, exit status 0.
#[test]
fn a_correct_generator_agrees_everywhere() {
    let n = saikoro_check::movegen::builtin_positions().len();
    for engine in [BIN.to_string(), fe()] {
        let (code, text) = movegen(&[], &[&engine]);
        assert_eq!(code, Some(0), "{text}");
        assert!(
            text.ends_with(&format!(": {n} agree, 0 differ, 0 not compared\n")),
            "{text}"
        );
        assert!(
            text.contains("  ✔ startpos                 perft 3 = 25470\n"),
            "{text}"
        );
    }
}

/// Bishop and rook non-promotions left out. From the start position only 7g7f opens Black's
/// bishop diagonal; after it and any White move that leaves the 3c pawn, 8h3c takes that
/// pawn inside the promotion zone, and its unpromoted form is the one move missing. Nothing
/// else differs within three plies (White's bishop stays behind its own 3c pawn, Black's rook
/// behind 2g).
#[test]
fn omitted_non_promotions_are_found_after_two_moves() {
    let file = positions_file("omit", "startpos\n");
    let (code, text) = movegen(
        &["--positions", file.to_str().unwrap()],
        &[&fe(), "--fault", "perft-omit-non-promotion"],
    );
    assert_eq!(code, Some(1), "{text}");
    // 30 White replies, each missing one move: 25,470 - 30.
    assert!(
        text.contains("perft 3: Saikoro 25470, engine 25440; after 7g7f "),
        "{text}"
    );
    assert!(text.contains("(perft 1): 1 missing"), "{text}");
    let missing: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("missing (legal"))
        .skip(1)
        .take_while(|l| l.starts_with("      "))
        .collect();
    assert_eq!(missing.len(), 1, "{text}");
    assert!(missing[0]
        .trim_start()
        .starts_with("8h3c    不成 (non-promotion): a bishop"));
    assert!(!text.contains("excess"), "{text}");
}

/// Mating pawn drops counted as legal. In the rules position uchifuzume of positions/check.txt
/// (7nk/9/7G1/9/9/9/9/9/4K4 b P 1) P*1b mates and is the one excess move at the root; every
/// other difference over the built-in positions is an excess pawn drop for the same rule, and
/// nothing is missing.
#[test]
fn a_mating_pawn_drop_is_named_uchifuzume() {
    let (code, json) = movegen(
        &["--depth", "2", "--json"],
        &[&fe(), "--fault", "perft-uchifuzume"],
    );
    assert_eq!(code, Some(1), "{json}");
    let line = json
        .lines()
        .find(|l| l.contains("\"id\": \"rules-uchifuzume\""))
        .unwrap_or_else(|| panic!("{json}"));
    assert!(
        line.contains("\"status\": \"differ\", \"path\": [], "),
        "{line}"
    );
    assert!(
        line.contains("\"excess\": [{\"move\": \"P*1b\", \"rule\": \"打ち歩詰め: pawn drop checkmate (uchifuzume)"),
        "{line}"
    );
    for l in json
        .lines()
        .filter(|l| l.contains("\"status\": \"differ\""))
    {
        assert!(l.contains("\"missing\": []"), "{l}");
        assert_eq!(
            l.matches("\"rule\": \"打ち歩詰め").count(),
            l.matches("\"rule\": ").count(),
            "{l}"
        );
    }
    assert!(json.contains("\"agree\": "), "{json}");
    // Read back with the type that wrote it: the same facts.
    let back: saikoro_check::JsonMovegenReport = serde_json::from_str(&json).unwrap();
    let p = back
        .positions
        .iter()
        .find(|p| p.id == "rules-uchifuzume")
        .unwrap();
    let JsonOutcome::Differ {
        path,
        excess,
        missing,
        ..
    } = &p.outcome
    else {
        panic!("{p:?}")
    };
    assert!(path.is_empty() && missing.is_empty(), "{p:?}");
    assert_eq!(excess[0].mv, "P*1b");
    assert!(back.differ > 0);
}

/// One subtree miscounted (the first root move counted one too many at depth 2): the debugger
/// descends into 1g1f, the first move in canonical order, finds the engine's 30 moves there
/// right, and says the count is wrong, not the moves.
#[test]
fn a_miscounted_subtree_is_not_a_move_error() {
    let file = positions_file("miscount", "start: position startpos\n");
    let (code, text) = movegen(
        &["--depth", "2", "--positions", file.to_str().unwrap()],
        &[&fe(), "--fault", "perft-miscount"],
    );
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("  ✘ start                    perft 2: Saikoro 900, engine 901; after 1g1f (perft 1): miscounted"),
        "{text}"
    );
    assert!(
        text.contains("a miscounted subtree, not a move-generation error"),
        "{text}"
    );
    assert!(
        !text.contains("missing (") && !text.contains("excess ("),
        "{text}"
    );
}

/// An engine without `go perft` is reported as such (exit status 3: not a failure, nor the
/// usage errors' 2); an engine that cannot be started fails (1, as `check` fails it), with
/// every position counted as not compared; bad input is a clear error.
#[test]
fn no_perft_and_bad_input() {
    let (code, text) = movegen(&[], &[&fe(), "--fault", "no-perft"]);
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains("not compared: 'go perft 3' was answered with a search"),
        "{text}"
    );

    let file = positions_file("bad", "startpos\nstartpos moves 7g7f 7g7f\n");
    let out = usi_support::run_with(
        b"",
        &[
            "check",
            "--movegen",
            "--positions",
            file.to_str().unwrap(),
            "--",
            &BIN,
        ],
        &[],
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 2: move 2 (7g7f) is illegal"), "{err}");

    let (code, text) = movegen(&[], &["/nonexistent/engine"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("not compared: the engine could not be started"),
        "{text}"
    );
    // The 25 built-in positions, none compared.
    assert!(
        text.contains(": 0 agree, 0 differ, 25 not compared"),
        "{text}"
    );
}
