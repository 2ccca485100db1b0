//! The match's HTML page (`saikoro match --report`, `saikoro report`) parsed as a browser
//! parses it (html5ever, through `scraper`): real matches of Saikoro against itself and
//! against the fault engine, and the page's embedded data checked against the results file
//! and the block the match printed, each game's moves decoded here from the schema alone.

use crate::match_support;
use crate::usi_support;

use match_support::*;
use saikoro_core::{Move, Position, STARTPOS_SFEN};
use scraper::{Html, Selector};
use serde_json::Value;
use std::time::{Duration, Instant};
use usi_support::{Dir, BIN};

const EVIL_A: &str = "<img src=x onerror=alert(1)>";
const EVIL_B: &str = "</script><script>alert(1)</script>";

/// A page: the parsed document and its embedded data.
struct Page {
    doc: Html,
    data: Value,
}

fn select(s: &str) -> Selector {
    Selector::parse(s).unwrap()
}

impl Page {
    fn read(path: &std::path::Path) -> Page {
        let text = std::fs::read_to_string(path).unwrap();
        let doc = Html::parse_document(&text);
        let script = doc
            .select(&select("script#data"))
            .next()
            .expect("no <script id=data>");
        assert_eq!(script.value().attr("type"), Some("application/json"));
        let json: String = script.text().collect();
        let data = serde_json::from_str(&json).expect("the data is no JSON");
        Page { doc, data }
    }

    fn refreshes(&self) -> bool {
        self.doc
            .select(&select("meta[http-equiv=refresh]"))
            .next()
            .is_some()
    }

    fn games(&self) -> &Vec<Value> {
        self.data["games"].as_array().unwrap()
    }

    fn engine_name(&self, i: &Value) -> String {
        let i = i.as_u64().unwrap() as usize;
        self.data["engines"][i]["name"]
            .as_str()
            .unwrap()
            .to_string()
    }
}

const ALPHABET: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// A move of three base64url characters, most significant first, value `(from * 81 + to) *
/// 2 + promote`, a square `(file - 1) * 9 + (rank - 1)`, a drop's `from` `81 + k` with `k`
/// in P L N S G B R order.
fn three_characters(c: &[u8]) -> String {
    let digit = |c: u8| ALPHABET.find(c as char).expect("not base64url");
    let square = |i: usize| format!("{}{}", i / 9 + 1, (b'a' + (i % 9) as u8) as char);
    let v = digit(c[0]) * 4096 + digit(c[1]) * 64 + digit(c[2]);
    let (promote, v) = (v % 2 == 1, v / 2);
    let (from, to) = (v / 81, v % 81);
    if from >= 81 {
        assert!(!promote);
        let piece = "PLNSGBR".as_bytes()[from - 81] as char;
        format!("{piece}*{}", square(to))
    } else {
        let plus = if promote { "+" } else { "" };
        format!("{}{}{plus}", square(from), square(to))
    }
}

/// The schema's order of the legal moves: board moves by `(from * 81 + to) * 2 + promote`,
/// then drops by kind in P L N S B R G order, then square.
fn order_key(mv: &Move) -> (usize, usize) {
    match *mv {
        Move::Normal { from, to, promote } => (
            0,
            (from.index() * 81 + to.index()) * 2 + usize::from(promote),
        ),
        Move::Drop { kind, to } => {
            let k = "PLNSBRG".find(kind.sfen_letter()).unwrap();
            (1, k * 81 + to.index())
        }
    }
}

