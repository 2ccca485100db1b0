//! `saikoro match` on a test farm, through the real binary: fastchess's command line (its
//! `man.md` examples) plays the same games as ours; unknown flags get a hint; the PGN file
//! holds every game with its `Termination`; openings from CSA and KIF records start where the
//! records say; shogitest's command line as the ShogiBench worker writes it (`Client/worker.py`,
//! `MatchRunner`), whose game lines, read with the worker's own parser and pairing rule
//! (rewritten below from its source), give the pentanomial counts of the results file.

#![cfg(unix)]

use crate::match_support;
use crate::usi_support;

use match_support::{finish, words};
use std::process::Command;
use usi_support::{fault_engine, start_in, Dir, Run, BIN};

/// Runs `saikoro ARGS` in `dir`.
fn saikoro(dir: &Dir, args: &[String]) -> Run {
    finish(start_in(std::path::Path::new(&*BIN), dir, args))
}

/// A results line's field, which must be there.
fn field(line: &str, key: &str) -> String {
    match_support::field(line, key).unwrap_or_else(|| panic!("{key} in {line}"))
}

/// A results line without its times: what must be the same in two runs of one match.
fn untimed(line: &str) -> String {
    let at = line.find(",\"time_ms\"").unwrap_or(line.len());
    line[..at].to_string()
}

fn results(dir: &Dir, file: &str) -> Vec<String> {
    dir.read(file).lines().map(String::from).collect()
}

#[test]
fn fastchess_command_line_plays_the_same_match_as_ours() {
    let dir = Dir::new("farm-fastchess");
    let ours = words(&format!(
        "match --engine cmd={BIN} name=a option.Seed=1 --engine cmd={BIN} name=b option.Seed=2 \
         --each tc=10+0.1 --rounds 3 --games 2 --seed 5 --maxplies 100 --ratinginterval 0 \
         --results ours.jsonl --state s1"
    ));
    // fastchess's spellings (man.md): -maxmoves counts moves of both sides, 50 = 100 plies.
    let theirs = words(&format!(
        "match -engine cmd={BIN} name=a option.Seed=1 proto=usi -engine cmd={BIN} name=b \
         option.Seed=2 proto=usi -each tc=10+0.1 timemargin=50 -rounds 3 -repeat -srand 5 \
         -maxmoves 50 -ratinginterval 0 -recover -testEnv -variant standard -concurrency 1 \
         --results theirs.jsonl --state s2"
    ));
    let (a, b) = (saikoro(&dir, &ours), saikoro(&dir, &theirs));
    assert!(a.status.success(), "{}\n{}", a.out, a.err);
    assert!(b.status.success(), "{}\n{}", b.out, b.err);
    let (ra, rb) = (results(&dir, "ours.jsonl"), results(&dir, "theirs.jsonl"));
    assert_eq!(ra.len(), 6);
    let (ua, ub): (Vec<String>, Vec<String>) = (
        ra.iter().map(|l| untimed(l)).collect(),
        rb.iter().map(|l| untimed(l)).collect(),
    );
    assert_eq!(ua, ub);
    // The first command, which failed with "invalid option '-e'".
    let c = saikoro(
        &dir,
        &words(&format!(
            "match -engine cmd={BIN} -engine cmd={BIN} -each tc=10+0.1 -rounds 1 --state s3"
        )),
    );
    assert!(c.status.success(), "{}\n{}", c.out, c.err);
    assert_eq!(c.out.matches("Finished game").count(), 2, "{}", c.out);
}

