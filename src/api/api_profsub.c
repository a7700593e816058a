/*
 * api_profsub.c - model subscription and the op-record getters of
 * acl/acl_prof.h.
 *
 * DESIGN: a subscribe config is a small record on a live list (a stale or
 * foreign one is refused); subscribing hands the pipe to
 * services/profsub.c, which writes one record per kernel of each run. The
 * getters read records the caller took out of the pipe: every one checks
 * the buffer (NULL, a length not a multiple of the record size, an index
 * past the end, a record whose signature does not match) and answers
 * CANN's way (100000, or 0 / NULL / ACL_SUBSCRIBE_NONE for the getters
 * that return values); between aclprofInit and aclprofFinalize they all
 * answer 148047 (collection and subscription do not mix).
 *
 * Threads: any host thread. Locks: cfg_lock (rank: lockrank.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/model.h"
#include "../services/profile.h"
#include "../services/profsub.h"
#include "acl/acl_prof.h"

#define SUB_MAGIC 0x73756273u /* "subs" */

struct aclprofSubscribeConfig {
    uint32_t magic;
    int8_t time_info;
    aclprofAicoreMetrics metrics;
    int fd;
    struct list link;
};

static plat_mutex cfg_lock;
static struct list sub_configs;

__attribute__((constructor)) static void profsub_api_init(void)
{
    plat_mutex_init(&cfg_lock, LOCK_API_PROFSUB);
    list_init(&sub_configs);
}

ACL_FUNC_VISIBILITY aclprofSubscribeConfig *aclprofCreateSubscribeConfig(int8_t timeInfoSwitch,
                                                                         aclprofAicoreMetrics aicoreMetrics, void *fd)
{
    struct aclprofSubscribeConfig *c;
    if (fd == NULL || (timeInfoSwitch != 0 && timeInfoSwitch != 1)) {
        acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofCreateSubscribeConfig: 'fd' must point to the pipe's write end and "
                 "'timeInfoSwitch' must be 0 or 1 (it is %d)", timeInfoSwitch);
        return NULL;
    }
    if ((c = acl_calloc(1, sizeof(*c))) == NULL)
        return NULL;
    c->magic = SUB_MAGIC;
    c->time_info = timeInfoSwitch;
    c->metrics = aicoreMetrics;
    c->fd = *(int *)fd;
    plat_mutex_lock(&cfg_lock);
    list_add_tail(&sub_configs, &c->link);
    plat_mutex_unlock(&cfg_lock);
    return c;
}

/* Called with cfg_lock held. */
static bool config_live_locked(const aclprofSubscribeConfig *c)
{
    PLAT_ASSERT_HELD(&cfg_lock);
    struct list *pos;
    list_for_each(pos, &sub_configs) if (ACLCPU_CONTAINER_OF(pos, struct aclprofSubscribeConfig, link) == c) return true;
    return false;
}

ACL_FUNC_VISIBILITY aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig *profSubscribeConfig)
{
    struct aclprofSubscribeConfig *c = (struct aclprofSubscribeConfig *)profSubscribeConfig;
    bool live;
    if (c == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofDestroySubscribeConfig: argument 'profSubscribeConfig' is NULL");
    plat_mutex_lock(&cfg_lock);
    if ((live = config_live_locked(c)))
        list_del(&c->link);
    plat_mutex_unlock(&cfg_lock);
    if (!live)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofDestroySubscribeConfig: %p is not a live subscribe config",
                        profSubscribeConfig);
    acl_free(c);
    return ACL_SUCCESS;
}

/* The live model with id modelId, or NULL. */
static struct model *model_by_id(uint32_t modelId)
{
    void *h = obj_handle_at(OBJ_MODEL, modelId);
    return h != NULL ? (struct model *)obj_resolve(h, OBJ_MODEL) : NULL;
}

