/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* vecfile.c — see vecfile.h. Every complaint goes through the harness as a failed check. */
#include "vecfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* A reader error: a failed check whose message names the vector file and line. */
#define VF_FAIL(...) vgt_check(0, __FILE__, __LINE__, __VA_ARGS__)

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = vgt_xmalloc(n);
    memcpy(p, s, n);
    return p;
}

/* Reads a whole file; NULL (after a failed check) if it cannot. The text gets a terminating NUL. */
static char *read_whole_file(const char *path, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        VF_FAIL("cannot open vector file %s", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = vgt_xmalloc(cap);
    for (;;) {
        if (cap - n < 4096) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(fp);
                VF_FAIL("out of memory reading %s", path);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, fp);
        n += got;
        if (got == 0) break;
    }
    int err = ferror(fp);
    fclose(fp);
    if (err) {
        free(buf);
        VF_FAIL("read error on %s", path);
        return NULL;
    }
    buf[n] = '\0';
    *size = n;
    return buf;
}

static char *join_path(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *p = vgt_xmalloc(a + b + 2);
    memcpy(p, dir, a);
    p[a] = '/';
    memcpy(p + a + 1, name, b + 1);
    return p;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Strict hex: even length, hex digits only. Returns a malloc'd buffer (never NULL, even for ""), or
   NULL if s is not hex. */
static uint8_t *decode_hex(const char *s, size_t slen, size_t *out_len)
{
    if (slen % 2) return NULL;
    uint8_t *out = vgt_xmalloc(slen / 2 + 1);
    for (size_t i = 0; i < slen / 2; i++) {
        int hi = hexval((unsigned char)s[2 * i]), lo = hexval((unsigned char)s[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(out);
            return NULL;
        }
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    *out_len = slen / 2;
    return out;
}

static int is_name_char(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* ============================================================================================== */
/* Line formats                                                                                    */

struct vf_attr {
    const char *name;   /* points into the file buffer */
    const char *value;  /* points into the file buffer; NULL for a bare word such as FAIL */
    size_t line;
    int read;           /* a getter returned it */
    uint8_t *bytes;     /* decoded value, made on first vf_bytes */
    size_t nbytes;
};

struct vf_list {
    struct vf_attr *v;
    size_t n, cap;
};

struct vf_file {
    char *name;
    char *buf;
    char *pos;          /* start of the next unread line */
    char *end;
    size_t lineno;      /* number of the line last returned by next_line */
    enum vf_format format;
    struct vf_list rec;     /* the current record */
    struct vf_list carry;   /* "name = value" lines outside records */
    struct vf_list params;  /* the current run of [ ... ] lines */
    int params_open;        /* the last meaningful line was a parameter line */
    size_t group, index_in_group, next_index, records;
    size_t rec_line;
    const char *count;
    int bad;
    int finished;           /* the end-of-file checks have run */
    char where[256];
};

static void list_clear(struct vf_list *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->v[i].bytes);
    l->n = 0;
}

static void list_free(struct vf_list *l)
{
    list_clear(l);
    free(l->v);
    l->v = NULL;
    l->cap = 0;
}

static struct vf_attr *list_find(struct vf_list *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i].name, name) == 0) return &l->v[i];
    return NULL;
}

static void list_add(struct vf_list *l, const char *name, const char *value, size_t line)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        struct vf_attr *nv = realloc(l->v, cap * sizeof *nv);
        if (!nv) {
            printf("error: out of memory\n");
            exit(2);
        }
        l->v = nv;
        l->cap = cap;
    }
    struct vf_attr *a = &l->v[l->n++];
    a->name = name;
    a->value = value;
    a->line = line;
    a->read = 0;
    a->bytes = NULL;
    a->nbytes = 0;
}

/* Reports every attribute of l that no getter read; what says which kind they are. */
static void list_report_unread(const vf_file *f, const struct vf_list *l, const char *what)
{
    for (size_t i = 0; i < l->n; i++)
        if (!l->v[i].read)
            VF_FAIL("%s:%zu: %s \"%s\" was not used by the test", f->name, l->v[i].line, what,
                    l->v[i].name);
}

/* The next line, NUL-terminated in place with its CR LF / LF removed; NULL at the end. *bad is set
   for a stray CR or another control character, which no vector file here contains. */
static char *next_line(vf_file *f, int *bad)
{
    *bad = 0;
    if (f->pos >= f->end) return NULL;
    char *line = f->pos;
    char *nl = memchr(line, '\n', (size_t)(f->end - line));
    char *stop = nl ? nl : f->end;
    f->pos = nl ? nl + 1 : f->end;
    f->lineno++;
    if (stop > line && stop[-1] == '\r') stop--;
    *stop = '\0';
    for (char *p = line; p < stop; p++) {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20 || c == 0x7f) *bad = 1;
    }
    return line;
}

static int is_blank(const char *s)
{
    while (*s == ' ') s++;
    return *s == '\0';
}

static char *trim(char *s)
{
    while (*s == ' ') s++;
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ') s[--n] = '\0';
    return s;
}

