//! Ownership of the engines' lives: no engine outlives the tool that started it.
//!
//! Every engine process (`EngineProcess`, whose module uses this one, never the other way)
//! registers here while it runs. However the tool ends, its engines get `quit` and, after a
//! short grace, a kill of their whole process group:
//!
//! - normally, on an error or a panic: the tool's own code (each engine's `Drop` sends `quit`,
//!   waits briefly, kills);
//! - on SIGTERM or SIGHUP, and on Ctrl-C (SIGINT) when the tool has no use for it: the signal
//!   thread of [`handle_signals`] runs the tool's last words ([`at_termination`]: each at most
//!   [`HOOK_LIMIT`]), ends every registered engine ([`end_all`]) and exits with 128 + the
//!   signal's number, whatever the tool's threads are doing;
//! - through [`exit`], which tools call instead of [`std::process::exit`];
//! - on Linux, when the tool is killed outright (SIGKILL, where no code of ours runs): engines
//!   started after [`kill_engines_with_us`] carry the parent-death signal. The binary re-runs
//!   itself as a launcher ([`launch`]) that sets the signal on itself (`prctl`, through nix's
//!   safe call) and then becomes the engine (`exec`, same process id). The kernel sends the
//!   signal when the *thread* that started the engine ends; each tool starts and ends its
//!   engines in one thread.

use crate::pipe::{self, Pipe, SharedStdin};
use crate::program::EngineCommand;
use log::warn;
use std::ffi::OsString;
use std::io;
use std::process::{Command, ExitCode};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

/// How long engines have to exit after the last `quit`, when the tool ends on a signal or
/// through [`exit`], before their process groups are killed.
pub const END_GRACE: Duration = Duration::from_millis(500);

/// The first argument that makes the binary the launcher of an engine ([`launch`]).
pub const LAUNCH_ARG: &str = "--saikoro-engine-launcher";

struct Live {
    pid: u32,
    stdin: Weak<Mutex<Pipe>>,
}

static LIVE: Mutex<Vec<Live>> = Mutex::new(Vec::new());

fn live() -> std::sync::MutexGuard<'static, Vec<Live>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// An engine's place in the list; leaves it when dropped (the process has been reaped).
#[derive(Debug)]
pub struct Registration {
    pid: u32,
}

impl Drop for Registration {
    fn drop(&mut self) {
        live().retain(|l| l.pid != self.pid);
    }
}

pub(super) fn register(pid: u32, stdin: &SharedStdin) -> Registration {
    live().push(Live {
        pid,
        stdin: stdin.downgrade(),
    });
    Registration { pid }
}

/// The process ids of the engines running now (started and not yet reaped).
pub fn running() -> Vec<u32> {
    live().iter().map(|l| l.pid).collect()
}

