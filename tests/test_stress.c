/*
 * test_stress.c - many host threads, many streams, event edges between
 * them; and a fuzz of garbage, foreign and destroyed handles.
 *
 * Rules: DESIGN "Execution model" (in-order streams, a wait makes later
 * tasks see the recorded work, a wait captures the latest record at call
 * time) and "Errors and handles" (nothing a caller passes may crash the
 * library; a stale handle returns 107017); spec/acl-api.md §4 (handle
 * validation), §6 "any | destroyed/foreign handle | 107017".
 *
 * Every run uses fixed seeds and bounded iterations; the whole file takes
 * well under five seconds on two cores.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "test.h"

static uint64_t xorshift(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *s = x;
    return x;
}

/* ---- threads, streams and event edges ------------------------------------------------- */

enum { THREADS = 4, PER_THREAD = 3, STREAMS = THREADS * PER_THREAD, ITERS = 250 };

/* Per stream: kernels completed, and blocks finished of the running one. */
static _Atomic int done_count[STREAMS];
static _Atomic int block_count[STREAMS];
static _Atomic int violations;
static _Atomic int first_violation_kind;

struct step_args {
    int stream;     /* whose log */
    int n;          /* how many of its kernels came before this one */
    int dep_stream; /* -1, or a stream whose record this one waited for */
    int dep_count;  /* kernels of dep_stream that record covered */
    int blocks;
};

static void violation(int kind)
{
    int none = 0;
    atomic_fetch_add(&violations, 1);
    atomic_compare_exchange_strong(&first_violation_kind, &none, kind);
}

/* In order on its own stream: exactly n kernels before it have completed.
 * Behind a wait: at least dep_count kernels of dep_stream have completed. */
static void k_step(void *args)
{
    const struct step_args *a = args;
    if (atomic_load(&done_count[a->stream]) != a->n)
        violation(1);
    if (a->dep_stream >= 0 && atomic_load(&done_count[a->dep_stream]) < a->dep_count)
        violation(2);
    if ((int)aclcpuGetBlockNum() != a->blocks)
        violation(3);
    if (atomic_fetch_add(&block_count[a->stream], 1) == a->blocks - 1) {
        atomic_store(&block_count[a->stream], 0);
        atomic_fetch_add(&done_count[a->stream], 1);
    }
}

struct graph {
    aclrtContext ctx;
    aclrtFuncHandle step;
    aclrtStream streams[STREAMS];
    aclrtEvent events[STREAMS];      /* events[k] is only ever recorded on streams[k] */
    int published[STREAMS];          /* kernels covered by events[k]'s latest record; -1: none */
    pthread_mutex_t lock;            /* records, the waits that read them, and published[] */
    int issued[STREAMS];             /* kernels issued per stream (owner thread only) */
    _Atomic int api_errors;
};

static struct graph G;

struct worker_arg {
    int id;
    uint64_t seed;
};

static void *graph_thread(void *p)
{
    struct worker_arg *w = p;
    int base = w->id * PER_THREAD;

    if (aclrtSetCurrentContext(G.ctx) != ACL_SUCCESS) {
        atomic_fetch_add(&G.api_errors, 1);
        return NULL;
    }
    for (int it = 0; it < ITERS; it++) {
        int mine = base + (int)(xorshift(&w->seed) % PER_THREAD);
        uint64_t r = xorshift(&w->seed);
        struct step_args a = {mine, 0, -1, 0, 1 + (int)(xorshift(&w->seed) % 3)};

        if (r % 4 == 0) {
            /* Record this stream's progress so far. */
            pthread_mutex_lock(&G.lock);
            if (aclrtRecordEvent(G.events[mine], G.streams[mine]) != ACL_SUCCESS)
                atomic_fetch_add(&G.api_errors, 1);
            G.published[mine] = G.issued[mine];
            pthread_mutex_unlock(&G.lock);
        } else if (r % 4 == 1 || r % 4 == 2) {
            /* Wait for the latest record of any stream (often another thread's). */
            int from = (int)(xorshift(&w->seed) % STREAMS);
            pthread_mutex_lock(&G.lock);
            if (from != mine && G.published[from] >= 0) {
                if (aclrtStreamWaitEvent(G.streams[mine], G.events[from]) != ACL_SUCCESS)
                    atomic_fetch_add(&G.api_errors, 1);
                a.dep_stream = from;
                a.dep_count = G.published[from];
            }
            pthread_mutex_unlock(&G.lock);
        }
        a.n = G.issued[mine]++;
        if (aclrtLaunchKernel(G.step, (uint32_t)a.blocks, &a, sizeof(a), G.streams[mine]) != ACL_SUCCESS)
            atomic_fetch_add(&G.api_errors, 1);
        if (it % 97 == 96 && aclrtSynchronizeStream(G.streams[mine]) != ACL_SUCCESS)
            atomic_fetch_add(&G.api_errors, 1);
    }
    for (int k = base; k < base + PER_THREAD; k++)
        if (aclrtSynchronizeStream(G.streams[k]) != ACL_SUCCESS)
            atomic_fetch_add(&G.api_errors, 1);
    return NULL;
}

