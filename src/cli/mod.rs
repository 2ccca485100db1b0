//! Command-line front ends: argument parsing and start-up for each mode. The only place, with
//! `main.rs`, where `anyhow` is used.

pub mod csa;
pub mod selfplay;
pub mod usi;

/// `saikoro --help`.
pub const USAGE: &str = "\
Saikoro: a USI shogi engine that plays a uniformly random legal move.

Usage:
  saikoro [--log-file FILE]        USI engine on stdin/stdout (the default)
  saikoro selfplay [OPTIONS]       random self-play games, with a summary
  saikoro csa --host HOST --user NAME --password PASS [OPTIONS]
                                   play on a CSA server (Floodgate)
  saikoro --version | --help

Run `saikoro <mode> --help` for the options of a mode.
";

/// Starts logging to stderr, filtered by `RUST_LOG` (nothing by default), or to `file`
/// (appending) at `info` level unless `RUST_LOG` says otherwise.
pub fn init_logging(file: Option<&std::path::Path>) -> anyhow::Result<()> {
    use anyhow::Context;
    let mut b = env_logger::Builder::new();
    match file {
        Some(path) => {
            let f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("cannot open log file {}", path.display()))?;
            b.filter_level(log::LevelFilter::Info)
                .target(env_logger::Target::Pipe(Box::new(f)));
        }
        None => {
            b.filter_level(log::LevelFilter::Off);
        }
    }
    if let Ok(spec) = std::env::var("RUST_LOG") {
        b.parse_filters(&spec);
    }
    let _ = b.try_init();
    Ok(())
}
