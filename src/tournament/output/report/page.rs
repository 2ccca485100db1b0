//! The HTML page: the markup, its stylesheet and script (`assets/`), the data embedded as
//! JSON (`data`). Nothing outside is loaded: no network, no font, no external script.

use super::data::PageData;

const STYLE: &str = include_str!("assets/report.css");
const SCRIPT: &str = include_str!("assets/report.js");

/// The whole page of `data`. An unfinished match's page reloads itself every 10 s (a
/// `<meta http-equiv="refresh">` in its head); a finished one has none.
pub fn html_page(data: &PageData) -> String {
    let json = data.to_json();
    let mut o = String::with_capacity(json.len() + STYLE.len() + SCRIPT.len() + 4096);
    o.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    if !data.finished {
        o.push_str("<meta http-equiv=\"refresh\" content=\"10\">\n");
    }
    o.push_str("<title>");
    o.push_str(&html_escape(&data.title));
    o.push_str("</title>\n<style>\n");
    o.push_str(STYLE);
    o.push_str("</style>\n</head>\n<body>\n");
    o.push_str(BODY);
    o.push_str("<script type=\"application/json\" id=\"data\">");
    o.push_str(&json);
    o.push_str("</script>\n<script>\n");
    o.push_str(SCRIPT);
    o.push_str("</script>\n</body>\n</html>\n");
    o
}

const BODY: &str = include_str!("assets/body.html");

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
        assert!(!p.contains("http-equiv"));
        d.finished = false;
        assert!(html_page(&d).contains("<meta http-equiv=\"refresh\" content=\"10\">"));
    }
}