/* "name = value" (VF_RSP) or "NAME: value" (VF_BLOCKS), split in place. 0 if the line is not that. */
static int split_attribute(char *line, char sep, char **name, char **value)
{
    char *p = line;
    while (*p == ' ') p++;
    char *n = p;
    while (is_name_char((unsigned char)*p)) p++;
    if (p == n) return 0;
    char *name_end = p;
    while (*p == ' ') p++;
    if (*p != sep) return 0;
    *name_end = '\0';
    *name = n;
    *value = trim(p + 1);
    return 1;
}

/* A bare word such as FAIL: letters only. */
static int is_bare_word(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z'))) return 0;
    return 1;
}

vf_file *vf_open(const char *dir, const char *name, enum vf_format format)
{
    char *path = join_path(dir, name);
    size_t size = 0;
    char *buf = read_whole_file(path, &size);
    free(path);
    if (!buf) return NULL;
    vf_file *f = vgt_xmalloc(sizeof *f);
    memset(f, 0, sizeof *f);
    f->name = xstrdup(name);
    f->buf = buf;
    f->pos = buf;
    f->end = buf + size;
    f->format = format;
    return f;
}

/* Reports what the last record left unread and forgets it. */
static void end_record(vf_file *f)
{
    list_report_unread(f, &f->rec, "attribute");
    list_clear(&f->rec);
    f->count = NULL;
    f->bad = 0;
    f->where[0] = '\0';
}

/* End of file: carried-over attributes and parameters must each have served some record. */
static void finish(vf_file *f)
{
    if (f->finished) return;
    f->finished = 1;
    end_record(f);
    list_report_unread(f, &f->carry, "carried-over attribute");
    list_report_unread(f, &f->params, "parameter");
}

/* Parses "[a = 1, b = 2]" or "[ENCRYPT]" into the parameter run. 0 if the line is malformed. */
static int parse_param_line(vf_file *f, char *line)
{
    size_t len = strlen(line);
    if (len < 3 || line[len - 1] != ']') return 0;
    line[len - 1] = '\0';
    char *p = line + 1;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        char *item = trim(p);
        char *name, *value;
        if (split_attribute(item, '=', &name, &value)) {
            /* value stays as given */
        } else if (is_bare_word(item)) {
            name = item;
            value = NULL;
        } else {
            return 0;
        }
        if (list_find(&f->params, name)) {
            VF_FAIL("%s:%zu: parameter \"%s\" given twice", f->name, f->lineno, name);
            return 0;
        }
        list_add(&f->params, name, value, f->lineno);
        if (!comma) break;
        p = comma + 1;
    }
    return 1;
}

static void set_where(vf_file *f)
{
    if (f->count)
        snprintf(f->where, sizeof f->where, "%s:%zu (Count = %s)", f->name, f->rec_line, f->count);
    else
        snprintf(f->where, sizeof f->where, "%s:%zu", f->name, f->rec_line);
}

/* Adds one line of a record (not blank, not a comment) to f->rec. 0 (after reporting) if the line
   is not understood or repeats a name. */
static int add_record_line(vf_file *f, char *line)
{
    char *name, *value;
    if (split_attribute(line, f->format == VF_RSP ? '=' : ':', &name, &value)) {
        if (f->format == VF_RSP && (strcmp(name, "Count") == 0 || strcmp(name, "COUNT") == 0)) {
            VF_FAIL("%s:%zu: a second Count inside one record", f->name, f->lineno);
            return 0;
        }
    } else if (f->format == VF_RSP && is_bare_word(trim(line))) {
        name = trim(line);
        value = NULL;
    } else {
        VF_FAIL("%s:%zu: line not understood: \"%.60s\"", f->name, f->lineno, line);
        return 0;
    }
    if (list_find(&f->rec, name)) {
        VF_FAIL("%s:%zu: \"%s\" given twice in one record", f->name, f->lineno, name);
        return 0;
    }
    list_add(&f->rec, name, value, f->lineno);
    return 1;
}

/* Reads the rest of a record up to a blank line or the end. Returns 0 (after reporting) if a line
   was not understood; the rest of the record is then still consumed. */
static int read_record_body(vf_file *f)
{
    int ok = 1, bad;
    char *line;
    while ((line = next_line(f, &bad)) != NULL) {
        if (bad) {
            VF_FAIL("%s:%zu: control character in line", f->name, f->lineno);
            ok = 0;
            continue;
        }
        if (is_blank(line)) break;
        if (line[0] == '#') continue;
        if (!add_record_line(f, line)) ok = 0;
    }
    return ok;
}

