//! Helpers for the tests of the match runner's statistics (`tests/pure/tournament_*.rs`).

use saikoro_core::GameResult;
use saikoro_match::{Pentanomial, Tally};

/// `actual` is within `tolerance` of `expected`.
#[track_caller]
pub fn assert_near(actual: f64, expected: f64, tolerance: f64) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "{actual} is not within {tolerance} of {expected}"
    );
}

/// `actual` agrees with a high-precision `expected` to 1e-9 relative (1e-12 absolute near 0).
#[track_caller]
pub fn assert_precise(actual: f64, expected: f64) {
    assert_near(actual, expected, 1e-9 * expected.abs().max(1e-3));
}

/// Pair counts in the order of fastchess's `Stats(ll, ld, wl, dd, wd, ww)`.
pub fn penta(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Pentanomial {
    Pentanomial {
        ll,
        ld,
        wl,
        dd,
        wd,
        ww,
    }
}

/// The games of a pentanomial count, as [`Tally::add_pair`] adds them.
pub fn tally_of(p: Pentanomial) -> Tally {
    use GameResult::{Draw, Loss, Win};
    let mut tally = Tally::default();
    for (count, first, second) in [
        (p.ll, Loss, Loss),
        (p.ld, Loss, Draw),
        (p.wl, Win, Loss),
        (p.dd, Draw, Draw),
        (p.wd, Draw, Win),
        (p.ww, Win, Win),
    ] {
        for _ in 0..count {
            tally.add_pair(first, second);
        }
    }
    tally
}
