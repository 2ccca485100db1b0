//! Start-up: `usi` → `id name`, `id author`, `option` lines and `usiok` within the time GUIs
//! allow; then the user's options and `isready` → `readyok`. When either answer never comes,
//! no later check can run.

use super::session::{excerpt, Harness, Verdict, EXIT_SOON};
use super::{CheckResult, Group};
use saikoro_driver::{ClientError, EngineInfo, EngineSession, FaultPolicy, StartError, UsiClient};
use saikoro_usi::OptionKind;
use std::time::Instant;

/// The start-up checks, in order.
pub(super) const NAMES: [&str; 5] = ["usiok", "id-name", "id-author", "option-lines", "readyok"];

fn result(name: &str, v: Verdict, transcript: Vec<String>, t0: Instant) -> CheckResult {
    CheckResult::new(name, Group::StartUp, v, transcript, t0.elapsed())
}

fn not_run(name: &str, why: &str) -> CheckResult {
    CheckResult::not_run(name, Group::StartUp, why)
}

/// What happened to an engine whose output ended or that stopped reading (`err`).
fn ended(e: &mut UsiClient, err: &ClientError) -> String {
    if let Some(status) = e.wait_exit(EXIT_SOON) {
        return format!("the engine exited ({status})");
    }
    match err {
        ClientError::Exited(Some(status)) => format!("the engine exited ({status})"),
        ClientError::Exited(None) => "the engine closed its output".to_string(),
        other => other.to_string(),
    }
}

/// The verdict on the option declarations.
fn option_lines(info: &EngineInfo) -> Verdict {
    if let Some((line, err)) = info.bad_options.first() {
        let more = match info.bad_options.len() {
            1 => String::new(),
            n => format!(" ({} more unreadable option lines)", n - 1),
        };
        // ShogiHome splits the line on single spaces and wants `name` and `type` as its first
        // and third words: it drops a line whose name has spaces.
        let words: Vec<&str> = line.split(' ').collect();
        let dropped = if words.get(1) == Some(&"name") && words.get(3) != Some(&"type") {
            "; ShogiHome drops it (it reads 'name <one word> type <type>' at fixed word positions), so the option cannot be seen or set"
        } else {
            ""
        };
        return Verdict::fail(format!("'{line}': {err}{dropped}{more}"));
    }
    if let Some(spaced) = names_with_spaces(info) {
        return Verdict::fail(spaced);
    }
    if let Some((o, why)) = info
        .options
        .iter()
        .find_map(|o| o.inconsistency().map(|w| (o, w)))
    {
        return Verdict::fail(format!("option {}: {why}", o.name));
    }
    let mut warnings = Vec::new();
    for (i, o) in info.options.iter().enumerate() {
        if info.options[..i]
            .iter()
            .any(|p| p.name.eq_ignore_ascii_case(&o.name))
        {
            warnings.push(format!("option {} is declared twice", o.name));
        }
        let expected = match o.name.as_str() {
            "USI_Ponder" => Some("check"),
            "USI_Hash" => Some("spin"),
            _ => None,
        };
        if let Some(t) = expected.filter(|&t| t != o.type_name()) {
            warnings.push(format!(
                "{} is declared as a {}; GUIs treat it as a {t}",
                o.name,
                o.type_name()
            ));
        }
        if let OptionKind::Combo { vars, .. } = &o.kind {
            if vars.is_empty() {
                warnings.push(format!("combo option {} has no var", o.name));
            }
        }
    }
    if let Some(w) = warnings.first() {
        return Verdict::warn(w.clone());
    }
    let list: Vec<String> = info
        .options
        .iter()
        .take(6)
        .map(|o| format!("{} ({})", o.name, o.type_name()))
        .collect();
    let rest = info.options.len().saturating_sub(6);
    Verdict::pass(match info.options.len() {
        0 => "no options declared".to_string(),
        n => format!(
            "{n} readable option{}: {}{}",
            if n == 1 { "" } else { "s" },
            list.join(", "),
            if rest > 0 {
                format!(", {rest} more")
            } else {
                String::new()
            }
        ),
    })
}

/// The failure for options whose names have spaces (Fairy-Stockfish's `Skill Level`), if
/// any: the USI draft's names are one word, and ShogiHome drops such a line.
fn names_with_spaces(info: &EngineInfo) -> Option<String> {
    let spaced: Vec<&str> = info
        .options
        .iter()
        .map(|o| o.name.as_str())
        .filter(|n| n.contains(' '))
        .collect();
    let what = match spaced.as_slice() {
        [] => return None,
        [one] if one.matches(' ').count() == 1 => format!("option name '{one}' has a space"),
        [one] => format!("option name '{one}' has spaces"),
        many => format!(
            "{} option names have spaces ({})",
            many.len(),
            many.join(", ")
        ),
    };
    Some(format!(
        "{what}: USI names are one word, and ShogiHome drops such a line (it reads 'name <one \
         word> type <type>' at fixed word positions), so the option cannot be seen or set there \
         (saikoro match and csa read such a name as declared, and send it so)"
    ))
}

