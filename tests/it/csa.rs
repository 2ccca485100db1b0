//! `saikoro csa` against an in-test CSA server on 127.0.0.1 that speaks as shogi-server does
//! (line formats from a real server's transcript: `LOGIN:<name> OK`, the Game_Summary layout
//! with trailing spaces, `START:<id>`, echoes `+7776FU,T0`, `%TORYO` without `,T`, `%KACHI,T0`
//! then `%KACHI`, two `#` end lines, an LF answered with an LF).

use saikoro_core::{Choice, Color, EnteringKingRule, Game, Outcome, Position, RandomMover, Square};
use saikoro_record::csa::notation::{move_to_csa, parse_move, piece_name, sign, split_move_line};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub(crate) use crate::usi_support::BIN;

#[cfg(unix)]
use crate::usi_support;

/// One client connection as the server sees it.
pub(crate) struct Conn {
    r: BufReader<TcpStream>,
    w: TcpStream,
    /// Keep-alive LFs received (each answered with an LF, as shogi-server does).
    keepalives: usize,
    /// Send an extra empty line before every line (keep-alive replies "at any moment").
    noisy: bool,
}

impl Conn {
    fn new(s: TcpStream) -> Conn {
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        s.set_nodelay(true).unwrap();
        Conn {
            r: BufReader::new(s.try_clone().unwrap()),
            w: s,
            keepalives: 0,
            noisy: false,
        }
    }

    /// The next non-empty line; `None` when the client closed the connection.
    pub(crate) fn recv(&mut self) -> Option<String> {
        loop {
            let mut l = String::new();
            match self.r.read_line(&mut l) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return None,
                Err(e) => panic!("server read: {e}"),
            }
            let l = l.trim_end_matches('\n').to_string();
            if l.is_empty() {
                self.keepalives += 1;
                self.send_raw("\n");
                continue;
            }
            return Some(l);
        }
    }

    pub(crate) fn expect(&mut self, want: &str) {
        assert_eq!(self.recv().as_deref(), Some(want));
    }

    fn send_raw(&mut self, s: &str) {
        let _ = self.w.write_all(s.as_bytes());
    }

    pub(crate) fn send(&mut self, line: &str) {
        if self.noisy {
            self.send_raw("\n");
        }
        self.send_raw(&format!("{line}\n"));
    }

    /// Reads `LOGIN name password`, answers `LOGIN:name OK`, returns (name, password).
    fn login(&mut self) -> (String, String) {
        let l = self.recv().expect("LOGIN");
        let parts: Vec<&str> = l.split(' ').collect();
        assert_eq!(parts.len(), 3, "{l}");
        assert_eq!(parts[0], "LOGIN");
        self.send(&format!("LOGIN:{} OK", parts[1]));
        (parts[1].to_string(), parts[2].to_string())
    }

    /// Sends the summary, expects `AGREE <id>`, sends `START:<id>`.
    pub(crate) fn start(&mut self, summary: &str, id: &str) {
        for l in summary.lines() {
            self.send(l);
        }
        self.expect(&format!("AGREE {id}"));
        self.send(&format!("START:{id}"));
    }
}

pub(crate) struct Spec {
    pub(crate) id: String,
    black: String,
    white: String,
    us: Color,
    to_move: char,
    max_moves: u32,
    total: u32,
    byoyomi: u32,
    increment: u32,
    position: String,
}

impl Spec {
    pub(crate) fn new(id: &str, us: Color) -> Spec {
        Spec {
            id: id.into(),
            black: "black-player".into(),
            white: "white-player".into(),
            us,
            to_move: '+',
            max_moves: 256,
            total: 60,
            byoyomi: 10,
            increment: 0,
            position: HIRATE.into(),
        }
    }

    pub(crate) fn summary(&self) -> String {
        format!(
            "BEGIN Game_Summary\nProtocol_Version:1.2\nProtocol_Mode:Server\nFormat:Shogi 1.0\n\
             Declaration:Jishogi 1.1\nGame_ID:{}\nName+:{}\nName-:{}\nYour_Turn:{}\n\
             Rematch_On_Draw:NO\nTo_Move:{}\nMax_Moves:{}\nBEGIN Time\nTime_Unit:1sec\n\
             Total_Time:{}\nByoyomi:{}\nIncrement:{}\nLeast_Time_Per_Move:0\nEND Time\n\
             BEGIN Position\n{}END Position\nEND Game_Summary\n",
            self.id,
            self.black,
            self.white,
            sign(self.us),
            self.to_move,
            self.max_moves,
            self.total,
            self.byoyomi,
            self.increment,
            self.position
        )
    }
}

const HIRATE: &str = "\
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
";

