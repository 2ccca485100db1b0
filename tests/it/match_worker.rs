//! The ShogiBench worker of CLIENT_VERSION 40 (`Client/worker.py`, `MatchRunner`), through the
//! real binary run as `./shogitest-ob` from a directory laid out as the worker's (`Engines/`,
//! `Books/`, `PGNs/`): its full command line with `-ruleprofile` and the doubled
//! `option.option.` prefix plays and writes the PGN file; the profile is played as what it
//! names (a declaration at 28 points loses under it, wins without it); an unknown profile is
//! refused before any engine starts; an option an engine does not declare is sent with a
//! warning in the farm dialects and refused in `saikoro match`'s own unless
//! `--send-undeclared-options`; an SPSA workload's fractional values reach the engines as
//! written, with one warning per engine, and a value an engine rules out is sent in the farm
//! dialects, refused in ours unless `--send-option-values-as-written`. The worker's reading of the output (`Client/shogi_result.py`'s
//! `FINISHED_GAME_RE`, `MatchRunner.update_results`, `PGNHelper.slice_pgn_file`) is rewritten
//! below from its source.

#![cfg(unix)]

use crate::match_support;
use crate::usi_support;

use match_support::{finish, words};
use usi_support::{copy_program, fault_engine, start_in, write_script, Dir, Run, BIN};

/// The rule profile every SHOGI workload of the worker carries.
const PROFILE: &str = "canonical-yaneuraou-csarule24-v1";

/// Black to move, king on 5b, eleven pieces in the zone besides the king and nine pawns in
/// hand: 28 points (hand-counted in `src/shogi/declaration.rs`'s test of it). The CSA rule
/// (27 points, 28 for Black) lets Black declare; the 24-point rule (31 for either side) does
/// not. YaneuraOu agrees: `bestmove win` under `EnteringKingRule CSARule27`, a move under
/// `CSARule24` (docs/farm.md).
const DECLARE_28: &str = "+R+BGGG+P+PSS/4K3+N/G8/9/9/9/9/9/k8 b 9P 1";

/// A directory as the worker's `Client/`: the runner copied as `./shogitest-ob`, `Engines/`
/// with Saikoro copied as `Saikoro-a` and the fault engine (with `faults`) as `Fault-b`, `Books/` with
/// `book` as `SHOGI.test.sfen.epd`, and `PGNs/`.
fn client_dir(name: &str, faults: &str, book: &str) -> Dir {
    let dir = Dir::new(name);
    for d in ["Engines", "Books", "PGNs"] {
        std::fs::create_dir_all(dir.path(d)).unwrap();
    }
    // Files, not links, as the worker keeps them: it moves the binary it built to
    // `shogitest-ob`, and builds each engine into `Engines/`.
    copy_program(BIN.as_ref(), &dir.path("shogitest-ob"));
    copy_program(BIN.as_ref(), &dir.path("Engines/Saikoro-a"));
    let mut args = "--seed 9".to_string();
    for f in faults.split_whitespace() {
        args.push_str(" --fault ");
        args.push_str(f);
    }
    script(
        &dir,
        "Engines/Fault-b",
        &format!("exec {} {args} \"$@\"", fault_engine().display()),
    );
    dir.write("Books/SHOGI.test.sfen.epd", book);
    dir
}

/// An executable shell script `f` in `dir` with the line `body`.
fn script(dir: &Dir, f: &str, body: &str) {
    write_script(&dir.path(f), &format!("{body}\n"));
}

/// `MatchRunner.engine_settings` for one side: the server's options, each token prefixed with
/// `option.` (so the canonical profile's `option.EnteringKingRule=CSARule24` arrives doubled).
fn engine(cmd: &str, options: &str, name: &str) -> String {
    let options: Vec<String> = options
        .split_whitespace()
        .map(|o| format!("option.{o}"))
        .collect();
    format!(
        "-engine dir=Engines/ cmd=./{cmd} proto=usi tc=1.00+0.10 timemargin=250 {} name={name}",
        options.join(" ")
    )
}

/// `build_runner_command`: basic settings, the rule profile, concurrency, the engines, the
/// book, the PGN file (`PGNs/TEST.RESULT.TIME.INDEX.pgn`).
fn worker_line(profile: Option<&str>, games: u32, dev: &str, base: &str) -> String {
    let profile = profile.map_or(String::new(), |p| format!("-ruleprofile {p}"));
    format!(
        "-repeat -recover -variant standard -testEnv {profile} -concurrency 2 -games {games} \
         {dev} {base} -openings file=Books/SHOGI.test.sfen.epd format=epd order=random start=1 \
         -srand 4242 -pgnout file=PGNs/17.5.1764633600.0.pgn seldepth=true nodes=true"
    )
}