/// Runs the start-up checks on a fresh process and hands it to the harness when it is ready.
pub(super) fn run(h: &mut Harness) -> Vec<CheckResult> {
    let t0 = Instant::now();
    let policy = h.cfg.policy();
    let mut s = match start(h, &policy, t0) {
        Ok(s) => s,
        Err(out) => return out,
    };
    let mut out = greeting(&mut s, t0);
    out.push(readyok(h, s, &policy, t0));
    out
}

/// Spawns the engine and sends `usi`: the session that answered `usiok`, or (after giving the
/// harness up) the results of every start-up check.
fn start(
    h: &mut Harness,
    policy: &FaultPolicy,
    t0: Instant,
) -> Result<EngineSession, Vec<CheckResult>> {
    let timeout = policy.startup;
    let mut s = match EngineSession::spawn(&h.spec()) {
        Ok(s) => s,
        Err(err) => {
            let why = format!("cannot start the engine: {err}");
            let mut out = vec![result("usiok", Verdict::fail(&why), Vec::new(), t0)];
            let later = "the engine cannot be started (see usiok)";
            out.extend(NAMES[1..].iter().map(|n| not_run(n, later)));
            h.give_up(later.to_string(), None);
            return Err(out);
        }
    };
    let Err(err) = s.handshake(policy) else {
        return Ok(s);
    };
    let why = match &err {
        ClientError::Timeout { .. } => format!(
            "no usiok within {} ms (ShogiHome gives up after 10 s by default)",
            timeout.as_millis()
        ),
        other => format!("{} before usiok", ended(&mut s.client, other)),
    };
    let mut out = vec![result(
        "usiok",
        Verdict::fail(&why),
        excerpt(&mut s.client, 0),
        t0,
    )];
    let later = "the start-up failed (see usiok)";
    out.extend(NAMES[1..].iter().map(|n| not_run(n, later)));
    h.give_up(later.to_string(), Some(s.client));
    Err(out)
}

/// The verdicts on what came before `usiok`: `usiok` itself, the two `id` lines and the
/// option declarations.
fn greeting(s: &mut EngineSession, t0: Instant) -> Vec<CheckResult> {
    let all = excerpt(&mut s.client, 0);
    let info = &s.info;
    let id = |what: &str, value: &Option<String>| {
        match value.as_deref().map(str::trim) {
        Some(v) if !v.is_empty() => Verdict::pass(format!("'{v}'")),
        // The draft requires both; ShogiHome names an engine without `id name` "NO NAME" and
        // leaves the author empty, so neither loses a game: warnings.
        Some(_) => Verdict::warn(format!(
            "'id {what}' is empty (the USI draft requires both id lines; ShogiHome shows a default)"
        )),
        None => Verdict::warn(format!(
            "no 'id {what}' line before usiok (the USI draft requires both id lines; ShogiHome shows a default)"
        )),
    }
    };
    vec![
        result(
            "usiok",
            Verdict::pass(format!(
                "usiok {} ms after usi",
                info.answered_in.as_millis()
            )),
            all.clone(),
            t0,
        ),
        result("id-name", id("name", &info.name), all.clone(), t0),
        result("id-author", id("author", &info.author), all.clone(), t0),
        result("option-lines", option_lines(info), all, t0),
    ]
}

/// Sets the user's options and sends `isready`: the `readyok` check. The harness adopts the
/// engine when it is ready and gives up otherwise.
fn readyok(
    h: &mut Harness,
    mut s: EngineSession,
    policy: &FaultPolicy,
    t0: Instant,
) -> CheckResult {
    let mark = s.client.transcript_len();
    let configured = s.configure(&h.cfg.options, policy);
    for w in s.warnings(policy) {
        log::warn!("{w}");
    }
    let ready = match configured {
        Ok(()) => s.ready(policy),
        Err(StartError::Ready(e)) => Err(e),
        Err(other) => Err(ClientError::Write(std::io::Error::other(other.to_string()))),
    };
    match ready {
        Ok(took) => {
            let r = result(
                "readyok",
                Verdict::pass(format!("readyok {} ms after isready", took.as_millis())),
                Vec::new(),
                t0,
            );
            h.adopt(s.client, s.info);
            r
        }
        Err(err) => {
            let why = match &err {
                ClientError::Timeout { .. } => {
                    format!(
                        "no readyok within {} ms of isready",
                        policy.ready.as_millis()
                    )
                }
                other => format!("{} before readyok", ended(&mut s.client, other)),
            };
            let r = result(
                "readyok",
                Verdict::fail(&why),
                excerpt(&mut s.client, mark),
                t0,
            );
            h.give_up(
                "the start-up failed (see readyok)".to_string(),
                Some(s.client),
            );
            r
        }
    }
}
