/*
 * api_prof.c - the profiling API (acl/acl_prof.h): init, configs,
 * start/stop, options, msproftx markers and step markers.
 *
 * DESIGN: the API keeps CANN's state machine (off -> initialised by
 * aclprofInit, or by aclprofStart itself -> a profile started -> stopped ->
 * finalised) with the checks and codes of the msprof collector in the CANN
 * runtime source (src/dfx/msprof, docs/conformance.md "Audit: profiling"),
 * and hands the profile itself to services/profile.c: prof_begin when it
 * starts, prof_end (which models the run and writes the files) when it stops.
 * Configs, stamps and step infos are kept in live lists, so a stale or
 * foreign pointer is refused instead of followed.
 *
 * Threads: any host thread. Locks: ap.lock, the outermost (lockrank.h):
 * prof_end and the profiler's own locks run under it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core.h"
#include "../core/profhook.h"
#include "../services/profsub.h"
#include "acl/acl_prof.h"

#define CONFIG_MAGIC 0x70726f66u /* "prof" */
#define STEP_MAGIC 0x73746570u   /* "step" */
#define STAMP_MAGIC 0x7374616du  /* "stam" */
#define MAX_DEVICES 64
#define MAX_PATH_LEN 4096
/* The longest profile directory services/profile.c keeps (its out_dir[4096]):
 * a longer one would be cut, and the files written somewhere else. */
#define MAX_PROFILE_DIR 4095
#define MAX_OPTION_LEN 256
#define MAX_STAMP_MSG 128
#define MAX_MARK_MSG 127
#define INTERNAL_AICPU_MODEL 0x4000000000000000ull

/* Every data type bit of acl_prof.h, and the internal one CreateConfig adds. */
static const uint64_t known_types =
    ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS | ACL_PROF_AICPU | ACL_PROF_L2CACHE |
    ACL_PROF_HCCL_TRACE | ACL_PROF_TRAINING_TRACE | ACL_PROF_MSPROFTX | ACL_PROF_RUNTIME_API | ACL_PROF_GE_API_L0 |
    ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_MEMORY | ACL_PROF_TASK_TIME_L2 | ACL_PROF_OP_ATTR | ACL_PROF_TASK_TIME_L3 |
    ACL_PROF_GE_API_L1 | ACL_PROF_API_STATS | ACL_PROF_AICORE_SHAPE | INTERNAL_AICPU_MODEL;

struct aclprofConfig {
    uint32_t magic;
    uint32_t ndevices;
    uint32_t devices[MAX_DEVICES];
    aclprofAicoreMetrics metrics;
    uint64_t types;
    struct list link; /* in configs, under ap.lock */
};

struct aclprofStepInfo {
    uint32_t magic;
    uint32_t index; /* process-unique, increasing */
    bool started, ended;
    struct list link;
};

struct stamp {
    uint32_t magic;
    char msg[MAX_STAMP_MSG];
    struct list link;
};

/* The process's profiling state: CANN's state machine (inited by
 * aclprofInit, started by aclprofStart until aclprofStop) and what it
 * keeps between calls, all under lock. The profile itself (its records,
 * model and files) is services/profile.c's session, begun and ended here. */
#define MAX_RANGES 1024
static struct {
    plat_mutex lock;
    bool inited, started;
    /* msproftx is on from an aclprofStart with ACL_PROF_MSPROFTX until
     * aclprofFinalize (CANN's tx manager lives that long): stamps, marks
     * and ranges work meanwhile, and are recorded while such a profile runs. */
    bool tx_on;
    uint32_t finalizes_seen; /* prof_acl_finalize_count() when last looked at */
    uint64_t started_types;
    /* Where profiles go, absolute: the last init's path, or the ACL_PROF_PATH
     * set after it; kept after aclprofFinalize (CANN's resultPath_). */
    char out_path[MAX_PATH_LEN];
    char option_path[MAX_PATH_LEN]; /* the last ACL_PROF_PATH set (CANN's params resultPath) */
    struct list configs, steps, stamps; /* the live objects handed out */
    uint32_t next_step;
    /* The Push/Pop stack of range entries (0: none in the profile) and the
     * RangeStart/Stop entries by range id - 1 (0 = free, UINT32_MAX = open
     * but in no profile). A stop keeps the ranges open and drops their
     * entry numbers; Finalize forgets them. */
    uint32_t push_stack[MAX_RANGES];
    unsigned push_depth;
    uint32_t open_ranges[MAX_RANGES];
} ap;
/* RangePushEx/RangePop: per thread, as they bracket one thread's launch.
 * Each entry keeps the profile it was begun in (profile_gen, bumped by
 * every aclprofStart): another thread's stack cannot be cleared when a
 * profile ends, and an entry number of one profile must not end an entry
 * of the next. */
static _Atomic uint32_t profile_gen;
static _Thread_local uint32_t ex_stack[64], ex_gen[64];
static _Thread_local unsigned ex_depth;

__attribute__((constructor)) static void prof_api_init(void)
{
    plat_mutex_init(&ap.lock, LOCK_API_PROF);
    list_init(&ap.configs);
    list_init(&ap.steps);
    list_init(&ap.stamps);
}

/* msproftx calls fail with -1, not an ACL code, as in CANN. */
#define TX_OFF "msproftx is off (it is on from an aclprofStart with ACL_PROF_MSPROFTX until aclprofFinalize)"
static aclError tx_fail(const char *fmt, const char *fn, const char *why)
{
    return acl_fail((aclError)-1, fmt, fn, why);
}

/* Called with ap.lock held: is p on the live list l? */
static bool live_locked(struct list *l, const void *p, size_t link_off)
{
    PLAT_ASSERT_HELD(&ap.lock);
    struct list *pos;
    list_for_each(pos, l) if ((const char *)pos - link_off == (const char *)p) return true;
    return false;
}

/* Called with ap.lock held: the profile is over; the Push/Pop and
 * RangeStart/Stop ranges stay open, but their entry numbers would name
 * entries of the next profile, so they are dropped. */
