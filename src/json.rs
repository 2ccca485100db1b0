//! JSON written and read by hand: strings for the flat objects of the match's results and
//! state files (escapes for `"`, `\`, the usual control characters and `\u` for the others;
//! everything else as UTF-8), and [`Json`], a whole value (objects, arrays, strings, numbers,
//! booleans, null) written compactly and read back, for the match configuration the state file
//! keeps.

use std::fmt;
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
/// text after it; `None` when it is no whole JSON string. The same reading as [`Json::parse`]'s.
pub(crate) fn read_json_string(text: &str) -> Option<(String, &str)> {
    if !text.starts_with('"') {
        return None;
    }
    let mut r = Reader { text, at: 0 };
    let value = r.string().ok()?;
    Some((value, &text[r.at..]))
}

/// A JSON value. Numbers keep their text, so that a `u64` or an `f64` reads back exactly as it
/// was written; an object keeps its members in order.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json {
    /// `null`.
    Null,
    /// `true`, `false`.
    Bool(bool),
    /// A number, as written.
    Number(String),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object's members, in order.
    Object(Vec<(String, Json)>),
}

/// Why a text is not one JSON value: what was expected at which byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct JsonError {
    /// The byte offset.
    pub at: usize,
    /// What was expected there.
    pub expected: &'static str,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad JSON at byte {}: expected {}",
            self.at, self.expected
        )
    }
}

impl std::error::Error for JsonError {}

impl Json {
    /// A number.
    pub(crate) fn number(n: impl fmt::Display) -> Json {
        Json::Number(n.to_string())
    }

    /// A string.
    pub(crate) fn string(s: impl Into<String>) -> Json {
        Json::String(s.into())
    }

    /// Reads `text`, which must hold one value (and white space around it).
    pub(crate) fn parse(text: &str) -> Result<Json, JsonError> {
        let mut r = Reader { text, at: 0 };
        let v = r.value()?;
        r.space();
        if r.at < text.len() {
            return Err(r.error("the end"));
        }
        Ok(v)
    }

    /// An object's member `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// A string's text.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// A boolean.
    pub(crate) fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// An array's items.
    pub(crate) fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    /// A number read as `T` (`u64`, `i32`, `f64`, …).
    pub(crate) fn as_number<T: std::str::FromStr>(&self) -> Option<T> {
        match self {
            Json::Number(n) => n.parse().ok(),
            _ => None,
        }
    }
}

impl fmt::Display for Json {
    /// Compact: no white space.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::Number(n) => f.write_str(n),
            Json::String(s) => {
                let mut out = String::new();
                json_string(&mut out, s);
                f.write_str(&out)
            }
            Json::Array(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    v.fmt(f)?;
                }
                f.write_str("]")
            }
            Json::Object(members) => {
                f.write_str("{")?;
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    Json::string(k.as_str()).fmt(f)?;
                    f.write_str(":")?;
                    v.fmt(f)?;
                }
                f.write_str("}")
            }
        }
    }
}

