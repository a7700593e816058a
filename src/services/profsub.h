/*
 * profsub.h - model subscription: op records written into a pipe while a
 * subscribed model runs (profsub.c), read back by the aclprofGetOp*
 * getters (api/api_profsub.c).
 */
#ifndef ACLCPU_PROFSUB_H
#define ACLCPU_PROFSUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"

/* The record of one op, as CANN lays it out. */
struct profsub_record {
    uint32_t signature; /* profsub_signature of the rest */
    uint32_t model_id;
    uint32_t flag;      /* aclprofSubscribeOpFlag */
    uint32_t thread_id;
    uint64_t op_index;
    uint64_t duration;  /* us */
    uint64_t start;     /* us, monotonic */
    uint64_t end;
    uint64_t execution_time;
    uint64_t cube_fops;
    uint64_t vector_fops;
    uint32_t dev_id;
};

uint32_t profsub_signature(const struct profsub_record *r);

/* Subscribes model id: records go to fd (the pipe's write end). 148046
 * when it is subscribed already, 100010 when the config differs from the
 * other subscriptions', 500005 when 256 are in place. The caller keeps the
 * model's own hint (model->subscribed) in step. */
aclError profsub_add(uint32_t model, int fd, int8_t time_info, int metrics);
/* Unsubscribes model id: closes its pipe. False when it was not subscribed. */
bool profsub_remove(uint32_t model);
bool profsub_active(uint32_t model);
bool profsub_any(void);

/* A kernel (name, or NULL) of a subscribed model on device dev ended
 * (called by the lane that played it). */
void profsub_kernel(uint32_t model, uint32_t dev, const char *name, uint64_t start_ns, uint64_t end_ns);

/* An op's type or name: length with the NUL, or 0 when unknown or already
 * fetched; copies into out (truncating), and with take, consumes it. */
size_t profsub_name(uint64_t op, bool type, char *out, size_t cap, bool take);

#endif