static int next_rsp(vf_file *f)
{
    int bad;
    char *line;
    while ((line = next_line(f, &bad)) != NULL) {
        if (bad) {
            VF_FAIL("%s:%zu: control character in line", f->name, f->lineno);
            continue;
        }
        if (is_blank(line) || line[0] == '#') continue;
        if (line[0] == '[') {
            if (!f->params_open) {
                list_report_unread(f, &f->params, "parameter");
                list_clear(&f->params);
                f->group++;
                f->next_index = 0;
                f->params_open = 1;
            }
            if (!parse_param_line(f, line))
                VF_FAIL("%s:%zu: parameter line not understood", f->name, f->lineno);
            continue;
        }
        f->params_open = 0;
        char *name, *value;
        if (!split_attribute(line, '=', &name, &value)) {
            VF_FAIL("%s:%zu: line outside a record not understood: \"%.60s\"", f->name, f->lineno, line);
            continue;
        }
        if (strcmp(name, "Count") == 0 || strcmp(name, "COUNT") == 0) {
            f->rec_line = f->lineno;
            f->count = value;
            int ok = read_record_body(f);
            set_where(f);
            if (!ok) {
                VF_FAIL("%s: record skipped: it has a line the reader does not understand", f->where);
                list_clear(&f->rec);
                continue;
            }
            f->index_in_group = f->next_index++;
            f->records++;
            return 1;
        }
        /* Carry-over: replaces an earlier line with the same name, which must have been used. */
        struct vf_attr *old = list_find(&f->carry, name);
        if (old) {
            if (!old->read)
                VF_FAIL("%s:%zu: carried-over attribute \"%s\" was not used by the test", f->name,
                        old->line, old->name);
            free(old->bytes);
            old->bytes = NULL;
            old->value = value;
            old->line = f->lineno;
            old->read = 0;
        } else {
            list_add(&f->carry, name, value, f->lineno);
        }
    }
    finish(f);
    return 0;
}

static int next_blocks(vf_file *f)
{
    int bad;
    char *line;
    while ((line = next_line(f, &bad)) != NULL) {
        if (bad) {
            VF_FAIL("%s:%zu: control character in line", f->name, f->lineno);
            continue;
        }
        if (is_blank(line) || line[0] == '#') continue;
        /* The first line of a block opens a record that runs to the next blank line. */
        f->rec_line = f->lineno;
        int ok = add_record_line(f, line);
        ok &= read_record_body(f);
        set_where(f);
        if (!ok) {
            VF_FAIL("%s: record skipped: it has a line the reader does not understand", f->where);
            list_clear(&f->rec);
            continue;
        }
        f->index_in_group = f->next_index++;
        f->records++;
        return 1;
    }
    finish(f);
    return 0;
}

int vf_next(vf_file *f)
{
    if (!f || f->finished) return 0;
    end_record(f);
    return f->format == VF_RSP ? next_rsp(f) : next_blocks(f);
}

size_t vf_close(vf_file *f)
{
    if (!f) return 0;
    finish(f);
    size_t n = f->records;
    list_free(&f->rec);
    list_free(&f->carry);
    list_free(&f->params);
    free(f->buf);
    free(f->name);
    free(f);
    return n;
}

static struct vf_attr *lookup(vf_file *f, const char *name)
{
    struct vf_attr *a = list_find(&f->rec, name);
    if (!a) a = list_find(&f->carry, name);
    if (!a) a = list_find(&f->params, name);
    return a;
}

static struct vf_attr *lookup_required(vf_file *f, const char *name)
{
    struct vf_attr *a = lookup(f, name);
    if (!a) {
        VF_FAIL("%s: record has no \"%s\"", f->where, name);
        f->bad = 1;
        return NULL;
    }
    a->read = 1;
    if (!a->value) {
        VF_FAIL("%s: \"%s\" has no value", f->where, name);
        f->bad = 1;
        return NULL;
    }
    return a;
}

const char *vf_str(vf_file *f, const char *name)
{
    struct vf_attr *a = lookup_required(f, name);
    return a ? a->value : NULL;
}

const uint8_t *vf_bytes(vf_file *f, const char *name, size_t *len)
{
    *len = 0;
    struct vf_attr *a = lookup_required(f, name);
    if (!a) return NULL;
    if (!a->bytes) {
        const char *v = a->value;
        size_t vlen = strlen(v);
        if (f->format == VF_BLOCKS && vlen >= 1 && v[0] == '"') {
            /* "ASCII text": no escapes; a quote inside would be ambiguous, so it is refused. */
            if (vlen < 2 || v[vlen - 1] != '"' || memchr(v + 1, '"', vlen - 2)) {
                VF_FAIL("%s: \"%s\" has a malformed quoted string", f->where, name);
                f->bad = 1;
                return NULL;
            }
            a->bytes = vgt_xmalloc(vlen);
            memcpy(a->bytes, v + 1, vlen - 2);
            a->nbytes = vlen - 2;
        } else {
            a->bytes = decode_hex(v, vlen, &a->nbytes);
            if (!a->bytes) {
                VF_FAIL("%s: \"%s\" is not hex: \"%.40s\"", f->where, name, v);
                f->bad = 1;
                return NULL;
            }
        }
    }
    *len = a->nbytes;
    return a->bytes;
}

