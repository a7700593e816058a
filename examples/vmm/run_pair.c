/*
 * run_pair.c - the CPU version of the vendor's run.sh for a two-process
 * sample: runs Process A and Process B at once in a fresh working
 * directory (with its file/ folder), waits for both, prints A's output
 * then B's, and checks, as run.sh does, that the value B read is the one A
 * wrote. Exits 1 if either process fails or the values differ.
 *
 *   run_pair <proc_a> <proc_b>
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <limits.h>
#include <unistd.h>

static pid_t start(const char *exe, const char *out)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (freopen(out, "w", stdout) == NULL)
            _exit(127);
        execl(exe, exe, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static int finish(pid_t pid)
{
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Prints the file and returns the number after "tag" in it (or -1). */
static long show(const char *title, const char *path, const char *tag)
{
    char line[1024];
    long value = -1;
    FILE *f = fopen(path, "r");
    printf("---- %s ----\n", title);
    while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
        const char *at = strstr(line, tag);
        fputs(line, stdout);
        if (at != NULL && value < 0)
            value = strtol(at + strlen(tag), NULL, 10);
    }
    if (f != NULL)
        fclose(f);
    return value;
}

int main(int argc, char **argv)
{
    char dir[PATH_MAX], a[PATH_MAX], b[PATH_MAX];
    const char *tmp = getenv("TMPDIR");
    pid_t pa, pb;
    int rc_a, rc_b, failed;
    long source, destination;

    if (argc != 3 || realpath(argv[1], a) == NULL || realpath(argv[2], b) == NULL) {
        fprintf(stderr, "usage: run_pair <proc_a> <proc_b>\n");
        return 2;
    }
    snprintf(dir, sizeof(dir), "%s/aclcpu-pair-XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL)
        return 2;
    if (chdir(dir) != 0 || mkdir("file", 0700) != 0) {
        (void)rmdir(dir);
        return 2;
    }
    pa = start(a, "a.txt");
    pb = start(b, "b.txt");
    rc_a = finish(pa);
    rc_b = finish(pb);
    source = show("Process A", "a.txt", "Source data: ");
    destination = show("Process B", "b.txt", "Destination data: ");
    failed = rc_a != 0 || rc_b != 0 || source < 0 || source != destination;
    if (rc_a != 0 || rc_b != 0)
        printf("[FAILURE] Memory sharing failed. proc_a exit code is %d, proc_b exit code is %d\n", rc_a, rc_b);
    else if (failed)
        printf("[FAILURE] Memory sharing failed. Value at source is %ld, but value at destination is %ld\n", source,
               destination);
    else
        printf("[SUCCESS] Memory sharing successfully. Values at source and destination are equal: %ld\n", source);
    /* Leave nothing behind. */
    const char *files[] = {"file/pid.bin", "file/pid.bin.done", "file/handle.bin", "file/handle.bin.done",
                           "file/flag.bin", "file/flag.bin.done", "a.txt", "b.txt"};
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
        (void)unlink(files[i]);
    (void)rmdir("file");
    if (chdir("/") == 0)
        (void)rmdir(dir);
    return failed;
}
