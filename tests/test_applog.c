/*
 * test_applog.c - aclAppLog (aclrt_impl/log.cpp aclAppLogImpl in the
 * reference): the line it writes, the level filter, the calls that write
 * nothing, %n, and the cut at 1023 characters.
 *
 * Each test sends the library's log (stdout) into a pipe before anything
 * logs and reads back what is there once its calls have returned: a log
 * line is written and flushed inside the call, so no waiting is needed.
 */
#include <fcntl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

static int cap_fd = -1;
static char cap_text[65536];

/* The log at level (ASCEND_GLOBAL_LOG_LEVEL) goes to a pipe from here on. */
static void capture(const char *level)
{
    int fds[2];
    setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1", 1);
    setenv("ASCEND_GLOBAL_LOG_LEVEL", level, 1);
    fflush(stdout);
    ASSERT_EQ(pipe(fds), 0);
    ASSERT_EQ(fcntl(fds[0], F_SETFL, O_NONBLOCK), 0);
    ASSERT(dup2(fds[1], STDOUT_FILENO) >= 0);
    cap_fd = fds[0];
}

/* Everything logged so far (appended to what earlier calls returned). */
static const char *captured(void)
{
    static size_t len;
    ssize_t n;
    fflush(stdout);
    while ((n = read(cap_fd, cap_text + len, sizeof(cap_text) - 1 - len)) > 0)
        len += (size_t)n;
    cap_text[len] = '\0';
    return cap_text;
}

static void assert_absent(const char *needle)
{
    if (strstr(captured(), needle) != NULL)
        test_fail(__FILE__, __LINE__, "the log shows \"%s\":\n%s", needle, cap_text);
}

/* The text of the captured line that holds needle, after the log's own
 * "[LEVEL] ACLCPU(time): " prefix, up to its newline. */
static const char *line_with(const char *needle, char *out, size_t cap)
{
    const char *hit = strstr(captured(), needle), *start, *body, *end;
    ASSERT(hit != NULL);
    start = hit;
    while (start > cap_text && start[-1] != '\n')
        start--;
    body = strstr(start, "): ");
    ASSERT(body != NULL && body < hit);
    body += 3;
    end = strchr(body, '\n');
    ASSERT(end != NULL && (size_t)(end - body) < cap);
    memcpy(out, body, (size_t)(end - body));
    out[end - body] = '\0';
    return out;
}

TEST(applog, writes_tid_func_file_line_and_the_message)
{
    char want[256], line[2048];
    capture("0");
    aclAppLog(ACL_INFO, "myfunc", "my_file.c", 42, "value %d and %s", 7, "text");
    snprintf(want, sizeof(want), "%d myfunc:my_file.c:42: \"value 7 and text\"", (int)syscall(SYS_gettid));
    ASSERT_STR_CONTAINS(line_with("myfunc:", line, sizeof(line)), want);
    ASSERT(strcmp(line, want) == 0);
    ASSERT_STR_CONTAINS(captured(), "[INFO] ACLCPU(");
}

TEST(applog, the_macro_names_the_calling_function_file_and_line)
{
    char want[512];
    int at;
    capture("0");
    at = __LINE__ + 1;
    ACL_APP_LOG(ACL_WARNING, "macro %s", "works");
    ACL_APP_LOG(ACL_WARNING, "macro without arguments");
    snprintf(want, sizeof(want), "%s:%s:%d: \"macro works\"", "test_applog_the_macro_names_the_calling_function_file_and_line",
             __FILE__, at);
    ASSERT_STR_CONTAINS(captured(), want);
    ASSERT_STR_CONTAINS(captured(), "\"macro without arguments\"");
    ASSERT_STR_CONTAINS(captured(), "[WARNING] ACLCPU(");
}

/* Every level at or above ASCEND_GLOBAL_LOG_LEVEL is written, at its own
 * level; the ones below are not. */
TEST(applog, levels_below_the_log_level_write_nothing)
{
    capture("2");
    aclAppLog(ACL_DEBUG, "f", "x.c", 1, "hidden-debug");
    aclAppLog(ACL_INFO, "f", "x.c", 1, "hidden-info");
    aclAppLog(ACL_WARNING, "f", "x.c", 1, "shown-warning");
    aclAppLog(ACL_ERROR, "f", "x.c", 1, "shown-error");
    ASSERT_STR_CONTAINS(captured(), "shown-warning");
    ASSERT_STR_CONTAINS(captured(), "[ERROR] ACLCPU(");
    ASSERT_STR_CONTAINS(captured(), "shown-error");
    assert_absent("hidden-");
}

/* The reference drops the call; aclcpu records why as well. */
TEST(applog, null_func_file_or_fmt_writes_nothing)
{
    const char *volatile none = NULL;
    capture("0");
    aclAppLog(ACL_ERROR, none, "x.c", 1, "no-func");
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclAppLog: argument 'func' is NULL");
    aclAppLog(ACL_ERROR, "f", none, 1, "no-file");
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclAppLog: argument 'file' is NULL");
    aclAppLog(ACL_ERROR, "f", "x.c", 1, none);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclAppLog: argument 'fmt' is NULL");
    assert_absent("no-func");
    assert_absent("no-file");
    assert_absent("f:x.c:1:");
}

/* Negative levels never pass the reference's filter; levels above
 * ACL_ERROR pass it but have no log to go to. */
TEST(applog, a_level_outside_debug_to_error_writes_nothing)
{
    capture("0");
    aclAppLog((aclLogLevel)4, "f", "x.c", 1, "level-four");
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclAppLog: argument 'logLevel' (4)");
    aclAppLog((aclLogLevel)-1, "f", "x.c", 1, "level-minus-one");
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclAppLog: argument 'logLevel' (-1)");
    assert_absent("level-four");
    assert_absent("level-minus-one");
}

