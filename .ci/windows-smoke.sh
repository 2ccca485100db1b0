#!/usr/bin/env bash
# Windows smoke test: pipe a CRLF USI session with Shift_JIS bytes through saikoro.exe under
# Wine. The Windows build must print exactly what the Linux build prints for the same session
# (same Seed => same moves: the RNG and the move order are portable).
#
#   .ci/windows-smoke.sh                     cross-build saikoro.exe (x86_64-pc-windows-gnu with
#                                            Debian's mingw-w64) and run target/.../saikoro.exe
#   .ci/windows-smoke.sh --zip ZIP [--native BIN]
#                                            run the saikoro.exe inside a release zip (.ci/dist),
#                                            as a user gets it, against BIN (default: the native
#                                            release build)
#
# The exe runs from a working directory other than its own folder: it needs none.
#
# Missing tools are installed when possible (.ci/windows-tools.sh: rustup target; apt-get as
# root, unless SAIKORO_SMOKE_INSTALL=0); when they cannot be had, the test is skipped with a
# message and exit status 0. Any real failure exits 1.
#
# Time: the whole script keeps within SAIKORO_SMOKE_BUDGET seconds (default 420, below the
# 600 s that .ci/run allows it). Every download, install, build and Wine step runs under
# `timeout` with what is left of the budget; a step that runs out of time is reported and the
# test is SKIPPED (exit 0), so a slow mirror or a cold Wine never fails or stalls CI. A step
# that fails by itself (a compile error, a wrong answer under Wine) still fails the test.
set -uo pipefail
cd "$(dirname "$0")/.."
NAME="windows smoke"
BUDGET=${SAIKORO_SMOKE_BUDGET:-420}
TARGET_DIR=${CARGO_TARGET_DIR:-target}
# shellcheck source=windows-tools.sh
. .ci/windows-tools.sh

skip() { echo "windows smoke: SKIPPED: $* ($(elapsed) of ${BUDGET} s budget)"; exit 0; }
fail() { echo "windows smoke: FAILED: $*"; exit 1; }

ZIP="" NATIVE=""
while [ $# -gt 0 ]; do
    case $1 in
        --zip) ZIP=$2; shift 2 ;;
        --native) NATIVE=$2; shift 2 ;;
        *) fail "unknown argument $1 (usage: $0 [--zip ZIP [--native BIN]])" ;;
    esac
done
[ -z "$ZIP" ] || [ -f "$ZIP" ] || fail "no zip $ZIP"
[ -z "$NATIVE" ] || [ -x "$NATIVE" ] || fail "no executable $NATIVE"

SESSION=$(mktemp -d)
cleanup() {
    # A wineserver may outlive a killed wineboot and keep writing into the prefix.
    if [ -n "${WINEPREFIX:-}" ]; then
        for ws in wineserver /usr/lib/wine/wineserver64 /usr/lib/wine/wineserver; do
            if command -v "$ws" >/dev/null 2>&1; then timeout 10 "$ws" -k >/dev/null 2>&1; break; fi
        done
    fi
    rm -rf "$SESSION" 2>/dev/null || { sleep 1; rm -rf "$SESSION"; }
}
trap cleanup EXIT

# 1. The linker (also builds the Wine shim below), and the Rust target when building.
win_linker || skip "$WHY"
[ -n "$ZIP" ] || win_rust_target || skip "$WHY"

# 2. The exe: built here, or unpacked from the zip. Either way it runs from a folder of its own
# in the session (where the test-only shim may be put beside it), never from target/.
mkdir -p "$SESSION/app" "$SESSION/cwd"
if [ -z "$ZIP" ]; then
    echo "windows smoke: cross-building ($(elapsed))"
    bounded 300 cargo build --release --quiet --target "$WIN_TARGET"
    case $? in 0) ;; 124) skip "the cross-build did not finish within the budget" ;; *) fail "cross-build" ;; esac
    BUILT=$TARGET_DIR/$WIN_TARGET/release/saikoro.exe
    [ -f "$BUILT" ] || fail "no $BUILT"
    echo "windows smoke: built $BUILT ($(du -k "$BUILT" | cut -f1) KiB, $(elapsed))"
    cp "$BUILT" "$SESSION/app/saikoro.exe"
    EXE=$SESSION/app/saikoro.exe
