//! The one rule for the files a mode writes (docs/files.md), so that no mode loses a file
//! another mode — or the same command — still needs:
//!
//! - never onto a file the same command reads (its results, openings, state, records);
//! - an existing file is replaced only with the mode's explicit flag (`--force`,
//!   `--overwrite`), or when it is the mode's own kind of output and holds nothing of another
//!   run's (a match's page over the same match's page, or over a page of no game);
//! - the directory a file goes into must exist, with one message everywhere;
//! - written aside and renamed, so a file is whole or not there.

#![warn(missing_docs)]

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A file a command names, with the flag (or the word) that names it: `-o`, `--report`,
/// `RESULTS`.
#[derive(Debug, Clone, Copy)]
pub struct Named<'a> {
    /// The flag or argument that names it, as the mode's help says it.
    pub flag: &'a str,
    /// The path as given.
    pub path: &'a Path,
}

impl<'a> Named<'a> {
    /// `path` as named by `flag`.
    pub fn new(flag: &'a str, path: &'a Path) -> Named<'a> {
        Named { flag, path }
    }
}

/// What may be replaced at an output's path, when a file is there already.
#[derive(Debug, Clone, Copy)]
pub struct Replace<'a> {
    /// The mode's flag that allows replacing any file (`--force`, `--overwrite`); empty where
    /// none can (a resumed match).
    pub flag: &'static str,
    /// Whether that flag was given.
    pub given: bool,
    /// What the flag does, for the message: "to replace it", "to start anew".
    pub does: &'static str,
    /// The mode's own kind of output (what it is, and how it is read): a file of this kind is
    /// replaced without the flag when it holds nothing, or when it is `owner`'s.
    pub own: Option<Own>,
    /// The run writing now, as files of the kind name it (a match's id): its own earlier
    /// output is replaced. `None`: a run that names none (one from before runs were named),
    /// whose files are those that name none.
    pub owner: Option<&'a str>,
    /// How to go on with the run that wrote a held file, when the mode has a way: "to go on
    /// with that match use --resume".
    pub go_on: Option<&'static str>,
}

impl Replace<'static> {
    /// Only with `flag` (`--force`), which replaces any file: no kind of the mode's own.
    pub const fn with_flag(flag: &'static str, given: bool) -> Replace<'static> {
        Replace {
            flag,
            given,
            does: "to replace it",
            own: None,
            owner: None,
            go_on: None,
        }
    }
}

/// A kind of output that the mode writes, told from other files by [`Own::read`].
#[derive(Debug, Clone, Copy)]
pub struct Own {
    /// What it is, for messages: "a report page".
    pub kind: &'static str,
    /// Reads an existing file: `Ok(None)` when it is not of this kind, else what it holds.
    pub read: fn(&Path) -> io::Result<Option<Held>>,
}

/// What an existing file of the mode's own kind holds, and whose it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    /// The run that wrote it (a match's id), when the file names one.
    pub owner: Option<String>,
    /// Whether it holds nothing that would be lost (no game): then it is replaced.
    pub empty: bool,
    /// What it holds, for the message: "the page of another match (a vs b, 12 games)".
    pub what: String,
}

/// How many bytes of an existing file a kind's reader looks at when the start is enough
/// ([`head`]).
pub const SNIFF: usize = 64 * 1024;

