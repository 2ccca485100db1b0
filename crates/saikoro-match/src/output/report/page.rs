//! The HTML page: the markup, its stylesheet and script (`assets/`), the data embedded as
//! JSON (`data`). Nothing outside is loaded: no network, no font, no external script.

use super::data::PageData;
use crate::output::style::count;
use saikoro_outfile::{self as outfile, Held};
use std::io::{self, Write};
use std::path::Path;

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
    if let Some(id) = &data.match_id {
        // Whose page it is and how many games it holds, where the rule of every output
        // reads them (the head, within outfile::SNIFF).
        writeln!(
            out,
            "<meta name=\"saikoro-match\" content=\"{}\" data-games=\"{}\">",
            html_escape(id),
            data.games.len()
        )?;
    }
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

/// What the page at `path` holds, when it is a page Saikoro wrote (for the rule of every
/// output, `outfile::Own`): its match's id and game count from its head, and its title. A
/// page written before pages named their match names none, and is taken to hold games.
pub fn held_page(path: &Path) -> io::Result<Option<Held>> {
    let head = outfile::head(path)?;
    if !is_report_page(&head) {
        return Ok(None);
    }
    let text = String::from_utf8_lossy(&head);
    let attribute = |tag: &str, name: &str| -> Option<String> {
        let at = text.find(tag)? + tag.len();
        let end = at + text[at..].find('>')?;
        let key = format!("{name}=\"");
        let v = text[at..end].find(&key)? + at + key.len();
        Some(text[v..v + text[v..].find('"')?].to_string())
    };
    let meta = "<meta name=\"saikoro-match\"";
    let owner = attribute(meta, "content").map(|id| html_unescape(&id));
    let games: Option<usize> = attribute(meta, "data-games").and_then(|g| g.parse().ok());
    let title = text
        .find("<title>")
        .and_then(|at| {
            let rest = &text[at + "<title>".len()..];
            Some(html_unescape(&rest[..rest.find("</title>")?]))
        })
        .unwrap_or_default();
    let title = title.strip_prefix("Match: ").unwrap_or(&title).to_string();
    let what = match games {
        Some(n) => format!(
            "the page of another match ({title}, {})",
            count(n, "game", "games")
        ),
        None => format!("the page of another match ({title})"),
    };
    Ok(Some(Held {
        owner,
        empty: games == Some(0),
        what,
    }))
}

/// The games a page Saikoro wrote holds, as its data block has them: the rows and the words of
/// the ends the rows name ([`super::Games::push_earlier`] takes them). `None` for a file that is
/// no such page, or whose data cannot be read.
pub fn page_games(path: &Path) -> Option<(Vec<serde_json::Value>, Vec<[String; 3]>)> {
    let text = std::fs::read_to_string(path).ok()?;
    if !is_report_page(text.as_bytes()) {
        return None;
    }
    let open = "<script type=\"application/json\" id=\"data\">";
    let at = text.find(open)? + open.len();
    let data = &text[at..at + text[at..].find("</script>")?];
    let mut value: serde_json::Value = serde_json::from_str(data).ok()?;
    let ends: Vec<[String; 3]> =
        serde_json::from_value(value.pointer_mut("/records/ends")?.take()).ok()?;
    let games = value.get_mut("games")?.as_array_mut().map(std::mem::take)?;
    Some((games, ends))
}

/// The text of HTML text written by [`html_escape`].
fn html_unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
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
        assert!(!p.contains("saikoro-match"), "{p}");
        assert!(!p.contains("<meta http-equiv"));
        assert!(is_report_page(p.as_bytes()));
        assert!(!is_report_page(
            b"<!DOCTYPE html>\n<html lang=\"en\">\n<p>someone's page"
        ));
        assert!(!is_report_page(b"{\"game\":1}\n"));
        d.finished = false;
        assert!(html_page(&d).contains("<meta http-equiv=\"refresh\" content=\"10\">"));
    }

    /// A page names its match and its game count in its head; read back, they say whose page
    /// it is and what it holds.
    #[test]
    fn a_page_names_its_match() {
        let dir = std::env::temp_dir().join(format!("saikoro-page-held-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.html");
        let mut d = PageData {
            title: "Match: a & b vs c".into(),
            match_id: Some("0123456789abcdef".into()),
            ..PageData::default()
        };
        std::fs::write(&path, html_page(&d)).unwrap();
        let held = held_page(&path).unwrap().unwrap();
        assert_eq!(held.owner.as_deref(), Some("0123456789abcdef"));
        assert!(held.empty);
        assert_eq!(held.what, "the page of another match (a & b vs c, 0 games)");
        use crate::output::report::GameRow;
        use saikoro_record::Ending;
        d.games.push(&GameRow {
            number: 1,
            round: 1,
            black: 0,
            white: 1,
            opening: "startpos",
            result: "1-0",
            reason: "resign",
            detail: "White resigns",
            plies: 0,
            moves: "0:",
            time_ms: None,
            opening_plies: 0,
            end: Ending::Resign,
            next: saikoro_core::Color::White,
            handicap: false,
        });
        std::fs::write(&path, html_page(&d)).unwrap();
        let held = held_page(&path).unwrap().unwrap();
        assert!(!held.empty);
        assert_eq!(held.what, "the page of another match (a & b vs c, 1 game)");
        // A page from before pages named their match: nobody's, holding games.
        std::fs::write(
            &path,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"generator\" content=\"saikoro report\">\n<title>Match: x vs y</title>",
        )
        .unwrap();
        let held = held_page(&path).unwrap().unwrap();
        assert_eq!((held.owner, held.empty), (None, false));
        std::fs::write(&path, "<p>a page of someone's").unwrap();
        assert_eq!(held_page(&path).unwrap(), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
