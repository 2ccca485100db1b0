//! The HTML page: the markup, its stylesheet and script (`assets/`), the data embedded as
//! JSON (`data`). Nothing outside is loaded: no network, no font, no external script.

use super::data::PageData;
use std::io::{self, Write};

const STYLE: &str = include_str!("assets/report.css");
const SCRIPT: &str = include_str!("assets/report.js");

/// The whole page of `data`. An unfinished match's page reloads itself every 10 s (a
/// `<meta http-equiv="refresh">` in its head); a finished one has none.
pub fn html_page(data: &PageData) -> String {
    let mut o = Vec::with_capacity(data.games.text_len() + STYLE.len() + SCRIPT.len() + 8192);
    // Writing into memory cannot fail.
    let _ = write_html(data, &mut o);
    String::from_utf8(o).unwrap_or_default()
}

/// Writes the page of `data` to `out` piece by piece: the games' text, the largest part, is
/// not copied on the way.
pub fn write_html(data: &PageData, out: &mut dyn Write) -> io::Result<()> {
    out.write_all(PAGE_START)?;
    if !data.finished {
        out.write_all(b"<meta http-equiv=\"refresh\" content=\"10\">\n")?;
    }
    let (head, games, tail) = data.json_parts();
    for part in [
        "<title>".as_bytes(),
        html_escape(&data.title).as_bytes(),
        b"</title>\n<style>\n",
        STYLE.as_bytes(),
        b"</style>\n</head>\n<body>\n",
        BODY.as_bytes(),
        b"<script type=\"application/json\" id=\"data\">",
        &head,
        games,
        tail,
        b"</script>\n<script>\n",
        SCRIPT.as_bytes(),
        b"</script>\n</body>\n</html>\n",
    ] {
        out.write_all(part)?;
    }
    Ok(())
}

const BODY: &str = include_str!("assets/body.html");

/// How every page starts, up to its generator line.
const PAGE_START: &[u8] =
    b"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
    <meta name=\"generator\" content=\"saikoro report\">\n";

/// Whether `head`, the first bytes of a file, is a page that Saikoro wrote (this build's, by
/// its generator line, or an earlier one's, which had none: by its data block), so that
/// `saikoro report` and `match --report` may write a page over it.
pub fn is_report_page(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head);
    text.starts_with("<!DOCTYPE html>\n<html lang=\"en\">")
        && (text.contains("<meta name=\"generator\" content=\"saikoro report\">")
            || text.contains("<script type=\"application/json\" id=\"data\">"))
}

/// `s` as HTML text (also safe inside a quoted attribute).
pub(crate) fn html_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '&' => o.push_str("&amp;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn title_is_escaped_and_a_finished_page_does_not_reload() {
        let mut d = PageData {
            title: "<b>x</b>".into(),
            finished: true,
            ..PageData::default()
        };
        let p = html_page(&d);
        assert!(p.contains("<title>&lt;b&gt;x&lt;/b&gt;</title>"));
        assert!(!p.contains("<meta http-equiv"));
        assert!(is_report_page(p.as_bytes()));
        assert!(!is_report_page(
            b"<!DOCTYPE html>\n<html lang=\"en\">\n<p>someone's page"
        ));
        assert!(!is_report_page(b"{\"game\":1}\n"));
        d.finished = false;
        assert!(html_page(&d).contains("<meta http-equiv=\"refresh\" content=\"10\">"));
    }
}