#[test]
fn noswap_keeps_the_first_engine_black() {
    let dir = Dir::new("farm-noswap");
    let args = |extra: &str, tag: &str| {
        words(&format!(
            "match -engine cmd={BIN} name=a -engine cmd={BIN} name=b -each depth=1 -rounds 2 \
             -repeat -ratinginterval 0 {extra} --results {tag}.jsonl --state {tag}.state"
        ))
    };
    for (extra, tag, blacks) in [
        ("-noswap", "noswap", ["a", "a", "a", "a"]),
        ("", "swap", ["a", "b", "a", "b"]),
    ] {
        let r = saikoro(&dir, &args(extra, tag));
        assert!(r.status.success(), "{}\n{}", r.out, r.err);
        let mut lines = results(&dir, &format!("{tag}.jsonl"));
        lines.sort_by_key(|l| field(l, "game").parse::<u64>().unwrap());
        let b: Vec<String> = lines.iter().map(|l| field(l, "black")).collect();
        assert_eq!(b, blacks, "{extra}");
    }
}

#[test]
fn unknown_flags_get_a_hint_and_chess_flags_a_reason() {
    let dir = Dir::new("farm-hints");
    let engines = format!("-engine cmd={BIN} -engine cmd={BIN} -each depth=1");
    for (args, says) in [
        ("-concurency 2", "did you mean -concurrency?"),
        ("--rouns 2", "did you mean --rounds?"),
        ("--pgn x.pgn", "did you mean --pgnout?"),
        ("-tb /syzygy", "Syzygy tablebases are for chess"),
        ("-variant fischerandom", "Fischer random is chess"),
        ("-openings file=a.pgn format=pgn", "PGN holds chess games"),
        (
            "-openings file=a format=bod",
            "known: sfen, epd, usi, csa, kif",
        ),
        ("-each tc=40/60", "USI has no movestogo"),
    ] {
        let r = saikoro(&dir, &words(&format!("match {engines} {args}")));
        assert!(!r.status.success(), "{args}");
        assert!(r.err.contains(says), "{args}: {}", r.err);
    }
    let r = saikoro(&dir, &words("shogitest -game 3"));
    assert!(r.err.contains("did you mean -games?"), "{}", r.err);
}

/// One game between the fault engine with `faults` (Black) and Saikoro, appended to
/// `dir/all.pgn`, with `extra` flags.
fn pgn_game(dir: &Dir, n: usize, faults: &str, extra: &str) {
    let mut fault_args = "--seed 3".to_string();
    for f in faults.split_whitespace() {
        fault_args.push_str(" --fault ");
        fault_args.push_str(f);
    }
    let mut args = vec![
        "match".to_string(),
        "--engine".into(),
        format!("cmd={}", fault_engine().display()),
        format!("args={fault_args}"),
        "name=f".into(),
        "--engine".into(),
        format!("cmd={BIN}"),
        "name=s".into(),
        "option.Seed=4".into(),
    ];
    args.extend(words(&format!(
        "--rounds 1 --games 1 --ratinginterval 0 --max-failures 0 --state s{n} \
         --pgnout file=all.pgn append=true {extra}"
    )));
    let r = saikoro(dir, &args);
    assert!(r.status.success(), "{faults}: {}\n{}", r.out, r.err);
}

