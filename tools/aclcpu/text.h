/*
 * text.h - terminal output: wrapped paragraphs, headings, numbers.
 */
#ifndef ACLCPU_CLI_TEXT_H
#define ACLCPU_CLI_TEXT_H

#include "util.h"

#define TEXT_WIDTH 100

/* Bold/colour only when stdout is a terminal and NO_COLOR is unset. */
void text_init(FILE *f);
const char *text_bold(void);
const char *text_warn(void);
const char *text_reset(void);

void text_heading(FILE *f, const char *title);
/* "label" then text wrapped at TEXT_WIDTH, continuation lines at indent. */
void text_wrapped(FILE *f, int indent, const char *label, const char *text);
/* A percentage of a whole ("81.0%"; "-" when the whole is 0). */
const char *text_pct(char *buf, size_t n, double part, double whole);

#endif
