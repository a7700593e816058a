/*
 * sumfile.c - reads summary.json (docs/profile-format.md): the SoC the
 * profile was modelled on, and the facts no kernel_details.csv carries —
 * kernels over their core limit, batch-mode kernels that waited for
 * cores, event waits that kept a stream waiting.
 *
 * DESIGN: each list item is read by a table of (key, kind, offset) so that
 * every required field is checked the same way and a missing or mistyped
 * one is reported at the item's position. Fields this reader does not use
 * (e2e, streams, overlap, ...) are not checked: the command computes them
 * itself from kernel_details.csv, the same way on Ascend's files. The
 * kernels of a contention interval are kept as (stream, task id) keys and
 * found among the kernel rows when used, as --step may drop rows.
 */
#include <stddef.h>
#include <string.h>

#include "json.h"
#include "profile.h"

enum field_kind { F_INT, F_LONG, F_UNSIGNED, F_US, F_DUR, F_STR, F_POOL }; /* F_US: a time, F_DUR: a duration */

struct field_spec {
    const char *key;
    enum field_kind kind;
    size_t offset;
};

struct sum_reader {
    struct profile *p;
    struct json_doc doc;
    double origin_us;
};

static const struct field_spec limit_fields[] = {
    {"stream_id", F_INT, offsetof(struct limit_hit, stream)},
    {"task_id", F_LONG, offsetof(struct limit_hit, task_id)},
    {"name", F_STR, offsetof(struct limit_hit, name)},
    {"engine", F_POOL, offsetof(struct limit_hit, pool)},
    {"block_num", F_UNSIGNED, offsetof(struct limit_hit, blocks)},
    {"limit", F_UNSIGNED, offsetof(struct limit_hit, limit)},
};

static const struct field_spec batch_fields[] = {
    {"stream_id", F_INT, offsetof(struct batch_wait, stream)},
    {"task_id", F_LONG, offsetof(struct batch_wait, task_id)},
    {"name", F_STR, offsetof(struct batch_wait, name)},
    {"engine", F_POOL, offsetof(struct batch_wait, pool)},
    {"block_num", F_UNSIGNED, offsetof(struct batch_wait, blocks)},
    {"ready_us", F_US, offsetof(struct batch_wait, ready)},
    {"start_us", F_US, offsetof(struct batch_wait, start)},
    {"wait_us", F_DUR, offsetof(struct batch_wait, wait)},
};

static const struct field_spec contention_fields[] = {
    {"engine", F_POOL, offsetof(struct contention, pool)},
    {"start_us", F_US, offsetof(struct contention, start)},
    {"end_us", F_US, offsetof(struct contention, end)},
    {"demand_blocks", F_UNSIGNED, offsetof(struct contention, demand)},
};

static const struct field_spec key_fields[] = {
    {"stream_id", F_INT, offsetof(struct task_key, stream)},
    {"task_id", F_LONG, offsetof(struct task_key, task_id)},
};

static const struct field_spec wait_fields[] = {
    {"stream_id", F_INT, offsetof(struct event_wait, stream)},
    {"task_id", F_LONG, offsetof(struct event_wait, task_id)},
    {"event_id", F_INT, offsetof(struct event_wait, event_id)},
    {"recorded_on_stream", F_INT, offsetof(struct event_wait, recorded_on)},
    {"start_us", F_US, offsetof(struct event_wait, start)},
    {"end_us", F_US, offsetof(struct event_wait, end)},
    {"wait_us", F_DUR, offsetof(struct event_wait, wait)},
};

static const struct field_spec measured_fields[] = {
    {"name", F_STR, offsetof(struct measured_kernel, name)},
    {"engine", F_STR, offsetof(struct measured_kernel, engine)},
    {"launches", F_UNSIGNED, offsetof(struct measured_kernel, launches)},
    {"min_us", F_DUR, offsetof(struct measured_kernel, min)},
    {"avg_us", F_DUR, offsetof(struct measured_kernel, avg)},
    {"max_us", F_DUR, offsetof(struct measured_kernel, max)},
};

static bool read_string_field(struct sum_reader *r, const struct json *v, const struct field_spec *f, char *base,
                              struct cli_error *err)
{
    if (v->type != JSON_STRING)
        return json_err(&r->doc, v, err, "\"%s\" must be a string, not %s", f->key, json_type_name(v->type));
    if (f->kind == F_STR) {
        *(const char **)(void *)(base + f->offset) = arena_strdup(&r->p->arena, v->u.string);
        return true;
    }
    if (str_eq(v->u.string, "cube") || str_eq(v->u.string, "vector")) {
        *(enum pool *)(void *)(base + f->offset) = str_eq(v->u.string, "cube") ? POOL_CUBE : POOL_VECTOR;
        return true;
    }
    return json_err(&r->doc, v, err, "\"%s\" must be \"cube\" or \"vector\", not \"%s\"", f->key, v->u.string);
}

