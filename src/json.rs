//! JSON strings, written and read by hand for the flat objects of the match's results and
//! state files and of `saikoro check --json`: escapes for `"`, `\`, the usual control
//! characters and `\u` for the others; everything else as UTF-8.

use std::fmt::Write as _;

/// Appends `s` as a JSON string.
pub(crate) fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Reads the JSON string at the start of `text` (which starts with `"`): its value and the
/// text after it.
pub(crate) fn read_json_string(text: &str) -> Option<(String, &str)> {
    let s = text.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &s[i + 1..])),
            '\\' => match chars.next()?.1 {
                'n' => out.push('\n'),
                'r' => out.push('\r'),
                't' => out.push('\t'),
                'u' => {
                    let hex: String = chars.by_ref().take(4).map(|(_, c)| c).collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                c => out.push(c),
            },
            c => out.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_round_trip_with_escapes() {
        let text = "a\"b\\c\nd\re\tf\u{1}王手";
        let mut s = String::new();
        json_string(&mut s, text);
        assert_eq!(s, "\"a\\\"b\\\\c\\nd\\re\\tf\\u0001王手\"");
        s.push_str(", rest");
        assert_eq!(read_json_string(&s), Some((text.to_string(), ", rest")));
    }
}
