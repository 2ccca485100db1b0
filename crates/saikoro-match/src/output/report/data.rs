//! The data a report page embeds, as one JSON object (the page's script reads nothing else):
//!
//! ```text
//! { "title": str, "finished": bool, "version": str, "command": str,
//!   "started": str|null, "updated": str, "ended": str|null,        (UTC, 2026-12-03T08:40:00Z)
//!   "settings": {"tc": str, "openings": str|null, "rounds": int|null, "games": int|null,
//!                "concurrency": int|null, "seed": str|null, "maxplies": int|null,
//!                "adjudication": str|null},
//!   "engines": [{"name": str, "cmd": str|null, "options": [[name, value], …]}],
//!   "block": str,                                   (the statistics block the match prints)
//!   "standings": [{"engine": int, "games", "w", "l", "d": int, "points": number,
//!                  "elo", "elo_err", "nelo", "nelo_err": figure}],
//!   "pairs": [{"a": int, "b": int, "penta": [LL, LD, DD+WL, WD, WW], "unpaired": int,
//!              "repeated": int}],
//!   "series": [[games, elo, lo, hi, llr], …],       (figures; at most 500 points)
//!   "sprt": null | {"elo0", "elo1", "alpha", "beta": number, "lower", "upper", "llr": figure,
//!                   "result": "H0"|"H1"|null, "stopped_at": int|null},
//!   "notes": [str],
//!   "records": {"event": str, "handicaps": [[name, sfen], …],
//!               "ends": [[kif_word, kif_summary, csa_line], …]},
//!   "games": [[number, round, black, white, opening, result, reason, detail, plies, moves,
//!              time_black_ms|null, time_white_ms|null, opening_plies, end], …] }
//! ```
//!
//! Engines are indices into `engines`. A game's `opening` is the results file's text
//! (`startpos`, `sfen …`, either perhaps with `moves …`); its `moves` are every move from
//! the opening's start position, the opening's own `opening_plies` first, then the engines'
//! (`plies` of them), each as its index among the legal moves of its position
//! ([`encode_game`]). A `figure` is written with the two decimals the printed block shows it
//! with; one the block prints as `inf` or `-inf` is the string `"inf"` or `"-inf"` (JSON has
//! no infinity), one it prints as `n/a` is `null`.
//!
//! `records` holds what the page's KIF and CSA downloads take from the record writers' tables,
//! so that a download is, byte for byte, what `saikoro record convert` writes of that game from
//! the results file: the records' event (`棋戦`, `$EVENT`), the handicaps a KIF record names
//! by their `手合割` (each with its SFEN), and the words each way the games end is written with
//! (`record::form::end_words`: `["投了", "先手の勝ち", "%TORYO"]`), each once; a game's `end`
//! is its index there.
//!
//! The text is written through serde ([`PageData::json_parts`]): the types below derive their
//! members in the schema's order. Figures are the numbers the block prints, written as
//! serde_json writes a number (`12.3` for the block's `12.30`, `5.0` for an SPRT bound set as
//! `5`): the same values. The whole text is escaped for a `<script>` element by the writer
//! ([`ScriptFormatter`]): `<`, `>`, `&`, U+2028 and U+2029 only ever occur in strings, and
//! there they are `\u` escapes.

use crate::output::records::EVENT;
use saikoro_core::{Color, PieceType};
use saikoro_core::{Move, MoveList, Position};
use saikoro_record::form::end_words;
use saikoro_record::japanese::HANDICAPS;
use saikoro_record::Ending;
use serde::{Serialize, Serializer};
use std::io;
use std::time::{SystemTime, UNIX_EPOCH};

/// The match's settings as the page shows them; `None` where unknown (a report made from a
/// results file without its state).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Settings {
    /// The time control (`10+0.1`; `a vs b` when the engines' differ).
    pub tc: String,
    /// The openings file.
    pub openings: Option<String>,
    /// `--rounds`.
    pub rounds: Option<u64>,
    /// `--games`.
    pub games: Option<u64>,
    /// `--concurrency`.
    pub concurrency: Option<u64>,
    /// The seed of the opening order.
    pub seed: Option<String>,
    /// `--maxplies`.
    pub maxplies: Option<u64>,
    /// `--draw` and `--resign`, as their words.
    pub adjudication: Option<String>,
}

/// One engine.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct EngineEntry {
    /// Its name, as the match's output shows it.
    pub name: String,
    /// Its command line, when known.
    pub cmd: Option<String>,
    /// The options it was given (`option.NAME=VALUE`), in order.
    pub options: Vec<(String, String)>,
}

/// One engine's row of the standings.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Standing {
    /// Its index in the engines.
    pub engine: usize,
    /// Games counted.
    pub games: u64,
    /// Wins, losses, draws.
    pub w: u64,
    /// Losses.
    pub l: u64,
    /// Draws.
    pub d: u64,
    /// Points (a win 1, a draw ½).
    pub points: f64,
    /// Elo and its 95 % error; `None` where the block prints `n/a`, ±∞ where it prints `inf`
    /// or `-inf`.
    #[serde(serialize_with = "figure")]
    pub elo: Option<f64>,
    /// The Elo's error.
    #[serde(serialize_with = "figure")]
    pub elo_err: Option<f64>,
    /// Normalised Elo.
    #[serde(serialize_with = "figure")]
    pub nelo: Option<f64>,
    /// Its error.
    #[serde(serialize_with = "figure")]
    pub nelo_err: Option<f64>,
}

