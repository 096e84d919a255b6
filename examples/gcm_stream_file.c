/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* Streaming AES-256-GCM over a file, a chunk at a time, never holding the whole file in memory.
 *
 *   gcm_stream_file [FILE]
 *
 * Encrypts FILE to FILE.vg (12-byte nonce, ciphertext, 16-byte tag), decrypts FILE.vg to FILE.vg.out
 * and compares it with FILE; then flips one bit of the tag in FILE.vg and checks that decrypting it is
 * refused and leaves no file behind. With no FILE it makes its own temporary file. It removes every
 * file it wrote. The key is random and lives only as long as the program.
 *
 * The caveat of streaming decryption: vg_aes_gcm_stream_decrypt hands out plaintext before the tag
 * has been checked. So decryption writes to FILE.vg.out.part, which nothing else reads, and only
 * once vg_aes_gcm_stream_verify returns VG_OK is it renamed to FILE.vg.out; otherwise it is deleted.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen, close */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h> /* getrandom: Linux (glibc 2.25+, musl) */
#include <unistd.h>
#include <vg.h>

#define CHUNK 4096
#define NONCE_SIZE VG_AES_GCM_NONCE_SIZE
#define TAG_SIZE VG_AES_GCM_TAG_SIZE

/* Authenticated with every file: a file of another format (or version) is refused, not misread. */
static const uint8_t file_format[] = "vg gcm_stream_file example, v1";

enum result { OK, FORGED, FAILED };

static enum result call_failed(const char *what, int rc)
{
    fprintf(stderr, "%s: %s\n", what, vg_strerror(rc));
    return FAILED;
}

static enum result io_failed(const char *what)
{
    perror(what);
    return FAILED;
}

static int exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f != NULL) fclose(f);
    return f != NULL;
}

/* Writes nonce, ciphertext and tag of in_path to the new file out_path. */
static enum result seal_file(const vg_aes_gcm_key *key, const char *in_path, const char *out_path)
{
    uint8_t nonce[NONCE_SIZE], tag[TAG_SIZE], buf[CHUNK];
    vg_aes_gcm_stream s;
    enum result result = FAILED;
    size_t n;
    int rc;

    FILE *in = fopen(in_path, "rb");
    if (in == NULL) return io_failed(in_path);
    FILE *out = fopen(out_path, "wbx"); /* "x": fail rather than overwrite */
    if (out == NULL) {
        fclose(in);
        return io_failed(out_path);
    }
    /* A new random nonce for every file, stored at its start: 2^32 files per key at most. */
    if (getrandom(nonce, sizeof nonce, 0) != (ssize_t)sizeof nonce) {
        result = io_failed("getrandom");
        goto done;
    }
    if ((rc = vg_aes_gcm_stream_init(&s, key, nonce, sizeof nonce)) != VG_OK ||
        (rc = vg_aes_gcm_stream_aad(&s, file_format, sizeof file_format)) != VG_OK) {
        result = call_failed("stream_init/aad", rc);
        goto done;
    }
    if (fwrite(nonce, 1, sizeof nonce, out) != sizeof nonce) {
        result = io_failed(out_path);
        goto done;
    }
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
        if ((rc = vg_aes_gcm_stream_encrypt(&s, buf, n, buf)) != VG_OK) {
            result = call_failed("stream_encrypt", rc);
            goto done;
        }
        if (fwrite(buf, 1, n, out) != n) {
            result = io_failed(out_path);
            goto done;
        }
    }
    if (ferror(in)) {
        result = io_failed(in_path);
        goto done;
    }
    if ((rc = vg_aes_gcm_stream_finish(&s, tag, sizeof tag)) != VG_OK) {
        result = call_failed("stream_finish", rc);
        goto done;
    }
    if (fwrite(tag, 1, sizeof tag, out) != sizeof tag) {
        result = io_failed(out_path);
        goto done;
    }
    result = OK;