/// Kills the process group led by `pid` (Unix; the group of an engine is its own).
pub(super) fn kill_group(pid: u32) {
    #[cfg(unix)]
    {
        use nix::sys::signal::{killpg, Signal};
        use nix::unistd::Pid;
        if let Ok(raw) = i32::try_from(pid) {
            let _ = killpg(Pid::from_raw(raw), Signal::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
}

/// Whether the child `pid` has exited (without reaping it: its `Child` still will).
fn exited(pid: u32) -> bool {
    #[cfg(target_os = "linux")]
    {
        use nix::sys::wait::{waitid, Id, WaitPidFlag, WaitStatus};
        use nix::unistd::Pid;
        let Ok(raw) = i32::try_from(pid) else {
            return true;
        };
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
        !matches!(
            waitid(Id::Pid(Pid::from_raw(raw)), flags),
            Ok(WaitStatus::StillAlive)
        )
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pid;
        false
    }
}

/// Ends every registered engine: `quit` to each (written from a thread of its own, so that an
/// engine that no longer reads cannot hold us), up to `grace` for them to exit, then a kill of
/// each one's process group. Returns how many there were.
pub fn end_all(grace: Duration) -> usize {
    let engines: Vec<(u32, Option<Arc<Mutex<Pipe>>>)> =
        live().iter().map(|l| (l.pid, l.stdin.upgrade())).collect();
    let deadline = Instant::now() + grace;
    for (_, stdin) in &engines {
        if let Some(stdin) = stdin.clone() {
            std::thread::spawn(move || {
                // A tool thread may hold the lock in a write that waits: then no `quit`.
                if let Ok(mut s) = stdin.try_lock() {
                    let _ = pipe::write_quit(&mut s, deadline);
                }
            });
        }
    }
    while Instant::now() < deadline && !engines.iter().all(|(pid, _)| exited(*pid)) {
        std::thread::sleep(Duration::from_millis(5));
    }
    for (pid, _) in &engines {
        kill_group(*pid);
    }
    engines.len()
}

/// Ends the registered engines ([`end_all`]) and exits with `code`: for tools, instead of
/// [`std::process::exit`], which would leave them running.
pub fn exit(code: i32) -> ! {
    end_all(END_GRACE);
    std::process::exit(code)
}

/// What a signal asks of the tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// Ctrl-C (SIGINT).
    Interrupt,
}

/// Takes SIGINT, SIGTERM and SIGHUP in a thread of their own. SIGTERM and SIGHUP end the
/// engines and the tool (exit status 143, 129). Ctrl-C goes to `on_interrupt` when given (the
/// tool then ends its games its own way, and calls [`exit`] for a quick end); without it, it
/// ends the engines and the tool (130).
///
/// On Windows the console's events play their parts: Ctrl-C is SIGINT; Ctrl-Break is SIGTERM
/// (143); the console's close, a logoff and a shutdown are SIGHUP (129). After those three
/// Windows ends the process as soon as the handler returns, and at the latest 5 s after the
/// event: the handler is held (tokio's listeners park it) while the tool's last writes
/// ([`HOOK_LIMIT`]) and the end of its engines ([`END_GRACE`]) run, within that time.
pub fn handle_signals(
    tool: &'static str,
    on_interrupt: Option<Box<dyn Fn(Signal) + Send>>,
) -> io::Result<()> {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for sig in signals.forever() {
                    match (sig, &on_interrupt) {
                        (SIGINT, Some(f)) => f(Signal::Interrupt),
                        _ => terminate(tool, 128 + sig),
                    }
                }
            })?;
        Ok(())
    }
    #[cfg(windows)]
    {
        let mut events = console::Events::new()?;
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || loop {
                match (events.next(), &on_interrupt) {
                    (130, Some(f)) => f(Signal::Interrupt),
                    (code, _) => terminate(tool, code),
                }
            })?;
        Ok(())
    }
    #[cfg(not(any(unix, windows)))]
    {
        let _ = (tool, on_interrupt);
        Ok(())
    }
}

/// The console's events (Windows), as the exit status of the signal each stands for.
#[cfg(windows)]
mod console {
    use std::io;
    use std::sync::Arc;
    use std::task::{Context, Wake, Waker};
    use std::thread::Thread;
    use tokio::signal::windows as events;

    /// Wakes the thread that waits for an event.
    struct Unpark(Thread);

    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }

    /// Listeners for every console event, from their creation on.
    pub struct Events {
        c: events::CtrlC,
        brk: events::CtrlBreak,
        close: events::CtrlClose,
        logoff: events::CtrlLogoff,
        shutdown: events::CtrlShutdown,
    }

    impl Events {
        pub fn new() -> io::Result<Events> {
            Ok(Events {
                c: events::ctrl_c()?,
                brk: events::ctrl_break()?,
                close: events::ctrl_close()?,
                logoff: events::ctrl_logoff()?,
                shutdown: events::ctrl_shutdown()?,
            })
        }

        /// Waits for the next event: 130 for Ctrl-C (SIGINT), 143 for Ctrl-Break (SIGTERM),
        /// 129 for the console's close, a logoff or a shutdown (SIGHUP).
        pub fn next(&mut self) -> i32 {
            let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
            let mut cx = Context::from_waker(&waker);
            loop {
                // Those that end the process first: they leave the least time.
                let hup = self.close.poll_recv(&mut cx).is_ready()
                    | self.logoff.poll_recv(&mut cx).is_ready()
                    | self.shutdown.poll_recv(&mut cx).is_ready();
                if hup {
                    return 129;
                }
                if self.brk.poll_recv(&mut cx).is_ready() {
                    return 143;
                }
                if self.c.poll_recv(&mut cx).is_ready() {
                    return 130;
                }
                std::thread::park();
            }
        }
    }
}

