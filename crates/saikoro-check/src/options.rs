//! Options: `setoption` for every declared option with its default, and for every spin with its
//! min and max, as GUIs send them at each game start, with `isready` after each; and the two
//! options ShogiHome and Shogidokoro send whether or not they were declared. Options fixed with
//! `--option` are left alone; buttons are not pressed (GUIs press them only on the user's
//! request, and they may do anything).

use super::session::{Ctx, Step, Verdict};
use super::{Check, Group};
use saikoro_usi::OptionKind;
use std::time::Duration;

pub(super) fn checks() -> Vec<Check> {
    vec![
        Check::new("setoption-defaults", Group::Options, defaults),
        Check::new("setoption-limits", Group::Options, limits),
        Check::new("setoption-undeclared", Group::Options, undeclared),
    ]
}

/// How long the checker waits for the `readyok` after a `setoption` before it fails: ShogiHome
/// waits without a limit, so only an engine that never answers is lost. Past the timeout the
/// answer is a warning with its figure (Shogidokoro and ShogiGUI may give up on a long
/// `isready`, YaneuraOu's source notes).
pub(crate) const SLOW_READY_LIMIT: Duration = Duration::from_secs(60);

/// `setoption name <name> value <value>` (an empty value ends in a space, as ShogiHome sends an
/// `<empty>` default), then `isready` → `readyok`.
fn set_and_ready(ctx: &mut Ctx, name: &str, value: &str) -> Result<(), Verdict> {
    let line = format!("setoption name {name} value {value}");
    // A crash here costs the engine its use: ShogiHome and Shogidokoro send the stored value of
    // every option at every start.
    let crashed = |v: Verdict| Verdict {
        reason: format!(
            "{} (GUIs send the stored value of every option at every start)",
            v.reason
        ),
        ..v
    };
    ctx.send(&line).map_err(crashed)?;
    let limit = SLOW_READY_LIMIT.max(ctx.cfg.timeout);
    match ctx.fence_within(limit).map_err(crashed)? {
        Some((_, took)) if took > ctx.cfg.timeout => {
            ctx.warn(format!(
                "readyok {} ms after '{line}', more than {} ms (ShogiHome waits for readyok without a limit; Shogidokoro and ShogiGUI may give up on a long isready)",
                took.as_millis(),
                ctx.cfg.timeout.as_millis()
            ));
            Ok(())
        }
        Some(_) => Ok(()),
        None => Err(Verdict::fail(format!(
            "no readyok within {} ms after '{line}' (a GUI waits for it before every game)",
            limit.as_millis()
        ))),
    }
}

fn pinned_note(n: usize) -> String {
    match n {
        0 => String::new(),
        n => format!(" ({n} fixed by --option left alone)"),
    }
}

fn defaults(ctx: &mut Ctx) -> Step {
    let mut set = 0;
    let mut pinned = 0;
    for o in &ctx.info.options {
        let Some(value) = o.default_value() else {
            continue;
        };
        if ctx.cfg.pins(&o.name) {
            pinned += 1;
            continue;
        }
        set_and_ready(ctx, &o.name, &value)?;
        set += 1;
    }
    Ok(ctx.pass(match set {
        0 => format!("no option to set{}", pinned_note(pinned)),
        1 => format!(
            "1 option set to its default, readyok after it{}",
            pinned_note(pinned)
        ),
        n => format!(
            "{n} options set to their defaults, readyok after each{}",
            pinned_note(pinned)
        ),
    }))
}

/// The largest hash size (MB) the checker sets: a declared maximum such as YaneuraOu's
/// `USI_Hash` 33554432 would have the engine allocate and clear more memory than the machine
/// has, which tests the machine, not the engine.
const HASH_CAP_MB: i64 = 1024;

/// The largest thread count the checker sets: twice the cores of the machine it runs on. A
/// declared maximum such as Fairy-Stockfish's `Threads` 512 or YaneuraOu's 1024 tests the
/// machine (on 2 cores with 24 GB, Fairy-Stockfish held 11 GB after 15 s of `isready` and gave
/// no `readyok` in 10 minutes; YaneuraOu died of SIGSEGV), not the engine.
fn thread_cap() -> i64 {
    2 * std::thread::available_parallelism().map_or(1, |n| n.get()) as i64
}

/// Whether a spin option is a thread count (`Threads`, `NumberOfThreads`: the names ShogiHome
/// knows).
fn is_thread_count(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with("threads")
}

/// Whether a spin option is a hash table size in megabytes (`USI_Hash`, `Hash`, `EvalHash`).
fn is_hash_size(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with("hash")
}

fn limits(ctx: &mut Ctx) -> Step {
    let mut set = 0;
    let mut pinned = 0;
    let mut capped = Vec::new();
    for o in &ctx.info.options {
        let OptionKind::Spin { default, min, max } = o.kind else {
            continue;
        };
        if ctx.cfg.pins(&o.name) {
            pinned += 1;
            continue;
        }
        let cap = if is_hash_size(&o.name) {
            Some(HASH_CAP_MB)
        } else if is_thread_count(&o.name) {
            Some(thread_cap())
        } else {
            None
        };
        let top = match cap.map(|c| c.max(default)) {
            Some(c) if max > c => {
                capped.push(format!("{} {c}", o.name));
                c
            }
            _ => max,
        };
        for v in [min, top, default] {
            set_and_ready(ctx, &o.name, &v.to_string())?;
        }
        set += 1;
    }
    let capped = match capped.len() {
        0 => String::new(),
        _ => format!(
            "; hash sizes capped at {HASH_CAP_MB} MB and thread counts at {} (twice the cores here), or the default, instead of their max: {}",
            thread_cap(),
            capped.join(", ")
        ),
    };
    Ok(ctx.pass(match set {
        0 => format!("no spin option{}", pinned_note(pinned)),
        n => format!(
            "{n} spin option{} set to min, max and back to default, readyok after each{}{capped}",
            if n == 1 { "" } else { "s" },
            pinned_note(pinned)
        ),
    }))
}

fn undeclared(ctx: &mut Ctx) -> Step {
    // ShogiHome adds both when the engine does not declare them (USI_Hash 32, USI_Ponder
    // true); Shogidokoro always sends both.
    let extras: Vec<(&str, &str)> = [("USI_Hash", "32"), ("USI_Ponder", "true")]
        .into_iter()
        .filter(|(n, _)| ctx.info.option(n).is_none() && !ctx.cfg.pins(n))
        .collect();
    if extras.is_empty() {
        return Ok(Verdict::pass(
            "USI_Hash and USI_Ponder are declared (set with the others)",
        ));
    }
    for (name, value) in &extras {
        set_and_ready(ctx, name, value)?;
    }
    let names: Vec<&str> = extras.iter().map(|(n, _)| *n).collect();
    Ok(ctx.pass(format!(
        "undeclared {} accepted (GUIs send {} anyway)",
        names.join(" and "),
        if names.len() == 1 { "it" } else { "them" }
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_sizes_and_thread_counts_by_name() {
        for n in ["USI_Hash", "Hash", "EvalHash"] {
            assert!(is_hash_size(n) && !is_thread_count(n), "{n}");
        }
        for n in ["Threads", "NumberOfThreads"] {
            assert!(is_thread_count(n) && !is_hash_size(n), "{n}");
        }
        assert!(!is_thread_count("MultiPV") && !is_hash_size("Contempt"));
        assert!(thread_cap() >= 2);
    }
}
