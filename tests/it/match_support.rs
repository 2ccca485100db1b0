//! What the `saikoro match` tests share: running the binary with a deadline, the engines'
//! words, and reading the results file by plain text search (not with the runner's reader).

use crate::usi_support::{self, fault_engine, Dir, Run, BIN};
use std::process::Child;
use std::time::{Duration, Instant};

/// Generous: a match here takes well under a second, but CI machines are slow and shared.
pub const DEADLINE: Duration = Duration::from_secs(120);

/// The results file's lines.
pub fn results(dir: &Dir) -> Vec<String> {
    dir.read("results.jsonl")
        .lines()
        .map(String::from)
        .collect()
}

/// Writes `bare.jsonl`: the results file without the settings its runs' first lines carry, as a
/// file written before they were kept.
pub fn write_results_without_settings(dir: &Dir) {
    let bare: String = results(dir)
        .iter()
        .map(|l| match l.find(",\"settings\":{") {
            Some(at) => format!("{}}}\n", &l[..at]),
            None => format!("{l}\n"),
        })
        .collect();
    dir.write("bare.jsonl", &bare);
}

pub fn start(dir: &Dir, args: &[String]) -> Child {
    let mut all = vec!["match".to_string()];
    all.extend_from_slice(args);
    usi_support::start_in(std::path::Path::new(&*BIN), dir, &all)
}

pub fn finish(child: Child) -> Run {
    usi_support::finish(child, Instant::now(), DEADLINE)
}

/// Runs `saikoro match ARGS` in `dir` with `--results results.jsonl --state state` added.
pub fn run(dir: &Dir, args: &[String]) -> Run {
    let mut all = args.to_vec();
    all.extend(words("--results results.jsonl --state state"));
    finish(start(dir, &all))
}

pub fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// `--engine` words for Saikoro with a fixed seed.
pub fn saikoro(name: &str, seed: u32) -> Vec<String> {
    vec![
        "--engine".into(),
        format!("cmd={BIN}"),
        format!("name={name}"),
        format!("option.Seed={seed}"),
    ]
}

/// `--engine` words for the fault engine with these faults.
pub fn faulty(name: &str, faults: &[&str]) -> Vec<String> {
    let mut args = "--seed 3".to_string();
    for f in faults {
        args.push_str(" --fault ");
        args.push_str(f);
    }
    vec![
        "--engine".into(),
        format!("cmd={}", fault_engine().display()),
        format!("args={args}"),
        format!("name={name}"),
    ]
}

/// `--engine` words for the fault engine that starts without faults the first time (the
/// match's probe before its first game) and with these faults every time after: a shell
/// script in `dir` that counts its starts in a file.
#[cfg(unix)]
pub fn faulty_after_first_start(dir: &Dir, name: &str, faults: &[&str]) -> Vec<String> {
    let engine = fault_engine().display().to_string();
    let mark = dir.path(&format!("{name}.started")).display().to_string();
    let mut fault_args = String::new();
    for f in faults {
        fault_args.push_str(&format!(" --fault {f}"));
    }
    let script = script(
        dir,
        &format!("{name}.sh"),
        &format!(
            "if [ -e '{mark}' ]; then exec '{engine}' --seed 3{fault_args} \"$@\"; fi\n\
             : > '{mark}'\nexec '{engine}' --seed 3 \"$@\"\n"
        ),
    );
    vec![
        "--engine".into(),
        format!("cmd={script}"),
        format!("name={name}"),
    ]
}

/// An executable shell script `name` in `dir` with the lines `body`; returns its path.
#[cfg(unix)]
pub fn script(dir: &Dir, name: &str, body: &str) -> String {
    crate::usi_support::write_script(&dir.path(name), body)
}

pub fn cat(parts: &[Vec<String>]) -> Vec<String> {
    parts.concat()
}

/// A field of a results line, read by plain text search (not with the runner's reader): the
/// string value of `"key":"…"` (no escapes in these tests) or the raw number of `"key":N`.
pub fn field(line: &str, key: &str) -> Option<String> {
    let pat = format!("\"{key}\":");
    let at = line.find(&pat)? + pat.len();
    let rest = &line[at..];
    Some(match rest.strip_prefix('"') {
        Some(s) => s[..s.find('"')?].to_string(),
        None => rest[..rest.find([',', '}'])?].to_string(),
    })
}

/// The `moves` array of a results line.
pub fn moves(line: &str) -> Vec<String> {
    let at = line.find("\"moves\":[").unwrap() + 9;
    let inner = &line[at..at + line[at..].find(']').unwrap()];
    inner
        .split(',')
        .filter(|m| !m.is_empty())
        .map(|m| m.trim_matches('"').to_string())
        .collect()
}

pub fn openings(dir: &Dir, lines: &str) -> Vec<String> {
    let f = dir.write("openings.sfen", lines);
    vec!["--openings".into(), format!("file={f}")]
}

/// The report after the last separator line pair (the final table).
pub fn final_table(out: &str) -> String {
    let lines: Vec<&str> = out.lines().collect();
    let seps: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("-----"))
        .map(|(i, _)| i)
        .collect();
    let (a, b) = (seps[seps.len() - 2], seps[seps.len() - 1]);
    lines[a..=b].join("\n")
}
