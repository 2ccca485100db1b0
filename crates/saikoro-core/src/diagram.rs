//! The board diagram of the `d` debug command.

use crate::{Color, Hand, Position, Square};

/// A board diagram for humans: White's hand, ranks top to bottom with files 9 to 1, Black's
/// hand.
pub fn diagram(pos: &Position) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "White hand: {}\n",
        hand_text(pos.hand(Color::White))
    ));
    s.push_str("  9  8  7  6  5  4  3  2  1\n");
    for rank in 1..=9u8 {
        s.push('|');
        for file in (1..=9u8).rev() {
            let sq = Square::new(file, rank).expect("board square");
            match pos.piece_at(sq) {
                Some(p) => s.push_str(&format!("{:>2}", p.to_string())),
                None => s.push_str(" ."),
            }
            s.push(' ');
        }
        s.push_str(&format!("| {}\n", (b'a' + rank - 1) as char));
    }
    s.push_str(&format!(
        "Black hand: {}\n",
        hand_text(pos.hand(Color::Black))
    ));
    s
}

fn hand_text(h: &Hand) -> String {
    if h.is_empty() {
        "-".to_string()
    } else {
        h.to_string()
    }
}
