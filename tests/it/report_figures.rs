//! Every figure of the report page drawn for the results it once drew nothing for (issue 43):
//! no game, one game, every game won, every game lost, every game drawn. Each is a real match
//! with `--report` and an SPRT (`elo0=0 elo1=400 model=logistic`, so that a few games decide
//! it), its page loaded in headless Chromium (the tests say SKIPPED without it), and what the
//! page shows — the standings' line, the game pairs, both plots with each point's words, the
//! printed block — checked against figures worked out by hand from the counts:
//!
//! - Elo, 400·log₁₀(s/(1 − s)) of the score s: every game won is s = 1, Elo +∞ (the block's
//!   `inf`; the page, which writes a + before a positive figure, `+inf`), its interval
//!   undefined (both ends +∞: `n/a`), nElo (s − ½)/σ with σ = 0: +∞; every game lost, −∞;
//!   every game drawn, s = ½ and σ = 0: Elo 0 ± 0 (an interval of no width), nElo 0/0, `n/a`.
//! - The SPRT's bounds (Wald): ln(β/(1 − α)) = ln(1/19) = −2.944 and ln 19 = 2.944.
//! - Its LLR, Σ nᵢ ln(p₁ᵢ/p₀ᵢ) over the counts with each empty bin given 10⁻³, each hypothesis's
//!   distribution p̂ᵢ/(1 + θ(aᵢ − s)), θ the root of Σ p̂ᵢ(aᵢ − s)/(1 + θ(aᵢ − s)) = 0 (Van den
//!   Bergh, "Comparing the approximations for the generalized log likelihood ratio of a
//!   multinomial distribution", Proposition 1.1), s₀ = ½ and s₁ = 1/(1 + 10⁻¹) = 10/11 for Elo
//!   0 and 400. Solved at 50 digits by `crates/saikoro-match/tests/tournament_reference.py`
//!   (its "report page" cases, by the Karush-Kuhn-Tucker system, not by the code under test),
//!   and again by plain bisection on θ to the same digits: k pairs won twice
//!   (WW) 0.5979, 1.1957, 1.7936, 2.3914, 2.9893 for k = 1…5, so H1 is accepted at the fifth
//!   pair (2.9893 ≥ 2.9444); k pairs lost twice (LL) −1.7093, −3.4140, H0 at the second; k
//!   pairs drawn twice (DD) −1.7026, −3.4066, H0 at the second; one game won, no pair (W 1,
//!   D 0, L 0) 0.5967; no game (every bin 10⁻³) −0.0049, which the block prints as `-0.00` and
//!   the page as 0.00 (its figures have no negative zero).
//! - The block's per cent of the way to a bound: 2.9893/2.9444 = 101.5 %, −3.4140/2.9444 =
//!   −115.9 %, −3.4066/2.9444 = −115.7 %, 0.5967/2.9444 = 20.3 %, −0.0049/2.9444 = −0.2 %.

use crate::match_support::*;
use crate::report::{chromium, load};
use crate::usi_support::Dir;
use scraper::{ElementRef, Html, Selector};
use std::path::Path;
#[cfg(unix)]
use std::time::{Duration, Instant};

/// The SPRT of every match here, with a point of the plots every game pair.
const SPRT: &str = "--sprt elo0=0 elo1=400 model=logistic --ratinginterval 2";

/// One opening a round, so that no game repeats another (the page tells repeated games).
const OPENINGS: &str = "startpos moves 7g7f\nstartpos moves 2g2f\nstartpos moves 5g5f\n\
    startpos moves 1g1f\nstartpos moves 9g9f\nstartpos moves 3g3f\n";

/// Saikoro, which plays on.
fn winner() -> Vec<String> {
    saikoro("winner", 1)
}

/// The fault engine, resigning at its first move.
fn loser() -> Vec<String> {
    faulty("loser", &["resign"])
}

