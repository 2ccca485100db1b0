//! What the tools' front ends share, beyond the engine's: the guard of the engines they start,
//! their output directories, and arguments that must be text.

/// The arguments as text: an argument that is not UTF-8 is an error that shows it.
pub fn utf8_args(raw: Vec<std::ffi::OsString>) -> anyhow::Result<Vec<String>> {
    raw.into_iter()
        .map(|a| {
            a.into_string()
                .map_err(|a| anyhow::anyhow!("argument {a:?} is not valid UTF-8"))
        })
        .collect()
}

/// Makes the engines this tool starts die with it ([`saikoro_driver::guard`]): the parent-death
/// signal on Linux, and SIGTERM, SIGHUP and (without `on_interrupt`) Ctrl-C end them before
/// the tool exits.
pub fn guard_engines(
    tool: &'static str,
    on_interrupt: Option<Box<dyn Fn(saikoro_driver::guard::Signal) + Send>>,
) -> anyhow::Result<()> {
    saikoro_driver::guard::kill_engines_with_us();
    saikoro_driver::guard::handle_signals(tool, on_interrupt)
        .map_err(|e| anyhow::anyhow!("cannot install the signal handlers: {e}"))
}

/// Makes the `--record-dir` directory `dir` where its parent exists, by the rule of every
/// output (docs/files.md): a file of that name is "not a directory", a missing parent "no
/// such directory".
pub fn create_record_dir(dir: &std::path::Path) -> anyhow::Result<()> {
    use saikoro_outfile::{make_directory, Named};
    Ok(make_directory(Named::new("--record-dir", dir))?)
}
