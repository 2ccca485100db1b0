//! The `saikoro` binary: USI engine by default, `selfplay`, `csa`, `match`, `check`,
//! `record` and the other subcommands.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    // The engine launcher of the tools, and the binary under a farm's name, before any mode.
    if let Some(result) = cli::early() {
        return report(result);
    }
    let mut args = std::env::args_os().skip(1).peekable();
    let sub = args.peek().and_then(|a| a.to_str()).map(str::to_owned);
    let result = match sub.as_deref() {
        Some("-h" | "--help" | "help") => {
            print!("{}", cli::usage_text());
            Ok(ExitCode::SUCCESS)
        }
        Some("-V" | "--version") => {
            println!("saikoro {}", env!("CARGO_PKG_VERSION"));
            Ok(ExitCode::SUCCESS)
        }
        Some(name) => match cli::MODES.iter().find(|m| m.name == name) {
            Some(mode) => cli::run_mode(mode, args.skip(1).collect()),
            None => cli::usi::main(args.collect()),
        },
        None => cli::usi::main(args.collect()),
    };
    report(result)
}

/// The exit status of a mode, its error printed.
fn report(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) => {
            let (status, message) = cli::failure(&e);
            if let Some(m) = message {
                eprintln!("{m}");
            }
            ExitCode::from(status)
        }
    }
}