unsigned long vf_uint(vf_file *f, const char *name)
{
    struct vf_attr *a = lookup_required(f, name);
    if (!a) return 0;
    const char *v = a->value;
    size_t n = strlen(v);
    unsigned long x = 0;
    int ok = n >= 1 && n <= 9;
    for (size_t i = 0; ok && i < n; i++) {
        if (v[i] < '0' || v[i] > '9') ok = 0;
        else x = x * 10 + (unsigned long)(v[i] - '0');
    }
    if (!ok) {
        VF_FAIL("%s: \"%s\" is not a decimal number: \"%.20s\"", f->where, name, v);
        f->bad = 1;
        return 0;
    }
    return x;
}

int vf_has(vf_file *f, const char *name)
{
    struct vf_attr *a = lookup(f, name);
    if (!a) return 0;
    a->read = 1;
    return 1;
}

int vf_ok(const vf_file *f) { return !f->bad; }
const char *vf_where(const vf_file *f) { return f->where; }
size_t vf_group(const vf_file *f) { return f->group; }
size_t vf_index_in_group(const vf_file *f) { return f->index_in_group; }
const char *vf_name(const vf_file *f) { return f->name; }

/* ============================================================================================== */
/* JSON                                                                                            */

struct vj_value {
    enum vj_type type;
    int read;               /* as an object member: a getter returned it */
    long long integer;
    int boolean;
    char *str;              /* VJ_STRING: UTF-8, NUL-terminated (a \u0000 is refused) */
    size_t str_len;
    uint8_t *bytes;         /* hex decoded on demand */
    size_t nbytes;
    vj_value **items;       /* VJ_ARRAY elements / VJ_OBJECT member values */
    char **names;           /* VJ_OBJECT member names */
    size_t n, cap;
};

struct vj_parser {
    const char *text, *p, *end;
    const char *what;
    int failed;
    int depth;
};

#define VJ_MAX_DEPTH 64

static void vj_error(struct vj_parser *ps, const char *msg)
{
    if (ps->failed) return;
    ps->failed = 1;
    size_t line = 1, col = 1;
    for (const char *q = ps->text; q < ps->p && q < ps->end; q++) {
        if (*q == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    VF_FAIL("%s:%zu:%zu: JSON: %s", ps->what, line, col, msg);
}

static vj_value *vj_new(enum vj_type t)
{
    vj_value *v = vgt_xmalloc(sizeof *v);
    memset(v, 0, sizeof *v);
    v->type = t;
    return v;
}

void vj_free(vj_value *v)
{
    if (!v) return;
    for (size_t i = 0; i < v->n; i++) {
        vj_free(v->items[i]);
        if (v->names) free(v->names[i]);
    }
    free(v->items);
    free(v->names);
    free(v->str);
    free(v->bytes);
    free(v);
}

static void vj_push(vj_value *c, vj_value *item, char *name)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 8;
        vj_value **ni = realloc(c->items, cap * sizeof *ni);
        if (!ni) {
            printf("error: out of memory\n");
            exit(2);
        }
        c->items = ni;
        if (c->type == VJ_OBJECT) {
            char **nn = realloc(c->names, cap * sizeof *nn);
            if (!nn) {
                printf("error: out of memory\n");
                exit(2);
            }
            c->names = nn;
        }
        c->cap = cap;
    }
    c->items[c->n] = item;
    if (c->type == VJ_OBJECT) c->names[c->n] = name;
    c->n++;
}

static void vj_skip_ws(struct vj_parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static int vj_hex4(struct vj_parser *ps, unsigned *out)
{
    if (ps->end - ps->p < 4) return 0;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval((unsigned char)ps->p[i]);
        if (h < 0) return 0;
        v = v << 4 | (unsigned)h;
    }
    ps->p += 4;
    *out = v;
    return 1;
}

/* Appends code point cp as UTF-8. */
static size_t put_utf8(char *o, unsigned long cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* A string starting at the opening quote; the result is malloc'd. NULL on error. An escape never
   makes the output longer than its source, so the source length bounds the buffer. */
static char *vj_parse_string_raw(struct vj_parser *ps, size_t *out_len)
{
    ps->p++; /* opening quote */
    const char *close = ps->p;
    while (close < ps->end && *close != '"') close += (*close == '\\') ? 2 : 1;
    if (close >= ps->end) {
        vj_error(ps, "unterminated string");
        return NULL;
    }
    char *out = vgt_xmalloc((size_t)(close - ps->p) + 1);
    size_t n = 0;
    while (*ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p;
        if (c < 0x20) {
            vj_error(ps, "control character in string");
            free(out);
            return NULL;
        }
        if (c != '\\') {
            out[n++] = (char)c;
            ps->p++;
            continue;
        }
        ps->p++;
        char e = *ps->p++;
        switch (e) {
        case '"': out[n++] = '"'; break;
        case '\\': out[n++] = '\\'; break;
        case '/': out[n++] = '/'; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u': {
            unsigned hi, lo;
            unsigned long cp;
            if (!vj_hex4(ps, &hi)) goto bad_escape;
            if (hi >= 0xd800 && hi <= 0xdbff) {
                /* A high surrogate must be followed by \u and a low surrogate (12 source bytes
                   make at most 4 output bytes). */
                if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u') goto bad_escape;
                ps->p += 2;
                if (!vj_hex4(ps, &lo) || lo < 0xdc00 || lo > 0xdfff) goto bad_escape;
                cp = 0x10000 + (((unsigned long)hi - 0xd800) << 10) + (lo - 0xdc00);
            } else if (hi >= 0xdc00 && hi <= 0xdfff) {
                goto bad_escape;
            } else {
                cp = hi;
            }
            if (cp == 0) goto bad_escape;
            n += put_utf8(out + n, cp);
            break;
        }
        default:
            goto bad_escape;
        }
    }
    ps->p++; /* closing quote */
    out[n] = '\0';
    *out_len = n;
    return out;
bad_escape:
    vj_error(ps, "bad escape in string");
    free(out);
    return NULL;
}

