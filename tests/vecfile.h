/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * vecfile.h — strict readers for the test-vector files in tests/vectors/.
 *
 * Two line formats share one reader (vf_*), and Wycheproof's JSON has its own (vj_*).
 *
 *  VF_RSP     NIST CAVP response files: CRLF (or LF) lines, '#' comments, "[name = value, ...]" or
 *             "[WORD]" parameter lines (a run of them replaces the previous run), records that open
 *             with a "Count = n" / "COUNT = n" line and run to the next blank line, holding
 *             "name = value" attributes and bare words such as FAIL. A "name = value" line outside a
 *             record carries over: it applies to every later record until a line with the same name
 *             replaces it (CCM sets Key and Nonce this way, and Plen/Alen/... at the top of a file).
 *  VF_BLOCKS  The "KEY: ..." / "NONCE: ..." / "IN: ..." / "AD: ..." / "CT: ..." / "TAG: ..." blocks of
 *             the RFC files: a record is a run of non-blank, non-comment lines; a value is hex or, in
 *             double quotes, ASCII text.
 *
 * Nothing is skipped silently: every line the reader does not understand, every bad hex string,
 * every field a test asks for and the record lacks, and every attribute no test read is reported as
 * a failed check (through the harness) with the file and line. An attribute counts as read when a
 * getter returns it: record attributes must all be read before the next vf_next; carried-over
 * attributes and parameters must have been read by at least one record before they are replaced or
 * the file ends.
 *
 * Lookups search the record first, then the carried-over attributes, then the parameters, so a test
 * asks for "Plen" without knowing which of the three the file used.
 */
#ifndef VG_TEST_VECFILE_H
#define VG_TEST_VECFILE_H

#include <stddef.h>
#include <stdint.h>

enum vf_format { VF_RSP, VF_BLOCKS };

typedef struct vf_file vf_file;

/* Reads the whole file dir/name. NULL (after a failed check naming the file) if it cannot. */
vf_file *vf_open(const char *dir, const char *name, enum vf_format format);

/* Moves to the next record: 1 if there is one, 0 at the end of the file. Checks first that the
   previous record's attributes were all read. A record with a line the reader does not understand
   is reported and skipped (it is not counted). */
int vf_next(vf_file *f);

/* Reports attributes and parameters nobody read, frees f, and returns the number of records read.
   NULL is ignored (returns 0). */
size_t vf_close(vf_file *f);

/* Getters for the current record. Each marks what it returns as read. On a missing attribute or a
   bad value they report a failed check, mark the record bad (vf_ok returns 0) and return NULL / 0. */
const char *vf_str(vf_file *f, const char *name);
/* Hex (any case, even length, "" allowed) or, in VF_BLOCKS, "ASCII text". The bytes stay valid
   until the next vf_next; the pointer is never NULL on success, even for zero bytes. */
const uint8_t *vf_bytes(vf_file *f, const char *name, size_t *len);
/* A decimal number (at most 9 digits). */
unsigned long vf_uint(vf_file *f, const char *name);
/* 1 if the attribute (or bare word, or parameter) is there, marking it read; never a failure. */
int vf_has(vf_file *f, const char *name);

/* 1 while no getter has failed on the current record. */
int vf_ok(const vf_file *f);
/* "file:line" of the current record, plus its Count; valid until the next vf_next. */
const char *vf_where(const vf_file *f);
/* Parameter groups: group() is 0 before the first parameter line and grows by one at each new run
   of parameter lines; index_in_group() counts records from 0 within the current group. */
size_t vf_group(const vf_file *f);
size_t vf_index_in_group(const vf_file *f);
/* The file name as given to vf_open. */
const char *vf_name(const vf_file *f);

/* ---------------------------------------------------------------------------------------------- */
/* JSON (RFC 8259), enough for Wycheproof: objects, arrays, strings (all escapes), integers, true,
   false, null. A number with a fraction or an exponent is reported as not understood. Duplicate
   member names are an error. The whole tree is owned by the root and freed by vj_free(root). */

enum vj_type { VJ_NULL, VJ_BOOL, VJ_INT, VJ_STRING, VJ_ARRAY, VJ_OBJECT };

