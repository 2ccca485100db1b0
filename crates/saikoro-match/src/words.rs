//! The `key=value` words of the match's flags (`--engine`, `--each`, `--openings`, `--pgnout`)
//! as the system gives them: OS strings, which need not be UTF-8. A word is split at its first
//! `=`; the key must be text, a path value (`cmd=`, `dir=`, `file=`) is kept exactly as given
//! (bytes on Unix, UTF-16 on Windows), and any other value must be text.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::PathBuf;

/// A word that must be text and is not UTF-8: its key, or a value that is not a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotUtf8 {
    /// The word as it was given.
    pub word: OsString,
}

impl fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the word \"{}\" is not valid UTF-8", shown(&self.word))
    }
}

impl std::error::Error for NotUtf8 {}

/// `word` for a message: its text, each byte that is not part of UTF-8 written `\xFF`, so that
/// the word can be recognised (on Windows, the bytes are those of `OsStr::as_encoded_bytes`).
fn shown(word: &OsStr) -> String {
    use fmt::Write as _;
    let mut out = String::new();
    for chunk in word.as_encoded_bytes().utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    out
}

/// `word` as text, or the error that shows it.
pub fn text(word: &OsStr) -> Result<&str, NotUtf8> {
    word.to_str().ok_or_else(|| NotUtf8 {
        word: word.to_owned(),
    })
}

/// A `key=value` word, split at its first `=`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyValue {
    word: OsString,
    key: String,
    value: OsString,
}

impl KeyValue {
    /// `word` split at its first `=`: `Ok(None)` for a word without one; an error when the key
    /// (what comes before the `=`) is not UTF-8. The value is kept as given.
    pub fn split(word: &OsStr) -> Result<Option<KeyValue>, NotUtf8> {
        let Some((key, value)) = split_at_equals(word) else {
            return Ok(None);
        };
        let key = key.into_string().map_err(|_| NotUtf8 {
            word: word.to_owned(),
        })?;
        Ok(Some(KeyValue {
            word: word.to_owned(),
            key,
            value,
        }))
    }

    /// The key.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The value as text: a value that is not UTF-8 is refused.
    pub fn text(&self) -> Result<&str, NotUtf8> {
        self.value.to_str().ok_or_else(|| NotUtf8 {
            word: self.word.clone(),
        })
    }

    /// The value as a path, exactly as it was given.
    pub fn path(&self) -> PathBuf {
        PathBuf::from(&self.value)
    }

    /// The whole word, as it was given.
    pub fn word(&self) -> &OsStr {
        &self.word
    }
}

/// `word` cut at its first `=` into what comes before and after it, each as given: on Unix
/// by its bytes.
#[cfg(unix)]
fn split_at_equals(word: &OsStr) -> Option<(OsString, OsString)> {
    use std::os::unix::ffi::OsStrExt;
    let bytes = word.as_bytes();
    let i = bytes.iter().position(|&b| b == b'=')?;
    let (key, value) = (&bytes[..i], &bytes[i + 1..]);
    Some((
        OsStr::from_bytes(key).to_owned(),
        OsStr::from_bytes(value).to_owned(),
    ))
}

/// `word` cut at its first `=` into what comes before and after it, each as given: on Windows
/// by its UTF-16 units (an unpaired surrogate stays as it is).
#[cfg(windows)]
fn split_at_equals(word: &OsStr) -> Option<(OsString, OsString)> {
    use std::os::windows::ffi::{OsStrExt, OsStringExt};
    let wide: Vec<u16> = word.encode_wide().collect();
    let i = wide.iter().position(|&u| u == u16::from(b'='))?;
    let (key, value) = (&wide[..i], &wide[i + 1..]);
    Some((OsString::from_wide(key), OsString::from_wide(value)))
}

/// `word` cut at its first `=`: elsewhere only a word that is text can be cut (one that is
/// not is taken as a word without `=`).
#[cfg(not(any(unix, windows)))]
fn split_at_equals(word: &OsStr) -> Option<(OsString, OsString)> {
    let (key, value) = word.to_str()?.split_once('=')?;
    Some((key.into(), value.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_of_text() {
        let w = KeyValue::split(OsStr::new("option.Name=a=b"))
            .unwrap()
            .unwrap();
        assert_eq!(w.key(), "option.Name");
        assert_eq!(w.text(), Ok("a=b"));
        assert_eq!(w.path(), PathBuf::from("a=b"));
        assert_eq!(w.word(), "option.Name=a=b");
        let w = KeyValue::split(OsStr::new("dir=")).unwrap().unwrap();
        assert_eq!((w.key(), w.text()), ("dir", Ok("")));
        assert_eq!(KeyValue::split(OsStr::new("ponder")), Ok(None));
        assert_eq!(text(OsStr::new("x")), Ok("x"));
    }

    /// The bytes of `b` as an OS string (not UTF-8 when they are not).
    #[cfg(unix)]
    fn bytes(b: &[u8]) -> OsString {
        use std::os::unix::ffi::OsStrExt;
        OsStr::from_bytes(b).to_owned()
    }

    /// A value that is not UTF-8 is kept byte for byte, as a path; as text it is refused with
    /// the word shown, its odd bytes escaped.
    #[cfg(unix)]
    #[test]
    fn a_value_that_is_not_utf8() {
        let word = bytes(b"dir=en\xFFgine/\xC3");
        let w = KeyValue::split(&word).unwrap().unwrap();
        assert_eq!(w.key(), "dir");
        assert_eq!(w.path().into_os_string(), bytes(b"en\xFFgine/\xC3"));
        assert_eq!(w.word(), word);
        let e = w.text().unwrap_err();
        assert_eq!(e, NotUtf8 { word: word.clone() });
        assert_eq!(
            e.to_string(),
            r#"the word "dir=en\xFFgine/\xC3" is not valid UTF-8"#
        );
        // Text around the odd bytes is shown as text.
        let e = text(&bytes(&["名".as_bytes(), b"\xFF"].concat())).unwrap_err();
        assert_eq!(e.to_string(), "the word \"名\\xFF\" is not valid UTF-8");
    }

    /// A key must be text, whatever its value.
    #[cfg(unix)]
    #[test]
    fn a_key_that_is_not_utf8() {
        for word in [bytes(b"d\xFFr=x"), bytes(b"\xFF=\xFE")] {
            let e = KeyValue::split(&word).unwrap_err();
            assert_eq!(e, NotUtf8 { word });
        }
        // Without `=`, the word has no key: it is the caller's to say what it may be.
        assert_eq!(KeyValue::split(&bytes(b"\xFF")), Ok(None));
    }

    /// On Windows a name is UTF-16: an unpaired surrogate is not Unicode, and stays as it is.
    #[cfg(windows)]
    #[test]
    fn a_value_that_is_not_unicode() {
        use std::os::windows::ffi::{OsStrExt, OsStringExt};
        let wide = |s: &str, odd: bool| {
            let mut w: Vec<u16> = s.encode_utf16().collect();
            if odd {
                w.push(0xD800);
            }
            OsString::from_wide(&w)
        };
        let word = wide("file=a", true);
        let w = KeyValue::split(&word).unwrap().unwrap();
        assert_eq!(w.key(), "file");
        let units: Vec<u16> = w.path().as_os_str().encode_wide().collect();
        assert_eq!(units, [u16::from(b'a'), 0xD800]);
        assert!(w.text().is_err());
        assert!(KeyValue::split(&wide("k", true)).is_ok_and(|w| w.is_none()));
    }
}
