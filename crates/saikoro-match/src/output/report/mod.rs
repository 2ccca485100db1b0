//! The match as one self-contained HTML page (`saikoro match --report`, `saikoro report`):
//! the printed statistics block, the figures, every game in a table and a board to step
//! through each one. The data (`data`) sits in the page as JSON inside
//! `<script type="application/json">`, escaped for that place; the page's script (`page`)
//! shows every outside string with `textContent`, never as markup. `results` reads a results
//! file's games back for the page.

mod data;
mod page;
mod results;

pub use data::{
    encode_game, encode_move, encode_placed, shell_words, utc_text, EngineEntry, GameRow, Games,
    PageData, PairCounts, Series, SeriesPoint, Settings, SprtState, Standing,
};
pub use page::{held_page, html_page, is_report_page, page_games, write_html};
pub use results::{engine_index, results_records, ResultsGame};