/// A game's `moves` decoded from the schema: `N:`, then the moves' indices among the legal
/// moves (the schema's order) as the digits of one mixed-radix number, least significant
/// first, in chunks of 8 base64url characters (most significant first; the last shorter),
/// a chunk ending where its radices' product would pass 2⁴⁸; a digit below `n + 1` for `n`
/// legal moves, `n` saying the move is none of them, and then, after a `.`, that move and
/// the rest in three characters each.
fn decode(moves: &str, opening: &str) -> Vec<String> {
    let (count, body) = moves.split_once(':').expect("no count");
    let count: usize = count.parse().unwrap();
    let (digits, raw) = body.split_once('.').unwrap_or((body, ""));
    let head = opening.split(" moves ").next().unwrap();
    let sfen = head.strip_prefix("sfen ").unwrap_or(STARTPOS_SFEN);
    let mut pos = (!body.starts_with('.')).then(|| Position::from_sfen(sfen).unwrap());
    let (mut at, mut value, mut scale) = (0, 0u128, 0u128);
    let mut raw = raw.as_bytes().chunks(3);
    let mut out = Vec::new();
    while out.len() < count {
        if let Some(p) = &mut pos {
            let mut legal: Vec<Move> = p.legal_moves().iter().copied().collect();
            legal.sort_by_key(order_key);
            let n = legal.len() as u128 + 1;
            if scale == 0 || scale * n > 1 << 48 {
                let len = 8.min(digits.len() - at);
                value = digits.as_bytes()[at..at + len].iter().fold(0, |v, &c| {
                    v * 64 + ALPHABET.find(c as char).unwrap() as u128
                });
                at += len;
                scale = 1;
            }
            let d = (value % n) as usize;
            value /= n;
            scale *= n;
            if d < legal.len() {
                out.push(legal[d].to_string());
                p.do_move(legal[d]);
                continue;
            }
            pos = None;
        }
        out.push(three_characters(raw.next().expect("moves end early")));
    }
    assert_eq!(at, digits.len(), "{moves}");
    assert!(raw.next().is_none(), "{moves}");
    out
}

/// The opening's own moves (`startpos moves 7g7f`).
fn opening_moves(opening: &str) -> Vec<String> {
    match opening.split_once(" moves ") {
        Some((_, m)) => m.split_whitespace().map(String::from).collect(),
        None => Vec::new(),
    }
}

/// The results line's `time_ms` of `side`.
fn time_ms(line: &str, side: &str) -> Option<u64> {
    let at = line.find("\"time_ms\":{")?;
    field(&line[at + 10..], side)?.parse().ok()
}

/// Every game of the page is the results file's line of that number: names, result, reason,
/// plies, times, and its moves decoded are the opening's and the line's.
fn games_equal_the_results(page: &Page, results: &[String]) {
    let games = page.games();
    assert_eq!(games.len(), results.len());
    for (g, line) in games.iter().zip(results) {
        let num = |k: &str| field(line, k).unwrap().parse::<u64>().unwrap();
        assert_eq!(g[0].as_u64(), Some(num("game")), "{line}");
        assert_eq!(g[1].as_u64(), Some(num("round")));
        assert_eq!(page.engine_name(&g[2]), field(line, "black").unwrap());
        assert_eq!(page.engine_name(&g[3]), field(line, "white").unwrap());
        let opening = g[4].as_str().unwrap();
        assert_eq!(g[5].as_str(), field(line, "result").as_deref());
        assert_eq!(g[6].as_str(), field(line, "reason").as_deref());
        assert_eq!(g[8].as_u64(), Some(num("plies")));
        assert_eq!(g[12].as_u64(), Some(num("opening_plies")));
        let mut expected = opening_moves(opening);
        assert_eq!(expected.len() as u64, num("opening_plies"));
        expected.extend(moves(line));
        assert_eq!(
            decode(g[9].as_str().unwrap(), opening),
            expected,
            "game {line}"
        );
        assert_eq!(g[10].as_u64(), time_ms(line, "black"));
        assert_eq!(g[11].as_u64(), time_ms(line, "white"));
        // The words its records end with: the CSA standard's end line for the reasons that
        // name no side (the others depend on who is to move at the end).
        let words = &page.data["records"]["ends"][g[13].as_u64().unwrap() as usize];
        let csa = match field(line, "reason").unwrap().as_str() {
            "mate" => Some("%TSUMI"),
            "resign" => Some("%TORYO"),
            "time" => Some("%TIME_UP"),
            "repetition" => Some("%SENNICHITE"),
            "max_plies" => Some("%MAX_MOVES"),
            "declaration" => Some("%KACHI"),
            "interrupted" => Some("%CHUDAN"),
            _ => None,
        };
        assert_eq!(words.as_array().map(Vec::len), Some(3), "{line}");
        if let Some(csa) = csa {
            assert_eq!(words[2].as_str(), Some(csa), "{line}");
        }
    }
}

/// The figures of a printed block's lines: `Games: N, Wins: W, Losses: L, Draws: D` and
/// `Ptnml(0-2): [a, b, c, d, e]`, `Elo: E +/- R`.
fn block_line<'a>(block: &'a str, prefix: &str) -> &'a str {
    block
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} in {block}"))
}

