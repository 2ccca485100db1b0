//! Our ends of an engine's pipes, below both [`process`](crate::driver::process) and
//! [`guard`](crate::driver::guard): the stdin that the tool writes and the guard writes the
//! last `quit` to ([`SharedStdin`]), written with a deadline, and (Unix) the non-blocking mode
//! and the wait with a deadline that the stdout reader uses too.

use std::io::{self, Write};
use std::process::ChildStdin;
use std::sync::{Arc, Mutex, Weak};
use std::time::Instant;

/// An engine's stdin, shared between the tool and the guard (which writes the last `quit`).
pub(super) struct SharedStdin(Arc<Mutex<ChildStdin>>);

/// The stdin pipe as the guard shares it: written by the tool, and by the guard for the last
/// `quit` when the tool is ending.
impl SharedStdin {
    /// Takes the pipe (Unix: made non-blocking, so that writes can have a deadline).
    pub(super) fn new(stdin: ChildStdin) -> io::Result<SharedStdin> {
        #[cfg(unix)]
        unix::set_nonblocking(&stdin)?;
        Ok(SharedStdin(Arc::new(Mutex::new(stdin))))
    }

    /// Writes all of `bytes` by `deadline`.
    pub(super) fn write(&self, bytes: &[u8], deadline: Instant) -> io::Result<()> {
        let mut stdin = self.0.lock().unwrap_or_else(|e| e.into_inner());
        write_all(&mut stdin, bytes, deadline)
    }

    /// A handle that does not keep the pipe open (the guard's, for the last `quit`).
    pub(super) fn downgrade(&self) -> Weak<Mutex<ChildStdin>> {
        Arc::downgrade(&self.0)
    }
}

/// Writes the `quit` the guard sends when the tool ends.
pub(super) fn write_quit(stdin: &mut ChildStdin, deadline: Instant) -> io::Result<()> {
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
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the engine has not read its input for too long",
                    ));
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn write_all(stdin: &mut ChildStdin, bytes: &[u8], _deadline: Instant) -> io::Result<()> {
    stdin.write_all(bytes).and_then(|_| stdin.flush())
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
