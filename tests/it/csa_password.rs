//! `saikoro csa`'s password: from a file, stdin or the environment, refused when it cannot be
//! used, and never anywhere but on the wire — not in the log, the records, stdout, stderr or
//! the engine's environment. Against the in-test server of [`crate::csa`].

use crate::csa::{
    accept, csa_alone, fake_engine, listen, play_moves, spawn_client_with, tmp_dir, Conn, Spec,
};
use saikoro_core::{Color, Game, Position};
use std::path::{Path, PathBuf};

/// A password no file of a run would hold by chance, and its trip (Floodgate's `GAME,TRIP`).
const PASSWORD: &str = "game-60-10,Pz4-never-logged-trip";
const TRIP: &str = "Pz4-never-logged-trip";

/// Every file under `dir`, with its path.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Asserts that neither the password nor its trip is in `text` (named `what`).
fn assert_hidden(what: &str, text: &str) {
    assert!(!text.contains(PASSWORD), "the password in {what}:\n{text}");
    assert!(!text.contains(TRIP), "the trip in {what}:\n{text}");
}

/// The server's side of the login: the client must send the password as given; a line that
/// repeats the trip comes before `LOGIN:<name> OK` (the client logs and ignores it).
fn login(c: &mut Conn, name: &str) {
    assert_eq!(c.recv(), Some(format!("LOGIN {name} {PASSWORD}")));
    c.send(&format!("##[NOTICE] welcome back, {TRIP}"));
    c.send(&format!("LOGIN:{name} OK"));
}

/// One game of a client given the password by `login_flags`, `env` or `stdin`, with
/// `--log-file` and `--record-dir` (and `--engine` when `engine`): then every file the run
/// wrote, its stdout and its stderr are searched for the password. Returns the client's
/// directory (its log and its stderr).
fn game_without_a_trace(
    name: &str,
    login_flags: &[&str],
    env: &[(&str, &str)],
    stdin: Option<&str>,
    engine: bool,
) -> PathBuf {
    let (l, port) = listen();
    let records = tmp_dir(&format!("{name}-records"));
    let engine_dir = tmp_dir(&format!("{name}-engine"));
    let mut extra = vec!["--record-dir", records.to_str().unwrap(), "--seed", "3"];
    // The engine writes its environment to engine.env, then plays (it resigns at once).
    let wrapper = engine_dir.join("wrapper.sh");
    let engine_command = format!("sh {}", wrapper.display());
    if engine {
        let wrapped = format!(
            "env > '{}'\nexec {}\n",
            engine_dir.join("engine.env").display(),
            fake_engine(&engine_dir, "resign")
        );
        std::fs::write(&wrapper, wrapped).unwrap();
        extra.extend(["--engine", &engine_command]);
    }
    let client = spawn_client_with(port, name, login_flags, env, stdin, &extra);
    let mut c = accept(&l);
    login(&mut c, name);
    let spec = Spec::new(&format!("{name}-1"), Color::Black);
    c.start(&spec.summary(), &spec.id);
    if engine {
        c.expect("%TORYO");
        c.send("%TORYO");
        c.send("#RESIGN");
        c.send("#LOSE");
    } else {
        let mut game = Game::new(Position::startpos());
        play_moves(&mut c, &mut game, Color::Black, 6, 11);
        c.send("%TORYO");
        c.send("#RESIGN");
        c.send("#WIN");
    }
    drop(c);
    let (ok, out, dir) = client.finish();
    assert!(ok, "{name}: {out}");
    assert_hidden("stdout", &out);
    let mut files = files_under(&dir);
    files.extend(files_under(&records));
    if engine {
        files.extend(files_under(&engine_dir));
    }
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        assert_hidden(&f.display().to_string(), &text);
    }
    // The search covered what it is meant to: the login in the wire log, the server's line
    // with the trip, a record, the engine's environment.
    let log = std::fs::read_to_string(dir.join("log.txt")).unwrap();
    assert!(log.contains(&format!("> LOGIN {name} ********\n")), "{log}");
    assert!(log.contains("##[NOTICE] welcome back, ********"), "{log}");
    assert_eq!(files_under(&records).len(), 1, "{name}: one record");
    if engine {
        let env = std::fs::read_to_string(engine_dir.join("engine.env")).unwrap();
        assert!(env.contains("PATH="), "{env}");
        assert!(!env.contains("SAIKORO_CSA_PASSWORD"), "{env}");
    }
    dir
}

/// The password from a file only its owner can read: on the wire and nowhere else, and no
/// warning (stderr stays empty: the log goes to the log file).
#[cfg(unix)]
#[test]
fn a_password_file_is_read_and_never_shown() {
    use std::os::unix::fs::PermissionsExt;
    let secrets = tmp_dir("pw-secrets-file");
    let file = secrets.join("password");
    std::fs::write(&file, format!("{PASSWORD}\n")).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let flags = ["--password-file", file.to_str().unwrap()];
    let dir = game_without_a_trace("pw-file", &flags, &[], None, false);
    let err = std::fs::read_to_string(dir.join("stderr.txt")).unwrap();
    assert_eq!(err, "", "no warning for a file of mode 0600");
}

/// The password from the environment, with an external engine: on the wire and nowhere else,
/// and the engine does not inherit the variable.
#[cfg(unix)]
#[test]
fn the_environments_password_is_never_shown_nor_inherited() {
    let env = [("SAIKORO_CSA_PASSWORD", PASSWORD)];
    game_without_a_trace("pw-env", &[], &env, None, true);
}