static void detach_ranges_locked(void)
{
    PLAT_ASSERT_HELD(&ap.lock);
    for (unsigned i = 0; i < ap.push_depth; i++)
        ap.push_stack[i] = 0;
    for (unsigned i = 0; i < MAX_RANGES; i++)
        if (ap.open_ranges[i] != 0)
            ap.open_ranges[i] = UINT32_MAX;
}

/* Called with ap.lock held: msproftx is off; its ranges are gone. */
static void tx_off_locked(void)
{
    PLAT_ASSERT_HELD(&ap.lock);
    ap.tx_on = false;
    ap.push_depth = 0;
    memset(ap.open_ranges, 0, sizeof(ap.open_ranges));
}

/* Called with ap.lock held: catches up with an aclFinalize since the last
 * call, which wrote any running profile and turned the API off (not
 * initialised, msproftx off; the last path is kept), as CANN's
 * MsprofFinalize does. */
static void forget_written_locked(void)
{
    PLAT_ASSERT_HELD(&ap.lock);
    uint32_t n = prof_acl_finalize_count();
    if (n != ap.finalizes_seen || (ap.started && !prof_running())) {
        ap.finalizes_seen = n;
        ap.inited = false;
        ap.started = false;
        ap.started_types = 0;
        tx_off_locked();
    }
}

/* Is msproftx on (CANN's tx manager initialised)? */
static bool tx_on(void)
{
    bool on;
    plat_mutex_lock(&ap.lock);
    forget_written_locked();
    on = ap.tx_on;
    plat_mutex_unlock(&ap.lock);
    return on;
}

/* Is a profile collecting ACL_PROF_MSPROFTX running (markers recorded)? */
static bool tx_running(void)
{
    bool on;
    plat_mutex_lock(&ap.lock);
    forget_written_locked();
    on = ap.started && (ap.started_types & ACL_PROF_MSPROFTX) != 0;
    plat_mutex_unlock(&ap.lock);
    return on;
}

/* ---- init and finalize ------------------------------------------------------------- */

