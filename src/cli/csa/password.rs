//! Where `saikoro csa` finds the server's password, and what it checks of it: the first line of
//! `--password-file FILE` (`-`: stdin), the environment variable [`ENV`], or `--password` on
//! the command line, where every user of the machine can read it in the process list.
//!
//! The rules, as the tools people know have them: a flag goes before the environment (libpq's
//! `password` before `PGPASSWORD`, mysql's `--password` before `MYSQL_PWD`), so a variable set
//! in a shell's profile can be overridden for one run; the two flags exclude each other
//! (`docker login --password` and `--password-stdin`), since giving both is a mistake; a file
//! that other users can read is warned about, not refused (libpq and ssh look at the mode too,
//! but a Docker or Kubernetes secret is mounted readable by all, and a file in a private
//! directory is safe whatever its own mode).
//!
//! Messages name where the password came from, never the password.

use anyhow::{bail, Context};
use std::ffi::OsString;
use std::fmt;
use std::io::{BufRead, BufReader, IsTerminal};
use std::path::{Path, PathBuf};

/// The environment variable that holds the password when no flag gives one.
pub(super) const ENV: &str = "SAIKORO_CSA_PASSWORD";

/// The most of a password file's first line that is read. The protocol's passwords are at most
/// 32 characters; the limit only keeps a wrong file (`/dev/zero`) from being read without end.
const MAX_LINE: usize = 4096;

/// Where the password comes from. Neither form shows the password given with `--password`.
pub(super) enum Source {
    /// `--password PASS`, with the password (checked already).
    Flag(String),
    /// `--password-file FILE`; `-` is stdin.
    File(PathBuf),
    /// The environment variable [`ENV`].
    Env,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Flag(_) => f.write_str("--password"),
            Source::File(p) if is_stdin(p) => f.write_str("--password-file - (stdin)"),
            Source::File(p) => write!(f, "--password-file {}", p.display()),
            Source::Env => f.write_str(ENV),
        }
    }
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Source({self})")
    }
}

impl Source {
    /// The source the flags name: one of them, or the environment when neither is given and
    /// `env_set`. A usage error for both flags, or for no password at all.
    pub(super) fn from_flags(
        password: Option<String>,
        file: Option<PathBuf>,
        env_set: bool,
    ) -> anyhow::Result<Source> {
        match (password, file) {
            (Some(_), Some(_)) => bail!("--password and --password-file: give one of them"),
            (Some(p), None) => {
                check(&p, "--password")?;
                Ok(Source::Flag(p))
            }
            (None, Some(f)) => Ok(Source::File(f)),
            (None, None) if env_set => Ok(Source::Env),
            (None, None) => bail!(
                "no password: give --password-file FILE or the environment variable {ENV} \
                 (or --password PASS, which every user of the machine can see)"
            ),
        }
    }

    /// The password: the flag's, the file's first line, or `env` (the value of [`ENV`]).
    pub(super) fn read(&self, env: Option<&OsString>) -> anyhow::Result<String> {
        let text = match self {
            Source::Flag(p) => return Ok(p.clone()),
            Source::File(path) => {
                let (text, mode) = read_file(path)?;
                check(&text, &self.to_string())?;
                warn_if_open(path, mode);
                return Ok(text);
            }
            Source::Env => env
                .cloned()
                .unwrap_or_default()
                .into_string()
                .map_err(|_| anyhow::anyhow!("the password in {ENV} is not UTF-8 text"))?,
        };
        check(&text, &self.to_string())?;
        Ok(text)
    }
}

/// The value of [`ENV`], taken out of our environment, so that the engine (and whatever it
/// starts) never inherits it. Called before any thread starts.
pub(super) fn take_env() -> Option<OsString> {
    let value = std::env::var_os(ENV);
    if value.is_some() {
        std::env::remove_var(ENV);
    }
    value
}

/// Whether the password can go on the protocol's `LOGIN name password` line: not empty, and
/// no space or other invisible character in it. `from` names where it came from.
fn check(password: &str, from: &str) -> anyhow::Result<()> {
    if password.is_empty() {
        bail!("the password from {from} is empty");
    }
    if password
        .chars()
        .any(|c| c.is_whitespace() || c.is_control())
    {
        bail!(
            "the password from {from} has a space, a tab or another invisible character in \
             it, which the CSA LOGIN line cannot carry"
        );
    }
    Ok(())
}

fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The first line of `path` (stdin for `-`) without its line end (`\n` or `\r\n`) and
/// without a UTF-8 byte-order mark (Windows Notepad may write one); and the file's mode when it
/// lets other users in ([`open_mode`]).
fn read_file(path: &Path) -> anyhow::Result<(String, Option<u32>)> {
    let named = Source::File(path.to_path_buf());
    let mut mode = None;
    let line = if is_stdin(path) {
        let stdin = std::io::stdin();
        if stdin.is_terminal() {
            bail!("{named}: stdin is a terminal; give the password through a pipe or a file");
        }
        first_line(stdin.lock())
    } else {
        let file = std::fs::File::open(path).with_context(|| format!("cannot read {named}"))?;
        mode = open_mode(&file);
        first_line(BufReader::new(file))
    }
    .with_context(|| format!("cannot read {named}"))?;
    let Some(mut line) = line else {
        bail!("{named} is empty: the password goes on its first line");
    };
    if line.len() > MAX_LINE && line.last() != Some(&b'\n') {
        bail!("{named}: its first line is longer than {MAX_LINE} bytes; is it the password file?");
    }
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    if line.starts_with("\u{feff}".as_bytes()) {
        line.drain(..3);
    }
    if line.is_empty() {
        bail!("{named}: its first line is empty; the password goes there");
    }
    let text = String::from_utf8(line)
        .map_err(|_| anyhow::anyhow!("the password in {named} is not UTF-8 text"))?;
    Ok((text, mode))
}