/// The arguments of a match of `engines` with `more` flags, its SPRT and its page.
fn match_args(dir: &Dir, engines: &[Vec<String>], more: &str) -> Vec<String> {
    let mut args = cat(engines);
    args.extend(openings(dir, OPENINGS));
    args.extend(words(&format!(
        "--each depth=1 {more} {SPRT} --report r.html"
    )));
    args
}

/// Plays the match in a new directory, with Chromium only; the directory, Chromium and what
/// the match printed.
fn play(name: &str, engines: &[Vec<String>], more: &str) -> Option<(Dir, &'static Path, String)> {
    let chromium = chromium()?;
    let dir = Dir::new(name);
    let r = finish(start(&dir, &match_args(&dir, engines, more)));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    Some((dir, chromium, r.out))
}

/// A page as the browser shows it: its DOM once the script has run.
struct Shown(Html);

fn select(css: &str) -> Selector {
    Selector::parse(css).unwrap()
}

impl Shown {
    /// The page of `dir`, loaded: no console message, no error shown.
    fn load(chromium: &Path, dir: &Dir) -> Shown {
        let (dom, console) = load(chromium, &dir.0, &dir.path("r.html"), "");
        assert!(console.is_empty(), "console: {console:?}");
        let shown = Shown(Html::parse_document(&dom));
        assert!(shown.one("#errors").attr("hidden").is_some(), "an error");
        assert!(shown.one("html").attr("data-ready").is_some(), "not drawn");
        shown
    }

    fn all(&self, css: &str) -> Vec<ElementRef<'_>> {
        self.0.select(&select(css)).collect()
    }

    fn one(&self, css: &str) -> scraper::node::Element {
        let e = self.0.select(&select(css)).next();
        e.unwrap_or_else(|| panic!("no {css}")).value().clone()
    }

    /// The text of the first element `css` selects.
    fn text(&self, css: &str) -> String {
        let e = self.0.select(&select(css)).next();
        e.unwrap_or_else(|| panic!("no {css}")).text().collect()
    }

    /// The texts of every element `css` selects, in the page's order.
    fn texts(&self, css: &str) -> Vec<String> {
        self.all(css).iter().map(|e| e.text().collect()).collect()
    }

    /// The page's data, as its script reads it.
    fn data(&self) -> serde_json::Value {
        serde_json::from_str(&self.text("script#data")).unwrap()
    }
}

/// What a page shows, worked out by hand.
struct Expected<'a> {
    /// The status line's end.
    played: &'a str,
    /// The standings' line of the pair.
    pair: &'a str,
    /// The game pairs' heading, and the counts LL, LD, DD+WL, WD, WW beside their bars.
    pairs: &'a str,
    penta: [&'a str; 5],
    /// The Elo plot: its words (the SVG's label), the words of each point, the points drawn
    /// at the top (+inf) and at the bottom (−inf), and words among its legend's.
    elo: &'a str,
    elo_points: &'a [&'a str],
    infinite: (usize, usize),
    elo_legend: &'a [&'a str],
    /// The LLR plot: its words, each point's, its caption.
    llr: &'a str,
    llr_points: &'a [&'a str],
    llr_caption: &'a str,
    /// Lines of the statistics block, as the match prints them.
    block: &'a [&'a str],
}

