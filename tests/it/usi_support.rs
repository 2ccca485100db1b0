//! Helpers for the tests that drive the real `saikoro` binary through pipes, always with a
//! deadline so that a hung engine fails the test instead of hanging it.

#![cfg_attr(not(feature = "tools"), allow(dead_code))]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// The binary under test: cargo's build of this package, or the one `SAIKORO_TEST_BIN` names
/// (CI runs the session tests of a debug build of these tests against the release binary, the
/// one users run, without building the tests themselves in release).
pub static BIN: Bin = Bin;

/// The path of the binary under test, as `BIN`: a string, a path, a program to run.
#[derive(Clone, Copy)]
pub struct Bin;

impl Bin {
    fn path(&self) -> &'static str {
        static PATH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        PATH.get_or_init(|| match std::env::var("SAIKORO_TEST_BIN") {
            Ok(path) if !path.is_empty() => {
                assert!(
                    std::path::Path::new(&path).is_file(),
                    "SAIKORO_TEST_BIN={path} is not a file"
                );
                path
            }
            _ => env!("CARGO_BIN_EXE_saikoro").to_string(),
        })
    }

    /// The path, owned.
    pub fn into_path(self) -> std::path::PathBuf {
        self.path().into()
    }
}

impl std::ops::Deref for Bin {
    type Target = str;
    fn deref(&self) -> &str {
        self.path()
    }
}

impl std::fmt::Display for Bin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.path())
    }
}

impl AsRef<std::ffi::OsStr> for Bin {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.path().as_ref()
    }
}

impl AsRef<std::path::Path> for Bin {
    fn as_ref(&self) -> &std::path::Path {
        self.path().as_ref()
    }
}

/// Generous: these sessions take milliseconds (a whole `check --movegen` a few seconds), but
/// CI machines can be slow and loaded: at a load of 4–5 per core a depth-2 movegen check of the
/// release build took over 20 s. A deadline only bounds a hang; it costs a passing test nothing.
pub const DEADLINE: Duration = Duration::from_secs(90);

/// What a finished run produced.
#[derive(Debug)]
pub struct Output {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub status: ExitStatus,
}

impl Output {
    /// Stdout as lines (must be UTF-8; the engine writes ASCII only).
    pub fn lines(&self) -> Vec<String> {
        assert!(
            self.stdout.is_ascii(),
            "non-ASCII output: {:?}",
            self.stdout
        );
        String::from_utf8(self.stdout.clone())
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// The lines that start with `bestmove `, without it.
    pub fn bestmoves(&self) -> Vec<String> {
        self.lines()
            .iter()
            .filter_map(|l| l.strip_prefix("bestmove ").map(str::to_string))
            .collect()
    }
}

fn spawn(args: &[&str], env: &[(&str, &str)]) -> Child {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.spawn().expect("start the saikoro binary")
}

/// Reads `from` to its end in a thread of its own (so that a child's stdout and stderr never
/// fill up while we wait for the other).
fn read_to_end(mut from: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut v = Vec::new();
        let _ = from.read_to_end(&mut v);
        v
    })
}

fn wait_with_deadline(child: &mut Child, deadline: Duration) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("engine did not exit within {deadline:?}");
        }
        thread::sleep(Duration::from_millis(2));
    }
}

/// Pipes `input` into a fresh engine, closes stdin, and collects everything before the
/// deadline.
pub fn run_bytes(input: &[u8]) -> Output {
    run_with(input, &[], &[])
}

/// [`run_bytes`] with command-line arguments and environment.
pub fn run_with(input: &[u8], args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut child = spawn(args, env);
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Write from a thread: a large input must not deadlock against a full stdout pipe.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let reader = read_to_end(child.stdout.take().unwrap());
    let err_reader = read_to_end(child.stderr.take().unwrap());
    let status = wait_with_deadline(&mut child, DEADLINE);
    writer.join().unwrap();
    Output {
        stdout: reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
        status,
    }
}

