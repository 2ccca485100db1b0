//! The compact JSON a report page embeds: the engines once, each game as an array with its
//! moves joined by spaces (about 5 bytes a ply), so a 10,000-game match stays a few MB.

use crate::json::json_string;
use crate::tournament::output::lines::json_field;
use std::fmt::Write as _;

/// The JSON for the page: `{"title","finished","block","engines":[…],"games":[[number,
/// round, black index, white index, opening, result, reason, detail, moves], …]}` from the
/// results-file lines (lines that are no game are skipped), escaped so that it can sit inside
/// a `<script>` element: `<`, `>`, `&`, U+2028 and U+2029 as `\u` escapes.
pub fn embedded_json(title: &str, block: &str, finished: bool, lines: &[&str]) -> String {
    let mut engines: Vec<String> = Vec::new();
    let mut games = String::new();
    for line in lines {
        let Some(game) = json_field(line, "game") else {
            continue;
        };
        let mut index = |key: &str| {
            let name = json_field(line, key).unwrap_or_default();
            match engines.iter().position(|e| *e == name) {
                Some(i) => i,
                None => {
                    engines.push(name);
                    engines.len() - 1
                }
            }
        };
        let (b, w) = (index("black"), index("white"));
        if !games.is_empty() {
            games.push(',');
        }
        let num = |k: &str| {
            json_field(line, k)
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0)
        };
        let _ = write!(games, "[{},{},{b},{w},", num_text(&game), num("round"));
        for key in ["opening", "result", "reason", "detail"] {
            json_string(&mut games, &json_field(line, key).unwrap_or_default());
            games.push(',');
        }
        json_string(&mut games, &moves_of(line).join(" "));
        games.push(']');
    }
    let mut o = String::with_capacity(games.len() + block.len() + 256);
    o.push_str("{\"title\":");
    json_string(&mut o, title);
    let _ = write!(o, ",\"finished\":{finished},\"block\":");
    json_string(&mut o, block);
    o.push_str(",\"engines\":[");
    for (i, e) in engines.iter().enumerate() {
        if i > 0 {
            o.push(',');
        }
        json_string(&mut o, e);
    }
    o.push_str("],\"games\":[");
    o.push_str(&games);
    o.push_str("]}");
    escape_for_script(&o)
}

fn num_text(game: &str) -> u64 {
    game.parse().unwrap_or(0)
}

/// The `moves` array of a results line: USI moves hold no quotes or escapes.
fn moves_of(line: &str) -> Vec<&str> {
    let Some(at) = line.find(",\"moves\":[") else {
        return Vec::new();
    };
    let rest = &line[at + 10..];
    let end = rest.find(']').unwrap_or(0);
    rest[..end]
        .split(',')
        .map(|m| m.trim_matches('"'))
        .filter(|m| !m.is_empty())
        .collect()
}

/// JSON text made safe inside `<script>`: the characters that could end the element or
/// start markup, and the two line separators old parsers reject, become `\u` escapes (valid
/// only inside strings, which is the only place JSON text has them).
fn escape_for_script(json: &str) -> String {
    let mut o = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        match c {
            '<' => o.push_str("\\u003c"),
            '>' => o.push_str("\\u003e"),
            '&' => o.push_str("\\u0026"),
            '\u{2028}' => o.push_str("\\u2028"),
            '\u{2029}' => o.push_str("\\u2029"),
            c => o.push(c),
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_names_is_escaped_and_games_are_compact() {
        let line = "{\"game\":1,\"round\":1,\"black\":\"</script><img src=x>\",\
                    \"white\":\"b & c\",\"opening\":\"startpos\",\"opening_line\":0,\
                    \"result\":\"1-0\",\"reason\":\"mate\",\"detail\":\"\",\"plies\":2,\
                    \"opening_plies\":0,\"moves\":[\"7g7f\",\"3c3d\"],\
                    \"time_ms\":{\"black\":0,\"white\":0}}";
        let j = embedded_json("t", "Elo: 1", true, &[line, "not a game"]);
        assert!(!j.contains('<') && !j.contains('>') && !j.contains('&'));
        assert!(j.contains("\\u003c/script\\u003e\\u003cimg src=x\\u003e"));
        assert!(j.contains("[1,1,0,1,\"startpos\",\"1-0\",\"mate\",\"\",\"7g7f 3c3d\"]"));
        assert!(j.contains("\"engines\":[\"\\u003c/script"));
    }
}