typedef struct vj_value vj_value;

/* Parses dir/name. NULL after a failed check (with line and column) on any error. */
vj_value *vj_parse_file(const char *dir, const char *name);
/* Parses len bytes of text, naming it what in messages; NULL after a failed check on any error. */
vj_value *vj_parse_text(const char *text, size_t len, const char *what);
void vj_free(vj_value *v);

enum vj_type vj_type_of(const vj_value *v);
/* Elements of an array or members of an object. */
size_t vj_count(const vj_value *v);
vj_value *vj_index(const vj_value *v, size_t i);
/* Member of an object, NULL if absent; marks it read. */
vj_value *vj_member(vj_value *obj, const char *name);

/* Strict getters: report a failed check naming ctx and the member if it is missing or of the wrong
   type (or, for hex, not hex); return NULL / 0 then, and set *ok = 0 when ok is not NULL. */
const char *vj_get_string(vj_value *obj, const char *name, const char *ctx, int *ok);
long long vj_get_int(vj_value *obj, const char *name, const char *ctx, int *ok);
int vj_get_bool(vj_value *obj, const char *name, const char *ctx, int *ok);
vj_value *vj_get_array(vj_value *obj, const char *name, const char *ctx, int *ok);
vj_value *vj_get_object(vj_value *obj, const char *name, const char *ctx, int *ok);
/* Hex string member decoded; the bytes live as long as the tree. Never NULL on success. */
const uint8_t *vj_get_hex(vj_value *obj, const char *name, size_t *len, const char *ctx, int *ok);
/* The string of a VJ_STRING value (NULL for another type); its byte length in *len if len. */
const char *vj_string(const vj_value *v, size_t *len);
/* The name of member i of an object. */
const char *vj_member_name(const vj_value *obj, size_t i);

/* Reports every member of obj no getter read; returns 1 if there was none. */
int vj_check_all_read(const vj_value *obj, const char *ctx);

/* ---------------------------------------------------------------------------------------------- */
/* Checking vectors against the library (shared by the vectors_* programs).                        */

/* Prints "what: N records (expected E), R run" and checks N == expected. */
void vt_check_count(const char *what, size_t records, size_t expected, size_t run);

enum vt_aead { VT_GCM, VT_GCM_SIV, VT_CCM };
const char *vt_aead_name(enum vt_aead alg);

/* One AEAD vector. pt may be NULL when the plaintext is unknown (a forgery); ct has len bytes. */
struct vt_aead_vector {
    const uint8_t *key;
    size_t key_len;
    const uint8_t *nonce;
    size_t nonce_len;
    const uint8_t *aad;
    size_t aad_len;
    const uint8_t *pt;
    const uint8_t *ct;
    size_t len;
    const uint8_t *tag;
    size_t tag_len;
};

/* The error vg must return for these lengths by the limits vg.h documents (checked in vg's order:
   key at init, then nonce, then tag), or VG_OK if it must accept them. */
int vt_aead_param_error(enum vt_aead alg, size_t key_len, size_t nonce_len, size_t tag_len);

/* Runs one vector through the library, with guard bytes after every output:
 *  expect VG_OK            init OK; seal(pt) gives exactly ct and the tag_len-byte tag; open (in
 *                          place, over a copy of ct) returns VG_OK and pt.
 *  expect VG_ERR_AUTH      open returns VG_ERR_AUTH and all len output bytes are zero; if pt is
 *                          known, seal(pt) must give something other than (ct, tag).
 *  expect VG_ERR_KEY_LENGTH   init refuses the key with it.
 *  expect VG_ERR_NONCE_LENGTH / VG_ERR_TAG_LENGTH   seal and open both return it and write nothing.
 * Failures name where. Returns 1 if every check passed. */
int vt_check_aead(enum vt_aead alg, const struct vt_aead_vector *v, int expect, const char *where);

/* When set (before the first vector), vt_check_aead hands every vector to it instead: the provider's
   vector tests run the same programs with a hook that goes through OpenSSL's EVP. */
extern int (*vt_check_aead_hook)(enum vt_aead alg, const struct vt_aead_vector *v, int expect, const char *where);

#endif
