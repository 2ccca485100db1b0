//! The HTML report of a match (`saikoro match --report`) with engines named with markup, as a
//! reader's browser shows it. Its statistics equal the block the match printed and no outside
//! string appears unescaped; and, when Chromium is installed, the page loaded headless
//! (`--dump-dom`) draws, for several games and plies, the rules core's position at that ply
//! (the board's `data-sfen`), reaches a game's end from the keyboard (`#…&keys=End` sends the
//! board real keydown events), logs no console message, shows the markup names as text, and
//! offers KIF and CSA records (data: links) that Saikoro's own readers read back as the game and
//! that are, byte for byte, what `saikoro record convert` writes of it from the results file;
//! and every way a game ends is written alike by the match's records, `record convert` and the
//! page.

use crate::usi_support;

use saikoro_core::{Move, Position};
use saikoro_record::{csa, kif, Ending, Record, RecordError};
use std::path::{Path, PathBuf};
use std::process::Command;

const EVIL_A: &str = "<img src=x onerror=alert(1)>";
const EVIL_B: &str = "</script><script>alert(2)</script>";

/// Three openings: two moves from the start; 角落ち (White moves first); a pawn in each hand.
const OPENINGS: &str = "startpos moves 7g7f 3c3d\n\
    sfen lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1\n\
    sfen lnsgkgsnl/1r5b1/ppppppp1p/9/9/9/PPPPPPP1P/1B5R1/LNSGKGSNL b Pp 1 moves P*2e P*2d\n";

fn play(dir: &Path) -> String {
    let bin = crate::usi_support::BIN;
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
    // Each game's moves, decoded from the page: tests/it/report_page.rs.
    let _ = std::fs::remove_dir_all(&dir);
}

/// Headless Chromium on this machine, or `None` (the browser tests then say they are skipped).
pub(crate) fn chromium() -> Option<&'static Path> {
    let p = Path::new("/usr/bin/chromium");
    if p.exists() {
        Some(p)
    } else {
        eprintln!("SKIPPED: /usr/bin/chromium is absent (apt-get install chromium)");
        None
    }
}

/// The DOM of `page` at `fragment` once its script has run, and the console messages logged.
pub(crate) fn load(
    chromium: &Path,
    dir: &Path,
    page: &Path,
    fragment: &str,
) -> (String, Vec<String>) {
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
        // Opened from the games table by a click, the board takes the keys at once.
        let (_, board) = board_at(chromium, &dir, &format!("row={number}&keys=End,ArrowLeft"));
        assert_eq!(
            board,
            at_ply(&start, &moves, n - 1).to_sfen(),
            "row {number}"
        );

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
        assert_eq!(record.ending(), Some(kif_end), "{kif_text}");
        let black = field(lines[number - 1], "black");
        // Black is 下手 in a handicap game (Kifu for Windows' word), else 先手.
        let handicap = saikoro_record::japanese::handicap_name(&start).is_some_and(|n| n != "平手");
        let word = if handicap { "下手" } else { "先手" };
        assert!(
            kif_text.contains(&format!("\n{word}：{black}\n")),
            "{kif_text}"
        );

        let csa_text = data_link_text(&attribute(&dom, "csa", "href"));
        let record = one_game(csa::read_records(&csa_text), &csa_text);
        assert_eq!(record.start.to_sfen(), start.to_sfen(), "{csa_text}");
        assert_eq!(moves_of(&record), moves, "{csa_text}");
        assert_eq!(record.ending(), Some(csa_end), "{csa_text}");
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
    let perft = saikoro_core::published_perft();
    let sfens: Vec<&str> = perft
        .iter()
        .map(|c| c.sfen)
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
    let bin = crate::usi_support::BIN;
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
    let out = Command::new(crate::usi_support::BIN)
        .current_dir(dir)
        .args(["record", "convert", file, "--game", &game.to_string()])
        .args(["--to", form])
        .output()
        .unwrap();
    succeeded(&out);
    String::from_utf8(out.stdout).unwrap()
}