/// Why an output was refused.
#[derive(Debug)]
pub enum OutputError {
    /// The output is a file the same command reads.
    IsInput {
        /// The output's flag.
        flag: String,
        /// The path.
        path: PathBuf,
        /// The flag or argument that names it as an input.
        input: String,
    },
    /// A file of the mode's own kind is there, and it holds another run's output.
    Held(Box<HeldOutput>),
    /// A file is there, and it may not be replaced without the flag.
    Exists {
        /// The output's flag.
        flag: String,
        /// The path.
        path: PathBuf,
        /// The flag that replaces it.
        force: &'static str,
        /// The kind the mode would have replaced on its own, when it has one.
        own: Option<&'static str>,
    },
    /// The directory the file goes into does not exist, or is not a directory.
    NoDirectory {
        /// The output's flag.
        flag: String,
        /// The path.
        path: PathBuf,
        /// The directory.
        dir: PathBuf,
        /// Whether something that is not a directory is there.
        not_a_directory: bool,
    },
    /// Two outputs of one command are one file.
    Twice {
        /// The first, with its flag.
        first: String,
        /// The second, with its flag.
        second: String,
    },
    /// The output's path is a directory.
    IsDirectory {
        /// The output's flag.
        flag: String,
        /// The path.
        path: PathBuf,
    },
    /// The existing file could not be looked at.
    Io {
        /// The path.
        path: PathBuf,
        /// What failed.
        error: io::Error,
    },
}

/// An output that holds another run's output ([`OutputError::Held`]).
#[derive(Debug)]
pub struct HeldOutput {
    /// The output's flag.
    pub flag: String,
    /// The path.
    pub path: PathBuf,
    /// What it holds.
    pub what: String,
    /// Whether the output is a directory.
    pub directory: bool,
    /// The flag that replaces it, and what it does (none: no flag can).
    pub force: (&'static str, &'static str),
    /// How to go on with the run that wrote it.
    pub go_on: Option<&'static str>,
}

impl fmt::Display for HeldOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (force, does) = self.force;
        write!(
            f,
            "{} {} already holds {}; ",
            self.flag,
            self.path.display(),
            self.what
        )?;
        let file = if self.directory { "directory" } else { "file" };
        match (self.go_on, force.is_empty()) {
            (Some(go_on), true) => f.write_str(go_on),
            (None, true) => write!(f, "give another {file}"),
            (go_on, false) => {
                if let Some(go_on) = go_on {
                    write!(f, "{go_on}, ")?;
                }
                write!(f, "to keep it give another {file}, or {force} {does}")
            }
        }
    }
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::IsInput { flag, path, input } => write!(
                f,
                "{flag} {}: the same file as {input}, which this command reads; give \
                 another file",
                path.display()
            ),
            OutputError::Held(held) => held.fmt(f),
            OutputError::Exists {
                flag,
                path,
                force,
                own,
            } => {
                write!(f, "{flag} {}: the file exists", path.display())?;
                if let Some(kind) = own {
                    write!(f, " and is not {kind}")?;
                }
                write!(f, "; give another file, or {force} to replace it")
            }
            OutputError::NoDirectory {
                flag,
                path,
                dir,
                not_a_directory,
            } => write!(
                f,
                "{flag} {}: {}: {}",
                path.display(),
                if *not_a_directory {
                    "not a directory"
                } else {
                    "no such directory"
                },
                dir.display()
            ),
            OutputError::Twice { first, second } => write!(
                f,
                "{first} and {second} are one file: each would write over the other; give \
                 each its own"
            ),
            OutputError::IsDirectory { flag, path } => {
                write!(f, "{flag} {}: is a directory", path.display())
            }
            OutputError::Io { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for OutputError {}

/// Whether `a` and `b` name one file: the same file on disk (through links, `./`, another
/// spelling), or, where neither exists yet, the same path once made absolute.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        (Err(_), Err(_)) => absolute(a) == absolute(b),
        _ => false,
    }
}

/// `p` made absolute against the working directory, its `.` parts dropped.
fn absolute(p: &Path) -> PathBuf {
    let joined = match std::env::current_dir() {
        Ok(cwd) if p.is_relative() => cwd.join(p),
        _ => p.to_path_buf(),
    };
    joined
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect()
}