/// One pairing's game-pair counts, from its first engine's (`a`'s) point of view.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PairCounts {
    /// The first engine.
    pub a: usize,
    /// The second.
    pub b: usize,
    /// LL, LD, DD + WL, WD, WW.
    pub penta: [u64; 5],
    /// Games counted on their own (without a colour-swapped partner).
    pub unpaired: u64,
    /// Games that repeated an earlier one move for move.
    pub repeated: u64,
}

/// The estimate once `games` games were counted: Elo with its interval, and the LLR.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SeriesPoint {
    /// Games counted.
    pub games: u64,
    /// The Elo.
    pub elo: Option<f64>,
    /// The lower end of its interval.
    pub lo: Option<f64>,
    /// The upper end.
    pub hi: Option<f64>,
    /// The SPRT's LLR, with `--sprt`.
    pub llr: Option<f64>,
}

/// The points of the plots, thinned evenly to at most [`Series::MAX`]: every point kept sits
/// at a multiple of the same stride of the points offered, and the last one offered is always
/// there.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    kept: Vec<SeriesPoint>,
    /// Points offered so far.
    offered: u64,
    /// Every `stride`-th offered point is kept.
    stride: u64,
    /// The last point offered, when it was not kept.
    last: Option<SeriesPoint>,
}

impl Series {
    /// At most this many points.
    pub const MAX: usize = 500;

    /// Offers the next point.
    pub fn push(&mut self, p: SeriesPoint) {
        let stride = self.stride.max(1);
        let i = self.offered;
        self.offered += 1;
        if !i.is_multiple_of(stride) {
            self.last = Some(p);
            return;
        }
        self.last = None;
        self.kept.push(p);
        if self.kept.len() > Self::MAX {
            // Keep every other point: those at multiples of the doubled stride.
            let mut k = 0;
            self.kept.retain(|_| {
                k += 1;
                k % 2 == 1
            });
            self.stride = stride * 2;
        }
    }

    /// The points, in order (at most [`Series::MAX`] + 1, the last offered among them).
    pub fn points(&self) -> impl Iterator<Item = &SeriesPoint> {
        self.kept.iter().chain(self.last.as_ref())
    }
}

/// `[[games, elo, lo, hi, llr|null], …]`.
impl Serialize for Series {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.points())
    }
}

/// `[games, elo, lo, hi, llr]`, each figure as the block prints it (a number, `"inf"`,
/// `"-inf"` or `null`).
impl Serialize for SeriesPoint {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let f = Figure;
        (self.games, f(self.elo), f(self.lo), f(self.hi), f(self.llr)).serialize(s)
    }
}

/// The SPRT's settings (exactly) and state (as the block prints it).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SprtState {
    /// H0's Elo.
    pub elo0: f64,
    /// H1's Elo.
    pub elo1: f64,
    /// The error rates.
    pub alpha: f64,
    /// β.
    pub beta: f64,
    /// The LLR's bounds.
    #[serde(serialize_with = "figure_of")]
    pub lower: f64,
    /// The upper bound.
    #[serde(serialize_with = "figure_of")]
    pub upper: f64,
    /// The LLR now.
    #[serde(serialize_with = "figure_of")]
    pub llr: f64,
    /// `H0` or `H1` once a bound is crossed.
    pub result: Option<&'static str>,
    /// The games counted when the SPRT stopped the match.
    pub stopped_at: Option<u64>,
}

/// One game's row.
#[derive(Clone, Copy, Debug)]
pub struct GameRow<'a> {
    /// Its number.
    pub number: u64,
    /// Its round.
    pub round: u64,
    /// Black's engine (index).
    pub black: usize,
    /// White's engine.
    pub white: usize,
    /// The opening, as the results file writes it.
    pub opening: &'a str,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'a str,
    /// Why it ended (the results file's word).
    pub reason: &'a str,
    /// The end in words.
    pub detail: &'a str,
    /// The engines' plies.
    pub plies: u64,
    /// Every move from the opening's start position, encoded ([`encode_game`]).
    pub moves: &'a str,
    /// Each side's thinking time, when known.
    pub time_ms: Option<(u64, u64)>,
    /// The opening's own plies (the first of `moves`).
    pub opening_plies: u64,
    /// How it ends in its record (`tournament::game::result::ending`).
    pub end: Ending,
    /// The side to move at its end.
    pub next: Color,
    /// Whether it starts from a handicap (a `手合割` other than 平手): its KIF record names
    /// the players 下手 and 上手.
    pub handicap: bool,
}