/// How a record ends: KIF's end word (the last numbered line's), the tail of its `まで` line
/// (after `まで31手で`), and CSA's `%` line.
fn kif_end_words(kif: &str) -> (String, String) {
    let word = kif
        .lines()
        .rfind(|l| {
            let t = l.trim_start();
            t.starts_with(|c: char| c.is_ascii_digit()) && t.contains(' ')
        })
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or_else(|| panic!("no move line: {kif}"))
        .to_string();
    let until = kif
        .lines()
        .find_map(|l| l.strip_prefix("まで"))
        .unwrap_or_else(|| panic!("no まで line: {kif}"));
    let tail = until[until.find("手で").unwrap() + "手で".len()..].to_string();
    (word, tail)
}

fn csa_end_line(csa: &str) -> String {
    let ends: Vec<&str> = csa.lines().filter(|l| l.starts_with('%')).collect();
    assert_eq!(ends.len(), 1, "{csa}");
    ends[0].to_string()
}

/// One way a game ends, and the words its records end with, from the formats' own words: KIF's
/// as Kifu for Windows writes them (the end word on the last move line, `まで…手で先手の勝ち`),
/// CSA's from the CSA 標準棋譜ファイル形式 (`%TORYO` 投了, `%TSUMI` 詰み, `%TIME_UP` the side to
/// move out of time, `%+ILLEGAL_ACTION`/`%-ILLEGAL_ACTION` the foul of the side named, whichever
/// is to move, `%SENNICHITE` 千日手, `%KACHI` 入玉宣言, `%MAX_MOVES` the move limit (V3.0),
/// `%HIKIWAKE` a draw, `%CHUDAN` 中断).
struct Ends {
    /// The results file's reason.
    reason: &'static str,
    /// KIF's end word.
    kif: &'static str,
    /// The tail of KIF's `まで` line.
    tail: &'static str,
    /// CSA's end line.
    csa: &'static str,
}

const fn ends(
    reason: &'static str,
    kif: &'static str,
    tail: &'static str,
    csa: &'static str,
) -> Ends {
    Ends {
        reason,
        kif,
        tail,
        csa,
    }
}

/// A match of one game between two engines (their `--engine` words), with `flags` and an
/// opening (an SFEN file's line) when given, and how it must end.
struct Played {
    name: &'static str,
    black: Vec<String>,
    white: Vec<String>,
    flags: &'static str,
    opening: Option<&'static str>,
    ends: Ends,
}

/// `--engine` words for the fault engine (examples/fault_engine.rs) with `faults`.
fn fault(name: &str, faults: &[&str]) -> Vec<String> {
    let mut args = "--seed 3".to_string();
    for f in faults {
        args.push_str(" --fault ");
        args.push_str(f);
    }
    vec![
        "--engine".into(),
        format!("cmd={}", usi_support::fault_engine().display()),
        format!("args={args}"),
        format!("name={name}"),
    ]
}

/// `--engine` words for Saikoro with a fixed seed.
fn seeded(name: &str) -> Vec<String> {
    vec![
        "--engine".into(),
        format!("cmd={}", crate::usi_support::BIN),
        format!("name={name}"),
        "option.Seed=5".into(),
    ]
}

/// The games of the match test below: every way the match ends a game that engines can be made
/// to play, each with the words its records must end with. The side to move at the end decides
/// KIF's 反則負け (the side to move's foul) from 反則勝ち, and whether an adjudicated loser
/// resigns (投了 is the side to move's) or the game is written as stopped.
fn played() -> Vec<Played> {
    let mut all = played_first();
    all.extend(played_more());
    all
}

/// One game of [`played`].
fn p(
    name: &'static str,
    black: Vec<String>,
    white: Vec<String>,
    flags: &'static str,
    opening: Option<&'static str>,
    ends: Ends,
) -> Played {
    Played {
        name,
        black,
        white,
        flags,
        opening,
        ends,
    }
}