done:
    vg_aes_gcm_stream_wipe(&s);
    fclose(in);
    if (fclose(out) != 0 && result == OK) result = io_failed(out_path);
    if (result != OK) remove(out_path);
    return result;
}

/* Decrypts in_path (written by seal_file) to the new file out_path: OK, FORGED (tag mismatch; no
   out_path then) or FAILED. */
static enum result open_file(const vg_aes_gcm_key *key, const char *in_path, const char *out_path)
{
    uint8_t nonce[NONCE_SIZE], tag[TAG_SIZE], buf[CHUNK];
    char part[4096];
    vg_aes_gcm_stream s;
    enum result result = FAILED;
    FILE *out = NULL;
    int made_part = 0;
    long size;
    int rc;

    if ((size_t)snprintf(part, sizeof part, "%s.part", out_path) >= sizeof part) return io_failed("path too long");
    if (exists(out_path)) { /* rename would replace it */
        fprintf(stderr, "%s: already exists\n", out_path);
        return FAILED;
    }
    FILE *in = fopen(in_path, "rb");
    if (in == NULL) return io_failed(in_path);
    /* The tag is the last TAG_SIZE bytes, the nonce the first NONCE_SIZE. */
    if (fseek(in, 0, SEEK_END) != 0 || (size = ftell(in)) < NONCE_SIZE + TAG_SIZE ||
        fseek(in, size - TAG_SIZE, SEEK_SET) != 0 || fread(tag, 1, sizeof tag, in) != sizeof tag ||
        fseek(in, 0, SEEK_SET) != 0 || fread(nonce, 1, sizeof nonce, in) != sizeof nonce) {
        fprintf(stderr, "%s: not a sealed file (too short or unreadable)\n", in_path);
        goto done;
    }
    if ((rc = vg_aes_gcm_stream_init(&s, key, nonce, sizeof nonce)) != VG_OK ||
        (rc = vg_aes_gcm_stream_aad(&s, file_format, sizeof file_format)) != VG_OK) {
        result = call_failed("stream_init/aad", rc);
        goto done;
    }
    out = fopen(part, "wbx");
    if (out == NULL) {
        result = io_failed(part);
        goto done;
    }
    made_part = 1;
    for (long left = size - NONCE_SIZE - TAG_SIZE; left > 0;) {
        size_t n = left < CHUNK ? (size_t)left : CHUNK;
        if (fread(buf, 1, n, in) != n) {
            result = io_failed(in_path);
            goto done;
        }
        /* buf now holds plaintext that may be forged: it goes to the .part file and nowhere else. */
        if ((rc = vg_aes_gcm_stream_decrypt(&s, buf, n, buf)) != VG_OK) {
            result = call_failed("stream_decrypt", rc);
            goto done;
        }
        if (fwrite(buf, 1, n, out) != n) {
            result = io_failed(part);
            goto done;
        }
        left -= (long)n;
    }
    rc = fclose(out);
    out = NULL;
    if (rc != 0) {
        result = io_failed(part);
        goto done;
    }
    rc = vg_aes_gcm_stream_verify(&s, tag, sizeof tag);
    if (rc == VG_ERR_AUTH) {
        result = FORGED; /* the .part file is removed below, unread */
    } else if (rc != VG_OK) {
        result = call_failed("stream_verify", rc);
    } else if (rename(part, out_path) != 0) { /* authentic: now, and only now, it gets its name */
        result = io_failed(out_path);
    } else {
        result = OK;
    }
done:
    vg_aes_gcm_stream_wipe(&s);
    fclose(in);
    if (out != NULL) fclose(out);
    if (made_part && result != OK) remove(part);
    return result;
}

/* 1 if the two files have the same bytes, else 0. */
static int same_contents(const char *a_path, const char *b_path)
{
    FILE *a = fopen(a_path, "rb"), *b = fopen(b_path, "rb");
    int same = a != NULL && b != NULL;
    while (same) {
        int ca = getc(a), cb = getc(b);
        if (ca != cb) same = 0;
        if (ca == EOF) break;
    }
    if (same && (ferror(a) || ferror(b))) same = 0;
    if (a != NULL) fclose(a);
    if (b != NULL) fclose(b);
    return same;
}