/// The page shows every figure of `e`; `printed` (what the match printed, if known) has the
/// block's lines too.
fn shows(page: &Shown, e: &Expected<'_>, printed: Option<&str>) {
    let status = page.text("#status");
    assert!(status.ends_with(e.played), "{status}");
    assert_eq!(page.text("#standings p.pair"), e.pair);
    assert_eq!(page.text("#pairs h4"), e.pairs);
    assert_eq!(page.texts("#pairs .bars span.n"), e.penta);
    for fig in ["#fig-elo", "#fig-llr"] {
        assert!(page.one(fig).attr("hidden").is_none(), "{fig} is hidden");
    }
    assert_eq!(page.one("#plot-elo svg").attr("aria-label"), Some(e.elo));
    let tips = page.texts("#plot-elo circle > title, #plot-elo path > title");
    assert_eq!(tips, e.elo_points);
    let marks = |way: &str| page.all(&format!("#plot-elo [data-infinite={way}]")).len();
    assert_eq!((marks("up"), marks("down")), e.infinite);
    let legend = page.texts("#plot-elo svg text");
    for words in e.elo_legend {
        assert!(legend.iter().any(|l| l == words), "{words:?} in {legend:?}");
    }
    assert_eq!(page.one("#plot-llr svg").attr("aria-label"), Some(e.llr));
    assert_eq!(page.texts("#plot-llr circle > title"), e.llr_points);
    let caption = page.text("#cap-llr");
    assert!(caption.ends_with(e.llr_caption), "{caption}");
    let block = page.text("#block");
    for line in e.block {
        assert!(
            block.lines().any(|l| l == *line),
            "{line:?} not in\n{block}"
        );
        if let Some(out) = printed {
            assert!(out.lines().any(|l| l == *line), "{line:?} not printed");
        }
    }
}

/// Ten games, each won by the first engine: five pairs won twice, and H1 accepted at the
/// fifth (LLR 2.99).
#[test]
fn every_game_won() {
    let Some((dir, chromium, out)) = play("figures-won", &[winner(), loser()], "--rounds 6") else {
        return;
    };
    let page = Shown::load(chromium, &dir);
    shows(
        &page,
        &Expected {
            played: "10 games played.",
            pair: "winner vs loser: Elo +inf ± n/a, nElo +inf ± n/a; winner won 10, lost 0, \
                   drew 0 (10 points of 10 games, 100.00 %).",
            pairs: "winner vs loser: 5 pairs",
            penta: ["0", "0", "0", "0", "5"],
            elo: "Elo of winner against loser by games played: +inf after 10 games",
            elo_points: &[
                "after 2 games: Elo +inf",
                "after 4 games: Elo +inf",
                "after 6 games: Elo +inf",
                "after 8 games: Elo +inf",
                "after 10 games: Elo +inf",
            ],
            infinite: (5, 0),
            elo_legend: &["+inf", "▲ at the top: +inf", "now: +inf", "[n/a, n/a]"],
            llr: "LLR of the SPRT by games played: 2.99 after 10 games, between -2.94 and \
                  2.94, H1 accepted",
            llr_points: &[
                "before the first game: LLR 0.00",
                "after 2 games: LLR 0.60",
                "after 4 games: LLR 1.20",
                "after 6 games: LLR 1.79",
                "after 8 games: LLR 2.39",
                "after 10 games: LLR 2.99",
            ],
            llr_caption: "now 2.99, H1 accepted.",
            block: &[
                "Elo: inf +/- n/a, nElo: inf +/- n/a",
                "LOS: 100.00 %, DrawRatio: 0.00 %, PairsRatio: inf",
                "Games: 10, Wins: 10, Losses: 0, Draws: 0, Points: 10.0 (100.00 %)",
                "Ptnml(0-2): [0, 0, 0, 0, 5], WL/DD Ratio: n/a",
                "LLR: 2.99 (101.5%) (-2.94, 2.94) [0.00, 400.00]",
            ],
        },
        Some(&out),
    );
    assert!(page
        .texts("#plot-llr svg > text")
        .contains(&"○ stopped at game 10:".to_string()));
    // The data: the block's inf as a string (JSON has no infinity), its n/a as null.
    let data = page.data();
    let first = &data["standings"][0];
    assert_eq!(
        (&first["engine"], &first["elo"]),
        (&0.into(), &"inf".into())
    );
    assert_eq!(first["elo_err"], serde_json::Value::Null);
    assert_eq!(
        data["series"][4],
        serde_json::json!([10, "inf", null, null, 2.99])
    );
}

