//! The statistics `saikoro match` prints, through the real binary, checked against figures
//! computed here from the results file by the published formulas (fastchess's trinomial and
//! pentanomial Elo with a 95 % normal interval), not by the runner's code: odd `--games`,
//! colours with one game per round and `--noswap`, games repeated by deterministic engines,
//! and the standings of three engines.

use crate::match_support;
use crate::usi_support;

use match_support::*;
use usi_support::Dir;

/// Φ⁻¹(0.975).
const Z: f64 = 1.959_963_984_540_054;

/// Logistic Elo of a score.
fn elo_of(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Elo and the half-width of its 95 % interval from samples taking `values` `counts` times
/// (single games: 0, ½, 1; game pairs: 0, ¼, ½, ¾, 1 of the pair's two points).
fn elo_and_error(values: &[f64], counts: &[u64]) -> (f64, f64) {
    let n: f64 = counts.iter().sum::<u64>() as f64;
    let s: f64 = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| v * c as f64)
        .sum::<f64>()
        / n;
    let var: f64 = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| c as f64 / n * (v - s).powi(2))
        .sum();
    let hw = Z * (var / n).sqrt();
    (elo_of(s), (elo_of(s + hw) - elo_of(s - hw)) / 2.0)
}

/// A game of the results file: (number, black, white, points of Black).
fn games(dir: &Dir) -> Vec<(u64, String, String, f64)> {
    results(dir)
        .iter()
        .map(|l| {
            let points = match field(l, "result").unwrap().as_str() {
                "1-0" => 1.0,
                "0-1" => 0.0,
                _ => 0.5,
            };
            (
                field(l, "game").unwrap().parse().unwrap(),
                field(l, "black").unwrap(),
                field(l, "white").unwrap(),
                points,
            )
        })
        .collect()
}

/// `engine`'s points in a game.
fn points_of(g: &(u64, String, String, f64), engine: &str) -> f64 {
    if g.1 == engine {
        g.3
    } else {
        1.0 - g.3
    }
}

/// The `Elo: X +/- Y` of a block.
fn printed_elo(block: &str) -> (String, String) {
    let line = block.lines().find(|l| l.starts_with("Elo: ")).unwrap();
    let rest = &line["Elo: ".len()..line.find(',').unwrap()];
    let (e, err) = rest.split_once(" +/- ").unwrap();
    (e.to_string(), err.to_string())
}

/// Two decimals; an exact zero as `0.00` (as the runner prints it, not fastchess's `-0.00`).
fn two(x: f64) -> String {
    format!("{:.2}", if x == 0.0 { 0.0 } else { x })
}

/// `--games 3`: the third game of each round has no partner, so the block counts every game
/// as a single game (trinomial), says so, and its Elo agrees with its W/L/D line.
#[test]
fn odd_games_count_every_game_and_say_why() {
    let dir = Dir::new("stats-odd");
    let r = run(
        &dir,
        &cat(&[
            // Seeds whose six games hold a win, a loss and a draw (a seeded Saikoro is one
            // random stream per session: other seeds, other games).
            saikoro("a", 25),
            saikoro("b", 73),
            words("--each depth=1 --games 3 --rounds 2 --ratinginterval 0"),
            openings(&dir, "startpos moves 7g7f\nstartpos moves 2g2f\n"),
        ]),
    );
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    let games = games(&dir);
    assert_eq!(games.len(), 6);
    let mut counts = [0u64; 3]; // losses, draws, wins of a
    for g in &games {
        counts[(points_of(g, "a") * 2.0) as usize] += 1;
    }
    let block = final_table(&r.out);
    let [l, d, w] = counts;
    assert!(
        block.contains(&format!("Games: 6, Wins: {w}, Losses: {l}, Draws: {d},")),
        "{block}"
    );
    assert!(
        block.contains(
            "2 of 6 games unpaired (--games 3 is odd, so the last game of each round has no \
             partner): figures from single games, not game pairs"
        ),
        "{block}"
    );
    assert!(!block.contains("Ptnml"), "{block}");
    if w > 0 && l + d > 0 {
        let (e, err) = elo_and_error(&[0.0, 0.5, 1.0], &counts);
        assert_eq!(printed_elo(&block), (two(e), two(err)), "{block}");
    } else {
        panic!("choose seeds with a mixed result: {counts:?}");
    }
}

