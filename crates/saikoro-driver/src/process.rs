//! An engine's process: started in a process group of its own (Windows: in a job object of
//! its own), its output read a line at a time with a deadline on every wait, its input written
//! with a deadline too, its stderr kept (the last lines, for the message that says why it
//! failed), and killed with everything it started.
//!
//! This layer knows processes, not USI: [`crate::UsiClient`] speaks the protocol over it. Every
//! process it starts is registered with [`crate::guard`], which ends them when the tool ends,
//! however it ends.
//!
//! How the output is read depends on the platform, behind one type ([`EngineProcess`]):
//!
//! - Unix: our end of the stdout pipe is non-blocking and read by the thread that waits, after
//!   `poll` says there is something to read (one wake-up per line; the time of each line is the
//!   time it was read, which is when it arrived whenever someone is waiting for it). Our end of
//!   the stdin pipe is non-blocking too, so a write to an engine that no longer reads its
//!   input fails at its deadline instead of blocking the tool for ever.
//! - Elsewhere: a reader thread hands each line over a channel, stamped when it arrived; a
//!   writer thread writes the input, and a write waits for it until its deadline
//!   (`src/driver/pipe.rs`).
//!
//! On Windows each engine is put in a job object of its own, created kill-on-close
//! (`JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`, as cutechess does), as soon as it has started: what it
//! starts is in the job too. Our handle is the only one, so closing it ([`EngineProcess::kill`])
//! ends the engine and everything it started, and so does the end of the tool however it ends
//! (Task Manager's End task, a killed runner): the system closes a dead process's handles. What
//! an engine starts in the moment between its start and its assignment escapes the job.

use crate::guard;
use crate::guard::Registration;
use crate::pipe::SharedStdin;
use crate::program::EngineCommand;
use log::{debug, info};
use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, BufReader};
use std::process::{Child, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How many of the last stderr lines are kept for the message about a failure.
pub const STDERR_TAIL: usize = 20;
/// The longest stderr line kept (in characters); the rest is cut.
const STDERR_LINE: usize = 300;

/// Where the engine's stderr goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stderr {
    /// To our stderr, untouched (nothing is kept).
    #[default]
    Inherit,
    /// Nowhere.
    Null,
    /// Read by us: every line into our log (`info` level, prefixed with the engine's label),
    /// the last lines kept.
    Log,
    /// Read by us: kept for the transcript (see [`EngineProcess::take_stderr`]), the last
    /// lines kept; nothing is logged.
    Keep,
}

/// A line from the engine, with when it arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The text, decoded lossily, without its line terminator (a CR before the LF is dropped).
    pub text: String,
    /// When it was read.
    pub at: Instant,
}

/// What a read brought.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// A line.
    Line(Line),
    /// Nothing by the deadline (or, without one, nothing read yet).
    Nothing,
    /// The output has ended: the engine exited or closed it.
    End,
}

/// A line's text: UTF-8 as is (the fast check for the ASCII engines write), anything else
/// decoded lossily.
fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// `bytes` without a trailing LF and then a trailing CR.
fn trim_line(mut bytes: &[u8]) -> &[u8] {
    if let [rest @ .., b'\n'] = bytes {
        bytes = rest;
    }
    if let [rest @ .., b'\r'] = bytes {
        bytes = rest;
    }
    bytes
}

/// The stderr lines a reader thread has collected.
#[derive(Debug, Default)]
struct StderrLog {
    /// The last lines, for messages.
    tail: VecDeque<String>,
    /// Lines not yet taken into a transcript ([`Stderr::Keep`] only).
    pending: Vec<Line>,
    /// Stderr has ended.
    ended: bool,
}

type SharedStderr = Arc<Mutex<StderrLog>>;

fn lock(log: &SharedStderr) -> MutexGuard<'_, StderrLog> {
    log.lock().unwrap_or_else(|e| e.into_inner())
}

/// Reads `from` a line at a time, each stamped when it was read, until it ends or `each`
/// returns `false`.
fn read_lines(from: impl io::Read, mut each: impl FnMut(Line) -> bool) {
    let mut r = BufReader::new(from);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match r.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let at = Instant::now();
                let text = decode(trim_line(&buf));
                if !each(Line { text, at }) {
                    return;
                }
            }
        }
    }
}

