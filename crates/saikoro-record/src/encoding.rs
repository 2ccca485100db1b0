//! The bytes a record is written in. Kifu for Windows' convention, which ShogiHome follows when
//! it saves: a `.kif` or `.ki2` file is Shift_JIS, a `.kifu` or `.ki2u` file UTF-8; every
//! other form is UTF-8 (JKF is JSON, which is UTF-8). Reading takes either ([`crate::form::decode`]).
//!
//! Shift_JIS is encoded by encoding_rs (the WHATWG encoder that browsers use): JIS X 0208 with
//! the NEC and IBM extensions, what Windows programs call Shift_JIS. A character it cannot hold
//! (an emoji, a letter of another script) is refused with its line, or written as `?` when the
//! user chose so.

use std::fmt;
use std::path::Path;

/// A text encoding a record can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8, no byte order mark.
    Utf8,
    /// Shift_JIS.
    ShiftJis,
}

impl Encoding {
    /// The name the formats write it by: `UTF-8` (`#KIF version=2.0 encoding=UTF-8`), `Shift_JIS`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::ShiftJis => "Shift_JIS",
        }
    }

    /// The encoding a file of that name is written in: Shift_JIS for `.kif` and `.ki2`, UTF-8
    /// for any other (`.kifu`, `.ki2u`, `.csa`, `.jkf`, …).
    pub fn of_path(path: &Path) -> Encoding {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        match ext.to_ascii_lowercase().as_str() {
            "kif" | "ki2" => Encoding::ShiftJis,
            _ => Encoding::Utf8,
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What to do with a character the encoding cannot hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unmappable {
    /// Refuse the text ([`EncodeError`]).
    Refuse,
    /// Write `?` in its place.
    Question,
}

/// A character the encoding cannot hold, and the line (from 1) it is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    /// The line of the text, from 1.
    pub line: usize,
    /// The character.
    pub ch: char,
    /// The encoding.
    pub encoding: Encoding,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: {} cannot hold '{}' (U+{:04X})",
            self.line,
            self.encoding,
            self.ch,
            u32::from(self.ch)
        )
    }
}

impl std::error::Error for EncodeError {}

/// The text in bytes, and how many characters were written as `?`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoded {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// How many characters the encoding could not hold were written as `?`.
    pub replaced: usize,
    /// The line of the first of them.
    pub first_line: Option<usize>,
}

/// `text` in `encoding`; a character Shift_JIS cannot hold is refused or replaced as
/// `unmappable` says. UTF-8 is the text's own bytes.
pub fn encode(
    text: String,
    encoding: Encoding,
    unmappable: Unmappable,
) -> Result<Encoded, EncodeError> {
    use encoding_rs::EncoderResult;
    if encoding == Encoding::Utf8 {
        return Ok(Encoded {
            bytes: text.into_bytes(),
            replaced: 0,
            first_line: None,
        });
    }
    let mut out = Encoded {
        bytes: Vec::with_capacity(text.len()),
        replaced: 0,
        first_line: None,
    };
    let mut encoder = encoding_rs::SHIFT_JIS.new_encoder();
    let mut read = 0;
    let mut buf = [0u8; 4096];
    loop {
        let (result, n, written) =
            encoder.encode_from_utf8_without_replacement(&text[read..], &mut buf, true);
        out.bytes.extend_from_slice(&buf[..written]);
        read += n;
        match result {
            EncoderResult::InputEmpty => return Ok(out),
            EncoderResult::OutputFull => {}
            EncoderResult::Unmappable(ch) => {
                let line = text.as_bytes()[..read]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count()
                    + 1;
                if unmappable == Unmappable::Refuse {
                    return Err(EncodeError { line, ch, encoding });
                }
                out.bytes.push(b'?');
                out.replaced += 1;
                out.first_line.get_or_insert(line);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kanji, kana, the full-width space and ▲△ are Shift_JIS's (bytes from the JIS X 0208
    /// table: 歩 is 0x95E0, ▲ 0x81A3, the ideographic space 0x8140); an emoji is not.
    #[test]
    fn shift_jis_bytes_and_refusals() {
        let e = encode(
            "▲７六歩\u{3000}\n".into(),
            Encoding::ShiftJis,
            Unmappable::Refuse,
        )
        .unwrap();
        assert_eq!(e.bytes, b"\x81\xa3\x82\x56\x98\x5a\x95\xe0\x81\x40\n");
        let err = encode(
            "a\nb\n\u{1f600}c\n".into(),
            Encoding::ShiftJis,
            Unmappable::Refuse,
        );
        assert_eq!(
            err.unwrap_err().to_string(),
            "line 3: Shift_JIS cannot hold '\u{1f600}' (U+1F600)"
        );
        let e = encode(
            "a\n\u{1f600}\u{1f600}c\n".into(),
            Encoding::ShiftJis,
            Unmappable::Question,
        )
        .unwrap();
        assert_eq!((e.bytes.as_slice(), e.replaced), (&b"a\n??c\n"[..], 2));
        assert_eq!(e.first_line, Some(2));
    }

    #[test]
    fn the_extension_tells() {
        for (name, enc) in [
            ("a.kif", Encoding::ShiftJis),
            ("a.KI2", Encoding::ShiftJis),
            ("a.kifu", Encoding::Utf8),
            ("a.ki2u", Encoding::Utf8),
            ("a.csa", Encoding::Utf8),
            ("a", Encoding::Utf8),
        ] {
            assert_eq!(Encoding::of_path(Path::new(name)), enc, "{name}");
        }
    }
}