/* A path to a directory: no control characters (CANN refuses odd characters). */
static bool path_chars_ok(const char *p)
{
    for (; *p != '\0'; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return false;
    return true;
}

/* in, relative to the working directory when it is not absolute; false
 * (out untouched) when that does not fit n bytes. */
static bool make_absolute(const char *in, char *out, size_t n)
{
    char cwd[MAX_PATH_LEN];
    size_t cwd_len = 0, len = strlen(in);
    if (in[0] != '/') {
        if (!plat_getcwd(cwd, sizeof(cwd)))
            return false;
        cwd_len = strlen(cwd) + 1;
    }
    if (cwd_len + len + 1 > n)
        return false;
    if (cwd_len > 0) {
        memcpy(out, cwd, cwd_len - 1);
        out[cwd_len - 1] = '/';
    }
    memcpy(out + cwd_len, in, len + 1);
    return true;
}

/* Who owns the collector now, as CANN's work modes: nobody, ACLCPU_PROFILE
 * (the whole run, like msprof's command line), the aclprof* API, or model
 * subscription. */
enum prof_mode { MODE_OFF, MODE_ENV, MODE_API, MODE_SUBSCRIBE };

/* Called with ap.lock held. */
static enum prof_mode mode_locked(void)
{
    PLAT_ASSERT_HELD(&ap.lock);
    forget_written_locked();
    if (prof_env_active())
        return MODE_ENV;
    if (ap.inited)
        return MODE_API;
    return profsub_any() ? MODE_SUBSCRIBE : MODE_OFF;
}

/* Called with ap.lock held: CANN's check that the API owns the collector
 * (aclprofStart, aclprofStop and aclprofFinalize once it is not off). */
static aclError check_api_mode_locked(const char *fn)
{
    PLAT_ASSERT_HELD(&ap.lock);
    switch (mode_locked()) {
    case MODE_ENV:
        return acl_fail(ACL_ERROR_PROF_ALREADY_RUN, "%s: ACLCPU_PROFILE is profiling the whole run; the aclprof* "
                        "collection calls are off meanwhile", fn);
    case MODE_SUBSCRIBE:
        return acl_fail(ACL_ERROR_PROF_API_CONFLICT, "%s: models are subscribed (aclprofModelSubscribe); collection "
                        "and subscription do not mix", fn);
    default:
        return ACL_SUCCESS;
    }
}

/* Called with ap.lock held: the collector becomes the API's, writing under
 * path (already checked for length; what names it in a message). */
static aclError init_locked(const char *fn, const char *what, const char *path)
{
    PLAT_ASSERT_HELD(&ap.lock);
    if (!path_chars_ok(path))
        return acl_fail(ACL_ERROR_INVALID_FILE, "%s: %s has a control character", fn, what);
    if (!make_absolute(path, ap.out_path, sizeof(ap.out_path)))
        return acl_fail(ACL_ERROR_INVALID_FILE, "%s: '%s' made absolute is %d characters or longer", fn, path,
                        MAX_PATH_LEN);
    ap.inited = true;
    prof_set_collecting(true);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofInit(const char *profilerResultPath, size_t length)
{
    const char *fn = "aclprofInit";
    aclError err = ACL_SUCCESS;
    if (config_is(CFG_PROFILING_MODE, "dynamic"))
        return acl_fail(ACL_ERROR_FEATURE_UNSUPPORTED, "%s: PROFILING_MODE=dynamic is set (dynamic profiling owns "
                        "the collector)", fn);
    if (profilerResultPath == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'profilerResultPath' is NULL", fn);
    if (length == 0 || length >= MAX_PATH_LEN)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'length' is %zu; it must be 1 to %d", fn, length,
                        MAX_PATH_LEN - 1);
    if (strnlen(profilerResultPath, MAX_PATH_LEN) != length)
        return acl_fail(ACL_ERROR_INVALID_PARAM,
                        "%s: argument 'length' is %zu; it must be strlen(profilerResultPath) (%zu)", fn, length,
                        strnlen(profilerResultPath, MAX_PATH_LEN));
    plat_mutex_lock(&ap.lock);
    switch (mode_locked()) {
    case MODE_ENV:
        err = acl_fail(ACL_ERROR_PROF_ALREADY_RUN, "%s: ACLCPU_PROFILE is profiling the whole run already", fn);
        break;
    case MODE_API:
        err = acl_fail(ACL_ERROR_REPEAT_INITIALIZE, "%s: already initialised (by aclprofInit or aclprofStart; call "
                       "aclprofFinalize first)", fn);
        break;
    case MODE_SUBSCRIBE:
        err = acl_fail(ACL_ERROR_PROF_API_CONFLICT, "%s: models are subscribed (aclprofModelSubscribe); collection "
                       "and subscription do not mix", fn);
        break;
    default:
        err = init_locked(fn, "argument 'profilerResultPath'", profilerResultPath);
    }
    plat_mutex_unlock(&ap.lock);
    return err;
}

/* Called with ap.lock held: stops the running profile and writes it. */
static aclError stop_locked(const char *fn)
{
    PLAT_ASSERT_HELD(&ap.lock);
    char why[512];
    aclError err = prof_end(why, sizeof(why));
    ap.started = false;
    ap.started_types = 0;
    detach_ranges_locked();
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: %s (the program's results are not affected)", fn, why);
    return ACL_SUCCESS;
}

/* Not initialised (never, or finalised already): nothing to do, success. */
ACL_FUNC_VISIBILITY aclError aclprofFinalize(void)
{
    aclError err;
    plat_mutex_lock(&ap.lock);
    if (mode_locked() == MODE_OFF) {
        plat_mutex_unlock(&ap.lock);
        return ACL_SUCCESS;
    }
    if ((err = check_api_mode_locked("aclprofFinalize")) == ACL_SUCCESS) {
        forget_written_locked();
        if (ap.started)
            err = stop_locked("aclprofFinalize");
        ap.inited = false;
        tx_off_locked();
        prof_set_collecting(false);
    }
    plat_mutex_unlock(&ap.lock);
    return err;
}

/* ---- configs ------------------------------------------------------------------------- */

/* The device list's checks, in CANN's order (IsValidProfConfig, then the
 * list's emptiness), with a message naming the argument. */
static aclError check_devices(const uint32_t *ids, uint32_t n, const aclprofAicoreEvents *events, uint64_t types)
{
    const char *fn = "aclprofCreateConfig";
    uint32_t count = device_count();
    if (n != 0 && ids == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'deviceIdList' is NULL with deviceNums %u", fn, n);
    if (events != NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'aicoreEvents' must be NULL", fn);
    if (n > MAX_DEVICES || n > count)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'deviceNums' is %u; at most %u devices exist", fn, n,
                        count < MAX_DEVICES ? count : MAX_DEVICES);
    for (uint32_t i = 0; i < n; i++) {
        if (ids[i] >= count)
            return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'deviceIdList' names device %u; ids are below %u",
                            fn, ids[i], count);
        for (uint32_t j = 0; j < i; j++)
            if (ids[j] == ids[i])
                return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'deviceIdList' names device %u twice", fn,
                                ids[i]);
    }
    if (n == 0 && !(types & ACL_PROF_MSPROFTX))
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'deviceNums' is 0; only a config with "
                        "ACL_PROF_MSPROFTX may name no device", fn);
    return ACL_SUCCESS;
}

/* CANN's normalisation of the data types. */
static uint64_t normalise_types(uint64_t t)
{
    if (t & ACL_PROF_API_STATS)
        return ACL_PROF_ACL_API | ACL_PROF_API_STATS;
    t |= INTERNAL_AICPU_MODEL;
    if (t & ACL_PROF_TASK_TIME)
        t |= ACL_PROF_TASK_TIME_L0;
    if (t & (ACL_PROF_TASK_TIME_L2 | ACL_PROF_OP_ATTR))
        t |= ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_TIME;
    if (t & ACL_PROF_TASK_TIME_L3)
        t |= ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L2;
    if (t & (ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L0))
        t |= ACL_PROF_TRAINING_TRACE;
    return t;
}

ACL_FUNC_VISIBILITY aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums,
                                                       aclprofAicoreMetrics aicoreMetrics,
                                                       const aclprofAicoreEvents *aicoreEvents,
                                                       uint64_t dataTypeConfig)
{
    struct aclprofConfig *c;
    if (check_devices(deviceIdList, deviceNums, aicoreEvents, dataTypeConfig) != ACL_SUCCESS)
        return NULL;
    if ((c = acl_calloc(1, sizeof(*c))) == NULL) {
        acl_fail(ACL_ERROR_BAD_ALLOC, "aclprofCreateConfig: out of memory");
        return NULL;
    }
    c->magic = CONFIG_MAGIC;
    c->ndevices = deviceNums;
    if (deviceNums != 0)
        memcpy(c->devices, deviceIdList, deviceNums * sizeof(*deviceIdList));
    c->metrics = aicoreMetrics;
    c->types = normalise_types(dataTypeConfig);
    plat_mutex_lock(&ap.lock);
    list_add_tail(&ap.configs, &c->link);
    plat_mutex_unlock(&ap.lock);
    return c;
}

/* Called with ap.lock held. */
static bool config_live_locked(const aclprofConfig *c)
{
    PLAT_ASSERT_HELD(&ap.lock);
    return live_locked(&ap.configs, c, offsetof(struct aclprofConfig, link)) && c->magic == CONFIG_MAGIC;
}

