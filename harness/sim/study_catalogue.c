/* study_catalogue.c — a folder of .study files read in name order, each through study_file_parse. */
#include "study_file.h"

#include "textfile.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int study_catalogue(const char *dir, study_entry *out, int max, int *n, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    char *names[STUDY_MAX_ENTRIES + 1], path[4400], *text = NULL;
    int k = 0, rc = 2;
    *n = 0;
    if (!d) return snprintf(err, errlen, "%.300s: %s; expected a folder of .study files", dir, strerror(errno)), 2;
    for (struct dirent *de; (de = readdir(d));) {
        size_t l = strlen(de->d_name);
        if (l <= 6 || strcmp(de->d_name + l - 6, ".study") || de->d_name[0] == '.') continue;
        if (k == max || k == STUDY_MAX_ENTRIES) {
            snprintf(err, errlen, "%.300s: more than %d .study files", dir,
                     max < STUDY_MAX_ENTRIES ? max : STUDY_MAX_ENTRIES);
            goto out;
        }
        if (!(names[k] = strdup(de->d_name))) { snprintf(err, errlen, "out of memory"); goto out; }
        k++;
    }
    if (!k) { snprintf(err, errlen, "%.300s: no .study files; expected the catalogue's folder", dir); goto out; }
    qsort(names, (size_t)k, sizeof *names, by_name);
    for (int i = 0; i < k; i++) {
        size_t len;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        free(text), text = NULL;
        if (textfile_read(path, &text, &len, err, errlen)) goto out;
        if (study_file_parse(text, len, path, &out[i], err, errlen)) goto out;
    }
    *n = k;
    rc = 0;
out:
    if (d) closedir(d);
    for (int i = 0; i < k; i++) free(names[i]);
    free(text);
    return rc;
}