TEST(stress, threads_streams_and_event_edges)
{
    pthread_t th[THREADS];
    struct worker_arg args[THREADS];

    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&G.ctx));
    G.step = t_kernel("stress_step", k_step);
    ASSERT_EQ(pthread_mutex_init(&G.lock, NULL), 0);
    for (int k = 0; k < STREAMS; k++) {
        ASSERT_OK(aclrtCreateStreamWithConfig(&G.streams[k], (uint32_t)(k % 8), 0));
        ASSERT_OK(aclrtCreateEvent(&G.events[k]));
        G.published[k] = -1;
    }
    for (int i = 0; i < THREADS; i++) {
        args[i].id = i;
        args[i].seed = 0x9E3779B97F4A7C15ull * (uint64_t)(i + 1);
        ASSERT_EQ(pthread_create(&th[i], NULL, graph_thread, &args[i]), 0);
    }
    for (int i = 0; i < THREADS; i++)
        ASSERT_EQ(pthread_join(th[i], NULL), 0);
    ASSERT_EQ(atomic_load(&G.api_errors), 0);
    ASSERT_EQ(atomic_load(&first_violation_kind), 0);
    ASSERT_EQ(atomic_load(&violations), 0);
    for (int k = 0; k < STREAMS; k++) {
        ASSERT_EQ(atomic_load(&done_count[k]), G.issued[k]);
        ASSERT_OK(aclrtDestroyEvent(G.events[k]));
        ASSERT_OK(aclrtDestroyStream(G.streams[k]));
    }
    t_teardown();
}

/* A pipeline: stage i on stream i waits for stage i-1's record of the same
 * round, then adds to the item; each round's item must come out as the sum
 * of all stages, whatever the interleaving of rounds. */
enum { STAGES = 6, ROUNDS = 200 };
static _Atomic int item[ROUNDS];
static _Atomic int stage_seen_wrong;

struct stage_args {
    int round, stage;
};

static void k_stage(void *args)
{
    const struct stage_args *a = args;
    /* Stage s sees exactly the work of stages 0..s-1 for this round. */
    if (atomic_load(&item[a->round]) != a->stage * (a->stage - 1) / 2)
        atomic_fetch_add(&stage_seen_wrong, 1);
    atomic_fetch_add(&item[a->round], a->stage);
}

TEST(stress, pipeline_through_events)
{
    aclrtStream s[STAGES];
    aclrtEvent e[STAGES];
    aclrtFuncHandle k;
    t_setup();
    k = t_kernel("stress_stage", k_stage);
    for (int i = 0; i < STAGES; i++) {
        ASSERT_OK(aclrtCreateStream(&s[i]));
        /* Plain events: each wait waits for the record newest at its
         * call (a SYNC-flag event is one flag, set by any record). */
        ASSERT_OK(aclrtCreateEvent(&e[i]));
    }
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < STAGES; i++) {
            struct stage_args a = {r, i};
            if (i > 0)
                ASSERT_OK(aclrtStreamWaitEvent(s[i], e[i - 1]));
            ASSERT_OK(aclrtLaunchKernel(k, 1, &a, sizeof(a), s[i]));
            /* Re-recording e[i] for the next round is safe: the wait just
             * issued on s[i+1] already captured this round's record. */
            ASSERT_OK(aclrtRecordEvent(e[i], s[i]));
        }
    }
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_EQ(atomic_load(&stage_seen_wrong), 0);
    for (int r = 0; r < ROUNDS; r++)
        ASSERT_EQ(atomic_load(&item[r]), STAGES * (STAGES - 1) / 2);
    for (int i = 0; i < STAGES; i++) {
        ASSERT_OK(aclrtDestroyEvent(e[i]));
        ASSERT_OK(aclrtDestroyStream(s[i]));
    }
    t_teardown();
}

