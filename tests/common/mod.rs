//! The records of `positions/perft.txt`, read by `tests/pure/perft.rs` (in the library's unit
//! tests) and by `tests/it/usi_bench.rs` (the perft part of `bench`). Each includes this file
//! with `#[path]`; it is the only code that two test crates compile.

use std::path::PathBuf;

/// The text of `positions/<name>`.
pub fn read_positions_file(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "positions", name]
        .iter()
        .collect();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One record of `positions/perft.txt`.
#[derive(Debug)]
pub struct PerftRecord {
    pub id: String,
    pub sfen: String,
    /// `(depth, nodes)` pairs in file order.
    pub counts: Vec<(u32, u64)>,
}

/// Parses `positions/perft.txt` (shakmaty's record style: `id`, `sfen`, `perft <d> <n>`,
/// blank lines between records, `#` comment lines).
pub fn perft_records() -> Vec<PerftRecord> {
    let text = read_positions_file("perft.txt");
    let mut records = Vec::new();
    let mut current: Option<PerftRecord> = None;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            records.extend(current.take());
            continue;
        }
        let (key, value) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("perft.txt:{}: no value in {line:?}", n + 1));
        match key {
            "id" => {
                records.extend(current.take());
                current = Some(PerftRecord {
                    id: value.to_string(),
                    sfen: String::new(),
                    counts: Vec::new(),
                });
            }
            "sfen" => current.as_mut().expect("sfen before id").sfen = value.to_string(),
            "perft" => {
                let (d, nodes) = value.split_once(' ').expect("perft <depth> <nodes>");
                current.as_mut().expect("perft before id").counts.push((
                    d.parse().expect("depth"),
                    nodes.parse().expect("node count"),
                ));
            }
            _ => panic!("perft.txt:{}: unknown key {key:?}", n + 1),
        }
    }
    records.extend(current);
    records
}