/* Flips the lowest bit of the last byte of the file (the last byte of the tag). */
static int flip_last_bit(const char *path)
{
    FILE *f = fopen(path, "r+b");
    if (f == NULL) {
        perror(path);
        return -1;
    }
    int c = fseek(f, -1, SEEK_END) == 0 ? getc(f) : EOF;
    if (c != EOF) c = fseek(f, -1, SEEK_END) == 0 ? putc(c ^ 1, f) : EOF;
    if (fclose(f) != 0 || c == EOF) {
        perror(path);
        return -1;
    }
    return 0;
}

/* Fills a new temporary file (name from the template) with some lines of text. */
static int make_sample(char *template)
{
    int fd = mkstemp(template);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
    int ok = f != NULL;
    if (fd >= 0 && f == NULL) close(fd);
    for (int i = 0; ok && i < 5000; i++) /* about 150 KB: many chunks and a partial one */
        ok = fprintf(f, "line %d of the sample file\n", i) > 0;
    if (f != NULL && fclose(f) != 0) ok = 0;
    if (!ok) perror(template);
    return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    char sample[] = "/tmp/vg-gcm-stream-XXXXXX";
    char sealed[4096], opened[4096], refused[4096], refused_part[4096];
    uint8_t key_bytes[32];
    vg_aes_gcm_key key;
    int status = 1, made_sealed = 0, made_opened = 0;
    const char *path = argc == 2 ? argv[1] : sample;
    enum result result;

    if (argc > 2) {
        fprintf(stderr, "usage: %s [FILE]\n", argv[0]);
        return 2;
    }
    if (getrandom(key_bytes, sizeof key_bytes, 0) != (ssize_t)sizeof key_bytes) {
        perror("getrandom");
        return 1;
    }
    int rc = vg_aes_gcm_init(&key, key_bytes, sizeof key_bytes);
    if (rc != VG_OK) {
        call_failed("vg_aes_gcm_init", rc);
        return 1;
    }
    if (argc == 1 && make_sample(sample) != 0) goto done; /* sample now holds the file's name */
    if ((size_t)snprintf(sealed, sizeof sealed, "%s.vg", path) >= sizeof sealed ||
        (size_t)snprintf(opened, sizeof opened, "%s.vg.out", path) >= sizeof opened ||
        (size_t)snprintf(refused, sizeof refused, "%s.vg.refused", path) >= sizeof refused ||
        (size_t)snprintf(refused_part, sizeof refused_part, "%s.part", refused) >= sizeof refused_part) {
        fprintf(stderr, "%s: path too long\n", path);
        goto done;
    }

    if (seal_file(&key, path, sealed) != OK) goto done;
    made_sealed = 1;
    if (open_file(&key, sealed, opened) != OK) goto done;
    made_opened = 1;
    if (!same_contents(path, opened)) {
        fprintf(stderr, "%s and %s differ\n", path, opened);
        goto done;
    }
    printf("%s -> %s -> %s: same bytes\n", path, sealed, opened);

    if (flip_last_bit(sealed) != 0) goto done;
    result = open_file(&key, sealed, refused);
    if (result == OK) remove(refused);
    if (result != FORGED) {
        fprintf(stderr, "a tampered tag was not refused\n");
        goto done;
    }
    if (exists(refused) || exists(refused_part)) {
        fprintf(stderr, "%s or %s exists after a refused tag\n", refused, refused_part);
        goto done;
    }
    printf("tampered tag: refused; neither %s nor %s is left\n", refused, refused_part);
    status = 0;
done:
    vg_aes_gcm_key_wipe(&key);
    if (made_sealed) remove(sealed);
    if (made_opened) remove(opened);
    if (argc == 1) remove(sample); /* still the template if mkstemp failed: nothing by that name */
    return status;
}