/// The server's engine options of a canonical-profile test (`OpenBench/rule_profiles.py`
/// requires the `EnteringKingRule` token; `Threads` and `Hash` are what its fixed-move tests
/// carry, neither declared by Saikoro).
const OPTIONS: &str = "Threads=1 Hash=16 option.EnteringKingRule=CSARule24";

/// Runs `./shogitest-ob LINE` in `dir`.
fn runner(dir: &Dir, line: &str) -> Run {
    finish(start_in(&dir.path("shogitest-ob"), dir, &words(line)))
}

/// A finished game as the worker reads it (`shogi_result.parse_finished_game`).
#[derive(Debug, Clone, PartialEq)]
struct Finished {
    game: u64,
    sente: String,
    gote: String,
    result: String,
    reason: String,
}

/// `FINISHED_GAME_RE`: `^Finished game (?P<game>\d+) \((?P<sente>.+?) vs (?P<gote>.+?)\):
/// (?P<result>1-0|0-1|1/2-1/2) \{(?P<reason>.*)\}$`, rewritten: single spaces, lazy names
/// (the first ` vs `, then the first `): `), the reason to the last `}` at the line's end.
fn parse_finished(line: &str) -> Option<Finished> {
    let rest = line.strip_prefix("Finished game ")?;
    let digits = rest.find(|c: char| !c.is_ascii_digit())?;
    let game = rest[..digits].parse().ok()?;
    let rest = rest[digits..].strip_prefix(" (")?;
    let vs = rest.get(1..)?.find(" vs ")? + 1;
    let sente = &rest[..vs];
    let after = &rest[vs + 4..];
    let close = after.get(1..)?.find("): ")? + 1;
    let gote = &after[..close];
    let rest = &after[close + 3..];
    let (result, rest) = rest.split_once(' ')?;
    if !["1-0", "0-1", "1/2-1/2"].contains(&result) {
        return None;
    }
    let reason = rest.strip_prefix('{')?.strip_suffix('}')?;
    Some(Finished {
        game,
        sente: sente.to_string(),
        gote: gote.to_string(),
        result: result.to_string(),
        reason: reason.to_string(),
    })
}

/// What the worker sends the server from one runner's stdout (`update_results` with
/// `is_shogi`): the pentanomial (games 2k-1 and 2k a pair, `pair_to_penta` from the tokens
/// `line.split()[2]` and `[6]`, the first-named engine's view), crashes, time losses and
/// illegal moves from the reason (`line.split(':', 1)[1]`), and the side statistics
/// (`add_finished_game`: wins by side and by impasse).
#[derive(Debug, Default, PartialEq)]
struct Report {
    pentanomial: [u64; 5],
    crashes: u64,
    timelosses: u64,
    illegals: u64,
    dev_sente_wins: u64,
    dev_sente_impasse_wins: u64,
    games: Vec<Finished>,
}

fn worker_report(out: &str) -> Report {
    let mut r = Report::default();
    let mut pending = std::collections::BTreeMap::new();
    let lookup = |s: &str| match s {
        "0-1" => 0,
        "1/2-1/2" => 1,
        "1-0" => 2,
        other => panic!("the worker's lookup has no {other:?}"),
    };
    for line in out
        .lines()
        .map(str::trim)
        .filter(|l| l.contains("Finished game"))
    {
        // The worker decodes every line as ASCII.
        assert!(line.is_ascii(), "{line}");
        let f = parse_finished(line).unwrap_or_else(|| panic!("FINISHED_GAME_RE fails: {line}"));
        let role = |n: &str| {
            n.strip_suffix("-dev")
                .map(|_| "dev")
                .or(n.strip_suffix("-base").map(|_| "base"))
        };
        let (s, g) = (role(&f.sente), role(&f.gote));
        assert!(
            s.is_some() && g.is_some() && s != g,
            "dev and base once: {line}"
        );
        if f.result == "1-0" && s == Some("dev") {
            r.dev_sente_wins += 1;
            r.dev_sente_impasse_wins += u64::from(f.reason == "Sente wins by impasse");
        }
        let reason = line.split_once(':').unwrap().1;
        r.crashes += u64::from(reason.contains("disconnect") || reason.contains("stalls"));
        r.timelosses += u64::from(reason.contains("on time"));
        r.illegals += u64::from(reason.contains("illegal"));
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let game: u64 = tokens[2].parse().unwrap();
        assert_eq!(game, f.game);
        pending.insert(game, tokens[6].to_string());
        let (first, second) = if game % 2 == 1 {
            (game, game + 1)
        } else {
            (game - 1, game)
        };
        if let (Some(a), Some(b)) = (pending.get(&first), pending.get(&second)) {
            r.pentanomial[lookup(a) + 2 - lookup(b)] += 1;
            pending.remove(&first);
            pending.remove(&second);
        }
        r.games.push(f);
    }
    r
}