/// Reads `from` into `log` until it ends.
fn read_stderr(from: impl io::Read, log: SharedStderr, label: String, mode: Stderr) {
    read_lines(from, |line| {
        if mode == Stderr::Log {
            info!("{label} stderr: {}", line.text.trim_end());
        }
        let mut log = lock(&log);
        if log.tail.len() == STDERR_TAIL {
            log.tail.pop_front();
        }
        log.tail.push_back(cut(&line.text, STDERR_LINE));
        if mode == Stderr::Keep {
            log.pending.push(line);
        }
        true
    });
    lock(&log).ended = true;
}

fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{} …", &s[..i]),
        None => s.to_string(),
    }
}

/// Where the output is read from.
enum Source {
    /// Our end of the stdout pipe, non-blocking, read by the waiting thread.
    #[cfg(unix)]
    Direct(unix::LineReader),
    /// A reader thread's channel.
    #[cfg(not(unix))]
    Thread(std::sync::mpsc::Receiver<Option<Line>>),
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: SharedStdin,
    source: Source,
    stderr: Option<SharedStderr>,
    label: String,
    /// The output has ended.
    ended: bool,
    /// Removes the process from the guard's list when it has been reaped.
    registration: Option<Registration>,
    /// The engine's job object (Windows): closed, it ends every process in it.
    #[cfg(windows)]
    job: Option<win32job::Job>,
}

impl fmt::Debug for EngineProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EngineProcess")
            .field("label", &self.label)
            .field("pid", &self.child.id())
            .finish_non_exhaustive()
    }
}

