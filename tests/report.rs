//! The HTML report of a match (`saikoro match --report`) with engines named with markup, as a
//! reader's browser shows it. Its statistics equal the block the match printed and no outside
//! string appears unescaped; and, when Chromium is installed, the page loaded headless
//! (`--dump-dom`) draws, for several games and plies, the rules core's position at that ply
//! (the board's `data-sfen`), reaches a game's end from the keyboard (`#…&keys=End` sends the
//! board real keydown events), logs no console message, shows the markup names as text, and
//! offers KIF and CSA records (data: links) that Saikoro's own readers read back as the game and
//! that are, byte for byte, what `saikoro record convert` writes of it from the results file.

use saikoro::record::{csa, kif, Ending, Record, RecordError};
use saikoro::{Move, Position};
use std::path::{Path, PathBuf};
use std::process::Command;

const EVIL_A: &str = "<img src=x onerror=alert(1)>";
const EVIL_B: &str = "</script><script>alert(2)</script>";

/// Three openings: two moves from the start; 角落ち (White moves first); a pawn in each hand.
const OPENINGS: &str = "startpos moves 7g7f 3c3d\n\
    sfen lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1\n\
    sfen lnsgkgsnl/1r5b1/ppppppp1p/9/9/9/PPPPPPP1P/1B5R1/LNSGKGSNL b Pp 1 moves P*2e P*2d\n";

fn play(dir: &Path) -> String {
    let bin = env!("CARGO_BIN_EXE_saikoro");
    std::fs::write(dir.join("openings.sfen"), OPENINGS).unwrap();
    let out = Command::new(bin)
        .current_dir(dir)
        .args([
            "match",
            "--engine",
            &format!("cmd={bin}"),
            &format!("name={EVIL_A}"),
        ])
        .args(["--engine", &format!("cmd={bin}"), &format!("name={EVIL_B}")])
        .args([
            "--each", "depth=1", "--games", "2", "--rounds", "3", "--seed", "3",
        ])
        .args(["--openings", "file=openings.sfen"])
        .args([
            "--maxplies",
            "60",
            "--results",
            "r.jsonl",
            "--report",
            "r.html",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("saikoro-report-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The text of a results-file line's string field.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let at = line.find(&format!("\"{key}\":\"")).unwrap() + key.len() + 4;
    &line[at..at + line[at..].find('"').unwrap()]
}

/// A results line's game: its start position and every move from it (the opening's, then
/// the engines'), from the rules core.
fn game_of(line: &str) -> (Position, Vec<Move>) {
    let opening = field(line, "opening");
    let (head, opening_moves) = match opening.split_once(" moves ") {
        Some((h, m)) => (h, m.split(' ').collect()),
        None => (opening, Vec::new()),
    };
    let start = match head {
        "startpos" => Position::startpos(),
        h => Position::from_sfen(h.strip_prefix("sfen ").unwrap_or(h)).unwrap(),
    };
    let at = line.find("\"moves\":[").unwrap() + 9;
    let engine_moves = line[at..at + line[at..].find(']').unwrap()]
        .split(',')
        .map(|m| m.trim_matches('"'))
        .filter(|m| !m.is_empty());
    let moves = opening_moves
        .into_iter()
        .chain(engine_moves)
        .map(|m| Move::from_usi(m).unwrap())
        .collect();
    (start, moves)
}

/// The position after the first `ply` moves.
fn at_ply(start: &Position, moves: &[Move], ply: usize) -> Position {
    let mut pos = start.clone();
    for &m in &moves[..ply] {
        pos.do_move(m);
    }
    pos
}

#[test]
fn figures_equal_the_printed_block_and_markup_stays_text() {
    let dir = tempdir("fig");
    let printed = play(&dir);
    let page = std::fs::read_to_string(dir.join("r.html")).unwrap();
    // The figures lines of the last printed block, each as it sits in the page's JSON.
    let tail = &printed[printed.rfind("Elo:").unwrap()..];
    for line in tail.lines().take(4) {
        assert!(page.contains(line), "{line:?} missing from the page");
    }
    for evil in [EVIL_A, EVIL_B, "<img", "alert(2)</script>"] {
        assert!(!page.contains(evil), "{evil:?} unescaped in the page");
    }
    // Each game's moves, decoded from the page: tests/report_page.rs.
    let _ = std::fs::remove_dir_all(&dir);
}

/// Headless Chromium on this machine, or `None` (the browser tests then say they are skipped).
fn chromium() -> Option<&'static Path> {
    let p = Path::new("/usr/bin/chromium");
    if p.exists() {
        Some(p)
    } else {
        eprintln!("SKIPPED: /usr/bin/chromium is absent (apt-get install chromium)");
        None
    }
}

