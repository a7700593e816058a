/*
 * text.c - terminal output helpers.
 *
 * DESIGN: plain text that reads well at 100 columns; emphasis only on a
 * terminal (and never with NO_COLOR set), so piped output and the tests see
 * the same bytes.
 */
#include "text.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool styled;

void text_init(FILE *f)
{
    const char *no_color = getenv("NO_COLOR");
    styled = isatty(fileno(f)) && (no_color == NULL || no_color[0] == '\0');
}

const char *text_bold(void) { return styled ? "\033[1m" : ""; }
const char *text_warn(void) { return styled ? "\033[1;33m" : ""; }
const char *text_reset(void) { return styled ? "\033[0m" : ""; }

void text_heading(FILE *f, const char *title) { fprintf(f, "\n%s%s%s\n", text_bold(), title, text_reset()); }

/* Length of the word at the start of s. */
static size_t word_len(const char *s) { return strcspn(s, " "); }

void text_wrapped(FILE *f, int indent, const char *label, const char *text)
{
    int col = fprintf(f, "%*s%s", indent, "", label);
    int start = col;
    bool first = true;
    while (*text != '\0') {
        size_t n;
        while (*text == ' ')
            text++;
        n = word_len(text);
        if (n == 0)
            break;
        if (!first && col + 1 + (int)n > TEXT_WIDTH) {
            col = fprintf(f, "\n%*s", start, "") - 1;
        } else if (!first) {
            fputc(' ', f);
            col++;
        }
        col += fprintf(f, "%.*s", (int)n, text);
        text += n;
        first = false;
    }
    fputc('\n', f);
}

const char *text_pct(char *buf, size_t n, double part, double whole)
{
    if (whole <= 0)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.1f%%", 100.0 * part / whole);
    return buf;
}
