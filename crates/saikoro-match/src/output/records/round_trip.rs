//! Every record the match writes, read back: seeded random games from the rules core, written
//! through [`write_csa`](super::write_csa) and [`write_kif`](super::write_kif) as the match
//! writes them, then read with the record readers of `record/`: the start, the moves, and an end
//! that says who won as the match scored the game.

use super::{write_csa, write_kif};
use crate::game::book::Opening;
use crate::game::result::{Decision, End, GameRecord, PlayedMove, Reason};
use crate::game::timecontrol::Limits;
use crate::output::lines::GameInfo;
use saikoro_core::{
    ByColor, Choice, Color, EnteringKingRule, Game, Move, Outcome, Position, RandomMover,
};
use saikoro_record::{csa, form, kif, Ending};
use std::collections::HashSet;
use std::time::{Duration, UNIX_EPOCH};

/// Starts other than 平手: handicaps (上手 White to move), a bare board with hands, and
/// positions reached by play (pieces in hand, promoted pieces, a ply other than 1).
const STARTS: [&str; 5] = [
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "4k4/9/9/9/9/9/9/9/4K4 b 2G18P 1",
    "+R3k4/9/4+P4/9/9/9/9/9/4K3+b w S2Pn 7",
];

/// A seeded game: its start, opening, moves (with times), and an end of `reason`.
pub(super) struct Played {
    pub record: GameRecord,
    /// The side to move where the game ended.
    pub next: Color,
}

fn start_of(seed: u64, rng: &mut RandomMover) -> Position {
    match seed % 4 {
        0 => Position::startpos(),
        1 | 2 => Position::from_sfen(STARTS[rng.below(STARTS.len() as u64) as usize]).unwrap(),
        _ => {
            // A position some random moves in: hands and promoted pieces.
            let mut g = Game::new(Position::startpos());
            for _ in 0..(20 + rng.below(60)) {
                match rng.choose(&mut g, EnteringKingRule::CsaRule27) {
                    Choice::Move(m) if g.outcome().is_none() => g.play(m),
                    _ => break,
                }
            }
            if g.outcome().is_some() {
                return Position::startpos();
            }
            g.position().clone()
        }
    }
}

/// The end the game had, or (when it is not over) one of the ends the match gives a game
/// stopped on the way, chosen by `rng`.
fn end_of(game: &Game, choice: Option<Choice>, rng: &mut RandomMover) -> End {
    let next = game.position().side_to_move();
    let side = |rng: &mut RandomMover| if rng.below(2) == 0 { next } else { !next };
    match (game.outcome(), choice) {
        (Some(Outcome::Checkmate { winner }), _) => {
            End::new(Decision::Win(winner), Reason::Mate, "mates".into())
        }
        (Some(Outcome::Repetition), _) => End::new(
            Decision::Draw,
            Reason::Repetition,
            "Draw by repetition".into(),
        ),
        (Some(Outcome::PerpetualCheck { winner }), _) => End::new(
            Decision::Win(winner),
            Reason::PerpetualCheck,
            "perpetual check".into(),
        ),
        (Some(Outcome::Declaration { .. }), _) | (_, Some(Choice::DeclareWin)) => {
            let winner = game.outcome().and_then(Outcome::winner).unwrap_or(next);
            End::new(
                Decision::Win(winner),
                Reason::Declaration,
                "declares".into(),
            )
        }
        (Some(Outcome::MaxMoves), _) => {
            End::new(Decision::Draw, Reason::MaxPlies, "ply limit".into())
        }
        (None, Some(Choice::Resign)) => End::loss(next, Reason::Resign, "resigns".into()),
        (None, _) => {
            let reason = Reason::ALL[rng.below(Reason::ALL.len() as u64) as usize];
            let mut end = match reason {
                Reason::Mate | Reason::Resign | Reason::Time => {
                    End::loss(next, reason, format!("{reason}"))
                }
                Reason::Declaration => End::new(Decision::Win(next), reason, "declares".into()),
                Reason::Repetition | Reason::MaxPlies => {
                    End::new(Decision::Draw, reason, format!("{reason}"))
                }
                Reason::Adjudication if rng.below(2) == 0 => {
                    End::new(Decision::Draw, reason, "adjudicated draw".into())
                }
                Reason::Interrupted => End::interrupted(),
                _ => End::loss(side(rng), reason, format!("{reason}")),
            };
            if matches!(reason, Reason::IllegalMove | Reason::IllegalDeclaration) {
                end.illegal_move = Some(if rng.below(2) == 0 { "5e5d+" } else { "win" }.into());
            }
            end
        }
    }
}

