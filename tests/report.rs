//! `saikoro report`: the page of a match with engines named with markup. Its statistics equal
//! the block the match printed; no outside string appears unescaped; and, when Chromium is
//! installed, the page stepped to a game's end with the keyboard draws the rules core's final
//! position (the page writes the SFEN of the board it draws into `data-sfen`).

use saikoro::{Move, Position};
use std::path::{Path, PathBuf};
use std::process::Command;

const EVIL_A: &str = "<img src=x onerror=alert(1)>";
const EVIL_B: &str = "</script><script>alert(2)</script>";

fn play(dir: &Path) -> String {
    let bin = env!("CARGO_BIN_EXE_saikoro");
    let out = Command::new(bin)
        .current_dir(dir)
        .args([
            "match",
            "--engine",
            &format!("cmd={bin}"),
            &format!("name={EVIL_A}"),
        ])
        .args(["--engine", &format!("cmd={bin}"), &format!("name={EVIL_B}")])
        .args([
            "--each", "depth=1", "--games", "2", "--rounds", "2", "--seed", "3",
        ])
        .args(["--maxplies", "60", "--results", "r.jsonl"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let st = Command::new(bin)
        .current_dir(dir)
        .args(["report", "r.jsonl", "-o", "r.html"])
        .status()
        .unwrap();
    assert!(st.success());
    String::from_utf8(out.stdout).unwrap()
}

fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("saikoro-report-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn figures_equal_the_printed_block_and_markup_stays_text() {
    let dir = tempdir("fig");
    let printed = play(&dir);
    let page = std::fs::read_to_string(dir.join("r.html")).unwrap();
    // The figures lines of the last printed block, each as it sits in the page's JSON.
    let tail = &printed[printed.rfind("Elo:").unwrap()..];
    for line in tail.lines().take(4) {
        assert!(page.contains(line), "{line:?} missing from the page");
    }
    for evil in [EVIL_A, EVIL_B, "<img", "alert(2)</script>"] {
        assert!(!page.contains(evil), "{evil:?} unescaped in the page");
    }
    // Each game's moves, decoded from the page: tests/report_page.rs.
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_board_at_the_end_is_the_rules_cores_final_position() {
    let chromium = Path::new("/usr/bin/chromium");
    if !chromium.exists() {
        eprintln!("SKIPPED: /usr/bin/chromium is absent (apt-get install chromium)");
        return;
    }
    let dir = tempdir("browser");
    play(&dir);
    let results = std::fs::read_to_string(dir.join("r.jsonl")).unwrap();
    let line = results.lines().nth(2).unwrap();
    let at = line.find("\"moves\":[").unwrap() + 9;
    let mut pos = Position::startpos();
    for m in line[at..at + line[at..].find(']').unwrap()].split(',') {
        pos.do_move(Move::from_usi(m.trim_matches('"')).unwrap());
    }
    let profile = dir.join("profile");
    let url = format!("file://{}#game=3&ply=end", dir.join("r.html").display());
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
        ])
        .args(["--no-first-run", "--disable-background-networking"])
        .args(["--disable-component-update", "--disable-sync"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--dump-dom", &url])
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&out.stdout);
    let sfen = dom
        .split("data-sfen=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("the page drew no board");
    assert_eq!(sfen, pos.to_sfen());
    assert!(
        dom.contains("<pre id=\"errors\" hidden=\"\"></pre>"),
        "script errors"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
