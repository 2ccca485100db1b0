#!/usr/bin/env bash
# Windows smoke test: cross-build saikoro.exe (x86_64-pc-windows-gnu with Debian's mingw-w64)
# and pipe a CRLF USI session with Shift_JIS bytes through Wine. The Windows build must print
# exactly what the Linux build prints for the same session (same Seed => same moves: the RNG and
# the move order are portable).
#
# Missing tools are installed when possible (rustup target; apt-get as root, unless
# SAIKORO_SMOKE_INSTALL=0); when they cannot be had, the test is skipped with a message and
# exit status 0. Any real failure exits 1.
#
# Time: the whole script keeps within SAIKORO_SMOKE_BUDGET seconds (default 420, below the
# 600 s that .ci/run allows it). Every download, install, build and Wine step runs under
# `timeout` with what is left of the budget; a step that runs out of time is reported and the
# test is SKIPPED (exit 0), so a slow mirror or a cold Wine never fails or stalls CI. A step
# that fails by itself (a compile error, a wrong answer under Wine) still fails the test.
set -uo pipefail
cd "$(dirname "$0")/.."
TARGET=x86_64-pc-windows-gnu
START=$(date +%s)
INSTALL=${SAIKORO_SMOKE_INSTALL:-1}
BUDGET=${SAIKORO_SMOKE_BUDGET:-420}
TARGET_DIR=${CARGO_TARGET_DIR:-target}

skip() { echo "windows smoke: SKIPPED: $* ($(elapsed) of ${BUDGET} s budget)"; exit 0; }
fail() { echo "windows smoke: FAILED: $*"; exit 1; }
elapsed() { echo "$(( $(date +%s) - START )) s"; }
left() { echo $(( BUDGET - ($(date +%s) - START) )); }

# bounded MAX CMD...: runs CMD under timeout for at most MAX seconds, and never past the budget.
# Returns CMD's status, 124 on timeout (also when no budget is left).
bounded() {
    local max=$1 l
    shift
    l=$(left)
    [ "$l" -lt "$max" ] && max=$l
    [ "$max" -gt 0 ] || return 124
    timeout -k 10 "$max" "$@"
}

can_apt() { [ "$INSTALL" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }
# apt_install MAX PKG...: at most MAX seconds (the first call also runs apt-get update, 90 s).
apt_install() {
    local max=$1
    shift
    can_apt || { echo "windows smoke: not installing $* (needs root and apt-get; SAIKORO_SMOKE_INSTALL=${INSTALL})"; return 1; }
    if [ -z "${APT_UPDATED:-}" ]; then
        echo "windows smoke: apt-get update (at most 90 s)"
        DEBIAN_FRONTEND=noninteractive bounded 90 apt-get update -qq >/dev/null 2>&1 \
            || echo "windows smoke: apt-get update failed or timed out; trying the install anyway"
        APT_UPDATED=1
    fi
    echo "windows smoke: apt-get install $* (at most $max s)"
    DEBIAN_FRONTEND=noninteractive bounded "$max" \
        apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1
    local st=$?
    [ $st = 124 ] && echo "windows smoke: apt-get install $* timed out"
    return $st
}

# 1. Rust target.
if ! rustup target list --installed 2>/dev/null | grep -qx "$TARGET"; then
    [ "$INSTALL" = 1 ] || skip "rust target $TARGET not installed (SAIKORO_SMOKE_INSTALL=0)"
    echo "windows smoke: rustup target add $TARGET (at most 180 s)"
    bounded 180 rustup target add "$TARGET" >/dev/null 2>&1 \
        || skip "cannot add rust target $TARGET (failed or timed out)"
fi

# 2. Linker.
if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
    apt_install 180 gcc-mingw-w64-x86-64 \
        || skip "x86_64-w64-mingw32-gcc missing and not installable in time"
fi
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc

# 3. Build both binaries.
echo "windows smoke: cross-building ($(elapsed))"
bounded 300 cargo build --release --quiet --target "$TARGET"
case $? in 0) ;; 124) skip "the cross-build did not finish within the budget" ;; *) fail "cross-build" ;; esac
bounded 300 cargo build --release --quiet
case $? in 0) ;; 124) skip "the native build did not finish within the budget" ;; *) fail "native build" ;; esac
EXE=$TARGET_DIR/$TARGET/release/saikoro.exe
[ -f "$EXE" ] || fail "no $EXE"
echo "windows smoke: built $EXE ($(du -k "$EXE" | cut -f1) KiB, $(elapsed))"