/* ---- handle fuzz ------------------------------------------------------------------------- */

static void k_fuzz_nop(void *args) { (void)args; }
static void fuzz_host_fn(void *args) { (void)args; }

struct fuzz_env {
    aclrtContext ctx;
    aclrtStream s;          /* live stream */
    aclrtEvent e;           /* live event, recorded and complete */
    aclrtNotify n;          /* live notify */
    aclrtFuncHandle k;      /* live kernel */
    void *dev;              /* live device memory */
};

/* Handle kinds, to leave out the calls where h is of the kind expected. */
enum {
    K_STREAM = 1 << 0,
    K_EVENT = 1 << 1,
    K_NOTIFY = 1 << 2,
    K_FUNC = 1 << 3,
    K_BINARY = 1 << 4,
    K_ARGS = 1 << 5,
    K_CONTEXT = 1 << 6,
};

/* Calls every handle-taking API with h in the place of each handle kind
 * not in skip; returns the number of calls that did not return 107017. */
static int fuzz_one(const struct fuzz_env *env, void *h, unsigned skip)
{
    int bad = 0;
    aclrtStreamStatus st;
    aclrtEventRecordedStatus rs;
    aclrtEventStatus es;
    aclrtEventWaitStatus ws;
    uint32_t u32;
    int32_t i32;
    uint64_t u64;
    float ms;
    char host[16] = {0}, host2[16];
    aclrtFuncHandle f;
    aclrtArgsHandle ah;
    aclrtParamHandle ph;
    void *buf;
    int64_t x = 1;
    uint64_t me = (uint64_t)pthread_self();
    aclrtContext cur = NULL;

#define FUZZ_CODE(expr, want)                                                                                  \
    do {                                                                                                       \
        aclError rc_ = (expr);                                                                                 \
        if (rc_ != (want)) {                                                                                   \
            bad++;                                                                                             \
            fprintf(stderr, "    fuzz %p: %s returned %d (%s)\n", h, #expr, rc_, aclcpuGetErrorName(rc_));     \
        }                                                                                                      \
    } while (0)
#define FUZZ(expr) FUZZ_CODE(expr, ACL_ERROR_RT_INVALID_HANDLE)

    if (!(skip & K_STREAM)) {
        FUZZ(aclrtSynchronizeStream(h));
        FUZZ(aclrtSynchronizeStreamWithTimeout(h, 10));
        FUZZ(aclrtStreamQuery(h, &st));
        FUZZ(aclrtStreamGetPriority(h, &u32));
        FUZZ(aclrtStreamGetFlags(h, &u32));
        FUZZ(aclrtStreamGetId(h, &i32));
        FUZZ(aclrtDestroyStream(h));
        FUZZ(aclrtDestroyStreamForce(h));
        FUZZ(aclrtSetStreamFailureMode(h, ACL_CONTINUE_ON_FAILURE));
        FUZZ(aclrtLaunchKernel(env->k, 1, NULL, 0, h));
        FUZZ(aclrtLaunchKernelV2(env->k, 1, NULL, 0, NULL, h));
        FUZZ(aclrtLaunchKernelWithHostArgs(env->k, 1, h, NULL, host, sizeof(host), NULL, 0));
        FUZZ(aclrtMemcpyAsync(host2, sizeof(host2), host, sizeof(host), ACL_MEMCPY_HOST_TO_HOST, h));
        FUZZ(aclrtMemsetAsync(env->dev, 16, 0, 16, h));
        FUZZ(aclrtLaunchHostFunc(h, fuzz_host_fn, NULL));
        FUZZ(aclrtLaunchCallback(fuzz_host_fn, NULL, ACL_CALLBACK_BLOCK, h));
        FUZZ(aclrtSubscribeReport(me, h));
        FUZZ(aclrtUnSubscribeReport(me, h));
        FUZZ(aclrtRecordEvent(env->e, h));
        FUZZ(aclrtStreamWaitEvent(h, env->e));
        FUZZ(aclrtResetEvent(env->e, h));
        FUZZ(aclrtRecordNotify(env->n, h));
    }
    if (!(skip & K_EVENT)) {
        FUZZ(aclrtDestroyEvent(h));
        FUZZ(aclrtRecordEvent(h, env->s));
        FUZZ(aclrtRecordEventWithFlag(h, env->s, 0));
        FUZZ(aclrtResetEvent(h, env->s));
        FUZZ(aclrtQueryEventStatus(h, &rs));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        FUZZ(aclrtQueryEvent(h, &es));
#pragma GCC diagnostic pop
        FUZZ(aclrtQueryEventWaitStatus(h, &ws));
        FUZZ(aclrtSynchronizeEvent(h));
        FUZZ(aclrtSynchronizeEventWithTimeout(h, 10));
        FUZZ(aclrtEventElapsedTime(&ms, h, env->e));
        FUZZ(aclrtEventElapsedTime(&ms, env->e, h));
        FUZZ(aclrtEventGetTimestamp(h, &u64));
        FUZZ(aclrtGetEventId(h, &u32));
        FUZZ(aclrtStreamWaitEvent(env->s, h));
        FUZZ(aclrtStreamWaitEventWithTimeout(env->s, h, 0));
        FUZZ(aclrtStreamWaitEventWithFlag(env->s, h, 0, 0));
    }
    if (!(skip & K_NOTIFY)) {
        FUZZ(aclrtDestroyNotify(h));
        FUZZ(aclrtRecordNotify(h, env->s));
        FUZZ(aclrtWaitAndResetNotify(h, env->s, 0));
        FUZZ(aclrtGetNotifyId(h, &u32));
    }
    if (!(skip & K_FUNC)) {
        FUZZ(aclrtLaunchKernel(h, 1, NULL, 0, env->s));
        FUZZ(aclrtLaunchKernelV2(h, 1, NULL, 0, NULL, env->s));
        FUZZ(aclrtLaunchKernelWithHostArgs(h, 1, env->s, NULL, host, sizeof(host), NULL, 0));
        FUZZ(aclrtKernelArgsInit(h, &ah));
    }
    if (!(skip & K_BINARY)) {
        FUZZ(aclrtBinaryGetFunction(h, "k", &f));
        FUZZ(aclrtBinaryUnLoad(h));
    }
    if (!(skip & K_ARGS)) {
        FUZZ(aclrtKernelArgsAppend(h, &x, sizeof(x), &ph));
        FUZZ(aclrtKernelArgsAppendPlaceHolder(h, &ph));
        FUZZ(aclrtKernelArgsParaUpdate(h, (aclrtParamHandle)(uintptr_t)1, &x, sizeof(x)));
        FUZZ(aclrtKernelArgsGetPlaceHolderBuffer(h, (aclrtParamHandle)(uintptr_t)1, 8, &buf));
        FUZZ(aclrtKernelArgsFinalize(h));
        FUZZ(aclrtLaunchKernelWithConfig(env->k, 1, env->s, NULL, h, NULL));
    }
    if (!(skip & K_CONTEXT)) {
        /* A context that is not live has the reference's own codes
         * (api_error.cc ContextSetCurrent, api_impl.cc ContextDestroy). */
        FUZZ_CODE(aclrtSetCurrentContext(h), ACL_ERROR_RT_PARAM_INVALID);
        FUZZ_CODE(aclrtDestroyContext(h), ACL_ERROR_RT_CONTEXT_NULL);
        if (aclrtGetCurrentContext(&cur) != ACL_SUCCESS || cur != env->ctx) {
            fprintf(stderr, "    fuzz %p: the current context changed\n", h);
            bad++;
            (void)aclrtSetCurrentContext(env->ctx);
        }
    }
#undef FUZZ
#undef FUZZ_CODE
    return bad;
}

static void fuzz_setup(struct fuzz_env *env)
{
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&env->ctx));
    ASSERT_OK(aclrtCreateStream(&env->s));
    ASSERT_OK(aclrtCreateEvent(&env->e));
    ASSERT_OK(aclrtRecordEvent(env->e, env->s));
    ASSERT_OK(aclrtCreateNotify(&env->n, ACL_NOTIFY_DEFAULT));
    ASSERT_OK(aclrtSynchronizeStream(env->s));
    env->k = t_kernel("stress_fuzz_nop", k_fuzz_nop);
    ASSERT_OK(aclrtMalloc(&env->dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
}

static void fuzz_check_alive(const struct fuzz_env *env)
{
    /* The live objects are untouched and the runtime still works. */
    ASSERT_OK(aclrtLaunchKernel(env->k, 2, NULL, 0, env->s));
    ASSERT_OK(aclrtRecordEvent(env->e, env->s));
    ASSERT_OK(aclrtSynchronizeEvent(env->e));
    ASSERT_OK(aclrtSynchronizeStream(env->s));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
}

TEST(stress, fuzz_random_handles)
{
    struct fuzz_env env;
    uint64_t seed = 0x243F6A8885A308D3ull;
    int bad = 0;
    fuzz_setup(&env);
    for (int i = 0; i < 300 && bad == 0; i++) {
        uint64_t v = xorshift(&seed);
        switch (i % 5) {
        case 0: /* any 64 bits */
            break;
        case 1: /* small integers */
            v = (v & 0xFFFFu) | 1u;
            break;
        case 2: /* aclcpu's handle tag, every type value, generations no object reaches */
            v = 0xAC00000000000000ull | ((uint64_t)(i % 32) << 51) | ((0x40000ull | ((v >> 40) & 0x3FFFFull)) << 32) |
                (v & 0xFFFFFFFFull);
            break;
        case 3: /* host pointers */
            v = (uint64_t)(uintptr_t)&env + (v & 0xFF);
            break;
        default:
            v |= 0x8000000000000000ull;
            break;
        }
        bad += fuzz_one(&env, (void *)(uintptr_t)v, 0);
    }
    ASSERT_EQ(bad, 0);
    fuzz_check_alive(&env);
    t_teardown();
}

TEST(stress, fuzz_destroyed_handles)
{
    struct fuzz_env env;
    aclrtStream s = NULL, s2 = NULL;
    aclrtEvent e = NULL, e2 = NULL;
    aclrtNotify n = NULL;
    aclrtContext c = NULL;
    aclrtBinHandle b = NULL;
    aclrtFuncHandle f = NULL;
    void *pool[16];
    int np = 0, bad = 0;

    fuzz_setup(&env);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtDestroyStream(s));
    pool[np++] = s;
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtLaunchKernel(env.k, 1, NULL, 0, s));
    ASSERT_OK(aclrtDestroyStreamForce(s));
    pool[np++] = s;
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtDestroyEvent(e));
    pool[np++] = e;
    ASSERT_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtRecordEvent(e, env.s));
    ASSERT_OK(aclrtDestroyEvent(e));
    pool[np++] = e;
    ASSERT_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    ASSERT_OK(aclrtDestroyNotify(n));
    pool[np++] = n;
    ASSERT_OK(aclrtCreateContext(&c, 0));
    ASSERT_OK(aclrtDestroyContext(c));
    ASSERT_OK(aclrtSetCurrentContext(env.ctx));
    pool[np++] = c;
    ASSERT_OK(aclrtBinaryLoadFromFile(ACLCPU_BUILD_DIR "/libaclcpu.so", NULL, &b));
    ASSERT_OK(aclrtBinaryGetFunction(b, "aclcpuGetBlockNum", &f));
    ASSERT_OK(aclrtBinaryUnLoad(b));
    pool[np++] = b;
    pool[np++] = f;
    /* New objects may reuse the memory: the old handles stay dead. */
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEvent(&e2));
    ASSERT_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    for (int i = 0; i < np; i++)
        bad += fuzz_one(&env, pool[i], 0);
    ASSERT_EQ(bad, 0);
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyEvent(e2));
    ASSERT_OK(aclrtDestroyNotify(n));
    fuzz_check_alive(&env);
    t_teardown();
}

