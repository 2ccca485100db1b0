//! The `saikoro` binary: USI engine by default, `selfplay`, `csa`, `match`, `check`,
//! `record` and the other subcommands.

mod cli;
mod selfplay;

use std::process::ExitCode;

fn main() -> ExitCode {
    // The engine launcher first: tools re-run this very file with it, under whatever name the
    // file has (ShogiBench's worker keeps a copy named `shogitest-ob`), so the name must not
    // decide what the launcher's arguments mean.
    if std::env::args_os().nth(1).as_deref() == Some(saikoro_driver::guard::LAUNCH_ARG.as_ref()) {
        return saikoro_driver::guard::launch(std::env::args_os().skip(2).collect());
    }
    if cli::dialect::shogitest::named_shogitest(std::env::args_os().next()) {
        return report(cli::dialect::shogitest::main(
            std::env::args_os().skip(1).collect(),
        ));
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
            Some(mode) => (mode.main)(args.skip(1).collect()),
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
