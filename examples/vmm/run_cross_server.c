/*
 * run_cross_server.c - the vendor's run_server.sh and run_client.sh of the
 * 12_cross_server sample, on one host: starts `cross_server server PORT`,
 * waits until it listens, starts `cross_server client 127.0.0.1 PORT`,
 * waits for both and prints each side's output between the scripts' own
 * lines, with their verdicts. The port is free-ish: 20000 plus this
 * process's id modulo 20000, so that parallel test runs do not meet.
 *
 *   run_cross_server <cross_server>
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t start(char *const argv[], const char *out)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (freopen(out, "w", stdout) == NULL)
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *text = calloc(1, 1 << 20);
    if (f != NULL && text != NULL) {
        size_t n = fread(text, 1, (1 << 20) - 1, f);
        text[n] = '\0';
    }
    if (f != NULL)
        fclose(f);
    return text;
}

/* Waits (at most 20 s, polling every 10 ms) until path holds text. */
static int wait_for(const char *path, const char *text)
{
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 2000; i++) {
        char *got = slurp(path);
        int found = got != NULL && strstr(got, text) != NULL;
        free(got);
        if (found)
            return 1;
        nanosleep(&tick, NULL);
    }
    return 0;
}

static int exit_code(pid_t pid)
{
    int status = 0;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
    char dir[4096], server_out[4200], client_out[4200], port[16];
    const char *tmp = getenv("TMPDIR");
    char *server_text, *client_text;
    pid_t server, client;
    int server_rc, client_rc;
    snprintf(dir, sizeof(dir), "%s/aclcpu-cross-server-XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    if (argc != 2 || mkdtemp(dir) == NULL)
        return 2;
    snprintf(port, sizeof(port), "%d", 20000 + (int)(getpid() % 20000));
    snprintf(server_out, sizeof(server_out), "%s/output_msg_server.txt", dir);
    snprintf(client_out, sizeof(client_out), "%s/output_msg_client.txt", dir);
    char *server_argv[] = {argv[1], "server", port, NULL};
    char *client_argv[] = {argv[1], "client", "127.0.0.1", port, NULL};
    server = start(server_argv, server_out);
    if (!wait_for(server_out, "listening on port")) {
        fprintf(stderr, "run_cross_server: the server did not listen within 20 s\n");
        kill(server, SIGKILL);
        (void)exit_code(server);
        server_text = slurp(server_out);
        fprintf(stderr, "%s", server_text != NULL ? server_text : "");
        free(server_text);
        unlink(server_out);
        rmdir(dir);
        return 1;
    }
    client = start(client_argv, client_out);
    client_rc = exit_code(client);
    server_rc = exit_code(server);
    server_text = slurp(server_out);
    client_text = slurp(client_out);
    printf("[INFO]: Running server on port %s...\n%s", port, server_text != NULL ? server_text : "");
    printf(server_rc == 0 ? "[SUCCESS] Server completed successfully.\n" : "[FAILURE] Server failed to complete\n");
    printf("[INFO]: Running client connecting to 127.0.0.1:%s...\n%s", port, client_text != NULL ? client_text : "");
    if (client_rc == 0 && client_text != NULL && strstr(client_text, "released memory successfully") != NULL)
        printf("[SUCCESS] Client completed successfully\n");
    else
        printf("[FAILURE] Client failed to complete\n");
    free(server_text);
    free(client_text);
    unlink(server_out);
    unlink(client_out);
    rmdir(dir);
    return server_rc == 0 && client_rc == 0 ? 0 : 1;
}
