#!/usr/bin/env bash
# The tools of the Windows build under Wine, from the release zip, as a Windows user and
# ShogiBench's Windows worker run them (the engine itself is .ci/windows-smoke.sh's):
#
#   1. match      saikoro.exe match of two saikoro.exe engines (20 games, 2 at a time): every
#                 game finished, and the games per second;
#   2. hang       a match against an engine that never answers `go`: it loses every game on
#                 time, the match ends, and the hung engine is gone with it; the time one costs;
#   3. kill       the runner killed outright (SIGKILL, where no code of its runs) while an engine
#                 is stuck in `go` without reading its input, after that engine has started a
#                 helper process: no engine process, nor the helper, is left within 5 s (each
#                 engine is in a job object created kill-on-close);
#   4. check      saikoro.exe check -- saikoro.exe: nothing fails;
#   5. worker     the worker's Windows command line (`shogitest-ob.exe -repeat -recover … -engine
#                 dir=Engines/ cmd=./eng.exe …`) with the exe copied as shogitest-ob.exe: every
#                 game finished, exit status 0, the PGN file holding them all;
#   6. ctrl-c     a long match given SIGINT, which Wine hands the process as the console's
#                 CTRL_C_EVENT: the match starts no new game, ends (exit status 130) and says
#                 how to resume. (Ctrl-Break and the console's close need a console, which Wine
#                 without a display does not give; they are not run.)
#
#   .ci/windows-runner.sh --zip ZIP
#
# The broken engine is .ci/wine-engine.c, built here with the mingw-w64 compiler (milliseconds;
# examples/fault_engine.rs built for Windows would cost minutes of CI for its dev-dependencies).
#
# Missing tools are installed as .ci/windows-tools.sh does; when they cannot be had the test is
# skipped with a message and exit status 0, as the smoke test is. Time: at most
# SAIKORO_WINE_RUNNER_BUDGET seconds (default 240; about 60 s are used when Wine is installed):
# a run that cannot start for want of time is skipped; one that starts and does not end in its
# own limit fails, as does every wrong answer.
set -uo pipefail
cd "$(dirname "$0")/.."
NAME="windows runner"
BUDGET=${SAIKORO_WINE_RUNNER_BUDGET:-240}
# shellcheck source=windows-tools.sh
. .ci/windows-tools.sh

skip() { echo "windows runner: SKIPPED: $* ($(elapsed) of ${BUDGET} s budget)"; exit 0; }
fail() { echo "windows runner: FAILED: $*"; exit 1; }
say() { echo "windows runner: $*"; }

ZIP=""
while [ $# -gt 0 ]; do
    case $1 in
        --zip) ZIP=$2; shift 2 ;;
        *) fail "unknown argument $1 (usage: $0 --zip ZIP)" ;;
    esac
done
[ -n "$ZIP" ] || fail "usage: $0 --zip ZIP"
[ -f "$ZIP" ] || fail "no zip $ZIP"

S=$(mktemp -d)
RUNNER=""
cleanup() {
    [ -n "$RUNNER" ] && kill -KILL "$RUNNER" 2>/dev/null
    # Whatever a failed run left in the prefix (and the wineserver itself).
    if [ -n "${WINEPREFIX:-}" ]; then
        for ws in wineserver /usr/lib/wine/wineserver64 /usr/lib/wine/wineserver; do
            if command -v "$ws" >/dev/null 2>&1; then timeout 10 "$ws" -k >/dev/null 2>&1; break; fi
        done
    fi
    rm -rf "$S" 2>/dev/null || { sleep 1; rm -rf "$S"; }
}
trap cleanup EXIT

win_linker || skip "$WHY"
mkdir -p "$S/zip" "$S/app"
unzip -q "$ZIP" -d "$S/zip" || fail "cannot unzip $ZIP"
EXE=$(find "$S/zip" -name saikoro.exe)
[ -n "$EXE" ] && [ "$(echo "$EXE" | wc -l)" = 1 ] || fail "$ZIP does not hold exactly one saikoro.exe"
APP=$S/app
cp "$EXE" "$APP/saikoro.exe"
x86_64-w64-mingw32-gcc -O2 -o "$APP/wine-engine.exe" .ci/wine-engine.c || fail "cannot build .ci/wine-engine.c"
# The worker's client directory: the runner as shogitest-ob.exe, two engines, a book, PGNs/.
C=$S/client
mkdir -p "$C/Engines" "$C/Books" "$C/PGNs"
cp "$EXE" "$C/shogitest-ob.exe"
cp "$EXE" "$C/Engines/eng.exe"
cp "$EXE" "$C/Engines/eng-base.exe"
printf '%s\n' 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1' \
    'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3' > "$C/Books/x.sfen.epd"