/// Game `seed`: a start, up to 12 opening moves, then random moves until the game is over, a
/// player resigns or declares, or a ply count drawn from the seed is reached.
pub(super) fn played(seed: u64) -> Played {
    let mut rng = RandomMover::new(seed);
    let start = start_of(seed, &mut rng);
    let mut game = Game::new(start.clone());
    let opening_plies = rng.below(13) as usize;
    let plies = match seed % 5 {
        0 => 2000,
        1 => rng.below(4) as usize,
        _ => rng.below(300) as usize,
    };
    let mut moves = Vec::new();
    let mut choice = None;
    while game.len() < plies && game.outcome().is_none() {
        let c = rng.choose(&mut game, EnteringKingRule::CsaRule27);
        let Choice::Move(mv) = c else {
            choice = Some(c);
            break;
        };
        game.play(mv);
        moves.push(PlayedMove {
            mv,
            time_ms: rng.below(200_000),
            score: None,
            depth: None,
            nodes: None,
            place: None,
        });
    }
    let opening_plies = opening_plies.min(moves.len());
    let opening: Vec<_> = moves.drain(..opening_plies).map(|m| m.mv).collect();
    let end = end_of(&game, choice, &mut rng);
    let t = UNIX_EPOCH + Duration::from_secs(1_764_500_000 + seed * 3600);
    let record = GameRecord {
        opening: Opening {
            line: (seed % 3) as usize,
            start,
            moves: opening,
        },
        moves,
        end,
        time_used: ByColor([0, 0]),
        started: t,
        ended: t + Duration::from_secs(seed * 7),
    };
    Played {
        record,
        next: game.position().side_to_move(),
    }
}

pub(super) fn info(seed: u64) -> GameInfo {
    GameInfo {
        number: seed + 1,
        round: (seed / 2 + 1) as u32,
        black: format!("black {seed}"),
        white: "白".into(),
        repeats: None,
    }
}

pub(super) fn limits(seed: u64) -> ByColor<Limits> {
    let a = Limits::from_words(Some("60"), Some("5"), None, None, None).unwrap();
    let b = Limits::from_words(None, None, None, None, Some("1")).unwrap();
    match seed % 3 {
        0 => ByColor([a, a]),
        1 => ByColor([b, b]),
        _ => ByColor([a, b]),
    }
}

/// The position without its ply count: records do not carry it.
fn unnumbered(pos: &Position) -> String {
    let sfen = pos.to_sfen();
    sfen.rsplit_once(' ')
        .map_or(sfen.clone(), |(s, _)| s.to_string())
}

/// Whether the game's loser is the side to move at its end.
fn loser_to_move(p: &Played) -> bool {
    p.record.end.result == Decision::Win(!p.next)
}

/// Who won, as a record's end must tell it: the match's winner, but none for a win by
/// adjudication whose loser is not to move (no form has a word for the resignation of the side
/// not to move: the record says the game stopped, and its comment why).
fn expected_winner(p: &Played) -> Option<Color> {
    match p.record.end.result {
        Decision::Win(_) if p.record.end.reason == Reason::Adjudication && !loser_to_move(p) => {
            None
        }
        Decision::Win(w) => Some(w),
        _ => None,
    }
}

/// Whether an ending is a draw (千日手, the move limit, 持将棋, a draw agreed).
fn is_draw(end: Ending) -> bool {
    matches!(
        end,
        Ending::Repetition | Ending::MaxMoves | Ending::Jishogi | Ending::Draw
    )
}

