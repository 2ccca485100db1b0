//! The whole run's output, and the end: every stdout line must be a USI message in the form
//! GUIs parse (ShogiHome compares `usiok` and `readyok` with the whole line and splits
//! `bestmove`, `checkmate` and `option` lines on single spaces); `quit` must end the process
//! within ShogiHome's 5 s.

use super::session::{cut, excerpt, Harness, Verdict};
use super::{CheckResult, Group, Status, QUIT_LIMIT};
use saikoro_usi::{parse_engine_line, EngineMessage};
use std::time::{Duration, Instant};

/// The output checks, in order.
pub(super) const NAMES: [&str; 2] = ["stdout", "quit"];

/// What is wrong with one stdout line, if anything: `Err` for a failure, `Ok(Some)` for a
/// warning.
fn judge_line(text: &str) -> Result<Option<String>, String> {
    let single = text.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
    // ShogiHome splits these lines on single spaces: two spaces in a row give an empty word
    // where a move or a field belongs; trailing spaces only give empty words at the end, which
    // it ignores (and `default ` with nothing after it reads as an empty default).
    let strict = |what: &str| {
        if single == text.trim_end_matches(' ') {
            Ok(())
        } else {
            Err(format!(
                "'{text}': ShogiHome splits {what} lines on single spaces, so an extra space misplaces every word after it"
            ))
        }
    };
    match parse_engine_line(text) {
        EngineMessage::Other(t) if t.trim().is_empty() => {
            return Ok(Some("a blank line (GUIs skip it)".to_string()))
        }
        // GUIs skip lines they do not know (ShogiHome, Shogidokoro for Windows), so a stray line
        // is a warning; lines they would misread (below) are failures.
        EngineMessage::Other(t) => {
            return Ok(Some(format!(
                "'{t}' is not a USI message (GUIs skip it; a diagnostic belongs in 'info string')"
            )))
        }
        EngineMessage::UsiOk | EngineMessage::ReadyOk if single != text => {
            return Err(format!(
                "'{text}': ShogiHome compares the whole line with '{single}'"
            ));
        }
        EngineMessage::BestMove { .. } => strict("bestmove")?,
        EngineMessage::Checkmate(_) => strict("checkmate")?,
        EngineMessage::Option(_) => strict("option")?,
        EngineMessage::IdName(_) | EngineMessage::IdAuthor(_)
            if !(text.starts_with("id name ") || text.starts_with("id author ")) =>
        {
            return Err(format!(
                "'{text}': ShogiHome looks for 'id name ' and 'id author ' with one space"
            ));
        }
        _ => {}
    }
    if text.ends_with(' ')
        && matches!(
            parse_engine_line(text),
            EngineMessage::BestMove { .. } | EngineMessage::Checkmate(_) | EngineMessage::Option(_)
        )
        && !text.ends_with("default ")
    {
        return Ok(Some(format!(
            "'{text}' ends in a space (ShogiHome ignores the empty last word; other readers may not)"
        )));
    }
    if !text.is_ascii() {
        return Ok(Some(format!(
            "non-ASCII text in '{text}': Shogidokoro and ShogiGUI read Shift_JIS, ShogiHome UTF-8"
        )));
    }
    Ok(None)
}

fn stdout(h: &Harness, t0: Instant) -> CheckResult {
    let mut fails = Vec::new();
    let mut warns = Vec::new();
    for (check, text) in &h.output {
        match judge_line(text) {
            Err(why) => fails.push((check, text, why)),
            Ok(Some(why)) => warns.push((check, text, why)),
            Ok(None) => {}
        }
    }
    let (status, list) = if !fails.is_empty() {
        (Status::Fail, &fails)
    } else {
        (Status::Warning, &warns)
    };
    let reason = match list.first() {
        None => match h.output.len() {
            1 => "1 line, a USI message".to_string(),
            n => format!("{n} lines, all USI messages"),
        },
        Some((check, _, why)) => {
            let more = match list.len() {
                1 => String::new(),
                n => format!(" ({} more such lines)", n - 1),
            };
            format!("{why}, during {check}{more}")
        }
    };
    CheckResult {
        name: "stdout".to_string(),
        group: Group::Output,
        status: if list.is_empty() {
            Status::Pass
        } else {
            status
        },
        reason,
        transcript: list
            .iter()
            .take(10)
            .map(|(check, text, _)| format!("< {}   (during {check})", cut(text, 160)))
            .collect(),
        elapsed: t0.elapsed(),
    }
}

