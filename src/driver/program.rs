//! An engine's command line: the program, its arguments and its working directory, read from
//! one string the way a shell splits words.

use std::fmt;
use std::path::PathBuf;

/// How to start an engine: the program, its arguments and its working directory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineCommand {
    /// The program (a path, or a name looked up in `PATH`).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The working directory; `None` keeps ours.
    pub dir: Option<PathBuf>,
}

impl EngineCommand {
    /// Reads a command line: words split as [`split_command`] does; the first is the program.
    /// `None` when there is no word at all.
    pub fn parse(line: &str) -> Option<EngineCommand> {
        let mut words = split_command(line).into_iter();
        Some(EngineCommand {
            program: words.next()?,
            args: words.collect(),
            dir: None,
        })
    }
}

impl fmt::Display for EngineCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.program)?;
        self.args.iter().try_for_each(|a| write!(f, " {a}"))
    }
}

/// Splits a command line into words: whitespace separates, single and double quotes group. On
/// Unix a backslash escapes the next character (outside single quotes), as in a shell; on
/// Windows it is an ordinary character, so that `C:\Shogi\engine.exe` and `\\server\share`
/// paths need no doubling.
pub fn split_command(s: &str) -> Vec<String> {
    split_words(s, !cfg!(windows))
}

fn split_words(s: &str, backslash_escapes: bool) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('\''), c) => cur.push(c),
            (_, '\\') if backslash_escapes => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_word = true;
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_words() {
        assert_eq!(split_command("engine -x 1"), vec!["engine", "-x", "1"]);
        assert_eq!(
            split_command(r#"'/opt/my engine/run' --name "a b" c\ d"#),
            vec!["/opt/my engine/run", "--name", "a b", "c d"]
        );
        assert_eq!(split_command("  "), Vec::<String>::new());
        assert_eq!(split_command("x ''"), vec!["x", ""]);
        // Windows paths: backslashes are kept, quotes still group.
        assert_eq!(
            split_words(r#""C:\Program Files\e.exe" -x \\srv\share\eval"#, false),
            vec![r"C:\Program Files\e.exe", "-x", r"\\srv\share\eval"]
        );
        assert_eq!(
            split_words(r"C:\Shogi\engine.exe", true),
            vec!["C:Shogiengine.exe"]
        );
        let c = EngineCommand::parse("'./my engine' --threads 2").unwrap();
        assert_eq!(c.program, "./my engine");
        assert_eq!(c.args, vec!["--threads", "2"]);
        assert_eq!(EngineCommand::parse(" "), None);
    }
}