else
    unzip -q "$ZIP" -d "$SESSION/app" || fail "cannot unzip $ZIP"
    EXE=$(find "$SESSION/app" -name saikoro.exe)
    [ -n "$EXE" ] && [ "$(echo "$EXE" | wc -l)" = 1 ] || fail "$ZIP does not hold exactly one saikoro.exe"
    echo "windows smoke: $(basename "$ZIP"): ${EXE#"$SESSION"/app/} ($(du -k "$EXE" | cut -f1) KiB)"
fi
if [ -z "$NATIVE" ]; then
    bounded 300 cargo build --release --quiet
    case $? in 0) ;; 124) skip "the native build did not finish within the budget" ;; *) fail "native build" ;; esac
    NATIVE=$TARGET_DIR/release/saikoro
fi

# 3. Wine.
win_wine || skip "saikoro.exe ready, but $WHY; not run"

# 4. The session: CRLF line ends, a Shift_JIS option value, a held search, go mate, YaneuraOu's
# side, quit.
printf '%s\r\n' \
    'usi' \
    'setoption name USI_Hash value 256' \
    'setoption name USI_Ponder value false' \
    'setoption name Seed value 42' \
    'isready' \
    'usinewgame' \
    'position startpos' \
    'go btime 0 wtime 0 byoyomi 10000' \
    'position startpos moves 7g7f 3c3d' \
    'side' \
    'go ponder btime 0 wtime 0 byoyomi 10000' \
    'ponderhit' \
    'position startpos moves 7g7f 3c3d 8h2b+ 3a2b' \
    'go infinite' \
    'isready' \
    'stop' \
    'go mate 1000' > "$SESSION/in.txt"
printf 'setoption name Comment value \x8f\xab\x8a\xfb\x8f\x8a\r\n' >> "$SESSION/in.txt"
printf '%s\r\n' 'position startpos moves 7g7f 7g7f' 'go' 'gameover lose' 'isready' 'quit' >> "$SESSION/in.txt"

timeout 30 "$NATIVE" < "$SESSION/in.txt" > "$SESSION/linux.txt" || fail "native run ($NATIVE)"

win_prefix "$SESSION/prefix" || skip "wineboot did not finish in time; saikoro.exe ready but not run"
win_shim "$(dirname "$EXE")" || fail "cannot build the bcryptprimitives.dll shim"
echo "windows smoke: running under $WINE ($(elapsed))"
# The engine answers in milliseconds; 60 s covers Wine's own start-up on a loaded machine.
# A hang here is a real failure (a Windows build that never reaches EOF or quit).
(cd "$SESSION/cwd" && timeout -k 5 60 "$WINE" "$EXE") < "$SESSION/in.txt" > "$SESSION/wine-raw.txt" 2> "$SESSION/wine-err.txt"
STATUS=$?
[ $STATUS = 124 ] && { cat "$SESSION/wine-err.txt"; fail "saikoro.exe under Wine did not finish within 60 s"; }
[ $STATUS = 0 ] || { cat "$SESSION/wine-err.txt"; fail "wine run exited with $STATUS"; }
tr -d '\r' < "$SESSION/wine-raw.txt" > "$SESSION/wine.txt"

if ! diff -u "$SESSION/linux.txt" "$SESSION/wine.txt"; then
    fail "Windows output differs from Linux output"
fi
grep -q '^usiok$' "$SESSION/wine.txt" || fail "no usiok"
[ "$(grep -c '^bestmove ' "$SESSION/wine.txt")" = 4 ] || fail "expected 4 bestmoves"
[ "$(tail -n 1 "$SESSION/wine.txt")" = readyok ] || fail "last line is not readyok"
sed 's/^/    /' "$SESSION/wine.txt"
echo "windows smoke: OK: ${ZIP:-the cross-built exe}: $(grep -c '' "$SESSION/wine.txt") lines identical to $NATIVE ($(elapsed))"
