/*
 * libconf.h - the library's own SoC table and configuration, as the aclcpu
 * command sees them (libconf.c is the only file that includes the
 * library's internal headers, whose names would clash with ours).
 */
#ifndef ACLCPU_CLI_LIBCONF_H
#define ACLCPU_CLI_LIBCONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct soc_row {
    const char *name, *product;
    unsigned cube_cores, vector_cores;
    uint64_t memory_bytes, l2_bytes;
    unsigned max_streams, max_events, cube_mhz;
    double hbm_gbps, h2d_gbps;
    double hbm_sat_cores, dispatch_us, event_us;
};

size_t libconf_soc_count(void);
void libconf_soc_at(size_t i, struct soc_row *out);
bool libconf_soc_find(const char *name, struct soc_row *out);
/* The profile a device opened now plays (ACLCPU_SOC, else the default). */
void libconf_soc_in_force(struct soc_row *out);
unsigned libconf_workers(void);           /* per device */
bool libconf_workers_from_env(void);      /* ACLCPU_WORKERS set to a count it uses */
unsigned libconf_devices(void);
uint64_t libconf_device_memory(void);     /* ACLCPU_DEVICE_MEMORY, else the profile's */
const char *libconf_soc_env(void);        /* ACLCPU_SOC as set, or NULL */

/* Every environment variable the library reads (its table, config.def). */
struct env_row {
    const char *name, *value; /* value: NULL when unset */
    const char *default_text, *meaning;
};
size_t libconf_env_count(void);
void libconf_env_at(size_t i, struct env_row *out);

#endif
