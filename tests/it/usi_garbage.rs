//! Seeded garbage input: valid commands mutated at random, and random bytes. The engine must
//! never panic, never print a non-ASCII or malformed line, answer every `go` with exactly one
//! legal `bestmove` (or `resign`/`win`), and keep answering `isready`.
//!
//! 120,000 lines go through `Engine::handle_line` in-process, and 20,000 more through the
//! binary (bytes, CR/LF mixes, Shift_JIS and NUL bytes included). The generator is seeded, so a
//! failure names the seed and line and can be replayed.

use crate::usi_support;

use saikoro_core::{Choice, EnteringKingRule, Game, Position, RandomMover};
use saikoro_engine::Engine;
use saikoro_usi::{parse_line, Command};

/// The library's SplitMix64 with a modulo draw: a small, seedable generator for the test input.
struct Rng(saikoro_core::SplitMix64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(saikoro_core::SplitMix64::new(seed))
    }
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

/// Random legal games (as move texts) to build `position` commands from.
fn histories(rng: &mut Rng) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for i in 0..12 {
        let mut player = RandomMover::new(rng.next());
        let start = if i % 3 == 0 {
            // A later start given as SFEN.
            let mut g = Game::new(Position::startpos());
            for _ in 0..(rng.below(40) + 1) {
                match player.choose(&mut g, EnteringKingRule::CsaRule27) {
                    Choice::Move(m) => g.play(m),
                    _ => break,
                }
            }
            g.position().clone()
        } else {
            Position::startpos()
        };
        let prefix = if i % 3 == 0 {
            format!("position sfen {}", start.to_sfen())
        } else {
            "position startpos".to_string()
        };
        let mut g = Game::new(start);
        let mut moves = Vec::new();
        for _ in 0..150 {
            match player.choose(&mut g, EnteringKingRule::CsaRule27) {
                Choice::Move(m) => {
                    g.play(m);
                    moves.push(m.to_string());
                }
                _ => break,
            }
        }
        out.push((prefix, moves));
    }
    out
}

const COMMANDS: &[&str] = &[
    "usi",
    "isready",
    "usinewgame",
    "setoption name Seed value 42",
    "setoption name Seed value 0",
    "setoption name USI_Hash value 32",
    "setoption name USI_Ponder value true",
    "setoption name EnteringKingRule value CSARule24",
    "setoption name EnteringKingRule value NoEnteringKing",
    "go",
    "go btime 1000 wtime 2000 byoyomi 3000",
    "go btime 0 wtime 0 binc 10 winc 10",
    "go ponder",
    "go ponder btime 1 wtime 1 byoyomi 0",
    "go infinite",
    "go mate 1000",
    "go mate infinite",
    "go depth 3 nodes 10 movetime 5",
    "stop",
    "ponderhit",
    "ponderhit btime 1 wtime 2 byoyomi 3",
    "gameover win",
    "gameover lose",
    "gameover draw",
    "d",
    "debug on",
];

const TOKENS: &[&str] = &[
    "position",
    "startpos",
    "sfen",
    "moves",
    "go",
    "ponder",
    "infinite",
    "mate",
    "setoption",
    "name",
    "value",
    "Seed",
    "btime",
    "byoyomi",
    "7g7f",
    "P*5e",
    "8h2b+",
    "1a1a",
    "b",
    "w",
    "-",
    "1",
    "0",
    "-1",
    "99999999999999999999999",
    "gameover",
    "stop",
    "\u{3042}",
    "",
    " ",
];