static bool read_number_field(struct sum_reader *r, const struct json *v, const struct field_spec *f, char *base,
                              struct cli_error *err)
{
    double x;
    if (v->type != JSON_NUMBER)
        return json_err(&r->doc, v, err, "\"%s\" must be a number, not %s", f->key, json_type_name(v->type));
    x = v->u.number;
    /* The range first: casting a double out of range is undefined. */
    bool time = f->kind == F_US || f->kind == F_DUR;
    if (!time && (x < -1 || x > 2147483647.0 || x != (double)(long)x))
        return json_err(&r->doc, v, err, "\"%s\" must be a whole number, not %g", f->key, x);
    if (time && (x != x || x < -1e15 || x > 1e15))
        return json_err(&r->doc, v, err, "\"%s\" must be a time in us, not %g", f->key, x);
    if (f->kind == F_UNSIGNED && x < 0)
        return json_err(&r->doc, v, err, "\"%s\" must not be negative", f->key);
    if (f->kind == F_INT)
        *(int *)(void *)(base + f->offset) = (int)x;
    else if (f->kind == F_LONG)
        *(long *)(void *)(base + f->offset) = (long)x;
    else if (f->kind == F_UNSIGNED)
        *(unsigned *)(void *)(base + f->offset) = (unsigned)x;
    else
        *(double *)(void *)(base + f->offset) = f->kind == F_DUR ? x : x - r->origin_us;
    return true;
}

static bool read_item(struct sum_reader *r, const struct json *item, const struct field_spec *specs, size_t nspecs,
                      void *out, struct cli_error *err)
{
    if (item->type != JSON_OBJECT)
        return json_err(&r->doc, item, err, "expected an object, found %s", json_type_name(item->type));
    for (size_t i = 0; i < nspecs; i++) {
        const struct json *v = json_get(item, specs[i].key);
        bool ok;
        if (v == NULL)
            return json_err(&r->doc, item, err, "this item has no \"%s\"", specs[i].key);
        ok = specs[i].kind == F_STR || specs[i].kind == F_POOL ? read_string_field(r, v, &specs[i], out, err)
                                                                : read_number_field(r, v, &specs[i], out, err);
        if (!ok)
            return false;
    }
    return true;
}

/* Reads the array parent[key] (absent: none) into a new arena array. */
static bool read_list(struct sum_reader *r, const struct json *parent, const char *key, const struct field_spec *specs,
                      size_t nspecs, size_t elem, void **out, size_t *n, struct cli_error *err)
{
    const struct json *list = json_get(parent, key);
    char *items;
    *out = NULL;
    *n = 0;
    if (list == NULL)
        return true;
    if (list->type != JSON_ARRAY)
        return json_err(&r->doc, list, err, "\"%s\" must be an array, not %s", key, json_type_name(list->type));
    items = arena_alloc(&r->p->arena, list->n * elem + 1);
    for (size_t i = 0; i < list->n; i++)
        if (!read_item(r, &list->u.items[i], specs, nspecs, items + i * elem, err))
            return false;
    *out = items;
    *n = list->n;
    return true;
}

/* The model's dispatch and event latencies, when the summary gives them
 * (aclcpu's, from the version that models them), else none. */
static double sync_cost(const struct json *soc)
{
    const struct json *d = json_get(soc, "dispatch_us"), *e = json_get(soc, "event_us");
    double sum = 0;
    if (d != NULL && d->type == JSON_NUMBER && d->u.number > 0)
        sum += d->u.number;
    if (e != NULL && e->type == JSON_NUMBER && e->u.number > 0)
        sum += e->u.number;
    return sum;
}

