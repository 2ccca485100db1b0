//! Writes the sample of positions from random games that `benches/movegen.rs` reads
//! (`positions/random-games.sfen`):
//! `cargo run --release --example random_positions > positions/random-games.sfen`.
//!
//! 100 games from the start position, each move drawn uniformly from the legal moves in
//! canonical order with `SplitMix64` seeded 2026 (one generator for all games), a game ending
//! at mate or after 4,000 plies (no repetition rule: the same loop as the bench's); the
//! position before every 70th ply (70, 140, ...) is kept.

use saikoro_core::{Position, SplitMix64};

const GAMES: u32 = 100;
const EVERY: u32 = 70;
const MAX_PLIES: u32 = 4_000;
const SEED: u64 = 2026;

fn main() {
    let mut rng = SplitMix64::new(SEED);
    println!(
        "# Positions from random games: see positions/README.md and examples/random_positions.rs."
    );
    for _ in 0..GAMES {
        let mut pos = Position::startpos();
        for ply in 0..MAX_PLIES {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if ply > 0 && ply % EVERY == 0 {
                println!("{pos}");
            }
            pos.do_move(moves[rng.below(moves.len() as u64) as usize]);
        }
    }
}