#[test]
fn the_pgn_file_holds_every_game_with_its_termination() {
    let dir = Dir::new("farm-pgn");
    let cases = [
        ("resign@6", "--each depth=1", "normal", "0-1"),
        ("illegal=nifu", "--each depth=1", "illegal move", "0-1"),
        (
            "slow=400@2",
            "--each tc=0 byoyomi=0.1",
            "time forfeit",
            "0-1",
        ),
        ("crash@4", "--each depth=1", "abandoned", "0-1"),
        (
            "hang@2",
            "--each depth=1 --ready-ms 300",
            "stalled connection",
            "0-1",
        ),
        (
            "",
            "--each depth=1 --maxplies 12",
            "adjudication",
            "1/2-1/2",
        ),
    ];
    for (n, (faults, extra, _, _)) in cases.iter().enumerate() {
        pgn_game(&dir, n, faults, extra);
    }
    // Without append=true, a new match refuses the file of another match's games; --overwrite
    // starts it anew.
    let refuse = words(&format!(
        "match --engine cmd={BIN} --engine cmd={BIN} --each depth=1 --games 1 --rounds 1 \
         --pgnout all.pgn --state refused.state"
    ));
    let r = saikoro(&dir, &refuse);
    assert!(!r.status.success());
    assert!(
        r.err.contains("--pgnout all.pgn already holds 6 games"),
        "{}",
        r.err
    );
    let copy = dir.path("copy.pgn");
    std::fs::copy(dir.path("all.pgn"), &copy).unwrap();
    let mut again = refuse.clone();
    *again.iter_mut().find(|w| *w == "all.pgn").unwrap() = "copy.pgn".into();
    again.push("--overwrite".into());
    let r = saikoro(&dir, &again);
    assert!(r.status.success(), "{}", r.err);
    assert_eq!(dir.read("copy.pgn").matches("[Event ").count(), 1);
    // Sliced as the ShogiBench worker slices it (PGNHelper.slice_pgn_file): headers up to a
    // blank line, moves up to a blank line.
    let text = dir.read("all.pgn");
    let mut lines = text.lines();
    let mut games = Vec::new();
    loop {
        let headers: Vec<&str> = lines.by_ref().take_while(|l| !l.is_empty()).collect();
        let moves: Vec<&str> = lines.by_ref().take_while(|l| !l.is_empty()).collect();
        if headers.is_empty() || moves.is_empty() {
            break;
        }
        games.push((headers, moves));
    }
    assert_eq!(games.len(), cases.len(), "{text}");
    let tag = |headers: &[&str], key: &str| {
        headers
            .iter()
            .find_map(|l| l.strip_prefix(&format!("[{key} \"")))
            .map(|v| v.trim_end_matches("\"]").to_string())
            .unwrap_or_else(|| panic!("no {key} in {headers:?}"))
    };
    for ((headers, moves), (faults, _, termination, result)) in games.iter().zip(cases) {
        assert_eq!(tag(headers, "Termination"), termination, "{faults}");
        assert_eq!(tag(headers, "Result"), result, "{faults}");
        assert_eq!(moves.last().copied(), Some(result), "{faults}");
        // PlyCount counts the move lines (each a USI move with its comment).
        let plies: usize = tag(headers, "PlyCount").parse().unwrap();
        assert_eq!(moves.len() - 1, plies.max(1), "{faults}: {moves:?}");
    }
    // The 12-ply draw: 12 move lines, the last with the reason.
    let (_, draw) = &games[5];
    assert!(
        draw[11].ends_with(", Draw by the 12-ply limit}"),
        "{draw:?}"
    );
}

#[test]
fn openings_from_a_csa_file_of_three_games_and_a_kif_file() {
    let dir = Dir::new("farm-records");
    let records = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/saikoro-record/positions/records");
    let run = |book: &str, words_after: &str, games: usize, tag: &str| {
        let args = words(&format!(
            "match --engine cmd={BIN} --engine cmd={BIN} --each depth=1 --games 1 \
             --rounds {games} --ratinginterval 0 --openings file={} {words_after} \
             --results {tag}.jsonl --state {tag}.state",
            records.join(book).display()
        ));
        saikoro(&dir, &args)
    };
    // Shift_JIS, three games separated by '/': 平手 by rows, 平手 by PI, 二枚落ち by PI with
    // White to move. The positions after 3 plies, from Python cshogi (CSA.Parser, every move
    // checked with Board.is_legal, then Board.push).
    let r = run("three_games.csa", "plies=3", 3, "csa");
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    let openings: Vec<String> = results(&dir, "csa.jsonl")
        .iter()
        .map(|l| field(l, "opening"))
        .collect();
    assert_eq!(
        openings,
        [
            "startpos moves 2g2f 8c8d 2f2e",
            "startpos moves 7g7f 3c3d 8h2b+",
            "sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 5a4b 7g7f 6a5b",
        ]
    );
    let after = [
        "lnsgkgsnl/1r5b1/p1ppppppp/1p7/7P1/9/PPPPPPP1P/1B5R1/LNSGKGSNL w - 4",
        "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4",
        "lns2gsnl/4gk3/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 4",
    ];
    for (line, sfen) in openings.iter().zip(after) {
        let (start, moves) = line.split_once(" moves ").unwrap();
        let start = match start.strip_prefix("sfen ") {
            Some(s) => saikoro_core::Position::from_sfen(s).unwrap(),
            None => saikoro_core::Position::startpos(),
        };
        let mut g = saikoro_core::Game::new(start);
        for m in moves.split(' ') {
            g.try_play(saikoro_core::Move::from_usi(m).unwrap())
                .unwrap();
        }
        assert_eq!(g.position().to_sfen(), sfen);
    }
    // KIF in Shift_JIS, 同 and 打 and 成 (format from the file name).
    let r = run("game.kif", "plies=5", 1, "kif");
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    assert_eq!(
        field(&results(&dir, "kif.jsonl")[0], "opening"),
        "startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e"
    );
    // A record with an illegal move before ply N: its file and the move's line, no game played.
    let bad = dir.write(
        "bad.csa",
        "PI\n+\n+7776FU\n/\nPI\n+\n+7776FU\n-3334FU\n+7675FU\n-2234UM\n",
    );
    let r = saikoro(
        &dir,
        &words(&format!(
            "match --engine cmd={BIN} --engine cmd={BIN} --each depth=1 --openings file={bad} \
             plies=4 --state bad.state"
        )),
    );
    assert!(!r.status.success());
    assert!(
        r.err.contains("bad.csa:10: move 4: '-2234UM' is illegal"),
        "{}",
        r.err
    );
    assert!(!r.out.contains("Finished game"), "{}", r.out);
}