/// The first half of [`played`]: resignations, time losses, crashes and illegal moves.
fn played_first() -> Vec<Played> {
    vec![
        // Black resigns at its second move.
        p(
            "resign",
            fault("r", &["resign@2"]),
            seeded("s"),
            "",
            None,
            ends("resign", "投了", "後手の勝ち", "%TORYO"),
        ),
        // Black's engine exits at its second move: Black's foul, Black to move.
        p(
            "crash",
            fault("c", &["crash@2"]),
            seeded("s"),
            "",
            None,
            ends("crash", "反則負け", "先手の反則負け", "%+ILLEGAL_ACTION"),
        ),
        // White moves a piece from an empty square at its first move.
        p(
            "illegal",
            seeded("s"),
            fault("i", &["illegal=no-piece@1"]),
            "",
            None,
            ends(
                "illegal_move",
                "反則負け",
                "後手の反則負け",
                "%-ILLEGAL_ACTION",
            ),
        ),
        // Black declares a win from the start position, which does not hold.
        p(
            "bad-declaration",
            fault("w", &["win"]),
            seeded("s"),
            "",
            None,
            ends(
                "illegal_declaration",
                "反則負け",
                "先手の反則負け",
                "%+ILLEGAL_ACTION",
            ),
        ),
        // White takes 300 ms of a 100 ms byoyomi at its second move (ply 3).
        p(
            "time",
            seeded("s"),
            fault("t", &["slow=300@2"]),
            "--each tc=0 byoyomi=0.1",
            None,
            ends("time", "切れ負け", "時間切れにより先手の勝ち", "%TIME_UP"),
        ),
    ]
}

/// The second half of [`played`]: silences, adjudications, and the ends of the rules.
fn played_more() -> Vec<Played> {
    vec![
        // Black never answers its second go (no clock: a silence, after --ready-ms).
        p(
            "silence",
            fault("h", &["hang@1"]),
            seeded("s"),
            "--ready-ms 300",
            None,
            ends(
                "no_response",
                "反則負け",
                "先手の反則負け",
                "%+ILLEGAL_ACTION",
            ),
        ),
        p(
            "ply-limit",
            seeded("a"),
            seeded("b"),
            "--maxplies 6",
            None,
            ends("max_plies", "持将棋", "持将棋", "%MAX_MOVES"),
        ),
        // Both kings step out and back: the start position a fourth time at ply 12.
        p(
            "repetition",
            fault("x", &["script=5i5h,5h5i"]),
            fault("y", &["script=5a5b,5b5a"]),
            "",
            None,
            ends("repetition", "千日手", "千日手", "%SENNICHITE"),
        ),
        // G*5b, guarded by the 5c pawn, mates the bare king on 5a.
        p(
            "mate",
            fault("m", &["script=G*5b"]),
            seeded("s"),
            "",
            Some("sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1"),
            ends("mate", "詰み", "先手の勝ち", "%TSUMI"),
        ),
        // Black's king in the camp with 28 points (CSA rule 27): a declaration that holds.
        p(
            "declaration",
            fault("d", &["win"]),
            seeded("s"),
            "",
            Some("sfen +R+BGGG+P+PSS/4K3+N/G8/9/9/9/9/9/k8 b 9P 1"),
            ends("declaration", "入玉勝ち", "先手の入玉勝ち", "%KACHI"),
        ),
        // Black's first move scores −900: adjudicated lost after it, White to move.
        p(
            "adjudicated",
            fault("l", &["score=cp:-900"]),
            fault("z", &["score=cp:0"]),
            "--resign movecount=1 score=500",
            None,
            ends("adjudication", "中断", "中断", "%CHUDAN"),
        ),
        p(
            "adjudicated-draw",
            fault("e", &["score=cp:3"]),
            fault("f", &["score=cp:3"]),
            "--draw movenumber=6 movecount=2 score=10",
            None,
            ends("adjudication", "持将棋", "持将棋", "%HIKIWAKE"),
        ),
    ]
}