/// Refuses an output whose directory is missing (or is a file): one message for every mode.
pub fn check_directory(out: Named<'_>) -> Result<(), OutputError> {
    let Some(dir) = out.path.parent().filter(|d| !d.as_os_str().is_empty()) else {
        return Ok(());
    };
    if dir.is_dir() {
        return Ok(());
    }
    Err(OutputError::NoDirectory {
        flag: out.flag.to_string(),
        path: out.path.to_path_buf(),
        dir: dir.to_path_buf(),
        not_a_directory: dir.exists(),
    })
}

/// Refuses `out` when it is one of the files the same command reads.
pub fn check_not_input(out: Named<'_>, inputs: &[Named<'_>]) -> Result<(), OutputError> {
    match inputs.iter().find(|i| same_file(out.path, i.path)) {
        Some(input) => Err(OutputError::IsInput {
            flag: out.flag.to_string(),
            path: out.path.to_path_buf(),
            input: format!("{} {}", input.flag, input.path.display())
                .trim_end()
                .to_string(),
        }),
        None => Ok(()),
    }
}

/// Refuses an existing file at `out` unless `replace` allows it: with the flag; or a file of
/// the mode's own kind that holds nothing, or is the writing run's own.
pub fn check_existing(out: Named<'_>, replace: Replace<'_>) -> Result<(), OutputError> {
    let io_error = |error| OutputError::Io {
        path: out.path.to_path_buf(),
        error,
    };
    let meta = match std::fs::metadata(out.path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_error(e)),
    };
    if meta.is_dir() {
        return Err(OutputError::IsDirectory {
            flag: out.flag.to_string(),
            path: out.path.to_path_buf(),
        });
    }
    // An empty file, a device or a pipe (`/dev/null`) holds nothing to lose.
    if replace.given || (meta.is_file() && meta.len() == 0) || !meta.is_file() {
        return Ok(());
    }
    if let Some(own) = replace.own {
        if let Some(held) = (own.read)(out.path).map_err(io_error)? {
            return check_held(out, held, false, replace);
        }
    }
    Err(OutputError::Exists {
        flag: out.flag.to_string(),
        path: out.path.to_path_buf(),
        force: replace.flag,
        own: replace.own.map(|o| o.kind),
    })
}

/// Refuses an output of the mode's own kind (a file or a directory) that holds another run's
/// output (`held`), unless `replace`'s flag was given: one that holds nothing, or is the
/// writing run's own, may be written over.
pub fn check_held(
    out: Named<'_>,
    held: Held,
    directory: bool,
    replace: Replace<'_>,
) -> Result<(), OutputError> {
    if replace.given || held.empty || held.owner.as_deref() == replace.owner {
        return Ok(());
    }
    Err(OutputError::Held(Box::new(HeldOutput {
        flag: out.flag.to_string(),
        path: out.path.to_path_buf(),
        what: held.what,
        directory,
        force: (replace.flag, replace.does),
        go_on: replace.go_on,
    })))
}

