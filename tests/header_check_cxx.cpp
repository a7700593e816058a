// header_check_cxx.cpp - checks that the public headers compile as C++.
#include <acl/acl_base_rt.h>
#include <acl/acl.h>
#include <acl/acl_prof.h>
#include <acl/acl_base_rt.h>
#include <aclcpu/aclcpu.h>

// acl_base_rt.h included first must work too (it includes acl_base.h).
static_assert(ACL_FLOAT16 == 1 && ACL_FORMAT_ND == 2 && ACL_ERROR == 3, "acl_base_rt.h values");
static_assert(ACL_RT_SNAPSHOT_UNLOCK_POST == 5 && ACL_RT_DEVICE_STATE_RESET_POST == 3 &&
                  sizeof(aclrtSnapShotBackupArgs) == 64,
              "acl_rt.h recovery values");

int main()
{
    return 0;
}
