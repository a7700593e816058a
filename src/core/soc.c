/*
 * soc.c - the SoC profiles a device can play.
 *
 * DESIGN: a constant table, read by any thread without a lock. Core
 * counts, memory, stream and event caps come from the public product
 * documentation (docs/differences.md, "The SoC profiles"), the
 * Ascend910_9362's cores, L2 and clock from the reference's platform file
 * (src/platform/platform_config/cann/Ascend910_9362.ini); bandwidths are round public figures used only by
 * the timeline model. ACLCPU_SOC picks a profile by name when a device
 * opens (soc_configured); the aclcpu command reports the same choice.
 *
 * Threads: any. Locks: none.
 */
#include <string.h>
#include <strings.h>

#include "core.h"

#define GIB (1024ull * 1024ull * 1024ull)
#define MIB (1024ull * 1024ull)

static const struct soc_profile profiles[] = {
    /* name, family, product, AIC, AIV, memory, streams, events, L2, HBM GB/s, H2D GB/s, cube MHz,
     * HBM-saturating cores, dispatch ns, event release ns (docs/model.md says where each comes from) */
    {"Ascend910B1", SOC_A2, "Atlas A2 training/inference", 24, 48, 64 * GIB, 1984, 65536, 192 * MIB, 1600, 25, 1850, 15, 1000, 2000},
    {"Ascend910B2", SOC_A2, "Atlas A2 training/inference", 24, 48, 64 * GIB, 1984, 65536, 192 * MIB, 1600, 25, 1800, 15, 1000, 2000},
    {"Ascend910B3", SOC_A2, "Atlas A2 training/inference", 20, 40, 64 * GIB, 1984, 65536, 192 * MIB, 1600, 25, 1800, 12.5, 1000, 2000},
    {"Ascend910B4", SOC_A2, "Atlas A2 training/inference", 20, 40, 32 * GIB, 1984, 65536, 96 * MIB, 800, 25, 1500, 12.5, 1000, 2000},
    {"Ascend910_9392", SOC_A3, "Atlas A3 (one die)", 24, 48, 64 * GIB, 1984, 65536, 192 * MIB, 1600, 25, 1850, 15, 1000, 2000},
    {"Ascend910_9362", SOC_A3, "Atlas A3 (one die)", 20, 40, 64 * GIB, 1984, 65536, 168 * MIB, 1600, 25, 1500, 12.5, 1000, 2000},
    {"Ascend950PR", SOC_950, "Ascend 950PR (one die)", 18, 36, 96 * GIB, 1984, 65536, 128 * MIB, 1600, 50, 1650, 11.25, 1000, 2000},
    {"Ascend310P3", SOC_310P, "Atlas inference (300I)", 8, 7, 24 * GIB, 1024, 1023, 16 * MIB, 204, 16, 1080, 5, 1000, 2000},
    {"Ascend910A", SOC_910, "Atlas training", 32, 0, 32 * GIB, 2048, 65535, 32 * MIB, 1200, 16, 1000, 20, 1000, 2000},
    {"Ascend310B1", SOC_200I500A2, "Atlas 200I/500 A2", 1, 2, 8 * GIB, 512, 65536, 4 * MIB, 51, 8, 1000, 1, 1000, 2000},
};

const struct soc_profile *soc_find(const char *name)
{
    for (size_t i = 0; i < ACLCPU_ARRAY_SIZE(profiles); i++)
        if (strcasecmp(profiles[i].name, name) == 0)
            return &profiles[i];
    return NULL;
}

const struct soc_profile *soc_default(void) { return &profiles[0]; }

const struct soc_profile *soc_list(size_t *count)
{
    *count = ACLCPU_ARRAY_SIZE(profiles);
    return profiles;
}

bool soc_has_ctrl_sq(const struct soc_profile *soc)
{
    return soc->family == SOC_A2 || soc->family == SOC_A3 || soc->family == SOC_950;
}

bool soc_has_cmo(const struct soc_profile *soc)
{
    return soc->family == SOC_A2 || soc->family == SOC_A3 || soc->family == SOC_950;
}

bool soc_has_recovery(const struct soc_profile *soc)
{
    /* RT_FEATURE_DFX_FAST_RECOVER and RT_FEATURE_DFX_PROCESS_SNAPSHOT:
     * the reference's 910_B_93 (A2, A3) and 950 feature sets. */
    return soc->family == SOC_A2 || soc->family == SOC_A3 || soc->family == SOC_950;
}

const struct soc_profile *soc_configured(void)
{
    const char *name = config_str(CFG_SOC);
    const struct soc_profile *soc;
    if (name == NULL || name[0] == '\0')
        return soc_default();
    soc = soc_find(name);
    if (soc == NULL) {
        LOGW("ACLCPU_SOC=%s is not a known SoC profile; using %s", name, soc_default()->name);
        return soc_default();
    }
    return soc;
}