/// The ending KIF reads back for the ending CSA does: KIF has no word for the move limit nor
/// for a draw agreed, and writes both 持将棋.
fn in_kif(end: Ending) -> Ending {
    match end {
        Ending::MaxMoves | Ending::Draw => Ending::Jishogi,
        e => e,
    }
}

fn csa_text(seed: u64, p: &Played) -> String {
    let mut out = Vec::new();
    write_csa(&mut out, &info(seed), &p.record, &limits(seed)).unwrap();
    String::from_utf8(out).unwrap()
}

fn kif_text(seed: u64, p: &Played) -> String {
    let mut out = Vec::new();
    write_kif(&mut out, &info(seed), &p.record, &limits(seed)).unwrap();
    String::from_utf8(out).unwrap()
}

/// What the round trip covered, so that the test shows it saw every shape.
#[derive(Default)]
struct Seen {
    drops: bool,
    promotions: bool,
    non_promotions: bool,
    other_starts: bool,
    csa_ends: HashSet<Ending>,
    kif_ends: HashSet<Ending>,
}

impl Seen {
    fn game(&mut self, p: &Played) {
        let mut pos = p.record.opening.start.clone();
        self.other_starts |= pos != Position::startpos();
        for mv in p.record.all_moves() {
            match mv {
                Move::Drop { .. } => self.drops = true,
                Move::Normal { promote: true, .. } => self.promotions = true,
                Move::Normal { from, to, .. } => {
                    let kind = pos.piece_at(from).unwrap().kind;
                    let color = pos.side_to_move();
                    let zone = |r: u8| {
                        if color == Color::Black {
                            r <= 3
                        } else {
                            r >= 7
                        }
                    };
                    let promotable = kind.promote().is_some();
                    self.non_promotions |= promotable && (zone(from.rank()) || zone(to.rank()));
                }
            }
            pos.do_move(mv);
        }
    }
}

#[test]
fn every_record_written_reads_back_as_the_game() {
    let mut seen = Seen::default();
    for seed in 0..300 {
        let p = played(seed);
        let moves: Vec<Move> = p.record.all_moves().collect();
        let start = unnumbered(&p.record.opening.start);

        let text = csa_text(seed, &p);
        let mut csas =
            csa::read_records(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        let csa = csas.remove(0);
        assert_eq!(unnumbered(&csa.start), start, "seed {seed}");
        let read: Vec<Move> = csa.moves.iter().map(|m| m.mv).collect();
        assert_eq!(read, moves, "seed {seed}");
        let end = csa
            .ending()
            .unwrap_or_else(|| panic!("seed {seed}: no end\n{text}"));
        assert_eq!(
            form::winner(end, p.next),
            expected_winner(&p),
            "seed {seed}: {text}"
        );
        assert_eq!(
            is_draw(end),
            p.record.end.result == Decision::Draw,
            "seed {seed}: {text}"
        );

        let text = kif_text(seed, &p);
        let mut kifs =
            kif::read_records(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        let kif = kifs.remove(0);
        assert_eq!(unnumbered(&kif.start), start, "seed {seed}");
        let read: Vec<Move> = kif.moves.iter().map(|m| m.mv).collect();
        assert_eq!(read, moves, "seed {seed}");
        assert_eq!(kif.ending(), Some(in_kif(end)), "seed {seed}: {text}");
        // A foul is the loser's: 反則負け when the loser is the side to move, 反則勝ち when not.
        if let Ending::Foul(_) = end {
            let word = if loser_to_move(&p) {
                " 反則負け "
            } else {
                " 反則勝ち "
            };
            assert!(text.contains(word), "{text}");
        }

        seen.game(&p);
        seen.csa_ends.extend(csa.ending());
        seen.kif_ends.extend(kif.ending());
    }
    assert!(seen.drops && seen.promotions && seen.non_promotions && seen.other_starts);
    assert_eq!(seen.csa_ends.len(), 10, "{:?}", seen.csa_ends);
    assert_eq!(seen.kif_ends.len(), 9, "{:?}", seen.kif_ends);
}
