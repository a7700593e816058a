/*
 * cmd_info.c - `aclcpu info`: the SoC profiles, the one in force, the
 * worker count, and every environment variable with its current value.
 *
 * DESIGN: the figures come from the library itself (libconf.c): its SoC
 * table, the profile ACLCPU_SOC selects, the worker count, the device
 * count and memory size, so that what this prints is what a device opened
 * now would use. The variables are the library's own table
 * (src/common/config.def, through libconf.c): every one it reads.
 */
#include <stdlib.h>

#include "cli.h"
#include "jsonw.h"
#include "libconf.h"
#include "text.h"

static const struct option_spec info_options[] = {
    {"--json", 0, NULL, "write JSON instead of text"},
};

struct config {
    struct soc_row socs[32], in_force;
    size_t nsocs, in_force_index;
    const char *soc_env;
    bool soc_unknown;   /* ACLCPU_SOC names no profile: the default plays */
    unsigned workers;
    bool workers_env;
    unsigned devices;
    uint64_t memory;
};

static void read_config(struct config *c)
{
    struct soc_row found;
    c->nsocs = libconf_soc_count();
    c->nsocs = c->nsocs < CLI_ARRAY_SIZE(c->socs) ? c->nsocs : CLI_ARRAY_SIZE(c->socs);
    libconf_soc_in_force(&c->in_force);
    for (size_t i = 0; i < c->nsocs; i++) {
        libconf_soc_at(i, &c->socs[i]);
        if (str_eq(c->socs[i].name, c->in_force.name))
            c->in_force_index = i;
    }
    c->soc_env = libconf_soc_env();
    c->soc_unknown = c->soc_env != NULL && c->soc_env[0] != '\0' && !libconf_soc_find(c->soc_env, &found);
    c->workers = libconf_workers();
    c->workers_env = libconf_workers_from_env();
    c->devices = libconf_devices();
    c->memory = libconf_device_memory();
}

static double gib(uint64_t bytes) { return (double)bytes / (1024.0 * 1024.0 * 1024.0); }

static void print_socs(const struct config *c)
{
    text_heading(stdout, "SoC profiles (ACLCPU_SOC picks one; * = in force)");
    printf("  %-16s %-28s %5s %6s %8s %7s %6s %7s %9s %8s %6s\n", "profile", "product", "cube", "vector", "memory",
           "streams", "events", "L2", "HBM", "H2D", "MHz");
    for (size_t i = 0; i < c->nsocs; i++) {
        const struct soc_row *s = &c->socs[i];
        printf("%c %-16s %-28s %5u %6u %4.0f GiB %7u %6u %3.0f MiB %4.0f GB/s %3.0f GB/s %6u\n",
               i == c->in_force_index ? '*' : ' ', s->name, s->product, s->cube_cores, s->vector_cores, gib(s->memory_bytes),
               s->max_streams, s->max_events, (double)s->l2_bytes / (1024.0 * 1024.0), s->hbm_gbps, s->h2d_gbps,
               s->cube_mhz);
    }
    /* The modelled clock's laws (docs/model.md), the latencies as ACLCPU_MODEL_*_NS leave them. */
    text_heading(stdout, "The modelled clock's parameters (docs/model.md)");
    printf("  %-16s %22s %13s %14s\n", "profile", "HBM saturated by cores", "dispatch (us)", "event (us)");
    for (size_t i = 0; i < c->nsocs; i++) {
        const struct soc_row *s = &c->socs[i];
        printf("%c %-16s %22.2f %13.3f %14.3f\n", i == c->in_force_index ? '*' : ' ', s->name, s->hbm_sat_cores,
               s->dispatch_us, s->event_us);
    }
}