/// The ShogiBench worker's `MatchRunner.parse_finished_game`, rewritten from its regex
/// `^Finished game\s+([0-9]+)(?:\s+of\s+(?:[0-9]+|infinite))?\s+\((.*?)\s+vs\s+(.*?)\):\s+
/// (1-0|0-1|1/2-1/2|undetermined)\s+\{(.*)\}\s*$` and its `dev_result`: the game number, the
/// result from the dev engine's point of view (0 loss, 1 draw, 2 win), the reason.
fn worker_parse(line: &str) -> Option<(u64, usize, String)> {
    let rest = line.trim().strip_prefix("Finished game")?;
    let rest = rest.trim_start();
    let digits = rest.find(|c: char| !c.is_ascii_digit())?;
    let game: u64 = rest[..digits].parse().ok()?;
    let mut rest = rest[digits..].trim_start();
    if let Some(r) = rest.strip_prefix("of") {
        let r = r.trim_start();
        let end = r.find(char::is_whitespace)?;
        rest = r[end..].trim_start();
    }
    let rest = rest.strip_prefix('(')?;
    // `(.*?)\s+vs\s+(.*?)\):` — lazy: the first " vs " and the first "):" after it.
    let vs = rest.find(" vs ")?;
    let white = rest[..vs].trim_end();
    let after = &rest[vs + 4..];
    let close = after.find("):")?;
    let black = after[..close].trim();
    let rest = after[close + 2..].trim_start();
    let (result, rest) = rest.split_once(char::is_whitespace)?;
    let reason = rest.trim().strip_prefix('{')?.strip_suffix('}')?;
    let role = |name: &str| {
        if name == "dev" || name.ends_with("-dev") {
            Some("dev")
        } else if name == "base" || name.ends_with("-base") {
            Some("base")
        } else {
            None
        }
    };
    let (w, b) = (role(white)?, role(black)?);
    assert_ne!(w, b, "{line}");
    let dev = match result {
        "1/2-1/2" => 1,
        "1-0" if w == "dev" => 2,
        "1-0" => 0,
        "0-1" if b == "dev" => 2,
        "0-1" => 0,
        _ => return None,
    };
    Some((game, dev, reason.to_string()))
}