TEST(stress, fuzz_live_handles_of_the_wrong_kind)
{
    struct fuzz_env env;
    aclrtArgsHandle ah = NULL;
    aclrtContext other = NULL;
    int bad = 0;
    fuzz_setup(&env);
    ASSERT_OK(aclrtKernelArgsInit(env.k, &ah));
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_OK(aclrtSetCurrentContext(env.ctx));
    /* Each live object, everywhere another kind is expected. */
    bad += fuzz_one(&env, env.s, K_STREAM);
    bad += fuzz_one(&env, env.e, K_EVENT);
    bad += fuzz_one(&env, env.n, K_NOTIFY);
    bad += fuzz_one(&env, env.k, K_FUNC);
    bad += fuzz_one(&env, ah, K_ARGS);
    bad += fuzz_one(&env, other, K_CONTEXT);
    ASSERT_EQ(bad, 0);
    ASSERT_OK(aclrtDestroyContext(other));
    fuzz_check_alive(&env);
    t_teardown();
}

/* ---- concurrent destruction ------------------------------------------------------------------ */

/* One thread creates and destroys streams and events and publishes each
 * pair (an event is only ever recorded on its own stream); another uses
 * whatever pair it last saw. Every call returns success or 107017, and
 * nothing crashes. */
enum { CHURN = 400 };
static aclrtStream churn_s[CHURN];
static aclrtEvent churn_e[CHURN];
static _Atomic int churn_pub = -1;
static _Atomic int churn_stop, churn_quit, churn_bad, churn_made;
static aclrtContext churn_ctx;

