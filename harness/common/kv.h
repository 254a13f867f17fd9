/* kv.h — the one `key = value` grammar of ddlbench's text files (platform, profile and study files):
 *   a line is blank, a comment (its first byte other than a space or tab is '#'), or KEY = VALUE;
 *   KEY is one word (no space, tab or '='), VALUE the rest of the line; the spaces and tabs around
 *   both, and a CR before the LF, are dropped; the last line needs no LF;
 *   a line is at most KV_LINE_MAX bytes of text (no NUL, control byte or malformed UTF-8).
 * A value that is one word (a number, a name: kv_word) may be followed by a `# comment`; a value
 * that is text (a study's sources) runs to the end of the line, '#' included. */
#ifndef HARN_KV_H
#define HARN_KV_H

#include <stddef.h>

#define KV_LINE_MAX 1000

typedef struct kv_reader {
    const char *at, *end;      /* what is left of the text */
    int lineno;                /* the line kv_next returned last (1-based) */
    char line[KV_LINE_MAX + 1];
} kv_reader;

void kv_start(kv_reader *r, const char *text, size_t len);
/* The next KEY = VALUE line: 1 with *key and *value (in r->line, valid until the next call), 0 at
 * the end, or 2 with a message (no file name or line: r->lineno says where): a line too long, a byte
 * that is not text, a line that is not KEY = VALUE. */
int kv_next(kv_reader *r, char **key, char **value, char *err, size_t errlen);
/* A one-word value: value cut after its first word, which ends at a space, tab or '#'. 0 when at most
 * a `# comment` follows it; 2 with "expected one value, then at most a # comment" otherwise. */
int kv_word(char *value, char *err, size_t errlen);

#endif