static bool read_soc(struct sum_reader *r, struct cli_error *err)
{
    const struct json *soc = json_get(&r->doc.root, "soc"), *name, *cube, *vector;
    if (soc == NULL)
        return true;
    name = json_get(soc, "name");
    cube = json_get(soc, "cube_cores");
    vector = json_get(soc, "vector_cores");
    if (soc->type != JSON_OBJECT || name == NULL || name->type != JSON_STRING || cube == NULL ||
        cube->type != JSON_NUMBER || vector == NULL || vector->type != JSON_NUMBER || !(cube->u.number >= 1) ||
        !(vector->u.number >= 0) || cube->u.number > 65536 || vector->u.number > 65536)
        return json_err(&r->doc, soc, err, "\"soc\" must be an object with \"name\", \"cube_cores\" (1..65536) and \"vector_cores\" (0..65536)");
    snprintf(r->p->soc.name, sizeof(r->p->soc.name), "%s", name->u.string);
    r->p->soc.cores[POOL_CUBE] = (unsigned)cube->u.number;
    r->p->soc.cores[POOL_VECTOR] = (unsigned)vector->u.number;
    memcpy(r->p->summary_cores, r->p->soc.cores, sizeof(r->p->summary_cores));
    r->p->soc.sync_us = sync_cost(soc);
    snprintf(r->p->soc.source, sizeof(r->p->soc.source), "summary.json");
    r->p->soc.assumed = false;
    return true;
}

static bool check_version(struct sum_reader *r, struct cli_error *err)
{
    const struct json *root = &r->doc.root, *v = json_get(root, "aclcpu_profile_version");
    if (root->type != JSON_OBJECT)
        return json_err(&r->doc, root, err, "expected an object, found %s", json_type_name(root->type));
    if (v == NULL || v->type != JSON_NUMBER)
        return json_err(&r->doc, root, err, "no \"aclcpu_profile_version\": not an aclcpu summary.json");
    if (v->u.number != 1)
        return json_err(&r->doc, v, err, "aclcpu_profile_version %g: this aclcpu reads version 1", v->u.number);
    return true;
}

/* core_usage.contention, and the kernels of each interval. */
static bool read_contention(struct sum_reader *r, struct cli_error *err)
{
    const struct json *usage = json_get(&r->doc.root, "core_usage"), *list;
    struct profile *p = r->p;
    void *spans, *keys;
    if (usage != NULL && usage->type != JSON_OBJECT)
        return json_err(&r->doc, usage, err, "\"core_usage\" must be an object, not %s", json_type_name(usage->type));
    if (!read_list(r, usage, "contention", contention_fields, CLI_ARRAY_SIZE(contention_fields),
                   sizeof(struct contention), &spans, &p->ncontention, err))
        return false;
    p->contention = spans;
    list = json_get(usage, "contention");
    for (size_t i = 0; i < p->ncontention; i++) {
        if (!read_list(r, &list->u.items[i], "kernels", key_fields, CLI_ARRAY_SIZE(key_fields),
                       sizeof(struct task_key), &keys, &p->contention[i].nkernels, err))
            return false;
        p->contention[i].kernels = keys;
    }
    return true;
}

static bool read_facts(struct sum_reader *r, struct cli_error *err)
{
    struct profile *p = r->p;
    const struct json *root = &r->doc.root;
    void *limits, *batch, *waits;
    if (!read_list(r, root, "limits", limit_fields, CLI_ARRAY_SIZE(limit_fields), sizeof(struct limit_hit), &limits,
                   &p->nlimits, err) ||
        !read_list(r, root, "batch_waits", batch_fields, CLI_ARRAY_SIZE(batch_fields), sizeof(struct batch_wait),
                   &batch, &p->nbatch_waits, err) ||
        !read_list(r, root, "event_waits", wait_fields, CLI_ARRAY_SIZE(wait_fields), sizeof(struct event_wait),
                   &waits, &p->nevent_waits, err) ||
        !read_contention(r, err))
        return false;
    p->limits = limits;
    p->batch_waits = batch;
    p->event_waits = waits;
    p->has_facts = true;
    return true;
}

/* measured_kernels (absent from older files: then not known). */
static bool read_measured(struct sum_reader *r, struct cli_error *err)
{
    void *list;
    r->p->has_measured_list = json_get(&r->doc.root, "measured_kernels") != NULL;
    if (!read_list(r, &r->doc.root, "measured_kernels", measured_fields, CLI_ARRAY_SIZE(measured_fields),
                   sizeof(struct measured_kernel), &list, &r->p->nmeasured, err))
        return false;
    r->p->measured = list;
    return true;
}

static bool read_summary(struct sum_reader *r, const char *path, bool facts, struct cli_error *err)
{
    if (!json_load(&r->doc, path, err) || !check_version(r, err) || !read_soc(r, err) || !read_measured(r, err))
        return false;
    r->p->has_summary = true;
    return !facts || read_facts(r, err);
}

bool sumfile_load(struct profile *p, const char *path, bool facts, struct cli_error *err)
{
    struct sum_reader r = {.p = p, .origin_us = (double)p->origin_ns / 1000.0};
    bool ok = read_summary(&r, path, facts, err);
    json_free(&r.doc);
    return ok;
}
