/*
 * libconf.c - reads the SoC table and the configuration through the
 * library's own functions (linked from its static archive): soc_list,
 * soc_find, soc_configured, engine_worker_count, device_count, and the
 * table of every environment variable the library reads (config.def,
 * read through config_u64/config_str).
 *
 * DESIGN: an adapter, so that what `aclcpu info` and the profile commands
 * report is what the library would do, computed by the same code, and so
 * that only this file sees the library's internal headers.
 */
#include "libconf.h"

#include "core/core.h"
#include "engine/engine.h"

static void copy_row(const struct soc_profile *s, struct soc_row *out)
{
    *out = (struct soc_row){s->name, s->product, s->cube_cores, s->vector_cores, s->memory_bytes, s->l2_bytes,
                            s->max_streams, s->max_events, s->cube_mhz, s->hbm_gbps, s->h2d_gbps,
                            s->hbm_sat_cores,
                            /* As the library models them: ACLCPU_MODEL_*_NS override the profile's. */
                            (double)config_u64_or(CFG_MODEL_DISPATCH_NS, s->dispatch_ns) / 1e3,
                            (double)config_u64_or(CFG_MODEL_EVENT_NS, s->event_ns) / 1e3};
}

size_t libconf_soc_count(void)
{
    size_t n;
    soc_list(&n);
    return n;
}

void libconf_soc_at(size_t i, struct soc_row *out)
{
    size_t n;
    copy_row(&soc_list(&n)[i], out);
}

bool libconf_soc_find(const char *name, struct soc_row *out)
{
    const struct soc_profile *s = soc_find(name);
    if (s != NULL)
        copy_row(s, out);
    return s != NULL;
}

void libconf_soc_in_force(struct soc_row *out) { copy_row(soc_configured(), out); }
unsigned libconf_workers(void) { return engine_worker_count(); }
bool libconf_workers_from_env(void) { return config_u64(CFG_WORKERS) != 0; }
unsigned libconf_devices(void) { return device_count(); }
uint64_t libconf_device_memory(void) { return config_u64_or(CFG_DEVICE_MEMORY, soc_configured()->memory_bytes); }
const char *libconf_soc_env(void) { return config_str(CFG_SOC); }

size_t libconf_env_count(void) { return CFG_COUNT; }

void libconf_env_at(size_t i, struct env_row *out)
{
    const struct config_row *row = config_row((enum config_var)i);
    *out = (struct env_row){row->name, config_str((enum config_var)i), row->default_text, row->meaning};
}
