// header_check_cxx.cpp - checks that the public headers compile as C++.
#include <acl/acl.h>
#include <acl/acl_prof.h>
#include <acl/acl_base_rt.h>
#include <aclcpu/aclcpu.h>

int main()
{
    return 0;
}
