/*
 * profsub.c - model subscription (aclprofModelSubscribe): one fixed-size
 * record per kernel of each run of a subscribed model, written into the
 * pipe the subscriber gave, as the kernel ends.
 *
 * DESIGN: a table of subscriptions by model id (at most 256 at a time)
 * holds the write end of each pipe. A lane that plays a kernel of a
 * subscribed model (engine/replay.c) calls profsub_kernel, which builds
 * the record (the layout CANN's parser reads: spec prof-api.md §1.5, 80
 * bytes) and writes it whole. Op names are not in the record: a ring of
 * the newest 65536 names, by op index, answers aclprofGetOpName/Type once
 * each, as CANN does.
 *
 * Threads: host threads (subscribe, unsubscribe, getters), executors
 * (records). Locks: sub_lock, a leaf, also held across the write so an
 * unsubscribe cannot close the pipe under it.
 */
#include <stdio.h>
#include <string.h>

#include "../core/model.h"
#include "profsub.h"

#define MAX_SUBS 256
#define NAME_RING 65536

struct sub {
    bool used;
    uint32_t model;
    int fd;
    int8_t time_info;
    int metrics;
};

struct op_name {
    uint64_t op_index;   /* 0: empty */
    char name[128];
    bool type_taken, name_taken;
};

static plat_mutex sub_lock;
static struct sub subs[MAX_SUBS];
static struct op_name names[NAME_RING];
static uint64_t next_op;

__attribute__((constructor)) static void profsub_init(void) { plat_mutex_init(&sub_lock); }

uint32_t profsub_signature(const struct profsub_record *r)
{
    const unsigned char *p = (const unsigned char *)r + sizeof(r->signature);
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < offsetof(struct profsub_record, dev_id) + sizeof(r->dev_id) - sizeof(r->signature); i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

/* Called with sub_lock held. */
static struct sub *find_locked(uint32_t model)
{
    for (int i = 0; i < MAX_SUBS; i++)
        if (subs[i].used && subs[i].model == model)
            return &subs[i];
    return NULL;
}

bool profsub_active(uint32_t model)
{
    bool on;
    plat_mutex_lock(&sub_lock);
    on = find_locked(model) != NULL;
    plat_mutex_unlock(&sub_lock);
    return on;
}

bool profsub_any(void)
{
    bool any = false;
    plat_mutex_lock(&sub_lock);
    for (int i = 0; i < MAX_SUBS && !any; i++)
        any = subs[i].used;
    plat_mutex_unlock(&sub_lock);
    return any;
}

aclError profsub_add(struct model *m, int fd, int8_t time_info, int metrics)
{
    aclError err = ACL_SUCCESS;
    uint32_t id = m->hdr.index;
    plat_mutex_lock(&sub_lock);
    if (find_locked(id) != NULL) {
        err = ACL_ERROR_PROF_REPEAT_SUBSCRIBE;
    } else {
        for (int i = 0; i < MAX_SUBS && err == ACL_SUCCESS; i++) {
            /* All models of a device share one subscription config. */
            if (subs[i].used && (subs[i].time_info != time_info || subs[i].metrics != metrics))
                err = ACL_ERROR_INVALID_PROFILING_CONFIG;
        }
        int i = 0;
        while (err == ACL_SUCCESS && i < MAX_SUBS && subs[i].used)
            i++;
        if (err == ACL_SUCCESS && i == MAX_SUBS)
            err = ACL_ERROR_PROFILING_FAILURE;
        if (err == ACL_SUCCESS) {
            subs[i] = (struct sub){true, id, fd, time_info, metrics};
            store_relaxed(&m->subscribed, true);
        }
    }
    plat_mutex_unlock(&sub_lock);
    return err;
}

bool profsub_remove(uint32_t model, struct model *m)
{
    struct sub *s;
    plat_mutex_lock(&sub_lock);
    s = find_locked(model);
    if (s != NULL) {
        plat_close(s->fd); /* the reader sees the end of the pipe */
        s->used = false;
        if (m != NULL)
            store_relaxed(&m->subscribed, false);
    }
    plat_mutex_unlock(&sub_lock);
    return s != NULL;
}

/* Called with sub_lock held: the op's index, with its name kept. */
static uint64_t name_op_locked(const char *name)
{
    uint64_t op = ++next_op;
    struct op_name *n = &names[op % NAME_RING];
    n->op_index = op;
    snprintf(n->name, sizeof(n->name), "%s", name != NULL ? name : "kernel");
    n->type_taken = n->name_taken = false;
    return op;
}

void profsub_kernel(struct model *m, const struct task *rt, uint64_t start_ns, uint64_t end_ns)
{
    struct profsub_record r;
    struct sub *s;
    memset(&r, 0, sizeof(r));
    r.model_id = m->hdr.index;
    r.flag = 0; /* ACL_SUBSCRIBE_OP */
    r.thread_id = (uint32_t)plat_thread_self();
    r.start = start_ns / 1000;
    r.end = end_ns / 1000;
    r.duration = r.end - r.start;
    r.execution_time = r.duration;
    r.dev_id = (uint32_t)m->dev->id;
    plat_mutex_lock(&sub_lock);
    if ((s = find_locked(r.model_id)) != NULL) {
        r.op_index = name_op_locked(rt->u.kernel.kf != NULL ? rt->u.kernel.kf->name : NULL);
        r.signature = profsub_signature(&r);
        if (!plat_write_all(s->fd, &r, sizeof(r)))
            LOGW("aclprofModelSubscribe: writing model %u's op record failed; the pipe is closed?", r.model_id);
    }
    plat_mutex_unlock(&sub_lock);
}

/* An op's name (once for the type, once for the name): its length with the
 * NUL, or 0 when unknown or already taken; take copies and consumes it. */
size_t profsub_name(uint64_t op, bool type, char *out, size_t cap, bool take)
{
    struct op_name *n = &names[op % NAME_RING];
    size_t len = 0;
    plat_mutex_lock(&sub_lock);
    if (op != 0 && n->op_index == op && !(type ? n->type_taken : n->name_taken)) {
        len = strlen(n->name) + 1;
        if (out != NULL && cap > 0) {
            snprintf(out, cap, "%s", n->name); /* truncated at cap - 1 */
        }
        if (take) {
            if (type)
                n->type_taken = true;
            else
                n->name_taken = true;
        }
    }
    plat_mutex_unlock(&sub_lock);
    return len;
}