ACL_FUNC_VISIBILITY aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig *profSubscribeConfig)
{
    const char *fn = "aclprofModelSubscribe";
    struct model *m;
    int fd = -1;
    int8_t ti = 0;
    int metrics = 0;
    aclError err;
    if (prof_collecting())
        return acl_fail(ACL_ERROR_PROF_API_CONFLICT, "%s: profiling is in collection mode (aclprofInit or "
                        "ACLCPU_PROFILE); subscription and collection do not mix", fn);
    if ((m = model_by_id(modelId)) == NULL || m->state != MODEL_READY)
        return acl_fail(ACL_ERROR_INVALID_MODEL_ID, "%s: argument 'modelId' (%u) is no model ready to run", fn, modelId);
    if (profSubscribeConfig == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'profSubscribeConfig' is NULL", fn);
    plat_mutex_lock(&cfg_lock);
    err = config_live_locked(profSubscribeConfig) ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
    if (err == ACL_SUCCESS) {
        fd = profSubscribeConfig->fd;
        ti = profSubscribeConfig->time_info;
        metrics = (int)profSubscribeConfig->metrics;
    }
    plat_mutex_unlock(&cfg_lock);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: argument 'profSubscribeConfig' is not a live subscribe config", fn);
    err = profsub_add(m->hdr.index, fd, ti, metrics);
    if (err == ACL_SUCCESS) /* relaxed: a hint, checked again under the subscription's lock */
        store_relaxed(&m->subscribed, true);
    if (err == ACL_ERROR_PROF_REPEAT_SUBSCRIBE)
        return acl_fail(err, "%s: model %u is subscribed already", fn, modelId);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: every subscribed model must use the same subscribe config (and at most 256)", fn);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofModelUnSubscribe(uint32_t modelId)
{
    struct model *m;
    if (prof_collecting())
        return acl_fail(ACL_ERROR_PROF_API_CONFLICT, "aclprofModelUnSubscribe: profiling is in collection mode");
    if (!profsub_remove(modelId))
        return acl_fail(ACL_ERROR_INVALID_MODEL_ID, "aclprofModelUnSubscribe: model %u is not subscribed", modelId);
    if ((m = model_by_id(modelId)) != NULL) /* relaxed: a hint */
        store_relaxed(&m->subscribed, false);
    return ACL_SUCCESS;
}

/* ---- getters ---------------------------------------------------------------------------------- */

#define REC sizeof(struct profsub_record)

/* The getters belong to subscription: refused in collection mode. */
static aclError check_mode(const char *fn)
{
    if (prof_collecting())
        return acl_fail(ACL_ERROR_PROF_API_CONFLICT, "%s: profiling is in collection mode (aclprofInit or "
                        "ACLCPU_PROFILE); the op getters belong to model subscription", fn);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofGetOpDescSize(size_t *opDescSize)
{
    aclError err = check_mode("aclprofGetOpDescSize");
    if (err != ACL_SUCCESS)
        return err;
    if (opDescSize == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofGetOpDescSize: argument 'opDescSize' is NULL");
    *opDescSize = REC;
    return ACL_SUCCESS;
}

static aclError check_buffer(const char *fn, const void *info, size_t len)
{
    aclError err = check_mode(fn);
    if (err != ACL_SUCCESS)
        return err;
    if (info == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'opInfo' is NULL", fn);
    if (len % REC != 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'opInfoLen' (%zu) is not a multiple of the record size "
                        "(%zu, aclprofGetOpDescSize)", fn, len, REC);
    return ACL_SUCCESS;
}

/* The record at index, copied out, or an error (recorded for fn). */
static aclError record_at(const char *fn, const void *info, size_t len, uint32_t index, struct profsub_record *r)
{
    aclError err = check_buffer(fn, info, len);
    if (err != ACL_SUCCESS)
        return err;
    if (index >= len / REC)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'index' (%u) is past the %zu records", fn, index,
                        len / REC);
    memcpy(r, (const char *)info + (size_t)index * REC, REC);
    if (r->signature != profsub_signature(r))
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: record %u is not an op record (its signature does not match)", fn,
                        index);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofGetOpNum(const void *opInfo, size_t opInfoLen, uint32_t *opNumber)
{
    aclError err = check_buffer("aclprofGetOpNum", opInfo, opInfoLen);
    if (err == ACL_SUCCESS && opNumber == NULL)
        err = acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofGetOpNum: argument 'opNumber' is NULL");
    if (err == ACL_SUCCESS)
        *opNumber = (uint32_t)(opInfoLen / REC);
    return err;
}

static aclError name_len(const char *fn, const void *info, size_t len, uint32_t index, size_t *out, bool type)
{
    struct profsub_record r;
    aclError err = record_at(fn, info, len, index, &r);
    size_t n;
    if (err == ACL_SUCCESS && out == NULL)
        err = acl_fail(ACL_ERROR_INVALID_PARAM, "%s: the length argument is NULL", fn);
    if (err != ACL_SUCCESS)
        return err;
    if ((n = profsub_name(r.op_index, type, NULL, 0, false)) == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: op %u's %s was fetched already (each is given once)", fn, index,
                        type ? "type" : "name");
    *out = n;
    return ACL_SUCCESS;
}

static aclError name_get(const char *fn, const void *info, size_t len, uint32_t index, char *out, size_t cap,
                         bool type)
{
    struct profsub_record r;
    aclError err = record_at(fn, info, len, index, &r);
    if (err == ACL_SUCCESS && (out == NULL || cap == 0))
        err = acl_fail(ACL_ERROR_INVALID_PARAM, "%s: the output buffer is NULL or of length 0", fn);
    if (err != ACL_SUCCESS)
        return err;
    if (profsub_name(r.op_index, type, out, cap, true) == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: op %u's %s was fetched already (each is given once)", fn, index,
                        type ? "type" : "name");
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofGetOpTypeLen(const void *opInfo, size_t opInfoLen, uint32_t index, size_t *opTypeLen)
{
    return name_len("aclprofGetOpTypeLen", opInfo, opInfoLen, index, opTypeLen, true);
}

ACL_FUNC_VISIBILITY aclError aclprofGetOpType(const void *opInfo, size_t opInfoLen, uint32_t index, char *opType,
                                              size_t opTypeLen)
{
    return name_get("aclprofGetOpType", opInfo, opInfoLen, index, opType, opTypeLen, true);
}

ACL_FUNC_VISIBILITY aclError aclprofGetOpNameLen(const void *opInfo, size_t opInfoLen, uint32_t index, size_t *opNameLen)
{
    return name_len("aclprofGetOpNameLen", opInfo, opInfoLen, index, opNameLen, false);
}

ACL_FUNC_VISIBILITY aclError aclprofGetOpName(const void *opInfo, size_t opInfoLen, uint32_t index, char *opName,
                                              size_t opNameLen)
{
    return name_get("aclprofGetOpName", opInfo, opInfoLen, index, opName, opNameLen, false);
}

ACL_FUNC_VISIBILITY uint64_t aclprofGetOpStart(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    struct profsub_record r;
    return record_at("aclprofGetOpStart", opInfo, opInfoLen, index, &r) == ACL_SUCCESS ? r.start : 0;
}

ACL_FUNC_VISIBILITY uint64_t aclprofGetOpEnd(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    struct profsub_record r;
    return record_at("aclprofGetOpEnd", opInfo, opInfoLen, index, &r) == ACL_SUCCESS ? r.end : 0;
}

ACL_FUNC_VISIBILITY uint64_t aclprofGetOpDuration(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    struct profsub_record r;
    return record_at("aclprofGetOpDuration", opInfo, opInfoLen, index, &r) == ACL_SUCCESS ? r.duration : 0;
}

ACL_FUNC_VISIBILITY size_t aclprofGetModelId(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    struct profsub_record r;
    aclError err = record_at("aclprofGetModelId", opInfo, opInfoLen, index, &r);
    return err == ACL_SUCCESS ? r.model_id : (size_t)err; /* CANN returns the code itself */
}

ACL_FUNC_VISIBILITY aclprofSubscribeOpFlag aclprofGetOpFlag(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    struct profsub_record r;
    if (record_at("aclprofGetOpFlag", opInfo, opInfoLen, index, &r) != ACL_SUCCESS)
        return ACL_SUBSCRIBE_NONE;
    return (aclprofSubscribeOpFlag)r.flag;
}

ACL_FUNC_VISIBILITY const char *aclprofGetOpAttriValue(const void *opInfo, size_t opInfoLen, uint32_t index,
                                                       aclprofSubscribeOpAttri attri)
{
    static _Thread_local char value[24];
    struct profsub_record r;
    if (record_at("aclprofGetOpAttriValue", opInfo, opInfoLen, index, &r) != ACL_SUCCESS)
        return NULL;
    if (attri != ACL_SUBSCRIBE_ATTRI_THREADID) {
        acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofGetOpAttriValue: argument 'attri' is %d; only "
                 "ACL_SUBSCRIBE_ATTRI_THREADID has a value", (int)attri);
        return NULL;
    }
    snprintf(value, sizeof(value), "%u", r.thread_id);
    return value;
}