/// What the tool does last when a signal ends it: called with the exit status (143 for
/// SIGTERM, 129 for SIGHUP, 130 for Ctrl-C; [`signal_name`] names it), from the signal thread,
/// while the tool's other threads go on. It must not wait on them for long: what it needs
/// behind a lock they may hold, it takes with `try_lock` for a bounded time, or does without.
pub type TerminationHook = Box<dyn Fn(i32) + Send + Sync>;

/// How long the hooks of [`at_termination`] have, together, before the tool ends without
/// them.
pub const HOOK_LIMIT: Duration = Duration::from_secs(3);

static TERMINATING: AtomicBool = AtomicBool::new(false);

/// Whether a signal is ending the tool: its engines are being ended, and what they do from
/// now on (a game lost because its engine quit) is no result.
pub fn terminating() -> bool {
    TERMINATING.load(Ordering::SeqCst)
}

static HOOKS: Mutex<Vec<(u64, TerminationHook)>> = Mutex::new(Vec::new());
static NEXT_HOOK: AtomicU64 = AtomicU64::new(0);

fn hooks() -> std::sync::MutexGuard<'static, Vec<(u64, TerminationHook)>> {
    HOOKS.lock().unwrap_or_else(|e| e.into_inner())
}

/// A hook's place among those run on a signal; the hook leaves when this is dropped.
#[derive(Debug)]
#[must_use = "the hook is removed when this is dropped"]
pub struct AtTermination {
    id: u64,
}

impl Drop for AtTermination {
    fn drop(&mut self) {
        hooks().retain(|(id, _)| *id != self.id);
    }
}

/// Runs `hook` when a signal ends the tool (SIGTERM, SIGHUP, or Ctrl-C where the tool has
/// no use for it), before its engines are ended and it exits; as long as the returned
/// handle lives. Each hook runs once at most, in a thread of its own; those still running
/// after [`HOOK_LIMIT`] are left behind, and stderr says so.
pub fn at_termination(hook: TerminationHook) -> AtTermination {
    let id = NEXT_HOOK.fetch_add(1, Ordering::Relaxed);
    hooks().push((id, hook));
    AtTermination { id }
}

/// `mutex` locked, waiting at most `limit` for another thread to let go of it: for a hook of
/// [`at_termination`], whose tool's threads may hold it. A poisoned lock is taken as it is.
pub fn lock_within<T>(mutex: &Mutex<T>, limit: Duration) -> Option<std::sync::MutexGuard<'_, T>> {
    let until = Instant::now() + limit;
    loop {
        match mutex.try_lock() {
            Ok(held) => return Some(held),
            Err(std::sync::TryLockError::Poisoned(p)) => return Some(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) if Instant::now() < until => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(std::sync::TryLockError::WouldBlock) => return None,
        }
    }
}

/// The signal that ends a tool with exit status `code` (128 + its number), by its name; on
/// Windows, the console event that stands for it.
pub fn signal_name(code: i32) -> Option<&'static str> {
    match code {
        #[cfg(not(windows))]
        129 => Some("SIGHUP"),
        #[cfg(not(windows))]
        130 => Some("SIGINT"),
        #[cfg(not(windows))]
        143 => Some("SIGTERM"),
        #[cfg(windows)]
        129 => Some("the console's close, a logoff or a shutdown"),
        #[cfg(windows)]
        130 => Some("Ctrl-C"),
        #[cfg(windows)]
        143 => Some("Ctrl-Break"),
        _ => None,
    }
}

/// Runs the registered hooks (taken out of the list: none runs twice, and dropping a handle
/// meanwhile waits for nothing) with `code`, each in a thread, for at most `limit` in all.
/// Returns how many did not finish in time.
fn run_hooks(code: i32, limit: Duration) -> usize {
    let taken = std::mem::take(&mut *hooks());
    let deadline = Instant::now() + limit;
    let (done, finished) = mpsc::channel();
    let mut started = 0;
    for (_, hook) in taken {
        let done = done.clone();
        let spawned = std::thread::Builder::new()
            .name("termination hook".into())
            .spawn(move || {
                hook(code);
                let _ = done.send(());
            });
        match spawned {
            Ok(_) => started += 1,
            Err(e) => warn!("cannot run a termination hook: {e}"),
        }
    }
    let mut left = started;
    while left > 0 {
        let wait = deadline.saturating_duration_since(Instant::now());
        if finished.recv_timeout(wait).is_err() {
            break;
        }
        left -= 1;
    }
    left
}

