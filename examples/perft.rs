//! `cargo run --release --example perft -- "<sfen>" <depth>`: prints nodes, time and nodes/s.
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let sfen = args
        .get(1)
        .map(String::as_str)
        .unwrap_or(saikoro::STARTPOS_SFEN);
    let depth: u32 = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(4);
    let mut pos = saikoro::Position::from_sfen(sfen).expect("valid SFEN");
    let t = Instant::now();
    let n = saikoro::perft(&mut pos, depth);
    let s = t.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {n}  {s:.3} s  {:.0} nodes/s",
        n as f64 / s
    );
}