fn numbers(text: &str) -> Vec<f64> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter_map(|w| w.parse().ok())
        .collect()
}

/// A finished page of a two-engine match: the block is the last one the match printed, and
/// the standings and the pair counts say what its lines say.
fn figures_equal_the_block(page: &Page, printed: &str) {
    let block = page.data["block"].as_str().unwrap();
    assert!(
        printed.contains(&format!("{block}Played ")),
        "the page's block is not the match's last:\n{block}\n---\n{printed}"
    );
    let first = page.data["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["engine"] == 0)
        .unwrap();
    let g = numbers(block_line(block, "Games: "));
    let s = |k: &str| first[k].as_f64().unwrap();
    assert_eq!(
        [s("games"), s("w"), s("l"), s("d"), s("points")],
        [g[0], g[1], g[2], g[3], g[4]]
    );
    // A number, or `null` where the block prints `n/a`, `inf` or `-inf`.
    let elo = block_line(block, "Elo: ")["Elo: ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse::<f64>()
        .ok()
        .filter(|e| e.is_finite());
    assert_eq!(first["elo"].as_f64(), elo, "{block}");
    if let Some(line) = block.lines().find(|l| l.starts_with("Ptnml(0-2): ")) {
        let p = numbers(&line[..line.find(']').unwrap()]);
        let penta: Vec<f64> = page.data["pairs"][0]["penta"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        // (`0-2` in the prefix is no number.)
        assert_eq!(penta, p);
    }
}

/// A page that has finished: no reload, the end time, the match's last line as a note.
fn finished(page: &Page, last_line: &str) {
    assert_eq!(page.data["finished"], true);
    assert!(!page.refreshes());
    assert!(page.data["ended"].is_string());
    let notes = page.data["notes"].as_array().unwrap();
    assert!(
        notes
            .iter()
            .any(|n| n.as_str().unwrap().starts_with(last_line)),
        "{notes:?}"
    );
}

/// The results file's games and the page, made again by `saikoro report` from the results
/// and the state: the same figures and games.
fn report_again(dir: &Dir) -> Page {
    let r = usi_support::finish(
        usi_support::start_in(
            std::path::Path::new(&*BIN),
            dir,
            &words("report results.jsonl --state state -o again.html"),
        ),
        Instant::now(),
        DEADLINE,
    );
    assert!(r.status.success(), "{}", r.err);
    Page::read(&dir.path("again.html"))
}

/// The pages `saikoro report` makes without the state: from the results file as the match
/// wrote it, the live page's figures and settings (those its first line carries); from the
/// same games without their settings (as a file written before they were kept), the schedule
/// told from the games, so the same counts, and the block without the time control in its
/// heading.
fn report_without_state(dir: &Dir, with: &Page) {
    let r = report(dir, "report results.jsonl -o alone.html");
    assert!(r.status.success(), "{}", r.err);
    same_figures(with, &Page::read(&dir.path("alone.html")));
    write_results_without_settings(dir);
    let r = report(dir, "report bare.jsonl -o bare.html");
    assert!(r.status.success(), "{}", r.err);
    let bare = Page::read(&dir.path("bare.html"));
    for k in ["standings", "pairs", "games", "sprt"] {
        assert_eq!(bare.data[k], with.data[k], "{k}");
    }
    let heading = |p: &Page| -> Vec<String> {
        let block = p.data["block"].as_str().unwrap();
        block
            .lines()
            .filter(|l| !l.starts_with("Results of "))
            .map(String::from)
            .collect()
    };
    assert_eq!(heading(&bare), heading(with));
    assert_eq!(bare.data["settings"]["rounds"], Value::Null);
}

/// Plays the match of `parts` with `--report r.html` in a new directory `name`; it must
/// succeed. Returns the directory, the run and the page.
fn play(name: &str, parts: &[Vec<String>]) -> (Dir, usi_support::Run, Page) {
    let dir = Dir::new(name);
    let mut args = cat(parts);
    args.extend(words("--report r.html"));
    let r = run(&dir, &args);
    assert!(r.status.success(), "{}", r.err);
    let page = Page::read(&dir.path("r.html"));
    (dir, r, page)
}

fn same_figures(a: &Page, b: &Page) {
    for k in ["block", "standings", "pairs", "games", "sprt", "engines"] {
        assert_eq!(a.data[k], b.data[k], "{k}");
    }
    // The state keeps every setting but --concurrency.
    let mut settings = a.data["settings"].clone();
    settings["concurrency"] = Value::Null;
    assert_eq!(settings, b.data["settings"]);
    assert_eq!(a.data["command"], b.data["command"]);
}

#[test]
fn two_engines_named_with_markup() {
    let (dir, r, page) = play(
        "page-two",
        &[
            saikoro(EVIL_A, 1),
            saikoro(EVIL_B, 2),
            words("--each depth=1 --rounds 3 --games 2 --maxplies 80"),
        ],
    );
    let results = results(&dir);
    games_equal_the_results(&page, &results);
    figures_equal_the_block(&page, &r.out);
    finished(&page, "Match finished");
    // The names are text: no element made of them, only the page's two scripts.
    assert_eq!(page.doc.select(&select("img")).count(), 0);
    assert_eq!(page.doc.select(&select("script")).count(), 2);
    assert_eq!(page.data["engines"][0]["name"], EVIL_A);
    assert_eq!(page.data["engines"][1]["name"], EVIL_B);
    assert_eq!(
        page.data["engines"][0]["options"],
        serde_json::json!([["Seed", "1"]])
    );
    let title: String = page
        .doc
        .select(&select("title"))
        .next()
        .unwrap()
        .text()
        .collect();
    assert_eq!(title, format!("Match: {EVIL_A} vs {EVIL_B}"));
    let s = &page.data["settings"];
    assert_eq!(
        (s["rounds"].as_u64(), s["games"].as_u64()),
        (Some(3), Some(2))
    );
    assert_eq!(s["tc"], "depth=1");
    assert!(page.data["command"]
        .as_str()
        .unwrap()
        .starts_with("saikoro match --engine "));
    same_figures(&page, &report_again(&dir));
    report_without_state(&dir, &page);
}

#[test]
fn three_engines_have_the_fields_table() {
    let (dir, r, page) = play(
        "page-three",
        &[
            saikoro("a", 1),
            saikoro("b", 2),
            saikoro("c", 3),
            // Games end out of their order: the schedule is told all the same.
            words("--each depth=1 --rounds 2 --games 2 --maxplies 40 --concurrency 2"),
        ],
    );
    games_equal_the_results(&page, &results(&dir));
    finished(&page, "Match finished");
    let block = page.data["block"].as_str().unwrap();
    assert!(r.out.contains(&format!("{block}Played ")));
    assert!(block.contains("Standings ("), "{block}");
    assert_eq!(page.data["standings"].as_array().unwrap().len(), 3);
    let pairs = page.data["pairs"].as_array().unwrap();
    let ab: Vec<(u64, u64)> = pairs
        .iter()
        .map(|p| (p["a"].as_u64().unwrap(), p["b"].as_u64().unwrap()))
        .collect();
    assert_eq!(ab, [(0, 1), (0, 2), (1, 2)]);
    // Each engine played 8 games (2 rounds × 2 games × 2 opponents); the field's points add
    // up to the games played (12).
    let st = page.data["standings"].as_array().unwrap();
    assert!(st.iter().all(|s| s["games"] == 8));
    let points: f64 = st.iter().map(|s| s["points"].as_f64().unwrap()).sum();
    assert_eq!(points, 12.0);
    same_figures(&page, &report_again(&dir));
    report_without_state(&dir, &page);
}

/// An engine that always resigns: the SPRT accepts H1, and the page says where it stopped.
#[test]
fn an_sprt_that_stops() {
    let (dir, r, page) = play(
        "page-sprt",
        &[
            saikoro("strong", 1),
            faulty("weak", &["resign"]),
            words("--each depth=1 --rounds 200 --sprt elo0=0 elo1=10 --ratinginterval 4"),
        ],
    );
    let results = results(&dir);
    games_equal_the_results(&page, &results);
    figures_equal_the_block(&page, &r.out);
    finished(&page, "Match finished: SPRT");
    let sprt = &page.data["sprt"];
    assert_eq!(sprt["result"], "H1");
    assert_eq!(sprt["stopped_at"].as_u64(), Some(results.len() as u64));
    // ln((1 - β)/α) with α = β = 0.05: 2.944…, as the block prints it.
    assert_eq!(sprt["upper"].as_f64(), Some(2.94));
    let llr = numbers(block_line(page.data["block"].as_str().unwrap(), "LLR: "))[0];
    assert_eq!(sprt["llr"].as_f64(), Some(llr));
    // A point every 4 games, each with the LLR, then the last block's.
    let series = page.data["series"].as_array().unwrap();
    assert!(!series.is_empty());
    for (i, p) in series[..series.len() - 1].iter().enumerate() {
        assert_eq!(p[0].as_u64(), Some(4 * (i as u64 + 1)));
        assert!(p[4].is_number());
    }
    assert_eq!(series.last().unwrap()[4].as_f64(), Some(llr));
    same_figures(&page, &report_again(&dir));
}

/// `--games 3`: the third game of each round has no partner; the fault engine's `first`
/// plays the same game every time: repeated games.
#[test]
fn unpaired_and_repeated_games() {
    let (dir, r, page) = play(
        "page-unpaired",
        &[
            faulty("x", &["first"]),
            faulty("y", &["first"]),
            words("--each depth=1 --rounds 2 --games 3 --maxplies 30"),
        ],
    );
    games_equal_the_results(&page, &results(&dir));
    figures_equal_the_block(&page, &r.out);
    let block = page.data["block"].as_str().unwrap();
    let pair = &page.data["pairs"][0];
    // `N of 6 games unpaired`, `K of 6 games repeated` in the block.
    let unpaired = numbers(block_line(
        block,
        &format!("{} of 6 games unpaired", pair["unpaired"]),
    ));
    assert_eq!(unpaired[0], pair["unpaired"].as_f64().unwrap());
    assert!(pair["repeated"].as_u64().unwrap() > 0);
    let repeated = results(&dir)
        .iter()
        .filter(|l| l.contains("\"repeats\":"))
        .count();
    assert_eq!(pair["repeated"].as_u64(), Some(repeated as u64));
    let notes: Vec<&str> = page.data["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert!(
        notes.iter().any(|n| n.contains("games unpaired")),
        "{notes:?}"
    );
    assert!(
        notes.iter().any(|n| n.contains("games repeated")),
        "{notes:?}"
    );
    same_figures(&page, &report_again(&dir));
    report_without_state(&dir, &page);
}

/// An engine that crashes in every game: the match stops, and the page says why.
#[test]
fn a_crash_ends_the_page() {
    let dir = Dir::new("page-crash");
    let args = cat(&[
        saikoro("ok", 1),
        faulty("crasher", &["crash@2"]),
        words("--each depth=1 --rounds 3 --games 2 --max-failures 2 --report r.html"),
    ]);
    let r = run(&dir, &args);
    assert_eq!(r.status.code(), Some(1), "{}\n{}", r.out, r.err);
    let page = Page::read(&dir.path("r.html"));
    let results = results(&dir);
    games_equal_the_results(&page, &results);
    finished(&page, "Match stopped: ");
    assert!(page.games().iter().any(|g| g[6] == "crash"));
    figures_equal_the_block(&page, &r.out);
}

/// A slow match: the page is there with no game before the first ends, it shows games while
/// the match runs (reloading itself), and it is finished once the match is.
#[test]
fn the_page_is_live() {
    let dir = Dir::new("page-live");
    let args = cat(&[
        faulty("s1", &["slow=60"]),
        faulty("s2", &["slow=60"]),
        words("--each depth=1 --rounds 2 --games 2 --maxplies 24 --ratinginterval 1"),
        words("--report r.html --results results.jsonl --state state"),
    ]);
    let mut child = start(&dir, &args);
    let path = dir.path("r.html");
    let deadline = Instant::now() + DEADLINE;
    let (mut seen_empty, mut seen_running_games) = (false, false);
    while Instant::now() < deadline && child.try_wait().unwrap().is_none() {
        if path.exists() {
            let page = Page::read(&path);
            if page.data["finished"] == false {
                assert!(page.refreshes());
                assert!(page.data["ended"].is_null());
                match page.games().len() {
                    0 => seen_empty = true,
                    _ => seen_running_games = true,
                }
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let r = finish(child);
    assert!(r.status.success(), "{}", r.err);
    assert!(seen_empty, "no page without games was seen");
    assert!(
        seen_running_games,
        "no page of the running match with games"
    );
    let page = Page::read(&path);
    finished(&page, "Match finished");
    games_equal_the_results(&page, &results(&dir));
    // Written aside and renamed: nothing left beside it.
    assert!(!dir.path("r.html.tmp").exists());
}

/// A new match does not write over a file that is not a page, nor over another match's page,
/// unless --overwrite; a page of no game is written over.
#[test]
fn an_existing_file_is_refused_a_page_is_written_again() {
    let dir = Dir::new("page-used");
    dir.write("r.html", "<p>mine</p>");
    let args = cat(&[
        saikoro("a", 1),
        saikoro("b", 2),
        words("--each depth=1 --rounds 1 --games 2 --maxplies 10 --report r.html"),
    ]);
    let r = run(&dir, &args);
    assert_eq!(r.status.code(), Some(1), "{}", r.err);
    assert!(r.err.contains("--report"), "{}", r.err);
    assert_eq!(dir.read("r.html"), "<p>mine</p>");
    let mut again = args.clone();
    again.push("--overwrite".into());
    let r = run(&dir, &again);
    assert!(r.status.success(), "{}", r.err);
    assert_eq!(Page::read(&dir.path("r.html")).games().len(), 2);
    let page = dir.read("r.html");
    // Another match, its own results and state, the same page: refused, the page kept.
    let mut next = args.clone();
    next.extend(words("--rounds 2 --results r2.jsonl --state s2"));
    let r = finish(start(&dir, &next));
    assert_eq!(r.status.code(), Some(1), "{}", r.err);
    assert!(
        r.err.contains(
            "--report r.html already holds the page of another match (a vs b, 2 games); to go \
             on with that match use --resume"
        ),
        "{}",
        r.err
    );
    assert_eq!(dir.read("r.html"), page);
    next.push("--overwrite".into());
    let r = finish(start(&dir, &next));
    assert!(r.status.success(), "{}", r.err);
    assert_eq!(Page::read(&dir.path("r.html")).games().len(), 4);
}

fn report(dir: &Dir, args: &str) -> usi_support::Run {
    usi_support::finish(
        usi_support::start_in(std::path::Path::new(&*BIN), dir, &words(args)),
        Instant::now(),
        DEADLINE,
    )
}

/// `saikoro report`: a file that is missing or holds no results is an input error (status
/// 1); one with no game yet gives a page of no game, which says so.
#[test]
fn report_inputs() {
    let dir = Dir::new("page-inputs");
    let r = report(&dir, "report missing.jsonl");
    assert_eq!(r.status.code(), Some(1), "{}", r.err);
    assert!(r.err.contains("missing.jsonl"), "{}", r.err);
    dir.write("garbage.jsonl", "{\"game\":1}\nnot json\n");
    let r = report(&dir, "report garbage.jsonl");
    assert_eq!(r.status.code(), Some(1), "{}", r.err);
    assert!(r.err.contains("line 1"), "{}", r.err);
    dir.write("empty.jsonl", "");
    let r = report(&dir, "report empty.jsonl -o empty.html");
    assert!(r.status.success(), "{}", r.err);
    let page = Page::read(&dir.path("empty.html"));
    assert!(page.games().is_empty());
    assert_eq!(page.data["finished"], true);
    assert!(page.data["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n == "No game has been counted yet."));
    let r = report(&dir, "report");
    assert_eq!(r.status.code(), Some(2), "{}", r.err);
}

/// `saikoro report`'s page never goes onto a file it reads (the results, the state given or
/// found beside them), nor onto a file that is not a page without `--force`; a page of its
/// own is written again; without `-o` it says where it wrote.
#[test]
fn report_writes_over_no_input_and_no_other_file() {
    let (dir, _, _) = play(
        "page-outputs",
        &[
            saikoro("a", 1),
            saikoro("b", 2),
            words("--each depth=1 --rounds 1 --maxplies 40"),
        ],
    );
    let live = Page::read(&dir.path("r.html"));
    assert_eq!(live.data["title"], "Match: a vs b");
    // The state under the runner's default name too, where `saikoro report` looks for it.
    std::fs::copy(dir.path("state"), dir.path("saikoro-match.state")).unwrap();
    let results = dir.read("results.jsonl");
    let state = dir.read("saikoro-match.state");
    assert!(!results.is_empty() && !state.is_empty());
    let refused = |args: &str, says: &str| {
        let r = report(&dir, args);
        assert_eq!(r.status.code(), Some(1), "{args}: {}", r.err);
        assert!(r.err.contains(says), "{args}: {}", r.err);
        assert_eq!(dir.read("results.jsonl"), results, "{args}");
        assert_eq!(dir.read("saikoro-match.state"), state, "{args}");
    };
    let reads = "which this command reads";
    refused("report results.jsonl -o results.jsonl", reads);
    refused("report results.jsonl -o ./results.jsonl --force", reads);
    refused("report results.jsonl -o saikoro-match.state --force", reads);
    refused(
        "report results.jsonl --state state -o ./state --force",
        reads,
    );
    // A results file named .html: the default page would be the file itself.
    dir.write("old.html", &results);
    let r = report(&dir, "report old.html");
    assert_eq!(r.status.code(), Some(1), "{}", r.err);
    assert!(r.err.contains(reads), "{}", r.err);
    assert_eq!(dir.read("old.html"), results);
    // Someone else's file: kept, unless --force.
    dir.write("notes.html", "my notes");
    refused(
        "report results.jsonl -o notes.html",
        "the file exists and is not a report page; give another file, or --force to replace it",
    );
    assert_eq!(dir.read("notes.html"), "my notes");
    let r = report(&dir, "report results.jsonl -o notes.html --force");
    assert!(r.status.success(), "{}", r.err);
    assert_eq!(Page::read(&dir.path("notes.html")).games().len(), 2);
    // The match's own live page is a page of the same match: replaced.
    let r = report(&dir, "report results.jsonl -o r.html");
    assert!(r.status.success(), "{}", r.err);
    // The page of another match's results: kept, unless --force.
    let other = finish(start(
        &dir,
        &cat(&[
            saikoro("c", 3),
            saikoro("d", 4),
            words("--each depth=1 --rounds 1 --maxplies 20 --results other.jsonl --state s2"),
        ]),
    ));
    assert!(other.status.success(), "{}", other.err);
    let before = dir.read("r.html");
    refused(
        "report other.jsonl -o r.html",
        "-o r.html already holds the page of another match (a vs b, 2 games); to keep it give \
         another file, or --force to replace it",
    );
    assert_eq!(dir.read("r.html"), before);
    // Another match's state for these results: refused, naming both.
    refused(
        "report results.jsonl --state s2 -o x.html",
        "--state s2 holds a finished match of c vs d (2 games), not the match of RESULTS \
         results.jsonl, which holds the games of a vs b (2 games)",
    );
    assert!(!dir.path("x.html").exists());
    // The default page, beside the results: where it went is said; written again over itself.
    for _ in 0..2 {
        let r = report(&dir, "report results.jsonl");
        assert!(r.status.success(), "{}", r.err);
        assert!(r.err.contains("wrote results.html"), "{}", r.err);
        assert_eq!(Page::read(&dir.path("results.html")).games().len(), 2);
    }
    // Its title is the live page's: the engines, not the file's name.
    let made = Page::read(&dir.path("results.html"));
    assert_eq!(made.data["title"], live.data["title"]);
    let r = report(&dir, "report results.jsonl -o missing/page.html");
    assert_eq!(r.status.code(), Some(1), "{}", r.err);
    assert!(r.err.contains("no such directory: missing"), "{}", r.err);
}

/// Ctrl-C: the running game ends normally, and the page is finished with the match's last
/// line; `--resume` goes on with the same page, the earlier games in it.
#[cfg(unix)]
#[test]
fn an_interrupted_match_and_its_resumption() {
    let dir = Dir::new("page-interrupt");
    let args = cat(&[
        faulty("a", &["slow=3"]),
        faulty("b", &["slow=3"]),
        words("--each depth=1 --rounds 6 --maxplies 100 --report r.html"),
        words("--results results.jsonl --state state"),
    ]);
    let child = start(&dir, &args);
    let t = Instant::now();
    while results(&dir).is_empty() {
        assert!(t.elapsed() < DEADLINE, "no game finished");
        std::thread::sleep(Duration::from_millis(2));
    }
    let ok = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let r = finish(child);
    assert_eq!(r.status.code(), Some(130), "{}\n{}", r.out, r.err);
    let page = Page::read(&dir.path("r.html"));
    finished(&page, "Match interrupted");
    let played = results(&dir);
    assert!(played.len() < 12);
    games_equal_the_results(&page, &played);
    figures_equal_the_block(&page, &r.out);
    resumed_to_its_end(&dir, 12);
}

/// `--resume` of the match in `dir` plays it to its end: the page is finished with all its
/// `games`, those of the results file, and the block the match printed last.
#[cfg(unix)]
fn resumed_to_its_end(dir: &Dir, games: usize) {
    let r = finish(start(dir, &words("--resume --state state")));
    assert!(r.status.success(), "{}", r.err);
    let page = Page::read(&dir.path("r.html"));
    finished(&page, "Match finished");
    let all = results(dir);
    assert_eq!(all.len(), games);
    games_equal_the_results(&page, &all);
    figures_equal_the_block(&page, &r.out);
}

/// `--engine` words for the fault engine with `faults`, writing each start's process id to
/// `pids`.
#[cfg(unix)]
fn counted_engine(name: &str, faults: &[&str], pids: &std::path::Path) -> Vec<String> {
    let mut args = format!("--seed 3 --pid-file {}", pids.display());
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

/// The engines of `pids` still alive 3 s after their tool ended (a kill takes effect at once;
/// the wait is for a slow machine).
#[cfg(unix)]
fn survivors(pids: &std::path::Path) -> Vec<u32> {
    let until = Instant::now() + Duration::from_secs(3);
    loop {
        let alive: Vec<u32> = std::fs::read_to_string(pids)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .filter(|&p| !usi_support::gone(p))
            .collect();
        if alive.is_empty() || Instant::now() >= until {
            return alive;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A slow match of `rounds` game pairs ended by `signal` (`SIGTERM`) once its page shows a
/// game: the tool exits with `status` (128 + the signal's number), its engines end with it,
/// and the page is finished — no reload, the end time, a note naming the signal — with the
/// games of the results file. Returns the match's directory.
#[cfg(unix)]
fn ended_by_a_signal(name: &str, signal: &str, status: i32, rounds: usize) -> Dir {
    let dir = Dir::new(name);
    let pids = dir.path("pids");
    let args = cat(&[
        counted_engine("a", &["slow=3"], &pids),
        counted_engine("b", &["slow=3"], &pids),
        words(&format!(
            "--each depth=1 --rounds {rounds} --maxplies 100 --ratinginterval 1"
        )),
        words("--report r.html --results results.jsonl --state state"),
    ]);
    let games = 2 * rounds;
    let child = start(&dir, &args);
    let path = dir.path("r.html");
    let t = Instant::now();
    // The page is written aside and renamed: whenever it is there, it is whole.
    while !path.exists() || Page::read(&path).games().is_empty() {
        assert!(t.elapsed() < DEADLINE, "no page with a game");
        assert!(results(&dir).len() < games, "the match ended first");
        std::thread::sleep(Duration::from_millis(10));
    }
    let running = Page::read(&path);
    assert_eq!(running.data["finished"], false);
    assert!(running.refreshes());
    let ok = std::process::Command::new("kill")
        .args([&format!("-{}", &signal[3..]), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let r = finish(child);
    assert_eq!(r.status.code(), Some(status), "{}\n{}", r.out, r.err);
    assert_eq!(
        survivors(&pids),
        Vec::<u32>::new(),
        "engines outlived the tool"
    );
    let page = Page::read(&path);
    finished(
        &page,
        &format!("Match ended by {signal} (exit status {status})"),
    );
    let played = results(&dir);
    assert!(
        !played.is_empty() && played.len() < games,
        "{}",
        played.len()
    );
    games_equal_the_results(&page, &played);
    // The figures count every game of the results file: a win, loss or draw each.
    let counted: f64 = page.data["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["engine"] == 0)
        .map(|s| s["games"].as_f64().unwrap())
        .unwrap();
    assert_eq!(counted, played.len() as f64);
    assert!(!dir.path("r.html.tmp").exists());
    // The page `saikoro report` makes of the results and the state has the same figures.
    same_figures(&page, &report_again(&dir));
    dir
}

/// A service manager or a farm's worker stops a runner with SIGTERM.
#[cfg(unix)]
#[test]
fn sigterm_finishes_the_page() {
    ended_by_a_signal("page-sigterm", "SIGTERM", 143, 50);
}

/// The terminal of the runner closed; `--resume` then plays the games that were not
/// finished (none was counted), and the page is the whole match's.
#[cfg(unix)]
#[test]
fn sighup_finishes_the_page_and_the_match_resumes() {
    let dir = ended_by_a_signal("page-sighup", "SIGHUP", 129, 10);
    resumed_to_its_end(&dir, 20);
}