static vj_value *vj_parse_value(struct vj_parser *ps);

static vj_value *vj_parse_container(struct vj_parser *ps, int object)
{
    if (++ps->depth > VJ_MAX_DEPTH) {
        vj_error(ps, "nested too deeply");
        return NULL;
    }
    vj_value *c = vj_new(object ? VJ_OBJECT : VJ_ARRAY);
    char close = object ? '}' : ']';
    ps->p++;
    vj_skip_ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        ps->depth--;
        return c;
    }
    for (;;) {
        char *name = NULL;
        vj_skip_ws(ps);
        if (object) {
            size_t nlen;
            if (ps->p >= ps->end || *ps->p != '"') {
                vj_error(ps, "expected a member name");
                goto fail;
            }
            name = vj_parse_string_raw(ps, &nlen);
            if (!name) goto fail;
            for (size_t i = 0; i < c->n; i++)
                if (strcmp(c->names[i], name) == 0) {
                    vj_error(ps, "duplicate member name");
                    free(name);
                    goto fail;
                }
            vj_skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') {
                vj_error(ps, "expected ':'");
                free(name);
                goto fail;
            }
            ps->p++;
        }
        vj_value *item = vj_parse_value(ps);
        if (!item) {
            free(name);
            goto fail;
        }
        vj_push(c, item, name);
        vj_skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            ps->depth--;
            return c;
        }
        vj_error(ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
        goto fail;
    }
fail:
    vj_free(c);
    return NULL;
}

static vj_value *vj_parse_number(struct vj_parser *ps)
{
    const char *s = ps->p;
    int neg = 0;
    if (*ps->p == '-') {
        neg = 1;
        ps->p++;
    }
    if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') {
        vj_error(ps, "bad number");
        return NULL;
    }
    if (*ps->p == '0' && ps->p + 1 < ps->end && ps->p[1] >= '0' && ps->p[1] <= '9') {
        vj_error(ps, "number with a leading zero");
        return NULL;
    }
    unsigned long long x = 0;
    while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') {
        if (x > (9223372036854775807ULL - 9) / 10) {
            vj_error(ps, "integer too large");
            return NULL;
        }
        x = x * 10 + (unsigned)(*ps->p - '0');
        ps->p++;
    }
    if (ps->p < ps->end && (*ps->p == '.' || *ps->p == 'e' || *ps->p == 'E')) {
        ps->p = s;
        vj_error(ps, "number with a fraction or exponent: not understood by this reader");
        return NULL;
    }
    vj_value *v = vj_new(VJ_INT);
    v->integer = neg ? -(long long)x : (long long)x;
    return v;
}

static int vj_literal(struct vj_parser *ps, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0) return 0;
    ps->p += n;
    return 1;
}

static vj_value *vj_parse_value(struct vj_parser *ps)
{
    vj_skip_ws(ps);
    if (ps->p >= ps->end) {
        vj_error(ps, "unexpected end of text");
        return NULL;
    }
    char c = *ps->p;
    if (c == '{') return vj_parse_container(ps, 1);
    if (c == '[') return vj_parse_container(ps, 0);
    if (c == '"') {
        size_t n;
        char *s = vj_parse_string_raw(ps, &n);
        if (!s) return NULL;
        vj_value *v = vj_new(VJ_STRING);
        v->str = s;
        v->str_len = n;
        return v;
    }
    if (c == '-' || (c >= '0' && c <= '9')) return vj_parse_number(ps);
    if (vj_literal(ps, "true")) {
        vj_value *v = vj_new(VJ_BOOL);
        v->boolean = 1;
        return v;
    }
    if (vj_literal(ps, "false")) return vj_new(VJ_BOOL);
    if (vj_literal(ps, "null")) return vj_new(VJ_NULL);
    vj_error(ps, "unexpected character");
    return NULL;
}

vj_value *vj_parse_text(const char *text, size_t len, const char *what)
{
    struct vj_parser ps = {text, text, text + len, what, 0, 0};
    vj_value *v = vj_parse_value(&ps);
    if (v) {
        vj_skip_ws(&ps);
        if (ps.p != ps.end) {
            vj_error(&ps, "text after the top-level value");
            vj_free(v);
            v = NULL;
        }
    }
    return v;
}