win_wine || skip "$WHY"
win_prefix "$S/prefix" || skip "wineboot did not finish in time"
win_shim "$APP" "$C" "$C/Engines" || fail "cannot build the bcryptprimitives.dll shim"

# wine_run LIMIT DIR OUT ARGS...: ARGS under Wine in DIR, output in OUT, within LIMIT seconds.
# Skips when the budget has not LIMIT seconds left; a run past its limit fails. Sets STATUS and
# TOOK (seconds, to the tenth).
wine_run() {
    local limit=$1 dir=$2 out=$3 t0
    shift 3
    [ "$(left)" -ge "$limit" ] || skip "no time left for: $*"
    t0=$(date +%s%N)
    (cd "$dir" && timeout -k 5 "$limit" "$WINE" "$@") > "$out" 2>&1
    STATUS=$?
    TOOK=$(( ($(date +%s%N) - t0) / 100000000 ))
    TOOK=$((TOOK / 10)).$((TOOK % 10))
    [ $STATUS = 124 ] && { tail -n 20 "$out"; fail "$* did not finish within $limit s"; }
    return 0
}

# alive PIDFILE: the Windows processes of PIDFILE that still run, space-separated.
alive() {
    (cd "$APP" && timeout 20 "$WINE" wine-engine.exe alive $(cat "$1")) 2>/dev/null | tr -d '\r' | paste -sd ' '
}

played() { grep -o 'Played .* games/s' "$1"; }

# count FILE: its lines (0 when there is no FILE).
count() { if [ -f "$1" ]; then wc -l < "$1"; else echo 0; fi; }

# Each match below has a state file of its own: they run in one folder, where a new match
# refuses another match's state (docs/files.md).

# 1. Two saikoro.exe engines.
say "1. match: saikoro.exe against saikoro.exe, 20 games ($(elapsed))"
wine_run 90 "$APP" "$S/match.txt" saikoro.exe match --engine cmd=saikoro.exe name=a \
    --engine cmd=saikoro.exe name=b --each tc=10+0.1 --rounds 10 --games 2 --concurrency 2 \
    --state match.state
[ $STATUS = 0 ] || { tail -n 20 "$S/match.txt"; fail "match exited with $STATUS"; }
[ "$(grep -c '^Finished game ' "$S/match.txt")" = 20 ] || { cat "$S/match.txt"; fail "match: not 20 games finished"; }
say "1. match OK in $TOOK s: $(played "$S/match.txt")"

# 2. Against an engine that never answers `go`.
say "2. hang: saikoro.exe against an engine that never answers go, 2 games ($(elapsed))"
wine_run 60 "$APP" "$S/hang.txt" saikoro.exe match --engine cmd=saikoro.exe name=saikoro \
    --engine cmd=wine-engine.exe "args=hang --pid-file hang.pids" name=hang \
    --each tc=1+0.1 --rounds 1 --games 2 --state hang.state
[ $STATUS = 0 ] || { tail -n 20 "$S/hang.txt"; fail "match against the hung engine exited with $STATUS"; }
[ "$(grep -c '^Finished game .*loses on time' "$S/hang.txt")" = 2 ] \
    || { cat "$S/hang.txt"; fail "hang: the hung engine did not lose both games on time"; }
grep -q 'Games: 2, Wins: 2, Losses: 0' "$S/hang.txt" || { cat "$S/hang.txt"; fail "hang: saikoro did not win both"; }
left_over=$(alive "$APP/hang.pids")
[ -z "$left_over" ] || fail "hang: engine process(es) $left_over still running after the match"
say "2. hang OK in $TOOK s for 2 games, each lost on time: $(grep -m1 -o '{.*loses on time.*}' "$S/hang.txt")"

# 3. The runner killed outright while an engine is stuck.
say "3. kill: the runner killed (SIGKILL) while an engine is stuck in go ($(elapsed))"
[ "$(left)" -ge 40 ] || skip "no time left for the kill run"
(cd "$APP" && exec "$WINE" saikoro.exe match --engine cmd=saikoro.exe name=saikoro \
    --engine cmd=wine-engine.exe "args=deaf --child --pid-file deaf.pids" name=deaf \
    --each tc=60+1 --rounds 1 --games 2 --state kill.state) > "$S/kill.txt" 2>&1 &
RUNNER=$!
# Two starts of the stuck engine, each with its helper: the first to learn its name (then
# quit), the second for the game; a second later it has had its `go`.
for _ in $(seq 300); do
    [ "$(count "$APP/deaf.pids")" -ge 4 ] && break
    kill -0 "$RUNNER" 2>/dev/null || { cat "$S/kill.txt"; fail "kill: the runner ended before the engine was stuck"; }
    sleep 0.1
