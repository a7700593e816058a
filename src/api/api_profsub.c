/*
 * api_profsub.c - model subscription and the op-record getters of
 * acl/acl_prof.h.
 *
 * DESIGN: a subscribe config is a small record on a live list (a stale or
 * foreign one is refused); subscribing hands the pipe to
 * services/profsub.c, which writes one record per kernel of each run. The
 * getters read records the caller took out of the pipe, checked as CANN's
 * op-record parser does (op_desc_parser.cpp): NULL arguments, a length not
 * a multiple of the record size or any record whose signature does not
 * match, an index past the end; they answer 100000, or 0 / NULL for the
 * getters that return values. They only read the caller's buffer, so they
 * work in any mode (CANN does not check it there either).
 *
 * Model ids a loader registered (MsprofSetDeviceIdByGeModelIdx: aclcpu has
 * no loader, but a program may register one as the vendor's sample does)
 * are subscribed as live models are; no run carries their id.
 *
 * Threads: any host thread. Locks: cfg_lock (rank: lockrank.h), also over
 * the registered model ids.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/model.h"
#include "../services/profile.h"
#include "../services/profsub.h"
#include "acl/acl_prof.h"
#include "profiling/aprof_pub.h"

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

#define MAX_GE_MODELS 4096
struct ge_model {
    uint32_t id, device;
};
static struct ge_model ge_models[MAX_GE_MODELS]; /* under cfg_lock */
static size_t nge_models;

__attribute__((constructor)) static void profsub_api_init(void)
{
    plat_mutex_init(&cfg_lock, LOCK_API_PROFSUB);
    list_init(&sub_configs);
}

ACL_FUNC_VISIBILITY aclprofSubscribeConfig *aclprofCreateSubscribeConfig(int8_t timeInfoSwitch,
                                                                         aclprofAicoreMetrics aicoreMetrics, void *fd)
{
    struct aclprofSubscribeConfig *c;
    if (fd == NULL) {
        acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofCreateSubscribeConfig: argument 'fd' is NULL; it must point to the "
                 "pipe's write end");
        return NULL;
    }
    if (timeInfoSwitch != 0 && timeInfoSwitch != 1) {
        acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofCreateSubscribeConfig: argument 'timeInfoSwitch' is %d; it must be "
                 "0 or 1", timeInfoSwitch);
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

/* CANN's subscription precheck: refused while ACLCPU_PROFILE profiles the
 * whole run (as under msprof's command line: 100042) and between
 * aclprofInit (or an aclprofStart that initialised) and aclprofFinalize
 * (148047). */
static aclError check_mode(const char *fn)
{
    if (prof_env_active())
        return acl_fail(ACL_ERROR_PROF_ALREADY_RUN, "%s: ACLCPU_PROFILE is profiling the whole run; subscription is "
                        "off meanwhile", fn);
    if (prof_collecting())
        return acl_fail(ACL_ERROR_PROF_API_CONFLICT, "%s: profiling is in collection mode (aclprofInit .. "
                        "aclprofFinalize); subscription and collection do not mix", fn);
    return ACL_SUCCESS;
}

/* The live model with id modelId, or NULL. */
static struct model *model_by_id(uint32_t modelId)
{
    void *h = obj_handle_at(OBJ_MODEL, modelId);
    return h != NULL ? (struct model *)obj_resolve(h, OBJ_MODEL) : NULL;
}

/* Called with cfg_lock held: where modelId is registered, or nge_models. */
static size_t ge_model_at_locked(uint32_t modelId)
{
    PLAT_ASSERT_HELD(&cfg_lock);
    size_t i = 0;
    while (i < nge_models && ge_models[i].id != modelId)
        i++;
    return i;
}

static bool ge_model_registered(uint32_t modelId)
{
    bool found;
    plat_mutex_lock(&cfg_lock);
    found = ge_model_at_locked(modelId) < nge_models;
    plat_mutex_unlock(&cfg_lock);
    return found;
}

MSVP_PROF_API int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId)
{
    size_t i;
    int32_t rc = 0;
    if (deviceId >= device_count())
        return -1;
    plat_mutex_lock(&cfg_lock);
    i = ge_model_at_locked(geModelIdx);
    if (i == nge_models && nge_models == MAX_GE_MODELS)
        rc = -1;
    else
        ge_models[i == nge_models ? nge_models++ : i] = (struct ge_model){geModelIdx, deviceId};
    plat_mutex_unlock(&cfg_lock);
    return rc;
}