ACL_FUNC_VISIBILITY aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig)
{
    struct aclprofConfig *c = (struct aclprofConfig *)profilerConfig;
    if (c == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofDestroyConfig: argument 'profilerConfig' is NULL");
    plat_mutex_lock(&ap.lock);
    if (!config_live_locked(c)) {
        plat_mutex_unlock(&ap.lock);
        return acl_fail(ACL_ERROR_INVALID_PARAM,
                        "aclprofDestroyConfig: argument 'profilerConfig' (%p) is not a live config (destroyed "
                        "already, or not from aclprofCreateConfig)",
                        profilerConfig);
    }
    list_del(&c->link);
    c->magic = 0;
    plat_mutex_unlock(&ap.lock);
    acl_free(c);
    return ACL_SUCCESS;
}

/* ---- start and stop ------------------------------------------------------------------- */

/* The data types of the default config (aclprofStart(NULL)): everything. */
static uint64_t default_types(void) { return normalise_types(known_types & ~ACL_PROF_API_STATS); }

/* Called with ap.lock held: the checks of the config argument that
 * aclprofStart and aclprofStop make first (CANN's preCheckProfConfig); the
 * data types in *types. A config CreateConfig made always names a type
 * (the internal AICPU one at least), so there is no "nothing to collect". */
static aclError check_config_locked(const char *fn, const aclprofConfig *c, uint64_t *types)
{
    PLAT_ASSERT_HELD(&ap.lock);
    if (c != NULL && !config_live_locked(c))
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'profilerConfig' (%p) is not a live config "
                        "(destroyed, or not from aclprofCreateConfig)", fn, (const void *)c);
    *types = c != NULL ? c->types : default_types();
    if (*types & ~known_types)
        return acl_fail(ACL_ERROR_PROF_MODULES_UNSUPPORTED, "%s: argument 'profilerConfig' has unknown data type bits "
                        "0x%llx", fn, (unsigned long long)(*types & ~known_types));
    return ACL_SUCCESS;
}

/* Called with ap.lock held: aclprofStart without aclprofInit initialises
 * the API itself (CANN's GetResultPath): under the path an earlier init
 * ended with, else under ACL_PROF_PATH when it was set, else under the
 * working directory. */
static aclError auto_init_locked(const char *fn)
{
    PLAT_ASSERT_HELD(&ap.lock);
    char cwd[MAX_PATH_LEN], prev[MAX_PATH_LEN];
    if (ap.out_path[0] != '\0') {
        memcpy(prev, ap.out_path, sizeof(prev));
        return init_locked(fn, "the previous profile path", prev);
    }
    if (ap.option_path[0] != '\0')
        return init_locked(fn, "ACL_PROF_PATH", ap.option_path);
    if (!plat_getcwd(cwd, sizeof(cwd)))
        return acl_fail(ACL_ERROR_INVALID_FILE, "%s: the working directory (where a profile started without "
                        "aclprofInit goes) cannot be read: %s", fn, strerror(errno));
    return init_locked(fn, "the working directory", cwd);
}

/* The aicore metrics a config may name (checked at Start when it collects
 * them): an aclprofAicoreMetrics value, or ACL_AICORE_NONE. */
static bool metrics_known(aclprofAicoreMetrics m)
{
    return (m >= ACL_AICORE_ARITHMETIC_UTILIZATION && m <= ACL_AICORE_MEMORY_ACCESS) || m == ACL_AICORE_NONE;
}

/* Called with ap.lock held: the checks of aclprofStart, in CANN's order
 * (ProfStart, then PrepareStartAclApi). *types gets what to collect (NULL
 * config: everything); *again is set when the profile runs already with
 * these data types, which CANN answers with success and nothing done. */
static aclError check_start_locked(const aclprofConfig *c, uint64_t *types, bool *again)
{
    PLAT_ASSERT_HELD(&ap.lock);
    const char *fn = "aclprofStart";
    aclError err;
    *again = false;
    forget_written_locked();
    if ((err = check_config_locked(fn, c, types)) != ACL_SUCCESS)
        return err;
    if (mode_locked() == MODE_OFF && (err = auto_init_locked(fn)) != ACL_SUCCESS)
        return err;
    if ((err = check_api_mode_locked(fn)) != ACL_SUCCESS)
        return err;
    if (ap.started) {
        if (*types != ap.started_types)
            return acl_fail(ACL_ERROR_INVALID_PROFILING_CONFIG, "%s: a profile runs already with data types 0x%llx; "
                            "argument 'profilerConfig' names 0x%llx", fn, (unsigned long long)ap.started_types,
                            (unsigned long long)*types);
        *again = true;
        return ACL_SUCCESS;
    }
    if (prof_running())
        return acl_fail(ACL_ERROR_PROF_ALREADY_RUN, "%s: a profile is running already", fn);
    if (c != NULL && (c->types & ACL_PROF_AICORE_METRICS) && !metrics_known(c->metrics))
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'profilerConfig' collects aicore metrics %d, which is "
                        "no aclprofAicoreMetrics value", fn, (int)c->metrics);
    return ACL_SUCCESS;
}

/* The device whose SoC a profile models: the config's first (NULL: the
 * default config, device 0). */
static int32_t profiled_device(const aclprofConfig *cfg)
{
    return cfg != NULL && cfg->ndevices > 0 ? (int32_t)cfg->devices[0] : 0;
}

ACL_FUNC_VISIBILITY aclError aclprofStart(const aclprofConfig *profilerConfig)
{
    const char *fn = "aclprofStart";
    struct prof_soc soc;
    uint64_t types = 0;
    bool again = false;
    const char *dir;
    aclError err;
    plat_mutex_lock(&ap.lock);
    err = check_start_locked(profilerConfig, &types, &again);
    dir = ap.out_path;
    if (err == ACL_SUCCESS && !again && strlen(dir) > MAX_PROFILE_DIR)
        err = acl_fail(ACL_ERROR_INVALID_FILE, "%s: the profile directory is %zu characters long; at most %d are "
                       "supported", fn, strlen(dir), MAX_PROFILE_DIR);
    if (err == ACL_SUCCESS && !again && !plat_make_dirs(dir))
        err = acl_fail(ACL_ERROR_INVALID_FILE, "%s: the profile directory \"%s\" cannot be made or written: %s", fn,
                       dir, strerror(errno));
    if (err == ACL_SUCCESS && !again) {
        profhook_soc(profiled_device(profilerConfig), &soc);
        if ((err = prof_begin(dir, prof_block_dim_names(), &soc)) != ACL_SUCCESS)
            err = acl_fail(err, "%s: %s", fn,
                           err == ACL_ERROR_PROF_ALREADY_RUN ? "a profile is running already" : "out of memory");
    }
    if (err == ACL_SUCCESS && !again) {
        ap.started = true;
        ap.started_types = types;
        ap.tx_on |= (types & ACL_PROF_MSPROFTX) != 0;
        fetch_add_relaxed(&profile_gen, 1);
    }
    plat_mutex_unlock(&ap.lock);
    return err;
}

