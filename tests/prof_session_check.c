/*
 * prof_session_check.c - the profiler alone: a program built from
 * src/services with common and platform only (no core, no engine: it
 * would not link if a services file called up into them) runs profile
 * sessions told in plain data, as the runtime tells them, and reads back
 * the modelled kernel times. Exit 0 when every check holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "services/profile.h"

static int failures;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "prof_session_check:%d: %s failed\n", __LINE__, #cond); \
            failures++;                                                          \
        }                                                                        \
    } while (0)

static const struct prof_soc soc = {"TestSoC", 24, 48, 192u << 20, 1600.0, 25.0};

/* A vector kernel of `blocks` blocks with a declared fixed time, the
 * task_id-th task of stream 3. */
static struct prof_task kernel(const aclcpuKernelCost *cost, uint32_t task_id, uint32_t blocks)
{
    static const char key; /* the kernel object: compared, never followed */
    return (struct prof_task){.kind = PK_KERNEL, .engine = ACL_RT_ENGINE_TYPE_AIV, .limit = {24, 48},
                              .stream_id = 3, .task_id = task_id, .model_id = UINT32_MAX, .blocks = blocks,
                              .object = &key, .name = "addk", .cost = cost};
}

/* Issues pt and runs it on worker 0, as the engine would. */
static uint32_t run(const struct prof_task *pt)
{
    uint32_t end, id = prof_issue(pt, &end);
    CHECK(id != 0 && end == 0);
    prof_task_started(id, 0);
    prof_task_ended(id, end);
    prof_task_released(id, end);
    return id;
}

/* The rows of dir's kernel_details.csv: names and modelled (start, duration). */
static int read_rows(const char *dir, char names[][32], double *start, double *dur, int cap)
{
    char path[512], line[1024];
    int n = -1;
    FILE *f;
    snprintf(path, sizeof(path), "%s/ASCEND_PROFILER_OUTPUT/kernel_details.csv", dir);
    if ((f = fopen(path, "r")) == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL && n < cap) {
        char *field[12], *save = NULL;
        int k = 0;
        if (n++ < 0)
            continue; /* the header */
        for (char *t = strtok_r(line, ",", &save); t != NULL && k < 12; t = strtok_r(NULL, ",", &save))
            field[k++] = t;
        if (k < 10)
            return -1;
        snprintf(names[n - 1], 32, "%s", field[4]);
        start[n - 1] = atof(field[8]);
        dur[n - 1] = atof(field[9]);
    }
    fclose(f);
    return n < 0 ? 0 : n;
}

int main(void)
{
    char dir[] = "/tmp/aclcpu-prof-session-XXXXXX", why[512], names[4][32];
    double start[4], dur[4];
    aclcpuKernelCost cost = {.usFixed = 5.0};
    struct prof_task k1 = kernel(&cost, 1, 4), k2 = kernel(&cost, 2, 4);
    uint32_t end;

    if (mkdtemp(dir) == NULL)
        return 1;
    CHECK(prof_issue(&k1, &end) == 0);                          /* no session: no entry */
    CHECK(prof_end(why, sizeof(why)) == ACL_ERROR_PROF_NOT_RUN);
    CHECK(prof_begin(dir, false, &soc) == ACL_SUCCESS);
    CHECK(prof_on() && prof_running());
    CHECK(prof_begin(dir, false, &soc) == ACL_ERROR_PROF_ALREADY_RUN);
    run(&k1);
    cost.usFixed = 99.0; /* the session copied the cost in force at issue */
    run(&k2);
    CHECK(prof_end(why, sizeof(why)) == ACL_SUCCESS);
    CHECK(!prof_on() && !prof_running());
    CHECK(read_rows(dir, names, start, dur, 4) == 2);
    CHECK(strcmp(names[0], "addk") == 0 && strcmp(names[1], "addk") == 0);
    CHECK(start[0] == 0.0 && dur[0] == 5.0);
    CHECK(start[1] == 5.0 && dur[1] == 99.0);

    /* A second session starts from nothing: ids, names and times. */
    cost.usFixed = 2.0;
    CHECK(prof_begin(dir, false, &soc) == ACL_SUCCESS);
    k1 = kernel(&cost, 7, 4);
    CHECK(run(&k1) == 1);
    CHECK(prof_end(why, sizeof(why)) == ACL_SUCCESS);
    CHECK(read_rows(dir, names, start, dur, 4) == 1);
    CHECK(start[0] == 0.0 && dur[0] == 2.0);
    if (failures == 0)
        printf("prof_session_check: the profiler ran two sessions without the runtime\n");
    return failures == 0 ? 0 : 1;
}
