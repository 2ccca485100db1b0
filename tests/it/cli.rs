//! The command line's edges, through the binary: a usage error in any mode ends with a pointer
//! to that mode's `--help` and exit status 2; a number out of its flag's range says so, with
//! the range; a closed stdout ends a mode quietly (status 141, nothing on stderr).

use std::io::Read;
use std::process::{Command, Stdio};

use crate::usi_support::BIN;

/// Runs `saikoro args...` with no input; returns the status code and stderr.
fn fails(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run saikoro");
    assert!(out.stdout.is_empty(), "{args:?}: {:?}", out.stdout);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn usage_errors_point_to_the_modes_help() {
    for (args, help) in [
        (
            &["foo"][..],
            "Run `saikoro --help` for the modes, `saikoro usi --help` for the engine's options.",
        ),
        (
            &["usi", "--frobnicate"],
            "Run `saikoro --help` for the modes, `saikoro usi --help` for the engine's options.",
        ),
        (
            &["selfplay", "--frobnicate"],
            "Run `saikoro selfplay --help` for the options.",
        ),
        (
            &["selfplay", "--games"],
            "Run `saikoro selfplay --help` for the options.",
        ),
        (
            &["match", "--frobnicate"],
            "Run `saikoro match --help` for the options.",
        ),
        (
            &["match", "--engine", "cmd=x", "tc=1+0"],
            "Run `saikoro match --help` for the options.",
        ),
        (
            &["csa", "--frobnicate"],
            "Run `saikoro csa --help` for the options.",
        ),
        (
            &["csa", "--host", "h"],
            "Run `saikoro csa --help` for the options.",
        ),
        (
            &["check", "--frobnicate"],
            "Run `saikoro check --help` for the options.",
        ),
        (&["check"], "Run `saikoro check --help` for the options."),
        // Bad values are usage errors in every mode (docs/exit-status.md).
        (
            &["selfplay", "--sfen", "garbage"],
            "Run `saikoro selfplay --help` for the options.",
        ),
        (
            &["selfplay", "--games", "abc"],
            "Run `saikoro selfplay --help` for the options.",
        ),
        (
            &["report", "--frobnicate"],
            "Run `saikoro report --help` for the options.",
        ),
        (&["report"], "Run `saikoro report --help` for the options."),
        (
            &["bench", "--frobnicate"],
            "Run `saikoro bench --help` for the options.",
        ),
        (
            &["shogitest", "-frobnicate"],
            "Run `saikoro shogitest --help` for the options.",
        ),
        (
            &["shogitest", "-ruleprofile", "legacy", "-games", "1"],
            "Run `saikoro shogitest --help` for the options.",
        ),
        (
            &["match", "-tb", "/syzygy"],
            "Run `saikoro match --help` for the options.",
        ),
    ] {
        let (code, err) = fails(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {err}");
        assert!(lines[0].starts_with("saikoro: "), "{args:?}: {err}");
        assert_eq!(lines[1], help, "{args:?}");
    }
    let (_, err) = fails(&["foo"]);
    assert!(
        err.starts_with("saikoro: unexpected argument \"foo\"\n"),
        "{err}"
    );
}

/// Failures of a run are exit status 1 in every mode, whatever stops it: an engine that
/// cannot be started (check, check --movegen, match, csa), an input file that cannot be read
/// (report, match's openings).
#[test]
fn failures_of_a_run_are_status_1() {
    let engine = format!("cmd={BIN}");
    let cases: [&[&str]; 6] = [
        &["check", "--", "/nonexistent"],
        &["check", "--movegen", "--", "/nonexistent"],
        &[
            "match",
            "--engine",
            "cmd=/nonexistent",
            "--engine",
            &engine,
            "--each",
            "nodes=1",
        ],
        &[
            "csa",
            "--host",
            "127.0.0.1",
            "--user",
            "u",
            "--password",
            "p",
            "--engine",
            "/nonexistent",
        ],
        &["report", "/nonexistent.jsonl"],
        &[
            "match",
            "--openings",
            "file=/nonexistent",
            "--engine",
            &engine,
            "--engine",
            &engine,
            "--each",
            "nodes=1",
        ],
    ];
    for args in cases {
        let out = Command::new(BIN)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            !err.contains("Run `saikoro"),
            "{args:?}: not a usage error: {err}"
        );
    }
}

#[test]
fn numbers_out_of_range_say_so() {
    let login = ["--host", "h", "--user", "u", "--password", "p"];
    for (args, message) in [
        (
            vec!["selfplay", "--games", "-1"],
            "saikoro: --games \"-1\": out of range (expected a whole number 0 or more)",
        ),
        (
            vec!["selfplay", "--max-plies", "4x"],
            "saikoro: --max-plies \"4x\": not a whole number (expected a whole number from 0 to 4294967295)",
        ),
        (
            [&["csa"][..], &login, &["--port", "65536"]].concat(),
            "saikoro: --port \"65536\": out of range (expected a whole number from 0 to 65535)",
        ),
    ] {
        let (code, err) = fails(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().next(), Some(message), "{args:?}");
    }
}

/// `saikoro check --json -- saikoro | head -c 700`: the checker's report is cut, and the
/// checker ends without a word (it printed `saikoro: Broken pipe (os error 32)`); selfplay's
/// `println!` panicked, and the match runner said `cannot write stdout: Broken pipe`.
#[test]
fn a_closed_stdout_ends_a_mode_quietly() {
    let state = format!("{}/cli-closed-stdout.state", env!("CARGO_TARGET_TMPDIR"));
    // A state file left by an earlier run would get a warning on stderr.
    let _ = std::fs::remove_file(&state);
    let engine = format!("cmd={BIN}");
    for args in [
        &["check", "--json", "--", &BIN][..],
        &["selfplay", "--games", "50"],
        &[
            "match", "--engine", &engine, "name=a", "--engine", &engine, "name=b", "--each",
            "depth=1", "--rounds", "2", "--state", &state,
        ],
    ] {
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(env!("CARGO_TARGET_TMPDIR"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run saikoro");
        // Closed before the mode writes (the report comes at its end), so that the write
        // fails whatever the timing: what `head` does after its 700 bytes.
        drop(child.stdout.take());
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        assert!(err.is_empty(), "{args:?}: {err}");
        assert_eq!(status.code(), Some(141), "{args:?}");
    }
}

/// A program that cannot run says why, in every mode that starts engines: a file without the
/// execute bit (with the `chmod +x` that fixes it) and a directory are not "no such file".
#[cfg(unix)]
#[test]
fn an_engine_that_cannot_run_says_why() {
    let dir = std::env::temp_dir().join(format!("saikoro-cli-notexec-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("engines")).unwrap();
    std::fs::write(dir.join("notes.kif"), "not a program\n").unwrap();
    let file = dir.join("notes.kif").display().to_string();
    let folder = dir.join("engines").display().to_string();
    let cases = [
        (
            file.clone(),
            format!("not executable (to run it: chmod +x {file})"),
        ),
        (folder.clone(), "is a directory, not a program".to_string()),
    ];
    for (program, says) in &cases {
        let out = Command::new(BIN)
            .args(["check", "--", program])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(says), "check -- {program}: {text}");
        let cmd = format!("cmd={program}");
        let other = format!("cmd={BIN}");
        let args = ["match", "--engine", &cmd, "--engine", &other];
        let (_, err) = fails(&[&args[..], &["--each", "nodes=1", "--games", "1"]].concat());
        assert!(err.contains(says), "match --engine {cmd}: {err}");
    }
    // A working directory that is missing is named, not taken for a missing program.
    let missing = dir.join("no-such-dir").display().to_string();
    let cmd = format!("cmd={BIN}");
    let at = format!("dir={missing}");
    let state = dir.join("state").display().to_string();
    let args = [
        "match", "--engine", &cmd, &at, "--engine", &cmd, "--each", "nodes=1", "--state", &state,
    ];
    let (code, err) = fails(&args);
    assert_eq!(code, Some(1), "{err}");
    let says = format!("its working directory dir={missing}: no such directory");
    assert!(err.contains(&says), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A record directory that names a file says "not a directory", not "File exists".
#[test]
fn a_record_directory_that_is_a_file_says_so() {
    let file = std::env::temp_dir().join(format!("saikoro-cli-recfile-{}", std::process::id()));
    std::fs::write(&file, "x\n").unwrap();
    let path = file.display().to_string();
    let state = format!("{path}.state");
    let cmd = format!("cmd={BIN}");
    let match_args = [
        "match",
        "--engine",
        &cmd,
        "--engine",
        &cmd,
        "--each",
        "nodes=1",
        "--games",
        "1",
        "--records",
        &path,
        "--state",
        &state,
    ];
    for args in [
        &match_args[..],
        &["selfplay", "--games", "1", "--record-dir", &path],
    ] {
        let (code, err) = fails(args);
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert!(err.contains("not a directory"), "{args:?}: {err}");
    }
    // Refused before anything was written: no state file is left behind.
    assert!(
        !std::path::Path::new(&state).exists(),
        "{state} left behind"
    );
    std::fs::remove_file(&file).unwrap();
}

/// An output file in a directory that does not exist is refused before the match writes
/// anything: no state file is left behind either.
#[test]
fn an_output_in_a_missing_directory_leaves_nothing_behind() {
    let dir = std::env::temp_dir().join(format!("saikoro-cli-nodir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("state").display().to_string();
    let cmd = format!("cmd={BIN}");
    let args = [
        "match", "--engine", &cmd, "--engine", &cmd, "--each", "nodes=1",
    ];
    let missing_dir = dir.join("no-such-dir");
    let missing = missing_dir.join("out").display().to_string();
    // The same message for every output, the records directory too (made only where its
    // parent exists: a mistyped parent is not made).
    let says = format!(": no such directory: {}", missing_dir.display());
    for flag in ["--results", "--pgnout", "--report", "--records"] {
        let (code, err) = fails(&[&args[..], &[flag, &missing, "--state", &state]].concat());
        assert_eq!(code, Some(1), "{flag}: {err}");
        assert!(
            err.contains(&format!("{flag} {missing}{says}")),
            "{flag}: {err}"
        );
        assert!(
            !std::path::Path::new(&state).exists(),
            "{flag}: state left behind"
        );
        assert!(!missing_dir.exists(), "{flag}: made the directory");
    }
    let (code, err) = fails(&[&args[..], &["--state", &missing]].concat());
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(&format!("--state {missing}{says}")), "{err}");
    for mode in [
        &["selfplay", "--games", "1"][..],
        &[
            "csa",
            "--host",
            "127.0.0.1",
            "--user",
            "u",
            "--password",
            "p",
        ],
    ] {
        let (code, err) = fails(&[mode, &["--record-dir", &missing]].concat());
        assert_eq!(code, Some(1), "{mode:?}: {err}");
        assert!(
            err.contains(&format!("--record-dir {missing}{says}")),
            "{mode:?}: {err}"
        );
        assert!(!missing_dir.exists(), "{mode:?}: made the directory");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A time control that gives no time (`tc=0`, `tc=0+0`, `movetime=0`, in our dialect, in
/// `--each` and in the farm dialects) is a usage error before any engine starts, not a
/// match of games lost on time at ply 0.
#[test]
fn a_time_control_of_no_time_is_refused() {
    let cmd = format!("cmd={BIN}");
    for (mode, each, words) in [
        ("match", "--each", "tc=0"),
        ("match", "--each", "tc=0+0"),
        ("match", "--each", "movetime=0"),
        ("match", "-each", "tc=0"),
        ("shogitest", "-each", "st=0"),
        ("shogitest", "-each", "tc=0"),
    ] {
        let (code, err) = fails(&[mode, "-engine", &cmd, "-engine", &cmd, each, words]);
        assert_eq!(code, Some(2), "{mode} {each} {words}: {err}");
        assert!(
            err.contains("no time at all"),
            "{mode} {each} {words}: {err}"
        );
    }
}

/// `args=` with a quote never closed is refused, as a shell refuses it, instead of running
/// the engine with the rest of the line as one argument.
#[test]
fn an_unclosed_quote_in_args_is_refused() {
    let cmd = format!("cmd={BIN}");
    let (code, err) = fails(&[
        "match",
        "--engine",
        &cmd,
        "args=\"unterminated",
        "--engine",
        &cmd,
        "--each",
        "depth=1",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("args=\"unterminated: the quote \" is never closed"),
        "{err}"
    );
}

/// More games at once than logical CPUs: a warning (fastchess refuses; a runner that plays
/// on loses nothing), silenced by `--force-concurrency` (fastchess's `-force-concurrency`).
#[test]
fn concurrency_above_the_cpus_is_warned_about() {
    let dir = std::env::temp_dir().join(format!("saikoro-cli-conc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cpus = std::thread::available_parallelism().unwrap().get();
    let many = (cpus + 1).to_string();
    let cmd = format!("cmd={BIN}");
    for (force, tag) in [
        ("", "a"),
        ("--force-concurrency", "b"),
        ("-force-concurrency", "c"),
    ] {
        let state = dir.join(tag).display().to_string();
        let mut args = vec![
            "match",
            "--engine",
            &cmd,
            "--engine",
            &cmd,
            "--each",
            "depth=1",
            "--rounds",
            "1",
            "--concurrency",
            &many,
            "--state",
            &state,
            "--ratinginterval",
            "0",
        ];
        args.extend(Some(force).filter(|f| !f.is_empty()));
        let out = Command::new(BIN)
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        // Written for a person, as an error is: no logger's time, level or module.
        let warned = err.contains(&format!(
            "saikoro: warning: --concurrency {many} plays more games at once than this machine \
             has logical CPUs ({cpus})"
        ));
        assert_eq!(warned, force.is_empty(), "{force:?}: {err}");
        assert!(!err.contains("WARN") && !err.contains("saikoro::"), "{err}");
        assert!(
            err.lines()
                .all(|l| l.is_empty() || l.starts_with("saikoro")),
            "{err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An output that is the openings file, or two outputs that are one file, are refused
/// before anything is written; the openings are left as they were.
#[test]
fn an_output_that_is_an_input_or_another_output_is_refused() {
    let dir = std::env::temp_dir().join(format!("saikoro-cli-clash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.sfen");
    let line = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n";
    std::fs::write(&book, line).unwrap();
    let (book_s, state) = (
        book.display().to_string(),
        dir.join("state").display().to_string(),
    );
    let openings = format!("file={book_s}");
    let cmd = format!("cmd={BIN}");
    let args = [
        "match",
        "--engine",
        &cmd,
        "--engine",
        &cmd,
        "--each",
        "nodes=1",
        "--openings",
        &openings,
        "--state",
        &state,
    ];
    for flag in ["--results", "--pgnout", "--report"] {
        let (code, err) = fails(&[&args[..], &[flag, &book_s, "--overwrite"]].concat());
        assert_eq!(code, Some(1), "{flag}: {err}");
        assert!(err.contains("which this command reads"), "{flag}: {err}");
        assert_eq!(std::fs::read_to_string(&book).unwrap(), line, "{flag}");
    }
    let r = dir.join("r").display().to_string();
    let (code, err) = fails(&[&args[..], &["--results", &r, "--report", &r]].concat());
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!("--results {r} and --report {r} are one file")),
        "{err}"
    );
    assert!(!std::path::Path::new(&state).exists(), "state left behind");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An engine that never plays after its first start (the match's probe; then it exits at
/// once, as `/bin/false` does) forfeits games with no move: no per-ply figure (there is no
/// ply to divide by), and none of those games "repeats" another.
#[cfg(unix)]
#[test]
fn games_without_a_move_have_no_per_ply_figure_and_repeat_nothing() {
    let dir = std::env::temp_dir().join(format!("saikoro-cli-noply-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mark = dir.join("started").display().to_string();
    let script = dir.join("once.sh");
    crate::usi_support::write_script(
        &script,
        &format!("[ -e '{mark}' ] && exit 1\n: > '{mark}'\nexec '{BIN}' \"$@\"\n"),
    );
    let once = format!("cmd={}", script.display());
    let other = format!("cmd={BIN}");
    let out = Command::new(BIN)
        .args(["match", "--engine", &once, "--engine", &other])
        .args(["--each", "nodes=1", "--games", "4"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(", 0 plies in "), "{text}");
    assert!(!text.contains("per ply"), "{text}");
    assert!(!text.contains("repeated an earlier game"), "{text}");
}

/// The farm dialects' help, in their own flag style: `saikoro shogitest -help` (and `--help`,
/// `-h`) and `saikoro match -help` (fastchess's) list single-dash flags, and every flag they
/// list is one the dialect's parser knows (none is an "unknown flag").
#[test]
fn the_farm_dialects_help_in_their_own_style() {
    let run = |args: &[&str]| {
        let out = Command::new(BIN)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let listed = |help: &str| -> Vec<String> {
        help.lines()
            .filter_map(|l| l.strip_prefix("  -"))
            .map(|l| format!("-{}", l.split(' ').next().unwrap()))
            .collect()
    };
    let (_, shogitest, _) = run(&["shogitest", "-help"]);
    for ask in ["--help", "-h"] {
        let (code, out, err) = run(&["shogitest", ask]);
        assert_eq!((code, &out), (Some(0), &shogitest), "{ask}: {err}");
    }
    let (code, fastchess, err) = run(&["match", "-help"]);
    assert_eq!(code, Some(0), "{err}");
    for (mode, help, must) in [
        (
            "shogitest",
            &shogitest,
            ["-engine", "-each", "-games", "-rounds", "-ruleprofile"],
        ),
        (
            "match",
            &fastchess,
            ["-engine", "-each", "-games", "-rounds", "-sprt"],
        ),
    ] {
        let flags = listed(help);
        for f in must {
            assert!(flags.iter().any(|l| l == f), "{mode}: {f} not in\n{help}");
        }
        assert!(!flags.iter().any(|f| f.starts_with("--")), "{help}");
        for f in &flags {
            if f == "-help" || f == "-version" {
                continue;
            }
            let (code, _, err) = run(&[mode, f]);
            assert_ne!(code, Some(0), "{mode} {f}");
            assert!(!err.contains("unknown flag"), "{mode} {f}: {err}");
        }
    }
    // Ours stays ours, and points to the other.
    let (_, ours, _) = run(&["match", "--help"]);
    assert!(ours.contains("  --engine KEY=VALUE..."), "{ours}");
    assert!(ours.contains("`saikoro match -help` lists"), "{ours}");
}

/// The flags a mode's `--help` lists (an indented line that starts with the flag, and a
/// second flag of the same line after a comma, as `--event NAME, --site NAME`): the help is
/// rendered from the mode's flag table, so these are the flags the mode accepts.
fn flags_of_help(mode: &str) -> std::collections::BTreeSet<String> {
    let out = Command::new(BIN)
        .args([mode, "--help"])
        .output()
        .expect("run saikoro");
    assert!(out.status.success(), "{mode} --help");
    let help = String::from_utf8(out.stdout).expect("UTF-8 help");
    help.lines()
        .filter(|l| l.starts_with("  --"))
        .flat_map(|l| {
            let head = l.trim_start().split("  ").next().unwrap_or("");
            head.split(", ")
                .filter_map(|f| f.split(' ').next())
                .collect::<Vec<_>>()
        })
        .map(|f| f.trim_end_matches('=').to_string())
        .filter(|f| f.starts_with("--") && f.len() > 2)
        .collect()
}

/// The flags a page's tables name in their first cell (`` | `--flag ARG` ``, or several flags
/// of one row: `` | `--event NAME`, `--site NAME` ``).
fn flags_of_page(page: &str) -> std::collections::BTreeSet<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(page);
    let text = std::fs::read_to_string(&path).expect("the page");
    text.lines()
        .filter(|l| l.starts_with("| `--"))
        .flat_map(|l| {
            let cell = l[1..].split(" | ").next().unwrap_or("");
            cell.split('`')
                .skip(1)
                .step_by(2)
                .filter_map(|code| code.split([' ', '=']).next())
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A mode's page lists every flag of the mode and no other: the page's table is written by
/// hand, the help comes from the mode's flag table, and this keeps the two in step.
#[test]
fn each_modes_page_lists_the_flags_of_its_help() {
    for (mode, page) in [("match", "docs/match.md"), ("csa", "docs/csa.md")] {
        let help = flags_of_help(mode);
        let documented = flags_of_page(page);
        assert!(help.len() > 10, "{mode}: {help:?}");
        let undocumented: Vec<_> = help.difference(&documented).collect();
        let unknown: Vec<_> = documented.difference(&help).collect();
        assert!(
            undocumented.is_empty() && unknown.is_empty(),
            "{page}: flags of `saikoro {mode} --help` missing from its tables: {undocumented:?}; \
             flags in its tables that the mode does not have: {unknown:?}"
        );
    }
}