/// The worker's `update_results`: games 2k-1 and 2k are a pair; the pentanomial index is the
/// sum of the two dev results.
fn worker_pentanomial(out: &str) -> ([u64; 5], u64, u64, u64) {
    let mut games = std::collections::BTreeMap::new();
    let mut penta = [0u64; 5];
    let (mut crashes, mut timelosses, mut illegals) = (0, 0, 0);
    for line in out.lines().filter(|l| l.contains("Finished game")) {
        let (game, result, reason) =
            worker_parse(line).unwrap_or_else(|| panic!("the worker cannot read {line:?}"));
        crashes += u64::from(reason.contains("disconnect") || reason.contains("stalls"));
        timelosses += u64::from(reason.contains("on time"));
        illegals += u64::from(reason.contains("illegal"));
        games.insert(game, result);
        let (first, second) = if game % 2 == 1 {
            (game, game + 1)
        } else {
            (game - 1, game)
        };
        if let (Some(a), Some(b)) = (games.get(&first), games.get(&second)) {
            penta[a + b] += 1;
            games.remove(&first);
            games.remove(&second);
        }
    }
    (penta, crashes, timelosses, illegals)
}

/// `get_version`: the first `\d+\.\d+(\.\d+)?` of `runner --version`, compared with the
/// server's `shogitest_min_version` (0.1.2 in ShogiBench's current configuration).
fn version_is_new_enough(runner: &std::path::Path) {
    let v = Command::new(runner).arg("--version").output().unwrap();
    let v = String::from_utf8(v.stdout).unwrap();
    let first = v
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .find(|w| w.split('.').filter(|p| !p.is_empty()).count() >= 2)
        .unwrap();
    let version: Vec<u32> = first.split('.').map(|p| p.parse().unwrap()).collect();
    assert!(version >= vec![0, 1, 2], "{v}");
}

/// Every crash and illegal move of the results file `lines` is counted by the worker's words
/// (`crashes`, `illegals`), and the faults fired.
fn faults_counted_alike(lines: &[String], crashes: u64, illegals: u64, out: &str) {
    let count = |reason: &str| {
        lines
            .iter()
            .filter(|l| field(l, "reason") == reason)
            .count()
    };
    assert_eq!(crashes as usize, count("crash") + count("no_response"));
    assert_eq!(
        illegals as usize,
        count("illegal_move") + count("perpetual_check")
    );
    assert!(crashes > 0 && illegals > 0, "the faults fired: {out}");
}

