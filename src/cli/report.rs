//! `saikoro report RESULTS [--state FILE] [-o FILE.html] [--running]`: the HTML page of a
//! match from its results file (and its state, for the settings, the engines and the
//! schedule), the same page `saikoro match --report` writes.

use super::flags::{self, Doc, Flag, Step, Takes};
use anyhow::Context;
use saikoro_match::output::report::held_page;
use saikoro_match::output::state;
use saikoro_match::output::state::{SavedMatch, SavedSettings};
use saikoro_match::output::{results_owner, state_of_results};
use saikoro_match::run::report::{page_from_results, write_page};
use saikoro_match::run::scheduler::default_state_path;
use saikoro_outfile::{self as outfile, Named, Own, Replace};
use std::path::{Path, PathBuf};

/// The help before the list of flags.
const HELP_HEAD: &str = "\
Usage: saikoro report RESULTS [--state FILE] [-o FILE.html] [--force] [--running]

Writes one self-contained HTML page of the match whose results file (--results of
`saikoro match`) is RESULTS: the statistics block, the figures, every game, a board for
each; the same page as `saikoro match --report`, its figures from the same code.
";

/// The help after the list of flags.
const HELP_TAIL: &str = "
A results file without a game gives a page with no game (a match that has not played yet).
";

/// `saikoro report --help`: made from [`FLAGS`].
fn help() -> String {
    format!(
        "{HELP_HEAD}{}{HELP_TAIL}",
        flags::help_sections(FLAGS, 16, &[])
    )
}

/// What the command line asks for.
#[derive(Default)]
struct Args {
    results: Option<PathBuf>,
    state: Option<PathBuf>,
    out: Option<PathBuf>,
    force: bool,
    running: bool,
}

type F = Flag<Args>;

/// Every flag of `saikoro report`, in the order of its help.
const FLAGS: &[F] = &[
    F::new(
        "state",
        Takes::Value("FILE"),
        Doc::Text(
            "the match's state file (--state of `saikoro match`): its settings, engines,
command line and schedule [saikoro-match.state beside RESULTS, when it is
the state of the match that wrote RESULTS]. Without one, the settings
RESULTS carries (the first line of each run has them); in a file without
them, the schedule is told from the games and the settings are left out",
        ),
        |a, v| {
            a.state = Some(v.path());
            Ok(())
        },
    ),
    F::new(
        "output",
        Takes::Value("FILE.html"),
        Doc::Head(
            "-o FILE.html",
            "where to write it [RESULTS with .html in place of its extension; the path
is printed]. Never RESULTS or the state file; an existing file is replaced
only when it is a page of the same match (or of no game), or with --force",
        ),
        |a, v| {
            a.out = Some(v.path());
            Ok(())
        },
    )
    .short('o'),
    F::new(
        "force",
        Takes::Nothing,
        Doc::Text("replace FILE.html whatever it holds"),
        |a, _| {
            a.force = true;
            Ok(())
        },
    ),
    F::new(
        "running",
        Takes::Nothing,
        Doc::Text("the match is still running: the page reloads itself every 10 s"),
        |a, _| {
            a.running = true;
            Ok(())
        },
    ),
    F::new("help", Takes::Help, Doc::Hidden, flags::no_setting).short('h'),
];

/// The command line; `None` for `--help`. Its errors are usage errors (exit status 2), in
/// this mode's words: `unknown option "--x"`, `-o needs a file name`.
fn parse(args: Vec<std::ffi::OsString>) -> anyhow::Result<Option<Args>> {
    let mut a = Args::default();
    let mut p = flags::Lexer::new(args);
    loop {
        let step = flags::next(&mut p, FLAGS, &mut a).map_err(|e| {
            if let Some(u) = e.downcast_ref::<flags::UnknownFlag>() {
                let hint = u.hint.map(|h| format!(" (did you mean --{h}?)"));
                return anyhow::anyhow!("unknown option {:?}{}", u.given, hint.unwrap_or_default());
            }
            match e.downcast_ref::<flags::ArgError>() {
                Some(flags::ArgError::MissingValue { option: Some(o) }) => {
                    let o = if o == "--output" { "-o" } else { o.as_str() };
                    anyhow::anyhow!("{o} needs a file name")
                }
                _ => e,
            }
        })?;
        match step {
            None => break,
            Some(Step::Flag(_)) => {}
            Some(Step::Help | Step::Version) => return Ok(None),
            Some(Step::Positional(v)) => {
                let path = PathBuf::from(v);
                let shown = path.to_string_lossy();
                anyhow::ensure!(!shown.starts_with('-'), "unknown option {shown:?}");
                anyhow::ensure!(a.results.is_none(), "one results file only ({shown:?})");
                a.results = Some(path);
            }
        }
    }
    anyhow::ensure!(a.results.is_some(), "no results file given");
    Ok(Some(a))
}