/// The Black and White engines of each `Finished game` line.
fn colours(out: &str) -> Vec<(String, String)> {
    out.lines()
        .filter_map(|l| {
            let l = l.strip_prefix("Finished game ")?;
            let inner = &l[l.find('(')? + 1..l.find("):")?];
            let (b, w) = inner.split_once(" vs ")?;
            Some((b.to_string(), w.to_string()))
        })
        .collect()
}

/// One game per round: the colours alternate from round to round (fastchess and cutechess do
/// the same), and the block is trinomial with its reason. `--noswap` keeps them fixed.
#[test]
fn one_game_per_round_alternates_colours_unless_noswap() {
    let dir = Dir::new("stats-colours");
    let base = cat(&[
        saikoro("a", 3),
        saikoro("b", 4),
        words("--each depth=1 --games 1 --rounds 4 --maxplies 40 --ratinginterval 0"),
    ]);
    let r = run(&dir, &base);
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    let ab = ("a".to_string(), "b".to_string());
    let ba = ("b".to_string(), "a".to_string());
    assert_eq!(colours(&r.out), [ab.clone(), ba.clone(), ab.clone(), ba]);
    assert!(
        r.out
            .contains("4 of 4 games unpaired (--games 1 plays no game pairs)"),
        "{}",
        r.out
    );
    let dir = Dir::new("stats-noswap");
    let r = run(&dir, &cat(&[base, words("--noswap")]));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    assert_eq!(colours(&r.out), vec![ab; 4]);
    assert!(r.out.contains("(--noswap keeps the colours"), "{}", r.out);
}

/// The earlier game each game repeats, found here by comparing the results file's moves,
/// engines and results: game → the first game with the same.
fn repeats_by_moves(dir: &Dir) -> Vec<(u64, Option<u64>)> {
    let lines = results(dir);
    let key = |l: &String| {
        (
            field(l, "black"),
            field(l, "white"),
            field(l, "opening"),
            moves(l),
            field(l, "result"),
            field(l, "reason"),
        )
    };
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let earlier = lines[..i].iter().find(|e| key(e) == key(l));
            (
                field(l, "game").unwrap().parse().unwrap(),
                earlier.map(|e| field(e, "game").unwrap().parse().unwrap()),
            )
        })
        .collect()
}

/// Two deterministic engines (the fault engine's `first`: the first legal move, every move)
/// replay the same two games from the one opening: the blocks say how many games repeated an
/// earlier one, the results file marks them, and `--distinct-games` counts each distinct game
/// once. Engines that vary repeat nothing.
#[test]
fn repeated_games_are_counted_marked_and_can_be_counted_once() {
    let dir = Dir::new("stats-repeats");
    let base = cat(&[
        faulty("a", &["first"]),
        faulty("b", &["first"]),
        words("--each depth=1 --rounds 4 --maxplies 80 --ratinginterval 4"),
    ]);
    let r = run(&dir, &base);
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    let found = repeats_by_moves(&dir);
    let repeated = found.iter().filter(|(_, e)| e.is_some()).count();
    // Each colour's game again in every round.
    assert_eq!(repeated, 6, "{found:?}");
    for (line, (game, earlier)) in results(&dir).iter().zip(&found) {
        assert_eq!(
            field(line, "repeats").map(|n| n.parse::<u64>().unwrap()),
            *earlier,
            "game {game}"
        );
    }
    // In the block after 4 games and in the last one.
    assert!(
        r.out
            .contains("2 of 4 games repeated an earlier game move for move: use more openings"),
        "{}",
        r.out
    );
    let block = final_table(&r.out);
    assert!(
        block.contains("6 of 8 games repeated an earlier game move for move"),
        "{block}"
    );
    assert!(block.contains("Games: 8,"), "{block}");

    let once = Dir::new("stats-repeats-once");
    let r = run(&once, &cat(&[base, words("--distinct-games")]));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    let block = final_table(&r.out);
    assert!(block.contains("Games: 2,"), "{block}");
    assert!(
        block.contains("6 of 8 games repeated an earlier game move for move; --distinct-games left out 6 games"),
        "{block}"
    );

    // Engines drawing their seed (Seed 0): no game repeats, no line.
    let varied = Dir::new("stats-repeats-none");
    let r = run(
        &varied,
        &cat(&[
            saikoro("a", 0),
            saikoro("b", 0),
            words("--each depth=1 --rounds 4 --maxplies 80 --ratinginterval 0"),
        ]),
    );
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    assert!(repeats_by_moves(&varied).iter().all(|(_, e)| e.is_none()));
    assert!(!r.out.contains("repeated an earlier game"), "{}", r.out);
}