/// The DOM of `page` at `fragment` once its script has run, and the console messages logged.
fn load(chromium: &Path, dir: &Path, page: &Path, fragment: &str) -> (String, Vec<String>) {
    let profile = tempfile_dir(dir, "profile");
    let url = format!("file://{}#{fragment}", page.display());
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
        ])
        .args(["--no-first-run", "--disable-background-networking"])
        .args(["--disable-component-update", "--disable-sync"])
        .args(["--enable-logging=stderr", "--v=0"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--dump-dom", &url])
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&profile);
    let console = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(String::from)
        .collect();
    (String::from_utf8_lossy(&out.stdout).into_owned(), console)
}

fn tempfile_dir(dir: &Path, name: &str) -> PathBuf {
    let d = dir.join(name);
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The value of `attr` on the element whose id is `id`, as the DOM dump writes it.
fn attribute(dom: &str, id: &str, attr: &str) -> String {
    let at = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}"));
    let start = dom[..at].rfind('<').unwrap();
    let tag = &dom[start..start + dom[start..].find('>').unwrap()];
    let key = format!(" {attr}=\"");
    let v = tag
        .find(&key)
        .unwrap_or_else(|| panic!("#{id} has no {attr}: {tag}"));
    let v = &tag[v + key.len()..];
    v[..v.find('"').unwrap()].replace("&amp;", "&")
}

