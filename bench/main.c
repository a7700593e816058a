/*
 * main.c - aclcpu-bench: every workload on aclcpu and on PoCL, side by side.
 *
 *   aclcpu-bench [--quick] [--json PATH] [--no-peer] [--only NAME]
 *
 * The exit status says only whether the runtimes worked: a target that is
 * missed is printed, never turned into a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench.h"
#include "peer.h"

static void empty_kernel(void *args) { (void)args; }

static const struct {
    const char *name;
    void (*run)(void);
} workloads[] = {
    {"launch_enqueue", bench_launch_enqueue}, {"launch_args", bench_launch_args},
    {"launch_drain", bench_launch_drain},
    {"sync_roundtrip", bench_sync_roundtrip}, {"event_hop", bench_event_hop},
    {"host_func", bench_host_func},           {"saxpy_bw", bench_saxpy_bw},
    {"streams_scale", bench_streams_scale},   {"mt_launch", bench_mt_launch},
    {"graph_replay", bench_graph_replay},     {"prof_overhead", bench_prof_overhead},
    {"mem_alloc_free", bench_mem_alloc_free}, {"mem_first_copy", bench_mem_first_copy},
    {"mem_copy_bw", bench_mem_copy_bw},       {"mem_overhead", bench_mem_overhead},
    {"cache_alloc", bench_cache_alloc},
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: aclcpu-bench [--quick] [--json PATH] [--no-peer] [--only NAME]\n"
            "  --quick      a few iterations of every workload (smoke test; figures meaningless)\n"
            "  --json PATH  also write the metrics to PATH as JSON\n"
            "  --no-peer    measure aclcpu only\n"
            "  --only NAME  run one workload:");
    for (size_t i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
        fprintf(f, " %s", workloads[i].name);
    fputc('\n', f);
}

static void parse_args(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            g_opts.quick = true;
        } else if (strcmp(argv[i], "--no-peer") == 0) {
            g_opts.no_peer = true;
        } else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
            g_opts.json_path = argv[++i];
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            g_opts.only = argv[++i];
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            exit(0);
        } else {
            usage(stderr);
            exit(2);
        }
    }
    if (g_opts.only != NULL) {
        size_t i;
        for (i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
            if (strcmp(g_opts.only, workloads[i].name) == 0)
                break;
        if (i == sizeof(workloads) / sizeof(workloads[0])) {
            usage(stderr);
            exit(2);
        }
    }
}

/* "AMD EPYC, 2 CPUs, Linux 6.1.0, gcc 12.2.0" */
static void describe_machine(char *buf, size_t n)
{
    char model[128] = "unknown CPU", line[256];
    struct utsname u;
    FILE *f = fopen("/proc/cpuinfo", "r");

    if (f != NULL) {
        while (fgets(line, sizeof(line), f) != NULL) {
            char *colon = strchr(line, ':');
            if (strncmp(line, "model name", 10) == 0 && colon != NULL) {
                colon += 1 + (colon[1] == ' ');
                colon[strcspn(colon, "\n")] = '\0';
                snprintf(model, sizeof(model), "%s", colon);
                break;
            }
        }
        fclose(f);
    }
    if (uname(&u) != 0) {
        snprintf(u.sysname, sizeof(u.sysname), "?");
        snprintf(u.release, sizeof(u.release), "?");
    }
    snprintf(buf, n, "%s, %ld CPUs, %s %s, %s %s", model, sysconf(_SC_NPROCESSORS_ONLN), u.sysname, u.release,
#ifdef __clang__
             "clang", __clang_version__
#else
             "gcc", __VERSION__
#endif
    );
}

/* Warns when other processes keep the CPUs busy: the figures get noisy. */
static void check_load(const char *when)
{
    double load = -1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    FILE *f = fopen("/proc/loadavg", "r");
    if (f == NULL)
        return;
    if (fscanf(f, "%lf", &load) != 1)
        load = -1;
    fclose(f);
    if (cpus > 0 && load > 0.5 * (double)cpus) {
        printf("warning: load average %.2f on %ld CPUs %s: other processes compete for the cores, "
               "so the figures are noisy\n",
               load, cpus, when);
        add_note("load average %.2f on %ld CPUs %s (noisy figures)", load, cpus, when);
    }
}

int main(int argc, char **argv)
{
    char machine[512], why[512];
    bool ok = true;

    parse_args(argc, argv);
    /* LLVM's libomp keeps idle threads spinning for 200 ms after a parallel
     * region, which would steal a core from the next side measured; give it
     * libgomp's default of about 3 ms (unless the user set it). It reads
     * this at its first use, below. */
    setenv("KMP_BLOCKTIME", "3", 0);
    setvbuf(stdout, NULL, _IOLBF, 0);
    describe_machine(machine, sizeof(machine));
    printf("aclcpu-bench%s: %s\n", g_opts.quick ? " --quick (a few iterations; figures not meaningful)" : "",
           machine);

    /* aclcpu side: always. */
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtGetCurrentContext(&g_ctx));
    CHECK(aclcpuRegisterKernel("empty", empty_kernel, &g_empty));
    printf("aclcpu: device 0 (ACLCPU_WORKERS=%s, ACLCPU_SPIN_US=%s)\n",
           getenv("ACLCPU_WORKERS") ? getenv("ACLCPU_WORKERS") : "default",
           getenv("ACLCPU_SPIN_US") ? getenv("ACLCPU_SPIN_US") : "default");

    /* Peer side: when built with OpenCL and a CPU platform is there. */
    if (g_opts.no_peer) {
        printf("peer: disabled by --no-peer\n");
    } else if (peer_open(why, sizeof(why))) {
        printf("peer: %s\n", peer_describe());
        strncat(machine, "; peer ", sizeof(machine) - strlen(machine) - 1);
        strncat(machine, peer_describe(), sizeof(machine) - strlen(machine) - 1);
    } else {
        printf("peer: PoCL NOT AVAILABLE - %s\n"
               "      (only the aclcpu side runs; peer columns read n/a)\n",
               why);
        add_note("PoCL not available: %s", why);
    }
    if (omp_available())
        printf("openmp: %u threads\n", omp_threads());
    else
        printf("openmp: not built in (no OpenMP found at CMake time); saxpy_bw has no OpenMP baseline\n");
    check_load("at the start");
    printf("\n");

    /* ACLCPU_BENCH_WATCHDOG_S overrides the watchdog's 120 s. */
    unsigned watchdog_s = getenv("ACLCPU_BENCH_WATCHDOG_S") ? (unsigned)atoi(getenv("ACLCPU_BENCH_WATCHDOG_S")) : 120;
    for (size_t i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++) {
        if (g_opts.only != NULL && strcmp(g_opts.only, workloads[i].name) != 0)
            continue;
        printf("[%s]\n", workloads[i].name);
        /* Each workload takes seconds (a full run) or well under one
         * (--quick, even under sanitizers): minutes mean a hang. */
        watchdog_arm(workloads[i].name, watchdog_s);
        workloads[i].run();
        watchdog_disarm();
    }

    print_table();
    if (g_opts.json_path != NULL) {
        ok = write_json(g_opts.json_path, machine);
        if (ok)
            printf("\nwrote %s\n", g_opts.json_path);
    }

    peer_close();
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return ok ? 0 : 1;
}
