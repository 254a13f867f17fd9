/* parse.h — small pure parsers for command-line values, shared by every subcommand.
 * Each returns PARSE_OK and writes *out, or an error code and leaves *out alone; callers print
 * the message. No locale, no atoi: the whole string must be consumed. */
#ifndef HARN_PARSE_H
#define HARN_PARSE_H

#include <stddef.h>

enum {
    PARSE_OK = 0,
    PARSE_SYNTAX,   /* not a number, trailing garbage, empty */
    PARSE_RANGE,    /* a number, but outside [min, max] or overflowing */
    PARSE_TOO_MANY  /* parse_list: more items than fit */
};

/* A byte size: decimal digits and an optional binary suffix K, M, G or T (either case, an optional
 * trailing B or iB: "4K", "4KB", "4KiB" = 4096). Must lie in [min, max]. */
int parse_size(const char *s, size_t min, size_t max, size_t *out);

/* A decimal integer in [min, max] (leading + or - allowed). */
int parse_int(const char *s, long min, long max, long *out);

/* Split s at sep into at most max_items non-empty items. The items point into buf (a copy of s,
 * buflen bytes including the terminator); *n receives the count. Empty items are a syntax error. */
int parse_list(const char *s, char sep, char *buf, size_t buflen, const char **items, int max_items,
               int *n);

/* Length of the decimal number s starts with: [-]digits[.digits] (or [-].digits) and an optional
 * exponent e[+|-]digits; 0 when it starts with none. Hexadecimal, inf, nan, a leading + or space are
 * not decimal numbers. strtod over exactly that prefix gives the value. */
size_t parse_decimal_len(const char *s);

/* Free text (a label, a name, an option's value): the byte offset of the first byte that is not
 * printable UTF-8 (a control character, C0, DEL or C1, or a malformed sequence), or -1 when there
 * is none. Such text is refused where it would reach a CSV cell, JSON, XML or the terminal. */
long parse_text_bad(const char *s);
/* The same over one line of a text file, s[0..n) (a NUL counts as bad), with tab allowed as a blank
 * and a carriage return only as the line's last byte (a CRLF line end; a CR inside a line would move
 * the terminal's cursor when the line is echoed): the parsers of profile, platform and CSV files refuse such a line
 * before any of it is echoed in a message. */
long parse_line_bad(const char *s, size_t n);

/* s, for an error message: printable UTF-8 kept, every other byte as \xNN, cut to fit out (len
 * bytes with the terminator). Returns out. So a file's control bytes never reach the terminal. */
const char *parse_quote(const char *s, char *out, size_t len);

#endif
