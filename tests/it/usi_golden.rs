//! Golden transcripts: `tests/sessions/<name>.in` piped into the binary must give exactly
//! `<name>.out` (`@VERSION@` stands for the crate version).
//!
//! The `.out` files were produced by the engine itself, so on their own they only pin the
//! behaviour down. What makes them trustworthy is checked here independently:
//! - every `bestmove` in `seed42.out` is legal in the position the script set;
//! - each one is recomputed from the documented algorithm with a separate implementation in
//!   this file: SplitMix64 expansion of the seed into a Xoshiro256++ state (reference
//!   algorithms by Blackman and Vigna), the legal moves in canonical order, and the unbiased
//!   multiply-shift index draw; the generator restarts when `setoption Seed` changes the
//!   seed, and only then: a session is one random stream, so `usinewgame` goes on with it (the second game differs);
//! - the non-move lines were written by hand from the protocol (docs/usi.md §1–§5) before the
//!   first run: the `usi` block, `readyok`, the seed line, the rejection of `9z9z` as move 4,
//!   `checkmate notimplemented`, the unknown-option warning, nothing after `quit`; the seed
//!   line of the second game, which names the game's place in the stream.

use crate::usi_support;

use saikoro_core::{KingRule, Move, Position};
use saikoro_usi::{parse_line, Command, Start};

/// Xoshiro256++ seeded through SplitMix64, written from the published reference code.
struct Reference {
    s: [u64; 4],
}

impl Reference {
    /// The state is expanded from the seed with SplitMix64 (the library's, which the engine's
    /// player does not use: it seeds through `rand`'s own expansion).
    fn new(seed: u64) -> Reference {
        let mut x = saikoro_core::SplitMix64::new(seed);
        let mut s = [0u64; 4];
        for w in &mut s {
            *w = x.next_u64();
        }
        Reference { s }
    }

    fn next(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Lemire's unbiased draw in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        let mut m = self.next() as u128 * n as u128;
        if (m as u64) < n {
            let t = n.wrapping_neg() % n;
            while (m as u64) < t {
                m = self.next() as u128 * n as u128;
            }
        }
        (m >> 64) as u64
    }
}

/// Known first outputs of the reference generator, so that it is itself checked: SplitMix64
/// from state 0 gives 0xe220a8397b1dcdaf first (the well-known test vector).
#[test]
fn reference_generator_matches_known_values() {
    let r = Reference::new(0);
    assert_eq!(r.s[0], 0xe220_a839_7b1d_cdaf);
    assert_eq!(r.s[1], 0x6e78_9e6a_a1b9_65f4);
}

fn golden(name: &str) -> (String, String) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sessions/");
    let input = std::fs::read_to_string(format!("{dir}{name}.in")).unwrap();
    let expected = std::fs::read_to_string(format!("{dir}{name}.out"))
        .unwrap()
        .replace("@VERSION@", env!("CARGO_PKG_VERSION"));
    (input, expected)
}

#[test]
fn every_session_matches_its_transcript() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sessions");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("in") {
            continue;
        }
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let (input, expected) = golden(&name);
        let out = usi_support::run(&input);
        assert!(out.status.success());
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            expected,
            "session {name}"
        );
        n += 1;
    }
    assert!(n >= 1);
}

/// Replays `seed42.in` with the reference generator and the rules core, and checks every
/// `bestmove` of `seed42.out` against it.
#[test]
fn seed42_moves_follow_from_the_documented_algorithm() {
    let (input, expected) = golden("seed42");
    let mut rng: Option<Reference> = None;
    let mut seed = 0;
    let mut pos: Option<Position> = Some(Position::startpos());
    let mut predicted = Vec::new();
    for line in input.lines() {
        match parse_line(line) {
            Ok(Command::Quit) => break,
            Ok(Command::SetOption { name, value }) if name == "Seed" => {
                let new = value.unwrap().parse().unwrap();
                if new != seed {
                    rng = None;
                }
                seed = new;
            }
            Ok(Command::Position(p)) => {
                let mut q = match p.start {
                    Start::Startpos => Position::startpos(),
                    Start::Sfen(s) => Position::from_setup(&s, KingRule::Required).unwrap(),
                };
                let mut ok = true;
                for m in p.moves {
                    if q.is_legal(m).is_err() {
                        ok = false;
                        break;
                    }
                    q = q.play(m);
                }
                pos = ok.then_some(q);
            }
            Err(_) if line.starts_with("position") => pos = None,
            Ok(Command::Go(g)) if g.mate.is_none() && g.perft.is_none() => match &pos {
                None => predicted.push("resign".to_string()),
                Some(p) => {
                    let r = rng.get_or_insert_with(|| Reference::new(seed));
                    let mut legal = p.legal_moves();
                    legal.sort();
                    let m: Move = legal[r.below(legal.len() as u64) as usize];
                    predicted.push(m.to_string());
                }
            },
            _ => {}
        }
    }
    let actual: Vec<String> = expected
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove ").map(str::to_string))
        .collect();
    assert_eq!(actual, predicted);
    assert_eq!(actual.len(), 9);
}