MSVP_PROF_API int32_t MsprofUnsetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId)
{
    size_t i;
    int32_t rc = -1;
    plat_mutex_lock(&cfg_lock);
    i = ge_model_at_locked(geModelIdx);
    if (i < nge_models && ge_models[i].device == deviceId) {
        ge_models[i] = ge_models[--nge_models];
        rc = 0;
    }
    plat_mutex_unlock(&cfg_lock);
    return rc;
}

ACL_FUNC_VISIBILITY aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig *profSubscribeConfig)
{
    const char *fn = "aclprofModelSubscribe";
    struct model *m;
    int fd = -1;
    int8_t ti = 0;
    int metrics = 0;
    aclError err;
    m = model_by_id(modelId);
    if ((m == NULL || m->state != MODEL_READY) && !(m == NULL && ge_model_registered(modelId)))
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
    if ((err = check_mode(fn)) != ACL_SUCCESS)
        return err;
    if (ti == 0 && metrics == (int)ACL_AICORE_NONE) /* CANN's CheckSubscribeConfig */
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'profSubscribeConfig' asks for nothing (timeInfoSwitch "
                        "0 and ACL_AICORE_NONE); set timeInfoSwitch to 1 to receive the op records", fn);
    err = profsub_add(modelId, fd, ti, metrics);
    if (err == ACL_SUCCESS && m != NULL) /* relaxed: a hint, checked again under the subscription's lock */
        store_relaxed(&m->subscribed, true);
    if (err == ACL_ERROR_PROF_REPEAT_SUBSCRIBE)
        return acl_fail(err, "%s: model %u is subscribed already", fn, modelId);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: every subscribed model must use the same subscribe config (and at most 256)", fn);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofModelUnSubscribe(uint32_t modelId)
{
    const char *fn = "aclprofModelUnSubscribe";
    struct model *m;
    aclError err;
    if ((m = model_by_id(modelId)) == NULL && !ge_model_registered(modelId))
        return acl_fail(ACL_ERROR_INVALID_MODEL_ID, "%s: argument 'modelId' (%u) is no loaded model", fn, modelId);
    if ((err = check_mode(fn)) != ACL_SUCCESS)
        return err;
    if (!profsub_remove(modelId))
        return acl_fail(ACL_ERROR_INVALID_MODEL_ID, "%s: argument 'modelId' (%u) is not subscribed", fn, modelId);
    if (m != NULL)
        store_relaxed(&m->subscribed, false); /* relaxed: a hint */
    return ACL_SUCCESS;
}

/* ---- getters ---------------------------------------------------------------------------------- */

#define REC sizeof(struct profsub_record)

ACL_FUNC_VISIBILITY aclError aclprofGetOpDescSize(size_t *opDescSize)
{
    if (opDescSize == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofGetOpDescSize: argument 'opDescSize' is NULL");
    *opDescSize = REC;
    return ACL_SUCCESS;
}

/* CANN's check of the whole buffer: its length a multiple of the record
 * size, and every record's signature right. */
static aclError check_buffer(const char *fn, const void *info, size_t len)
{
    struct profsub_record r;
    if (len % REC != 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'opInfoLen' (%zu) is not a multiple of the record size "
                        "(%zu, aclprofGetOpDescSize)", fn, len, REC);
    for (size_t i = 0; i < len / REC; i++) {
        memcpy(&r, (const char *)info + i * REC, REC);
        if (r.signature != profsub_signature(&r))
            return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'opInfo': record %zu is not an op record (its "
                            "signature does not match)", fn, i);
    }
    return ACL_SUCCESS;
}

/* The record at index, copied out, or 100000 (recorded for fn): opInfo
 * NULL, index past the end, and (whole) when the whole buffer is checked. */
static aclError record_at(const char *fn, const void *info, size_t len, uint32_t index, bool whole,
                          struct profsub_record *r)
{
    aclError err;
    if (info == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'opInfo' is NULL", fn);
    if (whole && (err = check_buffer(fn, info, len)) != ACL_SUCCESS)
        return err;
    if (index >= len / REC)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'index' (%u) is past the %zu records", fn, index,
                        len / REC);
    memcpy(r, (const char *)info + (size_t)index * REC, REC);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclprofGetOpNum(const void *opInfo, size_t opInfoLen, uint32_t *opNumber)
{
    const char *fn = "aclprofGetOpNum";
    aclError err;
    if (opInfo == NULL || opNumber == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is NULL", fn, opInfo == NULL ? "opInfo" : "opNumber");
    if ((err = check_buffer(fn, opInfo, opInfoLen)) != ACL_SUCCESS)
        return err;
    *opNumber = (uint32_t)(opInfoLen / REC);
    return ACL_SUCCESS;
}

static aclError name_len(const char *fn, const void *info, size_t len, uint32_t index, size_t *out, bool type)
{
    struct profsub_record r;
    aclError err;
    size_t n;
    if (info == NULL || out == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is NULL", fn,
                        info == NULL ? "opInfo" : type ? "opTypeLen" : "opNameLen");
    if ((err = record_at(fn, info, len, index, true, &r)) != ACL_SUCCESS)
        return err;
    if ((n = profsub_name(r.op_index, type, NULL, 0, false)) == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: op %u's %s was fetched already (each is given once)", fn, index,
                        type ? "type" : "name");
    *out = n;
    return ACL_SUCCESS;
}

/* The buffer may be one short of the length getter's answer (the text is
 * cut by its last character to end in NUL); shorter is refused, and the
 * text is not spent. */
static aclError name_get(const char *fn, const void *info, size_t len, uint32_t index, char *out, size_t cap,
                         bool type)
{
    const char *arg = type ? "opTypeLen" : "opNameLen";
    struct profsub_record r;
    aclError err;
    size_t n;
    if (info == NULL || out == NULL || cap == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is %s", fn,
                        info == NULL ? "opInfo" : out == NULL ? (type ? "opType" : "opName") : arg,
                        info == NULL || out == NULL ? "NULL" : "0");
    if ((err = record_at(fn, info, len, index, true, &r)) != ACL_SUCCESS)
        return err;
    if ((n = profsub_name(r.op_index, type, NULL, 0, false)) == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: op %u's %s was fetched already (each is given once)", fn, index,
                        type ? "type" : "name");
    if (cap + 1 < n)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is %zu; the %s needs %zu (at least %zu)", fn, arg,
                        cap, type ? "type" : "name", n, n - 1);
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
    return record_at("aclprofGetOpStart", opInfo, opInfoLen, index, true, &r) == ACL_SUCCESS ? r.start : 0;
}

ACL_FUNC_VISIBILITY uint64_t aclprofGetOpEnd(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    struct profsub_record r;
    return record_at("aclprofGetOpEnd", opInfo, opInfoLen, index, true, &r) == ACL_SUCCESS ? r.end : 0;
}

ACL_FUNC_VISIBILITY uint64_t aclprofGetOpDuration(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    struct profsub_record r;
    return record_at("aclprofGetOpDuration", opInfo, opInfoLen, index, true, &r) == ACL_SUCCESS ? r.duration : 0;
}

ACL_FUNC_VISIBILITY size_t aclprofGetModelId(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    struct profsub_record r;
    aclError err = record_at("aclprofGetModelId", opInfo, opInfoLen, index, true, &r);
    return err == ACL_SUCCESS ? r.model_id : (size_t)err; /* CANN returns the code itself */
}

/* CANN reads the flag without checking the buffer: NULL answers
 * ACL_SUBSCRIBE_NONE, an index past the end 0 (ACL_SUBSCRIBE_OP). */
ACL_FUNC_VISIBILITY aclprofSubscribeOpFlag aclprofGetOpFlag(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    struct profsub_record r;
    if (opInfo == NULL) {
        acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofGetOpFlag: argument 'opInfo' is NULL");
        return ACL_SUBSCRIBE_NONE;
    }
    if (record_at("aclprofGetOpFlag", opInfo, opInfoLen, index, false, &r) != ACL_SUCCESS)
        return (aclprofSubscribeOpFlag)0;
    return (aclprofSubscribeOpFlag)r.flag;
}

/* The thread id is an attribute of ACL_SUBSCRIBE_OP_THREAD records only
 * (aclcpu's records are ACL_SUBSCRIBE_OP ones, so it answers NULL). */
ACL_FUNC_VISIBILITY const char *aclprofGetOpAttriValue(const void *opInfo, size_t opInfoLen, uint32_t index,
                                                       aclprofSubscribeOpAttri attri)
{
    const char *fn = "aclprofGetOpAttriValue";
    static _Thread_local char value[24];
    struct profsub_record r;
    if (record_at(fn, opInfo, opInfoLen, index, false, &r) != ACL_SUCCESS)
        return NULL;
    if (attri != ACL_SUBSCRIBE_ATTRI_THREADID) {
        acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'attri' is %d; only ACL_SUBSCRIBE_ATTRI_THREADID has a value",
                 fn, (int)attri);
        return NULL;
    }
    if (r.flag != ACL_SUBSCRIBE_OP_THREAD) {
        acl_fail(ACL_ERROR_INVALID_PARAM, "%s: op %u is flagged %u; only ACL_SUBSCRIBE_OP_THREAD ops have a thread id",
                 fn, index, r.flag);
        return NULL;
    }
    snprintf(value, sizeof(value), "%u", r.thread_id);
    return value;
}
