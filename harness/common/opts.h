/* opts.h — the option table of the ddlbench CLI: each subcommand describes its options as rows
 * (name, type, range, destination, one line of help); opts_parse reads argv against the rows and
 * opts_usage prints them. One parser for every subcommand: `--opt value` and `--opt=value`, short
 * forms (`-a value`) and old spellings as aliases, ranges checked, one-line messages like
 *   --nodes: expected an integer in 1..16384, got "x"
 * written into the caller's buffer (opts prints nothing but the usage it is asked for).
 * A repeated option is not an error: the last value wins (scripts append options to others). */
#ifndef HARN_OPTS_H
#define HARN_OPTS_H

#include <stddef.h>
#include <stdio.h>

typedef enum opt_type {
    OPT_FLAG,     /* no value: int 1 */
    OPT_INT,      /* int: a decimal integer in [min, max] */
    OPT_LONG,     /* long: a decimal integer in [min, max] */
    OPT_DOUBLE,   /* double: a decimal number (no hex, inf, nan) in [min, max] */
    OPT_SIZE,     /* size_t: bytes with an optional K, M, G, T suffix (binary; parse.h), in [min, max] */
    OPT_DURATION, /* double seconds: a decimal number with s, ms, us or ns (bare: seconds), in [min, max] */
    OPT_STRING,   /* const char *, pointing into argv; min 1 = must not be empty; check validates */
    OPT_LIST,     /* long[max_items]: a comma list of integers in [min, max]; int count at count_off */
    OPT_STRLIST,  /* const char *[max_items]: a comma list of names, copied to the char[buf_len] at
                   * buf_off; int count at count_off; check validates each item */
    OPT_CHOICE,   /* int: the index of the value in choices (a NULL-terminated list) */
    OPT_CUSTOM    /* parse(v, destination) converts; it returns non-zero on bad input */
} opt_type;

typedef struct opt_row {
    const char *name;   /* "--batch" */
    const char *alias;  /* a short form "-a", or an old spelling "--preset"; NULL = none */
    opt_type type;
    double min, max;    /* inclusive range of numbers, sizes and list items */
    const char *unit;   /* the value's name in the usage ("N", "MB", "LIST"); NULL: from the type */
    size_t off;         /* destination: offsetof the field in the set's base */
    const char *help;   /* one line of help; '\n' continues it on the next line */
    const char *expect; /* the "expected ..." phrase of the message; NULL: from the type and range */
    const char *const *choices;                 /* OPT_CHOICE */
    size_t count_off, buf_off, buf_len;          /* OPT_LIST, OPT_STRLIST */
    int max_items;                               /* OPT_LIST, OPT_STRLIST (at most 64) */
    int (*check)(const char *v, char *want, size_t wantlen); /* OPT_STRING, OPT_STRLIST: 0 ok, else
                                                 * non-zero and the "expected" phrase in want */
    int (*parse)(const char *v, void *dst);      /* OPT_CUSTOM: 0 ok */
    const char *var;    /* make's spelling ("NODES"): the word NODES=value sets the row, and its
                         * messages name NODES; NULL = none */
    const char *dflt;   /* the default as it would be typed ("25"): opts_defaults sets it, the usage
                         * shows it; NULL = none (or one the caller computes) */
} opt_row;

/* Rows bound to a destination: the fields the rows name are at base + row.off. A shared row (one
 * row object, off 0) binds to one field: OPTS_ONE(&cli_row_batch, &o->batch). */
typedef struct opts_set {
    const opt_row *rows;
    int n;
    void *base;
} opts_set;

#define OPTS_SET(rows, base) { (rows), (int)(sizeof(rows) / sizeof((rows)[0])), (base) }
#define OPTS_ONE(row, field) { (row), 1, (field) }

#define OPTS_MAX_ROWS 64

/* One parse: the sets, the operands (arguments that are no option) it may take, and what it saw. */
typedef struct opts_parser {
    const opts_set *sets;
    int nsets;
    const char **operands; /* where operands go (NULL: none accepted) */
    int max_operands, noperands;
    int given[OPTS_MAX_ROWS]; /* times each row (numbered over the sets in order) was given */
} opts_parser;

enum { OPTS_OK = 0, OPTS_HELP = 1, OPTS_BAD = 2, OPTS_NOT_MINE = 3 };

/* Parse argv[1..argc-1]. A word VAR=value whose VAR is a row's make spelling is that option. -h and --help stop the
 * parse at once: OPTS_HELP (options before it were
 * checked). "--" ends the options. Returns OPTS_OK, OPTS_HELP, or OPTS_BAD with one line in err
 * (the option, what was expected, what was got; an unknown option with the nearest name). */
int opts_parse(opts_parser *p, int argc, char **argv, char *err, size_t errlen);
/* One option at argv[*i], for parsers that hand the others on (p->given is not reset): OPTS_OK with
 * *i on its last word (its value; a loop's i++ moves past it), OPTS_NOT_MINE (no row has that name),
 * or OPTS_BAD. */
int opts_parse_one(opts_parser *p, int argc, char **argv, int *i, char *err, size_t errlen);
/* Every row's default (dflt) into its destination: OPTS_OK, or OPTS_BAD when a default is out of its
 * own row's range (a programming error; message in err). Call before opts_parse. */
int opts_defaults(const opts_set *sets, int nsets, char *err, size_t errlen);
/* How many times the option `name` (its name or alias) was given in the last parse. */
int opts_given(const opts_parser *p, const char *name);
/* The usage lines of the rows: "  --name, -x UNIT   help", help's continuations aligned, then
 * "(default X)" where the row has one. */
void opts_usage(FILE *f, const opts_set *sets, int nsets);

/* Edit distance (Levenshtein) of two words up to 32 bytes (99 beyond): "did you mean" suggestions. */
int opts_distance(const char *a, const char *b);

#endif
