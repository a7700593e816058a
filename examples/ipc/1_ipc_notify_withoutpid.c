/*
 * 1_ipc_notify_withoutpid - the CANN runtime sample
 * example/2_advanced_features/notify/1_ipc_notify_withoutpid, in C on aclcpu.
 *
 * 0_ipc_notify_withpid with the notify exported with
 * ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION: no pid changes hands.
 *
 * Usage: 1_ipc_notify_withoutpid proc_a|proc_b (ipc_pair starts both).
 */
#define IPC_NOTIFY_WITHOUT_PID 1
#include "0_ipc_notify_withpid.c"
