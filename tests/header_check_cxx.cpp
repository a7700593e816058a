// header_check_cxx.cpp - checks that the public headers compile as C++.
#include <acl/acl_base_rt.h>
#include <acl/acl.h>
#include <acl/acl_prof.h>
#include <acl/acl_base_rt.h>
#include <aclcpu/aclcpu.h>

// acl_base_rt.h included first must work too (it includes acl_base.h).
static_assert(ACL_FLOAT16 == 1 && ACL_FORMAT_ND == 2 && ACL_ERROR == 3, "acl_base_rt.h values");
// The conditional-task enums, as the reference's C++ samples use them.
static_assert(ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT == 1 && ACL_MODEL_RI_COND_TYPE_SWITCH == 2, "acl_rt.h cond values");
static_assert(sizeof(aclmdlRICondTaskParams) == 3 * sizeof(void *), "aclmdlRICondTaskParams layout");

int main()
{
    return 0;
}
