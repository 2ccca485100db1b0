//! The forms told apart and dispatched to: [`detect`] (by the file name's extension, then by
//! the content), [`decode`] (UTF-8 with or without a BOM, else Shift_JIS), [`read`],
//! [`write()`] and [`write_in`] for any [`Format`], and what each form keeps of a record
//! ([`Format::keeps`], [`left_out`]).

use crate::encoding::Encoding;
use crate::japanese::{summary_of_ending, word_of_ending};
pub use crate::keeps::{left_out, Keeps, LeftOut, Precision, Reach};
use crate::{csa, jkf, ki2, kif, usi, Ending, Format, Record, RecordError};
use saikoro_core::Color;
use std::path::Path;

/// The form of a record: the extension of `name` when it names one (`.kif`, `.kifu`, `.ki2`,
/// `.ki2u`, `.csa`, `.jkf`, `.json`, `.usi`, `.sfen`), else what the text looks like
/// ([`sniff`]).
pub fn detect(name: Option<&Path>, text: &str) -> Option<Format> {
    name.and_then(Format::from_extension)
        .or_else(|| sniff(text))
}

/// Whether `line` is a CSA move (`+7776FU`).
fn is_csa_move(line: &str) -> bool {
    let b = line.as_bytes();
    b.len() >= 7
        && matches!(b[0], b'+' | b'-')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5..7].iter().all(u8::is_ascii_uppercase)
}

/// Whether `line` is a KIF move line (`   1 ７六歩(77)`, `  12 同　銀(31)`).
fn is_kif_move(line: &str) -> bool {
    let t = line.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0
        && t[digits..].starts_with(' ')
        && t[digits..]
            .trim_start()
            .starts_with(|c: char| ('１'..='９').contains(&c) || c == '同' || !c.is_ascii())
}

/// The form a text looks like, from its first lines that tell: `{` (JKF); a KIF moves heading
/// (`手数----`) or move line; a KI2 move (`▲７六歩`); a CSA line (`'CSA encoding=`, `V2.2`,
/// `PI`, `P1`, `N+`, `$EVENT:`, `+7776FU`); a USI `position`, `startpos` or `sfen` line; a
/// bare SFEN. `None` when nothing tells.
pub fn sniff(text: &str) -> Option<Format> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim_start().starts_with('{') {
        return Some(Format::Jkf);
    }
    let mut japanese_header = false;
    for line in text.lines().take(400) {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') && !t.starts_with("#KIF") {
            continue;
        }
        if t.starts_with("手数----") || is_kif_move(line) || t.starts_with("#KIF") {
            return Some(Format::Kif);
        }
        if t.starts_with(['▲', '△', '☗', '☖']) {
            return Some(Format::Ki2);
        }
        if t.starts_with("'CSA")
            || t.starts_with("V2")
            || t.starts_with("V3")
            || t.starts_with("PI")
            || (t.starts_with('P') && t.len() > 1 && b"123456789+-".contains(&t.as_bytes()[1]))
            || t.starts_with("N+")
            || t.starts_with("N-")
            || t.starts_with('$')
            || is_csa_move(t)
        {
            return Some(Format::Csa);
        }
        if t.starts_with("position ") || t.starts_with("startpos") || t.starts_with("sfen ") {
            return Some(Format::Usi);
        }
        if t.contains('：') {
            japanese_header = true;
            continue;
        }
        if !japanese_header && saikoro_core::Position::from_sfen_lenient(t).is_ok() {
            return Some(Format::Sfen);
        }
    }
    japanese_header.then_some(Format::Kif)
}

