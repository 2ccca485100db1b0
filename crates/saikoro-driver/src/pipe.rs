//! Our ends of an engine's pipes, below both [`process`](crate::process) and
//! [`guard`](crate::guard): the stdin that the tool writes and the guard writes the
//! last `quit` to ([`SharedStdin`]), written with a deadline, and (Unix) the non-blocking mode
//! and the wait with a deadline that the stdout reader uses too.
//!
//! How a write keeps its deadline depends on the platform: on Unix our end of the pipe is
//! non-blocking and `poll` waits for room until the deadline; elsewhere (Windows, whose
//! anonymous pipes have no non-blocking mode) a thread of the engine's own writes, and the
//! caller waits for it until the deadline ([`Pipe`]).

use std::io;
#[cfg(unix)]
use std::io::Write;
use std::process::ChildStdin;
use std::sync::{Arc, Mutex, Weak};
use std::time::Instant;

/// Our end of an engine's stdin: the pipe itself (Unix, non-blocking).
#[cfg(unix)]
pub(super) type Pipe = ChildStdin;
/// Our end of an engine's stdin: the thread that writes it.
#[cfg(not(unix))]
pub(super) use thread::Writer as Pipe;

/// An engine's stdin, shared between the tool and the guard (which writes the last `quit`).
pub(super) struct SharedStdin(Arc<Mutex<Pipe>>);

/// The stdin pipe as the guard shares it: written by the tool, and by the guard for the last
/// `quit` when the tool is ending.
impl SharedStdin {
    /// Takes the pipe (Unix: made non-blocking, so that writes can have a deadline; elsewhere
    /// handed to a writer thread).
    pub(super) fn new(stdin: ChildStdin) -> io::Result<SharedStdin> {
        #[cfg(unix)]
        unix::set_nonblocking(&stdin)?;
        #[cfg(not(unix))]
        let stdin = thread::Writer::new(stdin)?;
        Ok(SharedStdin(Arc::new(Mutex::new(stdin))))
    }

    /// Writes all of `bytes` by `deadline`.
    pub(super) fn write(&self, bytes: &[u8], deadline: Instant) -> io::Result<()> {
        let mut stdin = self.0.lock().unwrap_or_else(|e| e.into_inner());
        write_all(&mut stdin, bytes, deadline)
    }

    /// A handle that does not keep the pipe open (the guard's, for the last `quit`).
    pub(super) fn downgrade(&self) -> Weak<Mutex<Pipe>> {
        Arc::downgrade(&self.0)
    }
}

/// Writes the `quit` the guard sends when the tool ends.
pub(super) fn write_quit(stdin: &mut Pipe, deadline: Instant) -> io::Result<()> {
    write_all(stdin, b"quit\n", deadline)
}

#[cfg(unix)]
fn write_all(stdin: &mut ChildStdin, mut bytes: &[u8], deadline: Instant) -> io::Result<()> {
    while !bytes.is_empty() {
        match stdin.write(bytes) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => bytes = &bytes[n..],
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if !unix::wait_writable(stdin, deadline)? {
                    return Err(not_read());
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn write_all(stdin: &mut Pipe, bytes: &[u8], deadline: Instant) -> io::Result<()> {
    stdin.write(bytes, deadline)
}

/// The error of a write that did not finish by its deadline.
fn not_read() -> io::Error {
    io::Error::new(
        io::ErrorKind::TimedOut,
        "the engine has not read its input for too long",
    )
}

#[cfg(not(unix))]
mod thread {
    use std::io::{self, Write};
    use std::process::ChildStdin;
    use std::sync::mpsc::{self, RecvTimeoutError};
    use std::time::Instant;

    /// An engine's stdin written by a thread of its own: a write to an engine that no longer
    /// reads blocks that thread, not the caller, who waits for it until the deadline. The thread
    /// ends when the writer is dropped (the pipe is then closed: the engine reads the end of
    /// its input) or a write fails; one blocked for ever ends when the engine's process does.
    pub struct Writer {
        bytes: mpsc::Sender<Vec<u8>>,
        done: mpsc::Receiver<io::Result<()>>,
        /// A write did not finish by its deadline: it may finish later, and nothing written
        /// after it could be in order, so every later write fails at once.
        stuck: bool,
    }

    impl Writer {
        pub fn new(mut stdin: ChildStdin) -> io::Result<Writer> {
            let (bytes, to_write) = mpsc::channel::<Vec<u8>>();
            let (report, done) = mpsc::channel();
            std::thread::Builder::new()
                .name("engine stdin".into())
                .spawn(move || {
                    for b in to_write {
                        let wrote = stdin.write_all(&b).and_then(|_| stdin.flush());
                        let failed = wrote.is_err();
                        if report.send(wrote).is_err() || failed {
                            return;
                        }
                    }
                })?;
            Ok(Writer {
                bytes,
                done,
                stuck: false,
            })
        }

        /// Writes all of `bytes` and flushes them, by `deadline`.
        pub fn write(&mut self, bytes: &[u8], deadline: Instant) -> io::Result<()> {
            if self.stuck {
                return Err(super::not_read());
            }
            if self.bytes.send(bytes.to_vec()).is_err() {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            match self
                .done
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(wrote) => wrote,
                Err(RecvTimeoutError::Timeout) => {
                    self.stuck = true;
                    Err(super::not_read())
                }
                Err(RecvTimeoutError::Disconnected) => Err(io::ErrorKind::BrokenPipe.into()),
            }
        }
    }
}

#[cfg(unix)]
pub(super) mod unix {
    use nix::fcntl::{fcntl, FcntlArg, OFlag};
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    use std::io;
    use std::os::fd::AsFd;
    use std::time::Instant;

    /// Makes our end of a pipe non-blocking (the engine's end is another open file and keeps
    /// blocking).
    pub fn set_nonblocking(fd: &impl AsFd) -> io::Result<()> {
        let flags = fcntl(fd.as_fd(), FcntlArg::F_GETFL).map_err(io::Error::from)?;
        let flags = OFlag::from_bits_truncate(flags) | OFlag::O_NONBLOCK;
        fcntl(fd.as_fd(), FcntlArg::F_SETFL(flags)).map_err(io::Error::from)?;
        Ok(())
    }

    /// Waits until `fd` is ready for `events` or `deadline` (`None`: do not wait) passes.
    /// `Ok(false)` at the deadline.
    pub fn wait(fd: &impl AsFd, events: PollFlags, deadline: Option<Instant>) -> io::Result<bool> {
        loop {
            let ms = match deadline {
                None => 0,
                Some(d) => {
                    // Rounded up: a wait never ends before its deadline.
                    let left = d.saturating_duration_since(Instant::now());
                    left.as_micros().div_ceil(1000).min(u16::MAX as u128) as u16
                }
            };
            let mut fds = [PollFd::new(fd.as_fd(), events)];
            match poll(&mut fds, PollTimeout::from(ms)) {
                Ok(0) if ms == 0 || deadline.is_some_and(|d| Instant::now() >= d) => {
                    return Ok(false)
                }
                Ok(0) => {}
                Ok(_) => return Ok(true),
                Err(nix::errno::Errno::EINTR) => {}
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Waits until the pipe takes more bytes; `Ok(false)` at the deadline.
    pub fn wait_writable(fd: &impl AsFd, deadline: Instant) -> io::Result<bool> {
        wait(fd, PollFlags::POLLOUT, Some(deadline))
    }
}
