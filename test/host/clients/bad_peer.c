/*
 * bad_peer DIR: a hostile local peer (no PMIx library). Finds the server's
 * Unix socket under DIR (the host's --tmpdir), then on fresh connections
 * sends garbage, an oversize frame header, half a frame, half a header and
 * a burst of empty connections. The server must close a connection whose
 * header is invalid and keep accepting new ones. Exit 0 when it did.
 *
 * bad_peer DIR flood N ROUNDS: a connection flood instead. Each round opens
 * N connections at once (each connect bounded by 2 s: beyond the server's
 * unauthenticated limit they wait in the backlog), a third of them sending
 * nothing, a third half a hello header, a third garbage; holds them 1 s and
 * closes them all. Exit 0 when every connect succeeded and the server
 * still accepts afterwards.
 *
 * pmixx frame header (16 bytes, little endian): magic 'P' 'X', version u8
 * (1), flags u8, type u16, reserved u16 (0), tag u32, length u32 (default
 * maximum 64 MiB), then the payload.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static char socket_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
static int failures;

static int FindSocket(const char *dir, int depth) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0) continue;
        if (S_ISSOCK(st.st_mode) && strlen(path) < sizeof socket_path) {
            memcpy(socket_path, path, strlen(path) + 1); /* length checked above */
            found = 1;
        } else if (S_ISDIR(st.st_mode) && depth < 3) {
            found = FindSocket(path, depth + 1);
        }
    }
    closedir(d);
    return found;
}

static int Connect(void) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    struct timeval bound = {2, 0};
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &bound, sizeof bound);
    struct sockaddr_un addr;
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", socket_path);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static void Header(unsigned char h[16], uint32_t length, int good_magic) {
    memset(h, 0, 16);
    h[0] = good_magic ? 'P' : 'Z';
    h[1] = 'X';
    h[2] = 1;                                   /* version */
    h[4] = 1;                                   /* type (LE u16) */
    h[8] = 7;                                   /* tag */
    for (int i = 0; i < 4; ++i) h[12 + i] = (unsigned char)(length >> (8 * i));
}

/* Does the server close the connection within ms? (reads and drops data) */
static int ClosedWithin(int fd, int ms) {
    struct pollfd p = {fd, POLLIN, 0};
    char buf[4096];
    for (int waited = 0; waited < ms; waited += 50) {
        if (poll(&p, 1, 50) > 0) {
            ssize_t n = read(fd, buf, sizeof buf);
            if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) return 1;
        }
    }
    return 0;
}

static void Expect(int ok, const char *what) {
    printf("bad_peer: %-52s %s\n", what, ok ? "ok" : "FAILED");
    if (!ok) ++failures;
}

typedef struct {
    const char *name;
    int must_close; /* the server has to drop this connection */
    void (*send)(int fd);
} Attack;

static void SendGarbage(int fd) {
    unsigned char junk[256];
    for (size_t i = 0; i < sizeof junk; ++i) junk[i] = (unsigned char)(i * 131u + 17u);
    ssize_t ignored = write(fd, junk, sizeof junk);
    (void)ignored;
}

static void SendOversize(int fd) {
    unsigned char h[16];
    Header(h, 0xFFFFFFF0u, 1);
    ssize_t ignored = write(fd, h, sizeof h);
    (void)ignored;
}

static void SendBadMagic(int fd) {
    unsigned char h[16];
    Header(h, 8, 0);
    ssize_t ignored = write(fd, h, sizeof h);
    ignored = write(fd, "12345678", 8);
    (void)ignored;
}

static void SendHalfFrame(int fd) {
    unsigned char h[16];
    Header(h, 1000, 1);
    ssize_t ignored = write(fd, h, sizeof h);
    ignored = write(fd, "0123456789", 10);
    (void)ignored;
}

static void SendHalfHeader(int fd) {
    unsigned char h[16];
    Header(h, 8, 1);
    ssize_t ignored = write(fd, h, 7);
    (void)ignored;
}

static int Flood(int n, int rounds) {
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < (rlim_t)n + 64) {
        lim.rlim_cur = lim.rlim_max < (rlim_t)n + 64 ? lim.rlim_max : (rlim_t)n + 64;
        setrlimit(RLIMIT_NOFILE, &lim);
    }
    int *fds = calloc((size_t)n, sizeof *fds);
    if (!fds) return 1;
    const struct timespec hold = {1, 0};
    for (int r = 0; r < rounds; ++r) {
        int opened = 0;
        for (int i = 0; i < n; ++i) {
            fds[i] = Connect();
            if (fds[i] < 0) continue;
            ++opened;
            if (i % 3 == 1) SendHalfHeader(fds[i]);
            if (i % 3 == 2) SendGarbage(fds[i]);
        }
        nanosleep(&hold, NULL);
        for (int i = 0; i < n; ++i)
            if (fds[i] >= 0) close(fds[i]);
        char what[64];
        snprintf(what, sizeof what, "flood round %d: %d of %d connections", r + 1, opened, n);
        Expect(opened == n, what);
    }
    free(fds);
    int fd = Connect();
    Expect(fd >= 0, "server still accepts connections");
    if (fd >= 0) close(fd);
    return failures ? 1 : 0;
}

int main(int argc, char **argv) {
    /* The server closes a connection that sent garbage: a later write must
     * fail with EPIPE, not kill this probe. */
    signal(SIGPIPE, SIG_IGN);
    int flood = argc == 5 && strcmp(argv[2], "flood") == 0;
    if (argc != 2 && !flood) {
        fprintf(stderr, "usage: bad_peer DIR [flood N ROUNDS]\n");
        return 64;
    }
    const struct timespec tick = {0, 50000000L};
    for (int i = 0; i < 200 && !FindSocket(argv[1], 0); ++i) nanosleep(&tick, NULL);
    if (!socket_path[0]) {
        fprintf(stderr, "bad_peer: no Unix socket under %s after 10 s\n", argv[1]);
        return 1;
    }
    printf("bad_peer: server socket %s\n", socket_path);
    if (flood) return Flood(atoi(argv[3]) > 0 ? atoi(argv[3]) : 1, atoi(argv[4]) > 0 ? atoi(argv[4]) : 1);
    const Attack attacks[] = {
        {"garbage bytes", 1, SendGarbage},
        {"oversize length (0xFFFFFFF0)", 1, SendOversize},
        {"bad magic", 1, SendBadMagic},
        {"half a frame, then close", 0, SendHalfFrame},
        {"half a header, then close", 0, SendHalfHeader},
    };
    for (size_t i = 0; i < sizeof attacks / sizeof attacks[0]; ++i) {
        int fd = Connect();
        Expect(fd >= 0, "connect");
        if (fd < 0) continue;
        attacks[i].send(fd);
        if (attacks[i].must_close) Expect(ClosedWithin(fd, 5000), attacks[i].name);
        else Expect(1, attacks[i].name);
        close(fd);
    }
    int burst_ok = 1;
    for (int i = 0; i < 100; ++i) {
        int fd = Connect();
        burst_ok &= fd >= 0;
        if (fd >= 0) close(fd);
    }
    Expect(burst_ok, "100 empty connections");
    int fd = Connect();
    Expect(fd >= 0, "server still accepts connections");
    if (fd >= 0) close(fd);
    return failures ? 1 : 0;
}