/// A cursor over the text being read.
struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl Reader<'_> {
    fn error(&self, expected: &'static str) -> JsonError {
        JsonError {
            at: self.at,
            expected,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, word: &str) -> bool {
        let found = self.text[self.at..].starts_with(word);
        if found {
            self.at += word.len();
        }
        found
    }

    fn value(&mut self) -> Result<Json, JsonError> {
        self.space();
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => self.string().map(Json::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ if self.eat("null") => Ok(Json::Null),
            _ if self.eat("true") => Ok(Json::Bool(true)),
            _ if self.eat("false") => Ok(Json::Bool(false)),
            _ => Err(self.error("a value")),
        }
    }

    /// The items of `[...]` or members of `{...}`, after the opening bracket: `item` reads
    /// one; `close` ends them.
    fn list(
        &mut self,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Result<(), JsonError>,
    ) -> Result<(), JsonError> {
        self.at += 1;
        self.space();
        if self.peek() == Some(close) {
            self.at += 1;
            return Ok(());
        }
        loop {
            item(self)?;
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(c) if c == close => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(self.error("',' or a closing bracket")),
            }
        }
    }

    fn array(&mut self) -> Result<Json, JsonError> {
        let mut items = Vec::new();
        self.list(b']', |r| {
            items.push(r.value()?);
            Ok(())
        })?;
        Ok(Json::Array(items))
    }

    fn object(&mut self) -> Result<Json, JsonError> {
        let mut members = Vec::new();
        self.list(b'}', |r| {
            r.space();
            if r.peek() != Some(b'"') {
                return Err(r.error("a member's name"));
            }
            let key = r.string()?;
            r.space();
            if !r.eat(":") {
                return Err(r.error("':'"));
            }
            members.push((key, r.value()?));
            Ok(())
        })?;
        Ok(Json::Object(members))
    }

    fn digits(&mut self) -> usize {
        let from = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - from
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    fn number(&mut self) -> Result<Json, JsonError> {
        let from = self.at;
        self.eat("-");
        if self.eat("0") {
            if matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("no digit after a leading 0"));
            }
        } else if self.digits() == 0 {
            return Err(self.error("a digit"));
        }
        if self.eat(".") && self.digits() == 0 {
            return Err(self.error("a digit after '.'"));
        }
        if self.eat("e") || self.eat("E") {
            if !self.eat("+") {
                self.eat("-");
            }
            if self.digits() == 0 {
                return Err(self.error("an exponent"));
            }
        }
        Ok(Json::Number(self.text[from..self.at].to_string()))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let hex = self.text.get(self.at..self.at + 4);
        let n = hex
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| self.error("four hex digits"))?;
        self.at += 4;
        Ok(n)
    }

    /// `\uXXXX`, after the `\u`: a surrogate pair takes a second one.
    fn unicode(&mut self) -> Result<char, JsonError> {
        let high = self.hex4()?;
        let code = if (0xd800..0xdc00).contains(&high) {
            if !self.eat("\\u") {
                return Err(self.error("a low surrogate"));
            }
            let low = self.hex4()?;
            if !(0xdc00..0xe000).contains(&low) {
                return Err(self.error("a low surrogate"));
            }
            0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00)
        } else {
            high
        };
        char::from_u32(code).ok_or_else(|| self.error("a character, not a lone surrogate"))
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.text[self.at..].chars().next() else {
                return Err(self.error("a closing '\"'"));
            };
            self.at += c.len_utf8();
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let e = self.peek().ok_or_else(|| self.error("an escape"))?;
                    self.at += 1;
                    out.push(match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode()?,
                        _ => {
                            self.at -= 1;
                            return Err(self.error("an escape"));
                        }
                    });
                }
                c if (c as u32) < 0x20 => {
                    self.at -= 1;
                    return Err(self.error("an escaped control character"));
                }
                c => out.push(c),
            }
        }
    }
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

    #[test]
    fn values_are_read() {
        let text = " { \"a\" : [1, -2.5e3, 0.05, true, false, null], \"b\": {}, \"c\": [],\n\
                    \"s\": \"x\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\" } ";
        let v = Json::parse(text).unwrap();
        let a = v.get("a").unwrap().as_array().unwrap();
        assert_eq!(a[0].as_number::<u64>(), Some(1));
        assert_eq!(a[1].as_number::<f64>(), Some(-2500.0));
        assert_eq!(a[2].as_number::<f64>(), Some(0.05));
        assert_eq!(
            (a[3].as_bool(), a[4].as_bool(), &a[5]),
            (Some(true), Some(false), &Json::Null)
        );
        assert_eq!(v.get("b"), Some(&Json::Object(vec![])));
        assert_eq!(v.get("c"), Some(&Json::Array(vec![])));
        assert_eq!(
            v.get("s").unwrap().as_str(),
            Some("x\"\\/\u{8}\u{c}\n\r\té😀")
        );
        assert_eq!(v.get("d"), None);
        // Numbers keep their text: a u64 beyond f64's precision reads back whole.
        let big = Json::parse("18446744073709551615").unwrap();
        assert_eq!(big.as_number::<u64>(), Some(u64::MAX));
    }

    #[test]
    fn values_are_written_compactly_and_read_back() {
        let v = Json::Object(vec![
            (
                "k\"ey".into(),
                Json::Array(vec![Json::number(7), Json::Null]),
            ),
            ("t".into(), Json::Bool(true)),
            ("s".into(), Json::string("a\nb")),
        ]);
        let text = v.to_string();
        assert_eq!(text, "{\"k\\\"ey\":[7,null],\"t\":true,\"s\":\"a\\nb\"}");
        assert_eq!(Json::parse(&text), Ok(v));
    }

    #[test]
    fn bad_json_is_refused_where_it_goes_wrong() {
        let at = |text: &str| Json::parse(text).unwrap_err().at;
        assert_eq!(at(""), 0);
        assert_eq!(at("[1,]"), 3);
        assert_eq!(at("{\"a\" 1}"), 5);
        assert_eq!(at("{1:2}"), 1);
        assert_eq!(at("01"), 1);
        assert_eq!(at("1."), 2);
        assert_eq!(at("-"), 1);
        assert_eq!(at("\"abc"), 4);
        assert_eq!(at("\"\\x\""), 2);
        assert_eq!(at("\"\\ud800\""), 7);
        assert_eq!(at("\"a\nb\""), 2);
        assert_eq!(at("[1] 2"), 4);
        assert_eq!(at("nul"), 0);
        assert_eq!(
            Json::parse("[1,]").unwrap_err().to_string(),
            "bad JSON at byte 3: expected a value"
        );
    }
}
