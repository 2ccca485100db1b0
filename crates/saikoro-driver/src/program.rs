//! An engine's command line: the program (a path, as given), its arguments and its working
//! directory; or read from one string the way a shell splits words.

use std::fmt;
use std::path::PathBuf;

/// How to start an engine: the program, its arguments and its working directory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineCommand {
    /// The program (a path, or a name looked up in `PATH`), as given: it need not be UTF-8.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// The working directory; `None` keeps ours.
    pub dir: Option<PathBuf>,
}

/// Why a command line cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandLineError {
    /// No word at all.
    Empty,
    /// A quote opened and never closed: `"my engine` (the rest would be one argument).
    UnclosedQuote {
        /// The quote character.
        quote: char,
        /// The whole line.
        line: String,
    },
}

impl fmt::Display for CommandLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandLineError::Empty => f.write_str("empty command line"),
            CommandLineError::UnclosedQuote { quote, line } => {
                write!(f, "{line}: the quote {quote} is never closed")
            }
        }
    }
}

impl std::error::Error for CommandLineError {}

impl EngineCommand {
    /// Reads a command line: words split as [`split_command`] does; the first is the program.
    pub fn parse(line: &str) -> Result<EngineCommand, CommandLineError> {
        let mut words = split_command(line)?.into_iter();
        Ok(EngineCommand {
            program: words.next().ok_or(CommandLineError::Empty)?.into(),
            args: words.collect(),
            dir: None,
        })
    }
}

impl fmt::Display for EngineCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.program.display())?;
        self.args.iter().try_for_each(|a| write!(f, " {a}"))
    }
}

/// Splits a command line into words: whitespace separates, single and double quotes group. On
/// Unix a backslash escapes the next character (outside single quotes), as in a shell; on
/// Windows it is an ordinary character, so that `C:\Shogi\engine.exe` and `\\server\share`
/// paths need no doubling.
/// A quote that is never closed is an error, as in a shell.
pub fn split_command(s: &str) -> Result<Vec<String>, CommandLineError> {
    split_words(s, !cfg!(windows))
}

fn split_words(s: &str, backslash_escapes: bool) -> Result<Vec<String>, CommandLineError> {
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
    if let Some(quote) = quote {
        return Err(CommandLineError::UnclosedQuote {
            quote,
            line: s.to_string(),
        });
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        split_command(s).unwrap()
    }

    #[test]
    fn command_words() {
        assert_eq!(words("engine -x 1"), vec!["engine", "-x", "1"]);
        assert_eq!(
            words(r#"'/opt/my engine/run' --name "a b" c\ d"#),
            vec!["/opt/my engine/run", "--name", "a b", "c d"]
        );
        assert_eq!(words("  "), Vec::<String>::new());
        assert_eq!(words("x ''"), vec!["x", ""]);
        // Windows paths: backslashes are kept, quotes still group.
        assert_eq!(
            split_words(r#""C:\Program Files\e.exe" -x \\srv\share\eval"#, false).unwrap(),
            vec![r"C:\Program Files\e.exe", "-x", r"\\srv\share\eval"]
        );
        assert_eq!(
            split_words(r"C:\Shogi\engine.exe", true).unwrap(),
            vec!["C:Shogiengine.exe"]
        );
        let c = EngineCommand::parse("'./my engine' --threads 2").unwrap();
        assert_eq!(c.program, PathBuf::from("./my engine"));
        assert_eq!(c.args, vec!["--threads", "2"]);
        assert_eq!(EngineCommand::parse(" "), Err(CommandLineError::Empty));
    }

    /// A quote that is never closed is refused, as a shell refuses it, not read as one
    /// argument running to the end of the line.
    #[test]
    fn an_unclosed_quote_is_an_error() {
        for (line, quote) in [
            (r#"--x "unterminated"#, '"'),
            ("'a b", '\''),
            (r#"a "b' c"#, '"'),
        ] {
            let e = split_command(line).unwrap_err();
            assert_eq!(
                e,
                CommandLineError::UnclosedQuote {
                    quote,
                    line: line.to_string()
                }
            );
            assert!(e
                .to_string()
                .ends_with(&format!("the quote {quote} is never closed")));
        }
        // An escaped quote opens nothing.
        assert_eq!(words(r#"a \"b"#), vec!["a", "\"b"]);
    }
}
