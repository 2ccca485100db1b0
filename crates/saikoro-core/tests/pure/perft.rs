//! Perft against `positions/perft.txt`. Entries up to [`FAST_LIMIT`] nodes run in plain
//! `cargo test`; the deep ones (startpos depth 6, matsuri depth 4, ...) run with
//! `cargo test --release -p saikoro-core --lib pure::perft:: -- --ignored`.

use saikoro_core::{divide, divide_until, perft, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Node counts above this are left to the ignored deep test.
const FAST_LIMIT: u64 = 2_000_000;

fn run(select: impl Fn(u64) -> bool) -> usize {
    let mut checked = 0;
    let mut failures = Vec::new();
    for rec in saikoro_core::published_perft() {
        let mut pos = Position::from_sfen(rec.sfen)
            .unwrap_or_else(|e| panic!("{}: {e}: {}", rec.id, rec.sfen));
        for &(depth, expected) in &rec.counts {
            if !select(expected) {
                continue;
            }
            let got = perft(&mut pos, depth);
            checked += 1;
            if got != expected {
                failures.push(format!(
                    "{} perft {depth}: expected {expected}, got {got} ({})",
                    rec.id, rec.sfen
                ));
            }
            assert_eq!(
                pos.to_sfen(),
                Position::from_sfen(rec.sfen).unwrap().to_sfen()
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    checked
}

#[test]
fn perft_file_is_well_formed() {
    let recs = saikoro_core::published_perft();
    assert!(recs.len() >= 11, "only {} records", recs.len());
    for r in &recs {
        assert!(!r.sfen.is_empty() && !r.counts.is_empty(), "{r:?}");
    }
    let startpos = recs.iter().find(|r| r.id == "startpos").unwrap();
    assert!(startpos.counts.contains(&(6, 547_581_517)));
}

#[test]
fn perft_shallow() {
    let n = run(|nodes| nodes <= FAST_LIMIT);
    assert!(n >= 25, "only {n} shallow entries");
}

#[test]
#[ignore = "deep perft: run with `cargo test --release -p saikoro-core --lib pure::perft:: -- --ignored`"]
fn perft_deep() {
    let n = run(|nodes| nodes > FAST_LIMIT);
    assert!(n >= 5, "only {n} deep entries");
}

/// The divide that `go perft` prints, stoppable: unstopped, it is `divide` and its total the
/// start position's perft 4 (719,731; positions/perft.txt gives the sources); stopped before
/// it starts, nothing is counted; stopped midway (from another thread, as the engine does), every
/// move listed carries its full count, in canonical order, and the count is marked incomplete.
#[test]
fn divide_until_stops_with_exact_counts() {
    let mut pos = Position::startpos();
    let full = divide_until(&mut pos, 4, &AtomicBool::new(false));
    assert!(full.is_complete());
    assert_eq!(full.total(), 719_731);
    assert_eq!(full.counts, divide(&mut pos, 4));
    let none = divide_until(&mut pos, 4, &AtomicBool::new(true));
    assert_eq!((none.counts.len(), none.root_moves), (0, 30));
    assert!(!none.is_complete());
    // Depth 6 (547,581,517 leaves) cannot end within the 300 ms before the stop.
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        flag.store(true, Ordering::Relaxed);
    });
    let part = divide_until(&mut pos, 6, &stop);
    stopper.join().unwrap();
    assert!(!part.is_complete(), "{} of 30 moves", part.counts.len());
    for (i, (m, n)) in part.counts.iter().enumerate() {
        assert_eq!(*m, full.counts[i].0, "canonical order");
        let undo = pos.do_move(*m);
        assert_eq!(*n, perft(&mut pos, 5), "{m}");
        pos.undo_move(*m, undo);
    }
    assert_eq!(pos, Position::startpos(), "the position is restored");
}