impl EngineProcess {
    /// Starts `command` in a process group of its own (so that a Ctrl-C in the terminal or
    /// console reaches only the tool, which then ends the engine's game properly), with its
    /// stdin and stdout piped to us and its stderr as `stderr` says. `label` names it in the
    /// log.
    pub fn spawn(command: &EngineCommand, label: &str, stderr: Stderr) -> io::Result<Self> {
        let mut cmd = guard::command(command)?;
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match stderr {
                Stderr::Inherit => Stdio::inherit(),
                Stderr::Null => Stdio::null(),
                Stderr::Log | Stderr::Keep => Stdio::piped(),
            });
        if let Some(dir) = &command.dir {
            cmd.current_dir(dir);
        }
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        #[cfg(windows)]
        std::os::windows::process::CommandExt::creation_flags(
            &mut cmd,
            windows::CREATE_NEW_PROCESS_GROUP,
        );
        let mut child = cmd.spawn()?;
        #[cfg(windows)]
        let job = windows::job_of(&child, label);
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take().expect("stdin is piped");
        let source = match Source::new(stdout) {
            Ok(s) => s,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(e);
            }
        };
        let stdin = match SharedStdin::new(stdin) {
            Ok(s) => s,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(e);
            }
        };
        let registration = guard::register(child.id(), &stdin);
        let stderr = child.stderr.take().map(|from| {
            let log = SharedStderr::default();
            let (log2, label2) = (Arc::clone(&log), label.to_string());
            std::thread::spawn(move || read_stderr(from, log2, label2, stderr));
            log
        });
        debug!("{label}: started '{command}' (pid {})", child.id());
        Ok(EngineProcess {
            child,
            stdin,
            source,
            stderr,
            label: label.to_string(),
            ended: false,
            registration: Some(registration),
            #[cfg(windows)]
            job,
        })
    }

    /// The operating system's process id (also the id of its process group on Unix).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The name used in the log.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Renames the engine in the log.
    pub fn set_label(&mut self, label: &str) {
        self.label = label.to_string();
    }

    /// Writes `bytes` and flushes them, by `deadline` (Unix; elsewhere the write may block).
    /// An error means the engine no longer reads its input: it exited, closed it, or left it
    /// full past the deadline (`TimedOut`).
    pub fn write(&mut self, bytes: &[u8], deadline: Instant) -> io::Result<()> {
        self.stdin.write(bytes, deadline)
    }

    /// The next line by `deadline`; with `None`, only a line that has already arrived. A last
    /// line without its newline is still returned before [`Next::End`].
    pub fn read_line(&mut self, deadline: Option<Instant>) -> Next {
        if self.ended {
            return Next::End;
        }
        let read = self.source.read_line(deadline);
        if read == Next::End {
            self.ended = true;
        }
        read
    }

    /// Whether the output has ended.
    pub fn output_ended(&self) -> bool {
        self.ended
    }

    /// The stderr lines that arrived since the last call ([`Stderr::Keep`]), oldest first.
    pub fn take_stderr(&mut self) -> Vec<Line> {
        self.stderr
            .as_ref()
            .map(|log| std::mem::take(&mut lock(log).pending))
            .unwrap_or_default()
    }

    /// The last lines of stderr (at most [`STDERR_TAIL`], each cut to a few hundred
    /// characters), when it is read by us.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.stderr
            .as_ref()
            .map(|log| lock(log).tail.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Waits up to `within` for stderr to end (it ends with the process: a crash's last words
    /// come after its last stdout line).
    pub fn wait_stderr(&self, within: Duration) {
        let Some(log) = &self.stderr else { return };
        let until = Instant::now() + within;
        while !lock(log).ended && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The exit status once the process has ended, without waiting.
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        let status = self.child.try_wait().ok().flatten();
        if status.is_some() {
            self.registration = None;
        }
        status
    }

    /// The exit status, waiting up to `within` for it.
    pub fn wait_exit(&mut self, within: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + within;
        loop {
            if let Some(status) = self.exit_status() {
                return Some(status);
            }
            if Instant::now() >= until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Kills the process and everything in its process group (an engine started through a
    /// script, or one that runs helpers; Windows: everything in its job, also when the engine
    /// itself has exited), and reaps it.
    pub fn kill(&mut self) {
        if self.exit_status().is_none() {
            guard::kill_group(self.child.id());
            let _ = self.child.kill();
        }
        #[cfg(windows)]
        drop(self.job.take());
        let _ = self.child.wait();
        self.registration = None;
        self.ended = true;
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

impl Source {
    #[cfg(unix)]
    fn new(stdout: std::process::ChildStdout) -> io::Result<Source> {
        unix::LineReader::new(stdout).map(Source::Direct)
    }

    #[cfg(not(unix))]
    fn new(stdout: std::process::ChildStdout) -> io::Result<Source> {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            read_lines(stdout, |line| tx.send(Some(line)).is_ok());
            let _ = tx.send(None);
        });
        Ok(Source::Thread(rx))
    }

    fn read_line(&mut self, deadline: Option<Instant>) -> Next {
        match self {
            #[cfg(unix)]
            Source::Direct(r) => r.read_line(deadline),
            #[cfg(not(unix))]
            Source::Thread(rx) => {
                use std::sync::mpsc::{RecvTimeoutError, TryRecvError};
                let got = match deadline {
                    Some(d) => match rx.recv_timeout(d.saturating_duration_since(Instant::now())) {
                        Ok(l) => l,
                        Err(RecvTimeoutError::Timeout) => return Next::Nothing,
                        Err(RecvTimeoutError::Disconnected) => None,
                    },
                    None => match rx.try_recv() {
                        Ok(l) => l,
                        Err(TryRecvError::Empty) => return Next::Nothing,
                        Err(TryRecvError::Disconnected) => None,
                    },
                };
                got.map_or(Next::End, Next::Line)
            }
        }
    }
}

#[cfg(unix)]
mod unix {
    use super::{decode, trim_line, Line, Next};
    use crate::pipe::unix::{set_nonblocking, wait};
    use nix::poll::PollFlags;
    use std::io::{self, Read as _};
    use std::process::ChildStdout;
    use std::time::Instant;

    /// Reads lines from a non-blocking pipe in the calling thread.
    pub struct LineReader {
        pipe: ChildStdout,
        /// Bytes read; the unread ones are `buf[start..end]`. It grows only for a line longer
        /// than itself, so reads never zero memory.
        buf: Vec<u8>,
        start: usize,
        end: usize,
        /// When the bytes in `buf` were read.
        at: Instant,
        eof: bool,
    }

    impl LineReader {
        pub fn new(pipe: ChildStdout) -> io::Result<LineReader> {
            set_nonblocking(&pipe)?;
            Ok(LineReader {
                pipe,
                buf: vec![0; 8192],
                start: 0,
                end: 0,
                at: Instant::now(),
                eof: false,
            })
        }

        /// Makes room after the unread bytes: moves them to the front, or doubles the buffer
        /// when they fill it.
        fn make_room(&mut self) {
            if self.start == self.end {
                self.start = 0;
                self.end = 0;
            }
            if self.end == self.buf.len() {
                if self.start > 0 {
                    self.buf.copy_within(self.start..self.end, 0);
                    self.end -= self.start;
                    self.start = 0;
                } else {
                    self.buf.resize(self.buf.len() * 2, 0);
                }
            }
        }

        /// The next complete line already read, if any.
        fn buffered_line(&mut self) -> Option<Line> {
            let rest = &self.buf[self.start..self.end];
            let n = rest.iter().position(|&b| b == b'\n')?;
            let text = decode(trim_line(&rest[..=n]));
            self.start += n + 1;
            Some(Line { text, at: self.at })
        }

        pub fn read_line(&mut self, deadline: Option<Instant>) -> Next {
            loop {
                if let Some(line) = self.buffered_line() {
                    return Next::Line(line);
                }
                if self.eof {
                    if self.start < self.end {
                        // A last line without its newline.
                        self.make_room();
                        self.buf[self.end] = b'\n';
                        self.end += 1;
                        continue;
                    }
                    return Next::End;
                }
                match wait(&self.pipe, PollFlags::POLLIN, deadline) {
                    Ok(true) => {}
                    Ok(false) => return Next::Nothing,
                    Err(_) => self.eof = true,
                }
                self.make_room();
                match self.pipe.read(&mut self.buf[self.end..]) {
                    Ok(0) => self.eof = true,
                    Ok(n) => {
                        self.end += n;
                        self.at = Instant::now();
                    }
                    Err(e) => match e.kind() {
                        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => {}
                        _ => self.eof = true,
                    },
                }
            }
        }
    }
}

#[cfg(windows)]
mod windows {
    use log::warn;

    /// `CreateProcess`'s flag for a process group of the engine's own: the console's Ctrl-C
    /// is then ignored by the engine (and what it starts), and reaches only the tool.
    pub const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;
    use std::os::windows::io::AsRawHandle;
    use std::process::Child;
    use win32job::{ExtendedLimitInfo, Job, JobError};

    /// A job object created kill-on-close, with `child` in it. `None`, with a warning, when the
    /// system refuses one: the engine then runs outside any job of ours, ended by its own kill
    /// only (not what it started, nor when the tool is killed outright).
    pub fn job_of(child: &Child, label: &str) -> Option<Job> {
        let made = (|| {
            let mut info = ExtendedLimitInfo::new();
            info.limit_kill_on_job_close();
            let job = Job::create_with_limit_info(&info)?;
            job.assign_process(child.as_raw_handle() as isize)?;
            Ok::<Job, JobError>(job)
        })();
        made.map_err(|e| {
            let why = e.to_string();
            warn!(
                "{label}: not in a job object ({why}: {}): it may outlive this tool if the tool is killed",
                std::io::Error::from(e)
            )
        })
        .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ends_are_trimmed() {
        assert_eq!(trim_line(b"usiok\r\n"), b"usiok");
        assert_eq!(trim_line(b"usiok\n"), b"usiok");
        assert_eq!(trim_line(b"usiok"), b"usiok");
        assert_eq!(trim_line(b"a\r\r\n"), b"a\r");
        assert_eq!(decode(b"\x82\xa0x"), "\u{fffd}\u{fffd}x");
    }

    #[test]
    fn long_stderr_lines_are_cut() {
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut("abcd", 3), "abc …");
        assert_eq!(cut("将棋です", 2), "将棋 …");
    }
}
