/*
 * perturb.c - seeded schedules (ACLCPU_SCHED=random:<seed>): legal but
 * adversarial interleavings, so that a missing event or sync shows up as a
 * different result on some seed instead of once a month on the device.
 *
 * DESIGN: with a seed, each stream task waits before it runs: not at all,
 * a yield, or a sleep of up to PERTURB_MAX_SLEEP_US, chosen from the seed,
 * the device, the stream's id and the task's place in its stream, so one
 * seed makes the same choices whichever thread runs the task; a host
 * function is delayed the same way. A worker that takes work picks a ready
 * stream at random among those of the best priority, not the oldest. None
 * of this breaks an order the API guarantees: it only delays tasks and
 * reorders streams that are all ready, as a device under load would. Off
 * (the default), an executor pays one predictable branch per task.
 *
 * Threads: executors (workers, syncing host threads, the host-function
 * thread); engine_start. Locks: none here; perturb_pick runs under the
 * engine's lock, taken by its caller.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"

#define PERTURB_MAX_SLEEP_US 400u

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

bool perturb_parse(const char *text, uint64_t *seed)
{
    char *end;
    unsigned long long v;
    if (text == NULL || strncmp(text, "random:", 7) != 0 || text[7] < '0' || text[7] > '9')
        return false;
    v = strtoull(text + 7, &end, 10);
    if (*end != '\0')
        return false;
    *seed = (uint64_t)v;
    return true;
}

void perturb_configure(struct engine *e)
{
    const char *text = config_str(CFG_SCHED);
    e->perturb = false;
    if (text == NULL || text[0] == '\0' || strcmp(text, "off") == 0)
        return;
    if (!perturb_parse(text, &e->perturb_seed)) {
        LOGW("ACLCPU_SCHED=%s is not random:<seed> (a decimal number); schedules are not perturbed", text);
        return;
    }
    e->perturb = true;
    LOGI("ACLCPU_SCHED: seeded schedule %llu on device %d", (unsigned long long)e->perturb_seed,
         (int)e->dev->id);
}

/* The choice for one task: 0 none, 1 a yield, else a sleep of that many us. */
static uint32_t task_delay_us(const struct engine *e, int32_t stream_id, uint64_t seq)
{
    uint64_t h = mix64(e->perturb_seed ^ mix64(((uint64_t)(uint32_t)e->dev->id << 40) ^
                                               ((uint64_t)(uint32_t)stream_id << 20) ^ mix64(seq)));
    switch (h & 3) {
    case 0: return 0;
    case 1: return 1;
    default: return 2 + (uint32_t)((h >> 8) % (PERTURB_MAX_SLEEP_US - 1));
    }
}

void perturb_task(const struct engine *e, const struct stream *s, uint64_t seq)
{
    uint32_t us = task_delay_us(e, load_relaxed(&s->id), seq);
    if (us == 1)
        plat_thread_yield();
    else if (us > 1)
        plat_sleep_ns((uint64_t)us * 1000u);
}

uint32_t perturb_pick(struct engine *e, uint32_t n)
{
    PLAT_ASSERT_HELD(&e->lock);
    return n <= 1 ? 0 : (uint32_t)(mix64(e->perturb_seed ^ ++e->perturb_picks) % n);
}