/// The text of a `data:text/plain;charset=utf-8,…` link's address (percent-decoded).
fn data_link_text(href: &str) -> String {
    let body = href
        .strip_prefix("data:text/plain;charset=utf-8,")
        .unwrap_or_else(|| panic!("not a text data link: {href:.60}"));
    let b = body.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            out.push(u8::from_str_radix(&body[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// Checks a loaded page: no console message, no script error shown, the markup names only
/// as text (the dump's one `<script` pair is the page's data and its script).
fn assert_clean(dom: &str, console: &[String], what: &str) {
    assert!(console.is_empty(), "{what}: console: {console:?}");
    assert!(
        dom.contains("<pre id=\"errors\" role=\"alert\" hidden=\"\"></pre>"),
        "{what}: the page shows an error"
    );
    assert!(!dom.contains("<img"), "{what}: an injected element");
    assert_eq!(
        dom.matches("<script").count(),
        2,
        "{what}: an injected script"
    );
    assert!(dom.contains("&lt;img src=x onerror=alert(1)&gt;"), "{what}");
    assert!(
        dom.contains("&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;"),
        "{what}"
    );
}

/// With Chromium: the match played in a fresh directory, and its results file's text.
fn browser_match(name: &str) -> Option<(&'static Path, PathBuf, String)> {
    let chromium = chromium()?;
    let dir = tempdir(name);
    play(&dir);
    let results = std::fs::read_to_string(dir.join("r.jsonl")).unwrap();
    Some((chromium, dir, results))
}

/// The games numbered `numbers` of a results file: each number, start and moves.
fn games_of<const N: usize>(
    results: &str,
    numbers: [usize; N],
) -> impl Iterator<Item = (usize, Position, Vec<Move>)> + '_ {
    let lines: Vec<&str> = results.lines().collect();
    numbers.into_iter().map(move |n| {
        let (start, moves) = game_of(lines[n - 1]);
        (n, start, moves)
    })
}

/// The match's page (`r.html` in `dir`) at `fragment`, checked clean: its DOM and the SFEN of
/// the board it draws.
fn board_at(chromium: &Path, dir: &Path, fragment: &str) -> (String, String) {
    let (dom, console) = load(chromium, dir, &dir.join("r.html"), fragment);
    assert_clean(&dom, &console, fragment);
    let board = attribute(&dom, "board", "data-sfen");
    (dom, board)
}

#[test]
fn the_board_at_any_ply_is_the_rules_cores_position() {
    let Some((chromium, dir, results)) = browser_match("browser") else {
        return;
    };
    // Games 1, 3 and 5: one for each opening; each at its start, its middle and its end.
    for (number, start, moves) in games_of(&results, [1, 3, 5]) {
        for ply in [0, moves.len() / 2, moves.len()] {
            let fragment = if ply == moves.len() {
                format!("game={number}&ply=end")
            } else {
                format!("game={number}&ply={ply}")
            };
            let (dom, board) = board_at(chromium, &dir, &fragment);
            let expected = at_ply(&start, &moves, ply).to_sfen();
            assert_eq!(board, expected, "{fragment}");
            assert_eq!(attribute(&dom, "sfen", "value"), expected, "{fragment}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_keyboard_steps_a_game_and_its_records_read_back() {
    let Some((chromium, dir, results)) = browser_match("keys") else {
        return;
    };
    let lines: Vec<&str> = results.lines().collect();
    for (number, start, moves) in games_of(&results, [2, 4, 6]) {
        let n = moves.len();
        // End, then back three and forward one: two plies before the end.
        let fragment = format!("game={number}&keys=End,ArrowLeft*3,ArrowRight");
        let (_, board) = board_at(chromium, &dir, &fragment);
        assert_eq!(board, at_ply(&start, &moves, n - 2).to_sfen(), "{fragment}");
        let (dom, board) = board_at(chromium, &dir, &format!("game={number}&keys=End"));
        assert_eq!(board, at_ply(&start, &moves, n).to_sfen(), "game {number}");

        let kif_text = data_link_text(&attribute(&dom, "kif", "href"));
        let record = one_game(kif::read_records(&kif_text), &kif_text);
        assert_eq!(record.start.to_sfen(), start.to_sfen(), "{kif_text}");
        assert_eq!(moves_of(&record), moves, "{kif_text}");
        // The random movers' games end by the ply limit (a draw: 持将棋 in KIF, %MAX_MOVES in
        // CSA), or now and then by mate, 千日手 or 入玉宣言.
        let reason = field(lines[number - 1], "reason");
        let (kif_end, csa_end) = match reason {
            "max_plies" => (Ending::Jishogi, Ending::MaxMoves),
            "mate" => (Ending::Mate, Ending::Mate),
            "repetition" => (Ending::Repetition, Ending::Repetition),
            "declaration" => (Ending::Declaration, Ending::Declaration),
            other => panic!("game {number} ended by {other}"),
        };
        assert_eq!(record.end, Some(kif_end), "{kif_text}");
        let black = field(lines[number - 1], "black");
        assert!(
            kif_text.contains(&format!("\n先手：{black}\n")),
            "{kif_text}"
        );

        let csa_text = data_link_text(&attribute(&dom, "csa", "href"));
        let record = one_game(csa::read_records(&csa_text), &csa_text);
        assert_eq!(record.start.to_sfen(), start.to_sfen(), "{csa_text}");
        assert_eq!(moves_of(&record), moves, "{csa_text}");
        assert_eq!(record.end, Some(csa_end), "{csa_text}");
        // Both are what `saikoro record convert` writes of the game from the results file.
        assert_eq!(kif_text, convert(&dir, "r.jsonl", number, "kif"));
        assert_eq!(csa_text, convert(&dir, "r.jsonl", number, "csa"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The one game a downloaded record holds, read by Saikoro's own reader.
fn one_game(read: Result<Vec<Record>, RecordError>, text: &str) -> Record {
    let mut games = read.unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0)
}

fn moves_of(record: &Record) -> Vec<Move> {
    record.moves.iter().map(|m| m.mv).collect()
}

/// Asserts that a command succeeded, with its stderr if not.
fn succeeded(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The page's list of every game's moves (`#all=moves`): game number → USI moves.
fn all_moves(dom: &str) -> std::collections::BTreeMap<usize, Vec<String>> {
    let at = dom
        .find("<pre id=\"all-moves\" hidden")
        .expect("no #all-moves");
    let text = &dom[at + dom[at..].find('>').unwrap() + 1..];
    let text = &text[..text.find("</pre>").unwrap()];
    text.lines()
        .map(|l| {
            let (n, moves) = l.split_once(':').unwrap();
            let moves = moves.split_whitespace().map(String::from).collect();
            (n.parse().unwrap(), moves)
        })
        .collect()
}

/// Every game's moves as a results file's lines give them (the opening's, then the
/// engines'), by number.
fn results_moves(results: &str) -> std::collections::BTreeMap<usize, Vec<String>> {
    results
        .lines()
        .map(|l| {
            let number = l["{\"game\":".len()..l.find(',').unwrap()].parse().unwrap();
            let opening = field(l, "opening");
            let mut moves: Vec<String> = match opening.split_once(" moves ") {
                Some((_, m)) => m.split(' ').map(String::from).collect(),
                None => Vec::new(),
            };
            let at = l.find("\"moves\":[").unwrap() + 9;
            moves.extend(
                l[at..at + l[at..].find(']').unwrap()]
                    .split(',')
                    .map(|m| m.trim_matches('"').to_string())
                    .filter(|m| !m.is_empty()),
            );
            (number, moves)
        })
        .collect()
}

/// The page stores each move as its index among the legal moves, which its script lists
/// itself: every game's moves as the page reads them are the results file's, over games from
/// the published perft positions (pins, checks and double checks, 打ち歩詰め, dead pieces,
/// full hands, the most legal moves of any position) and long random games; and a results
/// file with a move that is no legal move and with a start the rules core cannot read (the
/// moves after either are stored whole).
#[test]
fn every_game_the_page_reads_is_the_results_files() {
    let Some(chromium) = chromium() else {
        return;
    };
    let dir = tempdir("all");
    let perft =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/positions/perft.txt"))
            .unwrap();
    let sfens: Vec<&str> = perft
        .lines()
        .filter_map(|l| l.strip_prefix("sfen "))
        // Not the mated one: a game cannot start there.
        .filter(|s| Position::from_sfen(s).unwrap().has_legal_move())
        .collect();
    assert!(sfens.len() >= 9, "{sfens:?}");
    // And three from the start: random games are long (some 390 plies up to 400).
    let openings: String = sfens
        .iter()
        .map(|s| format!("sfen {s}\n"))
        .collect::<String>()
        + "startpos\nstartpos\nstartpos\n";
    std::fs::write(dir.join("openings.sfen"), openings).unwrap();
    let bin = env!("CARGO_BIN_EXE_saikoro");
    let rounds = (2 * (sfens.len() + 3)).to_string();
    let out = Command::new(bin)
        .current_dir(&dir)
        .args(["match", "--engine", &format!("cmd={bin}"), "name=a"])
        .args(["--engine", &format!("cmd={bin}"), "name=b"])
        .args(["--each", "depth=1", "--games", "2", "--rounds", &rounds])
        .args(["--openings", "file=openings.sfen", "order=sequential"])
        .args(["--maxplies", "400", "--concurrency", "2"])
        .args(["--results", "r.jsonl", "--report", "r.html"])
        .output()
        .unwrap();
    succeeded(&out);
    let results = std::fs::read_to_string(dir.join("r.jsonl")).unwrap();
    let (dom, console) = load(chromium, &dir, &dir.join("r.html"), "all=moves");
    assert!(console.is_empty(), "{console:?}");
    let expected = results_moves(&results);
    assert_eq!(expected.len(), 4 * (sfens.len() + 3));
    let plies: usize = expected.values().map(Vec::len).sum();
    assert!(plies > 3_000, "{plies} plies");
    assert_eq!(all_moves(&dom), expected);

    // The same games from a results file edited by hand: in one, the 11th move replaced by
    // 5e5e (USI syntax, but never a legal move); in another, a start the rules core cannot
    // read.
    let mut lines: Vec<String> = results.lines().map(String::from).collect();
    let long = lines
        .iter()
        .position(|l| results_moves(l).values().next().unwrap().len() > 40)
        .unwrap();
    let l = &lines[long];
    let at = l.find("\"moves\":[").unwrap() + 9;
    let tenth = at + l[at..].match_indices(',').nth(9).unwrap().0 + 1;
    let end = tenth + l[tenth..].find(',').unwrap();
    lines[long] = format!("{}\"5e5e\"{}", &l[..tenth], &l[end..]);
    let other = (long + 1) % lines.len();
    let o = field(&lines[other], "opening").to_string();
    lines[other] = lines[other].replacen(&o, "sfen 9/9/9/9/9/9/9/9/9 x - 1", 1);
    let edited = lines.join("\n") + "\n";
    std::fs::write(dir.join("edited.jsonl"), &edited).unwrap();
    let out = Command::new(bin)
        .current_dir(&dir)
        .args(["report", "edited.jsonl", "-o", "edited.html"])
        .output()
        .unwrap();
    succeeded(&out);
    let page = std::fs::read_to_string(dir.join("edited.html")).unwrap();
    assert!(page.contains(":."), "no game stored whole");
    let (dom, console) = load(chromium, &dir, &dir.join("edited.html"), "all=moves");
    assert!(console.is_empty(), "{console:?}");
    let read = all_moves(&dom);
    let expected = results_moves(&edited);
    let number = *results_moves(&lines[long]).keys().next().unwrap();
    assert_eq!(read[&number][10], "5e5e");
    assert_eq!(read, expected);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `saikoro record convert FILE --game K --to FORM` in `dir`: what it writes.
fn convert(dir: &Path, file: &str, game: usize, form: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_saikoro"))
        .current_dir(dir)
        .args(["record", "convert", file, "--game", &game.to_string()])
        .args(["--to", form])
        .output()
        .unwrap();
    succeeded(&out);
    String::from_utf8(out.stdout).unwrap()
}
