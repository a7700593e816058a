/*
 * test_prof_api.c - the profiling API (acl/acl_prof.h): every validation
 * rule and return code of aclprofInit/Finalize/CreateConfig/DestroyConfig/
 * Start/Stop/SetConfig, the msproftx markers, the step markers, model
 * subscription and its op-record getters; plus aclrtCmoAsync and
 * aclcpuSetKernelCost.
 *
 * Rules: the msprof collector of the CANN runtime source (src/dfx/msprof:
 * aclprofStart initialises by itself, aclprofStop and aclprofFinalize
 * succeed when nothing is initialised; docs/conformance.md "Audit:
 * profiling"), spec/prof-api.md §3 (CMO), and the header comments of
 * acl_prof.h, acl_rt.h (aclrtCmoAsync) and aclcpu.h (aclcpuSetKernelCost). Every test runs in
 * its own process, so the profiler's global state starts fresh in each.
 * Profiles go to fresh folders under $TMPDIR, the case's private folder
 * that the runner removes when the case ends (runner.c).
 */
#include <fcntl.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <acl/acl_prof.h>
#include <mstx/ms_tools_ext.h>
#include <profiling/aprof_pub.h>

#include "test.h"

#define BAD ((void *)(uintptr_t)0x1234)
#define TX_FAIL ((aclError)-1) /* msproftx failures (spec §0.5) */
#define TYPES (ACL_PROF_TASK_TIME | ACL_PROF_ACL_API)
#define TX_TYPES (ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX)

/* Runs call, which must fail with code, and checks that the message it
 * left names fn ("fn:"). Clears older messages first. */
#define ASSERT_FAILS_NAMING(call, code, fn)                                                                    \
    do {                                                                                                       \
        (void)aclGetRecentErrMsg();                                                                            \
        ASSERT_RC(call, code);                                                                                 \
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), fn ":");                                                     \
    } while (0)

/* The same, and the message names what (an argument, a rule) too. */
#define ASSERT_FAILS_WITH(call, code, fn, what)                                                                \
    do {                                                                                                       \
        const char *msg_;                                                                                      \
        (void)aclGetRecentErrMsg();                                                                            \
        ASSERT_RC(call, code);                                                                                 \
        msg_ = aclGetRecentErrMsg();                                                                           \
        ASSERT_STR_CONTAINS(msg_, fn ":");                                                                     \
        ASSERT_STR_CONTAINS(msg_, what);                                                                       \
    } while (0)

/* ---- helpers ------------------------------------------------------------------------------------------- */

enum { DIR_CAP = T_PATH_CAP };

static void make_dir(char dir[DIR_CAP])
{
    t_tmpdir(dir, DIR_CAP, "aclcpu-prof");
}

static aclError prof_init(const char *dir) { return aclprofInit(dir, strlen(dir)); }

static aclError set_option(aclprofConfigType type, const char *v) { return aclprofSetConfig(type, v, strlen(v)); }

/* The path of a profile file: <dir>/ASCEND_PROFILER_OUTPUT/<name>. */
static void out_path(char *buf, size_t n, const char *dir, const char *name)
{
    ASSERT((size_t)snprintf(buf, n, "%s/ASCEND_PROFILER_OUTPUT/%s", dir, name) < n);
}