static void *churn_thread(void *p)
{
    uint64_t seed = 77;
    (void)p;
    if (aclrtSetCurrentContext(churn_ctx) != ACL_SUCCESS)
        return NULL;
    for (int i = 0; i < CHURN && !atomic_load(&churn_quit); i++) {
        if (aclrtCreateStream(&churn_s[i]) != ACL_SUCCESS || aclrtCreateEvent(&churn_e[i]) != ACL_SUCCESS) {
            atomic_fetch_add(&churn_bad, 1);
            break;
        }
        atomic_store(&churn_made, i + 1);
        atomic_store(&churn_pub, i);
        for (int j = (int)(xorshift(&seed) % 50); j > 0; j--)
            sched_yield();
        if ((xorshift(&seed) & 1) ? aclrtDestroyStream(churn_s[i]) != ACL_SUCCESS
                                  : aclrtDestroyStreamForce(churn_s[i]) != ACL_SUCCESS)
            atomic_fetch_add(&churn_bad, 1);
        if (aclrtDestroyEvent(churn_e[i]) != ACL_SUCCESS)
            atomic_fetch_add(&churn_bad, 1);
    }
    atomic_store(&churn_stop, 1);
    return NULL;
}

static _Atomic int racing_timeouts;

/* Success or 107017; a timed synchronize that straddles the destroy (a
 * misuse the spec leaves undefined: "no other API may be using it") may
 * also report its timeout. */