/* Not initialised: nothing to stop, success (as after aclprofFinalize).
 * NULL stops whatever runs; nothing running: success. */
ACL_FUNC_VISIBILITY aclError aclprofStop(const aclprofConfig *profilerConfig)
{
    const char *fn = "aclprofStop";
    uint64_t types = 0;
    aclError err = ACL_SUCCESS;
    plat_mutex_lock(&ap.lock);
    forget_written_locked();
    if (mode_locked() == MODE_OFF || (profilerConfig == NULL && mode_locked() == MODE_API && !ap.started))
        err = ACL_SUCCESS;
    else if ((err = check_config_locked(fn, profilerConfig, &types)) != ACL_SUCCESS ||
             (err = check_api_mode_locked(fn)) != ACL_SUCCESS)
        ; /* refused */
    else if (ap.started && profilerConfig != NULL && types != ap.started_types)
        err = acl_fail(ACL_ERROR_INVALID_PROFILING_CONFIG,
                       "%s: argument 'profilerConfig' names data types 0x%llx, not those the profile started with "
                       "(0x%llx)", fn, (unsigned long long)types, (unsigned long long)ap.started_types);
    else if (ap.started)
        err = stop_locked(fn);
    plat_mutex_unlock(&ap.lock);
    return err;
}

/* ---- options ------------------------------------------------------------------------------- */

/* n characters of s, all decimal digits, at most max_digits of them, and
 * their value in lo..hi (CANN's IsAllDigit plus the range check). */
static bool digits_in(const char *s, size_t n, size_t max_digits, uint64_t lo, uint64_t hi)
{
    uint64_t v = 0;
    if (n == 0 || n > max_digits)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (uint64_t)(s[i] - '0'); /* at most 10 digits: no overflow */
    }
    return v >= lo && v <= hi;
}

/* A frequency: digits only, no more of them than hi has (CheckArgRange). */
static bool freq_in(const char *s, uint64_t lo, uint64_t hi)
{
    size_t max_digits = hi >= 100 ? 3 : 2;
    return digits_in(s, strlen(s), max_digits, lo, hi);
}

/* A comma list split as CANN splits it (an empty item between or after
 * commas stays, and is refused); every item in words (NULL: any). The
 * empty string is a list of no items. */
static bool list_of(const char *s, const char *const *words, size_t nwords)
{
    const char *p = s;
    if (*s == '\0')
        return true;
    for (;;) {
        size_t len = strcspn(p, ",");
        bool found = len > 0 && words == NULL;
        for (size_t i = 0; i < nwords && len > 0; i++)
            found |= strlen(words[i]) == len && strncmp(p, words[i], len) == 0;
        if (!found)
            return false;
        if (p[len] == '\0')
            return true;
        p += len + 1;
    }
}

/* ACL_PROF_NTS_METRICS "Custom:<events>": 1 to 10 comma-separated event
 * codes, each (spaces around it aside) a whole C integer (decimal, 0x hex
 * or 0 octal) up to 65535 (CANN's nts_metrics_validation.h). */
static bool nts_events_ok(const char *s)
{
    char item[MAX_OPTION_LEN + 1], *end;
    unsigned count = 0;
    for (const char *p = s;; p++) {
        size_t len = strcspn(p, ",");
        unsigned long v;
        while (len > 0 && *p == ' ')
            p++, len--;
        while (len > 0 && p[len - 1] == ' ')
            len--;
        if (len == 0 || ++count > 10)
            return false;
        memcpy(item, p, len);
        item[len] = '\0';
        errno = 0;
        v = strtoul(item, &end, 0);
        if (errno != 0 || end == item || *end != '\0' || v > 65535)
            return false;
        p += strcspn(p, ",");
        if (*p == '\0')
            return true;
    }
}

/* The values each option takes (CANN's ProfParamsAdapter::CheckApiConfigIsValid
 * and ParamValidation). */
static bool option_value_ok(aclprofConfigType type, const char *v)
{
    static const char *const host_sys[] = {"cpu", "mem", "disk", "network", "osrt", "numa"};
    static const char *const host_usage[] = {"cpu", "mem"};
    size_t n = strlen(v);
    switch (type) {
    case ACL_PROF_STORAGE_LIMIT: /* empty: no limit */
        return n == 0 || (n > 2 && strcmp(v + n - 2, "MB") == 0 && digits_in(v, n - 2, 10, 200, 4294967295ull));
    case ACL_PROF_SYS_HARDWARE_MEM_FREQ:
    case ACL_PROF_SYS_IO_FREQ:
    case ACL_PROF_DVPP_FREQ:
    case ACL_PROF_LOW_POWER_FREQ:
        return freq_in(v, 1, 100);
    case ACL_PROF_SYS_CPU_FREQ:
    case ACL_PROF_SYS_INTERCONNECTION_FREQ:
    case ACL_PROF_HOST_SYS_USAGE_FREQ:
        return freq_in(v, 1, 50);
    case ACL_PROF_LLC_MODE:
        return strcmp(v, "read") == 0 || strcmp(v, "write") == 0;
    case ACL_PROF_HOST_SYS:
        return list_of(v, host_sys, ACLCPU_ARRAY_SIZE(host_sys));
    case ACL_PROF_HOST_SYS_USAGE:
        return list_of(v, host_usage, ACLCPU_ARRAY_SIZE(host_usage));
    case ACL_PROF_OPTYPE:
        return n > 0 && list_of(v, NULL, 0);
    case ACL_PROF_SYS_MEM_SERVICEFLOW:
        return n > 0;
    case ACL_PROF_NTS_METRICS:
        return strcmp(v, "PipeUtilization") == 0 || (strncmp(v, "Custom:", 7) == 0 && v[7] != '\0' &&
                                                     nts_events_ok(v + 7));
    default: /* ACL_PROF_PATH: checked where it is used */
        return true;
    }
}