/// Runs a text script (lines joined with LF, a final LF added).
pub fn run(script: &str) -> Output {
    let mut s = script.to_string();
    if !s.ends_with('\n') {
        s.push('\n');
    }
    run_bytes(s.as_bytes())
}

/// An engine process driven line by line, as a GUI does.
pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything received so far.
    pub transcript: Vec<String>,
}

impl Session {
    pub fn start() -> Session {
        let mut child = spawn(&[], &[]);
        let stdin = child.stdin.take();
        let out = BufReader::new(child.stdout.take().unwrap());
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            for line in out.lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line, or a panic after the deadline.
    pub fn recv(&mut self) -> String {
        match self.lines.recv_timeout(DEADLINE) {
            Ok(l) => {
                assert!(l.is_ascii(), "non-ASCII output {l:?}");
                self.transcript.push(l.clone());
                l
            }
            Err(RecvTimeoutError::Timeout) => panic!(
                "no output within {DEADLINE:?}; transcript so far: {:?}",
                self.transcript
            ),
            Err(RecvTimeoutError::Disconnected) => {
                panic!("engine closed stdout; transcript: {:?}", self.transcript)
            }
        }
    }

    /// Reads lines until one starts with `prefix` (skipping `info` lines only); returns it.
    pub fn expect(&mut self, prefix: &str) -> String {
        loop {
            let l = self.recv();
            if l.starts_with(prefix) {
                return l;
            }
            assert!(l.starts_with("info "), "expected '{prefix}...', got {l:?}");
        }
    }

    /// Reads lines until one equals `line` exactly, whatever comes before it.
    pub fn skip_until(&mut self, line: &str) {
        while self.recv() != line {}
    }

    /// Whether a line arrives within `wait` (it is consumed and returned).
    pub fn poll(&mut self, wait: Duration) -> Option<String> {
        let l = self.lines.recv_timeout(wait).ok()?;
        self.transcript.push(l.clone());
        Some(l)
    }

    /// Closes stdin (EOF) and waits for the exit; returns the exit status and the remaining
    /// output lines.
    pub fn close(mut self) -> (ExitStatus, Vec<String>) {
        drop(self.stdin.take());
        let status = wait_with_deadline(&mut self.child, DEADLINE);
        let rest = self.lines.iter().collect();
        (status, rest)
    }

    /// Sends `quit` and waits; returns the status and anything printed after it.
    pub fn quit(mut self) -> (ExitStatus, Vec<String>) {
        self.send("quit");
        let status = wait_with_deadline(&mut self.child, DEADLINE);
        let rest = self.lines.iter().collect();
        (status, rest)
    }
}

/// The fault test engine (`examples/fault_engine.rs`): a USI engine with faults on command.
pub fn fault_engine() -> &'static std::path::Path {
    use std::path::PathBuf;
    use std::sync::OnceLock;
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| example("fault_engine"))
}

/// The program of `examples/<name>.rs`.
///
/// `cargo test` builds the examples, but `cargo test --test NAME` does not, so this builds it
/// with the profile the tests were built with (cargo returns at once when it is fresh). It is
/// the tests' build even when `SAIKORO_TEST_BIN` names another binary under test: these are the
/// tests' tools, not what is tested.
pub fn example(name: &str) -> std::path::PathBuf {
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_saikoro"))
        .parent()
        .expect("binary directory");
    let profile = match bin_dir.file_name().and_then(|n| n.to_str()) {
        Some("release") => "release",
        _ => "test",
    };
    let status = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "--example", name, "--profile", profile])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("run cargo to build an example");
    assert!(status.success(), "cargo could not build examples/{name}.rs");
    let path = bin_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "{} is missing", path.display());
    path
}