/// `PGNHelper.slice_pgn_file`: headers up to a blank line, moves up to a blank line, until
/// either is empty; and `get_pgn_header`.
fn slice_pgn(text: &str) -> Vec<(Vec<&str>, Vec<&str>)> {
    let mut lines = text.lines().map(str::trim_end);
    let mut games = Vec::new();
    loop {
        let headers: Vec<&str> = lines.by_ref().take_while(|l| !l.is_empty()).collect();
        let moves: Vec<&str> = lines.by_ref().take_while(|l| !l.is_empty()).collect();
        if headers.is_empty() || moves.is_empty() {
            return games;
        }
        games.push((headers, moves));
    }
}

fn header<'a>(headers: &[&'a str], key: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|l| l.starts_with(&format!("[{key} ")))
        .and_then(|l| l.split('"').nth(1))
}

#[test]
fn the_v40_command_line_plays_and_writes_the_pgn() {
    let dir = client_dir(
        "worker-v40",
        "illegal=nifu@40",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n\
         lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2\n",
    );
    let line = worker_line(
        Some(PROFILE),
        4,
        &engine("Saikoro-a", &format!("{OPTIONS} Seed=1"), "Saikoro-dev"),
        &engine("Fault-b", OPTIONS, "Fault-base"),
    );
    assert!(line.contains("option.option.EnteringKingRule=CSARule24"));
    let r = runner(&dir, &format!("{line} --log-file run.log"));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    let report = worker_report(&r.out);
    assert_eq!(report.games.len(), 8, "{}", r.out);
    assert_eq!(report.pentanomial.iter().sum::<u64>(), 4, "{}", r.out);
    // The table's own Ptnml line agrees with what the worker counted.
    let p = report.pentanomial;
    let ptnml = format!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}]",
        p[0], p[1], p[2], p[3], p[4]
    );
    assert!(r.out.contains(&ptnml), "{ptnml}\n{}", r.out);
    // The undeclared options were sent, each with a warning (in the log file, given here;
    // on stderr without one); the doubled prefix went as one.
    let log = dir.read("run.log");
    assert!(log.contains("has no option 'Hash'"), "{log}");
    assert!(log.contains("sent anyway"), "{log}");
    for sent in [
        "setoption name Hash value 16",
        "setoption name Threads value 1",
        "setoption name EnteringKingRule value CSARule24",
    ] {
        assert!(log.contains(sent), "{sent}");
    }
    assert!(!log.contains("option.EnteringKingRule"));
    // The match was played under the CSA 24-point rule (its saved settings say so).
    let state = dir.read("PGNs/17.5.1764633600.0.pgn.state");
    assert!(
        state.contains("\"entering_king_rule\":\"CSARule24\""),
        "{state}"
    );
    // The PGN file, sliced as the worker slices it: every game, its Termination readable.
    let pgn = dir.read("PGNs/17.5.1764633600.0.pgn");
    let games = slice_pgn(&pgn);
    assert_eq!(games.len(), 8, "{pgn}");
    let illegal_in_pgn = games
        .iter()
        .filter(|(h, _)| header(h, "Termination").is_some_and(|t| t.contains("illegal")))
        .count() as u64;
    assert_eq!(illegal_in_pgn, report.illegals, "{pgn}");
    for (h, moves) in &games {
        assert!(header(h, "Result").is_some(), "{h:?}");
        assert!(!moves.is_empty());
    }
}