fn terminate(tool: &str, code: i32) -> ! {
    TERMINATING.store(true, Ordering::SeqCst);
    let late = run_hooks(code, HOOK_LIMIT);
    if late > 0 {
        eprintln!(
            "saikoro {tool}: {late} last write(s) did not finish within {} s: ending without them",
            HOOK_LIMIT.as_secs()
        );
    }
    let n = running().len();
    if n > 0 {
        let s = if n == 1 { "" } else { "es" };
        eprintln!("saikoro {tool}: ending on a signal: stopping {n} engine process{s}");
    }
    // For the log file: at warn it would reach stderr too, a second time.
    log::info!("ending on a signal (exit status {code}) with {n} engine(s) running");
    exit(code)
}

/// The binary itself, as the launcher of engines (set by [`kill_engines_with_us`]).
static LAUNCHER: OnceLock<std::path::PathBuf> = OnceLock::new();

/// From now on, engines carry the parent-death signal (Linux): they are killed when the thread
/// that started them ends, even when the tool is killed with SIGKILL. For the `saikoro`
/// binary, whose `main` hands [`LAUNCH_ARG`] to [`launch`]; elsewhere it does nothing.
pub fn kill_engines_with_us() {
    #[cfg(target_os = "linux")]
    if let Ok(exe) = std::env::current_exe() {
        let _ = LAUNCHER.set(exe);
    }
}

/// The command that starts `engine`: the program itself, or the launcher that becomes it.
pub(super) fn command(engine: &EngineCommand) -> io::Result<Command> {
    // A missing working directory is named as such: the spawn would call it "No such file
    // or directory" as if the program were missing.
    if let Some(dir) = engine.dir.as_ref().filter(|d| !d.is_dir()) {
        let why = if dir.exists() {
            "not a directory"
        } else {
            "no such directory"
        };
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("its working directory dir={}: {why}", dir.display()),
        ));
    }
    if let Some(launcher) = LAUNCHER.get().filter(|l| l.exists()) {
        // The launcher can only say "cannot start" once it runs: find the program first, so
        // that a missing one is the same error as without it.
        locate(engine)?;
        let mut cmd = Command::new(launcher);
        cmd.arg(LAUNCH_ARG)
            .arg(std::process::id().to_string())
            .arg(&engine.program)
            .args(&engine.args);
        return Ok(cmd);
    }
    if has_slash(&engine.program) {
        locate(engine)?;
    }
    let mut cmd = Command::new(&engine.program);
    cmd.args(&engine.args);
    Ok(cmd)
}

/// Whether `engine`'s program can be found and run: a path (relative to its directory), or a
/// name looked up in `PATH`. The error names what is wrong: no such file, a directory, or a
/// file without the execute bit (the commonest first mistake with a downloaded engine).
fn locate(engine: &EngineCommand) -> io::Result<()> {
    let program = engine.program.as_path();
    if !has_slash(program) {
        let on_path = std::env::var_os("PATH").is_some_and(|path| {
            std::env::split_paths(&path).any(|d| check_file(&d.join(program)).is_ok())
        });
        return if on_path {
            Ok(())
        } else {
            Err(io::Error::new(
                io::ErrorKind::NotFound,
                "No such file or directory (os error 2)",
            ))
        };
    }
    match (&engine.dir, program.is_relative()) {
        (Some(dir), true) => check_file(&dir.join(program)),
        _ => check_file(program),
    }
}

/// Whether `program` has a `/`: a path, not a name looked up in `PATH` (as `execvp` tells them
/// apart).
fn has_slash(program: &std::path::Path) -> bool {
    program.as_os_str().as_encoded_bytes().contains(&b'/')
}

/// Whether the file at `path` can be run, with an error that says why not.
fn check_file(path: &std::path::Path) -> io::Result<()> {
    let meta = path.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::other("is a directory, not a program"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o111 == 0 {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!("not executable (to run it: chmod +x {})", path.display()),
            ));
        }
    }
    Ok(())
}