#[test]
fn the_shogibench_workers_command_line_and_what_it_reads() {
    let dir = Dir::new("farm-shogibench");
    std::fs::create_dir_all(dir.path("Engines")).unwrap();
    std::fs::create_dir_all(dir.path("Books")).unwrap();
    std::fs::create_dir_all(dir.path("PGNs")).unwrap();
    dir.write(
        "Books/SHOGI.test.sfen.epd",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n\
         lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\n\
         lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2\n",
    );
    // The runner under the worker's name, as it runs it: ./shogitest-ob from its directory.
    let runner = dir.path("shogitest-ob");
    std::os::unix::fs::symlink(BIN, &runner).unwrap();
    version_is_new_enough(&runner);
    // Engines/: Saikoro as the dev engine, the fault engine (crashing, slow or illegal now
    // and then) as the base engine.
    std::os::unix::fs::symlink(BIN, dir.path("Engines/Saikoro-a")).unwrap();
    usi_support::write_script(
        &dir.path("Engines/Fault-b"),
        &format!(
            "exec {} --seed 9 --fault illegal=nifu@30 --fault crash@50 \"$@\"\n",
            fault_engine().display()
        ),
    );
    // MatchRunner's command: basic, concurrency, adjudication, two engines, book, pgnout.
    let cmd = "-repeat -recover -variant standard -testEnv -concurrency 2 -games 6 \
        -engine dir=Engines/ cmd=./Saikoro-a proto=usi tc=5.00+0.05 timemargin=250 ponder=off \
        option.USI_Hash=16 option.Seed=1 name=Saikoro-dev \
        -engine dir=Engines/ cmd=./Fault-b proto=usi tc=5.00+0.05 timemargin=250 ponder=off \
        option.USI_Hash=16 name=Fault-base \
        -openings file=Books/SHOGI.test.sfen.epd format=epd order=random start=2 -srand 11 \
        -pgnout file=PGNs/1.2.3.0.pgn seldepth=true nodes=true \
        --results results.jsonl";
    let r = finish(start_in(&runner, &dir, &words(cmd)));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    // The worker decodes every line as ASCII.
    assert!(r.out.is_ascii(), "{}", r.out);
    let (penta, crashes, _, illegals) = worker_pentanomial(&r.out);
    assert_eq!(penta.iter().sum::<u64>(), 6, "{}", r.out);
    // The same from the results file: dev's score per game, pairs (2k-1, 2k).
    // In the order of the games' numbers (with two games at once they finish out of order).
    let mut lines = results(&dir, "results.jsonl");
    lines.sort_by_key(|l| field(l, "game").parse::<u64>().unwrap());
    assert_eq!(lines.len(), 12);
    let mut from_results = [0u64; 5];
    let dev_score = |l: &str| -> usize {
        let dev_black = field(l, "black") == "Saikoro-dev";
        match (field(l, "result").as_str(), dev_black) {
            ("1/2-1/2", _) => 1,
            ("1-0", true) | ("0-1", false) => 2,
            _ => 0,
        }
    };
    for pair in lines.chunks(2) {
        assert_eq!(field(&pair[0], "opening"), field(&pair[1], "opening"));
        from_results[dev_score(&pair[0]) + dev_score(&pair[1])] += 1;
    }
    assert_eq!(penta, from_results, "{}", r.out);
    faults_counted_alike(&lines, crashes, illegals, &r.out);
    // And the table's own Ptnml line agrees (the dev engine is the pairing's first).
    let ptnml = format!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}]",
        penta[0], penta[1], penta[2], penta[3], penta[4]
    );
    assert!(r.out.contains(&ptnml), "{ptnml}\n{}", r.out);
    same_schedule_in_our_words(&dir, &lines);
    // The state of this runner beside its PGN file: runners of one worker share a directory.
    assert!(dir.path("PGNs/1.2.3.0.pgn.state").exists());
    let pgn = dir.read("PGNs/1.2.3.0.pgn");
    assert_eq!(pgn.matches("[Event ").count(), 12);
    assert_eq!(pgn.matches("[Sente \"Saikoro-dev\"]").count(), 6);
    let crashed = lines
        .iter()
        .filter(|l| field(l, "reason") == "crash")
        .count();
    assert_eq!(pgn.matches("[Termination \"abandoned\"]").count(), crashed);
}

/// The worker's match in our own words plays the same schedule as `lines` (the worker's
/// results, in game order).
fn same_schedule_in_our_words(dir: &Dir, lines: &[String]) {
    let ours = "match --engine dir=Engines/ cmd=./Saikoro-a option.USI_Hash=16 option.Seed=1 \
         name=Saikoro-dev --engine dir=Engines/ cmd=./Fault-b option.USI_Hash=16 \
         name=Fault-base --each tc=5+0.05 --timemargin 250 --games 2 --rounds 6 \
         --concurrency 2 --max-failures 0 --ratinginterval 0 \
         --openings file=Books/SHOGI.test.sfen.epd order=random start=2 --seed 11 \
         --results ours.jsonl --state ours.state";
    let o = saikoro(dir, &words(ours));
    assert!(o.status.success(), "{}\n{}", o.out, o.err);
    let mut mine = results(dir, "ours.jsonl");
    mine.sort_by_key(|l| field(l, "game").parse::<u64>().unwrap());
    // The same schedule: which game is which pairing, colour and opening. The moves may
    // differ, as they should: a seeded Saikoro is one random stream per session, and with two
    // games at once which of its processes plays a game is up to the scheduler.
    let schedule = |v: &[String]| {
        v.iter()
            .map(|l| {
                ["game", "round", "black", "white", "opening", "opening_line"]
                    .map(|k| field(l, k))
                    .join(" ")
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(schedule(&mine), schedule(lines));
}
