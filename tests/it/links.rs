//! Every relative link in README.md, README.ja.md and docs/*.md resolves: the file exists, and
//! a `#fragment` names a heading of that file (GitHub's anchors: lower case, spaces to `-`,
//! punctuation dropped, letters of any script kept). Web links are not fetched.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The Markdown files checked: the readmes and every page under docs/.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![
        Path::new(ROOT).join("README.md"),
        Path::new(ROOT).join("README.ja.md"),
    ];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("docs"))
        .expect("docs/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The lines of `text` outside fenced code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|l| {
            if l.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

/// The targets of the inline links `[text](target)` of `line`, outside code spans.
fn links(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'`' => in_code = !in_code,
            b']' if !in_code && bytes.get(i + 1) == Some(&b'(') => {
                if let Some(end) = line[i + 2..].find(')') {
                    out.push(line[i + 2..i + 2 + end].to_string());
                    i += end + 2;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// GitHub's anchor for a heading's text.
fn anchor(heading: &str) -> String {
    let mut a = String::new();
    for c in heading.trim().chars() {
        if c.is_alphanumeric() {
            a.extend(c.to_lowercase());
        } else if c == ' ' {
            a.push('-');
        } else if c == '-' || c == '_' {
            a.push(c);
        }
    }
    a
}

/// The anchors of the headings of the Markdown file `path`.
fn anchors(path: &Path) -> HashSet<String> {
    let text = std::fs::read_to_string(path).unwrap();
    prose(&text)
        .into_iter()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|l| anchor(l.trim_start_matches('#')))
        .collect()
}

#[test]
fn anchors_follow_github() {
    assert_eq!(
        anchor(" Checking a USI engine: `saikoro check`"),
        "checking-a-usi-engine-saikoro-check"
    );
    assert_eq!(
        anchor(" うまく動かないとき（ログの見方）"),
        "うまく動かないときログの見方"
    );
    assert_eq!(anchor(" GUI への登録"), "gui-への登録");
}

#[test]
fn every_relative_link_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let dir = page.parent().unwrap();
        for target in prose(&text).into_iter().flat_map(links) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, fragment) = match target.split_once('#') {
                Some((f, frag)) => (f, Some(frag)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                page.clone()
            } else {
                dir.join(file)
            };
            let name = page.strip_prefix(ROOT).unwrap().display().to_string();
            if !path.exists() {
                broken.push(format!("{name}: ({target}): no such file"));
                continue;
            }
            if let Some(frag) = fragment {
                if path.extension().is_some_and(|e| e == "md") && !anchors(&path).contains(frag) {
                    broken.push(format!("{name}: ({target}): no such heading"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(
        checked > 20,
        "only {checked} links found: is the parser right?"
    );
}