/// The binary re-runs itself to launch each engine (the parent-death launcher); a copy under
/// any name must still play: `shogitest-ob` and `shogitest` read shogitest's command line, a
/// renamed `saikoro` its own.
#[test]
fn a_copy_of_the_binary_plays_under_any_name() {
    let dir = client_dir("worker-names", "", "startpos\n");
    let dev = engine("Saikoro-a", "Seed=1", "Saikoro-dev");
    let base = engine("Saikoro-a", "Seed=2", "Saikoro-base");
    let line = worker_line(Some(PROFILE), 1, &dev, &base);
    for name in ["shogitest-ob", "shogitest", "shogitest-ob.exe"] {
        let copy = dir.path(name);
        if !copy.exists() {
            copy_program(BIN.as_ref(), &copy);
        }
        let r = finish(start_in(&copy, &dir, &words(&line)));
        assert!(r.status.success(), "{name}: {}\n{}", r.out, r.err);
        // The next workload's files, as the worker's are a new name each time.
        for f in [
            "PGNs/17.5.1764633600.0.pgn",
            "PGNs/17.5.1764633600.0.pgn.state",
        ] {
            std::fs::remove_file(dir.path(f)).unwrap();
        }
        assert_eq!(worker_report(&r.out).games.len(), 2, "{name}: {}", r.out);
        assert!(!r.err.contains("--saikoro-engine-launcher"), "{}", r.err);
    }
    let renamed = dir.path("my-runner");
    copy_program(BIN.as_ref(), &renamed);
    let ours = words(
        "match --engine cmd=Engines/Saikoro-a name=a --engine cmd=Engines/Saikoro-a name=b \
         --each depth=1 --games 2 --rounds 1 --ratinginterval 0 --state renamed.state",
    );
    let r = finish(start_in(&renamed, &dir, &ours));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    assert_eq!(r.out.matches("Finished game").count(), 2, "{}", r.out);
}

#[test]
fn the_profile_is_the_24_point_rule_a_28_point_declaration_loses() {
    let book = format!("{DECLARE_28}\n");
    let dev = engine("Fault-b", OPTIONS, "Fault-dev");
    let base = engine("Saikoro-a", &format!("{OPTIONS} Seed=2"), "Saikoro-base");
    // Game 1: the fault engine, Black, declares at once.
    let first = |profile: Option<&str>, tag: &str| {
        let dir = client_dir(tag, "win", &book);
        let r = runner(&dir, &worker_line(profile, 1, &dev, &base));
        assert!(r.status.success(), "{}\n{}", r.out, r.err);
        let report = worker_report(&r.out);
        report.games.into_iter().find(|g| g.game == 1).unwrap()
    };
    let under_profile = first(Some(PROFILE), "worker-csa24");
    assert_eq!(
        (under_profile.result.as_str(), under_profile.reason.as_str()),
        ("0-1", "Sente makes an illegal move")
    );
    // Without a profile the runner's default (the CSA rule, 28 points for Black) holds: a win
    // by impasse, which the worker's side statistics count as one.
    let dir = client_dir("worker-csa27", "win", &book);
    let r = runner(&dir, &worker_line(None, 1, &dev, &base));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    let report = worker_report(&r.out);
    let g1 = report.games.iter().find(|g| g.game == 1).unwrap();
    assert_eq!(
        (g1.result.as_str(), g1.reason.as_str()),
        ("1-0", "Sente wins by impasse")
    );
    assert_eq!(report.dev_sente_impasse_wins, 1);
}

#[test]
fn an_unknown_profile_is_refused_before_any_engine_starts() {
    let dir = client_dir("worker-profile", "", "startpos\n");
    // An engine that leaves a marker when it is started.
    script(
        &dir,
        "Engines/Marker",
        &format!("touch {}; exec {BIN}", dir.path("started").display()),
    );
    let e = engine("Marker", OPTIONS, "M-dev");
    let f = engine("Marker", OPTIONS, "M-base");
    let r = runner(
        &dir,
        &worker_line(Some("legacy-csarule27-unverified-v1"), 1, &e, &f),
    );
    assert!(!r.status.success(), "{}\n{}", r.out, r.err);
    assert!(
        r.err
            .contains("unknown rule profile \"legacy-csarule27-unverified-v1\"")
            && r.err.contains(&format!("known: {PROFILE}")),
        "{}",
        r.err
    );
    assert!(!dir.path("started").exists(), "an engine was started");
    assert!(!dir.path("PGNs/17.5.1764633600.0.pgn").exists());
    // The same engines under the known profile do start.
    let r = runner(&dir, &worker_line(Some(PROFILE), 1, &e, &f));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    assert!(dir.path("started").exists());
}

