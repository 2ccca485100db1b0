//! Reading KI2 records: the reader KIF and KI2 share (see [`crate::kif`]) with KI2's move lines, each
//! move read by the rules ([`notation::read_move`](super::notation::read_move)): a text that
//! fits two pieces or none, a drop of a piece not in hand, 二歩, 打ち歩詰め or a king left in
//! check is an error naming the line and the reason.

use crate::japanese::SIDE_MARKS;
use crate::kifu::{read_text, Reader, Syntax};
use crate::{Record, RecordError};

/// Reads a KI2 text (already decoded) into its record: one game a text. A text with only a
/// position (`手合割` or a board diagram) and no moves is a game of no moves; a text with
/// neither and no move is no record (`RecordError { line: 0, .. }`).
pub fn read_records(text: &str) -> Result<Vec<Record>, RecordError> {
    read_text(text, Syntax::Ki2, move_line).map(|r| vec![r])
}

/// The moves of one KI2 line (`▲７六歩　△３四歩`, spaces anywhere), or an end word in place
/// of a move (`△投了`).
pub(crate) fn move_line(r: &mut Reader, line: &str) -> Result<(), String> {
    let clean: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    let is_mark = |c: char| SIDE_MARKS.iter().any(|&(m, _)| m == c);
    let mut starts: Vec<usize> = clean
        .char_indices()
        .filter(|&(_, c)| is_mark(c))
        .map(|(i, _)| i)
        .collect();
    starts.push(clean.len());
    for w in starts.windows(2) {
        let token = &clean[w[0]..w[1]];
        let mark = token.chars().next().expect("starts with a mark");
        if r.end_with(&token[mark.len_utf8()..], None)? {
            continue;
        }
        let tree = r.tree()?;
        if tree.at_end() {
            return Err(format!("{token}: a move after the end"));
        }
        let mv = super::notation::read_move(tree.position(), token, tree.last_to())
            .map_err(|e| e.to_string())?;
        tree.play(mv, token, None)?;
    }
    Ok(())
}