/// The rows, hands and turn of a position as shogi-server writes them.
fn position_block(sfen: &str) -> String {
    let pos = Position::from_sfen(sfen).unwrap();
    let mut s = String::new();
    for rank in 1..=9 {
        s.push_str(&format!("P{rank}"));
        for file in (1..=9).rev() {
            match pos.piece_at(Square::new(file, rank).unwrap()) {
                Some(p) => s.push_str(&format!("{}{}", sign(p.color), piece_name(p.kind))),
                None => s.push_str(" * "),
            }
        }
        s.push('\n');
    }
    for c in Color::ALL {
        s.push_str(&format!("P{}", sign(c)));
        for (k, n) in pos.hand(c).iter() {
            for _ in 0..n {
                s.push_str(&format!("00{}", piece_name(k)));
            }
        }
        s.push('\n');
    }
    s.push_str(&format!("{}\n", sign(pos.side_to_move())));
    s
}

pub(crate) fn tmp_dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("csa-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub(crate) struct Client {
    child: Child,
    dir: PathBuf,
}

fn spawn_client(port: u16, name: &str, extra: &[&str]) -> Client {
    let login = ["--password", "game-60-10,secret-trip"];
    spawn_client_with(port, name, &login, &[], None, extra)
}

/// A client of the server at `port`, logging in as `name` with the `login` flags, `env` in its
/// environment (and no password there otherwise) and `stdin` on its stdin. Its log and its
/// stderr go to `log.txt` and `stderr.txt` in a directory of its own.
pub(crate) fn spawn_client_with(
    port: u16,
    name: &str,
    login: &[&str],
    env: &[(&str, &str)],
    stdin: Option<&str>,
    extra: &[&str],
) -> Client {
    let dir = tmp_dir(name);
    let mut child = Command::new(BIN)
        .args(["csa", "--host", "127.0.0.1", "--port", &port.to_string()])
        .args(["--user", name])
        .args(login)
        .args(["--log-file", dir.join("log.txt").to_str().unwrap()])
        .args(extra)
        .env("RUST_LOG", "debug")
        .env("SAIKORO_CSA_KEEPALIVE_FLOOR_MS", "100")
        .env_remove("SAIKORO_CSA_PASSWORD")
        .envs(env.iter().copied())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(dir.join("stderr.txt")).unwrap())
        .spawn()
        .unwrap();
    if let Some(text) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        pipe.write_all(text.as_bytes()).unwrap();
    }
    Client { child, dir }
}