/// The first line of `r` with its line end, at most `MAX_LINE + 1` bytes of it; `None` when
/// `r` holds nothing.
fn first_line(r: impl BufRead) -> std::io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    r.take(MAX_LINE as u64 + 1).read_until(b'\n', &mut line)?;
    Ok((!line.is_empty()).then_some(line))
}

/// The permission bits of a regular file that users other than its owner may read or change
/// (ssh and libpq look at the mode of theirs); `None` for one that is its owner's alone, a
/// pipe (`<(pass show floodgate)`), and on systems without such modes.
#[cfg(unix)]
fn open_mode(file: &std::fs::File) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    let meta = file.metadata().ok()?;
    let mode = meta.permissions().mode() & 0o777;
    (meta.is_file() && mode & 0o077 != 0).then_some(mode)
}

#[cfg(not(unix))]
fn open_mode(_: &std::fs::File) -> Option<u32> {
    None
}

/// Warns on stderr about a password file of `mode` open to other users (see [`open_mode`]).
/// A warning only, not a refusal: see the module's docs.
fn warn_if_open(path: &Path, mode: Option<u32>) {
    let Some(mode) = mode else { return };
    let can = if mode & 0o044 != 0 { "read" } else { "change" };
    eprintln!(
        "saikoro: warning: other users can {can} --password-file {} (mode {mode:04o}); \
         `chmod 600 {}` makes it yours alone",
        path.display(),
        path.display()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, content: &[u8]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("saikoro-password-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        path
    }

    fn from_file(content: &[u8]) -> anyhow::Result<String> {
        static FILES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = FILES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Source::File(file(&format!("pw{n}"), content)).read(None)
    }

    #[test]
    fn the_first_line_without_its_end() {
        for content in [
            &b"game-60-10,trip"[..],
            b"game-60-10,trip\n",
            b"game-60-10,trip\r\n",
            b"game-60-10,trip\nsecond line\n",
            b"\xef\xbb\xbfgame-60-10,trip\r\n",
        ] {
            assert_eq!(
                from_file(content).unwrap(),
                "game-60-10,trip",
                "{content:?}"
            );
        }
    }

    #[test]
    fn what_a_file_cannot_hold() {
        for (content, says) in [
            (&b""[..], "is empty: the password goes on its first line"),
            (b"\n", "its first line is empty"),
            (b"\r\nsecret\n", "its first line is empty"),
            (b"a b\n", "has a space"),
            (b"trip \n", "has a space"),
            (b"\xff\xfe\n", "is not UTF-8 text"),
        ] {
            let e = format!("{:#}", from_file(content).unwrap_err());
            assert!(e.contains(says), "{content:?}: {e}");
        }
        let long = vec![b'x'; MAX_LINE + 10];
        let e = format!("{:#}", from_file(&long).unwrap_err());
        assert!(e.contains("longer than 4096 bytes"), "{e}");
    }

    #[test]
    fn a_missing_file_is_named() {
        let e = Source::File("/nonexistent/pw".into())
            .read(None)
            .unwrap_err();
        let e = format!("{e:#}");
        assert!(
            e.starts_with("cannot read --password-file /nonexistent/pw: "),
            "{e}"
        );
    }

    #[test]
    fn a_flag_goes_before_the_environment_and_the_flags_exclude_each_other() {
        let s = Source::from_flags(Some("pw".into()), None, true).unwrap();
        assert!(matches!(s, Source::Flag(ref p) if p == "pw"));
        let s = Source::from_flags(None, Some("f".into()), true).unwrap();
        assert!(matches!(s, Source::File(_)));
        let s = Source::from_flags(None, None, true).unwrap();
        assert!(matches!(s, Source::Env));
        let e = Source::from_flags(Some("pw".into()), Some("f".into()), false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--password and --password-file: give one of them"
        );
        let e = Source::from_flags(None, None, false).unwrap_err();
        assert!(e.to_string().starts_with("no password: "), "{e}");
    }

    #[test]
    fn the_environment_is_checked_as_a_file_is() {
        let read = |v: &str| Source::Env.read(Some(&OsString::from(v)));
        assert_eq!(read("game,trip").unwrap(), "game,trip");
        let e = read("").unwrap_err().to_string();
        assert_eq!(e, "the password from SAIKORO_CSA_PASSWORD is empty");
        assert!(read("a\tb").is_err());
    }

    /// No message shows the password: a flag's is named `--password`.
    #[test]
    fn messages_name_the_source_not_the_password() {
        let e = Source::from_flags(Some("sec ret".into()), None, false).unwrap_err();
        assert!(!e.to_string().contains("sec"), "{e}");
        assert_eq!(
            format!("{:?}", Source::Flag("secret".into())),
            "Source(--password)"
        );
    }
}