/// The launcher (`saikoro --saikoro-engine-launcher PARENT PROGRAM ARGS…`): asks for SIGKILL
/// when its parent thread ends, makes sure that parent is still there, and becomes the engine.
/// Returns only when that fails.
pub fn launch(args: Vec<OsString>) -> ExitCode {
    let mut args = args.into_iter();
    let parent: Option<u32> = args.next().and_then(|a| a.to_str()?.parse().ok());
    let Some(program) = args.next() else {
        eprintln!("saikoro: {LAUNCH_ARG} PARENT PROGRAM [ARGS]");
        return ExitCode::from(2);
    };
    #[cfg(target_os = "linux")]
    {
        use nix::sys::signal::Signal as Sig;
        if let Err(e) = nix::sys::prctl::set_pdeathsig(Sig::SIGKILL) {
            log::debug!("no parent-death signal: {e}");
        }
        // The parent may have ended before the signal was asked for.
        if parent.is_some_and(|p| nix::unistd::getppid().as_raw() as u32 != p) {
            return ExitCode::from(1);
        }
    }
    let _ = parent;
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let err = Command::new(&program).args(args).exec();
        eprintln!("cannot start engine '{}': {err}", program.to_string_lossy());
        ExitCode::from(127)
    }
    #[cfg(not(unix))]
    {
        eprintln!("saikoro: {LAUNCH_ARG} is for Linux");
        let _ = (program, args);
        ExitCode::from(2)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// The hooks run with the exit status, once; one that is dropped does not run; one that
    /// never ends is left behind, and counted so.
    #[test]
    fn termination_hooks() {
        use std::sync::atomic::AtomicI32;
        static SEEN: AtomicI32 = AtomicI32::new(0);
        let (release, wait) = mpsc::channel::<()>();
        let wait = Mutex::new(wait);
        let _quick = at_termination(Box::new(|code| SEEN.store(code, Ordering::SeqCst)));
        let _stuck = at_termination(Box::new(move |_| {
            let _ = wait.lock().map(|w| w.recv());
        }));
        drop(at_termination(Box::new(|_| {
            SEEN.store(-1, Ordering::SeqCst)
        })));
        // Half a second, not the tools' three (HOOK_LIMIT): the stuck hook holds the test for
        // the whole limit, and `cargo mutants` runs this test for every mutant. The quick
        // hook, a store, is done long before.
        let limit = Duration::from_millis(500);
        assert_eq!(run_hooks(143, limit), 1);
        assert_eq!(SEEN.load(Ordering::SeqCst), 143);
        assert_eq!(run_hooks(129, limit), 0);
        assert_eq!(SEEN.load(Ordering::SeqCst), 143);
        drop(release);
        assert_eq!(signal_name(143), Some("SIGTERM"));
        assert_eq!(signal_name(129), Some("SIGHUP"));
        assert_eq!(signal_name(1), None);
    }

    #[test]
    fn a_held_lock_is_waited_for_a_while_only() {
        let m = Mutex::new(1);
        let held = m.lock().unwrap();
        assert!(lock_within(&m, Duration::from_millis(30)).is_none());
        drop(held);
        assert_eq!(
            lock_within(&m, Duration::from_millis(30)).map(|v| *v),
            Some(1)
        );
    }

    #[test]
    fn programs_are_located_like_the_system_does() {
        let cmd = |p: &str| EngineCommand::parse(p).unwrap();
        assert!(locate(&cmd("sh")).is_ok());
        assert!(locate(&cmd("/bin/sh")).is_ok());
        let missing = locate(&cmd("no-such-engine-xyz")).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        assert!(locate(&cmd("./no/such/engine")).is_err());
        // A relative path is looked up in the engine's directory.
        let mut in_bin = cmd("./sh");
        in_bin.dir = Some("/bin".into());
        assert!(locate(&in_bin).is_ok());
        // A file that is not executable is not a program.
        let dir = std::env::temp_dir();
        let name = format!("saikoro-not-a-program-{}", std::process::id());
        std::fs::write(dir.join(&name), "x").unwrap();
        let mut not_exec = cmd(&format!("./{name}"));
        not_exec.dir = Some(dir.clone());
        let found = locate(&not_exec);
        let _ = std::fs::remove_file(dir.join(&name));
        assert!(found.is_err());
    }
}