/// The whole rule for one output file that is written whole: its directory, not an input,
/// and an existing file only as `replace` allows.
pub fn check(
    out: Named<'_>,
    inputs: &[Named<'_>],
    replace: Replace<'_>,
) -> Result<(), OutputError> {
    check_directory(out)?;
    check_not_input(out, inputs)?;
    check_existing(out, replace)
}

/// Refuses two outputs of one command that are one file (`--results r --report r`): each
/// would write over the other's.
pub fn check_distinct(outputs: &[Named<'_>]) -> Result<(), OutputError> {
    for (i, a) in outputs.iter().enumerate() {
        if let Some(b) = outputs[i + 1..].iter().find(|b| same_file(a.path, b.path)) {
            return Err(OutputError::Twice {
                first: format!("{} {}", a.flag, a.path.display()),
                second: format!("{} {}", b.flag, b.path.display()),
            });
        }
    }
    Ok(())
}

/// Refuses an output directory (the match's `--records`, `csa --record-dir`) that names a
/// file, or whose parent is missing: a directory is made only where its parent exists, so a
/// mistyped parent does not scatter files elsewhere. Checks only; [`make_directory`] makes it.
pub fn check_output_directory(out: Named<'_>) -> Result<(), OutputError> {
    if out.path.is_dir() {
        return Ok(());
    }
    if out.path.exists() {
        return Err(OutputError::NoDirectory {
            flag: out.flag.to_string(),
            path: out.path.to_path_buf(),
            dir: out.path.to_path_buf(),
            not_a_directory: true,
        });
    }
    check_directory(out)
}

/// Makes the output directory `out` if it is missing, by [`check_output_directory`]'s rule.
pub fn make_directory(out: Named<'_>) -> Result<(), OutputError> {
    check_output_directory(out)?;
    match std::fs::create_dir(out.path) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => Err(OutputError::Io {
            path: out.path.to_path_buf(),
            error: e,
        }),
        _ => Ok(()),
    }
}

/// The first [`SNIFF`] bytes of the file at `path`.
pub fn head(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(SNIFF as u64)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Writes `bytes` to `path` whole or not at all: into a file beside it, then renamed over it.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_aside(path, ".part", |f| {
        f.write_all(bytes)?;
        // A device or a pipe, written into, has no data to sync (and refuses it).
        match f.metadata()?.is_file() {
            true => f.sync_data(),
            false => Ok(()),
        }
    })
}

/// Writes `path` whole or not at all: `write` fills the file named `path` and `suffix`,
/// which is then renamed over `path` (or removed, when anything failed). Where `path` is no
/// regular file but a device or a pipe (`/dev/null`, `/dev/stdout`, a FIFO), `write` writes
/// into it: a file beside it renamed over it would replace the device with a file.
pub fn write_aside(
    path: &Path,
    suffix: &str,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    if is_special(path) {
        let mut f = OpenOptions::new().write(true).open(path)?;
        write(&mut f)?;
        return f.flush();
    }
    let mut aside = path.as_os_str().to_owned();
    aside.push(suffix);
    let aside = PathBuf::from(aside);
    let written = File::create(&aside).and_then(|mut f| write(&mut f));
    match written.and_then(|_| std::fs::rename(&aside, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&aside);
            Err(e)
        }
    }
}

/// Whether `path` names something that is neither a regular file nor a directory: a device, a
/// pipe or a socket, which holds nothing a write could lose.
fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// A file that lines are appended to, each with one write; a write that fails (a full disk)
/// is cut off again, so the file ends with its last whole line.
#[derive(Debug)]
pub struct AppendFile {
    file: File,
    path: PathBuf,
    /// The length after the last whole line.
    len: u64,
}

