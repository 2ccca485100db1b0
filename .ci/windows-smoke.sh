#!/usr/bin/env bash
# Windows smoke test: cross-build saikoro.exe (x86_64-pc-windows-gnu with Debian's mingw-w64)
# and pipe a CRLF USI session with Shift_JIS bytes through Wine. The Windows build must print
# exactly what the Linux build prints for the same session (same Seed => same moves: the RNG and
# the move order are portable).
#
# Missing tools are installed when possible (rustup target; apt-get as root, unless
# SAIKORO_SMOKE_INSTALL=0); when they cannot be had, the test is skipped with a message and
# exit status 0. Any real failure exits 1.
set -uo pipefail
cd "$(dirname "$0")/.."
TARGET=x86_64-pc-windows-gnu
START=$(date +%s)
INSTALL=${SAIKORO_SMOKE_INSTALL:-1}

skip() { echo "windows smoke: SKIPPED: $*"; exit 0; }
fail() { echo "windows smoke: FAILED: $*"; exit 1; }
elapsed() { echo "$(( $(date +%s) - START )) s"; }

can_apt() { [ "$INSTALL" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }
apt_install() {
    can_apt || return 1
    echo "windows smoke: apt-get install $*"
    if [ -z "${APT_UPDATED:-}" ]; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 || true
        APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1
}

# 1. Rust target.
if ! rustup target list --installed 2>/dev/null | grep -qx "$TARGET"; then
    [ "$INSTALL" = 1 ] || skip "rust target $TARGET not installed"
    rustup target add "$TARGET" >/dev/null 2>&1 || skip "cannot add rust target $TARGET"
fi

# 2. Linker.
if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
    apt_install gcc-mingw-w64-x86-64 || skip "x86_64-w64-mingw32-gcc missing and not installable"
fi
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc

# 3. Build both binaries.
echo "windows smoke: cross-building ($(elapsed))"
cargo build --release --quiet --target "$TARGET" || fail "cross-build"
cargo build --release --quiet || fail "native build"
EXE=target/$TARGET/release/saikoro.exe
[ -f "$EXE" ] || fail "no $EXE"
echo "windows smoke: built $EXE ($(du -k "$EXE" | cut -f1) KiB, $(elapsed))"

# 4. Wine.
find_wine() {
    for w in wine64 wine /usr/lib/wine/wine64; do
        if command -v "$w" >/dev/null 2>&1; then echo "$w"; return 0; fi
    done
    return 1
}
WINE=$(find_wine) || { apt_install wine64 wine >/dev/null 2>&1 || apt_install wine64; WINE=$(find_wine); } \
    || skip "built $EXE, but Wine is missing and not installable; not run"

# 5. The session: CRLF line ends, a Shift_JIS option value, a held search, go mate, quit.
SESSION=$(mktemp -d)
trap 'rm -rf "$SESSION"' EXIT
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

./target/release/saikoro < "$SESSION/in.txt" > "$SESSION/linux.txt" || fail "native run"

export WINEPREFIX="$SESSION/prefix" WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
echo "windows smoke: creating a Wine prefix with $WINE ($(elapsed))"
timeout 300 "$WINE" wineboot --init >/dev/null 2>&1 || true
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
(cd "$SESSION" && timeout 300 "$WINE" saikoro.exe) < "$SESSION/in.txt" > "$SESSION/wine-raw.txt" 2> "$SESSION/wine-err.txt"
STATUS=$?
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