/// The page's KIF and CSA downloads of game `number` of the page `page` in `dir` (with
/// Chromium): each equals, byte for byte, what `saikoro record convert` writes of that game from
/// the results file `results`.
fn downloads_equal_convert(chromium: &Path, dir: &Path, page: &str, results: &str, number: usize) {
    let (dom, console) = load(chromium, dir, &dir.join(page), &format!("game={number}"));
    assert!(console.is_empty(), "{page} game {number}: {console:?}");
    assert!(
        dom.contains("<pre id=\"errors\" role=\"alert\" hidden=\"\"></pre>"),
        "{page} game {number}: the page shows an error"
    );
    for form in ["kif", "csa"] {
        let download = data_link_text(&attribute(&dom, form, "href"));
        let converted = convert(dir, results, number, form);
        assert_eq!(download, converted, "{page} game {number} ({form})");
    }
}

/// Every way the match ends a game ends alike in every record of it: the match's own `--records`
/// files (CSA and KIF), `saikoro record convert` of its results file, and (when Chromium is
/// installed) the report page's KIF and CSA downloads, which are `record convert`'s text byte for
/// byte. The words are the formats' (see [`Ends`]), written here by hand.
#[test]
fn every_end_is_written_alike_by_the_match_record_convert_and_the_page() {
    let browser = chromium();
    let bin = crate::usi_support::BIN;
    for game in played() {
        for form in ["csa", "kif"] {
            let dir = tempdir(&format!("end-{}-{form}", game.name));
            let mut args: Vec<String> = ["match"].iter().map(|s| s.to_string()).collect();
            args.extend(game.black.iter().cloned());
            args.extend(game.white.iter().cloned());
            let each = if game.flags.contains("--each") {
                ""
            } else {
                "--each depth=1"
            };
            args.extend(
                format!(
                    "{each} {} --games 1 --rounds 1 --results r.jsonl --records rec \
                     --records-format {form} --report r.html",
                    game.flags
                )
                .split_whitespace()
                .map(String::from),
            );
            if let Some(o) = game.opening {
                std::fs::write(dir.join("o.sfen"), format!("{o}\n")).unwrap();
                args.extend(["--openings".into(), "file=o.sfen".into()]);
            }
            let out = Command::new(bin)
                .current_dir(&dir)
                .args(&args)
                .output()
                .unwrap();
            succeeded(&out);
            let results = std::fs::read_to_string(dir.join("r.jsonl")).unwrap();
            let what = format!("{} ({form}): {results}", game.name);
            assert_eq!(field(&results, "reason"), game.ends.reason, "{what}");
            let e = &game.ends;
            if form == "csa" {
                let record = std::fs::read_to_string(dir.join("rec/game-00001.csa")).unwrap();
                assert_eq!(csa_end_line(&record), e.csa, "{what}\n{record}");
            } else {
                let record = std::fs::read_to_string(dir.join("rec/game-00001.kifu")).unwrap();
                let words = kif_end_words(&record);
                assert_eq!(
                    (words.0.as_str(), words.1.as_str()),
                    (e.kif, e.tail),
                    "{what}"
                );
            }
            let converted = convert(&dir, "r.jsonl", 1, "kif");
            let words = kif_end_words(&converted);
            assert_eq!(
                (words.0.as_str(), words.1.as_str()),
                (e.kif, e.tail),
                "{what}"
            );
            assert_eq!(
                csa_end_line(&convert(&dir, "r.jsonl", 1, "csa")),
                e.csa,
                "{what}"
            );
            if let (Some(chromium), "kif") = (browser, form) {
                downloads_equal_convert(chromium, &dir, "r.html", "r.jsonl", 1);
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// A results-file line written by hand in the format of docs/match.md: game `game` (Black
/// `a` in odd games), its opening, its moves, result and reason.
fn results_line(game: u32, opening: &str, moves: &[&str], result: &str, reason: &str) -> String {
    let (black, white) = if game % 2 == 1 {
        ("a", "b")
    } else {
        ("b", "a")
    };
    let opening_plies = opening
        .split(" moves ")
        .nth(1)
        .map_or(0, |m| m.split(' ').count());
    let moves: Vec<String> = moves.iter().map(|m| format!("\"{m}\"")).collect();
    format!(
        "{{\"game\":{game},\"round\":{},\"black\":\"{black}\",\"white\":\"{white}\",\
         \"opening\":\"{opening}\",\"opening_line\":0,\"result\":\"{result}\",\
         \"reason\":\"{reason}\",\"detail\":\"by hand: {reason}\",\"plies\":{},\
         \"opening_plies\":{opening_plies},\"moves\":[{}],\
         \"time_ms\":{{\"black\":0,\"white\":0}}}}\n",
        game.div_ceil(2),
        moves.len(),
        moves.join(",")
    )
}

/// A results file written by hand (the format of docs/match.md) with the ends a match of
/// engines does not come to on its own here: a perpetual check lost by the side to move and
/// by the side not to move, a game interrupted, an adjudicated loss of the side to move, an
/// adjudicated draw from a handicap (香落ち: `手合割` and `PI11KY`), and a loss on time with no
/// move from a start with a piece in hand (a board diagram, the hands, and KIF's time column on
/// its end line). Each is written with the words of [`Ends`] by `record convert`; the page's
/// downloads (with Chromium) are `record convert`'s text.
#[test]
fn ends_of_a_results_file_written_by_hand() {
    let line = results_line;
    let kyo = "sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d";
    let games = [
        (
            line(1, "startpos", &["7g7f", "3c3d"], "0-1", "perpetual_check"),
            ends(
                "perpetual_check",
                "反則負け",
                "先手の反則負け",
                "%+ILLEGAL_ACTION",
            ),
        ),
        (
            line(2, "startpos", &["7g7f"], "0-1", "perpetual_check"),
            ends(
                "perpetual_check",
                "反則勝ち",
                "後手の反則勝ち",
                "%+ILLEGAL_ACTION",
            ),
        ),
        (
            line(3, "startpos", &["7g7f", "3c3d", "2g2f"], "*", "interrupted"),
            ends("interrupted", "中断", "中断", "%CHUDAN"),
        ),
        (
            line(4, "startpos moves 7g7f", &["3c3d"], "0-1", "adjudication"),
            ends("adjudication", "投了", "後手の勝ち", "%TORYO"),
        ),
        (
            line(5, kyo, &["7g7f"], "1/2-1/2", "adjudication"),
            ends("adjudication", "持将棋", "持将棋", "%HIKIWAKE"),
        ),
        (
            line(6, "sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1", &[], "0-1", "time"),
            ends("time", "切れ負け", "時間切れにより後手の勝ち", "%TIME_UP"),
        ),
    ];
    let dir = tempdir("hand");
    let text: String = games.iter().map(|(l, _)| l.as_str()).collect();
    std::fs::write(dir.join("hand.jsonl"), &text).unwrap();
    for (number, (_, e)) in games.iter().enumerate() {
        let kif = convert(&dir, "hand.jsonl", number + 1, "kif");
        let words = kif_end_words(&kif);
        assert_eq!(
            (words.0.as_str(), words.1.as_str()),
            (e.kif, e.tail),
            "{}: {kif}",
            e.reason
        );
        let csa = convert(&dir, "hand.jsonl", number + 1, "csa");
        assert_eq!(csa_end_line(&csa), e.csa, "{}: {csa}", e.reason);
        if number == 4 {
            assert!(kif.contains("\n手合割：香落ち\n"), "{kif}");
            assert!(csa.contains("\nPI11KY\n-\n-3334FU\n"), "{csa}");
        }
        if number == 5 {
            assert!(
                kif.contains("   1 切れ負け     ( 0:00/00:00:00)\n"),
                "{kif}"
            );
            assert!(csa.contains("\nP+00KI\nP-\n+\n%TIME_UP\n"), "{csa}");
        }
    }
    let Some(chromium) = chromium() else {
        return;
    };
    let out = Command::new(crate::usi_support::BIN)
        .current_dir(&dir)
        .args(["report", "hand.jsonl", "-o", "hand.html"])
        .output()
        .unwrap();
    succeeded(&out);
    for number in 1..=games.len() {
        downloads_equal_convert(chromium, &dir, "hand.html", "hand.jsonl", number);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