static int ok_or_stale_at(aclError rc, const char *what)
{
    if (rc == ACL_SUCCESS || rc == ACL_ERROR_RT_INVALID_HANDLE)
        return 1;
    if (rc == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT || rc == ACL_ERROR_RT_EVENT_SYNC_TIMEOUT) {
        atomic_fetch_add(&racing_timeouts, 1);
        return 1;
    }
    fprintf(stderr, "    %s returned %d (%s)\n", what, rc, aclcpuGetErrorName(rc));
    return 0;
}
#define ok_or_stale(call) ok_or_stale_at((call), #call)

TEST(stress, use_while_another_thread_destroys)
{
    pthread_t th;
    aclrtFuncHandle k;
    aclrtStreamStatus st;
    aclrtEventRecordedStatus rs;
    int calls = 0, bad = 0;

    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&churn_ctx));
    k = t_kernel("stress_fuzz_nop", k_fuzz_nop);
    ASSERT_EQ(pthread_create(&th, NULL, churn_thread, NULL), 0);
    /* Bounded in time as well: a slow runtime (or a sanitizer) ends early. */
    for (uint64_t end = t_now_ns() + 2000000000ull; !atomic_load(&churn_stop);) {
        if (t_now_ns() > end)
            atomic_store(&churn_quit, 1);
        int i = atomic_load(&churn_pub);
        aclrtStream s;
        aclrtEvent e;
        if (i < 0) {
            sched_yield();
            continue;
        }
        s = churn_s[i];
        e = churn_e[i];
        calls++;
        bad += !ok_or_stale(aclrtLaunchKernel(k, 2, NULL, 0, s));
        bad += !ok_or_stale(aclrtRecordEvent(e, s));
        bad += !ok_or_stale(aclrtStreamWaitEvent(s, e));
        bad += !ok_or_stale(aclrtStreamQuery(s, &st));
        bad += !ok_or_stale(aclrtQueryEventStatus(e, &rs));
        bad += !ok_or_stale(aclrtSynchronizeStreamWithTimeout(s, 100));
        bad += !ok_or_stale(aclrtSynchronizeEventWithTimeout(e, 100));
    }
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_EQ(atomic_load(&churn_bad), 0);
    ASSERT_EQ(bad, 0);
    ASSERT(calls > 0);
    if (atomic_load(&racing_timeouts) > 0)
        fprintf(stderr, "    note: %d timed synchronizes straddling a destroy ran out their timeout\n",
                atomic_load(&racing_timeouts));
    /* Once destroyed, every one of them is stale. */
    for (int i = 0; i < atomic_load(&churn_made); i++) {
        ASSERT_RC(aclrtLaunchKernel(k, 1, NULL, 0, churn_s[i]), ACL_ERROR_RT_INVALID_HANDLE);
        ASSERT_RC(aclrtSynchronizeStream(churn_s[i]), ACL_ERROR_RT_INVALID_HANDLE);
        ASSERT_RC(aclrtStreamQuery(churn_s[i], &st), ACL_ERROR_RT_INVALID_HANDLE);
        ASSERT_RC(aclrtRecordEvent(churn_e[i], NULL), ACL_ERROR_RT_INVALID_HANDLE);
        ASSERT_RC(aclrtSynchronizeEvent(churn_e[i]), ACL_ERROR_RT_INVALID_HANDLE);
    }
    ASSERT_OK(aclrtSynchronizeDevice());
    t_teardown();
}

