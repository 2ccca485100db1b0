//! The HTML page: the markup, its stylesheet and script (`assets/`), the data embedded as
//! JSON. Nothing outside is loaded: no network, no font, no external script.

use super::data::embedded_json;

const STYLE: &str = include_str!("assets/report.css");
const SCRIPT: &str = include_str!("assets/report.js");

/// The whole page for the results-file `lines`, with the printed statistics `block`. An
/// unfinished match's page reloads itself every 10 s; a finished one does not.
pub fn html_page(title: &str, block: &str, finished: bool, lines: &[&str]) -> String {
    let data = embedded_json(title, block, finished, lines);
    let refresh = if finished {
        ""
    } else {
        "<meta http-equiv=\"refresh\" content=\"10\">\n"
    };
    let mut o = String::with_capacity(data.len() + STYLE.len() + SCRIPT.len() + 2048);
    o.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    o.push_str(refresh);
    o.push_str("<title>");
    o.push_str(&html_escape(title));
    o.push_str("</title>\n<style>\n");
    o.push_str(STYLE);
    o.push_str("</style>\n</head>\n<body>\n");
    o.push_str(BODY);
    o.push_str("<script type=\"application/json\" id=\"data\">");
    o.push_str(&data);
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
        let p = html_page("<b>x</b>", "", true, &[]);
        assert!(p.contains("<title>&lt;b&gt;x&lt;/b&gt;</title>"));
        assert!(!p.contains("http-equiv"));
        assert!(html_page("t", "", false, &[]).contains("http-equiv=\"refresh\""));
    }
}