/* ACL_PROF_PATH is kept (empty: none) for a self-initialising Start that
 * finds no earlier path, whose check (100003) it meets then; while
 * initialised, a non-empty one also redirects the profile at once and must
 * be usable (100010) (CANN's CheckApiConfigIsValid, MsprofSetConfig). */
static aclError set_path(const char *fn, const char *path)
{
    aclError err = ACL_SUCCESS;
    char abs_path[MAX_PATH_LEN];
    plat_mutex_lock(&ap.lock);
    if (path[0] == '\0') {
        ap.option_path[0] = '\0';
    } else if (!make_absolute(path, abs_path, sizeof(abs_path))) {
        err = acl_fail(ACL_ERROR_INVALID_PROFILING_CONFIG, "%s: ACL_PROF_PATH '%s' made absolute is %d characters or "
                       "longer", fn, path, MAX_PATH_LEN);
    } else {
        memcpy(ap.option_path, abs_path, sizeof(abs_path));
        if (ap.inited && !path_chars_ok(path))
            err = acl_fail(ACL_ERROR_INVALID_PROFILING_CONFIG, "%s: ACL_PROF_PATH has a control character", fn);
        else if (ap.inited)
            memcpy(ap.out_path, abs_path, sizeof(abs_path));
    }
    plat_mutex_unlock(&ap.lock);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclprofSetConfig(aclprofConfigType configType, const char *config, size_t configLength)
{
    const char *fn = "aclprofSetConfig";
    if (configType <= ACL_PROF_ARGS_MIN || configType >= ACL_PROF_ARGS_MAX)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'configType' is %d; it must be an aclprofConfigType "
                        "between %d and %d", fn, (int)configType, ACL_PROF_ARGS_MIN + 1, ACL_PROF_ARGS_MAX - 1);
    if (configLength > MAX_OPTION_LEN)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'configLength' is %zu; at most %d", fn, configLength,
                        MAX_OPTION_LEN);
    if (config == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'config' is NULL", fn);
    if (strnlen(config, MAX_OPTION_LEN + 1) != configLength)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'configLength' is %zu; it must be strlen(config) (%zu)",
                        fn, configLength, strnlen(config, MAX_OPTION_LEN + 1));
    /* 2 lies inside the range but names no option: the option table refuses it. */
    if ((int)configType == 2)
        return acl_fail(ACL_ERROR_INVALID_PROFILING_CONFIG, "%s: argument 'configType' 2 names no option", fn);
    if (!option_value_ok(configType, config))
        return acl_fail(configType == ACL_PROF_NTS_METRICS ? ACL_ERROR_INVALID_PARAM
                                                           : ACL_ERROR_INVALID_PROFILING_CONFIG,
                        "%s: option %d does not take the value \"%s\"", fn, (int)configType, config);
    if (configType == ACL_PROF_PATH)
        return set_path(fn, config);
    return ACL_SUCCESS;
}

/* ---- msproftx ------------------------------------------------------------------------------ */

ACL_FUNC_VISIBILITY void *aclprofCreateStamp(void)
{
    struct stamp *s;
    if (!tx_on()) {
        tx_fail("%s: %s", "aclprofCreateStamp", TX_OFF);
        return NULL;
    }
    if ((s = acl_calloc(1, sizeof(*s))) == NULL)
        return NULL;
    s->magic = STAMP_MAGIC;
    plat_mutex_lock(&ap.lock);
    list_add_tail(&ap.stamps, &s->link);
    plat_mutex_unlock(&ap.lock);
    return s;
}

/* Called with ap.lock held. */
static struct stamp *stamp_locked(void *p)
{
    PLAT_ASSERT_HELD(&ap.lock);
    struct stamp *s = p;
    return p != NULL && live_locked(&ap.stamps, p, offsetof(struct stamp, link)) && s->magic == STAMP_MAGIC ? s : NULL;
}

ACL_FUNC_VISIBILITY void aclprofDestroyStamp(void *stamp)
{
    struct stamp *s;
    plat_mutex_lock(&ap.lock);
    if ((s = stamp_locked(stamp)) != NULL) {
        list_del(&s->link);
        s->magic = 0;
    }
    plat_mutex_unlock(&ap.lock);
    if (stamp == NULL)
        acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofDestroyStamp: argument 'stamp' is NULL");
    else if (s == NULL)
        LOGW("aclprofDestroyStamp: %p is not a live stamp; ignored", stamp);
    acl_free(s);
}

ACL_FUNC_VISIBILITY aclError aclprofSetStampTraceMessage(void *stamp, const char *msg, uint32_t msgLen)
{
    struct stamp *s;
    const char *fn = "aclprofSetStampTraceMessage";
    plat_mutex_lock(&ap.lock);
    s = stamp_locked(stamp);
    if (s != NULL && msgLen < MAX_STAMP_MSG && msg != NULL)
        snprintf(s->msg, sizeof(s->msg), "%.*s", (int)msgLen, msg);
    plat_mutex_unlock(&ap.lock);
    if (s == NULL)
        return tx_fail("%s: %s", fn, stamp == NULL ? "argument 'stamp' is NULL" : "argument 'stamp' is not a live stamp");
    if (msgLen >= MAX_STAMP_MSG)
        return tx_fail("%s: %s", fn, "argument 'msgLen' must be below 128");
    if (msg == NULL)
        return tx_fail("%s: %s", fn, "argument 'msg' is NULL");
    return ACL_SUCCESS;
}