/// Three engines: after the three pairs' blocks, the standings of the field, each engine's
/// games against both others, ranked by the pentanomial Elo computed here from its pairs.
#[test]
fn three_engines_get_the_standings_of_the_field() {
    let dir = Dir::new("stats-field");
    let r = run(
        &dir,
        &cat(&[
            saikoro("a", 31),
            saikoro("b", 32),
            saikoro("c", 33),
            words("--each depth=1 --rounds 3 --ratinginterval 0"),
            openings(&dir, "startpos moves 7g7f\nstartpos moves 2g2f\n"),
        ]),
    );
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    let games = games(&dir);
    assert_eq!(games.len(), 18);
    let table = final_table(&r.out);
    assert!(
        table.contains("Standings (from game pairs, Elo against the field):"),
        "{table}"
    );
    let mut expected: Vec<(String, f64, f64, u64, f64)> = ["a", "b", "c"]
        .iter()
        .map(|&e| {
            // Games 2k-1 and 2k are a pair (the same engines, colours swapped).
            let mine: Vec<_> = games.iter().filter(|g| g.1 == e || g.2 == e).collect();
            let mut bins = [0u64; 5];
            for pair in mine.chunks(2) {
                assert_eq!(pair[0].0 + 1, pair[1].0);
                let pts = points_of(pair[0], e) + points_of(pair[1], e);
                bins[(pts * 2.0) as usize] += 1;
            }
            let (elo, err) = elo_and_error(&[0.0, 0.25, 0.5, 0.75, 1.0], &bins);
            let points: f64 = mine.iter().map(|g| points_of(g, e)).sum();
            (
                e.to_string(),
                elo,
                err,
                mine.len() as u64,
                points / mine.len() as f64,
            )
        })
        .collect();
    assert!(
        expected.iter().any(|e| e.1 != 0.0),
        "every engine scored even: choose other seeds"
    );
    expected.sort_by(|a, b| b.1.total_cmp(&a.1));
    let rows: Vec<Vec<&str>> = table
        .lines()
        .skip_while(|l| !l.starts_with("Rank"))
        .skip(1)
        .take(3)
        .map(|l| l.split_whitespace().collect())
        .collect();
    for (i, (row, (name, elo, err, n, score))) in rows.iter().zip(&expected).enumerate() {
        assert_eq!(row[0], (i + 1).to_string(), "{table}");
        assert_eq!(row[1], name, "{table}");
        assert_eq!(
            (row[2], row[3]),
            (two(*elo).as_str(), two(*err).as_str()),
            "{table}"
        );
        assert_eq!(row[6], n.to_string(), "{table}");
        assert_eq!(row[7], format!("{:.1}%", score * 100.0), "{table}");
    }
}