impl Client {
    /// Waits (at most 30 s) for the exit; returns (success, stdout, its directory).
    pub(crate) fn finish(mut self) -> (bool, String, PathBuf) {
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                let mut out = String::new();
                std::io::Read::read_to_string(self.child.stdout.as_mut().unwrap(), &mut out)
                    .unwrap();
                return (st.success(), out, self.dir);
            }
            if Instant::now() > until {
                let _ = self.child.kill();
                panic!("client did not exit");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

pub(crate) fn listen() -> (TcpListener, u16) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    (l, port)
}

pub(crate) fn accept(l: &TcpListener) -> Conn {
    Conn::new(l.accept().unwrap().0)
}

/// Plays the server's side (`them`) with a random player and relays the client's moves,
/// checking each with the rules, until the client's side has made `plies_by_us` moves or the
/// game ends by rule; returns the game.
pub(crate) fn play_moves(c: &mut Conn, game: &mut Game, us: Color, total_plies: usize, seed: u64) {
    let mut p = RandomMover::new(seed);
    while game.len() < total_plies {
        if game.position().side_to_move() == us {
            let l = c.recv().expect("client move");
            let (text, t) = split_move_line(&l).unwrap_or_else(|| panic!("not a move: {l}"));
            assert_eq!(t, None, "clients send no time");
            assert_eq!(text, l, "no comment expected");
            let mv = parse_move(game.position(), text).expect("legal client move");
            game.play(mv);
            c.send(&format!("{text},T0"));
        } else {
            let Choice::Move(mv) = p.choose(game, EnteringKingRule::NoEnteringKing) else {
                panic!("server side has no move");
            };
            let text = move_to_csa(game.position(), mv);
            game.play(mv);
            c.send(&format!("{text},T0"));
        }
        assert!(
            game.outcome().is_none(),
            "random game ended early; pick another seed"
        );
    }
}

fn log_of(dir: &std::path::Path) -> String {
    std::fs::read_to_string(dir.join("log.txt")).unwrap_or_default()
}

/// A game as Black from the start position; the server's White resigns after 10 plies.
/// Keep-alive LFs are sprinkled before every server line; the record is checked.
#[test]
fn normal_game_to_resignation_with_record() {
    let (l, port) = listen();
    let rec = tmp_dir("records");
    let client = spawn_client(
        port,
        "alice",
        &["--seed", "5", "--record-dir", rec.to_str().unwrap()],
    );
    let mut c = accept(&l);
    c.noisy = true;
    let (name, password) = c.login();
    assert_eq!(
        (name.as_str(), password.as_str()),
        ("alice", "game-60-10,secret-trip")
    );
    let spec = Spec::new("local+game-60-10+alice+bob+20261129131809", Color::Black);
    c.start(&spec.summary(), &spec.id);
    let mut game = Game::new(Position::startpos());
    play_moves(&mut c, &mut game, Color::Black, 10, 11);
    c.send("%TORYO");
    c.send("#RESIGN");
    c.send("#WIN");
    // The session ends as the protocol says, before the client closes the connection (after
    // the move it was sending as the server resigned).
    let mut line = c.recv();
    if line.as_deref().is_some_and(|l| l.starts_with('+')) {
        line = c.recv();
    }
    assert_eq!(line.as_deref(), Some("LOGOUT"));
    assert_eq!(c.recv(), None, "nothing after LOGOUT");
    drop(c);
    let (ok, out, dir) = client.finish();
    assert!(ok);
    assert_eq!(out, format!("game {}: win RESIGN 10 plies\n", spec.id));
    let log = log_of(&dir);
    assert!(log.contains("> LOGIN alice ********"), "{log}");
    assert!(!log.contains("secret-trip"));
    let record = std::fs::read_to_string(rec.join(format!("{}.csa", spec.id))).unwrap();
    let mut pos = Position::startpos();
    let mut want = String::new();
    for m in game.moves() {
        want.push_str(&format!("{}\nT0\n", move_to_csa(&pos, m)));
        pos.do_move(m);
    }
    assert!(
        record.starts_with("V2.2\nN+black-player\nN-white-player\n"),
        "{record}"
    );
    assert!(
        record.contains(&format!("PI\n+\n{want}%TORYO\n")),
        "{record}"
    );
    assert!(record.contains("'summary:resign:black-player win:white-player lose"));
}

/// White (the server) drops a gold on 1h, protected by the pawn on 1g: Black's king on 1i is
/// mated, and the client resigns.
#[test]
fn mated_client_resigns() {
    let (l, port) = listen();
    let client = spawn_client(port, "mated", &[]);
    let mut c = accept(&l);
    c.login();
    let mut spec = Spec::new("mate-1", Color::Black);
    spec.position = position_block("4k4/9/9/9/9/9/8p/9/8K w g 1");
    spec.to_move = '-';
    c.start(&spec.summary(), &spec.id);
    c.send("-0018KI,T0");
    c.expect("%TORYO");
    c.send("%TORYO");
    c.send("#RESIGN");
    c.send("#LOSE");
    let (ok, out, _) = client.finish();
    assert!(ok);
    assert_eq!(out, "game mate-1: lose RESIGN 1 plies\n");
}

/// Black's king on 5b with 11 pieces and 28 points in the camp and hand: the client declares.
#[test]
fn kachi_declaration_wins() {
    let (l, port) = listen();
    let rec = tmp_dir("kachi-rec");
    let client = spawn_client(port, "kachi", &["--record-dir", rec.to_str().unwrap()]);
    let mut c = accept(&l);
    c.login();
    let mut spec = Spec::new("kachi-1", Color::Black);
    spec.position = position_block("+R+BGGG+P+PSS/4K3+N/G8/9/9/9/9/9/k8 b 9P 1");
    c.start(&spec.summary(), &spec.id);
    c.expect("%KACHI");
    c.send("%KACHI,T0");
    c.send("%KACHI");
    c.send("#JISHOGI");
    c.send("#WIN");
    let (ok, out, _) = client.finish();
    assert!(ok);
    assert_eq!(out, "game kachi-1: win JISHOGI 0 plies\n");
    let record = std::fs::read_to_string(rec.join("kachi-1.csa")).unwrap();
    assert!(
        record.contains("P2 *  *  *  * +OU *  *  * +NK\n"),
        "{record}"
    );
    assert!(
        record.contains("P+00FU00FU00FU00FU00FU00FU00FU00FU00FU\n"),
        "{record}"
    );
    assert!(record.contains("\n+\n%KACHI\n"), "{record}");
}

/// shogi-server's 1-move buoy: `To_Move:-` while the Position's turn line is `+`, the move
/// `+7776FU,T1` already played. The client is White and must answer it.
#[test]
fn buoy_moves_already_played() {
    let (l, port) = listen();
    let client = spawn_client(port, "buoy", &["--seed", "3"]);
    let mut c = accept(&l);
    c.login();
    let mut spec = Spec::new("buoy-1", Color::White);
    spec.to_move = '-';
    spec.position = format!("{HIRATE}+7776FU,T1\n");
    c.start(&spec.summary(), &spec.id);
    let mut game = Game::new(Position::startpos());
    game.play(parse_move(game.position(), "+7776FU").unwrap());
    play_moves(&mut c, &mut game, Color::White, 4, 2);
    c.send("%TORYO");
    c.send("#RESIGN");
    c.send("#WIN");
    let (ok, out, _) = client.finish();
    assert!(ok);
    assert_eq!(out, "game buoy-1: win RESIGN 4 plies\n");
}

/// A USI engine, as a shell script in `dir`, that logs every line it reads to `engine.log` and
/// answers `go` with `bestmove BESTMOVE` (with an empty `bestmove`, only `stop` gets an answer:
/// `bestmove resign`).
pub(crate) fn fake_engine(dir: &std::path::Path, bestmove: &str) -> String {
    let script = dir.join("engine.sh");
    let log = dir.join("engine.log");
    std::fs::write(
        &script,
        format!(
            "while IFS= read -r line; do\n\
             printf '%s\\n' \"$line\" >> '{}'\n\
             case \"$line\" in\n\
             usi) echo 'id name fake'; echo 'usiok';;\n\
             isready) echo 'readyok';;\n\
             go*) if [ -n '{bestmove}' ]; then echo 'info depth 1'; echo 'bestmove {bestmove}'; fi;;\n\
             stop) echo 'bestmove resign';;\n\
             quit) exit 0;;\n\
             esac\n\
             done\n",
            log.display()
        ),
    )
    .unwrap();
    format!("sh {}", script.display())
}

/// Fischer clock with an external engine: the buoy's times are charged (Black 300 + 10 - 12 =
/// 298 s, White 300 + 10 - 5 = 305 s) and our margin comes off our increment. The engine
/// resigns.
#[test]
fn engine_gets_fischer_clock_and_resigns() {
    let (l, port) = listen();
    let dir = tmp_dir("engine-fischer");
    let engine = fake_engine(&dir, "resign");
    let client = spawn_client(
        port,
        "eng1",
        &[
            "--engine",
            &engine,
            "--option",
            "USI_Hash=64",
            "--option",
            "Threads=1",
        ],
    );
    let mut c = accept(&l);
    c.login();
    let mut spec = Spec::new("fischer-1", Color::Black);
    spec.total = 300;
    spec.byoyomi = 0;
    spec.increment = 10;
    spec.position = format!("{HIRATE}+7776FU,T12\n-3334FU,T5\n");
    c.start(&spec.summary(), &spec.id);
    c.expect("%TORYO");
    c.send("%TORYO");
    c.send("#RESIGN");
    c.send("#LOSE");
    let (ok, out, _) = client.finish();
    assert!(ok);
    assert_eq!(out, "game fischer-1: lose RESIGN 2 plies\n");
    let log = std::fs::read_to_string(dir.join("engine.log")).unwrap();
    assert_eq!(
        log,
        "usi\nsetoption name USI_Hash value 64\nsetoption name Threads value 1\nisready\n\
         usinewgame\nposition startpos moves 7g7f 3c3d\n\
         go btime 298000 wtime 305000 binc 8500 winc 10000\ngameover lose\nquit\n"
    );
}

/// Byoyomi clock: Black's live move takes T20 of 60 s; the engine, White, answers 3c3d; Black
/// resigns.
#[test]
fn engine_gets_byoyomi_clock_and_plays() {
    let (l, port) = listen();
    let dir = tmp_dir("engine-byoyomi");
    let engine = fake_engine(&dir, "3c3d");
    let client = spawn_client(port, "eng2", &["--engine", &engine, "--margin-ms", "2000"]);
    let mut c = accept(&l);
    c.login();
    let spec = Spec::new("byoyomi-1", Color::White);
    c.start(&spec.summary(), &spec.id);
    c.send("+7776FU,T20");
    c.expect("-3334FU");
    c.send("-3334FU,T0");
    c.send("%TORYO");
    c.send("#RESIGN");
    c.send("#WIN");
    let (ok, out, _) = client.finish();
    assert!(ok);
    assert_eq!(out, "game byoyomi-1: win RESIGN 2 plies\n");
    let log = std::fs::read_to_string(dir.join("engine.log")).unwrap();
    assert!(
        log.contains("position startpos moves 7g7f\ngo btime 40000 wtime 60000 byoyomi 8000\n"),
        "{log}"
    );
    assert!(log.ends_with("gameover win\nquit\n"), "{log}");
}

/// An engine that never answers `go`: with 2 s and no byoyomi and a 500 ms margin the client
/// sends `stop` at 1.5 s, and resigns with the engine's answer before the server would flag.
#[test]
fn our_deadline_stops_a_slow_engine() {
    let (l, port) = listen();
    let dir = tmp_dir("engine-slow");
    let engine = fake_engine(&dir, "");
    let client = spawn_client(port, "eng3", &["--engine", &engine, "--margin-ms", "500"]);
    let mut c = accept(&l);
    c.login();
    let mut spec = Spec::new("slow-1", Color::Black);
    spec.total = 2;
    spec.byoyomi = 0;
    c.start(&spec.summary(), &spec.id);
    let t0 = Instant::now();
    c.expect("%TORYO");
    // The deadline is 2,000 - 500 ms after START, then 500 ms of grace for a bestmove after
    // stop. The lower bound shows the engine was given its time; the upper one only that the
    // client did not wait for an answer that never comes (a loaded machine may add seconds).
    let took = t0.elapsed();
    assert!(
        took >= Duration::from_millis(1400) && took < Duration::from_millis(8000),
        "{took:?}"
    );
    c.send("%TORYO");
    c.send("#RESIGN");
    c.send("#LOSE");
    let (ok, out, _) = client.finish();
    assert!(ok);
    assert_eq!(out, "game slow-1: lose RESIGN 0 plies\n");
    let log = std::fs::read_to_string(dir.join("engine.log")).unwrap();
    assert!(
        log.contains("go btime 1500 wtime 2000 byoyomi 0\nstop\n"),
        "{log}"
    );
}

/// `#TIME_UP` after our move: a loss, reported as the server says.
#[test]
fn time_up() {
    let (l, port) = listen();
    let client = spawn_client(port, "tu", &[]);
    let mut c = accept(&l);
    c.login();
    let spec = Spec::new("tu-1", Color::Black);
    c.start(&spec.summary(), &spec.id);
    let mv = c.recv().unwrap();
    assert!(mv.starts_with('+'));
    c.send("#TIME_UP");
    c.send("#LOSE");
    let (ok, out, _) = client.finish();
    assert!(ok);
    assert_eq!(out, "game tu-1: lose TIME_UP 0 plies\n");
}

/// The last move is echoed, then `#SENNICHITE` `#DRAW`.
#[test]
fn sennichite_draw() {
    let (l, port) = listen();
    let client = spawn_client(port, "sn", &[]);
    let mut c = accept(&l);
    c.login();
    let spec = Spec::new("sn-1", Color::Black);
    c.start(&spec.summary(), &spec.id);
    let mut game = Game::new(Position::startpos());
    play_moves(&mut c, &mut game, Color::Black, 3, 4);
    c.send("#SENNICHITE");
    c.send("#DRAW");
    let (ok, out, _) = client.finish();
    assert!(ok);
    assert_eq!(out, "game sn-1: draw SENNICHITE 3 plies\n");
}

/// `Max_Moves:6`: after the sixth ply (the server's) come `#MAX_MOVES` `#CENSORED` and the
/// client, whose turn it would be, must not move.
#[test]
fn max_moves_censored_and_no_move_after_the_limit() {
    let (l, port) = listen();
    let client = spawn_client(port, "mm", &[]);
    let mut c = accept(&l);
    c.login();
    let mut spec = Spec::new("mm-1", Color::Black);
    spec.max_moves = 6;
    c.start(&spec.summary(), &spec.id);
    let mut game = Game::new(Position::startpos());
    play_moves(&mut c, &mut game, Color::Black, 6, 4);
    std::thread::sleep(Duration::from_millis(300));
    c.send("#MAX_MOVES");
    c.send("#CENSORED");
    assert_eq!(
        c.recv().as_deref(),
        Some("LOGOUT"),
        "no move after the limit"
    );
    assert_eq!(c.recv(), None, "nothing after LOGOUT");
    let (ok, out, _) = client.finish();
    assert!(ok);
    assert_eq!(out, "game mm-1: censored MAX_MOVES 6 plies\n");
}

/// `REJECT:<id> by <name>` after our AGREE: no game, a non-zero exit status.
#[test]
fn rejected_by_the_opponent() {
    let (l, port) = listen();
    let client = spawn_client(port, "rj", &[]);
    let mut c = accept(&l);
    c.login();
    let spec = Spec::new("rj-1", Color::Black);
    for line in spec.summary().lines() {
        c.send(line);
    }
    c.expect("AGREE rj-1");
    c.send("REJECT:rj-1 by white-player");
    drop(c);
    let (ok, out, _) = client.finish();
    assert!(!ok);
    assert_eq!(out, "game rj-1: rejected REJECT 0 plies\n");
}

/// The server drops the connection mid-game: the game is reported as interrupted, and the
/// exit status is non-zero.
#[test]
fn server_disconnect_mid_game() {
    let (l, port) = listen();
    let client = spawn_client(port, "dc", &[]);
    let mut c = accept(&l);
    c.login();
    let spec = Spec::new("dc-1", Color::Black);
    c.start(&spec.summary(), &spec.id);
    let mut game = Game::new(Position::startpos());
    play_moves(&mut c, &mut game, Color::Black, 2, 4);
    drop(c);
    let (ok, out, dir) = client.finish();
    assert!(!ok);
    assert!(
        out.starts_with("game dc-1: interrupted DISCONNECTED "),
        "{out}"
    );
    assert!(log_of(&dir).contains("connection lost"));
}

/// While waiting for a match the client sends an empty line every `--keepalive` seconds (the
/// 30 s floor lowered for the test), each answered with an LF.
#[test]
fn keepalive_while_waiting() {
    let (l, port) = listen();
    let client = spawn_client(port, "ka", &["--keepalive", "0.3"]);
    let mut c = accept(&l);
    c.login();
    // Read for 1.3 s without sending anything.
    c.w.set_read_timeout(Some(Duration::from_millis(1300)))
        .unwrap();
    c.r.get_ref()
        .set_read_timeout(Some(Duration::from_millis(1300)))
        .unwrap();
    let mut line = String::new();
    let start = Instant::now();
    let mut empties = 0;
    while start.elapsed() < Duration::from_millis(1300) {
        line.clear();
        match c.r.read_line(&mut line) {
            Ok(_) if line == "\n" => {
                empties += 1;
                c.send_raw("\n");
            }
            Ok(n) => panic!("unexpected {line:?} ({n})"),
            Err(_) => break,
        }
    }
    assert!((3..=5).contains(&empties), "{empties} keep-alives in 1.3 s");
    c.r.get_ref()
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let spec = Spec::new("ka-1", Color::White);
    c.start(&spec.summary(), &spec.id);
    c.send("+7776FU,T0");
    let _ = c.recv().unwrap();
    c.send("#TIME_UP");
    c.send("#WIN");
    let (ok, out, _) = client.finish();
    assert!(ok);
    // shogi-server does not echo a late move.
    assert_eq!(out, "game ka-1: win TIME_UP 1 plies\n");
}

/// `--games 2`: a new connection and login for the second game.
#[test]
fn two_games_in_a_row() {
    let (l, port) = listen();
    let client = spawn_client(port, "twice", &["--games", "2"]);
    for (i, us) in [Color::Black, Color::White].into_iter().enumerate() {
        let mut c = accept(&l);
        c.login();
        let spec = Spec::new(&format!("twice-{i}"), us);
        c.start(&spec.summary(), &spec.id);
        let mut game = Game::new(Position::startpos());
        play_moves(&mut c, &mut game, us, 4, 7);
        c.send("%TORYO");
        c.send("#RESIGN");
        c.send("#WIN");
    }
    let (ok, out, _) = client.finish();
    assert!(ok);
    assert_eq!(
        out,
        "game twice-0: win RESIGN 4 plies\ngame twice-1: win RESIGN 4 plies\n"
    );
}

/// A relay server for two clients: summaries, AGREE, START, then each move checked with the
/// rules and echoed to both; resignation, declaration, repetition and the move limit judged as
/// shogi-server does. Returns the end reason.
fn relay(mut conns: [Conn; 2], id: &str, names: [&str; 2]) -> (String, usize) {
    for (i, c) in conns.iter_mut().enumerate() {
        let mut spec = Spec::new(id, Color::ALL[i]);
        spec.black = names[0].into();
        spec.white = names[1].into();
        for l in spec.summary().lines() {
            c.send(l);
        }
    }
    for c in conns.iter_mut() {
        c.expect(&format!("AGREE {id}"));
    }
    for c in conns.iter_mut() {
        c.send(&format!("START:{id}"));
    }
    let mut game = Game::new(Position::startpos());
    let both = |conns: &mut [Conn; 2], l: &str| {
        for c in conns.iter_mut() {
            c.send(l);
        }
    };
    let result = |conns: &mut [Conn; 2], reason: &str, winner: Option<Color>| {
        for (i, c) in conns.iter_mut().enumerate() {
            c.send(&format!("#{reason}"));
            c.send(match winner {
                None if reason == "MAX_MOVES" => "#CENSORED",
                None => "#DRAW",
                Some(w) if w == Color::ALL[i] => "#WIN",
                Some(_) => "#LOSE",
            });
        }
    };
    loop {
        let mover = game.position().side_to_move();
        let line = conns[mover.index()].recv().expect("mover's line");
        match line.as_str() {
            "%TORYO" => {
                both(&mut conns, "%TORYO");
                result(&mut conns, "RESIGN", Some(!mover));
                return ("RESIGN".into(), game.len());
            }
            "%KACHI" => {
                both(&mut conns, "%KACHI,T0");
                both(&mut conns, "%KACHI");
                if game.can_declare_win(EnteringKingRule::CsaRule27) {
                    result(&mut conns, "JISHOGI", Some(mover));
                    return ("JISHOGI".into(), game.len());
                }
                result(&mut conns, "ILLEGAL_MOVE", Some(!mover));
                return ("ILLEGAL_MOVE".into(), game.len());
            }
            _ => {}
        }
        let Ok(mv) = parse_move(game.position(), &line) else {
            result(&mut conns, "ILLEGAL_MOVE", Some(!mover));
            return ("ILLEGAL_MOVE".into(), game.len());
        };
        game.play(mv);
        both(&mut conns, &format!("{line},T0"));
        match game.outcome() {
            Some(Outcome::Repetition) => {
                result(&mut conns, "SENNICHITE", None);
                return ("SENNICHITE".into(), game.len());
            }
            Some(Outcome::PerpetualCheck { winner }) => {
                result(&mut conns, "OUTE_SENNICHITE", Some(winner));
                return ("OUTE_SENNICHITE".into(), game.len());
            }
            _ => {}
        }
        if game.len() >= 256 {
            result(&mut conns, "MAX_MOVES", None);
            return ("MAX_MOVES".into(), game.len());
        }
    }
}

/// Two `saikoro csa` processes play each other to the end through the relay.
#[test]
fn two_clients_play_each_other() {
    let (l, port) = listen();
    for round in 0..2u64 {
        let seed = (round * 2 + 1).to_string();
        let a = spawn_client(port, "sente", &["--seed", &seed]);
        let ca = accept(&l);
        let seed = (round * 2 + 2).to_string();
        let b = spawn_client(port, "gote", &["--seed", &seed]);
        let cb = accept(&l);
        let mut conns = [ca, cb];
        let na = conns[0].login().0;
        let nb = conns[1].login().0;
        assert_eq!((na.as_str(), nb.as_str()), ("sente", "gote"));
        let id = format!("relay-{round}");
        let (reason, plies) = relay(conns, &id, ["sente", "gote"]);
        let (oka, outa, _) = a.finish();
        let (okb, outb, _) = b.finish();
        assert!(oka && okb);
        let (ra, rb) = match reason.as_str() {
            "MAX_MOVES" => ("censored", "censored"),
            "SENNICHITE" => ("draw", "draw"),
            _ => {
                // Whoever's line ended it: look at the words.
                let wa = outa.split(' ').nth(2).unwrap().to_string();
                assert!(wa == "win" || wa == "lose", "{outa}");
                if wa == "win" {
                    ("win", "lose")
                } else {
                    ("lose", "win")
                }
            }
        };
        assert_eq!(outa, format!("game {id}: {ra} {reason} {plies} plies\n"));
        assert_eq!(outb, format!("game {id}: {rb} {reason} {plies} plies\n"));
    }
}

/// A refused connection is retried with back-off, and a user at a terminal sees why the client
/// waits: the warning reaches stderr without RUST_LOG (the USI mode stays quiet; this is a CLI).
/// When the server comes up, the client connects and logs in.
#[test]
fn refused_connection_is_reported_and_retried() {
    let (l, port) = listen();
    drop(l);
    let mut child = Command::new(BIN)
        .args(["csa", "--host", "127.0.0.1", "--port", &port.to_string()])
        .args(["--user", "retry", "--password", "pw"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let err = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let line = rx.recv_timeout(Duration::from_secs(10));
    let Ok(line) = line else {
        let _ = child.kill();
        panic!("nothing on stderr while retrying: {line:?}");
    };
    assert!(
        line.contains("cannot connect") && line.contains("retrying in 1 s"),
        "{line}"
    );
    // The server comes up during the back-off: the client logs in.
    let l = TcpListener::bind(("127.0.0.1", port)).unwrap();
    l.set_nonblocking(false).unwrap();
    let mut c = accept(&l);
    let login = c.recv();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(login.as_deref(), Some("LOGIN retry pw"));
}

/// Ctrl-C while the client waits to retry a refused connection: there is no game to finish,
/// so it ends at once with 130, as for a second Ctrl-C (docs/exit-status.md), not 0.
#[cfg(unix)]
#[test]
fn ctrl_c_before_the_first_game_exits_130() {
    let (l, port) = listen();
    drop(l);
    let mut child = Command::new(BIN)
        .args(["csa", "--host", "127.0.0.1", "--port", &port.to_string()])
        .args(["--user", "intr", "--password", "pw"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    // The first refusal is said before the back-off starts.
    err.read_line(&mut line).unwrap();
    assert!(line.contains("cannot connect"), "{line}");
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let t0 = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "the client did not end"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(130));
}

/// SIGTERM while the engine, asked for our first move, has stopped reading its input: the
/// client ends (143) and so does the engine, which never sees `quit` nor the end of its input.
#[cfg(unix)]
#[test]
fn sigterm_ends_the_client_and_a_deaf_engine() {
    let (l, port) = listen();
    let dir = tmp_dir("engine-sigterm");
    let pids = dir.join("pids");
    let engine = format!(
        "{} --fault deaf --pid-file {}",
        usi_support::fault_engine().display(),
        pids.display()
    );
    let mut client = spawn_client(port, "engterm", &["--engine", &engine]);
    let mut c = accept(&l);
    c.login();
    let spec = Spec::new("term-1", Color::Black);
    c.start(&spec.summary(), &spec.id);
    // The engine has its first `go` (60 s on the clock) and reads nothing more.
    std::thread::sleep(Duration::from_millis(500));
    let pid_list: Vec<u32> = std::fs::read_to_string(&pids)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(pid_list.len(), 1);
    let t0 = Instant::now();
    let ok = Command::new("kill")
        .args(["-TERM", &client.child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let status = loop {
        if let Some(st) = client.child.try_wait().unwrap() {
            break st;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "the client did not end"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(143));
    let alive = |pid: u32| !usi_support::gone(pid);
    let until = Instant::now() + Duration::from_secs(3);
    while alive(pid_list[0]) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(pid_list[0]), "the engine outlived the client");
}

/// Runs `saikoro csa ARGS` to its end without a server; returns the status code, stderr and
/// how long it took.
pub(crate) fn csa_alone(args: &[&str]) -> (Option<i32>, String, Duration) {
    let t = Instant::now();
    let out = Command::new(BIN)
        .arg("csa")
        .args(args)
        .env_remove("RUST_LOG")
        .env_remove("SAIKORO_CSA_PASSWORD")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), err, t.elapsed())
}

/// [`csa_alone`] with `--engine ENGINE` and the `extra` flags, for a server that is never
/// reached (the engine is started first). Its tests use Unix engines.
#[cfg(unix)]
fn csa_engine_alone(engine: &str, extra: &[&str]) -> (Option<i32>, String, Duration) {
    let mut args = vec!["--host", "127.0.0.1", "--user", "u", "--password", "p"];
    args.extend(["--engine", engine]);
    args.extend(extra);
    csa_alone(&args)
}

/// A host name that does not resolve is a typo: said at once (exit status 1), where a refused
/// connection is retried with back-off (above). `.invalid` never resolves (RFC 2606).
#[test]
fn unknown_host_fails_at_once() {
    let (code, err, took) = csa_alone(&[
        "--host",
        "no-such-host.invalid",
        "--user",
        "u",
        "--password",
        "p",
    ]);
    assert_eq!(code, Some(1));
    assert!(
        err.starts_with("saikoro: unknown host 'no-such-host.invalid' (--host): "),
        "{err}"
    );
    assert!(!err.contains("retrying"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // Generous: a resolver may take a while to say no, but never the minutes of back-off.
    assert!(took < Duration::from_secs(20), "{took:?}");
}

/// `--startup-ms` shortens the wait for an engine's `usiok` (60 s by default): an engine that
/// never answers `usi` ends the client within it, with a message that says so.
#[cfg(unix)]
#[test]
fn engine_startup_timeout_is_a_flag() {
    let (code, err, took) =
        csa_engine_alone("sh -c 'while read l; do :; done'", &["--startup-ms", "300"]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("at the handshake (usi ... usiok): no usiok from the engine within 300 ms"),
        "{err}"
    );
    assert!(took < Duration::from_secs(15), "{took:?}");
}

/// An engine that exits at once: the message names the stage it failed at and its exit
/// status, before any connection is made.
#[cfg(unix)]
#[test]
fn an_engine_that_exits_is_named_with_its_stage() {
    let (code, err, _) = csa_engine_alone("/bin/false", &[]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        err.trim_end(),
        "saikoro: --engine /bin/false: at the handshake (usi ... usiok): engine exited \
         (exit status: 1)"
    );
}