/// The runner's default state file beside `results`.
fn beside_state(results: &Path) -> PathBuf {
    results
        .parent()
        .unwrap_or(Path::new(""))
        .join(default_state_path())
}

/// The state named by `--state`, which must be the state of the match whose results are
/// `text`; or the runner's default state file beside `results` when it is that match's (its
/// `--results` has the same file name, and it is the match of the results' games).
fn find_state(
    results: &Path,
    text: &str,
    given: Option<&Path>,
) -> anyhow::Result<Option<SavedMatch>> {
    if let Some(path) = given {
        let saved = state::load(path)?;
        if let Err(theirs) = state_of_results(&saved, text) {
            anyhow::bail!(
                "--state {} holds {}, not the match of RESULTS {}, which holds {theirs}; \
                 give that match's state, or none",
                path.display(),
                saved.describe(),
                results.display()
            );
        }
        return Ok(Some(saved));
    }
    let Ok(saved) = state::load(&beside_state(results)) else {
        return Ok(None);
    };
    let same = match &saved.settings {
        SavedSettings::Config(c) => c
            .results
            .as_ref()
            .is_some_and(|r| r.file_name() == results.file_name()),
        SavedSettings::Args(_) => false,
    };
    Ok((same && state_of_results(&saved, text).is_ok()).then_some(saved))
}

/// Runs `saikoro report`.
pub fn main(args: Vec<std::ffi::OsString>) -> anyhow::Result<std::process::ExitCode> {
    let Some(a) = parse(args).map_err(|e| super::usage("report", e))? else {
        print!("{}", help());
        return Ok(std::process::ExitCode::SUCCESS);
    };
    let results = a.results.clone().unwrap_or_default();
    let results_name = results.display().to_string();
    let results = results.as_path();
    // A file that cannot be read or is no results file fails (status 1), as
    // docs/exit-status.md says; only the command line's errors are usage errors.
    let text =
        std::fs::read_to_string(results).with_context(|| format!("reading {results_name}"))?;
    let saved = find_state(results, &text, a.state.as_deref())?;
    let defaulted = a.out.is_none();
    let out = a.out.unwrap_or_else(|| results.with_extension("html"));
    // The state given, or the one looked for beside the results (kept even when it is
    // another match's: it is still a match's state).
    let state = a.state.clone().unwrap_or_else(|| beside_state(results));
    let inputs = [
        Named::new("RESULTS", results),
        Named::new("--state", &state),
    ];
    // The page names the results' match (or the state's): a page of that match is replaced,
    // as is one of no game; another match's only with --force.
    let owner = results_owner(text.lines()).or_else(|| saved.as_ref().and_then(|s| s.id.clone()));
    let replace = Replace {
        own: Some(Own {
            kind: "a report page",
            read: held_page,
        }),
        owner: owner.as_deref(),
        ..Replace::with_flag("--force", a.force)
    };
    let flag = if defaulted { "the page" } else { "-o" };
    outfile::check(Named::new(flag, &out), &inputs, replace)?;
    let title = format!("Match: {}", results_name);
    let data = page_from_results(&title, &text, saved.as_ref(), a.running)
        .with_context(|| format!("reading {}", results_name))?;
    write_page(&out, &data).with_context(|| format!("writing {}", out.display()))?;
    if defaulted {
        eprintln!("saikoro report: wrote {}", out.display());
    }
    Ok(std::process::ExitCode::SUCCESS)
}