/// Four games, each lost by the first engine: two pairs lost twice, and H0 accepted at the
/// second (LLR −3.41).
#[test]
fn every_game_lost() {
    let Some((dir, chromium, out)) = play("figures-lost", &[loser(), winner()], "--rounds 6")
    else {
        return;
    };
    shows(
        &Shown::load(chromium, &dir),
        &Expected {
            played: "4 games played.",
            pair: "loser vs winner: Elo -inf ± n/a, nElo -inf ± n/a; loser won 0, lost 4, \
                   drew 0 (0 points of 4 games, 0.00 %).",
            pairs: "loser vs winner: 2 pairs",
            penta: ["2", "0", "0", "0", "0"],
            elo: "Elo of loser against winner by games played: -inf after 4 games",
            elo_points: &["after 2 games: Elo -inf", "after 4 games: Elo -inf"],
            infinite: (0, 2),
            elo_legend: &["-inf", "▼ at the bottom: -inf", "now: -inf"],
            llr: "LLR of the SPRT by games played: -3.41 after 4 games, between -2.94 and \
                  2.94, H0 accepted",
            llr_points: &[
                "before the first game: LLR 0.00",
                "after 2 games: LLR -1.71",
                "after 4 games: LLR -3.41",
            ],
            llr_caption: "now -3.41, H0 accepted.",
            block: &[
                "Elo: -inf +/- n/a, nElo: -inf +/- n/a",
                "Games: 4, Wins: 0, Losses: 4, Draws: 0, Points: 0.0 (0.00 %)",
                "Ptnml(0-2): [2, 0, 0, 0, 0], WL/DD Ratio: n/a",
                "LLR: -3.41 (-115.9%) (-2.94, 2.94) [0.00, 400.00]",
            ],
        },
        Some(&out),
    );
}

/// Four games drawn at a 2-ply limit: two pairs drawn twice, Elo 0 ± 0, and H0 accepted at
/// the second (LLR −3.41).
#[test]
fn every_game_drawn() {
    let engines = [saikoro("a", 1), saikoro("b", 2)];
    let Some((dir, chromium, out)) = play("figures-drawn", &engines, "--rounds 6 --maxplies 2")
    else {
        return;
    };
    shows(
        &Shown::load(chromium, &dir),
        &Expected {
            played: "4 games played.",
            pair: "a vs b: Elo 0.00 ± 0.00, nElo n/a ± n/a; a won 0, lost 0, drew 4 (2 points \
                   of 4 games, 50.00 %).",
            pairs: "a vs b: 2 pairs",
            penta: ["0", "0", "2", "0", "0"],
            elo: "Elo of a against b by games played: 0.0 after 4 games",
            elo_points: &[
                "after 2 games: Elo 0.00, interval [0.00, 0.00]",
                "after 4 games: Elo 0.00, interval [0.00, 0.00]",
            ],
            infinite: (0, 0),
            elo_legend: &["now: 0.0", "[0.0, 0.0]"],
            llr: "LLR of the SPRT by games played: -3.41 after 4 games, between -2.94 and \
                  2.94, H0 accepted",
            llr_points: &[
                "before the first game: LLR 0.00",
                "after 2 games: LLR -1.70",
                "after 4 games: LLR -3.41",
            ],
            llr_caption: "now -3.41, H0 accepted.",
            block: &[
                "Elo: 0.00 +/- 0.00, nElo: n/a +/- n/a",
                "LOS: n/a, DrawRatio: 100.00 %, PairsRatio: n/a",
                "Games: 4, Wins: 0, Losses: 0, Draws: 4, Points: 2.0 (50.00 %)",
                "Ptnml(0-2): [0, 0, 2, 0, 0], WL/DD Ratio: 0.00",
                "LLR: -3.41 (-115.7%) (-2.94, 2.94) [0.00, 400.00]",
            ],
        },
        Some(&out),
    );
}