#[test]
fn an_undeclared_option_is_sent_in_the_farm_dialects_and_refused_in_ours() {
    let dir = Dir::new("worker-options");
    let base = format!(
        "match --engine cmd={BIN} name=a option.Hash=16 --engine cmd={BIN} name=b \
         --each depth=1 --games 2 --rounds 1 --ratinginterval 0"
    );
    let run = |extra: &str, tag: &str| {
        let args = words(&format!("{base} {extra} --state {tag}.state"));
        finish(start_in(std::path::Path::new(&*BIN), &dir, &args))
    };
    // Ours: refused, before any game, naming the option and what the engine declares.
    let r = run("", "ours");
    assert!(!r.status.success());
    assert!(r.err.contains("engine a has no option 'Hash'"), "{}", r.err);
    assert!(r.err.contains("it declares: USI_Ponder, Seed"), "{}", r.err);
    assert!(!r.out.contains("Finished game"), "{}", r.out);
    // Ours with the flag, and fastchess's -engine: played, with the warning.
    let r = run("--send-undeclared-options", "flag");
    assert!(r.status.success(), "{}", r.err);
    assert_eq!(r.out.matches("Finished game").count(), 2, "{}", r.out);
    assert!(r.err.contains("has no option 'Hash'") && r.err.contains("sent anyway"));
    let fastchess = words(&format!(
        "match -engine cmd={BIN} name=a option.Hash=16 -engine cmd={BIN} name=b \
         -each depth=1 -rounds 1 -repeat --state fc.state"
    ));
    let r = finish(start_in(std::path::Path::new(&*BIN), &dir, &fastchess));
    assert!(r.status.success(), "{}", r.err);
    assert_eq!(r.out.matches("Finished game").count(), 2, "{}", r.out);
    assert!(r.err.contains("has no option 'Hash'") && r.err.contains("sent anyway"));
}

/// An SPSA workload (`MatchRunner.engine_settings` with the tuned parameters: the worker adds
/// each to both engines with its branch's value, `str()` of a float, so a spin gets `12.2`):
/// the line plays, every value reaches the engine as written, each engine is warned about once
/// (though each is started three times: to be probed, and once per game slot), and Saikoro
/// reads the values as the nearest integers.
#[test]
fn the_workers_spsa_line_sends_fractional_values_as_written() {
    let dir = client_dir("worker-spsa", "", "startpos\n");
    // Seed 12 ± 0.2 and USI_Hash 16 ± 0.73, the dev branch with the plus.
    let dev = engine(
        "Saikoro-a",
        &format!("{OPTIONS} Seed=12.2 USI_Hash=16.73"),
        "Saikoro-dev",
    );
    let base = engine(
        "Saikoro-a",
        &format!("{OPTIONS} Seed=11.8 USI_Hash=15.27"),
        "Saikoro-base",
    );
    let line = worker_line(Some(PROFILE), 2, &dev, &base);
    assert!(line.contains("-concurrency 2"));
    let r = runner(&dir, &format!("{line} --log-file run.log"));
    assert!(r.status.success(), "{}\n{}", r.out, r.err);
    let report = worker_report(&r.out);
    assert_eq!(report.games.len(), 4, "{}", r.out);
    assert_eq!(report.pentanomial.iter().sum::<u64>(), 2, "{}", r.out);
    let log = dir.read("run.log");
    for (engine, seed, hash, seed_to, hash_to) in [
        ("Saikoro-dev", "12.2", "16.73", 12, 17),
        ("Saikoro-base", "11.8", "15.27", 12, 15),
    ] {
        // Sent as written at each of its three starts, and read by the engine as integers.
        for sent in [
            format!("{engine}> setoption name Seed value {seed}"),
            format!("{engine}> setoption name USI_Hash value {hash}"),
        ] {
            assert_eq!(
                log.matches(&format!("{sent}\n")).count(),
                3,
                "{sent}\n{log}"
            );
        }
        for answer in [
            format!("{engine}< info string setoption Seed: {seed} rounded to {seed_to}"),
            format!("{engine}< info string setoption USI_Hash: {hash} rounded to {hash_to}"),
            format!("{engine}< info string seed {seed_to} (from the Seed option)"),
        ] {
            assert!(log.contains(&answer), "{answer}\n{log}");
        }
        // One warning per engine for each option it does not take as sent; none for
        // USI_Hash, which it does not declare but every GUI sends.
        for warning in [
            format!(
                "engine {engine}: option.Seed={seed}: not an integer; the engine will have to \
                 round it to {seed_to}: sent anyway"
            ),
            format!("engine {engine} has no option 'Hash'"),
        ] {
            assert_eq!(log.matches(&warning).count(), 1, "{warning}\n{log}");
        }
        assert!(!log.contains(&format!("engine {engine} has no option 'USI_Hash'")));
    }
}