static void print_in_force(const struct config *c)
{
    text_heading(stdout, "In force");
    if (c->soc_unknown)
        printf("  SoC      %s (ACLCPU_SOC=%s is not a profile: the library falls back to the default)\n",
               c->in_force.name, c->soc_env);
    else
        printf("  SoC      %s (%s)\n", c->in_force.name, c->soc_env != NULL && c->soc_env[0] ? "ACLCPU_SOC" : "default");
    printf("  cores    %u cube, %u vector\n", c->in_force.cube_cores, c->in_force.vector_cores);
    printf("  workers  %u per device (%s)\n", c->workers,
           c->workers_env ? "ACLCPU_WORKERS" : "the CPUs this process may use");
    printf("  devices  %u\n", (unsigned)c->devices);
    printf("  memory   %.2f GiB per device\n", gib(c->memory));
}

static void print_env(void)
{
    struct env_row row;
    text_heading(stdout, "Environment (every variable the library reads)");
    for (size_t i = 0; i < libconf_env_count(); i++) {
        libconf_env_at(i, &row);
        printf("  %-28s %-16s %s (default: %s)\n", row.name, row.value != NULL ? row.value : "(unset)", row.meaning,
               row.default_text);
    }
}

static void write_soc_json(struct jw *w, const struct soc_row *s, bool in_force)
{
    jw_object(w, NULL);
    jw_str(w, "name", s->name);
    jw_str(w, "product", s->product);
    jw_int(w, "cube_cores", s->cube_cores);
    jw_int(w, "vector_cores", s->vector_cores);
    jw_int(w, "memory_bytes", (long long)s->memory_bytes);
    jw_int(w, "max_streams", s->max_streams);
    jw_int(w, "max_events", s->max_events);
    jw_int(w, "l2_bytes", (long long)s->l2_bytes);
    jw_fixed(w, "hbm_gbps", s->hbm_gbps, 1);
    jw_fixed(w, "h2d_gbps", s->h2d_gbps, 1);
    jw_int(w, "cube_mhz", s->cube_mhz);
    jw_fixed(w, "hbm_sat_cores", s->hbm_sat_cores, 2);
    jw_fixed(w, "dispatch_us", s->dispatch_us, 3);
    jw_fixed(w, "event_us", s->event_us, 3);
    jw_bool(w, "in_force", in_force);
    jw_end(w);
}

static void write_json(const struct config *c)
{
    struct jw w;
    jw_begin(&w, stdout);
    jw_array(&w, "soc_profiles");
    for (size_t i = 0; i < c->nsocs; i++)
        write_soc_json(&w, &c->socs[i], i == c->in_force_index);
    jw_end(&w);
    jw_str(&w, "soc", c->in_force.name);
    jw_bool(&w, "soc_env_unknown", c->soc_unknown);
    jw_int(&w, "workers", c->workers);
    jw_int(&w, "devices", c->devices);
    jw_int(&w, "device_memory_bytes", (long long)c->memory);
    jw_array(&w, "environment");
    for (size_t i = 0; i < libconf_env_count(); i++) {
        struct env_row row;
        libconf_env_at(i, &row);
        jw_object(&w, NULL);
        jw_str(&w, "name", row.name);
        jw_str(&w, "value", row.value);
        jw_str(&w, "meaning", row.meaning);
        jw_str(&w, "default", row.default_text);
        jw_end(&w);
    }
    jw_finish(&w);
}

static int run_info(const struct args *a)
{
    struct config c;
    read_config(&c);
    text_init(stdout);
    if (args_flag(a, "--json")) {
        write_json(&c);
        return EXIT_OK;
    }
    printf("aclcpu %s: the Ascend (CANN) runtime API on CPUs\n", ACLCPU_VERSION);
    print_socs(&c);
    print_in_force(&c);
    print_env();
    return EXIT_OK;
}

const struct command cmd_info = {
    .name = "info",
    .summary = "SoC profiles, the one in force, workers, environment variables",
    .usage = "[--json]",
    .help = "Lists the SoC profiles aclcpu can play (cores, memory, stream and event caps, bandwidths),\n"
            "the one in force (ACLCPU_SOC), the worker count and device memory a device opened now would\n"
            "use, and every environment variable aclcpu reads with its current value.",
    .options = info_options,
    .noptions = CLI_ARRAY_SIZE(info_options),
    .min_args = 0,
    .max_args = 0,
    .run = run_info,
};