/// One line of test input, as bytes.
fn line(rng: &mut Rng, hist: &[(String, Vec<String>)], cursor: &mut (usize, usize)) -> Vec<u8> {
    let r = rng.below(100);
    if r < 8 {
        // Random bytes, any value.
        let n = rng.below(120);
        return (0..n).map(|_| rng.next() as u8).collect();
    }
    let base: String = if r < 40 {
        // A position, usually extending the current game as a GUI would, sometimes another.
        if rng.below(10) == 0 {
            *cursor = (rng.below(hist.len()), 0);
        }
        let (prefix, moves) = &hist[cursor.0];
        cursor.1 = (cursor.1 + 1 + rng.below(2)).min(moves.len());
        if cursor.1 == moves.len() {
            cursor.1 = 0;
        }
        if cursor.1 == 0 {
            prefix.clone()
        } else {
            format!("{prefix} moves {}", moves[..cursor.1].join(" "))
        }
    } else {
        rng.pick(COMMANDS).to_string()
    };
    if rng.below(3) == 0 {
        return base.into_bytes();
    }
    // Mutate: token edits, then byte edits.
    let mut toks: Vec<String> = base.split(' ').map(str::to_string).collect();
    for _ in 0..(1 + rng.below(3)) {
        let i = rng.below(toks.len());
        match rng.below(6) {
            0 => toks[i] = rng.pick(TOKENS).to_string(),
            1 => {
                let t = toks[i].clone();
                toks.insert(i, t);
            }
            2 if toks.len() > 1 => {
                toks.remove(i);
            }
            3 => {
                let j = rng.below(toks.len());
                toks.swap(i, j);
            }
            4 => toks.truncate(i + 1),
            _ => toks.insert(i, rng.pick(TOKENS).to_string()),
        }
    }
    let mut bytes = toks
        .join(if rng.below(8) == 0 { "  \t" } else { " " })
        .into_bytes();
    for _ in 0..rng.below(3) {
        let i = rng.below(bytes.len() + 1);
        match rng.below(4) {
            0 if i < bytes.len() => {
                bytes.remove(i);
            }
            1 => bytes.insert(i, rng.next() as u8),
            2 => bytes.splice(i..i, [0x82, 0xa0]).for_each(drop), // Shift_JIS "あ"
            _ => bytes.insert(i, *rng.pick(b" \t\r0123456789+*")),
        }
    }
    bytes
}

/// Counts the `go` commands that must each get one `bestmove`, and the `go mate`s.
fn expected_answers(cmd: &Result<Command, saikoro_usi::UsiError>) -> (usize, usize) {
    match cmd {
        Ok(Command::Go(g)) if g.perft.is_some() => (0, 0),
        Ok(Command::Go(g)) if g.mate.is_some() => (0, 1),
        Ok(Command::Go(_)) => (1, 0),
        _ => (0, 0),
    }
}

fn check_line_format(l: &str) {
    assert!(l.is_ascii(), "non-ASCII output {l:?}");
    for p in [
        "bestmove ",
        "checkmate ",
        "info ",
        "id ",
        "option ",
        "usiok",
        "readyok",
    ] {
        if l.starts_with(p) {
            assert!(!l.contains("  ") && !l.ends_with(' '), "bad spacing {l:?}");
        }
    }
}

fn assert_move_ok(text: &str, pos: &Position, context: &str) {
    if text == "resign" || text == "win" {
        return;
    }
    let m =
        saikoro_core::Move::from_usi(text).unwrap_or_else(|_| panic!("{context}: bad move {text}"));
    assert!(
        pos.is_legal(m).is_ok(),
        "{context}: {text} illegal in {pos}"
    );
}