vj_value *vj_parse_file(const char *dir, const char *name)
{
    char *path = join_path(dir, name);
    size_t size = 0;
    char *buf = read_whole_file(path, &size);
    free(path);
    if (!buf) return NULL;
    vj_value *v = vj_parse_text(buf, size, name);
    free(buf);
    return v;
}

enum vj_type vj_type_of(const vj_value *v) { return v->type; }

size_t vj_count(const vj_value *v)
{
    return (v->type == VJ_ARRAY || v->type == VJ_OBJECT) ? v->n : 0;
}

vj_value *vj_index(const vj_value *v, size_t i) { return i < vj_count(v) ? v->items[i] : NULL; }

const char *vj_member_name(const vj_value *obj, size_t i)
{
    return (obj->type == VJ_OBJECT && i < obj->n) ? obj->names[i] : NULL;
}

vj_value *vj_member(vj_value *obj, const char *name)
{
    if (!obj || obj->type != VJ_OBJECT) return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (strcmp(obj->names[i], name) == 0) {
            obj->items[i]->read = 1;
            return obj->items[i];
        }
    return NULL;
}

const char *vj_string(const vj_value *v, size_t *len)
{
    if (!v || v->type != VJ_STRING) return NULL;
    if (len) *len = v->str_len;
    return v->str;
}

static const char *const vj_type_names[] = {"null", "boolean", "integer", "string", "array", "object"};

static vj_value *vj_get_typed(vj_value *obj, const char *name, enum vj_type t, const char *ctx, int *ok)
{
    vj_value *v = vj_member(obj, name);
    if (!v) {
        VF_FAIL("%s: no member \"%s\"", ctx, name);
    } else if (v->type != t) {
        VF_FAIL("%s: member \"%s\" is a %s, expected a %s", ctx, name, vj_type_names[v->type],
                vj_type_names[t]);
        v = NULL;
    }
    if (!v && ok) *ok = 0;
    return v;
}

const char *vj_get_string(vj_value *obj, const char *name, const char *ctx, int *ok)
{
    vj_value *v = vj_get_typed(obj, name, VJ_STRING, ctx, ok);
    return v ? v->str : NULL;
}

long long vj_get_int(vj_value *obj, const char *name, const char *ctx, int *ok)
{
    vj_value *v = vj_get_typed(obj, name, VJ_INT, ctx, ok);
    return v ? v->integer : 0;
}

int vj_get_bool(vj_value *obj, const char *name, const char *ctx, int *ok)
{
    vj_value *v = vj_get_typed(obj, name, VJ_BOOL, ctx, ok);
    return v ? v->boolean : 0;
}

vj_value *vj_get_array(vj_value *obj, const char *name, const char *ctx, int *ok)
{
    return vj_get_typed(obj, name, VJ_ARRAY, ctx, ok);
}

vj_value *vj_get_object(vj_value *obj, const char *name, const char *ctx, int *ok)
{
    return vj_get_typed(obj, name, VJ_OBJECT, ctx, ok);
}

const uint8_t *vj_get_hex(vj_value *obj, const char *name, size_t *len, const char *ctx, int *ok)
{
    *len = 0;
    vj_value *v = vj_get_typed(obj, name, VJ_STRING, ctx, ok);
    if (!v) return NULL;
    if (!v->bytes) {
        v->bytes = decode_hex(v->str, v->str_len, &v->nbytes);
        if (!v->bytes) {
            VF_FAIL("%s: member \"%s\" is not hex: \"%.40s\"", ctx, name, v->str);
            if (ok) *ok = 0;
            return NULL;
        }
    }
    *len = v->nbytes;
    return v->bytes;
}

int vj_check_all_read(const vj_value *obj, const char *ctx)
{
    int all = 1;
    if (!obj || obj->type != VJ_OBJECT) return 1;
    for (size_t i = 0; i < obj->n; i++)
        if (!obj->items[i]->read) {
            VF_FAIL("%s: member \"%s\" was not used by the test", ctx, obj->names[i]);
            all = 0;
        }
    return all;
}

/* ============================================================================================== */
/* Checking vectors against the library                                                            */

void vt_check_count(const char *what, size_t records, size_t expected, size_t run)
{
    printf("%s: %zu records (expected %zu), %zu run\n", what, records, expected, run);
    CHECK(records == expected, "%s: read %zu records, the file should hold %zu", what, records, expected);
}

const char *vt_aead_name(enum vt_aead alg)
{
    return alg == VT_GCM ? "AES-GCM" : alg == VT_GCM_SIV ? "AES-GCM-SIV" : "AES-CCM";
}

