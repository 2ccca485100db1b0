//! Writes that never leave half a file: a whole file written aside and renamed over the old
//! one, and lines appended with one write each, cut back when a write fails. The results,
//! records, PGN and state files all go through these.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` whole or not at all: into a file beside it, then renamed over it.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_aside(path, ".part", |f| {
        f.write_all(bytes)?;
        f.sync_data()
    })
}

/// Writes `path` whole or not at all: `write` fills the file named `path` and `suffix`,
/// which is then renamed over `path` (or removed, when anything failed).
pub fn write_aside(
    path: &Path,
    suffix: &str,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<()> {
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
            std::env::temp_dir().join(format!("saikoro-atomic-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
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