fn quit(h: &mut Harness, t0: Instant) -> CheckResult {
    let limit = h.cfg.timeout.min(QUIT_LIMIT);
    let result = |v: Verdict, transcript: Vec<String>| {
        CheckResult::new("quit", Group::Output, v, transcript, t0.elapsed())
    };
    let e = match h.ready() {
        Ok(e) => e,
        Err(why) => return CheckResult::not_run("quit", Group::Output, &why),
    };
    let mark = e.transcript_len();
    if e.send("quit").is_err() {
        return result(
            Verdict::fail("the engine no longer read its input at quit"),
            excerpt(e, mark),
        );
    }
    let sent = Instant::now();
    let deadline = sent + limit;
    let mut after = Vec::new();
    let mut open = true;
    let status = loop {
        if let Some(s) = e.exit_status() {
            break Some(s);
        }
        let now = Instant::now();
        if now >= deadline {
            break None;
        }
        if open {
            match e.recv((now + Duration::from_millis(20)).min(deadline)) {
                Ok(Some(l)) => after.push(l.text),
                Ok(None) => {}
                Err(_) => open = false,
            }
        } else {
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    let took = sent.elapsed().as_millis();
    let Some(status) = status else {
        e.kill();
        return result(
            Verdict::fail(format!(
                "still running {} ms after quit (ShogiHome kills it after 5 s)",
                limit.as_millis()
            )),
            excerpt(e, mark),
        );
    };
    let v = if let Some(first) = after.first() {
        Verdict::warn(format!(
            "'{first}' after quit: ShogiHome ignores it, and its own engines must print nothing"
        ))
    } else if !status.success() {
        Verdict::warn(format!("exited {took} ms after quit, with {status}"))
    } else {
        Verdict::pass(format!("exited {took} ms after quit"))
    };
    result(v, excerpt(e, mark))
}

/// The output checks that `wanted` selects: `stdout` over every line seen, then `quit`.
pub(super) fn run(h: &mut Harness, wanted: &dyn Fn(&str) -> bool) -> Vec<CheckResult> {
    let t0 = Instant::now();
    if h.info().is_none() {
        let why = h.broken().unwrap_or("the engine never started").to_string();
        return NAMES
            .iter()
            .filter(|n| wanted(n))
            .map(|n| CheckResult::not_run(n, Group::Output, &why))
            .collect();
    }
    let mut out = Vec::new();
    if wanted("stdout") {
        out.push(stdout(h, t0));
    }
    if wanted("quit") {
        out.push(quit(h, Instant::now()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::judge_line;

    #[test]
    fn usi_lines_pass() {
        for l in [
            "usiok",
            "readyok",
            "id name Saikoro 0.1.0",
            "id author someone  with  spaces",
            "option name Seed type spin default 0 min 0 max 10",
            "bestmove 7g7f ponder 3c3d",
            "bestmove resign",
            "checkmate notimplemented",
            "info depth 1  score cp 20 pv 7g7f",
            "info string seed 42",
        ] {
            assert_eq!(judge_line(l), Ok(None), "{l}");
        }
    }

    /// ShogiHome compares `usiok`/`readyok` with the whole line and splits `bestmove`,
    /// `checkmate` and `option` lines on single spaces.
    #[test]
    fn spacing_that_guis_misread_fails() {
        for l in [
            "usiok ",
            " readyok",
            "bestmove  7g7f",
            "bestmove 7g7f  ponder 3c3d",
            "checkmate\tnomate",
            "option name Seed type spin default 0  min 0 max 10",
            "id  name Saikoro",
        ] {
            assert!(judge_line(l).is_err(), "{l:?}");
        }
    }

    #[test]
    fn other_lines_blank_lines_and_non_ascii_lines_warn() {
        assert!(matches!(judge_line("Engine v1 loaded"), Ok(Some(_))));
        assert!(matches!(
            judge_line("No such option: USI_Hash"),
            Ok(Some(_))
        ));
        assert!(matches!(judge_line(""), Ok(Some(_))));
        assert!(matches!(judge_line("info string 探索中"), Ok(Some(_))));
        assert!(matches!(judge_line("bestmove 7g7f "), Ok(Some(_))));
        // ShogiHome reads `default ` at the end as an empty default.
        assert_eq!(judge_line("option name Log type string default "), Ok(None));
    }
}