/// The 1-based line of byte `at`.
fn line_at(bytes: &[u8], at: usize) -> usize {
    bytes[..at.min(bytes.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The text of a record file: UTF-8 (a BOM is dropped) when it is valid UTF-8, else Shift_JIS
/// (what Windows programs write in `.kif` and older `.csa` files); bytes that are neither are
/// an error at the line of the first byte that Shift_JIS cannot read either (not of the first
/// that is not UTF-8, which in a Shift_JIS file is its first Japanese character).
pub fn decode(bytes: &[u8]) -> Result<String, RecordError> {
    use encoding_rs::DecoderResult;
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    if let Ok(t) = std::str::from_utf8(bytes) {
        return Ok(t.to_string());
    }
    let mut decoder = encoding_rs::SHIFT_JIS.new_decoder_without_bom_handling();
    let mut text = String::with_capacity(bytes.len() * 3 / 2 + 16);
    let mut read = 0;
    loop {
        let (result, n) =
            decoder.decode_to_string_without_replacement(&bytes[read..], &mut text, true);
        read += n;
        match result {
            DecoderResult::InputEmpty => return Ok(text),
            DecoderResult::OutputFull => text.reserve(bytes.len() - read + 16),
            DecoderResult::Malformed(bad, after) => {
                let at = read - usize::from(bad) - usize::from(after);
                return Err(RecordError::at(
                    line_at(bytes, at),
                    "the text is neither UTF-8 nor Shift_JIS",
                ));
            }
        }
    }
}

/// Every game of `text` read as `format`, every move checked by the rules.
pub fn read(text: &str, format: Format) -> Result<Vec<Record>, RecordError> {
    match format {
        Format::Kif => kif::read_records(text),
        Format::Ki2 => ki2::read_records(text),
        Format::Csa => csa::read_records(text),
        Format::Jkf => jkf::read_records(text),
        Format::Usi | Format::Sfen => usi::read_records(text),
    }
}

/// `record` written as `format`, as UTF-8 text.
pub fn write(record: &Record, format: Format) -> String {
    write_in(record, format, Encoding::Utf8)
}

/// `record` written as `format`, the text saying it is in `encoding` where the form says
/// (KIF's `#KIF version=2.0 encoding=…` line, CSA V3.0's `'CSA encoding=…` line); the text
/// is still a `String`, [`crate::encoding::encode`] makes the bytes. KI2 has no such line;
/// JKF, USI and SFEN are UTF-8 (JSON) or ASCII.
pub fn write_in(record: &Record, format: Format, encoding: Encoding) -> String {
    match format {
        Format::Kif => kif::write_in(record, encoding),
        Format::Csa if encoding == Encoding::ShiftJis => {
            csa::write(record).replacen("'CSA encoding=UTF-8\n", "'CSA encoding=SHIFT_JIS\n", 1)
        }
        Format::Ki2 => ki2::write(record),
        Format::Csa => csa::write(record),
        Format::Jkf => jkf::write(record),
        Format::Usi => usi::write(record),
        Format::Sfen => usi::write_sfen(record),
    }
}

/// The winner an ending names, with `next` the side to move after the last move.
pub fn winner(end: Ending, next: Color) -> Option<Color> {
    match end {
        Ending::Resign | Ending::TimeUp | Ending::Mate | Ending::DefaultLoss => Some(!next),
        Ending::Declaration | Ending::DefaultWin => Some(next),
        Ending::Foul(c) => Some(!c),
        _ => None,
    }
}

/// The words a record of `end` ends with, `next` to move at the end, as the writers write them
/// from their forms' tables: KIF's end word (`投了`, the last move line's), the tail of KIF's
/// `まで…` line (`先手の勝ち`, after `まで31手で`), and CSA's end line (`%TORYO`). The report
/// page writes its KIF and CSA downloads with these.
///
/// In a `handicap` game (a `手合割` other than 平手) the `まで…` line names 下手 and 上手.
pub fn end_words(end: Ending, next: Color, handicap: bool) -> [String; 3] {
    [
        word_of_ending(end, next).to_string(),
        summary_of_ending(end, next, false, handicap),
        format!("%{}", csa::special_word(end)),
    ]
}
