/* A broken USI engine for Windows, for .ci/windows-runner.sh (test-only, never shipped).
 *
 *   wine-engine.exe hang [--pid-file F]          answers usi and isready, never a go (nor its
 *                                                 stop), keeps reading; exits on quit or at the
 *                                                 end of its input
 *   wine-engine.exe deaf [--pid-file F] [--child] the same until the first go, then stops
 *                                                 reading and sleeps for ever (an engine stuck in
 *                                                 a search that never looks at its input: the
 *                                                 end of its input does not end it); --child
 *                                                 first starts a copy of itself that only sleeps,
 *                                                 as an engine's helper process
 *   wine-engine.exe sleep                         sleeps for ever
 *   wine-engine.exe alive PID...                  prints each PID whose process still runs;
 *                                                 exit status 1 when one does, 0 otherwise
 *
 * --pid-file appends the engine's process id (and its child's) to F, one a line.
 * C, built with the mingw-w64 compiler the Windows build links with: it starts in milliseconds
 * under Wine and needs no Rust target of its own (examples/fault_engine.rs is the same engine
 * for Linux, with every other fault). */
#include <windows.h>
#include <stdio.h>
#include <string.h>

static void note_pid(const char *file, DWORD pid) {
    FILE *f;
    if (!file) return;
    f = fopen(file, "a");
    if (!f) return;
    fprintf(f, "%lu\n", (unsigned long)pid);
    fclose(f);
}

static DWORD start_sleeper(void) {
    char exe[MAX_PATH], cmd[MAX_PATH + 16];
    STARTUPINFOA si;
    PROCESS_INFORMATION pi;
    if (!GetModuleFileNameA(NULL, exe, sizeof exe)) return 0;
    snprintf(cmd, sizeof cmd, "\"%s\" sleep", exe);
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    if (!CreateProcessA(exe, cmd, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi)) return 0;
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    return pi.dwProcessId;
}

static int alive(int n, char **pids) {
    int i, any = 0;
    for (i = 0; i < n; i++) {
        DWORD pid = strtoul(pids[i], NULL, 10), code = 0;
        HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
        if (!h) continue;
        if (GetExitCodeProcess(h, &code) && code == STILL_ACTIVE) {
            printf("%lu\n", (unsigned long)pid);
            any = 1;
        }
        CloseHandle(h);
    }
    return any;
}

static int is(const char *line, const char *word) {
    size_t n = strlen(word);
    return strncmp(line, word, n) == 0 && (line[n] == '\0' || line[n] == ' ' || line[n] == '\r' || line[n] == '\n');
}

int main(int argc, char **argv) {
    static char line[1 << 16];
    const char *pid_file = NULL;
    int deaf, child = 0, i;
    if (argc >= 2 && strcmp(argv[1], "alive") == 0) return alive(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "sleep") == 0) {
        Sleep(INFINITE);
        return 0;
    }
    if (argc < 2 || (strcmp(argv[1], "hang") != 0 && strcmp(argv[1], "deaf") != 0)) {
        fprintf(stderr, "usage: wine-engine.exe hang|deaf [--pid-file F] [--child] | sleep | alive PID...\n");
        return 2;
    }
    deaf = strcmp(argv[1], "deaf") == 0;
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--pid-file") == 0 && i + 1 < argc) pid_file = argv[++i];
        else if (strcmp(argv[i], "--child") == 0) child = 1;
    }
    note_pid(pid_file, GetCurrentProcessId());
    if (child) note_pid(pid_file, start_sleeper());
    setvbuf(stdout, NULL, _IONBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        if (is(line, "usi")) printf("id name Wine %s\r\nid author Saikoro CI\r\nusiok\r\n", argv[1]);
        else if (is(line, "isready")) printf("readyok\r\n");
        else if (is(line, "quit")) return 0;
        else if (is(line, "go") && deaf) Sleep(INFINITE);
    }
    return 0;
}