# 4. Wine.
find_wine() {
    for w in wine64 wine /usr/lib/wine/wine64; do
        if command -v "$w" >/dev/null 2>&1; then echo "$w"; return 0; fi
    done
    return 1
}
if ! WINE=$(find_wine); then
    # Wine is large (hundreds of MB): keep at least 90 s for the prefix and the run.
    WINE_INSTALL=$(( $(left) - 90 ))
    [ "$WINE_INSTALL" -gt 240 ] && WINE_INSTALL=240
    [ "$WINE_INSTALL" -gt 0 ] || skip "built $EXE, but Wine is missing and no time is left to install it; not run"
    apt_install "$WINE_INSTALL" wine64 wine || apt_install "$WINE_INSTALL" wine64 || true
    WINE=$(find_wine) || skip "built $EXE, but Wine is missing and was not installed in time; not run"
fi

# 5. The session: CRLF line ends, a Shift_JIS option value, a held search, go mate, quit.
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
    'go ponder btime 0 wtime 0 byoyomi 10000' \
    'ponderhit' \
    'position startpos moves 7g7f 3c3d 8h2b+ 3a2b' \
    'go infinite' \
    'isready' \
    'stop' \
    'go mate 1000' > "$SESSION/in.txt"
printf 'setoption name Comment value \x8f\xab\x8a\xfb\x8f\x8a\r\n' >> "$SESSION/in.txt"
printf '%s\r\n' 'position startpos moves 7g7f 7g7f' 'go' 'gameover lose' 'isready' 'quit' >> "$SESSION/in.txt"

timeout 30 "$TARGET_DIR/release/saikoro" < "$SESSION/in.txt" > "$SESSION/linux.txt" || fail "native run"

export WINEPREFIX="$SESSION/prefix" WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
echo "windows smoke: creating a Wine prefix with $WINE ($(elapsed))"
bounded 120 "$WINE" wineboot --init >/dev/null 2>&1
[ $? = 124 ] && skip "wineboot did not finish in time; saikoro.exe built but not run"
# Rust's std (1.78+) imports ProcessPrng from bcryptprimitives.dll, which every Windows 10+ has
# but Wine before 9.0 (Debian bookworm ships 8.0) does not. Only for this test, put a shim that
# forwards to RtlGenRandom next to a copy of the exe (the application directory is searched
# first). The shipped .exe is unchanged.
RUN_EXE="$SESSION/saikoro.exe"
cp "$EXE" "$RUN_EXE"
if [ ! -e "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" ]; then
    cat > "$SESSION/shim.c" <<'SHIM'
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
SHIM
    x86_64-w64-mingw32-gcc -shared -O2 -o "$SESSION/bcryptprimitives.dll" "$SESSION/shim.c" -ladvapi32 \
        || fail "cannot build the bcryptprimitives.dll shim"
    echo "windows smoke: this Wine has no bcryptprimitives.dll; using a test-only shim"
fi
echo "windows smoke: running under $WINE ($(elapsed))"
# The engine answers in milliseconds; 60 s covers Wine's own start-up on a loaded machine.
# A hang here is a real failure (a Windows build that never reaches EOF or quit).
(cd "$SESSION" && timeout -k 5 60 "$WINE" saikoro.exe) < "$SESSION/in.txt" > "$SESSION/wine-raw.txt" 2> "$SESSION/wine-err.txt"
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
echo "windows smoke: OK: $(grep -c '' "$SESSION/wine.txt") lines identical to the Linux build ($(elapsed))"
