//! The match as one self-contained HTML page (`saikoro report`): the printed statistics
//! block, every game in a table and a board to step through each one. The data (`data`) sits
//! in the page as JSON inside `<script type="application/json">`, escaped for that place; the
//! page's script (`page`) shows every outside string with `textContent`, never as markup.

mod data;
mod page;

pub use block::results_block;
pub use data::embedded_json;
pub use page::html_page;

mod block;