/// The games' rows, kept as JSON text (escaped for the page) as the games come, so that a
/// page with 10,000 games is written without formatting a game again.
#[derive(Clone, Debug, Default)]
pub struct Games {
    text: Vec<u8>,
    count: usize,
    /// The words of each way the games end (`end_words`), in the order first seen: a row holds
    /// its index. The key is the ending they are the words of; none for words taken from an
    /// earlier page ([`Games::push_earlier`]).
    ends: Vec<(Option<EndKey>, [String; 3])>,
}

/// What an end's words depend on: how the game ended, the side to move then, and whether it
/// started from a handicap.
type EndKey = (Ending, Color, bool);

impl Games {
    /// Adds a game.
    pub fn push(&mut self, g: &GameRow<'_>) {
        if self.count > 0 {
            self.text.push(b',');
        }
        self.count += 1;
        let key = Some((g.end, g.next, g.handicap));
        let end = match self.ends.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                self.ends.push((key, end_words(g.end, g.next, g.handicap)));
                self.ends.len() - 1
            }
        };
        let (time_black, time_white) = g.time_ms.unzip();
        let row = GameJson(
            g.number,
            g.round,
            g.black,
            g.white,
            g.opening,
            g.result,
            g.reason,
            g.detail,
            g.plies,
            g.moves,
            time_black,
            time_white,
            g.opening_plies,
            end,
        );
        script_json(&mut self.text, &row);
    }

    /// Adds the games of an earlier page of the same match, as its data holds them (`games`,
    /// each row with the index of its end's words in `ends`): a resumed match without a
    /// results file keeps the rows of the games played before it stopped. Returns how many
    /// rows were taken; a row that is not one of the page's is left out.
    pub fn push_earlier(&mut self, games: &[serde_json::Value], ends: &[[String; 3]]) -> usize {
        let mut taken = 0;
        for row in games {
            let Some(mut row) = row.as_array().filter(|r| r.len() == 14).cloned() else {
                continue;
            };
            let Some(words) = row[13].as_u64().and_then(|k| ends.get(k as usize)) else {
                continue;
            };
            let end = match self.ends.iter().position(|(_, w)| w == words) {
                Some(i) => i,
                None => {
                    self.ends.push((None, words.clone()));
                    self.ends.len() - 1
                }
            };
            row[13] = end.into();
            if self.count > 0 {
                self.text.push(b',');
            }
            self.count += 1;
            script_json(&mut self.text, &row);
            taken += 1;
        }
        taken
    }

    /// The length of their JSON text.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    /// The games added.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// Everything the page shows.
#[derive(Clone, Debug, Default)]
pub struct PageData {
    /// The page's title.
    pub title: String,
    /// The id of the match whose page it is (the state's and the results' lines'), in the
    /// page's head: whose page it is, for the rule of every output (docs/files.md).
    pub match_id: Option<String>,
    /// Whether the match has ended (the page then stops reloading itself).
    pub finished: bool,
    /// Saikoro's version.
    pub version: String,
    /// The match's command line, quoted as a shell reads it.
    pub command: String,
    /// When the match started (UTC, [`utc_text`]).
    pub started: Option<String>,
    /// When the page was written.
    pub updated: String,
    /// When the match ended.
    pub ended: Option<String>,
    /// The settings.
    pub settings: Settings,
    /// The engines.
    pub engines: Vec<EngineEntry>,
    /// The statistics block, as the match prints it.
    pub block: String,
    /// The standings.
    pub standings: Vec<Standing>,
    /// Each pairing's counts.
    pub pairs: Vec<PairCounts>,
    /// The plots' points.
    pub series: Series,
    /// The SPRT.
    pub sprt: Option<SprtState>,
    /// What the figures leave out or repeat, and how the match ended.
    pub notes: Vec<String>,
    /// Every game.
    pub games: Games,
}

/// A game's row: `[number, round, black, white, opening, result, reason, detail, plies,
/// moves, time_black_ms|null, time_white_ms|null, opening_plies, end]`.
#[derive(Serialize)]
struct GameJson<'a>(
    u64,
    u64,
    usize,
    usize,
    &'a str,
    &'a str,
    &'a str,
    &'a str,
    u64,
    &'a str,
    Option<u64>,
    Option<u64>,
    u64,
    usize,
);

/// The value of a figure as the block prints it, with two decimals (rounded as `{:.2}` rounds
/// it); `None` when undefined or infinite (the block's `n/a`, `inf`, `-inf`). No negative zero:
/// the page shows 0.00.
fn two_decimals(v: f64) -> Option<f64> {
    if !v.is_finite() {
        return None;
    }
    let printed: f64 = format!("{v:.2}").parse().ok()?;
    Some(if printed == 0.0 { 0.0 } else { printed })
}

/// A figure as the page's data holds it, for what the block prints: a JSON number with the
/// block's two decimals ([`two_decimals`]); the string `"inf"` or `"-inf"` where the block
/// prints `inf` or `-inf` (every game won or lost: JSON has no number for them); `null` where
/// it prints `n/a` (undefined, as the Elo of no game).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Figure(Option<f64>);

impl Serialize for Figure {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(v) if v == f64::INFINITY => s.serialize_str("inf"),
            Some(v) if v == f64::NEG_INFINITY => s.serialize_str("-inf"),
            v => v.and_then(two_decimals).serialize(s),
        }
    }
}

