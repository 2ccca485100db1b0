//! `saikoro report RESULTS [-o FILE.html]`: the HTML page of a match from its results file.

use anyhow::Context;
use saikoro::tournament::output::report::{
    engine_index, html_page, results_block, utc_text, PageData, ResultsGame,
};

/// `saikoro report --help`.
pub const USAGE: &str = "\
Usage: saikoro report RESULTS [-o FILE.html] [--running]

Writes one self-contained HTML page of the match whose results file (--results of
`saikoro match`) is RESULTS: the statistics block, every game, a board for each.
  -o FILE.html  where to write it (default: RESULTS with .html in place of its extension)
  --running     the match is still running: the page reloads itself every 10 s
";

/// The command line: the results file, the page's file and `--running`; `None` for
/// `--help`. Its errors are usage errors (exit status 2).
fn parse(args: Vec<String>) -> anyhow::Result<Option<(String, Option<String>, bool)>> {
    let (mut results, mut out, mut running) = (None, None, false);
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-h" | "--help" => return Ok(None),
            "-o" | "--output" => out = Some(it.next().context("-o needs a file name")?),
            "--running" => running = true,
            _ if a.starts_with('-') => anyhow::bail!("unknown option {a:?}"),
            _ if results.is_none() => results = Some(a),
            _ => anyhow::bail!("one results file only ({a:?})"),
        }
    }
    let results = results.context("no results file given")?;
    Ok(Some((results, out, running)))
}

/// Runs `saikoro report`.
pub fn main(args: Vec<std::ffi::OsString>) -> anyhow::Result<std::process::ExitCode> {
    let args = super::utf8_args(args)?;
    let Some((results, out, running)) = parse(args).map_err(|e| super::usage("report", e))? else {
        print!("{USAGE}");
        return Ok(std::process::ExitCode::SUCCESS);
    };
    let text = std::fs::read_to_string(&results).with_context(|| format!("reading {results}"))?;
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with('{')).collect();
    let block = results_block(&lines).unwrap_or_default();
    let mut data = PageData {
        title: format!("Match: {results}"),
        finished: !running,
        version: env!("CARGO_PKG_VERSION").to_string(),
        updated: utc_text(std::time::SystemTime::now()),
        block,
        ..PageData::default()
    };
    let mut names = Vec::new();
    for g in lines.iter().filter_map(|l| ResultsGame::parse(l)) {
        let (b, w) = (
            engine_index(&mut names, &g.black),
            engine_index(&mut names, &g.white),
        );
        g.push_to(&mut data.games, b, w);
    }
    let page = html_page(&data);
    let out = out.unwrap_or_else(|| {
        std::path::Path::new(&results)
            .with_extension("html")
            .to_string_lossy()
            .into_owned()
    });
    let tmp = format!("{out}.tmp");
    std::fs::write(&tmp, page).with_context(|| format!("writing {tmp}"))?;
    std::fs::rename(&tmp, &out).with_context(|| format!("renaming {tmp} to {out}"))?;
    Ok(std::process::ExitCode::SUCCESS)
}