/// A value an engine's declaration rules out: sent as written in the farm dialects (the engine
/// decides), with one warning per engine; refused in ours, with the flag that sends it named,
/// and sent with that flag. A fraction for a spin is sent in ours too, with a warning that
/// names the integer the engine will have to round it to.
#[test]
fn option_values_go_as_written_in_the_farm_dialects_and_are_checked_in_ours() {
    let dir = Dir::new("worker-values");
    let ours = |value: &str, extra: &str, tag: &str| {
        let args = words(&format!(
            "match --engine cmd={BIN} name=a option.Seed={value} --engine cmd={BIN} name=b \
             --each depth=1 --games 2 --rounds 1 --concurrency 2 --ratinginterval 0 {extra} \
             --state {tag}.state"
        ));
        finish(start_in(std::path::Path::new(&*BIN), &dir, &args))
    };
    let refused = "engine a: option.Seed=-5: expected an integer from 0 to 2147483647";
    let r = ours("-5", "", "ours");
    assert!(!r.status.success());
    assert!(
        r.err.contains(&format!(
            "{refused} (add --send-option-values-as-written to send it to the engine as written)"
        )),
        "{}",
        r.err
    );
    assert!(!r.out.contains("Finished game"), "{}", r.out);
    let r = ours("-5", "--send-option-values-as-written", "flag");
    assert!(r.status.success(), "{}", r.err);
    assert_eq!(r.out.matches("Finished game").count(), 2, "{}", r.out);
    assert_eq!(
        r.err.matches(&format!("{refused}: sent anyway")).count(),
        1,
        "{}",
        r.err
    );
    let r = ours("12.5", "", "fraction");
    assert!(r.status.success(), "{}", r.err);
    assert_eq!(r.out.matches("Finished game").count(), 2, "{}", r.out);
    let rounding =
        "engine a: option.Seed=12.5: not an integer; the engine will have to round it to 13";
    assert_eq!(r.err.matches(rounding).count(), 1, "{}", r.err);
    // The farm dialects send both as written, each warned about once.
    for (line, warning) in [
        (
            format!(
                "shogitest -games 1 -concurrency 2 -engine cmd={BIN} option.Seed=-5 nodes=1 \
                 name=a -engine cmd={BIN} nodes=1 name=b --state st.state"
            ),
            refused,
        ),
        (
            format!(
                "match -engine cmd={BIN} name=a option.Seed=12.5 -engine cmd={BIN} name=b \
                 -each depth=1 -rounds 1 -repeat -concurrency 2 --state fc.state"
            ),
            rounding,
        ),
    ] {
        let r = finish(start_in(std::path::Path::new(&*BIN), &dir, &words(&line)));
        assert!(r.status.success(), "{line}\n{}", r.err);
        assert_eq!(r.out.matches("Finished game").count(), 2, "{}", r.out);
        assert_eq!(r.err.matches(warning).count(), 1, "{line}\n{}", r.err);
    }
}

#[test]
fn the_worker_regex_rewrite_reads_what_it_should() {
    // Lines of the worker's own tests (`Client/test_shogi_result.py`): a reason may hold a
    // colon; a line of no game is not read.
    let f =
        parse_finished("Finished game 3 (A-dev vs B-base): 1/2-1/2 {Draw by: repetition}").unwrap();
    assert_eq!(f.game, 3);
    assert_eq!((f.sente.as_str(), f.gote.as_str()), ("A-dev", "B-base"));
    assert_eq!(f.reason, "Draw by: repetition");
    let f = parse_finished("Finished game 2 (B-base vs A-dev): 0-1 {Gote wins by impasse}");
    assert_eq!(f.unwrap().reason, "Gote wins by impasse");
    assert!(parse_finished("Started game 1").is_none());
    assert!(parse_finished("Finished game 1 (a-dev vs b-base): * {x}").is_none());
}