/// A figure ([`Figure`]).
fn figure<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    Figure(*v).serialize(s)
}

/// A figure that is always there ([`Figure`]).
fn figure_of<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    Figure(Some(*v)).serialize(s)
}

/// serde_json's compact writer with the page's own escaping step: in every string (keys too:
/// serde_json writes every string's text through `write_string_fragment`), `<`, `>`, `&`,
/// U+2028 and U+2029 become `\u` escapes, so that no text can end the `<script>` element or
/// start markup in it. Outside strings JSON has none of them.
struct ScriptFormatter;

impl serde_json::ser::Formatter for ScriptFormatter {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let bytes = fragment.as_bytes();
        // Most text (every game's moves) has none of them.
        if !bytes
            .iter()
            .any(|&b| matches!(b, b'<' | b'>' | b'&' | 0xe2))
        {
            return w.write_all(bytes);
        }
        let (mut from, mut i) = (0, 0);
        while i < bytes.len() {
            let (escape, len): (&[u8], usize) = match bytes[i..] {
                [b'<', ..] => (b"\\u003c", 1),
                [b'>', ..] => (b"\\u003e", 1),
                [b'&', ..] => (b"\\u0026", 1),
                // U+2028 and U+2029 in UTF-8.
                [0xe2, 0x80, 0xa8, ..] => (b"\\u2028", 3),
                [0xe2, 0x80, 0xa9, ..] => (b"\\u2029", 3),
                _ => {
                    i += 1;
                    continue;
                }
            };
            w.write_all(&bytes[from..i])?;
            w.write_all(escape)?;
            i += len;
            from = i;
        }
        w.write_all(&bytes[from..])
    }
}

/// Appends `value`'s JSON text, escaped for a `<script>` element, to `out`.
fn script_json(out: &mut Vec<u8>, value: &impl Serialize) {
    let mut ser = serde_json::Serializer::with_formatter(out, ScriptFormatter);
    // Writing plain data into memory cannot fail.
    value
        .serialize(&mut ser)
        .expect("the page's data are plain data");
}

/// The page's data but its games, member for member in the schema's order.
#[derive(Serialize)]
struct Head<'a> {
    title: &'a str,
    finished: bool,
    version: &'a str,
    command: &'a str,
    started: Option<&'a str>,
    updated: &'a str,
    ended: Option<&'a str>,
    settings: &'a Settings,
    engines: &'a [EngineEntry],
    block: &'a str,
    standings: &'a [Standing],
    pairs: &'a [PairCounts],
    series: &'a Series,
    sprt: Option<&'a SprtState>,
    notes: &'a [String],
    records: Records<'a>,
}

/// `records`: what the page's KIF and CSA downloads take from the writers' tables, so that
/// they are what `saikoro record convert` writes of the game from the results file: the
/// event, the handicaps (`手合割`) with their positions, and the words of each way the games
/// end.
#[derive(Serialize)]
struct Records<'a> {
    event: &'a str,
    handicaps: &'a [(&'a str, &'a str)],
    ends: Vec<&'a [String; 3]>,
}

impl PageData {
    /// The JSON text, escaped for a `<script>` element.
    pub fn to_json(&self) -> String {
        let (head, games, tail) = self.json_parts();
        String::from_utf8_lossy(&[head.as_slice(), games, tail].concat()).into_owned()
    }

    /// The JSON text in three parts, to be written one after the other: all but the games (the
    /// object of every other member, its `}` replaced by `,"games":[`), the games (kept as
    /// they came, not copied), and the end.
    pub fn json_parts(&self) -> (Vec<u8>, &[u8], &'static [u8]) {
        let head = Head {
            title: &self.title,
            finished: self.finished,
            version: &self.version,
            command: &self.command,
            started: self.started.as_deref(),
            updated: &self.updated,
            ended: self.ended.as_deref(),
            settings: &self.settings,
            engines: &self.engines,
            block: &self.block,
            standings: &self.standings,
            pairs: &self.pairs,
            series: &self.series,
            sprt: self.sprt.as_ref(),
            notes: &self.notes,
            records: Records {
                event: EVENT,
                handicaps: &HANDICAPS,
                ends: self.games.ends.iter().map(|(_, words)| words).collect(),
            },
        };
        let mut o = Vec::with_capacity(self.block.len() + 4096);
        script_json(&mut o, &head);
        // The object's closing brace: the games follow as its last member.
        if o.last() == Some(&b'}') {
            o.pop();
        }
        o.extend_from_slice(b",\"games\":[");
        (o, &self.games.text, b"]}")
    }
}

/// The base64url alphabet (RFC 4648 §5).
const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The kinds a drop may place, in the order of their codes: P L N S G B R.
const DROP_ORDER: [PieceType; 7] = [
    PieceType::Pawn,
    PieceType::Lance,
    PieceType::Knight,
    PieceType::Silver,
    PieceType::Gold,
    PieceType::Bishop,
    PieceType::Rook,
];

