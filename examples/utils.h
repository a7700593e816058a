/*
 * utils.h - logging and error-check macros of the CANN runtime samples
 * (example/utils.h), in C.
 *
 * INFO_LOG / WARN_LOG / ERROR_LOG print one line to stdout: a tag, two
 * spaces, then the printf-style message ("[INFO]  After loop, ...").
 * CHECK_ERROR(call) runs an ACL call and, if it fails, prints
 * "[ERROR]  Operation failed: <call> returned error code <n>" and returns
 * -1 from the calling function; CHECK_ERROR_WITHOUT_RETURN prints the same
 * line and carries on.
 */
#ifndef ACLCPU_EXAMPLES_UTILS_H
#define ACLCPU_EXAMPLES_UTILS_H

#include <stdarg.h>
#include <stdio.h>

#include <acl/acl.h>

/* Prints tag, the formatted message and a newline, and flushes, so that the
 * lines keep their order when stdout is a pipe. */
__attribute__((format(printf, 2, 3))) static inline void ExampleLog(const char *tag, const char *fmt, ...)
{
    va_list ap;
    fputs(tag, stdout);
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fflush(stdout);
}

#define INFO_LOG(...) ExampleLog("[INFO]  ", __VA_ARGS__)
#define WARN_LOG(...) ExampleLog("[WARN]  ", __VA_ARGS__)
#define ERROR_LOG(...) ExampleLog("[ERROR]  ", __VA_ARGS__)

#define CHECK_ERROR(call)                                                                          \
    do {                                                                                           \
        aclError check_ret_ = (call);                                                              \
        if (check_ret_ != ACL_SUCCESS) {                                                           \
            ERROR_LOG("Operation failed: %s returned error code %d", #call, (int)check_ret_);      \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

#define CHECK_ERROR_WITHOUT_RETURN(call)                                                           \
    do {                                                                                           \
        aclError check_ret_ = (call);                                                              \
        if (check_ret_ != ACL_SUCCESS)                                                             \
            ERROR_LOG("Operation failed: %s returned error code %d", #call, (int)check_ret_);      \
    } while (0)

#endif /* ACLCPU_EXAMPLES_UTILS_H */
