//! Perft against `positions/perft.txt`. Entries up to [`FAST_LIMIT`] nodes run in plain
//! `cargo test`; the deep ones (startpos depth 6, matsuri depth 4, ...) run with
//! `cargo test --release --test perft -- --ignored`.

mod common;

use saikoro::{perft, Position};

/// Node counts above this are left to the ignored deep test.
const FAST_LIMIT: u64 = 2_000_000;

fn run(select: impl Fn(u64) -> bool) -> usize {
    let mut checked = 0;
    let mut failures = Vec::new();
    for rec in common::perft_records() {
        let mut pos = Position::from_sfen(&rec.sfen)
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
                Position::from_sfen(&rec.sfen).unwrap().to_sfen()
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    checked
}

#[test]
fn perft_file_is_well_formed() {
    let recs = common::perft_records();
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
#[ignore = "deep perft: run with `cargo test --release --test perft -- --ignored`"]
fn perft_deep() {
    let n = run(|nodes| nodes > FAST_LIMIT);
    assert!(n >= 5, "only {n} deep entries");
}