int vt_aead_param_error(enum vt_aead alg, size_t key_len, size_t nonce_len, size_t tag_len)
{
    switch (alg) {
    case VT_GCM: /* vg.h: keys 16/24/32, nonce >= 1 byte, tags 16, 15, 14, 13, 12, 8, 4 */
        if (key_len != 16 && key_len != 24 && key_len != 32) return VG_ERR_KEY_LENGTH;
        if (nonce_len < 1) return VG_ERR_NONCE_LENGTH;
        if (!(tag_len == 4 || tag_len == 8 || (tag_len >= 12 && tag_len <= 16))) return VG_ERR_TAG_LENGTH;
        return VG_OK;
    case VT_GCM_SIV: /* keys 16/32, nonce 12, tag 16 */
        if (key_len != 16 && key_len != 32) return VG_ERR_KEY_LENGTH;
        if (nonce_len != 12) return VG_ERR_NONCE_LENGTH;
        if (tag_len != 16) return VG_ERR_TAG_LENGTH;
        return VG_OK;
    case VT_CCM: /* keys 16/24/32, nonce 7..13, tags 4..16 even */
        if (key_len != 16 && key_len != 24 && key_len != 32) return VG_ERR_KEY_LENGTH;
        if (nonce_len < 7 || nonce_len > 13) return VG_ERR_NONCE_LENGTH;
        if (tag_len < 4 || tag_len > 16 || tag_len % 2) return VG_ERR_TAG_LENGTH;
        return VG_OK;
    }
    return VG_ERR_ARG;
}

union vt_any_key {
    vg_aes_gcm_key gcm;
    vg_aes_gcm_siv_key siv;
    vg_aes_ccm_key ccm;
};

static int vt_init(enum vt_aead alg, union vt_any_key *k, const uint8_t *key, size_t key_len)
{
    switch (alg) {
    case VT_GCM: return vg_aes_gcm_init(&k->gcm, key, key_len);
    case VT_GCM_SIV: return vg_aes_gcm_siv_init(&k->siv, key, key_len);
    case VT_CCM: return vg_aes_ccm_init(&k->ccm, key, key_len);
    }
    return VG_ERR_ARG;
}

static int vt_seal(enum vt_aead alg, const union vt_any_key *k, const struct vt_aead_vector *v,
                   const uint8_t *in, uint8_t *out, uint8_t *tag)
{
    switch (alg) {
    case VT_GCM:
        return vg_aes_gcm_seal(&k->gcm, v->nonce, v->nonce_len, v->aad, v->aad_len, in, v->len, out, tag,
                               v->tag_len);
    case VT_GCM_SIV:
        return vg_aes_gcm_siv_seal(&k->siv, v->nonce, v->nonce_len, v->aad, v->aad_len, in, v->len, out,
                                   tag, v->tag_len);
    case VT_CCM:
        return vg_aes_ccm_seal(&k->ccm, v->nonce, v->nonce_len, v->aad, v->aad_len, in, v->len, out, tag,
                               v->tag_len);
    }
    return VG_ERR_ARG;
}

static int vt_open(enum vt_aead alg, const union vt_any_key *k, const struct vt_aead_vector *v,
                   const uint8_t *in, uint8_t *out)
{
    switch (alg) {
    case VT_GCM:
        return vg_aes_gcm_open(&k->gcm, v->nonce, v->nonce_len, v->aad, v->aad_len, in, v->len, v->tag,
                               v->tag_len, out);
    case VT_GCM_SIV:
        return vg_aes_gcm_siv_open(&k->siv, v->nonce, v->nonce_len, v->aad, v->aad_len, in, v->len, v->tag,
                                   v->tag_len, out);
    case VT_CCM:
        return vg_aes_ccm_open(&k->ccm, v->nonce, v->nonce_len, v->aad, v->aad_len, in, v->len, v->tag,
                               v->tag_len, out);
    }
    return VG_ERR_ARG;
}

static void vt_wipe(enum vt_aead alg, union vt_any_key *k)
{
    switch (alg) {
    case VT_GCM: vg_aes_gcm_key_wipe(&k->gcm); break;
    case VT_GCM_SIV: vg_aes_gcm_siv_key_wipe(&k->siv); break;
    case VT_CCM: vg_aes_ccm_key_wipe(&k->ccm); break;
    }
}

#define VT_GUARD 16       /* bytes after each output that the library must not touch */
#define VT_FILL 0xa5      /* what outputs hold before a call */
#define VT_MAX_TAG 64     /* longest tag a vector may carry here */

static int vt_all(const uint8_t *p, size_t n, uint8_t b)
{
    uint8_t d = 0;
    for (size_t i = 0; i < n; i++) d |= (uint8_t)(p[i] ^ b);
    return d == 0;
}

int (*vt_check_aead_hook)(enum vt_aead alg, const struct vt_aead_vector *v, int expect, const char *where);

