//! Whole random games through the pipe: two engine processes play each other the way a GUI
//! runs an engine match (full game resent every turn, timed `go`), and the rules core checks
//! every answer: a legal move that does not lose by perpetual check when another move exists,
//! `resign` only without a legal move, `win` only when the declaration holds.

use crate::usi_support;

use saikoro_core::{EnteringKingRule, Game, Move, Position};
use usi_support::Session;

/// Plays one game between two fresh processes; returns its length in plies and how it ended.
fn play_game(seeds: [u64; 2], max_plies: usize) -> (usize, String) {
    let mut engines = seeds.map(|seed| {
        let mut s = Session::start();
        s.send("usi");
        s.skip_until("usiok");
        s.send(&format!("setoption name Seed value {seed}"));
        s.send("isready");
        assert_eq!(s.recv(), "readyok");
        s.send("usinewgame");
        s
    });
    let mut game = Game::new(Position::startpos());
    let mut history = String::from("position startpos");
    let ending = loop {
        if game.len() >= max_plies {
            break "move limit".to_string();
        }
        let side = game.len() % 2;
        let e = &mut engines[side];
        e.send(&history);
        e.send("go btime 0 wtime 0 byoyomi 1000");
        let line = e.expect("bestmove ");
        let text = line.strip_prefix("bestmove ").unwrap();
        let ply = game.len() + 1;
        match text {
            "resign" => {
                assert!(
                    game.position().legal_moves().is_empty(),
                    "ply {ply}: resigned with legal moves in {}",
                    game.position()
                );
                break "resign (mated)".to_string();
            }
            "win" => {
                assert!(
                    game.can_declare_win(EnteringKingRule::CsaRule27),
                    "ply {ply}: false declaration in {}",
                    game.position()
                );
                break "declaration".to_string();
            }
            _ => {
                let m = Move::from_usi(text)
                    .unwrap_or_else(|_| panic!("ply {ply}: unparsable bestmove {line:?}"));
                assert!(
                    !game.can_declare_win(EnteringKingRule::CsaRule27),
                    "ply {ply}: moved instead of declaring"
                );
                if game.loses_by_perpetual_check(m) {
                    let legal = game.position().legal_moves();
                    let all_lose = legal.iter().all(|&m| game.loses_by_perpetual_check(m));
                    assert!(all_lose, "ply {ply}: {m} loses by perpetual check");
                }
                game.try_play(m)
                    .unwrap_or_else(|e| panic!("ply {ply}: illegal bestmove {m}: {e}"));
                if game.len() == 1 {
                    history.push_str(" moves");
                }
                history.push(' ');
                history.push_str(text);
                if let Some(outcome) = game.outcome() {
                    if !matches!(outcome, saikoro_core::Outcome::Checkmate { .. }) {
                        break format!("{outcome:?}");
                    }
                }
            }
        }
    };
    for mut e in engines {
        e.send("gameover draw");
        e.send("isready");
        assert_eq!(e.expect("readyok"), "readyok");
        let (status, rest) = e.quit();
        assert!(status.success() && rest.is_empty());
    }
    (game.len(), ending)
}

/// At least one whole game of 500 plies or more, every move checked. Random games often end by
/// mate within a few hundred plies, so seed pairs are tried in order, each game played to its
/// end, until one is long enough (with this version: the fourth pair, 1,732 plies; all games
/// played are checked).
#[test]
fn a_whole_game_of_500_plies_through_the_pipe() {
    let mut log = Vec::new();
    for i in 1..=12u64 {
        let (plies, ending) = play_game([i, 1000 + i], 3000);
        log.push((plies, ending.clone()));
        if plies >= 500 {
            eprintln!("games (plies, ending): {log:?}");
            return;
        }
    }
    panic!("no game reached 500 plies: {log:?}");
}