/// One game (`--games 1 --rounds 1`), won: no pair, the figures of the single game, LLR 0.60.
#[test]
fn one_game() {
    let engines = [winner(), loser()];
    let Some((dir, chromium, out)) = play("figures-one", &engines, "--games 1 --rounds 1") else {
        return;
    };
    let page = Shown::load(chromium, &dir);
    shows(
        &page,
        &Expected {
            played: "1 game played.",
            pair: "winner vs loser: Elo +inf ± n/a, nElo +inf ± n/a; winner won 1, lost 0, \
                   drew 0 (1 point of 1 game, 100.00 %).",
            pairs: "winner vs loser: 0 pairs",
            penta: ["0"; 5],
            elo: "Elo of winner against loser by games played: +inf after 1 game",
            elo_points: &["after 1 game: Elo +inf"],
            infinite: (1, 0),
            elo_legend: &["+inf", "now: +inf"],
            llr: "LLR of the SPRT by games played: 0.60 after 1 game, between -2.94 and 2.94, \
                  no decision yet",
            llr_points: &["before the first game: LLR 0.00", "after 1 game: LLR 0.60"],
            llr_caption: "now 0.60, no decision yet.",
            block: &[
                "Elo: inf +/- n/a, nElo: inf +/- n/a",
                "LOS: 100.00 %, DrawRatio: 0.00 %",
                "Games: 1, Wins: 1, Losses: 0, Draws: 0, Points: 1.0 (100.00 %)",
                "LLR: 0.60 (20.3%) (-2.94, 2.94) [0.00, 400.00]",
            ],
        },
        Some(&out),
    );
    assert_eq!(page.text("#pairs p.hint"), "Also 1 unpaired game.");
}

/// No game: a match whose engine takes 10 s over its first move, ended by SIGTERM once its
/// page is written. Its axes, the SPRT's bounds and its start are drawn, and say so.
#[cfg(unix)]
#[test]
fn no_game() {
    let Some(chromium) = chromium() else {
        return;
    };
    let dir = Dir::new("figures-none");
    let engines = [faulty("a", &["slow=10000"]), winner()];
    let child = start(&dir, &match_args(&dir, &engines, "--rounds 6"));
    let t = Instant::now();
    while !dir.path("r.html").exists() {
        assert!(t.elapsed() < DEADLINE, "no page");
        std::thread::sleep(Duration::from_millis(10));
    }
    // The hook that finishes the page on a signal is set just after that first write.
    std::thread::sleep(Duration::from_millis(300));
    let ok = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let r = finish(child);
    assert_eq!(r.status.code(), Some(143), "{}\n{}", r.out, r.err);
    let page = Shown::load(chromium, &dir);
    shows(
        &page,
        &Expected {
            played: "0 games played.",
            pair: "a vs winner: Elo n/a ± n/a, nElo n/a ± n/a; a won 0, lost 0, drew 0 (0 \
                   points of 0 games, n/a).",
            pairs: "a vs winner: 0 pairs",
            penta: ["0"; 5],
            elo: "Elo of a against winner by games played: no estimate yet, as no game has \
                  been counted",
            elo_points: &[],
            infinite: (0, 0),
            elo_legend: &["No estimate yet: no game has been counted."],
            llr: "LLR of the SPRT by games played: 0.00 after 0 games, between -2.94 and \
                  2.94, no decision yet",
            llr_points: &["before the first game: LLR 0.00"],
            llr_caption: "now 0.00, no decision yet.",
            block: &[
                "Elo: n/a +/- n/a, nElo: n/a +/- n/a",
                "LOS: n/a, DrawRatio: n/a, PairsRatio: n/a",
                "Games: 0, Wins: 0, Losses: 0, Draws: 0, Points: 0.0 (n/a)",
                "Ptnml(0-2): [0, 0, 0, 0, 0], WL/DD Ratio: n/a",
                "LLR: -0.00 (-0.2%) (-2.94, 2.94) [0.00, 400.00]",
            ],
        },
        None,
    );
    assert_eq!(
        page.texts("#notes li"),
        [
            "No game has been counted yet.",
            "Match ended by SIGTERM (exit status 143)"
        ]
    );
    assert_eq!(page.text("#lengths"), "No games yet.");
}