/// A move as three base64url characters, most significant first, of the value
/// `(from * 81 + to) * 2 + promote`: a square is `(file - 1) * 9 + (rank - 1)` (USI `7g`:
/// file 7, rank 7), a drop's `from` is `81 + k` with `k` its kind in P L N S G B R order
/// (and `promote` 0). The largest value, 14_254 (a rook dropped on 9i), is below 64³.
pub fn encode_move(mv: Move) -> [u8; 3] {
    let v = move_code(mv);
    [
        BASE64URL[(v >> 12) & 63],
        BASE64URL[(v >> 6) & 63],
        BASE64URL[v & 63],
    ]
}

/// The value [`encode_move`] writes.
fn move_code(mv: Move) -> usize {
    let (from, to, promote) = match mv {
        Move::Normal { from, to, promote } => (from.index(), to.index(), usize::from(promote)),
        Move::Drop { kind, to } => {
            let k = DROP_ORDER.iter().position(|&p| p == kind).unwrap_or(0);
            (81 + k, to.index(), 0)
        }
    };
    (from * 81 + to) * 2 + promote
}

/// Each move of a game, appended to `out` as the page's script reads it: their number in decimal
/// and a `:`, then each move's index in the legal moves of its position, in the rules core's
/// canonical order (board moves by origin square, then destination, the plain move before the
/// promotion; then drops by kind in P L N S B R G order, then square; squares by
/// [`Square::index`](saikoro_core::Square::index)), the indices of a game taken as the digits of one
/// mixed-radix number (in chunks: see docs/report.md). A position with `n` legal moves gives a
/// digit below `n + 1`. The digit `n` says that the move is not among them (a move that was
/// illegal): the number ends there, a `.` follows, and that move and every one after it are written
/// as [`encode_move`]'s three characters. `start` is the game's start position; with `None` (a
/// start the rules core cannot read) the `.` follows the `:`, and every move is three characters.
///
/// Uniformly random moves carry log₂ n bits a ply, and that is what this costs, within the
/// 6-bit character and the 48-bit chunk (a few per cent more): about 6 bits a ply in random
/// games (5.95 over 10,000 of them), against 18 for three characters a move.
pub fn encode_game(
    out: &mut String,
    start: Option<&Position>,
    moves: impl IntoIterator<Item = Move>,
) {
    encode_placed(out, start, moves.into_iter().map(|mv| (mv, None)));
}

/// [`encode_game`] of moves some of which come with their place among the legal moves
/// (`(index, count)`, as the match's referee records it in a played move's `place`), which
/// spares listing those moves' positions; the text is the same.
pub fn encode_placed(
    out: &mut String,
    start: Option<&Position>,
    moves: impl IntoIterator<Item = (Move, Option<(u16, u16)>)>,
) {
    let at = out.len();
    let mut count = 0usize;
    let mut moves = moves.into_iter().inspect(|_| count += 1);
    if let Some(start) = start {
        let mut digits = Digits::new(out);
        let mut pos = start.clone();
        // The moves placed since `pos`: played on it only when a move without its place
        // needs the position.
        let mut behind: Vec<Move> = Vec::new();
        let mut legal = MoveList::new();
        let mut escaped = None;
        for (mv, place) in moves.by_ref() {
            if let Some((i, n)) = place {
                debug_assert_eq!(
                    {
                        let mut p = pos.clone();
                        for &m in &behind {
                            p.do_move(m);
                        }
                        let l = p.legal_moves();
                        (l.iter().position(|&m| m == mv), l.len())
                    },
                    (Some(usize::from(i)), usize::from(n)),
                    "{mv}"
                );
                digits.push(u64::from(i), u64::from(n) + 1);
                behind.push(mv);
                continue;
            }
            for m in behind.drain(..) {
                pos.do_move(m);
            }
            pos.generate_legal(&mut legal);
            let n = legal.len() as u64;
            match legal.iter().position(|&m| m == mv) {
                Some(i) => {
                    digits.push(i as u64, n + 1);
                    pos.do_move(mv);
                }
                None => {
                    digits.push(n, n + 1);
                    escaped = Some(mv);
                    break;
                }
            }
        }
        digits.finish();
        if let Some(mv) = escaped {
            out.push('.');
            push_move(out, mv);
        }
    } else {
        out.push('.');
    }
    for (mv, _) in moves.by_ref() {
        push_move(out, mv);
    }
    drop(moves);
    out.insert_str(at, &format!("{count}:"));
}

/// Appends [`encode_move`]'s three characters.
fn push_move(out: &mut String, mv: Move) {
    for b in encode_move(mv) {
        out.push(char::from(b));
    }
}

/// A mixed-radix number written in chunks: digits `d₀ d₁ …` below radices `n₀ n₁ …` are
/// gathered into a chunk's value `d₀ + n₀·(d₁ + n₁·(d₂ + …))` while the product of the
/// chunk's radices stays at most 2⁴⁸ (so a JavaScript number holds it exactly); a digit
/// whose radix would take it past that starts the next chunk. A chunk is written as 8
/// base64url characters, most significant first; the last one in as few as its product
/// needs (none when it is 1). The reader, who knows every digit's radix as it goes, knows
/// where each chunk ends.
struct Digits<'a> {
    out: &'a mut String,
    value: u64,
    scale: u64,
}

