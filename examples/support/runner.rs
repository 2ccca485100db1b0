//! What the match examples read of a running process from `/proc` (Linux only): its resident
//! memory, open file descriptors, child processes and CPU time. Included by `match_soak` and
//! `match_week` with `#[path]`; not an example of its own (it has no `main`).

use std::path::Path;
use std::time::Duration;

/// One reading of a process.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reading {
    /// Resident memory (`VmRSS`), in kB.
    pub rss_kb: u64,
    /// Open file descriptors.
    pub fds: usize,
    /// Live child processes.
    pub children: usize,
}

/// The resident memory, open descriptors and live child processes of `pid`.
pub fn read(pid: u32) -> Option<Reading> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss_kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())?;
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count();
    Some(Reading {
        rss_kb,
        fds,
        children: children_of(pid).len(),
    })
}

/// The processes whose parent is `pid`.
pub fn children_of(pid: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).unwrap_or_default();
            // Field 4 (the parent), after the command name's closing parenthesis.
            stat.rfind(')')
                .and_then(|i| stat[i + 2..].split_whitespace().nth(1)?.parse::<u32>().ok())
                == Some(pid)
        })
        .collect()
}

/// Processes working in `dir`, but this one.
pub fn processes_in(dir: &Path) -> Vec<u32> {
    let me = std::process::id();
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    procs
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&p| p != me)
        .filter(|p| std::fs::read_link(format!("/proc/{p}/cwd")).is_ok_and(|c| c == dir))
        .collect()
}

/// The CPU time (user + system) `pid` has used, all its threads (its children excluded): the
/// sum of its live threads' `schedstat` (nanoseconds on a CPU), or, where the kernel keeps no
/// schedstat, `stat`'s fields 14 and 15 (clock ticks of 1/100 s, which also count the threads
/// that have ended).
pub fn cpu(pid: u32) -> Option<Duration> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut ns = 0u64;
    let mut any = false;
    for t in tasks.flatten() {
        let Ok(text) = std::fs::read_to_string(t.path().join("schedstat")) else {
            continue;
        };
        if let Some(n) = text
            .split_whitespace()
            .next()
            .and_then(|n| n.parse::<u64>().ok())
        {
            ns += n;
            any = true;
        }
    }
    if any {
        return Some(Duration::from_nanos(ns));
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |n: usize| fields.get(n - 3)?.parse::<u64>().ok();
    Some(Duration::from_millis((ticks(14)? + ticks(15)?) * 10))
}