/* Two threads destroy the same objects at the same time: exactly one wins,
 * the other gets 107017. */
static _Atomic int race_go;
static aclrtStream race_stream;
static aclrtEvent race_event;
static aclError race_rc[2][2];

static void *race_destroyer(void *p)
{
    int me = (int)(intptr_t)p;
    (void)aclrtSetCurrentContext(churn_ctx);
    while (!atomic_load(&race_go))
        ;
    race_rc[me][0] = aclrtDestroyStream(race_stream);
    race_rc[me][1] = aclrtDestroyEvent(race_event);
    return NULL;
}

TEST(stress, racing_destroys)
{
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&churn_ctx));
    for (int round = 0; round < 200; round++) {
        pthread_t th[2];
        ASSERT_OK(aclrtCreateStream(&race_stream));
        ASSERT_OK(aclrtCreateEvent(&race_event));
        atomic_store(&race_go, 0);
        for (int i = 0; i < 2; i++)
            ASSERT_EQ(pthread_create(&th[i], NULL, race_destroyer, (void *)(intptr_t)i), 0);
        atomic_store(&race_go, 1);
        for (int i = 0; i < 2; i++)
            ASSERT_EQ(pthread_join(th[i], NULL), 0);
        for (int j = 0; j < 2; j++) {
            int wins = (race_rc[0][j] == ACL_SUCCESS) + (race_rc[1][j] == ACL_SUCCESS);
            if (wins != 1)
                fprintf(stderr, "    round %d: both threads destroyed the same %s (%d, %d)\n", round,
                        j == 0 ? "stream" : "event", race_rc[0][j], race_rc[1][j]);
            int stale = (race_rc[0][j] == ACL_ERROR_RT_INVALID_HANDLE) + (race_rc[1][j] == ACL_ERROR_RT_INVALID_HANDLE);
            ASSERT_EQ(wins, 1);
            ASSERT_EQ(stale, 1);
        }
    }
    {
        uint32_t avail = 0;
        ASSERT_OK(aclrtGetStreamAvailableNum(&avail));
        ASSERT_EQ(avail, 1984 - 1);
    }
    t_teardown();
}
