//! `saikoro match` and the files it writes, through the real binary: nothing of another match
//! is overwritten or mixed (a used records directory, results file or unfinished state is
//! refused before any engine starts, `--overwrite` starts anew), and `--resume` extends a
//! match or names the argument that differs.

use crate::match_support;
use crate::usi_support;

use match_support::*;
use usi_support::{fault_engine, Dir};

/// A Saikoro-like engine that appends its pid to `pids` when it starts: the fault engine with
/// no fault.
fn watched(dir: &Dir, name: &str) -> Vec<String> {
    vec![
        "--engine".into(),
        format!("cmd={}", fault_engine().display()),
        format!("args=--seed 1 --pid-file {}", dir.path("pids").display()),
        format!("name={name}"),
    ]
}

fn a_match(dir: &Dir, extra: &str) -> Vec<String> {
    cat(&[
        watched(dir, "a"),
        saikoro("b", 2),
        words("--each depth=1 --rounds 1 --maxplies 30 --ratinginterval 0 --records rec"),
        words(extra),
    ])
}

/// The game numbers of the results file, in its order.
fn numbers(dir: &Dir) -> Vec<u64> {
    results(dir)
        .iter()
        .map(|l| field(l, "game").unwrap().parse().unwrap())
        .collect()
}

#[test]
fn another_matchs_outputs_are_refused_before_any_engine_starts() {
    let dir = Dir::new("files-refuse");
    let r = run(&dir, &a_match(&dir, ""));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    assert_eq!(numbers(&dir), [1, 2]);
    let records = || {
        let mut v: Vec<String> = std::fs::read_dir(dir.path("rec"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(records(), ["game-00001.csa", "game-00002.csa"]);
    let first_record = dir.read("rec/game-00001.csa");
    let starts = || dir.read("pids").lines().count();
    let started = starts();

    // The same outputs again: refused, naming the file and the ways on; no engine started,
    // nothing written.
    let again = run(&dir, &a_match(&dir, ""));
    assert_eq!(again.status.code(), Some(1), "{}", again.err);
    assert!(
        again
            .err
            .contains("--state state already holds a finished match of a vs b (2 games)"),
        "{}",
        again.err
    );
    for way in ["--resume", "another file", "--overwrite"] {
        assert!(again.err.contains(way), "{}", again.err);
    }
    assert_eq!(starts(), started, "an engine was started");
    assert_eq!(numbers(&dir), [1, 2]);
    // A state of its own: the results file is the first match's.
    let own_state = cat(&[
        a_match(&dir, ""),
        words("--results results.jsonl --state state2"),
    ]);
    let again = finish(start(&dir, &own_state));
    assert_eq!(again.status.code(), Some(1), "{}", again.err);
    assert!(
        again.err.contains(
            "--results results.jsonl already holds the results of 2 games of another match"
        ),
        "{}",
        again.err
    );
    assert_eq!(starts(), started, "an engine was started");
    assert_eq!(numbers(&dir), [1, 2]);

    // Another results file, the same records directory: refused for the records.
    let other = cat(&[
        watched(&dir, "a"),
        saikoro("b", 2),
        words("--each depth=1 --rounds 1 --maxplies 30 --records rec --results other.jsonl --state state2"),
    ]);
    let r = finish(start(&dir, &other));
    assert_eq!(r.status.code(), Some(1), "{}", r.err);
    assert!(
        r.err
            .contains("--records rec already holds 2 game records of another match"),
        "{}",
        r.err
    );
    assert_eq!(starts(), started);
    assert_eq!(dir.read("rec/game-00001.csa"), first_record);

    // --overwrite: starts anew, the old results and records gone.
    let r = run(&dir, &a_match(&dir, "--overwrite --rounds 2 --games 1"));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    assert_eq!(numbers(&dir), [1, 2]);
    assert_eq!(records(), ["game-00001.csa", "game-00002.csa"]);
    assert_ne!(dir.read("rec/game-00002.csa"), "");
}

/// An unfinished match's state (here: stopped by its failing engine) is refused; `--resume`
/// goes on with it.
#[test]
fn an_unfinished_state_is_refused_and_resumed() {
    let dir = Dir::new("files-unfinished");
    // The fault engine crashes in every game: the match stops after 1 failure.
    let args = cat(&[
        faulty("crashy", &["crash@2"]),
        saikoro("b", 2),
        words("--each depth=1 --rounds 2 --max-failures 1 --ratinginterval 0"),
    ]);
    let r = run(&dir, &args);
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.out, r.err);
    let fresh = cat(&[
        saikoro("a", 1),
        saikoro("b", 2),
        words("--each depth=1 --rounds 1 --results other.jsonl --state state"),
    ]);
    let again = finish(start(&dir, &fresh));
    assert_eq!(again.status.code(), Some(1), "{}", again.err);
    assert!(
        again
            .err
            .contains("--state state already holds an unfinished match"),
        "{}",
        again.err
    );
    assert!(!dir.path("other.jsonl").exists());
}

/// The issue's case: a second match in the same folder, with the same page and the default
/// state, replaces neither the first match's page nor its state (both are the only copy of
/// it, with no results file); `--resume` extends the first match; a page another match wrote
/// over (with `--overwrite`) is refused to the first match's `--resume`.
#[test]
fn a_second_match_replaces_neither_the_first_matchs_page_nor_its_state() {
    let dir = Dir::new("files-second");
    let first_match = |rounds: &str| {
        cat(&[
            saikoro("a", 1),
            saikoro("b", 2),
            words("--each depth=1 --maxplies 30 --ratinginterval 0 --report r.html --rounds"),
            words(rounds),
        ])
    };
    let second = cat(&[
        saikoro("c", 3),
        saikoro("d", 4),
        words("--each depth=1 --rounds 1 --maxplies 30 --ratinginterval 0 --report r.html"),
    ]);
    let title = |dir: &Dir| {
        let page = dir.read("r.html");
        let at = page.find("<title>").unwrap();
        page[at..at + page[at..].find("</title>").unwrap()].to_string()
    };
    let r = finish(start(&dir, &first_match("1")));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    let (page, state) = (dir.read("r.html"), dir.read("saikoro-match.state"));
    assert_eq!(title(&dir), "<title>Match: a vs b");

    // The default state holds the first match: refused first, nothing written.
    let r = finish(start(&dir, &second));
    assert_eq!(r.status.code(), Some(1), "{}", r.err);
    assert!(
        r.err.contains(
            "--state saikoro-match.state already holds a finished match of a vs b (2 games); \
             to go on with that match use --resume, to keep it give another file, or \
             --overwrite to start anew"
        ),
        "{}",
        r.err
    );
    assert_eq!(dir.read("r.html"), page);
    assert_eq!(dir.read("saikoro-match.state"), state);
    // A state of its own: the page is still the first match's.
    let mut own_state = second.clone();
    own_state.extend(words("--state s2"));
    let r = finish(start(&dir, &own_state));
    assert_eq!(r.status.code(), Some(1), "{}", r.err);
    assert!(
        r.err
            .contains("--report r.html already holds the page of another match (a vs b, 2 games)"),
        "{}",
        r.err
    );
    assert_eq!(dir.read("r.html"), page);
    assert!(!dir.path("s2").exists());

    // --resume extends the first match, its page and state.
    let r = finish(start(&dir, &words("--resume --rounds 2")));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    assert!(r.out.contains("Finished game 3 (a vs b)"), "{}", r.out);
    assert_eq!(title(&dir), "<title>Match: a vs b");
    assert!(final_table(&r.out).contains("Games: 4,"), "{}", r.out);
    // With no results file, the page was the only copy of the first two games: it keeps their
    // rows, the new games' after them.
    let resumed = dir.read("r.html");
    assert!(resumed.contains("data-games=\"4\""), "{resumed}");
    let data_at = resumed.find("\"games\":[[1,").expect("game 1's row");
    assert!(resumed[data_at..].contains("],[2,"), "game 2's row");

    // Another match takes the page with --overwrite (its own state): the first match's
    // --resume refuses to write over it, and leaves it.
    own_state.push("--overwrite".into());
    let r = finish(start(&dir, &own_state));
    assert!(r.status.success(), "{}", r.err);
    assert_eq!(title(&dir), "<title>Match: c vs d");
    let page = dir.read("r.html");
    let r = finish(start(&dir, &words("--resume --rounds 3")));
    assert_eq!(r.status.code(), Some(1), "{}", r.err);
    assert!(
        r.err.contains(
            "--report r.html already holds the page of another match (c vs d, 2 games); it is \
             not the resumed match's"
        ),
        "{}",
        r.err
    );
    assert_eq!(dir.read("r.html"), page);
}

/// `--resume --rounds N` extends a finished match: the new rounds are played, the results file
/// holds every game once; any other argument that differs is named.
#[test]
fn resume_extends_a_match_and_names_what_differs() {
    let dir = Dir::new("files-extend");
    let base = cat(&[
        saikoro("a", 0),
        saikoro("b", 0),
        words("--each depth=1 --rounds 2 --maxplies 40 --ratinginterval 0"),
    ]);
    let r = run(&dir, &base);
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    assert_eq!(numbers(&dir), [1, 2, 3, 4]);

    let differs = run(&dir, &words("--resume --games 4"));
    assert_eq!(differs.status.code(), Some(2), "{}", differs.err);
    assert!(
        differs
            .err
            .contains("--games 4 differs from the saved match's --games 2 (the default)"),
        "{}",
        differs.err
    );
    let fewer = run(&dir, &words("--resume --rounds 1"));
    assert_eq!(fewer.status.code(), Some(2));
    assert!(
        fewer
            .err
            .contains("--rounds 1 is fewer than the saved match's 2"),
        "{}",
        fewer.err
    );

    let more = run(&dir, &words("--resume --rounds 3"));
    assert!(more.status.success(), "{}\n{}", more.out, more.err);
    assert_eq!(numbers(&dir), [1, 2, 3, 4, 5, 6]);
    assert!(more.out.contains("Finished game 5 "), "{}", more.out);
    assert!(!more.out.contains("Finished game 4 "), "{}", more.out);
    assert!(final_table(&more.out).contains("Games: 6,"), "{}", more.out);
    // Extended once more, from the extended state.
    let again = run(&dir, &words("--resume --rounds 4"));
    assert!(again.status.success(), "{}", again.err);
    assert_eq!(numbers(&dir), [1, 2, 3, 4, 5, 6, 7, 8]);
}

/// Paths are bytes on Linux: a match takes its path-valued flags as given, in our spelling and
/// fastchess's (`-pgnout`), and writes each output to the file of that exact name; an engine's
/// `cmd=` and `dir=` are such paths too.
#[cfg(unix)]
#[test]
fn paths_that_are_not_utf8_are_written_as_given() {
    use std::ffi::OsString;
    let dir = Dir::new("files-bytes");
    std::fs::create_dir(dir.0.join(name(b"engine", b"dir"))).unwrap();
    std::fs::write(dir.0.join(name(b"open", b".sfen")), "startpos\n").unwrap();
    // The second engine is the binary under a name that is not UTF-8, run from the match's
    // directory (the first runs in its own, `dir=`).
    std::os::unix::fs::symlink(usi_support::BIN, dir.0.join(name(b"./eng", b"ine"))).unwrap();
    let bin = usi_support::BIN;
    let engine = |cmd: OsString, name: &str| vec![OsString::from("--engine"), cmd, name.into()];
    let mut args = vec![OsString::from("match")];
    args.extend(engine(format!("cmd={bin}").into(), "name=a"));
    args.push(word("dir=", name(b"engine", b"dir")));
    args.extend(engine(word("cmd=", name(b"./eng", b"ine")), "name=b"));
    let settings = "--each depth=1 --rounds 1 --maxplies 20 --ratinginterval 0";
    args.extend(words(settings).into_iter().map(OsString::from));
    args.extend([
        "--results".into(),
        name(b"r", b"sults.jsonl"),
        "--state".into(),
        name(b"st", b"te"),
        "--records".into(),
        name(b"rec", b""),
        "--report".into(),
        name(b"page", b".html"),
        "-pgnout".into(),
        word("file=", name(b"games", b".pgn")),
        "--openings".into(),
        word("file=", name(b"open", b".sfen")),
        "--log-file".into(),
        name(b"log", b""),
    ]);
    let out = std::process::Command::new(bin)
        .args(&args)
        .current_dir(&dir.0)
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    let read = |n: OsString| std::fs::read_to_string(dir.0.join(n)).unwrap();
    assert_eq!(read(name(b"r", b"sults.jsonl")).lines().count(), 2);
    assert!(
        read(name(b"games", b".pgn")).contains("[White "),
        "the PGN file"
    );
    assert!(
        read(name(b"page", b".html")).contains("<html"),
        "the report"
    );
    assert!(read(name(b"log", b"")).contains("saikoro"), "the log");
    assert!(dir.0.join(name(b"st", b"te")).is_file(), "the state");
    let records = std::fs::read_dir(dir.0.join(name(b"rec", b""))).unwrap();
    assert_eq!(records.count(), 2, "the records");

    resume_and_report(&dir);
}

/// Every value but a path must still be UTF-8, as before: refused with status 1, the word
/// shown (and the flag named, for a word of `KEY=VALUE` words), in our spelling and
/// fastchess's.
#[cfg(unix)]
#[test]
fn values_that_are_not_paths_must_be_utf8() {
    use std::ffi::OsString;
    let dir = Dir::new("files-bytes-text");
    for (flag, value) in [
        ("--event", name(b"e", b"")),
        ("--engine", word("name=", name(b"", b""))),
        ("--each", word("option.Book=", name(b"b", b""))),
        ("-engine", word("tc=", name(b"", b""))),
        ("--openings", word("order=", name(b"", b""))),
        ("--pgnout", word("append=", name(b"", b""))),
    ] {
        let mut args = vec![OsString::from("match"), flag.into()];
        match flag {
            "--openings" | "--pgnout" => args.extend(["file=f".into(), value]),
            "--event" => args.push(value),
            _ => {
                args.push(value);
                args.extend(
                    words("--engine cmd=x depth=1")
                        .into_iter()
                        .map(OsString::from),
                );
            }
        }
        let out = run_in(&dir, &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{flag}: {err}");
        assert!(err.contains("\\xFF\" is not valid UTF-8"), "{flag}: {err}");
        // The words of a flag name it (a single value is shown as lexopt's argument).
        let named = match flag {
            "--event" => "argument",
            "--each" | "-engine" => "--engine number 1: the word",
            _ => flag,
        };
        assert!(err.contains(named), "{flag}: {err}");
    }
}

/// The word `key` + `value` (`dir=` and a path).
#[cfg(unix)]
fn word(key: &str, value: std::ffi::OsString) -> std::ffi::OsString {
    let mut w = std::ffi::OsString::from(key);
    w.push(value);
    w
}

/// `before`, the byte 0xFF, `after`: a file name that is not UTF-8 ("r\xFFsults" and its
/// kin: 0xFF is never a byte of UTF-8).
#[cfg(unix)]
fn name(before: &[u8], after: &[u8]) -> std::ffi::OsString {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::OsStr::from_bytes(&[before, &[0xFF], after].concat()).to_os_string()
}

/// The binary run with `args` in `dir`, to its end.
#[cfg(unix)]
fn run_in(dir: &Dir, args: &[std::ffi::OsString]) -> std::process::Output {
    std::process::Command::new(usi_support::BIN)
        .args(args)
        .current_dir(&dir.0)
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

/// The paths of [`paths_that_are_not_utf8_are_written_as_given`] survive `--resume`: the state
/// kept their bytes, and the extended match writes on to the same files (no file of a lossy
/// name such as "r\u{FFFD}sults.jsonl"); `saikoro report` reads that results file and writes
/// a page of such a name.
#[cfg(unix)]
fn resume_and_report(dir: &Dir) {
    use std::ffi::OsString;
    let read = |n: OsString| std::fs::read_to_string(dir.0.join(n)).unwrap();
    let resume = [
        OsString::from("match"),
        "--resume".into(),
        "--rounds".into(),
        "2".into(),
        "--state".into(),
        name(b"st", b"te"),
    ];
    let out = run_in(dir, &resume);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(read(name(b"r", b"sults.jsonl")).lines().count(), 4);
    assert_eq!(read(name(b"games", b".pgn")).matches("[White ").count(), 4);
    let records = std::fs::read_dir(dir.0.join(name(b"rec", b""))).unwrap();
    assert_eq!(records.count(), 4, "the records after --resume");
    let files: Vec<OsString> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let lossy = |f: &OsString| f.to_str().is_some_and(|f| f.contains('\u{FFFD}'));
    assert!(!files.iter().any(lossy), "{files:?}");
    let out = run_in(
        dir,
        &[
            OsString::from("report"),
            name(b"r", b"sults.jsonl"),
            "-o".into(),
            name(b"again", b".html"),
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(read(name(b"again", b".html")).contains("<html"));
}

/// A state and results file written by 6bf4e2d (tests/compat/6bf4e2d/README.md says how),
/// before the match's JSON texts went through serde, resume with this build: extended by a
/// round, it plays games 5 and 6 only, keeps every game once, and writes the state anew in
/// this version with the settings it read (and those 6bf4e2d did not keep, off). The engines
/// play with fixed seeds, and Saikoro plays the same game from the same seed (its golden
/// sessions hold that), so round 3 repeats round 1: the fingerprints 6bf4e2d saved are read
/// and equal this build's (`repeats`).
#[cfg(unix)]
#[test]
fn a_state_written_by_6bf4e2d_resumes() {
    let dir = Dir::new("files-6bf4e2d");
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/compat/6bf4e2d");
    for f in ["state", "results.jsonl"] {
        std::fs::copy(data.join(f), dir.path(f)).unwrap();
    }
    usi_support::copy_program(
        std::path::Path::new(&*usi_support::BIN),
        &dir.path("engine"),
    );
    let old_state = dir.read("state");
    let r = finish(start(&dir, &words("--resume --state state --rounds 3")));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    assert_eq!(numbers(&dir), [1, 2, 3, 4, 5, 6]);
    let lines = results(&dir);
    assert_eq!(
        field(&lines[4], "repeats").as_deref(),
        Some("1"),
        "{}",
        lines[4]
    );
    assert_eq!(
        field(&lines[5], "repeats").as_deref(),
        Some("2"),
        "{}",
        lines[5]
    );
    // The page the state names, written with every game.
    assert!(dir.read("report.html").contains("\"games\":[[1,1,0,1,"));
    let state = dir.read("state");
    let state: Vec<&str> = state.lines().collect();
    let old: Vec<&str> = old_state.lines().collect();
    // The settings as 6bf4e2d saved them, with the two it did not keep, off.
    let header = old[0]
        .replace("\"ponder\":false}", "\"ponder\":false,\"restart\":false}")
        .replace(
            "\"send_undeclared_options\":false,",
            "\"send_undeclared_options\":false,\"send_option_values_as_written\":false,",
        )
        .replace("\"rounds\":2", "\"rounds\":3");
    // And the id a match is named by now, drawn for it when resumed, which the new games'
    // lines in the results file name too.
    let at = state[0].find(",\"id\":\"").expect(state[0]) + ",\"id\":\"".len();
    let id = &state[0][at..at + 16];
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{}", state[0]);
    assert_eq!(state[0].replace(&format!(",\"id\":\"{id}\""), ""), header);
    assert_eq!(
        field(&lines[4], "match").as_deref(),
        Some(id),
        "{}",
        lines[4]
    );
    assert_eq!(field(&lines[0], "match"), None, "{}", lines[0]);
    // Its four games as it wrote them, then 5 and 6 with the fingerprints of 1 and 2, the end.
    assert_eq!(state[1..5], old[1..5]);
    assert_eq!(state[5], old[1].replace("\"game\":1", "\"game\":5"));
    assert_eq!(state[6], old[2].replace("\"game\":2", "\"game\":6"));
    assert_eq!(state[7..], ["{\"finished\":\"completed\"}"]);
    // And `saikoro report` reads the results file, 6bf4e2d's lines and this build's.
    let r = finish(usi_support::start_in(
        std::path::Path::new(&*usi_support::BIN),
        &dir,
        &words("report results.jsonl --state state -o page.html"),
    ));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    assert!(dir.read("page.html").contains("\"games\":[[1,1,0,1,"));
    // Without the state: the settings its resumed run wrote with game 5, the same page.
    assert_eq!(with_settings(&dir), [4]);
    tool(&dir, "report results.jsonl -o alone.html");
    assert_eq!(page_data(&dir, "alone.html"), page_data(&dir, "page.html"));
}

/// The data of the page `file` in `dir` (the JSON of its `<script id="data">`), without the
/// time it was written.
fn page_data(dir: &Dir, file: &str) -> serde_json::Value {
    let text = dir.read(file);
    let tag = "<script type=\"application/json\" id=\"data\">";
    let at = text
        .find(tag)
        .unwrap_or_else(|| panic!("{file} has no data"))
        + tag.len();
    let json = &text[at..at + text[at..].find("</script>").unwrap()];
    let mut data: serde_json::Value = serde_json::from_str(json).unwrap();
    data.as_object_mut().unwrap().remove("updated");
    data
}

/// Runs `saikoro ARGS` (a mode and its words) in `dir`, which must succeed; what it printed.
fn tool(dir: &Dir, args: &str) -> String {
    let r = finish(usi_support::start_in(
        std::path::Path::new(&*usi_support::BIN),
        dir,
        &words(args),
    ));
    assert!(r.status.success(), "saikoro {args}: {}\n{}", r.out, r.err);
    r.out
}

/// The lines of the results file that carry the match's settings.
fn with_settings(dir: &Dir) -> Vec<usize> {
    let lines = results(dir);
    (0..lines.len())
        .filter(|&i| lines[i].contains(",\"settings\":{"))
        .collect()
}

/// The results file says under which settings its games were played: the first line of the
/// run carries the state's first line, as it is, after the game's members (its other lines do
/// not), so that `saikoro report` of the results file alone writes the page that the state
/// gives — its header (time control, openings, rounds, games, seed, ply limit, adjudication),
/// the engines with their command lines and options, the command line, the schedule, every
/// figure, and the SPRT stopped where it stopped — and that of the live page but for
/// `--concurrency`, which neither file keeps. `record check` and `record convert` read the
/// file as they read it without the settings.
#[test]
fn a_page_from_the_results_alone_is_the_page_from_the_state() {
    let dir = Dir::new("files-settings");
    let openings = openings(
        &dir,
        "startpos moves 7g7f\nstartpos moves 2g2f\nstartpos moves 5g5f\nstartpos moves 1g1f\n\
         startpos moves 9g9f\nstartpos moves 3g3f\n",
    );
    let args = cat(&[
        saikoro("a", 1),
        faulty("b", &["resign"]),
        openings,
        words(
            "--each depth=1 --rounds 6 --maxplies 40 --resign movecount=3 score=600 \
             --sprt elo0=0 elo1=400 model=logistic --report live.html",
        ),
    ]);
    let r = run(&dir, &args);
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    // Every game won by a: H1 at the fifth pair (tests/it/report_figures.rs).
    assert_eq!(results(&dir).len(), 10, "{}", r.out);
    let state = dir.read("state");
    let header = state.lines().next().unwrap();
    let first = &results(&dir)[0];
    assert!(
        first.ends_with(&format!(",\"settings\":{header}}}")),
        "{first}"
    );
    assert_eq!(with_settings(&dir), [0]);
    tool(&dir, "report results.jsonl --state state -o with.html");
    tool(&dir, "report results.jsonl -o without.html");
    let (with, without) = (
        page_data(&dir, "with.html"),
        page_data(&dir, "without.html"),
    );
    assert_eq!(without, with);
    let settings = &without["settings"];
    assert_eq!(settings["tc"], "depth=1");
    assert_eq!(settings["rounds"], 6);
    assert_eq!(settings["maxplies"], 40);
    assert_eq!(
        settings["adjudication"],
        "resign movecount=3 score=600 twosided=false"
    );
    assert!(settings["openings"]
        .as_str()
        .unwrap()
        .ends_with("openings.sfen"));
    assert_eq!(
        without["engines"][0]["options"][0],
        serde_json::json!(["Seed", "1"])
    );
    assert_eq!(without["sprt"]["stopped_at"], 10);
    let live = page_data(&dir, "live.html");
    let mut live_settings = live["settings"].clone();
    assert_eq!(live_settings["concurrency"], 1);
    live_settings["concurrency"] = serde_json::Value::Null;
    assert_eq!(&live_settings, settings);
    for key in [
        "title",
        "command",
        "engines",
        "block",
        "standings",
        "pairs",
        "sprt",
    ] {
        assert_eq!(live[key], without[key], "{key}");
    }
    records_read_as_without_settings(&dir);
}

/// `record check` and `record convert` read the results file as they read it without the
/// settings.
fn records_read_as_without_settings(dir: &Dir) {
    write_results_without_settings(dir);
    for (a, b) in [
        ("record check results.jsonl", "record check bare.jsonl"),
        (
            "record convert results.jsonl --to csa",
            "record convert bare.jsonl --to csa",
        ),
    ] {
        assert_eq!(
            tool(dir, a).replace("results.jsonl", "bare.jsonl"),
            tool(dir, b)
        );
    }
}

/// A resumed match writes its settings again with its first game: the page from the results
/// alone has the last ones (two rounds, not one), as the page from the state has.
#[test]
fn a_resumed_match_writes_its_settings_again() {
    let dir = Dir::new("files-settings-resumed");
    let r = run(&dir, &a_match(&dir, ""));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    let r = finish(start(&dir, &words("--resume --state state --rounds 2")));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    assert_eq!(numbers(&dir), [1, 2, 3, 4]);
    assert_eq!(with_settings(&dir), [0, 2]);
    let header = dir.read("state").lines().next().unwrap().to_string();
    assert!(header.contains("\"rounds\":2"), "{header}");
    assert!(results(&dir)[2].ends_with(&format!(",\"settings\":{header}}}")));
    tool(&dir, "report results.jsonl -o without.html");
    tool(&dir, "report results.jsonl --state state -o with.html");
    let without = page_data(&dir, "without.html");
    assert_eq!(without, page_data(&dir, "with.html"));
    assert_eq!(without["settings"]["rounds"], 2);
}

/// A results file written before the settings were kept (6bf4e2d's) still reads: the page
/// tells the schedule from its games and leaves the settings out.
#[test]
fn an_old_results_file_still_reads() {
    let dir = Dir::new("files-settings-old");
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/compat/6bf4e2d");
    std::fs::copy(data.join("results.jsonl"), dir.path("results.jsonl")).unwrap();
    assert!(with_settings(&dir).is_empty());
    tool(&dir, "report results.jsonl -o old.html");
    let page = page_data(&dir, "old.html");
    assert_eq!(page["games"].as_array().unwrap().len(), 4);
    assert_eq!(
        page["settings"],
        serde_json::json!({"tc": "?", "openings": null, "rounds": null, "games": null,
            "concurrency": null, "seed": null, "maxplies": null, "adjudication": null})
    );
    assert!(page["block"]
        .as_str()
        .unwrap()
        .contains("Results of a \"1\" vs b:\n"));
}
