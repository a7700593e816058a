/*
 * ipc_pair - runs a two-process sample as the vendor's run.sh does: both
 * processes at once in one fresh working directory (with file/ for their
 * hand-over), each one's output kept apart. It prints Process A's output,
 * then Process B's, with what changes from run to run (addresses, keys,
 * pids) written "..." as the samples' READMEs write it, and each process's
 * kernel prints ("Source data", "Destination data") after its log lines (a
 * kernel prints when it runs, so its place among them varies), then
 * run.sh's verdict line. Exits 1 if either process failed or the verdict is a
 * failure.
 *
 * Usage: ipc_pair <sample> memory|notify|event
 *   memory: A's "Source data" must equal B's "Destination data";
 *   notify: B's "Source data" must equal A's "Destination data";
 *   event:  A must have reached "cleanup completed".
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define OUT_CAP (64 * 1024)

struct proc {
    const char *role;
    pid_t pid;
    int fd;           /* its stdout, until EOF */
    char out[OUT_CAP];
    size_t len;
    int status;
};

static void start(struct proc *p, const char *exe, const char *dir)
{
    int fds[2];
    if (pipe(fds) != 0 || (p->pid = fork()) < 0) {
        perror("ipc_pair");
        exit(1);
    }
    if (p->pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        if (chdir(dir) != 0)
            _exit(127);
        execl(exe, exe, p->role, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    p->fd = fds[0];
}

/* Reads both outputs as they come (neither process may block on a full pipe). */
static void collect(struct proc *ps, int n)
{
    int open_fds = n;
    while (open_fds > 0) {
        struct pollfd pfd[2];
        for (int i = 0; i < n; i++)
            pfd[i] = (struct pollfd){ps[i].fd, POLLIN, 0};
        if (poll(pfd, (nfds_t)n, 60000) <= 0)
            break; /* a minute of silence: give up, the exit codes tell */
        for (int i = 0; i < n; i++) {
            char buf[4096];
            ssize_t got;
            if (ps[i].fd < 0 || !(pfd[i].revents & (POLLIN | POLLHUP)))
                continue;
            got = read(ps[i].fd, buf, sizeof(buf));
            if (got <= 0) {
                close(ps[i].fd);
                ps[i].fd = -1;
                open_fds--;
                continue;
            }
            if (ps[i].len + (size_t)got < OUT_CAP) {
                memcpy(ps[i].out + ps[i].len, buf, (size_t)got);
                ps[i].len += (size_t)got;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        ps[i].out[ps[i].len] = '\0';
        if (waitpid(ps[i].pid, &ps[i].status, 0) != ps[i].pid)
            ps[i].status = -1;
    }
}

static int is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Prints text with addresses, keys and pids written "...". */
static void print_masked_line(const char *s)
{
    while (*s != '\0') {
        if (s[0] == '0' && s[1] == 'x' && is_hex(s[2])) {
            fputs("0x...", stdout);
            for (s += 2; is_hex(*s); s++)
                ;
        } else if (strncmp(s, "acl-", 4) == 0 && is_digit(s[4])) {
            fputs("...", stdout);
            for (s += 4; is_hex(*s) || *s == '-'; s++)
                ;
        } else if (strncmp(s, "pid = ", 6) == 0 && is_digit(s[6])) {
            fputs("pid = ...", stdout);
            for (s += 6; is_digit(*s); s++)
                ;
        } else {
            fputc(*s++, stdout);
        }
    }
}

/* The value after the first "<label>: " in text, or NULL. */
static const char *value_after(const char *text, const char *label, char *buf, size_t cap)
{
    const char *at = strstr(text, label);
    size_t n = 0;
    if (at == NULL)
        return NULL;
    for (at += strlen(label); *at == ' '; at++)
        ;
    while (at[n] != '\0' && at[n] != '\n' && n + 1 < cap)
        n++;
    memcpy(buf, at, n);
    buf[n] = '\0';
    return buf;
}

/* A line a kernel printed (the device's printf): its place among the
 * host's log lines is not fixed, so these go after them. */
static int kernel_line(const char *line)
{
    return strncmp(line, "Source data:", 12) == 0 || strncmp(line, "Destination data:", 17) == 0;
}

/* Prints one process's output: its host lines, then its kernels' lines. */
static void print_process(char *out)
{
    for (int pass = 0; pass < 2; pass++) {
        char *line = out;
        while (*line != '\0') {
            char *end = strchr(line, '\n'), keep = 0;
            if (end != NULL) {
                keep = end[1];
                end[1] = '\0';
            }
            if (kernel_line(line) == pass)
                print_masked_line(line);
            if (end == NULL)
                break;
            end[1] = keep;
            line = end + 1;
        }
    }
}

static void remove_tree(const char *dir)
{
    char path[4096];
    struct dirent *d;
    DIR *dd = opendir(dir);
    while (dd != NULL && (d = readdir(dd)) != NULL) {
        struct stat st;
        if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(path);
        else
            unlink(path);
    }
    if (dd != NULL)
        closedir(dd);
    rmdir(dir);
}

static int verdict(const char *kind, struct proc *a, struct proc *b)
{
    char src[64], dst[64];
    const char *s, *d;
    if (strcmp(kind, "event") == 0) {
        int ok = strstr(a->out, "cleanup completed") != NULL;
        puts(ok ? "[SUCCESS] IPC event synchronization works correctly."
                : "[FAILURE] IPC event synchronization test failed.");
        return ok;
    }
    s = value_after(strcmp(kind, "memory") == 0 ? a->out : b->out, "Source data:", src, sizeof(src));
    d = value_after(strcmp(kind, "memory") == 0 ? b->out : a->out, "Destination data:", dst, sizeof(dst));
    if (s != NULL && d != NULL && strcmp(s, d) == 0) {
        if (strcmp(kind, "memory") == 0)
            printf("[SUCCESS] IPC memory sharing successfully. Values at source and destination are equal: %s\n", s);
        else
            printf("[SUCCESS] IPC notify for task synchronization is successful. Values at source and destination "
                   "are equal: %s\n", s);
        return 1;
    }
    printf("[FAILURE] Value at source is %s, but value at destination is %s\n", s ? s : "(none)", d ? d : "(none)");
    return 0;
}

int main(int argc, char **argv)
{
    char dir[PATH_MAX], files[PATH_MAX + 8], exe[4096];
    const char *tmp = getenv("TMPDIR");
    struct proc ps[2] = {{.role = "proc_a"}, {.role = "proc_b"}};
    int ok;
    if (argc != 3) {
        fprintf(stderr, "usage: %s <sample> memory|notify|event\n", argv[0]);
        return 2;
    }
    if (realpath(argv[1], exe) == NULL) { /* the processes run elsewhere */
        perror("ipc_pair: realpath");
        return 1;
    }
    snprintf(dir, sizeof(dir), "%s/aclcpu-ipc-pair-XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
        perror("ipc_pair: mkdtemp");
        return 1;
    }
    snprintf(files, sizeof(files), "%s/file", dir);
    mkdir(files, 0700);
    fflush(stdout);
    start(&ps[0], exe, dir);
    start(&ps[1], exe, dir);
    collect(ps, 2);
    remove_tree(dir);
    print_process(ps[0].out);
    print_process(ps[1].out);
    ok = verdict(argv[2], &ps[0], &ps[1]);
    for (int i = 0; i < 2; i++) {
        if (!WIFEXITED(ps[i].status) || WEXITSTATUS(ps[i].status) != 0) {
            printf("[FAILURE] %s exit status is %d\n", ps[i].role, ps[i].status);
            ok = 0;
        }
    }
    return ok ? 0 : 1;
}
