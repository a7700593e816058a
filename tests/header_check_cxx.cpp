// header_check_cxx.cpp - checks that the public headers compile as C++.
#include <acl/acl_base_rt.h>
#include <acl/acl.h>
#include <acl/acl_prof.h>
#include <acl/acl_base_rt.h>
#include <aclcpu/aclcpu.h>

// acl_base_rt.h included first must work too (it includes acl_base.h).
static_assert(ACL_FLOAT16 == 1 && ACL_FORMAT_ND == 2 && ACL_ERROR == 3, "acl_base_rt.h values");
static_assert(sizeof(aclrtRandomNumTaskInfo) == 104 && sizeof(aclrtCntNotifyWaitInfo) == 16, "built-in task types");

int main()
{
    return 0;
}