#[test]
fn garbage_in_process() {
    const SEED: u64 = 0x5a1c_0e0d;
    const LINES: usize = 120_000;
    let mut rng = Rng::new(SEED);
    let hist = histories(&mut rng);
    let mut cursor = (0, 0);
    let mut engine = Engine::new();
    let mut out = Vec::new();
    let (mut gos, mut mates, mut bestmoves, mut checkmates) = (0, 0, 0, 0);
    let mut pending_pos: Option<Position> = None;
    for n in 0..LINES {
        let bytes = if n % 1000 == 999 {
            b"isready".to_vec()
        } else {
            line(&mut rng, &hist, &mut cursor)
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let context = format!("seed {SEED:#x} line {n} {text:?}");
        let cmd = parse_line(&text);
        let (g, m) = expected_answers(&cmd);
        gos += g;
        mates += m;
        let was_searching = engine.is_searching();
        let pos_before = engine.game().position().clone();
        out.clear();
        // Flow::Quit is ignored: the session object stays usable.
        engine.handle_line(&text, &mut out).unwrap();
        let output = String::from_utf8(out.clone()).unwrap_or_else(|_| panic!("{context}"));
        let mut moves = Vec::new();
        for l in output.lines() {
            check_line_format(l);
            if let Some(mv) = l.strip_prefix("bestmove ") {
                moves.push(mv.to_string());
            }
            if l.starts_with("checkmate ") {
                checkmates += 1;
            }
        }
        bestmoves += moves.len();
        match &cmd {
            Ok(Command::Go(_)) if g == 1 => {
                let mut it = moves.iter();
                if was_searching {
                    let p = pending_pos.take().expect("pending position");
                    assert_move_ok(it.next().expect("released bestmove"), &p, &context);
                }
                if engine.is_searching() {
                    pending_pos = Some(pos_before);
                } else {
                    assert_move_ok(it.next().expect("bestmove"), &pos_before, &context);
                }
                assert!(it.next().is_none(), "{context}: extra bestmove");
            }
            Ok(Command::Stop | Command::PonderHit | Command::GameOver(_)) => {
                assert!(moves.len() <= 1);
                if let Some(mv) = moves.first() {
                    let p = pending_pos.take().expect("pending position");
                    assert_move_ok(mv, &p, &context);
                }
            }
            _ => assert!(moves.is_empty(), "{context}: unexpected bestmove {moves:?}"),
        }
        if n % 1000 == 999 {
            assert_eq!(output, "readyok\n", "{context}");
        }
    }
    out.clear();
    engine.finish(&mut out).unwrap();
    bestmoves += String::from_utf8(out).unwrap().matches("bestmove ").count();
    assert_eq!(bestmoves, gos, "one bestmove per go");
    assert_eq!(checkmates, mates, "one checkmate per go mate");
    assert!(gos > 10_000, "the input exercised go: {gos}");
}

#[test]
fn garbage_through_the_binary() {
    const SEED: u64 = 0xb1_7e5;
    const LINES: usize = 20_000;
    let mut rng = Rng::new(SEED);
    let hist = histories(&mut rng);
    let mut cursor = (0, 0);
    let mut input = Vec::new();
    let (mut gos, mut readies) = (0, 0);
    let mut n = 0;
    while n < LINES {
        let bytes = line(&mut rng, &hist, &mut cursor);
        // Decode as the front end does: lines at LF, parts at CR, lossy UTF-8.
        let parts: Vec<_> = bytes
            .split(|&b| b == b'\n')
            .flat_map(|l| l.split(|&b| b == b'\r'))
            .map(|p| parse_line(&String::from_utf8_lossy(p)))
            .collect();
        if parts.iter().any(|c| {
            matches!(c, Ok(Command::Quit) | Ok(Command::SetOption { .. })) && {
                // No quit (it would end the run) and no LogFile (no stray files).
                match c {
                    Ok(Command::SetOption { name, .. }) => name.eq_ignore_ascii_case("LogFile"),
                    _ => true,
                }
            }
        }) {
            continue;
        }
        for c in &parts {
            gos += expected_answers(c).0;
            readies += matches!(c, Ok(Command::IsReady)) as usize;
        }
        input.extend_from_slice(&bytes);
        input.extend_from_slice(if rng.below(2) == 0 { b"\n" } else { b"\r\n" });
        n += 1;
    }
    // Release any held search first, so that `readyok` is the very last line.
    input.extend_from_slice(b"stop\nisready\n");
    readies += 1;
    let out = usi_support::run_bytes(&input);
    assert!(out.status.success(), "seed {SEED:#x}: {:?}", out.status);
    assert!(out.stderr.is_empty());
    let lines = out.lines();
    for l in &lines {
        check_line_format(l);
    }
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
    assert_eq!(lines.iter().filter(|l| *l == "readyok").count(), readies);
    assert_eq!(
        out.bestmoves().len(),
        gos,
        "seed {SEED:#x}: one bestmove per go"
    );
}
