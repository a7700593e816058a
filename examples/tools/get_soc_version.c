/*
 * get_soc_version - the CANN runtime samples' helper
 * example/tools/get_soc_version, in C on aclcpu.
 *
 * Prints the SoC name (aclrtGetSocName), which the samples' set_sample_env.sh
 * takes as SOC_VERSION. aclrtGetSocName needs no aclInit. On aclcpu the name
 * is the modelled chip's: ACLCPU_SOC, or the default Ascend910B1.
 */
#include <stdio.h>

#include <acl/acl.h>

int main(void)
{
    const char *socName = aclrtGetSocName();
    if (socName == NULL || socName[0] == '\0') {
        fprintf(stderr, "[ERROR]: Failed to get SOC_VERSION by aclrtGetSocName.\n");
        return 1;
    }
    printf("%s\n", socName);
    return 0;
}
