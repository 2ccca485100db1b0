//! Prints Saikoro's KI2 text of every legal move of each SFEN read on stdin, one line each:
//! `SFEN<TAB>USI move<TAB>KI2 text` (blank lines and `#` comments are skipped; an unreadable
//! SFEN is named on stderr and the exit status is 1). `positions/ki2_crosscheck.mjs` compares
//! these texts with tsshogi's:
//!
//! ```text
//! cargo run --release --example ki2_moves < positions/random-games.sfen > /tmp/ki2-saikoro.tsv
//! ```
//!
//! With `--read` it reads such lines instead (another program's texts) and checks that Saikoro
//! reads each text as the move named: it prints every line it reads otherwise, with the reason,
//! and the counts on stderr; the exit status is 1 if any line failed.

use saikoro_core::{Move, Position};
use saikoro_record::ki2::notation::{read_move, write_move};
use std::io::{BufRead, BufWriter, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let read = std::env::args().nth(1).is_some_and(|a| a == "--read");
    let stdin = std::io::stdin().lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let (mut good, mut bad) = (0u64, 0u64);
    for line in stdin.split(b'\n') {
        let Ok(line) = line else { break };
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\r', '\n']);
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split('\t');
        let sfen = fields.next().unwrap_or("").trim();
        let pos = match Position::from_sfen(sfen) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("ki2_moves: {sfen}: {e}");
                bad += 1;
                continue;
            }
        };
        let written = if read {
            let (usi, text) = (fields.next().unwrap_or(""), fields.next().unwrap_or(""));
            match (Move::from_usi(usi), read_move(&pos, text, None)) {
                (Ok(mv), Ok(got)) if got == mv => {
                    good += 1;
                    Ok(())
                }
                (_, got) => {
                    bad += 1;
                    writeln!(out, "{line}\t{got:?}")
                }
            }
        } else {
            pos.legal_moves()
                .iter()
                .try_for_each(|&mv| writeln!(out, "{sfen}\t{mv}\t{}", write_move(&pos, mv, None)))
        };
        if written.is_err() {
            return ExitCode::FAILURE;
        }
    }
    if read {
        eprintln!("read as named: {good}, otherwise: {bad}");
    }
    if out.flush().is_err() || bad > 0 {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