/* The message of a live stamp, copied out; false for a dead one. */
static bool stamp_message(void *stamp, char *out)
{
    struct stamp *s;
    plat_mutex_lock(&ap.lock);
    if ((s = stamp_locked(stamp)) != NULL)
        memcpy(out, s->msg, MAX_STAMP_MSG);
    plat_mutex_unlock(&ap.lock);
    return s != NULL;
}

ACL_FUNC_VISIBILITY aclError aclprofMark(void *stamp)
{
    char msg[MAX_STAMP_MSG];
    if (!tx_on())
        return tx_fail("%s: %s", "aclprofMark", TX_OFF);
    if (!stamp_message(stamp, msg))
        return tx_fail("%s: %s", "aclprofMark", stamp == NULL ? "argument 'stamp' is NULL"
                                                              : "argument 'stamp' is not a live stamp");
    if (tx_running())
        prof_host_mark(msg, plat_now_ns());
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofPush(void *stamp)
{
    char msg[MAX_STAMP_MSG];
    uint32_t id;
    if (stamp == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofPush: argument 'stamp' is NULL");
    if (!tx_on())
        return tx_fail("%s: %s", "aclprofPush", TX_OFF);
    if (!stamp_message(stamp, msg))
        return tx_fail("%s: %s", "aclprofPush", "argument 'stamp' is not a live stamp");
    id = tx_running() ? prof_host_range_begin(msg, plat_now_ns()) : 0;
    plat_mutex_lock(&ap.lock);
    if (ap.push_depth < MAX_RANGES)
        ap.push_stack[ap.push_depth++] = id;
    plat_mutex_unlock(&ap.lock);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofPop(void)
{
    uint32_t id = 0;
    bool had;
    if (!tx_on())
        return tx_fail("%s: %s", "aclprofPop", TX_OFF);
    plat_mutex_lock(&ap.lock);
    had = ap.push_depth > 0;
    if (had)
        id = ap.push_stack[--ap.push_depth];
    plat_mutex_unlock(&ap.lock);
    if (!had)
        return tx_fail("%s: %s", "aclprofPop", "nothing was pushed");
    prof_host_range_end(id, plat_now_ns()); /* 0 (in no profile): nothing */
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofRangeStart(void *stamp, uint32_t *rangeId)
{
    char msg[MAX_STAMP_MSG];
    uint32_t slot = MAX_RANGES, entry;
    if (stamp == NULL || rangeId == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofRangeStart: argument '%s' is NULL",
                        stamp == NULL ? "stamp" : "rangeId");
    if (!tx_on())
        return tx_fail("%s: %s", "aclprofRangeStart", TX_OFF);
    if (!stamp_message(stamp, msg))
        return tx_fail("%s: %s", "aclprofRangeStart", "argument 'stamp' is not a live stamp");
    entry = tx_running() ? prof_host_range_begin(msg, plat_now_ns()) : 0;
    plat_mutex_lock(&ap.lock);
    for (uint32_t i = 0; i < MAX_RANGES && slot == MAX_RANGES; i++)
        if (ap.open_ranges[i] == 0)
            slot = i;
    if (slot < MAX_RANGES) /* UINT32_MAX: open, but not in the profile */
        ap.open_ranges[slot] = entry != 0 ? entry : UINT32_MAX;
    plat_mutex_unlock(&ap.lock);
    if (slot == MAX_RANGES)
        return tx_fail("%s: %s", "aclprofRangeStart", "1024 ranges are open already");
    *rangeId = slot + 1;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofRangeStop(uint32_t rangeId)
{
    uint32_t entry = 0;
    if (!tx_on())
        return tx_fail("%s: %s", "aclprofRangeStop", TX_OFF);
    plat_mutex_lock(&ap.lock);
    if (rangeId >= 1 && rangeId <= MAX_RANGES) {
        entry = ap.open_ranges[rangeId - 1];
        ap.open_ranges[rangeId - 1] = 0;
    }
    plat_mutex_unlock(&ap.lock);
    if (entry == 0)
        return tx_fail("%s: %s", "aclprofRangeStop", "argument 'rangeId' names no open range");
    if (entry != UINT32_MAX)
        prof_host_range_end(entry, plat_now_ns());
    return ACL_SUCCESS;
}

/* FNV-1a: a stable id for a string (UINT64_MAX is kept for failure). */
ACL_FUNC_VISIBILITY uint64_t aclprofStr2Id(const char *message)
{
    uint64_t h = 0xcbf29ce484222325ull;
    if (message == NULL)
        return UINT64_MAX;
    for (const unsigned char *p = (const unsigned char *)message; *p != '\0'; p++)
        h = (h ^ *p) * 0x100000001b3ull;
    return h == UINT64_MAX ? h - 1 : h;
}

/* Works with or without a running profile (CANN keeps the attributes
 * either way); what is pushed outside an msproftx profile records nothing. */
ACL_FUNC_VISIBILITY aclError aclprofRangePushEx(aclprofEventAttributes *attr)
{
    char name[64];
    if (attr == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofRangePushEx: argument 'attr' is NULL");
    if (attr->messageType != ACL_PROF_MESSAGE_TYPE_TENSOR_INFO || attr->message.tensorInfo == NULL)
        return tx_fail("%s: %s", "aclprofRangePushEx", "the attributes must carry tensor info (messageType 0)");
    if (ex_depth >= ACLCPU_ARRAY_SIZE(ex_stack))
        return tx_fail("%s: %s", "aclprofRangePushEx", "64 ranges are pushed already on this thread");
    snprintf(name, sizeof(name), "op %016llx", (unsigned long long)attr->message.tensorInfo->opNameId);
    ex_gen[ex_depth] = load_relaxed(&profile_gen); /* before the entry */
    ex_stack[ex_depth++] = tx_running() ? prof_host_range_begin(name, plat_now_ns()) : 0;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofRangePop(void)
{
    if (ex_depth == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofRangePop: nothing was pushed on this thread "
                        "(aclprofRangePushEx first)");
    ex_depth--;
    /* A range begun in an older profile (or outside one: entry 0) has
     * nothing to end in this one. */
    if (ex_stack[ex_depth] != 0 && ex_gen[ex_depth] == load_relaxed(&profile_gen) && tx_running())
        prof_host_range_end(ex_stack[ex_depth], plat_now_ns());
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofMarkEx(const char *msg, size_t msgLen, aclrtStream stream)
{
    const char *fn = "aclprofMarkEx";
    struct stream *s;
    struct task *t;
    if (!tx_on())
        return tx_fail("%s: %s", fn, TX_OFF);
    if (msg == NULL || stream == NULL)
        return tx_fail("%s: argument '%s' is NULL", fn, msg == NULL ? "msg" : "stream");
    if (strlen(msg) != msgLen)
        return tx_fail("%s: %s", fn, "argument 'msgLen' must be strlen(msg)");
    if (msgLen < 1 || msgLen > MAX_MARK_MSG)
        return tx_fail("%s: %s", fn, "argument 'msgLen' must be 1 to 127");
    if (stream_resolve(fn, stream, &s) != ACL_SUCCESS)
        return (aclError)-1;
    if (!tx_running()) /* msproftx on, but the running profile (if any) does not collect it */
        return ACL_SUCCESS;
    if (stream_task_new(fn, TASK_MARK, &t) != ACL_SUCCESS)
        return (aclError)-1;
    memcpy(t->inline_args, msg, msgLen + 1);
    t->u.mark.msg = (const char *)t->inline_args;
    if (stream_submit(&(struct submit){.fn = fn, .stream = stream}, s, t) != ACL_SUCCESS)
        return (aclError)-1;
    return ACL_SUCCESS;
}

/* ---- steps ----------------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclprofStepInfo *aclprofCreateStepInfo(void)
{
    struct aclprofStepInfo *si = acl_calloc(1, sizeof(*si));
    if (si == NULL)
        return NULL;
    si->magic = STEP_MAGIC;
    plat_mutex_lock(&ap.lock);
    si->index = ++ap.next_step;
    list_add_tail(&ap.steps, &si->link);
    plat_mutex_unlock(&ap.lock);
    return si;
}

ACL_FUNC_VISIBILITY void aclprofDestroyStepInfo(aclprofStepInfo *stepinfo)
{
    bool live;
    plat_mutex_lock(&ap.lock);
    live = stepinfo != NULL && live_locked(&ap.steps, stepinfo, offsetof(struct aclprofStepInfo, link));
    if (live) {
        list_del(&stepinfo->link);
        stepinfo->magic = 0;
    }
    plat_mutex_unlock(&ap.lock);
    if (live)
        acl_free(stepinfo);
    else if (stepinfo == NULL)
        acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofDestroyStepInfo: argument 'stepinfo' is NULL");
    else
        LOGW("aclprofDestroyStepInfo: %p is not a live step info; ignored", (void *)stepinfo);
}

/* Called with ap.lock held: the checks of a step mark, in CANN's order. */
static aclError step_check_locked(const aclprofStepInfo *si, aclprofStepTag tag)
{
    PLAT_ASSERT_HELD(&ap.lock);
    const char *fn = "aclprofGetStepTimestamp";
    if (si == NULL || !live_locked(&ap.steps, si, offsetof(struct aclprofStepInfo, link)))
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'stepInfo' is %s", fn,
                        si == NULL ? "NULL" : "not a live step info");
    if (tag != ACL_STEP_START && tag != ACL_STEP_END)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'tag' is %d; it must be ACL_STEP_START or "
                        "ACL_STEP_END", fn, (int)tag);
    if (tag == ACL_STEP_START ? si->started : si->ended)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: step %u was %s already; each step info marks one start and "
                        "one end", fn, si->index, tag == ACL_STEP_START ? "started" : "ended");
    return ACL_SUCCESS;
}

/* The step task on stream (while a profile runs). The stream is the lower
 * layer's business, as in CANN: its failure is ACL_ERROR_GE_FAILURE, with
 * the cause in the message. */
static aclError mark_step(const char *fn, aclrtStream stream, aclprofStepTag tag, uint32_t index)
{
    struct stream *s;
    struct task *t;
    char cause[512];
    bool on = prof_running();
    aclError err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS && on)
        err = stream_task_new(fn, TASK_STEP, &t);
    if (err == ACL_SUCCESS && on) {
        t->u.step.end = tag == ACL_STEP_END;
        t->u.step.index = index;
        err = stream_submit(&(struct submit){.fn = fn, .stream = stream}, s, t);
    }
    if (err != ACL_SUCCESS) {
        snprintf(cause, sizeof(cause), "%s", aclGetRecentErrMsg());
        return acl_fail(ACL_ERROR_GE_FAILURE, "%s: the step could not be marked on the stream (%d: %s)", fn, err, cause);
    }
    return ACL_SUCCESS;
}

/* Marks a step's start or end: a task on the stream while a profile runs,
 * and the step info's state either way (even when the stream refuses the
 * task: the tag is spent). */
ACL_FUNC_VISIBILITY aclError aclprofGetStepTimestamp(aclprofStepInfo *stepInfo, aclprofStepTag tag,
                                                     aclrtStream stream)
{
    const char *fn = "aclprofGetStepTimestamp";
    uint32_t index = 0;
    aclError err;
    plat_mutex_lock(&ap.lock);
    err = step_check_locked(stepInfo, tag);
    if (err == ACL_SUCCESS) { /* noted before the mark, and kept when the mark fails, as in CANN */
        if (tag == ACL_STEP_START)
            stepInfo->started = true;
        else
            stepInfo->ended = true;
        index = stepInfo->index;
    }
    plat_mutex_unlock(&ap.lock);
    if (err == ACL_SUCCESS)
        err = mark_step(fn, stream, tag, index);
    return err;
}