/// `--password-file -`: the first line of stdin (with Windows' line end).
#[test]
fn a_password_on_stdin_is_read_and_never_shown() {
    let flags = ["--password-file", "-"];
    let stdin = format!("{PASSWORD}\r\nnot read\n");
    game_without_a_trace("pw-stdin", &flags, &[], Some(&stdin), false);
}

/// Each password source that cannot be used is refused before any connection, with a message
/// that names it: a usage error (status 2) for the command line, a failure (status 1) for what
/// a file or the environment holds. The host never resolves, so a password let through would
/// end in "unknown host" instead.
#[test]
fn unusable_passwords_are_refused_with_their_source_named() {
    let dir = tmp_dir("pw-refused");
    let empty = dir.join("empty");
    std::fs::write(&empty, "").unwrap();
    let blank_first = dir.join("blank-first");
    std::fs::write(&blank_first, "\nsecret\n").unwrap();
    let spaced = dir.join("spaced");
    std::fs::write(&spaced, "trip \n").unwrap();
    let missing = dir.join("missing");
    let (empty, blank_first, spaced, missing) = (
        empty.to_str().unwrap(),
        blank_first.to_str().unwrap(),
        spaced.to_str().unwrap(),
        missing.to_str().unwrap(),
    );
    let login = ["--host", "no-such-host.invalid", "--user", "u"];
    let cases: [(&[&str], Option<&str>, i32, String); 7] = [
        (
            &["--password-file", empty],
            None,
            1,
            format!("--password-file {empty} is empty"),
        ),
        (
            &["--password-file", blank_first],
            None,
            1,
            format!("--password-file {blank_first}: its first line is empty"),
        ),
        (
            &["--password-file", spaced],
            None,
            1,
            format!("the password from --password-file {spaced} has a space"),
        ),
        (
            &["--password-file", missing],
            None,
            1,
            format!("cannot read --password-file {missing}: "),
        ),
        (
            &["--password", "p", "--password-file", spaced],
            None,
            2,
            "--password and --password-file: give one of them".to_string(),
        ),
        (
            &[],
            None,
            2,
            "no password: give --password-file FILE".to_string(),
        ),
        (
            &[],
            Some(""),
            1,
            "the password from SAIKORO_CSA_PASSWORD is empty".to_string(),
        ),
    ];
    for (flags, env, status, says) in cases {
        let args = [&login[..], flags].concat();
        let (code, err) = match env {
            Some(value) => csa_alone_with_env(&args, value),
            None => {
                let (code, err, _) = csa_alone(&args);
                (code, err)
            }
        };
        assert_eq!(code, Some(status), "{flags:?}: {err}");
        assert!(
            err.starts_with(&format!("saikoro: {says}")),
            "{flags:?}: {err}"
        );
        assert!(!err.contains("secret"), "{flags:?}: {err}");
    }
}

/// [`csa_alone`] with `SAIKORO_CSA_PASSWORD=value`.
fn csa_alone_with_env(args: &[&str], value: &str) -> (Option<i32>, String) {
    let out = std::process::Command::new(crate::csa::BIN)
        .arg("csa")
        .args(args)
        .env_remove("RUST_LOG")
        .env("SAIKORO_CSA_PASSWORD", value)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), err)
}

/// A password file other users can read is used, with a warning that says how to close it
/// (ssh and libpq look at the mode too); a flag goes before the environment.
#[cfg(unix)]
#[test]
fn a_password_file_open_to_others_is_warned_about() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tmp_dir("pw-open");
    let file = dir.join("password");
    std::fs::write(&file, "game,trip\n").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let path = file.to_str().unwrap();
    let args = [
        "--host",
        "no-such-host.invalid",
        "--user",
        "u",
        "--password-file",
        path,
    ];
    // An empty variable would be refused: the flag's file is what is read.
    let (code, err) = csa_alone_with_env(&args, "");
    assert_eq!(code, Some(1), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "saikoro: warning: other users can read --password-file {path} (mode 0644); \
             `chmod 600 {path}` makes it yours alone"
        ),
        "{err}"
    );
    assert!(lines[1].starts_with("saikoro: unknown host"), "{err}");
}

/// `LOGIN:incorrect`: the message names where the password came from, so that the user knows
/// which file to look at, and shows neither the password nor its trip.
#[test]
fn a_refused_login_names_the_source_not_the_password() {
    let secrets = tmp_dir("pw-secrets-incorrect");
    let file = secrets.join("password");
    std::fs::write(&file, format!("{PASSWORD}\n")).unwrap();
    let path = file.to_str().unwrap();
    let (l, port) = listen();
    let client = spawn_client_with(port, "pw-bad", &["--password-file", path], &[], None, &[]);
    let mut c = accept(&l);
    assert_eq!(c.recv(), Some(format!("LOGIN pw-bad {PASSWORD}")));
    c.send("LOGIN:incorrect");
    drop(c);
    let (ok, out, dir) = client.finish();
    assert!(!ok);
    assert_eq!(out, "");
    let err = std::fs::read_to_string(dir.join("stderr.txt")).unwrap();
    assert!(
        err.ends_with(&format!(
            "saikoro: LOGIN:incorrect: check --user and the password (from --password-file \
             {path}), or the name is already playing\n"
        )),
        "{err}"
    );
    for f in files_under(&dir) {
        let text = std::fs::read_to_string(&f).unwrap();
        assert_hidden(&f.display().to_string(), &text);
    }
}