static int out_exists(const char *dir, const char *name)
{
    char p[T_PATH_CAP + 2048];
    struct stat st;
    out_path(p, sizeof(p), dir, name);
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The whole of a profile file, NUL-terminated (caller frees), or NULL. */
static char *out_read(const char *dir, const char *name)
{
    char p[T_PATH_CAP + 2048], *buf; /* a test's deepest folder (1,100+ characters below TMPDIR) */
    long n;
    FILE *f;
    out_path(p, sizeof(p), dir, name);
    if ((f = fopen(p, "rb")) == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (buf != NULL) {
        size_t got = fread(buf, 1, (size_t)n, f);
        buf[got] = '\0';
    }
    fclose(f);
    return buf;
}

static int out_contains(const char *dir, const char *name, const char *needle)
{
    char *text = out_read(dir, name);
    int found = text != NULL && strstr(text, needle) != NULL;
    free(text);
    return found;
}

/* Field number col (0-based) of a CSV line, copied into out. */
static void csv_field(const char *line, int col, char *out, size_t n)
{
    size_t len;
    for (int i = 0; i < col && line != NULL; i++) {
        line = strchr(line, ',');
        if (line != NULL)
            line++;
    }
    out[0] = '\0';
    if (line == NULL)
        return;
    len = strcspn(line, ",\n");
    if (len >= n)
        len = n - 1;
    memcpy(out, line, len);
    out[len] = '\0';
}

/* The column of the header line (the text's first) named col, or -1. */
static int csv_column(const char *text, const char *col)
{
    char f[64];
    for (int i = 0; i < 64; i++) {
        csv_field(text, i, f, sizeof(f));
        if (strcmp(f, col) == 0)
            return i;
    }
    return -1;
}

/* Column col of the first row whose Name is name, as a number; -1 when
 * there is no such row. */
static double kernel_value(const char *text, const char *name, const char *col)
{
    int cname = csv_column(text, "Name"), cval = csv_column(text, col);
    char f[128];
    ASSERT(cname >= 0 && cval >= 0);
    for (const char *line = strchr(text, '\n'); line != NULL && line[1] != '\0'; line = strchr(line + 1, '\n')) {
        csv_field(line + 1, cname, f, sizeof(f));
        if (strcmp(f, name) == 0) {
            csv_field(line + 1, cval, f, sizeof(f));
            return strtod(f, NULL);
        }
    }
    return -1;
}

static void k_nop(void *args) { (void)args; }

static void launch_nop(const char *name, aclrtStream s)
{
    int arg = 0;
    ASSERT_OK(aclrtLaunchKernel(t_kernel(name, k_nop), 1, &arg, sizeof(arg), s));
}

static uint32_t dev0[1] = {0};

static aclprofConfig *config(uint64_t types)
{
    aclprofConfig *c = aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, NULL, types);
    ASSERT(c != NULL);
    return c;
}

/* ---- aclprofInit ---------------------------------------------------------------------------------------- */

TEST(prof_api, init_argument_checks)
{
    static char path[4200];
    char dir[DIR_CAP];
    t_setup();
    make_dir(dir);
    ASSERT_FAILS_NAMING(aclprofInit(NULL, 4), ACL_ERROR_INVALID_PARAM, "aclprofInit");
    ASSERT_RC(aclprofInit(dir, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofInit(dir, strlen(dir) - 1), ACL_ERROR_INVALID_PARAM); /* strlen != length */
    ASSERT_FAILS_NAMING(aclprofInit(dir, strlen(dir) + 1), ACL_ERROR_INVALID_PARAM, "aclprofInit");
    /* length >= 4096 is refused even when it is strlen; 4095 is taken. */
    memset(path, 'a', sizeof(path));
    path[0] = '/';
    path[4100] = '\0';
    ASSERT_RC(aclprofInit(path, 4100), ACL_ERROR_INVALID_PARAM);
    path[4096] = '\0';
    ASSERT_RC(aclprofInit(path, 4096), ACL_ERROR_INVALID_PARAM);
    /* None of the failures initialised anything: Init still works. */
    ASSERT_OK(prof_init(dir));
    ASSERT_OK(aclprofFinalize());
    path[4095] = '\0';
    ASSERT_OK(aclprofInit(path, 4095));
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(prof_init(dir));
    ASSERT_FAILS_NAMING(prof_init(dir), ACL_ERROR_REPEAT_INITIALIZE, "aclprofInit");
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(prof_init(dir)); /* again after Finalize */
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

TEST(prof_api, init_refuses_control_characters)
{
    char dir[DIR_CAP], bad[DIR_CAP + 8];
    t_setup();
    make_dir(dir);
    snprintf(bad, sizeof(bad), "%s/a\nb", dir);
    ASSERT_FAILS_NAMING(prof_init(bad), ACL_ERROR_INVALID_FILE, "aclprofInit");
    snprintf(bad, sizeof(bad), "%s/a\tb", dir);
    ASSERT_RC(prof_init(bad), ACL_ERROR_INVALID_FILE);
    snprintf(bad, sizeof(bad), "%s/a\x7f", dir);
    ASSERT_RC(prof_init(bad), ACL_ERROR_INVALID_FILE);
    /* The failed Init left the profiler off: Init still works. */
    ASSERT_OK(prof_init(dir));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* A relative path is made absolute at aclprofInit (not at Start). */
TEST(prof_api, init_relative_path_is_made_absolute)
{
    char dir[DIR_CAP], out[DIR_CAP + 16];
    t_setup();
    make_dir(dir);
    ASSERT(chdir(dir) == 0);
    ASSERT_OK(aclprofInit("rel", 3));
    ASSERT(chdir("/") == 0);
    ASSERT_OK(aclprofStart(NULL));
    launch_nop("prof_nop", NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclprofStop(NULL));
    ASSERT_OK(aclprofFinalize());
    snprintf(out, sizeof(out), "%s/rel", dir);
    ASSERT(out_exists(out, "kernel_details.csv"));
    t_teardown();
}

/* ACLCPU_PROFILE profiles the whole run: aclprofInit, Start, Stop and
 * Finalize are refused (100042, as under msprof's command line), and so is
 * subscription once the model checks pass; aclFinalize writes the profile. */
TEST(prof_api, init_refused_while_env_profile_runs)
{
    char dir[DIR_CAP], other[DIR_CAP];
    uint32_t id = 0;
    make_dir(dir);
    make_dir(other);
    ASSERT(setenv("ACLCPU_PROFILE", dir, 1) == 0);
    t_setup();
    ASSERT_FAILS_NAMING(prof_init(other), ACL_ERROR_PROF_ALREADY_RUN, "aclprofInit");
    ASSERT_FAILS_NAMING(aclprofStart(NULL), ACL_ERROR_PROF_ALREADY_RUN, "aclprofStart");
    ASSERT_FAILS_NAMING(aclprofStop(NULL), ACL_ERROR_PROF_ALREADY_RUN, "aclprofStop");
    ASSERT_FAILS_NAMING(aclprofFinalize(), ACL_ERROR_PROF_ALREADY_RUN, "aclprofFinalize");
    ASSERT_RC(aclprofModelSubscribe(id, NULL), ACL_ERROR_INVALID_MODEL_ID); /* the model is checked first */
    launch_nop("prof_env_k", NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    t_teardown();
    ASSERT(out_exists(dir, "kernel_details.csv"));
    ASSERT(out_contains(dir, "kernel_details.csv", "prof_env_k"));
    ASSERT(!out_exists(other, "kernel_details.csv"));
}

/* ---- state machine: Start / Stop / Finalize --------------------------------------------------------------- */

/* Not initialised (never, or finalised already): Stop and Finalize have
 * nothing to do and succeed, with any config (ProfStop, ProfFinalize). */
TEST(prof_api, stop_and_finalize_without_init_succeed)
{
    char dir[DIR_CAP];
    aclprofConfig *c;
    t_setup();
    make_dir(dir);
    c = config(TYPES);
    ASSERT_OK(aclprofStop(c));
    ASSERT_OK(aclprofStop(NULL));
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(aclprofFinalize());
    /* They initialised nothing, and Finalize twice after an Init is fine. */
    ASSERT_OK(prof_init(dir));
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(aclprofStop(c));
    ASSERT_OK(aclprofDestroyConfig(c));
    t_teardown();
}

/* aclprofStart without aclprofInit initialises by itself, writing under
 * the working directory; aclprofInit is then a repeat until Finalize. */
TEST(prof_api, start_without_init_initialises_under_the_working_directory)
{
    char dir[DIR_CAP], other[DIR_CAP], cwd[1024];
    aclprofConfig *c;
    t_setup();
    make_dir(dir);
    make_dir(other);
    ASSERT(getcwd(cwd, sizeof(cwd)) != NULL);
    c = config(TYPES);
    ASSERT(chdir(dir) == 0);
    ASSERT_OK(aclprofStart(c));
    ASSERT(chdir(cwd) == 0);
    ASSERT_FAILS_NAMING(prof_init(other), ACL_ERROR_REPEAT_INITIALIZE, "aclprofInit");
    launch_nop("prof_auto_init_k", NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclprofStop(c));
    ASSERT(out_contains(dir, "kernel_details.csv", "prof_auto_init_k"));
    ASSERT(!out_exists(other, "kernel_details.csv"));
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(prof_init(other)); /* Finalize ended the self-made init */
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(aclprofDestroyConfig(c));
    t_teardown();
}

/* ... or under ACL_PROF_PATH when aclprofSetConfig named one. */
TEST(prof_api, start_without_init_writes_under_acl_prof_path)
{
    char dir[DIR_CAP];
    t_setup();
    make_dir(dir);
    ASSERT_OK(set_option(ACL_PROF_PATH, dir));
    ASSERT_OK(aclprofStart(NULL));
    launch_nop("prof_auto_path_k", NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclprofStop(NULL));
    ASSERT(out_contains(dir, "kernel_details.csv", "prof_auto_path_k"));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

TEST(prof_api, start_checks_data_types)
{
    char dir[DIR_CAP];
    aclprofConfig *none, *unknown, *good;
    t_setup();
    make_dir(dir);
    ASSERT_OK(prof_init(dir));
    unknown = config(ACL_PROF_TASK_TIME | (1ull << 40));
    ASSERT_FAILS_NAMING(aclprofStart(unknown), ACL_ERROR_PROF_MODULES_UNSUPPORTED, "aclprofStart");
    /* The failure started nothing: another config starts. */
    good = config(TYPES);
    ASSERT_OK(aclprofStart(good));
    ASSERT_OK(aclprofStop(good));
    /* dataTypeConfig 0: CreateConfig adds the internal AICPU type, so the
     * config names a type and Start takes it (CANN's zero check cannot fire). */
    none = aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, NULL, 0);
    ASSERT(none != NULL);
    ASSERT_OK(aclprofStart(none));
    ASSERT_OK(aclprofStop(none));
    ASSERT_OK(aclprofDestroyConfig(none));
    ASSERT_OK(aclprofDestroyConfig(unknown));
    ASSERT_OK(aclprofDestroyConfig(good));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* A second Start while a profile runs: the same data types succeed and do
 * nothing, others are refused (CheckConfigConsistency); Stop after Stop
 * has nothing to stop and succeeds. */
TEST(prof_api, start_again_same_types_succeeds_other_types_refused)
{
    char dir[DIR_CAP];
    aclprofConfig *c, *same, *other, *normalised;
    t_setup();
    make_dir(dir);
    ASSERT_OK(prof_init(dir));
    c = config(ACL_PROF_TASK_TIME);
    same = config(ACL_PROF_TASK_TIME);
    other = config(ACL_PROF_TASK_TIME | ACL_PROF_ACL_API);
    /* CreateConfig normalises: TASK_TIME implies TASK_TIME_L0 and TRAINING_TRACE (§1.2). */
    normalised = config(ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L0 | ACL_PROF_TRAINING_TRACE);
    ASSERT_OK(aclprofStart(c));
    ASSERT_OK(aclprofStart(c));
    ASSERT_OK(aclprofStart(same));
    ASSERT_FAILS_NAMING(aclprofStart(other), ACL_ERROR_INVALID_PROFILING_CONFIG, "aclprofStart");
    ASSERT_RC(aclprofStart(NULL), ACL_ERROR_INVALID_PROFILING_CONFIG); /* the default config collects more */
    ASSERT_FAILS_NAMING(aclprofStop(other), ACL_ERROR_INVALID_PROFILING_CONFIG, "aclprofStop");
    launch_nop("prof_still_running_k", NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclprofStop(c)); /* the refusals left it running */
    ASSERT(out_contains(dir, "kernel_details.csv", "prof_still_running_k"));
    ASSERT_OK(aclprofStop(c));
    ASSERT_OK(aclprofStop(other)); /* nothing runs: no data types to compare */
    ASSERT_OK(aclprofStop(NULL));
    /* Another config with the same data types stops it too. */
    ASSERT_OK(aclprofStart(c));
    ASSERT_OK(aclprofStop(same));
    ASSERT_OK(aclprofStart(c));
    ASSERT_OK(aclprofStop(normalised));
    ASSERT_OK(aclprofDestroyConfig(c));
    ASSERT_OK(aclprofDestroyConfig(same));
    ASSERT_OK(aclprofDestroyConfig(other));
    ASSERT_OK(aclprofDestroyConfig(normalised));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* Start(NULL) profiles with the default config (every data type, so
 * msproftx too); Stop(NULL) stops whatever runs and writes the files. */
TEST(prof_api, start_null_uses_default_config)
{
    char dir[DIR_CAP];
    char *kd;
    void *stamp;
    t_setup();
    make_dir(dir);
    ASSERT_OK(prof_init(dir));
    ASSERT(aclprofCreateStamp() == NULL);
    ASSERT_OK(aclprofStart(NULL));
    stamp = aclprofCreateStamp();
    ASSERT(stamp != NULL);
    aclprofDestroyStamp(stamp);
    launch_nop("prof_default_k", NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT(!out_exists(dir, "kernel_details.csv")); /* written at Stop */
    ASSERT_OK(aclprofStop(NULL));
    kd = out_read(dir, "kernel_details.csv");
    ASSERT(kd != NULL);
    ASSERT_STR_CONTAINS(kd, "prof_default_k");
    ASSERT(strncmp(kd, "Device_id,", 10) == 0); /* no steps: no Step Id column */
    free(kd);
    ASSERT(out_exists(dir, "trace_view.json"));
    ASSERT(out_exists(dir, "step_trace_time.csv"));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* The directory is made (and checked) only at Start: 100003 there. */
TEST(prof_api, start_unwritable_directory)
{
    char dir[DIR_CAP], file[DIR_CAP + 8], sub[DIR_CAP + 16];
    FILE *f;
    t_setup();
    make_dir(dir);
    snprintf(file, sizeof(file), "%s/file", dir);
    ASSERT((f = fopen(file, "w")) != NULL);
    fclose(f);
    snprintf(sub, sizeof(sub), "%s/sub", file); /* under a regular file: never a directory */
    ASSERT_OK(prof_init(sub));
    ASSERT_FAILS_NAMING(aclprofStart(NULL), ACL_ERROR_INVALID_FILE, "aclprofStart");
    ASSERT_OK(aclprofStop(NULL)); /* nothing started: nothing to stop */
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(prof_init("/proc/aclcpu-no-such-dir"));
    ASSERT_RC(aclprofStart(NULL), ACL_ERROR_INVALID_FILE);
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* A profile directory that exists as a regular file (mkdir says it exists)
 * is no directory to write in: Start refuses it with 100003 (it cannot be
 * entered, for root too: a file without execute bits). */
TEST(prof_api, start_refuses_a_directory_that_is_a_regular_file)
{
    char dir[DIR_CAP], file[DIR_CAP + 8];
    FILE *f;
    t_setup();
    make_dir(dir);
    snprintf(file, sizeof(file), "%s/file", dir);
    ASSERT((f = fopen(file, "w")) != NULL);
    fclose(f);
    ASSERT_EQ(chmod(file, 0644), 0);
    ASSERT_OK(prof_init(file));
    ASSERT_FAILS_WITH(aclprofStart(NULL), ACL_ERROR_INVALID_FILE, "aclprofStart", "cannot be made or written");
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* Appends "/ddd...d" components to dir (in buf) until it is at least n long. */
static size_t long_path(char *buf, size_t cap, const char *dir, size_t n)
{
    size_t len = (size_t)snprintf(buf, cap, "%s", dir);
    while (len < n)
        len += (size_t)snprintf(buf + len, cap - len, "/%.60s",
                                "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd");
    return len;
}

/* A long directory works in full (regression: it was cut to 1023
 * characters and the files went to the cut path, with Stop returning 0);
 * one that made absolute no longer fits a path is refused, never cut. */
TEST(prof_api, long_directories_work_in_full_and_too_long_ones_are_refused)
{
    static char path[4200], cut[1400];
    char dir[DIR_CAP];
    size_t len;
    struct stat st;
    t_setup();
    make_dir(dir);
    len = long_path(path, sizeof(path), dir, 1100);
    if (path[1022] == '/' || path[1023] == '/') {
        /* The cut would end at a component's end (it depends on the
         * temporary folder's length) and name a parent that must exist:
         * one more character of depth moves it inside a component. */
        ASSERT(strlen(dir) + 2 < sizeof(dir));
        strcat(dir, "/x");
        ASSERT(mkdir(dir, 0755) == 0);
        len = long_path(path, sizeof(path), dir, 1100);
    }
    ASSERT(len > 1023 && len < 4096 && path[1022] != '/' && path[1023] != '/');
    ASSERT_OK(prof_init(path));
    ASSERT_OK(aclprofStart(NULL));
    launch_nop("prof_long_k", NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclprofStop(NULL));
    ASSERT(out_contains(path, "kernel_details.csv", "prof_long_k"));
    memcpy(cut, path, 1023);
    cut[1023] = '\0';
    ASSERT(stat(cut, &st) != 0 || strlen(cut) == len); /* nothing made at a cut path */
    ASSERT_OK(aclprofFinalize());
    /* Relative to a working directory so deep that cwd + path passes 4095. */
    len = long_path(path, sizeof(path), dir, 3950);
    ASSERT(len < 4096);
    for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')) != NULL; p++) {
        *p = '\0';
        ASSERT(mkdir(path, 0755) == 0 || errno == EEXIST);
        *p = '/';
    }
    ASSERT(mkdir(path, 0755) == 0 || errno == EEXIST);
    ASSERT(chdir(path) == 0);
    memset(cut, 'e', 160);
    cut[160] = '\0';
    ASSERT_FAILS_NAMING(aclprofInit(cut, 160), ACL_ERROR_INVALID_FILE, "aclprofInit");
    ASSERT_RC(set_option(ACL_PROF_PATH, cut), ACL_ERROR_INVALID_PROFILING_CONFIG);
    ASSERT(chdir("/") == 0);
    t_teardown();
}

/* A profile directory of exactly 4095 characters (the most a path
 * holds) is taken by aclprofStart, which makes it; the files under it
 * pass the limit, so the Stop cannot write them (100003). */
TEST(prof_api, a_profile_directory_of_exactly_4095_characters_is_started)
{
    static char path[4200];
    char dir[DIR_CAP];
    size_t len;
    struct stat st;
    t_setup();
    make_dir(dir);
    len = long_path(path, sizeof(path), dir, 4095 - 70);
    path[len++] = '/';
    while (len < 4095)
        path[len++] = 'e';
    path[len] = '\0';
    ASSERT_EQ(strlen(path), 4095);
    ASSERT_OK(prof_init(path));
    ASSERT_OK(aclprofStart(NULL));
    ASSERT(stat(path, &st) == 0 && S_ISDIR(st.st_mode));
    ASSERT_RC(aclprofStop(NULL), ACL_ERROR_INVALID_FILE); /* its files' paths are too long */
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* Configs are kept in a live list: a destroyed or foreign pointer is
 * refused with 100000, not followed. */
TEST(prof_api, stale_and_foreign_configs)
{
    char dir[DIR_CAP];
    aclprofConfig *c, *live;
    uint64_t junk[16] = {0};
    const aclprofConfig *foreign = (const aclprofConfig *)junk;
    t_setup();
    make_dir(dir);
    ASSERT_OK(prof_init(dir));
    c = config(TYPES);
    live = config(TYPES);
    ASSERT_OK(aclprofDestroyConfig(c));
    ASSERT_FAILS_NAMING(aclprofDestroyConfig(c), ACL_ERROR_INVALID_PARAM, "aclprofDestroyConfig");
    ASSERT_FAILS_NAMING(aclprofDestroyConfig(NULL), ACL_ERROR_INVALID_PARAM, "aclprofDestroyConfig");
    ASSERT_RC(aclprofDestroyConfig(foreign), ACL_ERROR_INVALID_PARAM);
    ASSERT_FAILS_NAMING(aclprofStart(c), ACL_ERROR_INVALID_PARAM, "aclprofStart");
    ASSERT_RC(aclprofStart(foreign), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclprofStart(live));
    ASSERT_FAILS_NAMING(aclprofStop(c), ACL_ERROR_INVALID_PARAM, "aclprofStop");
    ASSERT_RC(aclprofStop(foreign), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclprofStop(live));
    ASSERT_OK(aclprofDestroyConfig(live));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* Finalize stops a running profile and writes it; after it Stop has
 * nothing to do (success), and a new Init may name another directory. */
TEST(prof_api, finalize_while_running_writes_the_files)
{
    char dir[DIR_CAP], dir2[DIR_CAP];
    aclprofConfig *c;
    t_setup();
    make_dir(dir);
    make_dir(dir2);
    ASSERT_OK(prof_init(dir));
    c = config(TYPES);
    ASSERT_OK(aclprofStart(c));
    launch_nop("prof_fin_k", NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclprofFinalize());
    ASSERT(out_exists(dir, "kernel_details.csv"));
    ASSERT(out_contains(dir, "kernel_details.csv", "prof_fin_k"));
    ASSERT_OK(aclprofStop(c));
    ASSERT_OK(prof_init(dir2));
    ASSERT_OK(aclprofStart(c));
    ASSERT_OK(aclprofStop(c));
    ASSERT(out_exists(dir2, "kernel_details.csv"));
    ASSERT_OK(aclprofDestroyConfig(c));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* A profile still running at aclFinalize is written then; aclFinalize
 * also turns the API off (CANN's MsprofFinalize): aclprofStop and
 * aclprofFinalize afterwards have nothing to do, and aclprofInit works
 * again. */
TEST(prof_api, acl_finalize_writes_a_running_profile)
{
    char dir[DIR_CAP];
    aclprofConfig *c;
    t_setup();
    make_dir(dir);
    ASSERT_OK(prof_init(dir));
    c = config(TYPES);
    ASSERT_OK(aclprofStart(c));
    launch_nop("prof_aclfin_k", NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    t_teardown();
    ASSERT(out_contains(dir, "kernel_details.csv", "prof_aclfin_k"));
    ASSERT_OK(aclprofStop(c));
    ASSERT_OK(aclprofDestroyConfig(c));
    ASSERT_OK(aclprofFinalize());
}

/* aclFinalize turns the API off even with no profile running: a later
 * aclprofInit is no repeat, and msproftx is off. */
TEST(prof_api, acl_finalize_turns_the_api_off)
{
    char dir[DIR_CAP], other[DIR_CAP];
    aclprofConfig *tx;
    void *stamp;
    t_setup();
    make_dir(dir);
    make_dir(other);
    ASSERT_OK(prof_init(dir));
    tx = config(TX_TYPES);
    ASSERT_OK(aclprofStart(tx));
    ASSERT_OK(aclprofStop(tx));
    stamp = aclprofCreateStamp(); /* msproftx is on until finalised */
    ASSERT(stamp != NULL);
    aclprofDestroyStamp(stamp);
    t_teardown();
    t_setup();
    ASSERT(aclprofCreateStamp() == NULL);
    ASSERT_OK(prof_init(other));
    ASSERT_FAILS_NAMING(prof_init(other), ACL_ERROR_REPEAT_INITIALIZE, "aclprofInit");
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(aclprofDestroyConfig(tx));
    t_teardown();
}

/* ---- aclprofCreateConfig / aclprofDestroyConfig ---------------------------------------------------------- */

/* Which rule a CreateConfig call broke: its message names it. */
#define ASSERT_CREATE_REFUSED(call, what)                                                                      \
    do {                                                                                                       \
        const char *msg_;                                                                                      \
        (void)aclGetRecentErrMsg();                                                                            \
        ASSERT((call) == NULL);                                                                                \
        msg_ = aclGetRecentErrMsg();                                                                           \
        ASSERT_STR_CONTAINS(msg_, "aclprofCreateConfig:");                                                     \
        ASSERT_STR_CONTAINS(msg_, what);                                                                       \
    } while (0)

/* The checks in CANN's order (IsValidProfConfig, then the empty list):
 * list NULL with a count, aicoreEvents, the count, each id, a repeat, no
 * device without ACL_PROF_MSPROFTX; with two broken, the first wins. */
TEST(prof_api, create_config_checks_list_then_events_then_count_then_ids_then_empty)
{
    uint32_t ids[3] = {0, 1, 2}, dup[2] = {1, 1}, bad_dup[3] = {2, 1, 1};
    uint64_t junk = 0;
    const aclprofAicoreEvents *events = (const aclprofAicoreEvents *)&junk;
    aclprofConfig *c;
    ASSERT(setenv("ACLCPU_DEVICE_COUNT", "2", 1) == 0);
    t_setup();
    ASSERT_CREATE_REFUSED(aclprofCreateConfig(NULL, 1, ACL_AICORE_NONE, events, TYPES), "'deviceIdList' is NULL");
    ASSERT_CREATE_REFUSED(aclprofCreateConfig(ids, 3, ACL_AICORE_NONE, events, TYPES), "'aicoreEvents'");
    ASSERT_CREATE_REFUSED(aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, events, TYPES), "'aicoreEvents'");
    ASSERT_CREATE_REFUSED(aclprofCreateConfig(bad_dup, 3, ACL_AICORE_NONE, NULL, TYPES), "'deviceNums' is 3");
    ASSERT_CREATE_REFUSED(aclprofCreateConfig(bad_dup, 2, ACL_AICORE_NONE, NULL, TYPES), "device 2;");
    ASSERT_CREATE_REFUSED(aclprofCreateConfig(dup, 2, ACL_AICORE_NONE, NULL, TYPES), "device 1 twice");
    ASSERT_CREATE_REFUSED(aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, TYPES), "'deviceNums' is 0");
    /* The last accepted count is the device count (2 here). */
    ASSERT((c = aclprofCreateConfig(ids, 2, ACL_AICORE_NONE, NULL, TYPES)) != NULL);
    ASSERT_OK(aclprofDestroyConfig(c));
    t_teardown();
}

/* aclprofStart checks a config's aicore metrics when it collects them
 * (PrepareStartAclApi, CheckAclApiAicoreMetricsIsValid): an unknown value
 * is 100000 and starts nothing; ACL_AICORE_NONE, a known value, or any
 * value without ACL_PROF_AICORE_METRICS are taken. */
TEST(prof_api, start_checks_aicore_metrics_only_when_collected)
{
    char dir[DIR_CAP];
    aclprofConfig *bad, *none, *last, *unused;
    t_setup();
    make_dir(dir);
    ASSERT_OK(prof_init(dir));
    bad = aclprofCreateConfig(dev0, 1, (aclprofAicoreMetrics)9, NULL, TYPES | ACL_PROF_AICORE_METRICS);
    none = aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, NULL, TYPES | ACL_PROF_AICORE_METRICS);
    last = aclprofCreateConfig(dev0, 1, ACL_AICORE_MEMORY_ACCESS, NULL, TYPES | ACL_PROF_AICORE_METRICS);
    unused = aclprofCreateConfig(dev0, 1, (aclprofAicoreMetrics)9, NULL, TYPES);
    ASSERT(bad != NULL && none != NULL && last != NULL && unused != NULL);
    ASSERT_FAILS_WITH(aclprofStart(bad), ACL_ERROR_INVALID_PARAM, "aclprofStart", "aicore metrics 9");
    ASSERT_OK(aclprofStart(none)); /* the refusal started nothing */
    ASSERT_OK(aclprofStop(none));
    ASSERT_OK(aclprofStart(last));
    ASSERT_OK(aclprofStop(last));
    ASSERT_OK(aclprofStart(unused));
    ASSERT_OK(aclprofStop(unused));
    ASSERT_OK(aclprofDestroyConfig(bad));
    ASSERT_OK(aclprofDestroyConfig(none));
    ASSERT_OK(aclprofDestroyConfig(last));
    ASSERT_OK(aclprofDestroyConfig(unused));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* A config destroyed while its profile runs: Stop with it is refused (a
 * stale pointer, 100000, aclcpu's check), Stop(NULL) stops the profile. */
TEST(prof_api, destroying_a_running_config_leaves_the_profile_to_stop_null)
{
    char dir[DIR_CAP];
    aclprofConfig *c;
    t_setup();
    make_dir(dir);
    ASSERT_OK(prof_init(dir));
    c = config(TYPES);
    ASSERT_OK(aclprofStart(c));
    ASSERT_OK(aclprofDestroyConfig(c));
    ASSERT_FAILS_WITH(aclprofStop(c), ACL_ERROR_INVALID_PARAM, "aclprofStop", "'profilerConfig'");
    launch_nop("prof_orphan_k", NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclprofStop(NULL));
    ASSERT(out_contains(dir, "kernel_details.csv", "prof_orphan_k"));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

TEST(prof_api, create_config_rules)
{
    uint32_t ids[70];
    uint64_t junk = 0;
    const aclprofAicoreEvents *events = (const aclprofAicoreEvents *)&junk;
    aclprofConfig *ok[4];
    ASSERT(setenv("ACLCPU_DEVICE_COUNT", "2", 1) == 0);
    t_setup();
    for (uint32_t i = 0; i < 70; i++)
        ids[i] = i;
    (void)aclGetRecentErrMsg();
    ASSERT(aclprofCreateConfig(NULL, 1, ACL_AICORE_NONE, NULL, TYPES) == NULL);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclprofCreateConfig:");
    ASSERT(aclprofCreateConfig(ids, 1, ACL_AICORE_NONE, events, TYPES) == NULL);
    ASSERT(aclprofCreateConfig(ids, 3, ACL_AICORE_NONE, NULL, TYPES) == NULL);  /* above the device count */
    ASSERT(aclprofCreateConfig(ids, 65, ACL_AICORE_NONE, NULL, TYPES) == NULL); /* above 64 */
    ASSERT(aclprofCreateConfig(ids + 2, 1, ACL_AICORE_NONE, NULL, TYPES) == NULL); /* id 2 of 2 devices */
    ids[1] = 0;
    ASSERT(aclprofCreateConfig(ids, 2, ACL_AICORE_NONE, NULL, TYPES) == NULL); /* 0 twice */
    ids[1] = 1;
    ASSERT(aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, TYPES) == NULL); /* none, without MSPROFTX */
    ASSERT(aclprofCreateConfig(ids, 0, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME) == NULL);
    ok[0] = aclprofCreateConfig(ids, 2, ACL_AICORE_PIPE_UTILIZATION, NULL, TYPES);
    ok[1] = aclprofCreateConfig(ids + 1, 1, ACL_AICORE_NONE, NULL, TYPES);
    ok[2] = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX);
    ok[3] = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX | ACL_PROF_TASK_TIME);
    for (int i = 0; i < 4; i++)
        ASSERT(ok[i] != NULL);
    for (int i = 0; i < 4; i++)
        ASSERT_OK(aclprofDestroyConfig(ok[i]));
    ASSERT_RC(aclprofDestroyConfig(ok[0]), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofDestroyConfig(NULL), ACL_ERROR_INVALID_PARAM);
    t_teardown();
}

/* ---- aclprofSetConfig -------------------------------------------------------------------------------- */

/* The argument checks (100000) in CANN's order: configType, configLength
 * over 256, config NULL, configLength != strlen; then configType 2, inside
 * the range but no option (100010). SetConfig may come before aclprofInit. */
TEST(prof_api, set_config_checks_type_then_length_then_null_then_strlen)
{
    char big[300];
    t_setup();
    ASSERT_FAILS_WITH(aclprofSetConfig(ACL_PROF_ARGS_MIN, "read", 4), ACL_ERROR_INVALID_PARAM, "aclprofSetConfig",
                      "'configType'");
    ASSERT_RC(aclprofSetConfig(ACL_PROF_ARGS_MAX, NULL, 300), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'configType'");
    ASSERT_RC(aclprofSetConfig(ACL_PROF_LLC_MODE, NULL, 300), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'configLength'");
    ASSERT_RC(aclprofSetConfig(ACL_PROF_LLC_MODE, NULL, 256), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'config'");
    ASSERT_FAILS_NAMING(aclprofSetConfig((aclprofConfigType)2, "200MB", 5), ACL_ERROR_INVALID_PROFILING_CONFIG,
                        "aclprofSetConfig");
    ASSERT_RC(aclprofSetConfig((aclprofConfigType)2, "200MB", 4), ACL_ERROR_INVALID_PARAM); /* strlen first */
    ASSERT_RC(aclprofSetConfig((aclprofConfigType)-1, "read", 4), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofSetConfig((aclprofConfigType)100, "read", 4), ACL_ERROR_INVALID_PARAM);
    ASSERT_FAILS_NAMING(aclprofSetConfig(ACL_PROF_LLC_MODE, NULL, 4), ACL_ERROR_INVALID_PARAM, "aclprofSetConfig");
    ASSERT_RC(aclprofSetConfig(ACL_PROF_LLC_MODE, "read", 3), ACL_ERROR_INVALID_PARAM); /* != strlen */
    ASSERT_RC(aclprofSetConfig(ACL_PROF_LLC_MODE, "read", 5), ACL_ERROR_INVALID_PARAM);
    /* 256 characters is the most (an OPTYPE list: any words). */
    memset(big, 'a', sizeof(big));
    big[257] = '\0';
    ASSERT_RC(aclprofSetConfig(ACL_PROF_OPTYPE, big, 257), ACL_ERROR_INVALID_PARAM);
    big[256] = '\0';
    ASSERT_OK(aclprofSetConfig(ACL_PROF_OPTYPE, big, 256));
    ASSERT_OK(aclprofSetConfig(ACL_PROF_LLC_MODE, "read", 4));
    t_teardown();
}

/* The values each option takes (ProfParamsAdapter::CheckApiConfigIsValid,
 * ParamValidation: CheckStorageLimit, CheckArgRange, CheckLlcConfigValid,
 * CheckHostSys(Usage)OptionsIsValid, CheckOpTypeIsValid, CheckMemServiceflowValid). */
TEST(prof_api, set_config_values)
{
    static const char *const bad_storage[] = {"100MB", "200", "abcMB", "199MB", "4294967296MB", "200mb", "MB",
                                              "-200MB"};
    static const aclprofConfigType freq100[] = {ACL_PROF_SYS_HARDWARE_MEM_FREQ, ACL_PROF_SYS_IO_FREQ,
                                                ACL_PROF_DVPP_FREQ, ACL_PROF_LOW_POWER_FREQ};
    static const aclprofConfigType freq50[] = {ACL_PROF_SYS_INTERCONNECTION_FREQ, ACL_PROF_HOST_SYS_USAGE_FREQ,
                                               ACL_PROF_SYS_CPU_FREQ};
    t_setup();
    for (size_t i = 0; i < sizeof(bad_storage) / sizeof(bad_storage[0]); i++)
        ASSERT_RC(set_option(ACL_PROF_STORAGE_LIMIT, bad_storage[i]), ACL_ERROR_INVALID_PROFILING_CONFIG);
    ASSERT_FAILS_NAMING(set_option(ACL_PROF_STORAGE_LIMIT, "100MB"), ACL_ERROR_INVALID_PROFILING_CONFIG,
                        "aclprofSetConfig");
    ASSERT_OK(set_option(ACL_PROF_STORAGE_LIMIT, "200MB"));
    ASSERT_OK(set_option(ACL_PROF_STORAGE_LIMIT, "4294967295MB"));
    ASSERT_OK(set_option(ACL_PROF_STORAGE_LIMIT, "")); /* no limit */
    ASSERT_OK(set_option(ACL_PROF_STORAGE_LIMIT, "0000000200MB"));  /* 10 digits */
    ASSERT_RC(set_option(ACL_PROF_STORAGE_LIMIT, "00000000200MB"), /* 11 */ ACL_ERROR_INVALID_PROFILING_CONFIG);
    for (size_t i = 0; i < sizeof(freq100) / sizeof(freq100[0]); i++) {
        ASSERT_RC(set_option(freq100[i], "0"), ACL_ERROR_INVALID_PROFILING_CONFIG);
        ASSERT_RC(set_option(freq100[i], "101"), ACL_ERROR_INVALID_PROFILING_CONFIG);
        ASSERT_RC(set_option(freq100[i], "abc"), ACL_ERROR_INVALID_PROFILING_CONFIG);
        ASSERT_RC(set_option(freq100[i], "10x"), ACL_ERROR_INVALID_PROFILING_CONFIG);
        ASSERT_RC(set_option(freq100[i], ""), ACL_ERROR_INVALID_PROFILING_CONFIG);
        ASSERT_RC(set_option(freq100[i], "0001"), ACL_ERROR_INVALID_PROFILING_CONFIG); /* more digits than 100 */
        ASSERT_OK(set_option(freq100[i], "001"));
        ASSERT_OK(set_option(freq100[i], "1"));
        ASSERT_OK(set_option(freq100[i], "100"));
    }
    for (size_t i = 0; i < sizeof(freq50) / sizeof(freq50[0]); i++) {
        ASSERT_RC(set_option(freq50[i], "0"), ACL_ERROR_INVALID_PROFILING_CONFIG);
        ASSERT_RC(set_option(freq50[i], "51"), ACL_ERROR_INVALID_PROFILING_CONFIG);
        ASSERT_OK(set_option(freq50[i], "1"));
        ASSERT_OK(set_option(freq50[i], "50"));
    }
    ASSERT_RC(set_option(ACL_PROF_LLC_MODE, "foo"), ACL_ERROR_INVALID_PROFILING_CONFIG);
    ASSERT_RC(set_option(ACL_PROF_LLC_MODE, "Read"), ACL_ERROR_INVALID_PROFILING_CONFIG);
    ASSERT_OK(set_option(ACL_PROF_LLC_MODE, "read"));
    ASSERT_OK(set_option(ACL_PROF_LLC_MODE, "write"));
    ASSERT_RC(set_option(ACL_PROF_HOST_SYS, "cpu,gpu"), ACL_ERROR_INVALID_PROFILING_CONFIG);
    ASSERT_RC(set_option(ACL_PROF_HOST_SYS, "cpu,"), ACL_ERROR_INVALID_PROFILING_CONFIG);
    ASSERT_RC(set_option(ACL_PROF_HOST_SYS, "cpu,,mem"), ACL_ERROR_INVALID_PROFILING_CONFIG);
    ASSERT_OK(set_option(ACL_PROF_HOST_SYS, "cpu,mem,disk,network,osrt,numa"));
    ASSERT_OK(set_option(ACL_PROF_HOST_SYS, "")); /* a list of nothing */
    ASSERT_RC(set_option(ACL_PROF_HOST_SYS_USAGE, "cpu,disk"), ACL_ERROR_INVALID_PROFILING_CONFIG);
    ASSERT_OK(set_option(ACL_PROF_HOST_SYS_USAGE, ""));
    ASSERT_OK(set_option(ACL_PROF_HOST_SYS, "cpu"));
    ASSERT_OK(set_option(ACL_PROF_HOST_SYS, "cpu,mem"));
    ASSERT_OK(set_option(ACL_PROF_HOST_SYS_USAGE, "mem"));
    /* NTS_METRICS answers a bad value with 100000, not 100010. */
    ASSERT_FAILS_NAMING(set_option(ACL_PROF_NTS_METRICS, "foo"), ACL_ERROR_INVALID_PARAM, "aclprofSetConfig");
    ASSERT_RC(set_option(ACL_PROF_NTS_METRICS, "Custom:"), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(set_option(ACL_PROF_NTS_METRICS, "PipeUtilization"));
    ASSERT_OK(set_option(ACL_PROF_NTS_METRICS, "Custom:0x1,0x2"));
    ASSERT_OK(set_option(ACL_PROF_NTS_METRICS, "Custom: 7 ,010,65535,1,2,3,4,5,6,7")); /* 10 codes */
    ASSERT_RC(set_option(ACL_PROF_NTS_METRICS, "Custom:1,2,3,4,5,6,7,8,9,10,11"), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(set_option(ACL_PROF_NTS_METRICS, "Custom:65536"), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(set_option(ACL_PROF_NTS_METRICS, "Custom:abc"), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(set_option(ACL_PROF_NTS_METRICS, "Custom:1,"), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(set_option(ACL_PROF_NTS_METRICS, "Custom:1x"), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(set_option(ACL_PROF_OPTYPE, "MatMul,Add"));
    ASSERT_RC(set_option(ACL_PROF_OPTYPE, ""), ACL_ERROR_INVALID_PROFILING_CONFIG);
    ASSERT_RC(set_option(ACL_PROF_OPTYPE, "MatMul,,Add"), ACL_ERROR_INVALID_PROFILING_CONFIG);
    ASSERT_RC(set_option(ACL_PROF_SYS_MEM_SERVICEFLOW, ""), ACL_ERROR_INVALID_PROFILING_CONFIG);
    ASSERT_OK(set_option(ACL_PROF_SYS_MEM_SERVICEFLOW, "any text"));
    t_teardown();
}

/* ACL_PROF_PATH, set after aclprofInit, is where the profile goes. */
/* ACL_PROF_PATH before aclprofInit is kept unchecked (an empty one forgets
 * it); a self-initialising Start meets Init's check (100003). After init it
 * redirects at once and must be usable (100010); empty changes nothing. */
TEST(prof_api, acl_prof_path_is_checked_when_used)
{
    char dir[DIR_CAP], bad[DIR_CAP + 8];
    t_setup();
    make_dir(dir);
    snprintf(bad, sizeof(bad), "%s/a\nb", dir);
    ASSERT_OK(set_option(ACL_PROF_PATH, bad));
    ASSERT_FAILS_WITH(aclprofStart(NULL), ACL_ERROR_INVALID_FILE, "aclprofStart", "ACL_PROF_PATH");
    ASSERT_OK(set_option(ACL_PROF_PATH, ""));
    ASSERT_OK(set_option(ACL_PROF_PATH, dir));
    ASSERT_OK(aclprofStart(NULL)); /* initialises under dir */
    ASSERT_FAILS_WITH(set_option(ACL_PROF_PATH, bad), ACL_ERROR_INVALID_PROFILING_CONFIG, "aclprofSetConfig",
                      "ACL_PROF_PATH");
    ASSERT_OK(set_option(ACL_PROF_PATH, ""));
    launch_nop("prof_path_checked_k", NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclprofStop(NULL));
    ASSERT(out_contains(dir, "kernel_details.csv", "prof_path_checked_k"));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* The path an init ended with outlives aclprofFinalize: a later
 * self-initialising Start goes there, before any ACL_PROF_PATH set since
 * (CANN's GetResultPath prefers resultPath_, which Finalize keeps). */
TEST(prof_api, start_without_init_after_finalize_reuses_the_last_path)
{
    char dir[DIR_CAP], later[DIR_CAP];
    t_setup();
    make_dir(dir);
    make_dir(later);
    ASSERT_OK(prof_init(dir));
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(set_option(ACL_PROF_PATH, later));
    ASSERT_OK(aclprofStart(NULL));
    launch_nop("prof_reuse_k", NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclprofStop(NULL));
    ASSERT(out_contains(dir, "kernel_details.csv", "prof_reuse_k"));
    ASSERT(!out_exists(later, "kernel_details.csv"));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

TEST(prof_api, set_config_path_redirects_the_profile)
{
    char dir[DIR_CAP], redirect[DIR_CAP];
    t_setup();
    make_dir(dir);
    make_dir(redirect);
    ASSERT_OK(prof_init(dir));
    ASSERT_OK(set_option(ACL_PROF_PATH, redirect));
    ASSERT_OK(aclprofStart(NULL));
    launch_nop("prof_path_k", NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclprofStop(NULL));
    ASSERT(out_contains(redirect, "kernel_details.csv", "prof_path_k"));
    ASSERT(!out_exists(dir, "kernel_details.csv"));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* The later of aclprofInit's path and ACL_PROF_PATH wins: an ACL_PROF_PATH
 * set before aclprofInit gives way to Init's path (ProfAclInit records it
 * over the option; MsprofSetConfig after init overrides it). */
TEST(prof_api, init_path_set_after_acl_prof_path_wins)
{
    char dir[DIR_CAP], earlier[DIR_CAP];
    t_setup();
    make_dir(dir);
    make_dir(earlier);
    ASSERT_OK(set_option(ACL_PROF_PATH, earlier));
    ASSERT_OK(prof_init(dir));
    ASSERT_OK(aclprofStart(NULL));
    launch_nop("prof_lww_k", NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclprofStop(NULL));
    ASSERT(out_contains(dir, "kernel_details.csv", "prof_lww_k"));
    ASSERT(!out_exists(earlier, "kernel_details.csv"));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* ---- msproftx ----------------------------------------------------------------------------------------------- */

/* msproftx is on from an aclprofStart collecting ACL_PROF_MSPROFTX until
 * aclprofFinalize (CANN's tx manager: MsprofTxInit at Start, MsprofTxUnInit
 * at ProfAclFinalize): stamps are made meanwhile, a stop notwithstanding. */
TEST(prof_api, stamps_from_an_msproftx_start_until_finalize)
{
    char dir[DIR_CAP];
    aclprofConfig *plain, *tx;
    void *stamp, *after;
    uint32_t id = 0;
    t_setup();
    make_dir(dir);
    ASSERT(aclprofCreateStamp() == NULL); /* not inited */
    ASSERT_OK(prof_init(dir));
    ASSERT(aclprofCreateStamp() == NULL); /* not started */
    plain = config(TYPES);
    tx = config(TX_TYPES);
    ASSERT_OK(aclprofStart(plain));
    ASSERT(aclprofCreateStamp() == NULL); /* started without MSPROFTX */
    ASSERT_OK(aclprofStop(plain));
    ASSERT_OK(aclprofStart(tx));
    stamp = aclprofCreateStamp();
    ASSERT(stamp != NULL);
    ASSERT_OK(aclprofPush(stamp));
    ASSERT_OK(aclprofRangeStart(stamp, &id));
    ASSERT_OK(aclprofStop(tx));
    /* Stopped: still on; the open ranges close (recording nothing). */
    after = aclprofCreateStamp();
    ASSERT(after != NULL);
    ASSERT_OK(aclprofSetStampTraceMessage(after, "after_stop_mark", 15));
    ASSERT_OK(aclprofMark(after));
    ASSERT_OK(aclprofPop());
    ASSERT_OK(aclprofRangeStop(id));
    ASSERT_OK(aclprofStart(plain)); /* a profile without msproftx records no marker */
    ASSERT_OK(aclprofMark(after));
    ASSERT_OK(aclprofStop(plain));
    ASSERT(out_exists(dir, "trace_view.json"));
    ASSERT(!out_contains(dir, "trace_view.json", "after_stop_mark"));
    ASSERT_OK(aclprofFinalize());
    /* Finalized: off; the stamps stay the caller's to destroy. */
    ASSERT(aclprofCreateStamp() == NULL);
    ASSERT_FAILS_WITH(aclprofMark(after), TX_FAIL, "aclprofMark", "msproftx is off");
    ASSERT_RC(aclprofPush(stamp), TX_FAIL);
    ASSERT_RC(aclprofRangeStart(stamp, &id), TX_FAIL);
    aclprofDestroyStamp(stamp);
    aclprofDestroyStamp(after);
    ASSERT_OK(aclprofDestroyConfig(plain));
    ASSERT_OK(aclprofDestroyConfig(tx));
    t_teardown();
}

/* msproftx keeps 1024 pushes and 1024 open ranges: a push past 1024
 * succeeds but is not kept (1024 pops succeed, the next finds nothing);
 * range ids run 1..1024, the 1025th start fails, and id 1024 stops. */
TEST(prof_api, msproftx_keeps_1024_pushes_and_1024_ranges)
{
    char dir[DIR_CAP];
    aclprofConfig *tx;
    void *stamp;
    uint32_t id = 0;
    t_setup();
    make_dir(dir);
    ASSERT_OK(prof_init(dir));
    tx = config(TX_TYPES);
    ASSERT_OK(aclprofStart(tx));
    stamp = aclprofCreateStamp();
    ASSERT(stamp != NULL);
    for (int i = 0; i < 1025; i++)
        ASSERT_OK(aclprofPush(stamp));
    for (int i = 0; i < 1024; i++)
        ASSERT_OK(aclprofPop());
    ASSERT_FAILS_WITH(aclprofPop(), TX_FAIL, "aclprofPop", "nothing was pushed");
    for (uint32_t i = 1; i <= 1024; i++) {
        ASSERT_OK(aclprofRangeStart(stamp, &id));
        ASSERT_EQ(id, i);
    }
    ASSERT_FAILS_WITH(aclprofRangeStart(stamp, &id), TX_FAIL, "aclprofRangeStart", "1024 ranges are open already");
    ASSERT_OK(aclprofRangeStop(1024));
    ASSERT_RC(aclprofRangeStop(1024), TX_FAIL);
    ASSERT_RC(aclprofRangeStop(1025), TX_FAIL);
    ASSERT_OK(aclprofRangeStart(stamp, &id));
    ASSERT_EQ(id, 1024);
    ASSERT_OK(aclprofStop(tx));
    aclprofDestroyStamp(stamp);
    ASSERT_OK(aclprofDestroyConfig(tx));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

TEST(prof_api, stamp_checks)
{
    char dir[DIR_CAP], msg[200];
    aclprofConfig *tx;
    void *stamp, *dead;
    uint32_t id = 0, id2 = 0;
    t_setup();
    make_dir(dir);
    ASSERT_OK(prof_init(dir));
    tx = config(TX_TYPES);
    ASSERT_OK(aclprofStart(tx));
    stamp = aclprofCreateStamp();
    dead = aclprofCreateStamp();
    ASSERT(stamp != NULL && dead != NULL && stamp != dead);
    aclprofDestroyStamp(dead);
    /* SetStampTraceMessage: NULL message, msgLen >= 128 or a dead stamp -> -1. */
    memset(msg, 'm', sizeof(msg));
    msg[199] = '\0';
    ASSERT_FAILS_NAMING(aclprofSetStampTraceMessage(stamp, NULL, 0), TX_FAIL, "aclprofSetStampTraceMessage");
    ASSERT_RC(aclprofSetStampTraceMessage(stamp, msg, 128), TX_FAIL);
    ASSERT_RC(aclprofSetStampTraceMessage(stamp, msg, 199), TX_FAIL);
    ASSERT_RC(aclprofSetStampTraceMessage(NULL, "m", 1), TX_FAIL);
    ASSERT_RC(aclprofSetStampTraceMessage(dead, "m", 1), TX_FAIL);
    /* The order: the stamp, then msgLen, then msg (MsprofTxManager). */
    ASSERT_FAILS_WITH(aclprofSetStampTraceMessage(NULL, NULL, 200), TX_FAIL, "aclprofSetStampTraceMessage",
                      "'stamp'");
    ASSERT_FAILS_WITH(aclprofSetStampTraceMessage(stamp, NULL, 200), TX_FAIL, "aclprofSetStampTraceMessage",
                      "'msgLen'");
    ASSERT_FAILS_WITH(aclprofSetStampTraceMessage(stamp, NULL, 127), TX_FAIL, "aclprofSetStampTraceMessage",
                      "'msg'");
    ASSERT_OK(aclprofSetStampTraceMessage(stamp, msg, 127));
    ASSERT_OK(aclprofSetStampTraceMessage(stamp, "mark", 4));
    /* Mark: a dead or NULL stamp -> -1. */
    ASSERT_OK(aclprofMark(stamp));
    ASSERT_FAILS_NAMING(aclprofMark(dead), TX_FAIL, "aclprofMark");
    ASSERT_RC(aclprofMark(NULL), TX_FAIL);
    /* Push/Pop: NULL stamp -> 100000 (the one ACL code), a dead one or an empty Pop -> -1. */
    ASSERT_FAILS_NAMING(aclprofPop(), TX_FAIL, "aclprofPop");
    ASSERT_FAILS_NAMING(aclprofPush(NULL), ACL_ERROR_INVALID_PARAM, "aclprofPush");
    ASSERT_RC(aclprofPush(dead), TX_FAIL);
    ASSERT_RC(aclprofPop(), TX_FAIL); /* the failed pushes pushed nothing */
    ASSERT_OK(aclprofPush(stamp));
    ASSERT_OK(aclprofPush(stamp));
    ASSERT_OK(aclprofPop());
    ASSERT_OK(aclprofPop());
    ASSERT_RC(aclprofPop(), TX_FAIL);
    /* RangeStart/Stop: NULL stamp or id -> 100000; unknown or stopped id -> -1. */
    ASSERT_FAILS_NAMING(aclprofRangeStart(NULL, &id), ACL_ERROR_INVALID_PARAM, "aclprofRangeStart");
    ASSERT_RC(aclprofRangeStart(stamp, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofRangeStart(dead, &id), TX_FAIL);
    ASSERT_OK(aclprofRangeStart(stamp, &id));
    ASSERT_OK(aclprofRangeStart(stamp, &id2));
    ASSERT_NE(id, id2);
    ASSERT_FAILS_NAMING(aclprofRangeStop(id2 + id + 1000), TX_FAIL, "aclprofRangeStop");
    ASSERT_RC(aclprofRangeStop(0), TX_FAIL);
    ASSERT_RC(aclprofRangeStop(UINT32_MAX), TX_FAIL);
    ASSERT_OK(aclprofRangeStop(id)); /* out of order is fine */
    ASSERT_OK(aclprofRangeStop(id2));
    ASSERT_RC(aclprofRangeStop(id), TX_FAIL);
    aclprofDestroyStamp(stamp);
    ASSERT_RC(aclprofMark(stamp), TX_FAIL);
    aclprofDestroyStamp(stamp); /* a dead stamp is ignored */
    (void)aclGetRecentErrMsg();
    aclprofDestroyStamp(NULL); /* ignored, with a message naming the argument */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclprofDestroyStamp: argument 'stamp'");
    ASSERT_OK(aclprofStop(tx));
    ASSERT_OK(aclprofDestroyConfig(tx));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* Without a running msproftx profile: a NULL stamp to Push or RangeStart
 * is still 100000 (checked before the collector's state), the rest -1;
 * CreateStamp gives NULL. */
TEST(prof_api, tx_calls_without_a_profile_null_stamp_is_100000_else_minus_one)
{
    uint32_t id = 0;
    t_setup();
    ASSERT(aclprofCreateStamp() == NULL);
    ASSERT_FAILS_WITH(aclprofPush(NULL), ACL_ERROR_INVALID_PARAM, "aclprofPush", "'stamp'");
    ASSERT_FAILS_WITH(aclprofRangeStart(NULL, &id), ACL_ERROR_INVALID_PARAM, "aclprofRangeStart", "'stamp'");
    ASSERT_FAILS_WITH(aclprofRangeStart(BAD, NULL), ACL_ERROR_INVALID_PARAM, "aclprofRangeStart", "'rangeId'");
    ASSERT_FAILS_NAMING(aclprofPush(BAD), TX_FAIL, "aclprofPush");
    ASSERT_FAILS_NAMING(aclprofPop(), TX_FAIL, "aclprofPop");
    ASSERT_FAILS_NAMING(aclprofRangeStop(1), TX_FAIL, "aclprofRangeStop");
    ASSERT_FAILS_NAMING(aclprofMark(NULL), TX_FAIL, "aclprofMark");
    ASSERT_FAILS_NAMING(aclprofSetStampTraceMessage(BAD, "m", 1), TX_FAIL, "aclprofSetStampTraceMessage");
    t_teardown();
}

TEST(prof_api, mark_ex_checks)
{
    char dir[DIR_CAP], msg[200];
    aclprofConfig *tx;
    aclrtStream s = NULL;
    t_setup();
    make_dir(dir);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(prof_init(dir));
    tx = config(TX_TYPES);
    ASSERT_FAILS_NAMING(aclprofMarkEx("abc", 3, s), TX_FAIL, "aclprofMarkEx"); /* not running */
    /* Not running is checked first (MsprofTxManager::MarkEx), then the arguments. */
    ASSERT_FAILS_WITH(aclprofMarkEx(NULL, 0, NULL), TX_FAIL, "aclprofMarkEx", "msproftx is off");
    ASSERT_OK(aclprofStart(tx));
    memset(msg, 'x', sizeof(msg));
    msg[128] = '\0';
    ASSERT_FAILS_WITH(aclprofMarkEx(NULL, 0, NULL), TX_FAIL, "aclprofMarkEx", "'msg'");
    ASSERT_FAILS_WITH(aclprofMarkEx("abc", 3, NULL), TX_FAIL, "aclprofMarkEx", "'stream'");
    ASSERT_FAILS_NAMING(aclprofMarkEx(NULL, 3, s), TX_FAIL, "aclprofMarkEx");
    ASSERT_RC(aclprofMarkEx("abc", 3, NULL), TX_FAIL);
    ASSERT_RC(aclprofMarkEx("", 0, s), TX_FAIL);
    ASSERT_RC(aclprofMarkEx("abc", 0, s), TX_FAIL);
    ASSERT_RC(aclprofMarkEx("abc", 2, s), TX_FAIL); /* != strlen */
    ASSERT_RC(aclprofMarkEx("abc", 4, s), TX_FAIL);
    ASSERT_FAILS_WITH(aclprofMarkEx(msg, 128, s), TX_FAIL, "aclprofMarkEx", "1 to 127"); /* strlen matches */
    ASSERT_RC(aclprofMarkEx("abc", 3, BAD), TX_FAIL);
    ASSERT_OK(aclprofMarkEx("abc", 3, s));
    msg[127] = '\0';
    ASSERT_OK(aclprofMarkEx(msg, 127, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclprofStop(tx));
    ASSERT_OK(aclprofMarkEx("abc", 3, s)); /* stopped: msproftx is on until Finalize */
    ASSERT_RC(aclprofMarkEx("abc", 3, BAD), TX_FAIL);
    ASSERT_OK(aclprofDestroyConfig(tx));
    ASSERT_OK(aclprofFinalize());
    ASSERT_RC(aclprofMarkEx("abc", 3, s), TX_FAIL); /* finalized */
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(prof_api, range_push_ex_checks_attr_null_then_message_type_with_or_without_a_profile)
{
    char dir[DIR_CAP];
    aclprofConfig *tx;
    aclprofTensorInfo info;
    aclprofEventAttributes attr;
    uint64_t a = aclprofStr2Id("MatMul"), b = aclprofStr2Id("Add");
    ASSERT(a != UINT64_MAX && b != UINT64_MAX);
    ASSERT(a == aclprofStr2Id("MatMul"));
    ASSERT(a != b);
    ASSERT(aclprofStr2Id("MatMul2") != a);
    ASSERT(aclprofStr2Id(NULL) == UINT64_MAX);
    t_setup();
    make_dir(dir);
    memset(&info, 0, sizeof(info));
    memset(&attr, 0, sizeof(attr));
    attr.message.tensorInfo = &info;
    /* No profile runs: CANN keeps the attributes all the same (nothing is recorded). */
    ASSERT_OK(aclprofRangePushEx(&attr));
    ASSERT_OK(aclprofRangePop());
    ASSERT_FAILS_WITH(aclprofRangePushEx(NULL), ACL_ERROR_INVALID_PARAM, "aclprofRangePushEx", "'attr'");
    ASSERT_FAILS_NAMING(aclprofRangePop(), ACL_ERROR_INVALID_PARAM, "aclprofRangePop");
    attr.messageType = 1;
    ASSERT_FAILS_NAMING(aclprofRangePushEx(&attr), TX_FAIL, "aclprofRangePushEx");
    ASSERT_OK(prof_init(dir));
    tx = config(TX_TYPES);
    ASSERT_OK(aclprofStart(tx));
    ASSERT_RC(aclprofRangePushEx(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofRangePop(), ACL_ERROR_INVALID_PARAM);
    memset(&info, 0, sizeof(info));
    info.opNameId = a;
    info.opTypeId = a;
    memset(&attr, 0, sizeof(attr));
    attr.version = ACL_PROF_EVENT_ATTR_VERSION;
    attr.size = sizeof(attr);
    attr.messageType = ACL_PROF_MESSAGE_TYPE_TENSOR_INFO;
    attr.message.tensorInfo = &info;
    ASSERT_OK(aclprofRangePushEx(&attr));
    ASSERT_OK(aclprofRangePop());
    ASSERT_RC(aclprofRangePop(), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclprofStop(tx));
    ASSERT_OK(aclprofDestroyConfig(tx));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* Launches first_k then second_k on s and syncs: on one stream the second
 * starts after the first ended. */
static void launch_pair(aclrtStream s)
{
    launch_nop("prof_first_k", s);
    launch_nop("prof_second_k", s);
    ASSERT_OK(aclrtSynchronizeStream(s));
}

/* In the measured profile, the first kernel ended before the second began
 * (a range of an older profile ending later must not move its end). */
static void assert_pair_in_order(const char *dir)
{
    char *kd = out_read(dir, "kernel_details_measured.csv");
    double s1, d1, s2;
    ASSERT(kd != NULL);
    s1 = kernel_value(kd, "prof_first_k", "Start Time(us)");
    d1 = kernel_value(kd, "prof_first_k", "Duration(us)");
    s2 = kernel_value(kd, "prof_second_k", "Start Time(us)");
    free(kd);
    ASSERT(s1 >= 0 && d1 >= 0 && s2 >= 0);
    if (s1 + d1 > s2 + 0.01)
        test_fail(__FILE__, __LINE__, "the first kernel ends at %.3f us, after the second starts (%.3f us)", s1 + d1,
                  s2);
}

/* A RangePushEx of one profile popped during the next one ends nothing of
 * the new profile (regression: the entry number of the old range was
 * applied to the new profile, stretching its first kernel). */
TEST(prof_api, range_push_ex_does_not_reach_into_the_next_profile)
{
    char dir[DIR_CAP], dir2[DIR_CAP];
    aclprofTensorInfo info;
    aclprofEventAttributes attr;
    aclrtStream s = NULL;
    t_setup();
    make_dir(dir);
    make_dir(dir2);
    ASSERT_OK(aclrtCreateStream(&s));
    memset(&info, 0, sizeof(info));
    memset(&attr, 0, sizeof(attr));
    attr.messageType = ACL_PROF_MESSAGE_TYPE_TENSOR_INFO;
    attr.message.tensorInfo = &info;
    ASSERT_OK(prof_init(dir));
    ASSERT_OK(aclprofStart(NULL));
    ASSERT_OK(aclprofRangePushEx(&attr)); /* the profile's first entry */
    ASSERT_OK(aclprofStop(NULL));
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(prof_init(dir2));
    ASSERT_OK(aclprofStart(NULL));
    launch_pair(s); /* the first kernel is this profile's first entry */
    ASSERT_OK(aclprofRangePop()); /* pairs with the push: fine, but ends nothing here */
    ASSERT_OK(aclprofStop(NULL));
    assert_pair_in_order(dir2);
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The same for Push/Pop and RangeStart/Stop across a profile that
 * aclFinalize wrote: the ranges are gone with it. */
TEST(prof_api, ranges_do_not_outlive_a_profile_acl_finalize_wrote)
{
    char dir[DIR_CAP];
    void *stamp;
    uint32_t id = 0;
    aclrtStream s = NULL;
    t_setup();
    make_dir(dir);
    ASSERT_OK(prof_init(dir));
    ASSERT_OK(aclprofStart(NULL));
    stamp = aclprofCreateStamp();
    ASSERT(stamp != NULL);
    ASSERT_OK(aclprofPush(stamp));            /* entry 1 */
    ASSERT_OK(aclprofRangeStart(stamp, &id)); /* entry 2 */
    t_teardown();                             /* aclFinalize writes the profile */
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclprofStart(NULL)); /* initialises again under the last path: same directory */
    launch_pair(s);
    ASSERT_RC(aclprofPop(), TX_FAIL);
    ASSERT_RC(aclprofRangeStop(id), TX_FAIL);
    ASSERT_OK(aclprofStop(NULL));
    assert_pair_in_order(dir);
    aclprofDestroyStamp(stamp);
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Marks, ranges and stream markers show in trace_view.json by their text. */
TEST(prof_api, markers_appear_in_trace_view)
{
    char dir[DIR_CAP];
    aclprofConfig *tx;
    aclrtStream s = NULL;
    void *mark, *push, *range;
    uint32_t id = 0;
    t_setup();
    make_dir(dir);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(prof_init(dir));
    tx = config(TX_TYPES);
    ASSERT_OK(aclprofStart(tx));
    mark = aclprofCreateStamp();
    push = aclprofCreateStamp();
    range = aclprofCreateStamp();
    ASSERT(mark != NULL && push != NULL && range != NULL);
    ASSERT_OK(aclprofSetStampTraceMessage(mark, "tx-mark-7431", 12));
    ASSERT_OK(aclprofSetStampTraceMessage(push, "tx-push-2219", 12));
    ASSERT_OK(aclprofSetStampTraceMessage(range, "tx-range-5083", 13));
    ASSERT_OK(aclprofMark(mark));
    ASSERT_OK(aclprofPush(push));
    ASSERT_OK(aclprofRangeStart(range, &id));
    launch_nop("prof_tx_k", s);
    ASSERT_OK(aclprofMarkEx("mx-stream-9902", 14, s));
    ASSERT_OK(aclprofRangeStop(id));
    ASSERT_OK(aclprofPop());
    ASSERT_OK(aclrtSynchronizeStream(s));
    aclprofDestroyStamp(mark);
    aclprofDestroyStamp(push);
    aclprofDestroyStamp(range);
    ASSERT_OK(aclprofStop(tx));
    ASSERT(out_contains(dir, "trace_view.json", "tx-mark-7431"));
    ASSERT(out_contains(dir, "trace_view.json", "tx-push-2219"));
    ASSERT(out_contains(dir, "trace_view.json", "tx-range-5083"));
    ASSERT(out_contains(dir, "trace_view.json", "mx-stream-9902"));
    ASSERT(!out_contains(dir, "trace_view.json", "tx-never-shown"));
    ASSERT_OK(aclprofDestroyConfig(tx));
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- step markers ---------------------------------------------------------------------------------------- */

/* Checks in order: stepInfo NULL (or not live), tag, the tag marked
 * already; the tag is spent before the stream task is made, so a stream
 * failure (500002) leaves it spent, as in CANN's aclprofGetStepTimestamp. */
TEST(prof_api, step_checks_null_then_tag_then_repeat_and_a_failed_mark_spends_the_tag)
{
    aclprofStepInfo *si, *dead, *spent;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    si = aclprofCreateStepInfo();
    dead = aclprofCreateStepInfo();
    spent = aclprofCreateStepInfo();
    ASSERT(si != NULL && dead != NULL && spent != NULL);
    aclprofDestroyStepInfo(dead);
    ASSERT_FAILS_NAMING(aclprofGetStepTimestamp(NULL, ACL_STEP_START, s), ACL_ERROR_INVALID_PARAM,
                        "aclprofGetStepTimestamp");
    ASSERT_RC(aclprofGetStepTimestamp(dead, ACL_STEP_START, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofGetStepTimestamp(si, (aclprofStepTag)2, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofGetStepTimestamp(si, (aclprofStepTag)-1, s), ACL_ERROR_INVALID_PARAM);
    /* A bad stream is a failure of the layer below (500002, the stream's
     * error in the message); the tag is spent all the same. */
    ASSERT_RC(aclprofGetStepTimestamp(spent, ACL_STEP_START, BAD), ACL_ERROR_GE_FAILURE);
    {
        const char *msg = aclGetRecentErrMsg();
        ASSERT_STR_CONTAINS(msg, "aclprofGetStepTimestamp");
        ASSERT_STR_CONTAINS(msg, "107017");
    }
    ASSERT_RC(aclprofGetStepTimestamp(spent, ACL_STEP_START, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofGetStepTimestamp(spent, ACL_STEP_END, BAD), ACL_ERROR_GE_FAILURE);
    ASSERT_RC(aclprofGetStepTimestamp(spent, ACL_STEP_END, s), ACL_ERROR_INVALID_PARAM);
    aclprofDestroyStepInfo(spent);
    ASSERT_OK(aclprofGetStepTimestamp(si, ACL_STEP_START, s));
    ASSERT_FAILS_NAMING(aclprofGetStepTimestamp(si, ACL_STEP_START, s), ACL_ERROR_INVALID_PARAM,
                        "aclprofGetStepTimestamp");
    ASSERT_OK(aclprofGetStepTimestamp(si, ACL_STEP_END, NULL)); /* the default stream */
    ASSERT_RC(aclprofGetStepTimestamp(si, ACL_STEP_END, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofGetStepTimestamp(si, ACL_STEP_START, s), ACL_ERROR_INVALID_PARAM);
    aclprofDestroyStepInfo(si);
    ASSERT_RC(aclprofGetStepTimestamp(si, ACL_STEP_START, s), ACL_ERROR_INVALID_PARAM);
    aclprofDestroyStepInfo(si); /* a dead one is ignored */
    (void)aclGetRecentErrMsg();
    aclprofDestroyStepInfo(NULL); /* ignored, with a message naming the argument */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclprofDestroyStepInfo: argument 'stepinfo'");
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* With steps marked, kernel_details.csv gets a leading Step Id column and
 * step_trace_time.csv one row per step. */
TEST(prof_api, steps_in_the_profile)
{
    char dir[DIR_CAP];
    aclprofConfig *c;
    aclprofStepInfo *si[2];
    aclrtStream s = NULL;
    char *kd, *st, *line;
    t_setup();
    make_dir(dir);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(prof_init(dir));
    c = config(TYPES);
    ASSERT_OK(aclprofStart(c));
    for (int i = 0; i < 2; i++) {
        si[i] = aclprofCreateStepInfo();
        ASSERT(si[i] != NULL);
        ASSERT_OK(aclprofGetStepTimestamp(si[i], ACL_STEP_START, s));
        launch_nop(i == 0 ? "prof_step_a" : "prof_step_b", s);
        ASSERT_OK(aclprofGetStepTimestamp(si[i], ACL_STEP_END, s));
    }
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclprofStop(c));
    kd = out_read(dir, "kernel_details.csv");
    ASSERT(kd != NULL);
    ASSERT(strncmp(kd, "Step Id,Device_id,", 18) == 0);
    ASSERT_EQ(kernel_value(kd, "prof_step_a", "Step Id"), 1);
    ASSERT_EQ(kernel_value(kd, "prof_step_b", "Step Id"), 2);
    free(kd);
    st = out_read(dir, "step_trace_time.csv");
    ASSERT(st != NULL);
    ASSERT(csv_column(st, "Step") == 1);
    line = strchr(st, '\n');
    ASSERT(line != NULL && strncmp(line + 1, "0,1,", 4) == 0);
    line = strchr(line + 1, '\n');
    ASSERT(line != NULL && strncmp(line + 1, "0,2,", 4) == 0);
    line = strchr(line + 1, '\n');
    ASSERT(line != NULL && line[1] == '\0'); /* two rows */
    free(st);
    for (int i = 0; i < 2; i++)
        aclprofDestroyStepInfo(si[i]);
    ASSERT_OK(aclprofDestroyConfig(c));
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- model subscription --------------------------------------------------------------------------------- */

static _Atomic int runs;

static void k_count(void *args)
{
    (void)args;
    atomic_fetch_add(&runs, 1);
}

/* A one-lane model of two kernels named prof_sub_k. */
struct sub_model {
    aclmdlRI m;
    aclrtStream s, exec;
    uint32_t id;
};

static void model_build(struct sub_model *o)
{
    int arg = 0;
    ASSERT_OK(aclrtCreateStreamWithConfig(&o->s, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateStream(&o->exec));
    ASSERT_OK(aclmdlRIBuildBegin(&o->m, 0));
    ASSERT_OK(aclmdlRIBindStream(o->m, o->s, ACL_MODEL_STREAM_FLAG_HEAD));
    for (int i = 0; i < 2; i++)
        ASSERT_OK(aclrtLaunchKernel(t_kernel("prof_sub_k", k_count), 1, &arg, sizeof(arg), o->s));
    ASSERT_OK(aclmdlRIEndTask(o->m, o->s));
    ASSERT_OK(aclmdlRIBuildEnd(o->m, NULL));
    ASSERT_OK(aclmdlRIGetId(o->m, &o->id));
}

static void model_free(struct sub_model *o)
{
    ASSERT_OK(aclmdlRIUnbindStream(o->m, o->s));
    ASSERT_OK(aclmdlRIDestroy(o->m));
    ASSERT_OK(aclrtDestroyStream(o->s));
    ASSERT_OK(aclrtDestroyStream(o->exec));
}

TEST(prof_api, subscribe_config_checks_fd_then_time_switch)
{
    int fds[2];
    aclprofSubscribeConfig *c0, *c1;
    t_setup();
    ASSERT(pipe(fds) == 0);
    (void)aclGetRecentErrMsg();
    ASSERT(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, NULL) == NULL);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclprofCreateSubscribeConfig:");
    /* fd is checked before timeInfoSwitch. */
    ASSERT(aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, NULL) == NULL);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'fd'");
    ASSERT(aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &fds[1]) == NULL);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'timeInfoSwitch'");
    ASSERT(aclprofCreateSubscribeConfig(-1, ACL_AICORE_NONE, &fds[1]) == NULL);
    c0 = aclprofCreateSubscribeConfig(0, ACL_AICORE_NONE, &fds[1]);
    c1 = aclprofCreateSubscribeConfig(1, ACL_AICORE_PIPE_UTILIZATION, &fds[1]);
    ASSERT(c0 != NULL && c1 != NULL);
    ASSERT_FAILS_NAMING(aclprofDestroySubscribeConfig(NULL), ACL_ERROR_INVALID_PARAM,
                        "aclprofDestroySubscribeConfig");
    ASSERT_OK(aclprofDestroySubscribeConfig(c0));
    ASSERT_RC(aclprofDestroySubscribeConfig(c0), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclprofDestroySubscribeConfig(c1));
    close(fds[0]);
    close(fds[1]);
    t_teardown();
}

/* aclprofModelSubscribe: modelId, then config NULL / not live, then the
 * mode (collection: 148047), then a repeat; aclprofModelUnSubscribe:
 * modelId loaded, the mode, then subscribed (ProfModelSubscribe,
 * ProfSubscribePrecheck, PrepareStopAclSubscribe). */
TEST(prof_api, subscribe_checks_model_then_config_then_mode_then_repeat)
{
    static struct sub_model a, b;
    char dir[DIR_CAP];
    int fds[2], fds2[2];
    aclprofSubscribeConfig *c, *dead, *differs, *nothing;
    aclmdlRI building = NULL;
    uint32_t building_id = 0;
    t_setup();
    make_dir(dir);
    ASSERT(pipe(fds) == 0);
    ASSERT(pipe(fds2) == 0);
    model_build(&a);
    model_build(&b);
    ASSERT_NE(a.id, b.id);
    c = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
    dead = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
    differs = aclprofCreateSubscribeConfig(0, ACL_AICORE_PIPE_UTILIZATION, &fds2[1]);
    nothing = aclprofCreateSubscribeConfig(0, ACL_AICORE_NONE, &fds2[1]);
    ASSERT(c != NULL && dead != NULL && differs != NULL && nothing != NULL);
    ASSERT_OK(aclprofDestroySubscribeConfig(dead));
    ASSERT_FAILS_NAMING(aclprofModelSubscribe(a.id + b.id + 1000, c), ACL_ERROR_INVALID_MODEL_ID,
                        "aclprofModelSubscribe");
    ASSERT_OK(aclmdlRIBuildBegin(&building, 0)); /* not built: not a model that can run */
    ASSERT_OK(aclmdlRIGetId(building, &building_id));
    ASSERT_RC(aclprofModelSubscribe(building_id, c), ACL_ERROR_INVALID_MODEL_ID);
    ASSERT_FAILS_NAMING(aclprofModelSubscribe(a.id, NULL), ACL_ERROR_INVALID_PARAM, "aclprofModelSubscribe");
    ASSERT_RC(aclprofModelSubscribe(a.id, dead), ACL_ERROR_INVALID_PARAM);
    ASSERT_FAILS_NAMING(aclprofModelUnSubscribe(a.id), ACL_ERROR_INVALID_MODEL_ID, "aclprofModelUnSubscribe");
    /* No time info and no metrics: nothing to receive (CheckSubscribeConfig). */
    ASSERT_FAILS_WITH(aclprofModelSubscribe(a.id, nothing), ACL_ERROR_INVALID_PARAM, "aclprofModelSubscribe",
                      "timeInfoSwitch");
    ASSERT_OK(aclprofModelSubscribe(a.id, c));
    ASSERT_FAILS_NAMING(aclprofModelSubscribe(a.id, c), ACL_ERROR_PROF_REPEAT_SUBSCRIBE, "aclprofModelSubscribe");
    ASSERT_RC(aclprofModelSubscribe(a.id, nothing), ACL_ERROR_INVALID_PARAM); /* checked before the repeat */
    /* Every subscribed model uses the same subscribe config. */
    ASSERT_RC(aclprofModelSubscribe(b.id, differs), ACL_ERROR_INVALID_PROFILING_CONFIG);
    /* Subscribed: collection is refused (Start does not initialise). */
    ASSERT_FAILS_NAMING(prof_init(dir), ACL_ERROR_PROF_API_CONFLICT, "aclprofInit");
    ASSERT_FAILS_NAMING(aclprofStart(NULL), ACL_ERROR_PROF_API_CONFLICT, "aclprofStart");
    ASSERT_FAILS_NAMING(aclprofStop(NULL), ACL_ERROR_PROF_API_CONFLICT, "aclprofStop");
    ASSERT_FAILS_NAMING(aclprofFinalize(), ACL_ERROR_PROF_API_CONFLICT, "aclprofFinalize");
    ASSERT_OK(aclprofModelUnSubscribe(a.id)); /* closes fds[1] */
    ASSERT_RC(aclprofModelUnSubscribe(a.id), ACL_ERROR_INVALID_MODEL_ID);
    ASSERT_RC(aclprofModelUnSubscribe(a.id + b.id + 1000), ACL_ERROR_INVALID_MODEL_ID);
    /* Collecting (aclprofInit .. aclprofFinalize): subscription is refused
     * after the model and config checks; the getters only read the
     * caller's buffer and work as ever. */
    ASSERT_OK(prof_init(dir));
    ASSERT_RC(aclprofModelSubscribe(a.id + b.id + 1000, c), ACL_ERROR_INVALID_MODEL_ID);
    ASSERT_RC(aclprofModelSubscribe(b.id, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_FAILS_NAMING(aclprofModelSubscribe(b.id, c), ACL_ERROR_PROF_API_CONFLICT, "aclprofModelSubscribe");
    ASSERT_RC(aclprofModelUnSubscribe(a.id + b.id + 1000), ACL_ERROR_INVALID_MODEL_ID);
    ASSERT_FAILS_NAMING(aclprofModelUnSubscribe(b.id), ACL_ERROR_PROF_API_CONFLICT, "aclprofModelUnSubscribe");
    {
        size_t size = 0;
        uint32_t nops;
        unsigned char rec[80];
        memset(rec, 0xab, sizeof(rec));
        ASSERT_OK(aclprofGetOpDescSize(&size));
        ASSERT_EQ(size, sizeof(rec));
        ASSERT_FAILS_WITH(aclprofGetOpNum(rec, sizeof(rec), &nops), ACL_ERROR_INVALID_PARAM, "aclprofGetOpNum",
                          "signature");
    }
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(aclprofModelSubscribe(b.id, differs)); /* nothing subscribed now: any config */
    ASSERT_OK(aclprofModelUnSubscribe(b.id)); /* closes fds2[1] */
    ASSERT_OK(aclprofDestroySubscribeConfig(c));
    ASSERT_OK(aclprofDestroySubscribeConfig(differs));
    ASSERT_OK(aclprofDestroySubscribeConfig(nothing));
    ASSERT_OK(aclmdlRIDestroy(building));
    model_free(&a);
    model_free(&b);
    close(fds[0]);
    close(fds2[0]);
    t_teardown();
}

/* Reads what is in the pipe now (the read end is non-blocking). */
static size_t drain(int fd, unsigned char *buf, size_t cap)
{
    size_t got = 0;
    ssize_t n;
    while (got < cap && (n = read(fd, buf + got, cap - got)) > 0)
        got += (size_t)n;
    return got;
}

TEST(prof_api, subscribe_end_to_end)
{
    static struct sub_model o;
    static unsigned char buf[4096], bad[256];
    int fds[2];
    aclprofSubscribeConfig *c;
    size_t desc = 0, len, n;
    uint32_t num = 0;
    char name[64];
    const char *tid;
    t_setup();
    ASSERT(pipe(fds) == 0);
    ASSERT(fcntl(fds[0], F_SETFL, O_NONBLOCK) == 0);
    ASSERT_FAILS_NAMING(aclprofGetOpDescSize(NULL), ACL_ERROR_INVALID_PARAM, "aclprofGetOpDescSize");
    ASSERT_OK(aclprofGetOpDescSize(&desc));
    ASSERT_EQ(desc, 80);
    model_build(&o);
    c = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
    ASSERT(c != NULL);
    ASSERT_OK(aclprofModelSubscribe(o.id, c));
    ASSERT_OK(aclmdlRIExecuteAsync(o.m, o.exec));
    ASSERT_OK(aclmdlRIExecuteAsync(o.m, o.exec));
    ASSERT_OK(aclrtSynchronizeStream(o.exec));
    ASSERT_EQ(atomic_load(&runs), 4);
    len = drain(fds[0], buf, sizeof(buf));
    ASSERT_EQ(len, 4 * desc); /* one record per kernel of each run, written by the time the run ends */
    ASSERT_OK(aclprofModelUnSubscribe(o.id));
    ASSERT_EQ(read(fds[0], buf + len, 1), 0); /* UnSubscribe closed the write end */
    /* Unsubscribed: a run writes nothing (the pipe is closed; no crash). */
    ASSERT_OK(aclmdlRIExecuteAsync(o.m, o.exec));
    ASSERT_OK(aclrtSynchronizeStream(o.exec));

    ASSERT_OK(aclprofGetOpNum(buf, len, &num));
    ASSERT_EQ(num, 4);
    for (uint32_t i = 0; i < num; i++) {
        uint64_t s = aclprofGetOpStart(buf, len, i), e = aclprofGetOpEnd(buf, len, i);
        ASSERT(s > 0 && s <= e);
        ASSERT_EQ(aclprofGetOpDuration(buf, len, i), e - s);
        ASSERT_EQ(aclprofGetModelId(buf, len, i), o.id);
        ASSERT_EQ(aclprofGetOpFlag(buf, len, i), ACL_SUBSCRIBE_OP);
        /* The thread id belongs to ACL_SUBSCRIBE_OP_THREAD records only. */
        tid = aclprofGetOpAttriValue(buf, len, i, ACL_SUBSCRIBE_ATTRI_THREADID);
        ASSERT(tid == NULL);
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclprofGetOpAttriValue:");
        ASSERT(aclprofGetOpAttriValue(buf, len, i, ACL_SUBSCRIBE_ATTRI_NONE) == NULL);
        /* Name and type: the length counts the NUL; each string is given once. */
        ASSERT_OK(aclprofGetOpNameLen(buf, len, i, &n));
        ASSERT_EQ(n, strlen("prof_sub_k") + 1);
        /* Boundaries: two short is refused (and spends nothing); one short
         * (no room for the NUL) is taken, cut by the last character. */
        ASSERT_FAILS_WITH(aclprofGetOpName(buf, len, i, name, n - 2), ACL_ERROR_INVALID_PARAM, "aclprofGetOpName",
                          "'opNameLen'");
        ASSERT_RC(aclprofGetOpName(buf, len, i, name, 0), ACL_ERROR_INVALID_PARAM);
        ASSERT_RC(aclprofGetOpName(buf, len, i, NULL, n), ACL_ERROR_INVALID_PARAM);
        if (i == 0) {
            ASSERT_OK(aclprofGetOpName(buf, len, i, name, n));
            ASSERT(strcmp(name, "prof_sub_k") == 0);
        } else {
            memset(name, 'z', sizeof(name));
            ASSERT_OK(aclprofGetOpName(buf, len, i, name, n - 1));
            ASSERT(strcmp(name, "prof_sub_") == 0);
        }
        ASSERT_FAILS_NAMING(aclprofGetOpNameLen(buf, len, i, &n), ACL_ERROR_INVALID_PARAM, "aclprofGetOpNameLen");
        ASSERT_RC(aclprofGetOpName(buf, len, i, name, sizeof(name)), ACL_ERROR_INVALID_PARAM);
        ASSERT_OK(aclprofGetOpTypeLen(buf, len, i, &n));
        ASSERT(n >= 2 && n <= sizeof(name));
        memset(name, 0, sizeof(name));
        ASSERT_OK(aclprofGetOpType(buf, len, i, name, n));
        ASSERT_EQ(strlen(name), n - 1);
        ASSERT_RC(aclprofGetOpTypeLen(buf, len, i, &n), ACL_ERROR_INVALID_PARAM);
        ASSERT_FAILS_NAMING(aclprofGetOpType(buf, len, i, name, sizeof(name)), ACL_ERROR_INVALID_PARAM,
                            "aclprofGetOpType");
    }
    /* Two kernels of one run follow each other on the lane. */
    ASSERT(aclprofGetOpEnd(buf, len, 0) <= aclprofGetOpStart(buf, len, 1));

    /* The error rows: NULL buffer, a length not a multiple of 80, an index
     * past the end; 100000 or 0 / the code / ACL_SUBSCRIBE_NONE / NULL. */
    ASSERT_FAILS_NAMING(aclprofGetOpNum(NULL, len, &num), ACL_ERROR_INVALID_PARAM, "aclprofGetOpNum");
    ASSERT_RC(aclprofGetOpNum(buf, len - 1, &num), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofGetOpNum(buf, 79, &num), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofGetOpNum(buf, len + 8, &num), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofGetOpNum(buf, 40, &num), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofGetOpNum(buf, len, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofGetOpNameLen(NULL, len, 0, &n), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofGetOpNameLen(buf, len + 40, 0, &n), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofGetOpTypeLen(buf, len, num, &n), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofGetOpName(buf, len, num, name, sizeof(name)), ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclprofGetOpStart(NULL, len, 0), 0);
    ASSERT_EQ(aclprofGetOpStart(buf, len - 1, 0), 0);
    ASSERT_EQ(aclprofGetOpStart(buf, len, num), 0);
    ASSERT_EQ(aclprofGetOpEnd(buf, len, num), 0);
    ASSERT_EQ(aclprofGetOpDuration(buf, len, num), 0);
    ASSERT_EQ(aclprofGetOpEnd(buf, 79, 0), 0);
    ASSERT_EQ(aclprofGetOpStart(buf, len + 40, 0), 0);
    /* The length, not what lies after it, bounds the index: record 3 is valid, but past 3 * 80 bytes. */
    ASSERT_EQ(aclprofGetOpStart(buf, 3 * desc, 3), 0);
    /* GetOpFlag does not check the buffer: an index past the end reads 0
     * (ACL_SUBSCRIBE_OP), as CANN's parser answers; NULL reads NONE. */
    ASSERT_EQ(aclprofGetOpFlag(buf, 3 * desc, 3), 0);
    ASSERT_EQ(aclprofGetModelId(buf, 3 * desc, 3), (size_t)ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclprofGetModelId(buf, len, num), (size_t)ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclprofGetModelId(NULL, len, 0), (size_t)ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclprofGetOpFlag(buf, len, num), 0);
    ASSERT_EQ(aclprofGetOpFlag(buf, len - 1, num - 1), ACL_SUBSCRIBE_OP); /* no length check */
    ASSERT_EQ(aclprofGetOpFlag(NULL, len, 0), ACL_SUBSCRIBE_NONE);
    ASSERT(aclprofGetOpAttriValue(buf, len, num, ACL_SUBSCRIBE_ATTRI_THREADID) == NULL);
    ASSERT(aclprofGetOpAttriValue(buf, 81, 0, ACL_SUBSCRIBE_ATTRI_THREADID) == NULL);
    (void)aclGetRecentErrMsg();
    ASSERT_EQ(aclprofGetOpStart(buf, len, num), 0);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclprofGetOpStart:");

    /* A corrupted record (one byte of its start time flipped): the
     * signature does not match, and every getter that checks the buffer
     * refuses the whole buffer (CANN checks every record). */
    memcpy(bad, buf, 2 * desc);
    ASSERT(aclprofGetOpStart(bad, 2 * desc, 0) != 0);
    bad[32] ^= 0x01;
    ASSERT_EQ(aclprofGetOpStart(bad, 2 * desc, 0), 0);
    ASSERT_EQ(aclprofGetOpEnd(bad, 2 * desc, 0), 0);
    ASSERT_EQ(aclprofGetOpDuration(bad, 2 * desc, 0), 0);
    ASSERT_EQ(aclprofGetModelId(bad, 2 * desc, 0), (size_t)ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclprofGetOpFlag(bad, 2 * desc, 0), ACL_SUBSCRIBE_OP); /* no signature check */
    ASSERT(aclprofGetOpAttriValue(bad, 2 * desc, 0, ACL_SUBSCRIBE_ATTRI_THREADID) == NULL);
    ASSERT_FAILS_NAMING(aclprofGetOpNameLen(bad, 2 * desc, 0, &n), ACL_ERROR_INVALID_PARAM,
                        "aclprofGetOpNameLen");
    ASSERT_FAILS_NAMING(aclprofGetOpNum(bad, 2 * desc, &num), ACL_ERROR_INVALID_PARAM, "aclprofGetOpNum");
    ASSERT_EQ(aclprofGetOpStart(bad, 2 * desc, 1), 0); /* record 1 is intact, record 0 spoils the buffer */
    ASSERT(aclprofGetOpStart(bad + desc, desc, 0) != 0); /* alone it is fine */
    memcpy(bad, buf, desc);
    bad[4] ^= 0x80; /* the model id */
    ASSERT_EQ(aclprofGetModelId(bad, desc, 0), (size_t)ACL_ERROR_INVALID_PARAM);

    ASSERT_OK(aclprofDestroySubscribeConfig(c));
    model_free(&o);
    close(fds[0]);
    t_teardown();
}

/* ---- aclrtCmoAsync ----------------------------------------------------------------------------------------- */

TEST(prof_api, cmo_async_checks)
{
    void *p = NULL;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_FAILS_NAMING(aclrtCmoAsync(NULL, 64, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_INVALID_PARAM,
                        "aclrtCmoAsync");
    ASSERT_FAILS_NAMING(aclrtCmoAsync(p, 0, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_INVALID_PARAM, "aclrtCmoAsync");
    ASSERT_RC(aclrtCmoAsync(NULL, 0, (aclrtCmoType)9, BAD), ACL_ERROR_INVALID_PARAM); /* acl checks first */
    ASSERT_FAILS_NAMING(aclrtCmoAsync(p, 64, ACL_RT_CMO_TYPE_PREFETCH, BAD), ACL_ERROR_RT_INVALID_HANDLE,
                        "aclrtCmoAsync");
    ASSERT_FAILS_NAMING(aclrtCmoAsync(p, 64, (aclrtCmoType)4, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtCmoAsync");
    ASSERT_RC(aclrtCmoAsync(p, 64, (aclrtCmoType)-1, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtCmoAsync(p, 4096, ACL_RT_CMO_TYPE_PREFETCH, s));
    ASSERT_OK(aclrtCmoAsync(p, 64, ACL_RT_CMO_TYPE_WRITEBACK, s));
    ASSERT_OK(aclrtCmoAsync(p, 64, ACL_RT_CMO_TYPE_INVALID, s));
    ASSERT_OK(aclrtCmoAsync(p, 64, ACL_RT_CMO_TYPE_FLUSH, s));
    ASSERT_OK(aclrtCmoAsync(p, 64, ACL_RT_CMO_TYPE_PREFETCH, NULL)); /* the default stream */
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclrtFree(p));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A CMO while a profile runs is one of its tasks (and does not disturb the
 * kernels around it). */
TEST(prof_api, cmo_async_while_profiling)
{
    char dir[DIR_CAP];
    void *p = NULL;
    aclrtStream s = NULL;
    t_setup();
    make_dir(dir);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc(&p, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(prof_init(dir));
    ASSERT_OK(aclprofStart(NULL));
    ASSERT_OK(aclrtCmoAsync(p, 1 << 20, ACL_RT_CMO_TYPE_PREFETCH, s));
    launch_nop("prof_after_cmo", s);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclprofStop(NULL));
    ASSERT(out_contains(dir, "kernel_details.csv", "prof_after_cmo"));
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(aclrtFree(p));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A CMO task keeps its own fields (not a memset's): its type names it in
 * the profile. */
TEST(prof_api, cmo_type_names_its_task_in_the_trace)
{
    char dir[DIR_CAP];
    void *p = NULL;
    aclrtStream s = NULL;
    t_setup();
    make_dir(dir);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(prof_init(dir));
    ASSERT_OK(aclprofStart(NULL));
    ASSERT_OK(aclrtCmoAsync(p, 4096, ACL_RT_CMO_TYPE_WRITEBACK, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclprofStop(NULL));
    ASSERT(out_contains(dir, "trace_view.json", "\"name\":\"CMO_WRITEBACK\""));
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(aclrtFree(p));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(prof_api, cmo_async_unsupported_soc)
{
    void *p = NULL;
    aclrtStream s = NULL;
    ASSERT(setenv("ACLCPU_SOC", "Ascend310P3", 1) == 0);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_RC(aclrtCmoAsync(NULL, 64, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_INVALID_PARAM); /* acl first */
    ASSERT_FAILS_NAMING(aclrtCmoAsync(p, 64, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "aclrtCmoAsync");
    ASSERT_RC(aclrtCmoAsync(p, 64, ACL_RT_CMO_TYPE_FLUSH, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtFree(p));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- aclcpuSetKernelCost ----------------------------------------------------------------------------------- */

TEST(prof_api, set_kernel_cost_checks)
{
    const char *lib = ACLCPU_BUILD_DIR "/libaclcpu.so";
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle h, stale = NULL;
    aclcpuKernelCost c, good = {1.0, 100.0, 1000, 0, {0}, 2.0};
    t_setup();
    h = t_kernel("prof_cost_k", k_nop);
    ASSERT_OK(aclrtBinaryLoadFromFile(lib, NULL, &bin));
    ASSERT_OK(aclrtBinaryGetFunction(bin, "aclcpuGetBlockIdx", &stale));
    ASSERT_OK(aclcpuSetKernelCost(stale, &good)); /* alive: fine */
    ASSERT_OK(aclrtBinaryUnLoad(bin));
    ASSERT_FAILS_NAMING(aclcpuSetKernelCost(NULL, &good), ACL_ERROR_INVALID_PARAM, "aclcpuSetKernelCost");
    ASSERT_RC(aclcpuSetKernelCost(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_FAILS_NAMING(aclcpuSetKernelCost(stale, &good), ACL_ERROR_RT_INVALID_HANDLE, "aclcpuSetKernelCost");
    ASSERT_RC(aclcpuSetKernelCost(stale, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclcpuSetKernelCost((aclrtFuncHandle)BAD, &good), ACL_ERROR_RT_INVALID_HANDLE);
    c = good;
    c.usFixed = -1;
    ASSERT_FAILS_NAMING(aclcpuSetKernelCost(h, &c), ACL_ERROR_INVALID_PARAM, "aclcpuSetKernelCost");
    c = good;
    c.usTotal = -0.5;
    ASSERT_RC(aclcpuSetKernelCost(h, &c), ACL_ERROR_INVALID_PARAM);
    c = good;
    c.usFixed = NAN;
    ASSERT_RC(aclcpuSetKernelCost(h, &c), ACL_ERROR_INVALID_PARAM);
    c = good;
    c.usTotal = NAN;
    ASSERT_RC(aclcpuSetKernelCost(h, &c), ACL_ERROR_INVALID_PARAM);
    c = good;
    c.usFixed = INFINITY;
    ASSERT_RC(aclcpuSetKernelCost(h, &c), ACL_ERROR_INVALID_PARAM);
    c = good;
    c.usTotal = -INFINITY;
    ASSERT_RC(aclcpuSetKernelCost(h, &c), ACL_ERROR_INVALID_PARAM);
    c = good;
    c.usLaunch = -1e-9;
    ASSERT_RC(aclcpuSetKernelCost(h, &c), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "cost->usLaunch (-1e-09)");
    c = good;
    c.usLaunch = NAN;
    ASSERT_RC(aclcpuSetKernelCost(h, &c), ACL_ERROR_INVALID_PARAM);
    c = good;
    c.usLaunch = 0; /* the boundary: no launch cost */
    ASSERT_OK(aclcpuSetKernelCost(h, &c));
    c = good;
    c.mix = 2;
    ASSERT_RC(aclcpuSetKernelCost(h, &c), ACL_ERROR_INVALID_PARAM);
    c = good;
    c.reserved[0] = 1;
    ASSERT_RC(aclcpuSetKernelCost(h, &c), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclcpuSetKernelCost(h, &good));
    c = good;
    c.mix = 1;
    c.usFixed = 0;
    c.usTotal = 0;
    c.hbmBytes = 0;
    ASSERT_OK(aclcpuSetKernelCost(h, &c));
    ASSERT_OK(aclcpuSetKernelCost(h, NULL));
    t_teardown();
}

/* A declared cost is the kernel's modelled time; NULL goes back to the
 * measured time (here a few us, far below the declared 10 s). */
TEST(prof_api, kernel_cost_shows_in_the_profile)
{
    char dir[DIR_CAP];
    aclcpuKernelCost cost = {10e6, 0, 0, 0, {0}, 0};
    aclrtFuncHandle declared, reset;
    aclrtStream s = NULL;
    char *kd;
    int arg = 0;
    t_setup();
    make_dir(dir);
    ASSERT_OK(aclrtCreateStream(&s));
    declared = t_kernel("prof_cost_declared", k_nop);
    reset = t_kernel("prof_cost_reset", k_nop);
    ASSERT_OK(aclcpuSetKernelCost(declared, &cost));
    ASSERT_OK(aclcpuSetKernelCost(reset, &cost));
    ASSERT_OK(aclcpuSetKernelCost(reset, NULL));
    ASSERT_OK(prof_init(dir));
    ASSERT_OK(aclprofStart(NULL));
    ASSERT_OK(aclrtLaunchKernel(declared, 1, &arg, sizeof(arg), s));
    ASSERT_OK(aclrtLaunchKernel(reset, 1, &arg, sizeof(arg), s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclprofStop(NULL));
    kd = out_read(dir, "kernel_details.csv");
    ASSERT(kd != NULL);
    ASSERT(kernel_value(kd, "prof_cost_declared", "Duration(us)") >= 10e6 - 1);
    ASSERT(kernel_value(kd, "prof_cost_reset", "Duration(us)") >= 0);
    ASSERT(kernel_value(kd, "prof_cost_reset", "Duration(us)") < 1e6);
    free(kd);
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A model destroyed while subscribed takes its subscription with it: the
 * pipe reaches its end and collection is allowed again. */
TEST(prof_api, destroying_a_subscribed_model_ends_its_subscription)
{
    static struct sub_model a;
    char dir[DIR_CAP], byte;
    int fds[2];
    aclprofSubscribeConfig *c;
    t_setup();
    make_dir(dir);
    ASSERT(pipe(fds) == 0);
    model_build(&a);
    c = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
    ASSERT(c != NULL);
    ASSERT_OK(aclprofModelSubscribe(a.id, c));
    ASSERT_RC(prof_init(dir), ACL_ERROR_PROF_API_CONFLICT);
    model_free(&a);
    ASSERT_EQ(read(fds[0], &byte, 1), 0); /* end of the pipe: its write end was closed */
    ASSERT_RC(aclprofModelUnSubscribe(a.id), ACL_ERROR_INVALID_MODEL_ID);
    ASSERT_OK(prof_init(dir));
    ASSERT_OK(aclprofFinalize());
    ASSERT_OK(aclprofDestroySubscribeConfig(c));
    close(fds[0]);
    t_teardown();
}

TEST(prof_api, init_refused_in_dynamic_profiling_mode)
{
    char dir[DIR_CAP];
    setenv("PROFILING_MODE", "dynamic", 1);
    t_setup();
    make_dir(dir);
    ASSERT_FAILS_NAMING(prof_init(dir), ACL_ERROR_FEATURE_UNSUPPORTED, "aclprofInit");
    ASSERT_RC(aclprofInit(NULL, 0), ACL_ERROR_FEATURE_UNSUPPORTED); /* the mode is checked before the arguments */
    setenv("PROFILING_MODE", "off", 1);
    ASSERT_OK(prof_init(dir));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* Every subscribed model shares one config, both of its halves: with a
 * model subscribed for time info and pipe utilisation, a second that
 * differs only in its metrics, or only in its time switch, is refused
 * (148046); the same config is taken. */
TEST(prof_api, a_second_subscription_must_match_both_time_switch_and_metrics)
{
    static struct sub_model a, b;
    int fds[2];
    aclprofSubscribeConfig *c, *other_metrics, *other_time;
    t_setup();
    ASSERT(pipe(fds) == 0);
    model_build(&a);
    model_build(&b);
    c = aclprofCreateSubscribeConfig(1, ACL_AICORE_PIPE_UTILIZATION, &fds[1]);
    other_metrics = aclprofCreateSubscribeConfig(1, ACL_AICORE_MEMORY_BANDWIDTH, &fds[1]);
    other_time = aclprofCreateSubscribeConfig(0, ACL_AICORE_PIPE_UTILIZATION, &fds[1]);
    ASSERT(c != NULL && other_metrics != NULL && other_time != NULL);
    ASSERT_OK(aclprofModelSubscribe(a.id, c));
    ASSERT_FAILS_NAMING(aclprofModelSubscribe(b.id, other_metrics), ACL_ERROR_INVALID_PROFILING_CONFIG,
                        "aclprofModelSubscribe");
    ASSERT_RC(aclprofModelSubscribe(b.id, other_time), ACL_ERROR_INVALID_PROFILING_CONFIG);
    ASSERT_OK(aclprofModelSubscribe(b.id, c));
    ASSERT_OK(aclprofModelUnSubscribe(a.id));
    ASSERT_OK(aclprofModelUnSubscribe(b.id));
    ASSERT_OK(aclprofDestroySubscribeConfig(c));
    ASSERT_OK(aclprofDestroySubscribeConfig(other_metrics));
    ASSERT_OK(aclprofDestroySubscribeConfig(other_time));
    model_free(&a);
    model_free(&b);
    close(fds[0]);
    t_teardown();
}

/* The subscription table holds 256 models: the 256th subscribes, the 257th
 * is refused (507899), and an unsubscribe makes room for it. */
TEST(prof_api, subscription_table_holds_256_models)
{
    enum { N = 257 };
    static struct sub_model m[N];
    int fds[2];
    aclprofSubscribeConfig *c;
    t_setup();
    ASSERT(pipe(fds) == 0);
    c = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
    ASSERT(c != NULL);
    for (int i = 0; i < N; i++)
        model_build(&m[i]);
    for (int i = 0; i < N - 1; i++)
        ASSERT_OK(aclprofModelSubscribe(m[i].id, c));
    ASSERT_RC(aclprofModelSubscribe(m[N - 1].id, c), ACL_ERROR_PROFILING_FAILURE);
    ASSERT_OK(aclprofModelUnSubscribe(m[0].id));
    ASSERT_OK(aclprofModelSubscribe(m[N - 1].id, c));
    for (int i = 1; i < N; i++)
        ASSERT_OK(aclprofModelUnSubscribe(m[i].id));
    ASSERT_OK(aclprofDestroySubscribeConfig(c));
    for (int i = 0; i < N; i++)
        model_free(&m[i]);
    close(fds[0]);
    t_teardown();
}

/* mstx (include/mstx/ms_tools_ext.h) with no profiling tool attached, as
 * CANN's forwarding layer behaves then (prof_mstx_plugin.cpp): a range
 * start answers MSTX_INVALID_RANGE_ID, a domain create NULL, and marks,
 * range ends and domain calls on NULL do nothing. */
TEST(prof_api, mstx_calls_without_a_tool_answer_invalid_range_and_null_domain)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    mstxDomainHandle_t d = mstxDomainCreateA("inner");
    ASSERT(d == NULL);
    mstxMarkA("mark", s);
    mstxMarkA("host mark", NULL);
    mstxRangeId r = mstxRangeStartA("range", s);
    ASSERT_EQ(r, (mstxRangeId)MSTX_INVALID_RANGE_ID);
    mstxRangeEnd(r);
    mstxDomainMarkA(d, "domain mark", s);
    mstxRangeId dr = mstxDomainRangeStartA(d, "domain range", s);
    ASSERT_EQ(dr, (mstxRangeId)MSTX_INVALID_RANGE_ID);
    mstxDomainRangeEnd(d, dr);
    mstxDomainDestroy(d);
    ASSERT_EQ(sizeof(mstxRangeId), (size_t)8);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* MsprofSetDeviceIdByGeModelIdx registers a model only on a device there
 * is: with 2 devices, device 1 (the last) is taken and device 2 (the
 * count) is -1. */
TEST(prof_api, a_loader_registers_a_model_only_on_a_device_that_exists)
{
    ASSERT(setenv("ACLCPU_DEVICE_COUNT", "2", 1) == 0);
    t_setup();
    ASSERT_EQ(MsprofSetDeviceIdByGeModelIdx(70001, 2), -1);
    ASSERT_EQ(MsprofSetDeviceIdByGeModelIdx(70001, 1), 0);
    ASSERT_EQ(MsprofUnsetDeviceIdByGeModelIdx(70001, 1), 0);
    t_teardown();
}

/* A model id a loader registered (MsprofSetDeviceIdByGeModelIdx, as the
 * vendor's 2_subscribe_model does in place of aclmdlLoadFromFile) is one
 * aclprofModelSubscribe and aclprofModelUnSubscribe take; unsubscribing
 * closes the pipe, so the reader sees its end. Unregistered, or registered
 * on no device, it is 500002 / -1. */
TEST(prof_api, a_model_id_a_loader_registered_can_be_subscribed)
{
    int fds[2];
    char byte;
    aclprofSubscribeConfig *cfg;
    t_setup();
    ASSERT(pipe(fds) == 0);
    ASSERT_EQ(MsprofSetDeviceIdByGeModelIdx(70000, 64), -1); /* no device 64 */
    ASSERT_RC(aclprofModelSubscribe(70000, NULL), ACL_ERROR_INVALID_MODEL_ID);
    ASSERT_EQ(MsprofSetDeviceIdByGeModelIdx(70000, 0), 0);
    cfg = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
    ASSERT(cfg != NULL);
    ASSERT_OK(aclprofModelSubscribe(70000, cfg));
    ASSERT_RC(aclprofModelSubscribe(70000, cfg), ACL_ERROR_PROF_REPEAT_SUBSCRIBE);
    ASSERT_OK(aclprofModelUnSubscribe(70000));
    ASSERT_EQ(read(fds[0], &byte, 1), 0); /* closed: the reader ends */
    ASSERT_OK(aclprofDestroySubscribeConfig(cfg));
    ASSERT_EQ(MsprofUnsetDeviceIdByGeModelIdx(70000, 1), -1); /* not there */
    ASSERT_EQ(MsprofUnsetDeviceIdByGeModelIdx(70000, 0), 0);
    ASSERT_RC(aclprofModelUnSubscribe(70000), ACL_ERROR_INVALID_MODEL_ID);
    close(fds[0]);
    t_teardown();
}

/* ---- sweep 4, api_binary.c (2026-12-05) ---------------------------------------------------------------------- */

/* A declared time is below 10^12 us: 10^12 itself is refused (100000), the
 * largest double below it taken. */
TEST(prof_api, set_kernel_cost_times_stop_below_10_to_the_12_us)
{
    aclrtFuncHandle h;
    aclcpuKernelCost c = {1.0, 100.0, 1000, 0, {0}, 2.0};
    t_setup();
    h = t_kernel("prof_cost_1e12", k_nop);
    c.usTotal = 1e12;
    ASSERT_RC(aclcpuSetKernelCost(h, &c), ACL_ERROR_INVALID_PARAM);
    c.usTotal = nextafter(1e12, 0);
    ASSERT_OK(aclcpuSetKernelCost(h, &c));
    ASSERT_OK(aclcpuSetKernelCost(h, NULL));
    t_teardown();
}

/* ---- sweep 4 (2026-12-05): normalisation, a forgotten path, a refused message ------------------------------ */

/* CreateConfig's normalisation (CANN's prof_acl_api.cpp aclprofCreateConfig): a config
 * with ACL_PROF_API_STATS collects only the ACL API and its statistics,
 * whatever else it names, so two such configs name the same data types:
 * one stops the profile the other started. */
TEST(prof_api, a_config_with_api_stats_collects_only_the_acl_api_whatever_else_it_names)
{
    char dir[DIR_CAP];
    aclprofConfig *stats_and_more, *stats;
    t_setup();
    make_dir(dir);
    ASSERT_OK(prof_init(dir));
    stats_and_more = config(ACL_PROF_API_STATS | ACL_PROF_TASK_TIME | ACL_PROF_L2CACHE);
    stats = config(ACL_PROF_API_STATS);
    ASSERT_OK(aclprofStart(stats_and_more));
    ASSERT_OK(aclprofStart(stats)); /* the same data types: success, nothing done */
    ASSERT_OK(aclprofStop(stats));
    ASSERT_OK(aclprofDestroyConfig(stats_and_more));
    ASSERT_OK(aclprofDestroyConfig(stats));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* TASK_TIME_L3 implies TASK_TIME_L2 (and L0, TASK_TIME, the training
 * trace): a config naming L3 alone and one naming L3 with L2 are the same. */
TEST(prof_api, task_time_l3_implies_task_time_l2)
{
    char dir[DIR_CAP];
    aclprofConfig *l3, *l3_l2, *l2;
    t_setup();
    make_dir(dir);
    ASSERT_OK(prof_init(dir));
    l3 = config(ACL_PROF_TASK_TIME_L3);
    l3_l2 = config(ACL_PROF_TASK_TIME_L3 | ACL_PROF_TASK_TIME_L2);
    l2 = config(ACL_PROF_TASK_TIME_L2);
    ASSERT_OK(aclprofStart(l3));
    ASSERT_RC(aclprofStop(l2), ACL_ERROR_INVALID_PROFILING_CONFIG); /* L2 does not imply L3 */
    ASSERT_OK(aclprofStop(l3_l2));
    ASSERT_OK(aclprofDestroyConfig(l3));
    ASSERT_OK(aclprofDestroyConfig(l3_l2));
    ASSERT_OK(aclprofDestroyConfig(l2));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* An empty ACL_PROF_PATH before aclprofInit forgets the one set before it:
 * a self-initialising Start then goes under the working directory, not
 * under the forgotten (here unusable) path. */
TEST(prof_api, an_empty_acl_prof_path_forgets_the_one_set_before)
{
    char dir[DIR_CAP], bad[DIR_CAP + 8], cwd[1024];
    t_setup();
    make_dir(dir);
    snprintf(bad, sizeof(bad), "%s/a\nb", dir);
    ASSERT(getcwd(cwd, sizeof(cwd)) != NULL);
    ASSERT_OK(set_option(ACL_PROF_PATH, bad));
    ASSERT_OK(set_option(ACL_PROF_PATH, ""));
    ASSERT(chdir(dir) == 0);
    ASSERT_OK(aclprofStart(NULL)); /* under the working directory, dir */
    ASSERT(chdir(cwd) == 0);
    launch_nop("prof_forgot_path_k", NULL);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclprofStop(NULL));
    ASSERT(out_contains(dir, "kernel_details.csv", "prof_forgot_path_k"));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* A message of 128 characters or more is refused (-1) and leaves the
 * stamp's message as it was: the next mark shows the old one. */
TEST(prof_api, a_refused_stamp_message_leaves_the_stamp_as_it_was)
{
    char dir[DIR_CAP], longer[160];
    aclprofConfig *tx;
    void *stamp;
    t_setup();
    make_dir(dir);
    ASSERT_OK(prof_init(dir));
    tx = config(TX_TYPES);
    ASSERT_OK(aclprofStart(tx));
    ASSERT((stamp = aclprofCreateStamp()) != NULL);
    ASSERT_OK(aclprofSetStampTraceMessage(stamp, "tx-kept-5150", 12));
    memset(longer, 'q', sizeof(longer));
    memcpy(longer, "tx-over-6262", 12);
    longer[128] = '\0';
    ASSERT_RC(aclprofSetStampTraceMessage(stamp, longer, 128), TX_FAIL);
    ASSERT_OK(aclprofMark(stamp));
    aclprofDestroyStamp(stamp);
    ASSERT_OK(aclprofStop(tx));
    ASSERT(out_contains(dir, "trace_view.json", "tx-kept-5150"));
    ASSERT(!out_contains(dir, "trace_view.json", "tx-over-6262"));
    ASSERT_OK(aclprofDestroyConfig(tx));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}

/* aclprofRangePushEx keeps 64 ranges a thread: the 64th push is taken, the
 * 65th refused (-1), and all 64 pop again. */
TEST(prof_api, range_push_ex_takes_64_ranges_a_thread_and_refuses_the_65th)
{
    aclprofTensorInfo info;
    aclprofEventAttributes attr;
    t_setup();
    memset(&info, 0, sizeof(info));
    memset(&attr, 0, sizeof(attr));
    attr.messageType = ACL_PROF_MESSAGE_TYPE_TENSOR_INFO;
    attr.message.tensorInfo = &info;
    for (int i = 0; i < 64; i++)
        ASSERT_OK(aclprofRangePushEx(&attr));
    ASSERT_FAILS_NAMING(aclprofRangePushEx(&attr), TX_FAIL, "aclprofRangePushEx");
    for (int i = 0; i < 64; i++)
        ASSERT_OK(aclprofRangePop());
    ASSERT_RC(aclprofRangePop(), ACL_ERROR_INVALID_PARAM);
    t_teardown();
}

/* Step infos are numbered 1, 2, ... in creation order (a process-unique
 * index), and a refused second mark names its own step. */
TEST(prof_api, each_step_info_has_its_own_increasing_index)
{
    aclprofStepInfo *first, *second;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    first = aclprofCreateStepInfo();
    second = aclprofCreateStepInfo();
    ASSERT(first != NULL && second != NULL);
    ASSERT_OK(aclprofGetStepTimestamp(second, ACL_STEP_START, s));
    ASSERT_RC(aclprofGetStepTimestamp(second, ACL_STEP_START, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "step 2 was started already");
    ASSERT_OK(aclprofGetStepTimestamp(first, ACL_STEP_END, s));
    ASSERT_RC(aclprofGetStepTimestamp(first, ACL_STEP_END, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "step 1 was ended already");
    aclprofDestroyStepInfo(first);
    aclprofDestroyStepInfo(second);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A range started while msproftx is on but no profile collects it is
 * open all the same: it holds its id (the next start gets another) and
 * stops once; a second stop of it is refused (-1). */
TEST(prof_api, a_range_started_outside_a_profile_is_open_until_stopped)
{
    char dir[DIR_CAP];
    aclprofConfig *tx;
    void *stamp;
    uint32_t a = 0, b = 0;
    t_setup();
    make_dir(dir);
    ASSERT_OK(prof_init(dir));
    tx = config(TX_TYPES);
    ASSERT_OK(aclprofStart(tx));
    ASSERT_OK(aclprofStop(tx)); /* msproftx stays on until aclprofFinalize */
    ASSERT((stamp = aclprofCreateStamp()) != NULL);
    ASSERT_OK(aclprofRangeStart(stamp, &a));
    ASSERT_OK(aclprofRangeStart(stamp, &b));
    ASSERT(a != b);
    ASSERT_OK(aclprofRangeStop(a));
    ASSERT_RC(aclprofRangeStop(a), TX_FAIL);
    ASSERT_OK(aclprofRangeStop(b));
    aclprofDestroyStamp(stamp);
    ASSERT_OK(aclprofDestroyConfig(tx));
    ASSERT_OK(aclprofFinalize());
    t_teardown();
}
