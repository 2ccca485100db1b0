# Sourced by .ci/windows-smoke.sh, .ci/windows-runner.sh and .ci/dist: a time budget, bounded
# steps, the tools of the Windows build (the Rust target, the mingw-w64 linker, Wine), installed
# when possible, and a Wine prefix to run the exe in.
#
# The sourcing script sets NAME (the prefix of messages) and BUDGET (seconds) first.
# SAIKORO_SMOKE_INSTALL=0 never installs anything; otherwise missing tools are installed with
# rustup, and with apt-get when running as root. A function that cannot provide its tool
# returns 1 and leaves the reason in WHY; the caller decides whether that skips or fails.

WIN_TARGET=x86_64-pc-windows-gnu
START=${START:-$(date +%s)}
INSTALL=${SAIKORO_SMOKE_INSTALL:-1}

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
    can_apt || { echo "$NAME: not installing $* (needs root and apt-get; SAIKORO_SMOKE_INSTALL=${INSTALL})"; return 1; }
    if [ -z "${APT_UPDATED:-}" ]; then
        echo "$NAME: apt-get update (at most 90 s)"
        DEBIAN_FRONTEND=noninteractive bounded 90 apt-get update -qq >/dev/null 2>&1 \
            || echo "$NAME: apt-get update failed or timed out; trying the install anyway"
        APT_UPDATED=1
    fi
    echo "$NAME: apt-get install $* (at most $max s)"
    DEBIAN_FRONTEND=noninteractive bounded "$max" \
        apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1
    local st=$?
    [ $st = 124 ] && echo "$NAME: apt-get install $* timed out"
    return $st
}

# The Rust standard library for x86_64-pc-windows-gnu.
win_rust_target() {
    rustup target list --installed 2>/dev/null | grep -qx "$WIN_TARGET" && return 0
    [ "$INSTALL" = 1 ] || { WHY="rust target $WIN_TARGET not installed (SAIKORO_SMOKE_INSTALL=0)"; return 1; }
    echo "$NAME: rustup target add $WIN_TARGET (at most 180 s)"
    bounded 180 rustup target add "$WIN_TARGET" >/dev/null 2>&1 \
        || { WHY="cannot add rust target $WIN_TARGET (failed or timed out)"; return 1; }
}

# Debian's mingw-w64 C compiler: the linker of the cross-build (and of the Wine shim).
win_linker() {
    if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
        apt_install 180 gcc-mingw-w64-x86-64 \
            || { WHY="x86_64-w64-mingw32-gcc missing and not installable in time"; return 1; }
    fi
    export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
}

find_wine() {
    for w in wine64 wine /usr/lib/wine/wine64; do
        if command -v "$w" >/dev/null 2>&1; then echo "$w"; return 0; fi
    done
    return 1
}

# Wine, in WINE. It is large (hundreds of MB): at least 90 s of the budget stay for the run.
win_wine() {
    WINE=$(find_wine) && return 0
    local max=$(( $(left) - 90 ))
    [ "$max" -gt 240 ] && max=240
    [ "$max" -gt 0 ] || { WHY="Wine is missing and no time is left to install it"; return 1; }
    apt_install "$max" wine64 wine || apt_install "$max" wine64 || true
    WINE=$(find_wine) || { WHY="Wine is missing and was not installed in time"; return 1; }
}

# win_prefix DIR: a fresh 64-bit Wine prefix in DIR (exported as WINEPREFIX, with Wine's debug
# output and its Mono and Gecko installers off), within at most 120 s. Returns 124 on timeout.
win_prefix() {
    export WINEPREFIX=$1 WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
    echo "$NAME: creating a Wine prefix with $WINE ($(elapsed))"
    bounded 120 "$WINE" wineboot --init >/dev/null 2>&1
    [ $? = 124 ] && return 124
    return 0
}

# win_shim DIR...: Rust's std (1.78+) imports ProcessPrng from bcryptprimitives.dll, which every
# Windows 10+ has but Wine before 9.0 (Debian bookworm ships 8.0) does not. Only for the tests,
# when the prefix lacks it, puts a shim that forwards to RtlGenRandom in each DIR, beside the
# exes run from there (the application directory is searched first). The shipped .exe (and the
# zip) are unchanged. Needs WINEPREFIX (win_prefix) and the mingw-w64 compiler (win_linker).
win_shim() {
    [ -e "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" ] && return 0
    local src=$WINEPREFIX/../bcryptprimitives-shim.c d
    cat > "$src" <<'SHIM'
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
    for d in "$@"; do
        x86_64-w64-mingw32-gcc -shared -O2 -o "$d/bcryptprimitives.dll" "$src" -ladvapi32 || return 1
    done
    echo "$NAME: this Wine has no bcryptprimitives.dll; using a test-only shim"
}