/// The command that starts the fault engine with seed 7 and `faults` (each a `--fault` value).
#[cfg(feature = "tools")]
pub fn faulty(faults: &[&str]) -> saikoro_driver::EngineCommand {
    let mut args = vec!["--seed".to_string(), "7".to_string()];
    for f in faults {
        args.push("--fault".to_string());
        args.push(f.to_string());
    }
    saikoro_driver::EngineCommand {
        program: fault_engine().to_path_buf(),
        args,
        dir: None,
    }
}

/// Whether process `pid` is gone: no such process, or a zombie (killed, and waiting for a
/// parent that does not reap it, such as a container's init).
#[cfg(unix)]
pub fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
    }
}

/// A scratch directory for one test, removed at the end.
pub struct Dir(pub std::path::PathBuf);

impl Dir {
    /// `saikoro-test-PID-N-NAME` in the temporary directory, emptied. `N` counts the
    /// directories of the process: every test of `tests/it/` runs in the one process, and two
    /// topics may pick the same name.
    pub fn new(name: &str) -> Dir {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let p =
            std::env::temp_dir().join(format!("saikoro-test-{}-{n}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        Dir(p)
    }

    /// A file in it.
    pub fn path(&self, f: &str) -> std::path::PathBuf {
        self.0.join(f)
    }

    /// Writes `text` to file `f`; returns its path.
    pub fn write(&self, f: &str, text: &str) -> String {
        std::fs::write(self.path(f), text).unwrap();
        self.path(f).display().to_string()
    }

    /// File `f`'s text, empty when there is none.
    pub fn read(&self, f: &str) -> String {
        std::fs::read_to_string(self.path(f)).unwrap_or_default()
    }
}

/// Copies the program `from` to `to`, executable, by running `cp`, so that this process never
/// holds the copy open for writing. Every test of `tests/it/` runs in one process, and a child
/// another test starts keeps the process's open files from its fork until its exec: a program
/// written here could meet that window and fail to start with "Text file busy" (ETXTBSY).
#[cfg(unix)]
pub fn copy_program(from: &std::path::Path, to: &std::path::Path) {
    let status = Command::new("cp")
        .arg("--")
        .arg(from)
        .arg(to)
        .status()
        .expect("run cp");
    assert!(status.success(), "cp {} {}", from.display(), to.display());
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Writes the shell script `body` (after a `#!/bin/sh` line) to the executable file `to`,
/// through [`copy_program`]; returns its path.
#[cfg(unix)]
pub fn write_script(to: &std::path::Path, body: &str) -> String {
    let text = to.with_extension("script-text");
    std::fs::write(&text, format!("#!/bin/sh\n{body}")).unwrap();
    copy_program(&text, to);
    std::fs::remove_file(&text).unwrap();
    to.display().to_string()
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What a tool run printed, how it ended and how long it took.
pub struct Run {
    pub out: String,
    pub err: String,
    pub status: ExitStatus,
    /// From `t0` (given to [`finish`]) to the exit.
    #[cfg_attr(not(unix), allow(dead_code))]
    pub took: Duration,
}

/// Starts `program ARGS` in `dir` with no stdin and stdout and stderr piped (for [`finish`]),
/// without `RUST_LOG` from the environment.
pub fn start_in(program: &std::path::Path, dir: &Dir, args: &[String]) -> Child {
    Command::new(program)
        .args(args)
        .current_dir(&dir.0)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start saikoro")
}

/// Reads `child`'s stdout and stderr to their end and waits for it to exit, killing it and
/// failing the test if it runs past `deadline` after `t0`.
pub fn finish(mut child: Child, t0: Instant, deadline: Duration) -> Run {
    let out = read_to_end(child.stdout.take().unwrap());
    let err = read_to_end(child.stderr.take().unwrap());
    let status = wait_with_deadline(&mut child, deadline.saturating_sub(t0.elapsed()));
    let took = t0.elapsed();
    let text =
        |r: thread::JoinHandle<Vec<u8>>| String::from_utf8_lossy(&r.join().unwrap()).into_owned();
    Run {
        out: text(out),
        err: text(err),
        status,
        took,
    }
}