impl AppendFile {
    /// Opens `path` to append to it, creating it if need be.
    pub fn open(path: &Path) -> io::Result<AppendFile> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        let len = file.metadata()?.len();
        Ok(AppendFile {
            file,
            path: path.to_path_buf(),
            len,
        })
    }

    /// The file's name.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `line` and a newline.
    pub fn line(&mut self, line: &str) -> io::Result<()> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.whole(&bytes)
    }

    /// Appends `bytes` (whole lines) with one write, or cuts the file back to where it was.
    pub fn whole(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self.file.write_all(bytes).and_then(|_| self.file.flush()) {
            Ok(()) => {
                self.len += bytes.len() as u64;
                Ok(())
            }
            Err(e) => {
                let _ = self.file.set_len(self.len);
                Err(e)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("saikoro-outfile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    const FORCE: Replace<'static> = Replace::with_flag("--force", false);

    /// A test kind: `<!DOCTYPE html>`, then a line `OWNER GAMES` (`-` for no owner).
    fn page(path: &Path) -> io::Result<Option<Held>> {
        let text = String::from_utf8_lossy(&head(path)?).into_owned();
        let Some(rest) = text.strip_prefix("<!DOCTYPE html>\n") else {
            return Ok(None);
        };
        let mut words = rest.split_whitespace();
        let owner = words.next().filter(|w| *w != "-").map(String::from);
        let games: usize = words.next().and_then(|g| g.parse().ok()).unwrap_or(1);
        Ok(Some(Held {
            owner,
            empty: games == 0,
            what: format!("the page of {games} games"),
        }))
    }

    #[test]
    fn an_input_is_never_an_output() {
        let dir = scratch("input");
        let results = dir.join("r.jsonl");
        std::fs::write(&results, "{}\n").unwrap();
        // Another spelling of the same file, and the same file through a link.
        let spelled = dir.join(".").join("r.jsonl");
        let input = [Named::new("RESULTS", &results)];
        let forced = Replace {
            given: true,
            ..FORCE
        };
        let e = check(Named::new("-o", &spelled), &input, forced).unwrap_err();
        assert!(matches!(e, OutputError::IsInput { .. }), "{e}");
        assert!(e.to_string().contains("which this command reads"), "{e}");
        #[cfg(unix)]
        {
            let link = dir.join("link");
            std::os::unix::fs::symlink(&results, &link).unwrap();
            assert!(check(Named::new("-o", &link), &input, forced).is_err());
        }
        assert!(check(Named::new("-o", &dir.join("r.html")), &input, FORCE).is_ok());
        // Two outputs that do not exist yet, spelled apart.
        assert!(same_file(&dir.join("new"), &dir.join(".").join("new")));
        assert!(!same_file(&dir.join("new"), &dir.join("other")));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_existing_file_is_replaced_with_the_flag_or_when_it_is_the_modes_own() {
        let dir = scratch("existing");
        let (html, text) = (dir.join("a.html"), dir.join("a.txt"));
        std::fs::write(&html, "<!DOCTYPE html>\nabc 0\n").unwrap();
        std::fs::write(&text, "keep me").unwrap();
        let own = Replace {
            own: Some(Own {
                kind: "a report page",
                read: page,
            }),
            owner: Some("abc"),
            ..FORCE
        };
        // A page of no game, whoever's: replaced.
        assert!(check_existing(Named::new("-o", &html), own).is_ok());
        let e = check_existing(Named::new("-o", &text), own).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "-o {}: the file exists and is not a report page; give another file, or \
                 --force to replace it",
                text.display()
            )
        );
        assert!(check_existing(Named::new("-o", &html), FORCE).is_err());
        let forced = Replace {
            given: true,
            ..FORCE
        };
        assert!(check_existing(Named::new("-o", &text), forced).is_ok());
        assert!(matches!(
            check_existing(Named::new("-o", &dir), forced),
            Err(OutputError::IsDirectory { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A file of the mode's kind that holds another run's output is replaced only with the
    /// flag; the run's own, and one that names no run when the writing run names none, are.
    #[test]
    fn a_file_of_another_run_is_refused() {
        let dir = scratch("held");
        let html = dir.join("a.html");
        let own = |owner| Replace {
            does: "to start anew",
            own: Some(Own {
                kind: "a report page",
                read: page,
            }),
            owner,
            go_on: Some("to go on with that match use --resume"),
            ..Replace::with_flag("--overwrite", false)
        };
        std::fs::write(&html, "<!DOCTYPE html>\nabc 12\n").unwrap();
        let out = Named::new("--report", &html);
        assert!(check_existing(out, own(Some("abc"))).is_ok());
        let e = check_existing(out, own(Some("def"))).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "--report {} already holds the page of 12 games; to go on with that match \
                 use --resume, to keep it give another file, or --overwrite to start anew",
                html.display()
            )
        );
        assert!(check_existing(out, own(None)).is_err());
        let forced = Replace {
            given: true,
            ..own(Some("def"))
        };
        assert!(check_existing(out, forced).is_ok());
        // A page that names no run: another run's for a run that has a name, the run's own
        // for one that has none.
        std::fs::write(&html, "<!DOCTYPE html>\n- 12\n").unwrap();
        assert!(check_existing(out, own(Some("abc"))).is_err());
        assert!(check_existing(out, own(None)).is_ok());
        // A directory of another run's files.
        let held = Held {
            owner: None,
            empty: false,
            what: "2 game records".into(),
        };
        let e = check_held(Named::new("--records", &dir), held, true, own(Some("abc")));
        assert!(e
            .unwrap_err()
            .to_string()
            .contains("to keep it give another directory, or --overwrite"),);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_output_directory_is_made_only_under_an_existing_parent() {
        let dir = scratch("outdir");
        let records = dir.join("records");
        make_directory(Named::new("--records", &records)).unwrap();
        assert!(records.is_dir());
        make_directory(Named::new("--records", &records)).unwrap();
        let deep = dir.join("a/b/records");
        let e = make_directory(Named::new("--records", &deep)).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "--records {}: no such directory: {}",
                deep.display(),
                dir.join("a/b").display()
            )
        );
        assert!(!dir.join("a").exists());
        std::fs::write(dir.join("file"), "x").unwrap();
        let e = make_directory(Named::new("--record-dir", &dir.join("file"))).unwrap_err();
        assert!(e.to_string().contains("not a directory"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn two_outputs_may_not_be_one_file() {
        let (r, s) = (Path::new("r.jsonl"), Path::new("./r.jsonl"));
        let e = check_distinct(&[
            Named::new("--results", r),
            Named::new("--state", Path::new("st")),
            Named::new("--report", s),
        ])
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "--results r.jsonl and --report ./r.jsonl are one file: each would write over \
             the other; give each its own"
        );
        assert!(check_distinct(&[Named::new("a", r), Named::new("b", Path::new("q"))]).is_ok());
    }

    #[test]
    fn a_missing_directory_is_named() {
        let dir = scratch("dir");
        let missing = dir.join("no/such/file");
        let e = check_directory(Named::new("--report", &missing)).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "--report {}: no such directory: {}",
                missing.display(),
                dir.join("no/such").display()
            )
        );
        std::fs::write(dir.join("f"), "").unwrap();
        let under_file = dir.join("f/x");
        let e = check_directory(Named::new("-o", &under_file)).unwrap_err();
        assert!(e.to_string().contains("not a directory"), "{e}");
        assert!(check_directory(Named::new("-o", Path::new("here"))).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn whole_file_replaced_or_left() {
        let dir = scratch("atomic");
        let path = dir.join("a");
        write_atomically(&path, b"one\n").unwrap();
        write_atomically(&path, b"two\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two\n");
        // Into a directory that does not exist: an error, and nothing left behind.
        assert!(write_atomically(&dir.join("no/such"), b"x").is_err());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A pipe (as `/dev/null` or `/dev/stdout` are devices) is written into, not replaced by a
    /// file renamed over it; and it holds nothing that a write without the flag could lose.
    #[cfg(unix)]
    #[test]
    fn a_pipe_is_written_into_not_replaced() {
        use std::io::Read;
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("fifo");
        let fifo = dir.join("out");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("no mkfifo: skipped");
            return;
        }
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut text = String::new();
                File::open(&fifo)
                    .unwrap()
                    .read_to_string(&mut text)
                    .unwrap();
                text
            })
        };
        check_existing(Named::new("-o", &fifo), FORCE).unwrap();
        write_atomically(&fifo, b"through the pipe\n").unwrap();
        assert_eq!(reader.join().unwrap(), "through the pipe\n");
        let meta = std::fs::metadata(&fifo).unwrap();
        assert!(meta.file_type().is_fifo(), "replaced by a file");
        assert!(!dir.join("out.part").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn lines_appended_whole() {
        let dir = scratch("append");
        let path = dir.join("r");
        std::fs::write(&path, "{\"game\":1}\n").unwrap();
        let mut f = AppendFile::open(&path).unwrap();
        f.line("{\"game\":2}").unwrap();
        drop(f);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"game\":1}\n{\"game\":2}\n"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
