//! Options: `setoption` for every declared option with its default, and for every spin with its
//! min and max, as GUIs send them at each game start, with `isready` after each; and the two
//! options ShogiHome and Shogidokoro send whether or not they were declared. Options fixed with
//! `--option` are left alone; buttons are not pressed (GUIs press them only on the user's
//! request, and they may do anything).

use super::session::{Ctx, Step, Verdict};
use super::{Check, Group};
use crate::usi::OptionKind;

pub(super) fn checks() -> Vec<Check> {
    vec![
        Check::new("setoption-defaults", Group::Options, defaults),
        Check::new("setoption-limits", Group::Options, limits),
        // The options are left as the checks set them: the next checks get a fresh process.
        Check::new("setoption-undeclared", Group::Options, undeclared).then_restart(),
    ]
}

/// `setoption name <name> value <value>` (an empty value ends in a space, as ShogiHome sends an
/// `<empty>` default), then `isready` → `readyok`.
fn set_and_ready(ctx: &mut Ctx, name: &str, value: &str) -> Result<(), Verdict> {
    let line = format!("setoption name {name} value {value}");
    ctx.send(&line)?;
    match ctx.fence()? {
        Some(_) => Ok(()),
        None => Err(Verdict::fail(format!(
            "no readyok within {} ms after '{line}'",
            ctx.cfg.timeout.as_millis()
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
        let top = if is_hash_size(&o.name) && max > HASH_CAP_MB.max(default) {
            capped.push(format!("{} {}", o.name, HASH_CAP_MB.max(default)));
            HASH_CAP_MB.max(default)
        } else {
            max
        };
        for v in [min, top, default] {
            set_and_ready(ctx, &o.name, &v.to_string())?;
        }
        set += 1;
    }
    let capped = match capped.len() {
        0 => String::new(),
        _ => format!(
            "; hash sizes capped at {HASH_CAP_MB} MB (or the default) instead of their max: {}",
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