done
[ "$(count "$APP/deaf.pids")" -ge 4 ] || { cat "$S/kill.txt"; fail "kill: the stuck engine was not started twice within 30 s"; }
sleep 1
[ -n "$(alive "$APP/deaf.pids")" ] || fail "kill: the stuck engine is not running before the kill"
kill -KILL "$RUNNER"
{ wait "$RUNNER"; } 2>/dev/null
RUNNER=""
t0=$(date +%s%N)
left_over=$(alive "$APP/deaf.pids")
while [ -n "$left_over" ] && [ $(( $(date +%s%N) - t0 )) -lt 5000000000 ]; do
    sleep 0.1
    left_over=$(alive "$APP/deaf.pids")
done
[ -z "$left_over" ] || fail "kill: engine process(es) $left_over still running 5 s after the runner was killed"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
say "3. kill OK: none of the engine's $(count "$APP/deaf.pids") processes (2 starts, each with its helper) left ${ms} ms after the kill"

# 4. The engine checker.
say "4. check: saikoro.exe check -- saikoro.exe ($(elapsed))"
wine_run 90 "$APP" "$S/check.txt" saikoro.exe check -- saikoro.exe
[ $STATUS = 0 ] || { cat "$S/check.txt"; fail "check exited with $STATUS"; }
summary=$(grep -E '^[0-9]+ passed, 0 failed' "$S/check.txt") || { cat "$S/check.txt"; fail "check: no clean summary"; }
say "4. check OK in $TOOK s: ${summary/ passed, 0 failed/ checks passed, none failed}"

# 5. The worker's command line.
say "5. worker: shogitest-ob.exe with the worker's Windows command line ($(elapsed))"
engine() { echo "-engine dir=Engines/ cmd=./$1 proto=usi tc=1.00+0.10 timemargin=250 name=$2"; }
# shellcheck disable=SC2046
wine_run 90 "$C" "$S/worker.txt" shogitest-ob.exe -repeat -recover -variant standard -testEnv \
    -concurrency 2 -games 2 $(engine eng.exe E-dev) $(engine eng-base.exe E-base) \
    -openings file=Books/x.sfen.epd format=epd order=random start=1 -srand 4242 -pgnout file=PGNs/x.pgn
[ $STATUS = 0 ] || { tail -n 20 "$S/worker.txt"; fail "shogitest-ob.exe exited with $STATUS"; }
games=$(grep -c '^Finished game [0-9]* (E-' "$S/worker.txt")
[ "$games" -ge 2 ] || { cat "$S/worker.txt"; fail "worker: fewer than 2 games finished"; }
[ -f "$C/PGNs/x.pgn" ] && [ "$(grep -c '^\[Event ' "$C/PGNs/x.pgn")" = "$games" ] \
    || fail "worker: PGNs/x.pgn does not hold the $games games"
say "5. worker OK in $TOOK s: $games games in PGNs/x.pgn; $(played "$S/worker.txt")"

# 6. Ctrl-C, as the console's event.
say "6. ctrl-c: a long match interrupted with CTRL_C_EVENT ($(elapsed))"
[ "$(left)" -ge 40 ] || skip "no time left for the Ctrl-C run"
touch "$S/ctrlc.txt"
(cd "$APP" && exec "$WINE" saikoro.exe match --engine cmd=saikoro.exe name=a --engine cmd=saikoro.exe name=b \
    --each tc=10+0.1 --rounds 1000 --games 2 --concurrency 2 --state ctrlc.state) > "$S/ctrlc.txt" 2>&1 &
RUNNER=$!
for _ in $(seq 300); do
    [ "$(grep -c '^Finished game ' "$S/ctrlc.txt")" -ge 4 ] && break
    kill -0 "$RUNNER" 2>/dev/null || { cat "$S/ctrlc.txt"; fail "ctrl-c: the match ended by itself"; }
    sleep 0.1
done
t0=$(date +%s%N)
kill -INT "$RUNNER"
for _ in $(seq 200); do kill -0 "$RUNNER" 2>/dev/null || break; sleep 0.1; done
kill -0 "$RUNNER" 2>/dev/null && { tail -n 5 "$S/ctrlc.txt"; fail "ctrl-c: the match still runs 20 s after Ctrl-C"; }
wait "$RUNNER"
STATUS=$?
RUNNER=""
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ $STATUS = 130 ] || { tail -n 20 "$S/ctrlc.txt"; fail "ctrl-c: exit status $STATUS, not 130"; }
grep -q '^Match interrupted: resume it with --resume' "$S/ctrlc.txt" || { tail -n 20 "$S/ctrlc.txt"; fail "ctrl-c: no 'Match interrupted' line"; }
say "6. ctrl-c OK: ended ${ms} ms after the event, exit status 130, after $(grep -c '^Finished game ' "$S/ctrlc.txt") games"

say "OK: $(basename "$ZIP"): match, hang, kill, check, worker and Ctrl-C under $WINE ($(elapsed))"
