//! Every way the match ends a game, in the words of each record of it: the match's CSA, KIF,
//! KI2 and JKF records ([`write`](super::write)) and the record of its results-file line (what
//! `saikoro record convert` and the report page's downloads write), against the formats' words
//! written here by hand: KIF's as Kifu for Windows writes them (the end word on the last move
//! line, `まで…手で先手の勝ち`), CSA's and JKF's from the CSA 標準棋譜ファイル形式's list.

use super::{to_record, write_csa, write_kif};
use crate::game::book::Opening;
use crate::game::result::{Decision, End, GameRecord, PlayedMove, Reason};
use crate::game::timecontrol::Limits;
use crate::output::lines::{json_line, GameInfo};
use crate::output::report::results_records;
use saikoro_core::{ByColor, Color, Move, Position};
use saikoro_record::{csa, form, kif, Format};
use std::time::UNIX_EPOCH;

/// A game from the start of `plies` moves (0: Black to move at the end, 1: White) that ended so.
fn game(plies: usize, result: Decision, reason: Reason) -> GameRecord {
    let moves = ["7g7f"][..plies]
        .iter()
        .map(|m| PlayedMove {
            mv: Move::from_usi(m).unwrap(),
            time_ms: 1200,
            score: None,
            depth: None,
            nodes: None,
            place: None,
        })
        .collect();
    let mut end = End::new(result, reason, format!("ended by {reason}"));
    if matches!(reason, Reason::IllegalMove | Reason::IllegalDeclaration) {
        end.illegal_move = Some("win".into());
    }
    GameRecord {
        opening: Opening {
            line: 0,
            start: Position::startpos(),
            moves: Vec::new(),
        },
        moves,
        end,
        time_used: ByColor([0, 0]),
        started: UNIX_EPOCH,
        ended: UNIX_EPOCH,
    }
}

/// Each way, with the side to move at the end (by the plies), and the words: KIF's end word,
/// the tail of its `まで` line, CSA's end line. A foul is written as the side's that broke the
/// rules (`%+ILLEGAL_ACTION`: 先手の反則行為により後手の勝ち), which KIF calls 反則負け when that
/// side is to move and 反則勝ち (of the side to move) when not; an adjudicated loss is 投了 only
/// when the loser is to move.
const CASES: [(usize, Decision, Reason, &str, &str, &str); 15] = {
    use Color::{Black as B, White as W};
    use Decision::{Draw, Win};
    [
        (0, Win(W), Reason::Mate, "詰み", "後手の勝ち", "%TSUMI"),
        (1, Win(B), Reason::Resign, "投了", "先手の勝ち", "%TORYO"),
        (
            1,
            Win(B),
            Reason::Time,
            "切れ負け",
            "時間切れにより先手の勝ち",
            "%TIME_UP",
        ),
        (
            0,
            Win(B),
            Reason::Declaration,
            "入玉勝ち",
            "先手の入玉勝ち",
            "%KACHI",
        ),
        (
            0,
            Win(W),
            Reason::IllegalMove,
            "反則負け",
            "先手の反則負け",
            "%+ILLEGAL_ACTION",
        ),
        (
            0,
            Win(W),
            Reason::IllegalDeclaration,
            "反則負け",
            "先手の反則負け",
            "%+ILLEGAL_ACTION",
        ),
        (
            0,
            Win(B),
            Reason::PerpetualCheck,
            "反則勝ち",
            "先手の反則勝ち",
            "%-ILLEGAL_ACTION",
        ),
        (
            1,
            Win(B),
            Reason::Crash,
            "反則負け",
            "後手の反則負け",
            "%-ILLEGAL_ACTION",
        ),
        (
            1,
            Win(W),
            Reason::NoResponse,
            "反則勝ち",
            "後手の反則勝ち",
            "%+ILLEGAL_ACTION",
        ),
        (
            1,
            Draw,
            Reason::Repetition,
            "千日手",
            "千日手",
            "%SENNICHITE",
        ),
        (0, Draw, Reason::MaxPlies, "持将棋", "持将棋", "%MAX_MOVES"),
        (
            1,
            Win(B),
            Reason::Adjudication,
            "投了",
            "先手の勝ち",
            "%TORYO",
        ),
        (1, Win(W), Reason::Adjudication, "中断", "中断", "%CHUDAN"),
        (
            0,
            Draw,
            Reason::Adjudication,
            "持将棋",
            "持将棋",
            "%HIKIWAKE",
        ),
        (
            1,
            Decision::None,
            Reason::Interrupted,
            "中断",
            "中断",
            "%CHUDAN",
        ),
    ]
};

/// The `%` line of a CSA text.
fn csa_end(text: &str) -> &str {
    text.lines().find(|l| l.starts_with('%')).unwrap_or("")
}

#[test]
fn every_end_in_every_record() {
    let info = GameInfo {
        number: 1,
        round: 1,
        black: "b".into(),
        white: "w".into(),
        repeats: None,
    };
    let l = Limits::from_words(None, None, None, None, Some("1")).unwrap();
    let limits = ByColor([l, l]);
    let mut reasons = std::collections::HashSet::new();
    for (plies, result, reason, word, tail, line) in CASES {
        reasons.insert(reason);
        let g = game(plies, result, reason);
        let what = format!("{reason} {result:?} after {plies}");
        let end_line = format!("{:>4} {word}", plies + 1);
        let until = format!("\nまで{plies}手で{tail}\n");

        let mut out = Vec::new();
        write_csa(&mut out, &info, &g, &limits).unwrap();
        assert_eq!(csa_end(&String::from_utf8(out).unwrap()), line, "{what}");
        let mut out = Vec::new();
        write_kif(&mut out, &info, &g, &limits).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(&end_line) && text.ends_with(&until),
            "{what}: {text}"
        );
        let model = to_record(&info, &g, &limits);
        let ki2 = form::write(&model, Format::Ki2);
        // KI2 says a mate in its まで line: it has no end word of its own.
        let ki2_tail = if reason == Reason::Mate {
            "詰み"
        } else {
            tail
        };
        assert!(
            ki2.contains(&format!("まで{plies}手で{ki2_tail}\n")),
            "{what}: {ki2}"
        );
        let jkf = form::write(&model, Format::Jkf);
        let special = format!("{{\"special\":\"{}\"", &line[1..]);
        assert!(jkf.contains(&special), "{what}: {jkf}");

        // The same game read from its results-file line, as `record convert` reads it.
        let from_results = results_records(&json_line(&info, &g)).unwrap().remove(0);
        assert_eq!(csa_end(&csa::write(&from_results)), line, "{what}");
        let text = kif::write(&from_results);
        assert!(
            text.contains(&end_line) && text.ends_with(&until),
            "{what}: {text}"
        );
    }
    assert_eq!(reasons.len(), Reason::ALL.len(), "every reason");
}