impl<'a> Digits<'a> {
    /// A chunk's radices multiply to at most this.
    const CHUNK: u64 = 1 << 48;

    fn new(out: &'a mut String) -> Digits<'a> {
        Digits {
            out,
            value: 0,
            scale: 1,
        }
    }

    /// Appends digit `d`, below `radix` (at most 2⁴⁸).
    fn push(&mut self, d: u64, radix: u64) {
        debug_assert!(d < radix && radix <= Self::CHUNK);
        if self.scale > Self::CHUNK / radix {
            self.flush(8);
        }
        self.value += d * self.scale;
        self.scale *= radix;
    }

    /// Writes the chunk in `chars` characters and starts the next.
    fn flush(&mut self, chars: u32) {
        for i in (0..chars).rev() {
            let six = (self.value >> (6 * i)) & 63;
            self.out.push(char::from(BASE64URL[six as usize]));
        }
        self.value = 0;
        self.scale = 1;
    }

    /// Writes the last chunk in the characters its product needs.
    fn finish(mut self) {
        let mut chars = 0;
        while chars < 8 && (1u64 << (6 * chars)) < self.scale {
            chars += 1;
        }
        self.flush(chars);
    }
}

/// A time as UTC in ISO 8601, to the second: `2026-12-03T08:40:00Z`.
pub fn utc_text(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`,
/// from the eras of 400 years that the calendar repeats).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Words joined into one command line that a POSIX shell splits back into them: a word of
/// letters, digits and `-_./=:,+@%` stays bare, any other is put in single quotes (a `'`
/// inside as `'\''`).
pub fn shell_words<S: AsRef<str>>(words: &[S]) -> String {
    let bare = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    let mut o = String::new();
    for (i, w) in words.iter().enumerate() {
        let w = w.as_ref();
        if i > 0 {
            o.push(' ');
        }
        if !w.is_empty() && w.chars().all(bare) {
            o.push_str(w);
        } else {
            o.push('\'');
            o.push_str(&w.replace('\'', "'\\''"));
            o.push('\'');
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use saikoro_core::Square;

    #[test]
    fn moves_take_three_characters_each() {
        // 7g7f: from (7-1)*9+(7-1) = 60, to 59: (60*81+59)*2 = 9838 = 2*4096 + 25*64 + 46.
        let m = Move::from_usi("7g7f").unwrap();
        assert_eq!(&encode_move(m), b"CZu");
        // 8h2b+: from 70, to 10: (70*81+10)*2+1 = 11361 = 2*4096 + 49*64 + 33 → C x h.
        assert_eq!(&encode_move(Move::from_usi("8h2b+").unwrap()), b"Cxh");
        // P*5e: from 81, to 40: (81*81+40)*2 = 13202 = 3*4096 + 14*64 + 18 → D O S.
        assert_eq!(&encode_move(Move::from_usi("P*5e").unwrap()), b"DOS");
        // G*1a: k = 4 (P L N S G), from 85, to 0: 85*81*2 = 13770 = 3*4096 + 23*64 + 10.
        let g = Move::Drop {
            kind: PieceType::Gold,
            to: Square::new(1, 1).unwrap(),
        };
        assert_eq!(&encode_move(g), b"DXK");
    }

    /// The canonical order, as [`encode_game`]'s documentation (and the page's script) gives
    /// it: a board move's key `(from * 81 + to) * 2 + promote`, a drop's `2 * 81 * 81 +
    /// kind * 81 + to` with the kinds in P L N S B R G order.
    fn key(mv: Move) -> usize {
        match mv {
            Move::Normal { from, to, promote } => {
                (from.index() * 81 + to.index()) * 2 + usize::from(promote)
            }
            Move::Drop { kind, to } => {
                let k = "PLNSBRG".find(kind.sfen_letter()).unwrap();
                2 * 81 * 81 + k * 81 + to.index()
            }
        }
    }

    /// A reader of [`encode_game`]'s text, from its documentation.
    fn decode(text: &str, start: &Position) -> Vec<Move> {
        let (count, body) = text.split_once(':').unwrap();
        let count: usize = count.parse().unwrap();
        let (digits, raw) = body.split_once('.').unwrap_or((body, ""));
        let value_of = |c: u8| BASE64URL.iter().position(|&b| b == c).unwrap() as u64;
        let (mut at, mut value, mut scale) = (0, 0u64, 0u64);
        let mut next = |n: u64| {
            if scale == 0 || scale * n > 1 << 48 {
                let len = 8.min(digits.len() - at);
                value = digits.as_bytes()[at..at + len]
                    .iter()
                    .fold(0, |v, &c| v * 64 + value_of(c));
                at += len;
                scale = 1;
            }
            let d = value % n;
            value /= n;
            scale *= n;
            d
        };
        let mut pos = (!body.starts_with('.')).then(|| start.clone());
        let mut raw = raw.as_bytes().chunks(3);
        let mut out = Vec::new();
        while out.len() < count {
            if let Some(p) = &mut pos {
                let legal = p.legal_moves();
                let d = next(legal.len() as u64 + 1) as usize;
                if d < legal.len() {
                    out.push(legal[d]);
                    p.do_move(legal[d]);
                    continue;
                }
                pos = None;
            }
            let c = raw.next().unwrap();
            let v = (value_of(c[0]) << 12 | value_of(c[1]) << 6 | value_of(c[2])) as usize;
            let (from, to, promote) = (v / 2 / 81, v / 2 % 81, v % 2 == 1);
            let to = Square::from_index(to).unwrap();
            out.push(match from.checked_sub(81) {
                Some(k) => Move::Drop {
                    kind: DROP_ORDER[k],
                    to,
                },
                None => Move::Normal {
                    from: Square::from_index(from).unwrap(),
                    to,
                    promote,
                },
            });
        }
        assert!(raw.next().is_none(), "{text}");
        out
    }

    #[test]
    fn the_legal_moves_come_in_the_documented_order() {
        let mut rng = saikoro_core::SplitMix64::new(7);
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..300 {
                let legal = pos.legal_moves();
                assert!(
                    legal.windows(2).all(|w| key(w[0]) < key(w[1])),
                    "{}",
                    pos.to_sfen()
                );
                if legal.is_empty() {
                    break;
                }
                pos.do_move(legal[rng.next_u64() as usize % legal.len()]);
            }
        }
    }

    #[test]
    fn a_game_is_its_moves_indices_among_the_legal_moves() {
        let start = Position::startpos();
        let moves: Vec<Move> = ["7g7f", "3c3d", "8h2b+"]
            .iter()
            .map(|m| Move::from_usi(m).unwrap())
            .collect();
        let mut s = String::new();
        encode_game(&mut s, Some(&start), moves.iter().copied());
        // 30 legal moves at the start; 7g7f is index 24, after the pieces of files 1–6:
        // 1g 1, 1i 1; 2g 1, 2h 6 (1h, 3h–7h), 2i 0; 3g 1, 3i 2; 4g 1, 4i 3; 5g 1, 5i 3;
        // 6g 1, 6i 3. For White, 3c3d is index 5: 1a 1, 1c 1; 2a 0, 2b 0, 2c 1; 3a 2.
        let legal = start.legal_moves();
        assert_eq!(legal.len(), 30);
        assert_eq!(legal.iter().position(|&m| m == moves[0]), Some(24));
        let after = start.play(moves[0]);
        assert_eq!(
            after.legal_moves().iter().position(|&m| m == moves[1]),
            Some(5)
        );
        let third = after.play(moves[1]);
        let (n3, i3) = (
            third.legal_moves().len() as u64,
            third
                .legal_moves()
                .iter()
                .position(|&m| m == moves[2])
                .unwrap() as u64,
        );
        // One chunk: 24 + 31 * (5 + 31 * i3), below 31 * 31 * (n3 + 1), in as few characters.
        let value = 24 + 31 * (5 + 31 * i3);
        let scale = 31 * 31 * (n3 + 1);
        let chars = (1..=8).find(|&c| 1u64 << (6 * c) >= scale).unwrap();
        let mut expected = String::from("3:");
        for i in (0..chars).rev() {
            expected.push(char::from(BASE64URL[((value >> (6 * i)) & 63) as usize]));
        }
        assert_eq!(s, expected);
        assert_eq!(decode(&s, &start), moves);
    }

    #[test]
    fn random_games_read_back_and_cost_a_few_bits_a_ply() {
        let mut rng = saikoro_core::SplitMix64::new(11);
        let (mut plies, mut chars) = (0, 0);
        for _ in 0..200 {
            let start = Position::startpos();
            let mut pos = start.clone();
            let mut moves = Vec::new();
            for _ in 0..400 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mv = legal[rng.next_u64() as usize % legal.len()];
                moves.push(mv);
                pos.do_move(mv);
            }
            let mut s = String::new();
            encode_game(&mut s, Some(&start), moves.iter().copied());
            assert_eq!(decode(&s, &start), moves);
            plies += moves.len();
            chars += s.len();
        }
        // Random moves have some 6.6 bits of choice a ply (log₂ of ~100 legal moves): 7.5
        // bits a ply would already be over the chunks' and the characters' overhead.
        let bits = chars as f64 * 6.0 / plies as f64;
        assert!((5.0..7.5).contains(&bits), "{bits} bits a ply");
    }

    #[test]
    fn an_illegal_move_ends_the_indices_and_what_follows_is_written_whole() {
        let start = Position::startpos();
        // 8b8c: White's rook onto its own pawn; what follows is read as it was written.
        let moves: Vec<Move> = ["7g7f", "8b8c", "2b8h+", "P*5e"]
            .iter()
            .map(|m| Move::from_usi(m).unwrap())
            .collect();
        let whole = |ms: &[Move]| {
            ms.iter()
                .flat_map(|&m| encode_move(m).map(char::from))
                .collect::<String>()
        };
        let mut s = String::new();
        encode_game(&mut s, Some(&start), moves.iter().copied());
        assert!(s.ends_with(&format!(".{}", whole(&moves[1..]))), "{s}");
        assert_eq!(decode(&s, &start), moves);
        let mut unknown = String::new();
        encode_game(&mut unknown, None, moves.iter().copied());
        assert_eq!(unknown, format!("4:.{}", whole(&moves)));
        assert_eq!(decode(&unknown, &start), moves);
        let mut none = String::new();
        encode_game(&mut none, Some(&start), []);
        assert_eq!(none, "0:");
    }

    #[test]
    fn words_are_quoted_for_a_shell() {
        let w = ["saikoro", "match", "name=a b", "it's", "", "tc=1+0.1"];
        assert_eq!(
            shell_words(&w),
            "saikoro match 'name=a b' 'it'\\''s' '' tc=1+0.1"
        );
    }

    #[test]
    fn times_are_utc_iso_8601() {
        assert_eq!(utc_text(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        // 2000-03-01 (after a leap day in a year divisible by 400): 11017 days.
        let t = UNIX_EPOCH + std::time::Duration::from_secs(11_017 * 86_400 + 3_661);
        assert_eq!(utc_text(t), "2000-03-01T01:01:01Z");
        // `date -u -d @1796287200`: 2026-12-03T08:40:00Z.
        let t = UNIX_EPOCH + std::time::Duration::from_secs(1_796_287_200);
        assert_eq!(utc_text(t), "2026-12-03T08:40:00Z");
    }

    #[test]
    fn the_series_keeps_at_most_500_points_evenly() {
        let mut s = Series::default();
        for g in 1..=2000u64 {
            s.push(SeriesPoint {
                games: g,
                ..SeriesPoint::default()
            });
        }
        let games: Vec<u64> = s.points().map(|p| p.games).collect();
        assert!(games.len() <= Series::MAX + 1, "{}", games.len());
        assert!(games.len() >= Series::MAX / 2);
        // Evenly: every kept point is 1 + a multiple of the same stride; the last is there.
        let stride = games[1] - games[0];
        assert!(games[..games.len() - 1]
            .windows(2)
            .all(|w| w[1] - w[0] == stride));
        assert_eq!(games.last(), Some(&2000));
    }

    /// What the block prints as `inf` and `-inf` (every game won, every game lost) is the string
    /// `"inf"` or `"-inf"`, what it prints as `n/a` is `null`, a finite figure the number of
    /// its two decimals.
    #[test]
    fn infinite_figures_are_the_blocks_words() {
        let won = Standing {
            engine: 1,
            games: 10,
            w: 10,
            points: 10.0,
            elo: Some(f64::INFINITY),
            elo_err: None,
            nelo: Some(f64::NEG_INFINITY),
            nelo_err: Some(12.3456),
            ..Standing::default()
        };
        assert_eq!(
            serde_json::to_string(&won).unwrap(),
            r#"{"engine":1,"games":10,"w":10,"l":0,"d":0,"points":10.0,"elo":"inf","elo_err":null,"nelo":"-inf","nelo_err":12.35}"#
        );
        let mut series = Series::default();
        series.push(SeriesPoint {
            games: 10,
            elo: Some(f64::NEG_INFINITY),
            lo: None,
            hi: Some(f64::INFINITY),
            llr: Some(-3.4140),
        });
        assert_eq!(
            serde_json::to_string(&series).unwrap(),
            r#"[[10,"-inf",null,"inf",-3.41]]"#
        );
    }

    #[test]
    fn markup_is_escaped_everywhere() {
        let mut d = PageData {
            title: "</script><img src=x>".into(),
            updated: "u".into(),
            ..PageData::default()
        };
        d.engines.push(EngineEntry {
            name: "a & b\u{2028}".into(),
            cmd: None,
            options: vec![("<o>".into(), "v".into())],
        });
        d.games.push(&GameRow {
            number: 1,
            round: 1,
            black: 0,
            white: 0,
            opening: "startpos",
            result: "1-0",
            reason: "mate",
            detail: "<b>",
            plies: 1,
            moves: "CZu",
            time_ms: None,
            opening_plies: 0,
            end: Ending::Mate,
            next: Color::White,
            handicap: false,
        });
        let j = d.to_json();
        assert!(!j.contains(['<', '>', '&', '\u{2028}']), "{j}");
        assert!(j.contains("\"title\":\"\\u003c/script\\u003e\\u003cimg src=x\\u003e\""));
        assert!(j.contains("\"name\":\"a \\u0026 b\\u2028\""));
        assert!(j.contains(
            "\"games\":[[1,1,0,0,\"startpos\",\"1-0\",\"mate\",\"\\u003cb\\u003e\",1,\"CZu\",\
             null,null,0,0]]"
        ));
        // Black mated White: Kifu for Windows' 詰み and `まで1手で先手の勝ち`, CSA's `%TSUMI`.
        assert!(
            j.contains("\"ends\":[[\"詰み\",\"先手の勝ち\",\"%TSUMI\"]]},\"games\":"),
            "{j}"
        );
    }
}