int vt_check_aead(enum vt_aead alg, const struct vt_aead_vector *v, int expect, const char *where)
{
    if (vt_check_aead_hook)
        return vt_check_aead_hook(alg, v, expect, where);
    size_t failures_before = vgt_failures();
    const char *name = vt_aead_name(alg);
    if (!CHECK(v->tag_len <= VT_MAX_TAG, "%s: tag of %zu bytes is longer than this test handles", where,
               v->tag_len))
        return 0;
    union vt_any_key k;
    int rc = vt_init(alg, &k, v->key, v->key_len);
    if (expect == VG_ERR_KEY_LENGTH) {
        CHECK(rc == VG_ERR_KEY_LENGTH, "%s: %s init with a %zu-byte key returned %d, want %d", where, name,
              v->key_len, rc, VG_ERR_KEY_LENGTH);
        return vgt_failures() == failures_before;
    }
    if (!CHECK(rc == VG_OK, "%s: %s init with a %zu-byte key returned %d", where, name, v->key_len, rc))
        return 0;

    uint8_t *out = vgt_xmalloc(v->len + VT_GUARD);
    uint8_t tag[VT_MAX_TAG + VT_GUARD];

    if (expect == VG_OK) {
        memset(out, VT_FILL, v->len + VT_GUARD);
        memset(tag, VT_FILL, sizeof tag);
        rc = vt_seal(alg, &k, v, v->pt, out, tag);
        if (CHECK(rc == VG_OK, "%s: %s seal returned %d (%s)", where, name, rc, vg_strerror(rc))) {
            CHECK_BYTES(out, v->ct, v->len, "%s: %s seal: ciphertext", where, name);
            CHECK_BYTES(tag, v->tag, v->tag_len, "%s: %s seal: %zu-byte tag", where, name, v->tag_len);
        }
        CHECK(vt_all(out + v->len, VT_GUARD, VT_FILL), "%s: %s seal wrote past the ciphertext", where,
              name);
        CHECK(vt_all(tag + v->tag_len, sizeof tag - v->tag_len, VT_FILL),
              "%s: %s seal wrote past the %zu-byte tag", where, name, v->tag_len);

        /* Open in place (in == out), over a copy of the ciphertext. */
        memset(out, VT_FILL, v->len + VT_GUARD);
        if (v->len) memcpy(out, v->ct, v->len);
        rc = vt_open(alg, &k, v, out, out);
        if (CHECK(rc == VG_OK, "%s: %s open returned %d (%s)", where, name, rc, vg_strerror(rc)))
            CHECK_BYTES(out, v->pt, v->len, "%s: %s open: plaintext", where, name);
        CHECK(vt_all(out + v->len, VT_GUARD, VT_FILL), "%s: %s open wrote past the plaintext", where, name);
    } else if (expect == VG_ERR_AUTH) {
        memset(out, VT_FILL, v->len + VT_GUARD);
        rc = vt_open(alg, &k, v, v->ct, out);
        CHECK(rc == VG_ERR_AUTH, "%s: %s open of a forgery returned %d (%s), want VG_ERR_AUTH", where, name,
              rc, vg_strerror(rc));
        CHECK(vgt_all_zero(out, v->len), "%s: %s open of a forgery left output that is not all zero", where,
              name);
        CHECK(vt_all(out + v->len, VT_GUARD, VT_FILL), "%s: %s open wrote past the output", where, name);
        if (v->pt) {
            /* The library must not produce the forged pair itself from this plaintext. */
            rc = vt_seal(alg, &k, v, v->pt, out, tag);
            if (CHECK(rc == VG_OK, "%s: %s seal returned %d (%s)", where, name, rc, vg_strerror(rc)))
                CHECK((v->len && memcmp(out, v->ct, v->len) != 0) || memcmp(tag, v->tag, v->tag_len) != 0,
                      "%s: %s seal produced the very ciphertext and tag that must be refused", where, name);
        }
    } else {
        /* A parameter vg refuses: both directions return the error and write nothing. */
        const uint8_t *in = v->pt ? v->pt : v->ct;
        memset(out, VT_FILL, v->len + VT_GUARD);
        memset(tag, VT_FILL, sizeof tag);
        rc = vt_seal(alg, &k, v, in, out, tag);
        CHECK(rc == expect, "%s: %s seal (nonce %zu, tag %zu bytes) returned %d (%s), want %d (%s)", where,
              name, v->nonce_len, v->tag_len, rc, vg_strerror(rc), expect, vg_strerror(expect));
        CHECK(vt_all(out, v->len + VT_GUARD, VT_FILL) && vt_all(tag, sizeof tag, VT_FILL),
              "%s: %s seal refused the call but wrote output", where, name);
        memset(out, VT_FILL, v->len + VT_GUARD);
        rc = vt_open(alg, &k, v, v->ct, out);
        CHECK(rc == expect, "%s: %s open (nonce %zu, tag %zu bytes) returned %d (%s), want %d (%s)", where,
              name, v->nonce_len, v->tag_len, rc, vg_strerror(rc), expect, vg_strerror(expect));
        CHECK(vt_all(out, v->len + VT_GUARD, VT_FILL), "%s: %s open refused the call but wrote output",
              where, name);
    }
    free(out);
    vt_wipe(alg, &k);
    return vgt_failures() == failures_before;
}