/* The reference's formatter refuses %n; %% followed by n is text. */
TEST(applog, a_percent_n_conversion_is_refused)
{
    int count = -1;
    signed char small = -1;
    capture("0");
    aclAppLog(ACL_ERROR, "f", "x.c", 1, "counted%n", &count);
    aclAppLog(ACL_ERROR, "f", "x.c", 1, "counted-small%hhn", &small);
    aclAppLog(ACL_ERROR, "f", "x.c", 1, "counted-wide %5d%ln", 3, (long *)NULL);
    ASSERT_EQ(count, -1);
    ASSERT_EQ(small, -1);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "the format string is invalid");
    ASSERT_STR_CONTAINS(captured(), "aclAppLog: argument 'fmt' has a %n conversion");
    assert_absent("counted");
    aclAppLog(ACL_ERROR, "f", "x.c", 1, "100%%n done, %d%%", 5);
    ASSERT_STR_CONTAINS(captured(), "\"100%n done, 5%\"");
}

/* A line of 1023 characters is written whole; one more and it is cut to
 * 1023, the last 14 replaced by "...[truncated]". */
TEST(applog, a_line_of_1023_characters_is_whole_and_a_longer_one_is_cut)
{
    static char body[3000], line[4096], head[64];
    size_t head_len, fit;
    capture("0");
    head_len = (size_t)snprintf(head, sizeof(head), "%d f:x.c:1: \"", (int)syscall(SYS_gettid));
    fit = 1023 - head_len - 1; /* the closing quote */

    memset(body, 'a', fit);
    body[fit] = '\0';
    body[0] = 'A';
    aclAppLog(ACL_INFO, "f", "x.c", 1, "%s", body);
    line_with("\"Aaaa", line, sizeof(line));
    ASSERT_EQ(strlen(line), 1023);
    ASSERT_EQ(line[1022], '"');
    ASSERT(strstr(line, "[truncated]") == NULL);

    memset(body, 'b', fit + 1);
    body[fit + 1] = '\0';
    body[0] = 'B';
    aclAppLog(ACL_INFO, "f", "x.c", 1, "%s", body);
    line_with("\"Bbbb", line, sizeof(line));
    ASSERT_EQ(strlen(line), 1023);
    ASSERT(strcmp(line + 1023 - 14, "...[truncated]") == 0);

    memset(body, 'c', sizeof(body) - 1);
    body[0] = 'C';
    aclAppLog(ACL_INFO, "f", "x.c", 1, "%s", body);
    line_with("\"Cccc", line, sizeof(line));
    ASSERT_EQ(strlen(line), 1023);
    ASSERT(strcmp(line + 1023 - 14, "...[truncated]") == 0);
}

/* ASCEND_GLOBAL_LOG_LEVEL 4 is "none": not even an error is written (it is
 * no unknown value falling back to the default, errors). */
TEST(applog, log_level_4_writes_nothing)
{
    capture("4");
    aclAppLog(ACL_ERROR, "f", "x.c", 1, "level-none-error");
    assert_absent("level-none-error");
}

TEST(applog, nothing_is_written_without_print_to_stdout)
{
    capture("0");
    unsetenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    aclAppLog(ACL_ERROR, "f", "x.c", 1, "not-printed");
    assert_absent("not-printed");
}

/* The switch is exactly "1": any other value (here "10", which starts
 * with a 1) leaves the log silent. */
TEST(applog, print_to_stdout_other_than_exactly_1_writes_nothing)
{
    capture("0");
    setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "10", 1);
    aclAppLog(ACL_ERROR, "f", "x.c", 1, "ten-not-printed");
    assert_absent("ten-not-printed");
}

/* ASCEND_GLOBAL_LOG_LEVEL is one digit 0..4: "0x" is no level and leaves
 * the default, errors only. */
TEST(applog, a_log_level_with_trailing_text_leaves_the_default)
{
    capture("0x");
    aclAppLog(ACL_DEBUG, "f", "x.c", 1, "debug-hidden");
    aclAppLog(ACL_ERROR, "f", "x.c", 1, "error-shown");
    ASSERT_STR_CONTAINS(captured(), "error-shown");
    assert_absent("debug-hidden");
}

/* ---- sweep 5 (2026-12-05): the log line's clock ---- */

/* The "ACLCPU(seconds.micro)" stamp is the monotonic clock in seconds and
 * microseconds (the second's nanoseconds / 1000, six digits): read before
 * and after the call, the clock brackets the stamp. */
TEST(applog, the_line_is_stamped_with_the_monotonic_clock_in_microseconds)
{
    struct timespec t0, t1;
    const char *at;
    unsigned long sec = 0, usec = 0;
    unsigned long long stamp, lo, hi;
    capture("0");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    aclAppLog(ACL_INFO, "stampfn", "stamp.c", 1, "stamped");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    at = strstr(captured(), "stampfn:");
    ASSERT(at != NULL);
    while (at > cap_text && at[-1] != '\n')
        at--;
    at = strstr(at, "ACLCPU(");
    ASSERT(at != NULL);
    ASSERT_EQ(sscanf(at, "ACLCPU(%lu.%lu)", &sec, &usec), 2);
    ASSERT(usec < 1000000ul);
    stamp = (unsigned long long)sec * 1000000ull + usec;
    lo = ((unsigned long long)t0.tv_sec * 1000000000ull + (unsigned long long)t0.tv_nsec) / 1000u;
    hi = ((unsigned long long)t1.tv_sec * 1000000000ull + (unsigned long long)t1.tv_nsec) / 1000u;
    if (stamp < lo || stamp > hi)
        test_fail(__FILE__, __LINE__, "stamp %llu us is outside the call's [%llu, %llu] us", stamp, lo, hi);
}
