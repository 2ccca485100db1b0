//! `--cpu-affinity` (shogitest's `-cpu-affinity`, which the ShogiBench worker gives each runner
//! when engines ponder): the match and the engines it starts run on the listed CPUs only. The
//! engines inherit the mask from the runner.

use anyhow::{bail, Context};

/// Reads `2,4,6` or `0-3,8`: CPU numbers and ranges, separated by commas.
pub fn parse_cpus(text: &str) -> anyhow::Result<Vec<usize>> {
    let mut cpus = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let num = |t: &str| {
            t.trim()
                .parse::<usize>()
                .with_context(|| format!("--cpu-affinity {text:?}: '{t}' is no CPU number"))
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if a > b {
                    bail!("--cpu-affinity {text:?}: the range {part} is backwards");
                }
                cpus.extend(a..=b);
            }
            None => cpus.push(num(part)?),
        }
    }
    if cpus.is_empty() {
        bail!("--cpu-affinity needs CPU numbers, e.g. 2,4,6 or 0-3");
    }
    cpus.sort_unstable();
    cpus.dedup();
    Ok(cpus)
}

/// Runs this process (and the engines it starts from now on) on `cpus`.
#[cfg(target_os = "linux")]
pub fn pin(cpus: &[usize]) -> anyhow::Result<()> {
    use nix::sched::{sched_setaffinity, CpuSet};
    use nix::unistd::Pid;
    let mut set = CpuSet::new();
    for &c in cpus {
        set.set(c)
            .with_context(|| format!("--cpu-affinity: CPU {c} is beyond what Linux can name"))?;
    }
    sched_setaffinity(Pid::from_raw(0), &set).with_context(|| {
        format!(
            "--cpu-affinity {}: the system refused the CPUs",
            listed(cpus)
        )
    })?;
    log::info!("running on CPUs {}", listed(cpus));
    Ok(())
}

/// Elsewhere: refused, as the ShogiBench worker itself does off Linux.
#[cfg(not(target_os = "linux"))]
pub fn pin(_cpus: &[usize]) -> anyhow::Result<()> {
    bail!("--cpu-affinity is supported on Linux only")
}

/// The CPUs as `--cpu-affinity` takes them: `2,4,6`.
#[cfg(target_os = "linux")]
fn listed(cpus: &[usize]) -> String {
    let words: Vec<String> = cpus.iter().map(usize::to_string).collect();
    words.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_ranges() {
        assert_eq!(parse_cpus("2,4,6").unwrap(), [2, 4, 6]);
        assert_eq!(parse_cpus("0-3,8,2").unwrap(), [0, 1, 2, 3, 8]);
        assert!(parse_cpus("").is_err());
        assert!(parse_cpus("3-1").is_err());
        assert!(parse_cpus("a").is_err());
    }
}
