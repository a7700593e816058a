/*
 * json.c - a syntax check of JSON text, for aclInit's configuration file.
 *
 * DESIGN: aclcpu reads no setting from that file (its settings come from
 * ACLCPU_* variables), but the reference refuses a file that is not JSON,
 * so the text is walked once by the grammar of RFC 8259 (any value at the
 * top, whitespace around it) and nothing is kept. Nesting is tracked in a
 * fixed array instead of by recursion, so no text can exhaust the stack;
 * text nested deeper than that array is refused as well. Strings are
 * checked for escapes and control characters, not for UTF-8.
 *
 * Threads: any (no state). Locks: none.
 */
#include <stdbool.h>
#include <string.h>

#include "common.h"

enum { JSON_NEST_MAX = 256 };

struct json_scan {
    const char *p, *end;
};

static void skip_space(struct json_scan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

static bool take_word(struct json_scan *s, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
        return false;
    s->p += n;
    return true;
}

/* At the opening quote. */
static bool take_string(struct json_scan *s)
{
    s->p++;
    while (s->p < s->end) {
        unsigned char c = (unsigned char)*s->p++;
        if (c == '"')
            return true;
        if (c < 0x20)
            return false;
        if (c != '\\')
            continue;
        if (s->p >= s->end)
            return false;
        c = (unsigned char)*s->p++;
        if (c == 'u') {
            for (int i = 0; i < 4; i++, s->p++)
                if (s->p >= s->end || !is_hex(*s->p))
                    return false;
        } else if (strchr("\"\\/bfnrt", c) == NULL || c == '\0') {
            return false;
        }
    }
    return false;
}

static bool take_digits(struct json_scan *s)
{
    const char *start = s->p;
    while (s->p < s->end && is_digit(*s->p))
        s->p++;
    return s->p > start;
}

static bool take_number(struct json_scan *s)
{
    if (*s->p == '-')
        s->p++;
    if (s->p < s->end && *s->p == '0')
        s->p++;
    else if (!take_digits(s))
        return false;
    if (s->p < s->end && *s->p == '.') {
        s->p++;
        if (!take_digits(s))
            return false;
    }
    if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
        s->p++;
        if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
            s->p++;
        if (!take_digits(s))
            return false;
    }
    return true;
}

/* A scalar at s->p (not an object or array). */
static bool take_scalar(struct json_scan *s)
{
    switch (*s->p) {
    case '"':
        return take_string(s);
    case 't':
        return take_word(s, "true");
    case 'f':
        return take_word(s, "false");
    case 'n':
        return take_word(s, "null");
    default:
        return *s->p == '-' || is_digit(*s->p) ? take_number(s) : false;
    }
}

bool json_text_is_valid(const char *text, size_t len)
{
    char open[JSON_NEST_MAX]; /* '{' or '[' of each container not yet closed */
    size_t depth = 0;
    struct json_scan s = {text, text + len};
    bool want_value = true; /* a value is due (after '[', ',' or ':', or at the top) */

    skip_space(&s);
    for (;;) {
        if (want_value) {
            if (s.p >= s.end)
                return false;
            if (*s.p == '{' || *s.p == '[') {
                if (depth == JSON_NEST_MAX)
                    return false;
                open[depth++] = *s.p++;
                skip_space(&s);
                if (s.p < s.end && *s.p == (open[depth - 1] == '{' ? '}' : ']')) {
                    s.p++; /* empty container: a complete value */
                    depth--;
                    want_value = false;
                } else if (open[depth - 1] == '{') {
                    /* A member: a key string and a colon, then its value. */
                    if (s.p >= s.end || *s.p != '"' || !take_string(&s))
                        return false;
                    skip_space(&s);
                    if (s.p >= s.end || *s.p++ != ':')
                        return false;
                }
                skip_space(&s);
                if (want_value)
                    continue;
            } else {
                if (!take_scalar(&s))
                    return false;
                want_value = false;
            }
        }
        /* A value is complete: the text ends, or its container goes on or closes. */
        skip_space(&s);
        if (depth == 0)
            return s.p == s.end;
        if (s.p >= s.end)
            return false;
        if (*s.p == ',') {
            s.p++;
            skip_space(&s);
            if (open[depth - 1] == '{') {
                if (s.p >= s.end || *s.p != '"' || !take_string(&s))
                    return false;
                skip_space(&s);
                if (s.p >= s.end || *s.p++ != ':')
                    return false;
                skip_space(&s);
            }
            want_value = true;
        } else if (*s.p == (open[depth - 1] == '{' ? '}' : ']')) {
            s.p++;
            depth--;
        } else {
            return false;
        }
    }
}

size_t json_naive_depth(const char *text, size_t len, char open_ch, char close_ch)
{
    size_t depth = 0, max = 0;
    for (size_t i = 0; i < len && text[i] != '\0'; i++) {
        if (text[i] == open_ch && ++depth > max)
            max = depth;
        else if (text[i] == close_ch && depth > 0)
            depth--;
    }
    return max;
}
