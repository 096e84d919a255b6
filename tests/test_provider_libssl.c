/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * test_provider_libssl.c — libssl's TLS records served by the vg provider, in process.
 *
 * Two library contexts: "vg" has vg.so and default loaded with default_properties "?provider=vg"
 * (so libssl fetches its AES-GCM/CCM from vg and everything else from default), "plain" has only
 * default. A client and a server (one in each context, then the other way round) talk over a
 * socketpair, in two threads: the client sends 1 MiB in 16 KiB chunks, the server echoes each, the
 * client compares. In TLS 1.3 both sides request a key update half way (SSL_key_update), so records
 * after it are under new keys. Suites: TLS 1.3 AES-128-GCM, AES-256-GCM, AES-128-CCM, AES-128-CCM-8;
 * TLS 1.2 ECDHE-ECDSA AES128-GCM, AES256-GCM, AES128-CCM (an ECDSA P-256 certificate made here).
 *
 * Proof that vg served the records: the vg provider's "vg-cipher-ops" counter (cipher updates and
 * finals) must grow by what the 128 records of 16 KiB (64 each way) need: 3 operations each in TLS 1.3
 * (AAD, data, Final), 1 in TLS 1.2 (a whole record per update). That cannot happen if the default
 * provider served them. (Other operations count too: with "?provider=vg" the default provider's
 * CTR-DRBG runs on vg's AES-256-CTR; it adds well under 128.) And the data must arrive intact.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "harness.h"
#include "provider_common.h"

#define TOTAL (1u << 20)
#define CHUNK 16384u

static struct vgp_test g;
static OSSL_LIB_CTX *plain;
static OSSL_PROVIDER *plain_default;
static char *key_pem, *cert_pem;

static void fail_ssl(const char *what)
{
    printf("error: %s\n", what);
    ERR_print_errors_fp(stdout);
    exit(1);
}

static char *dup_mem(const char *p, long n)
{
    char *s = vgt_xmalloc((size_t)n + 1);
    memcpy(s, p, (size_t)n);
    s[n] = 0;
    return s;
}

/* An ECDSA P-256 key and a self-signed certificate, as PEM (each context reads its own copy). */
static void make_cert(void)
{
    EVP_PKEY *pkey = EVP_PKEY_Q_keygen(plain, NULL, "EC", "P-256");
    X509 *x = X509_new_ex(plain, NULL);
    BIO *kb = BIO_new(BIO_s_mem()), *cb = BIO_new(BIO_s_mem());
    char *p;
    long n;

    if (pkey == NULL || x == NULL)
        fail_ssl("key generation");
    ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
    X509_gmtime_adj(X509_getm_notBefore(x), -3600);
    X509_gmtime_adj(X509_getm_notAfter(x), 3600);
    X509_set_pubkey(x, pkey);
    X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_ASC, (const unsigned char *)"localhost", -1,
                               -1, 0);
    X509_set_issuer_name(x, X509_get_subject_name(x));
    if (!X509_sign(x, pkey, EVP_sha256()) || !PEM_write_bio_PrivateKey(kb, pkey, NULL, NULL, 0, NULL, NULL) ||
        !PEM_write_bio_X509(cb, x))
        fail_ssl("certificate");
    n = BIO_get_mem_data(kb, &p);
    key_pem = dup_mem(p, n);
    n = BIO_get_mem_data(cb, &p);
    cert_pem = dup_mem(p, n);
    BIO_free(kb);
    BIO_free(cb);
    X509_free(x);
    EVP_PKEY_free(pkey);
}

struct suite {
    const char *name;
    int tls13;
    const char *spec; /* TLS 1.3 ciphersuite or TLS 1.2 cipher list */
};

static SSL_CTX *make_ctx(OSSL_LIB_CTX *lib, int server, const struct suite *s)
{
    SSL_CTX *ctx = SSL_CTX_new_ex(lib, NULL, server ? TLS_server_method() : TLS_client_method());
    int ok;

    if (ctx == NULL)
        fail_ssl("SSL_CTX_new_ex");
    if (s->tls13) {
        ok = SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION) && SSL_CTX_set_ciphersuites(ctx, s->spec);
    } else {
        ok = SSL_CTX_set_max_proto_version(ctx, TLS1_2_VERSION) && SSL_CTX_set_cipher_list(ctx, s->spec);
    }
    if (server) {
        BIO *kb = BIO_new_mem_buf(key_pem, -1), *cb = BIO_new_mem_buf(cert_pem, -1);
        EVP_PKEY *pkey = PEM_read_bio_PrivateKey_ex(kb, NULL, NULL, NULL, lib, NULL);
        X509 *x = X509_new_ex(lib, NULL);
        ok = ok && pkey != NULL && PEM_read_bio_X509(cb, &x, NULL, NULL) != NULL && SSL_CTX_use_certificate(ctx, x) &&
             SSL_CTX_use_PrivateKey(ctx, pkey);
        EVP_PKEY_free(pkey);
        X509_free(x);
        BIO_free(kb);
        BIO_free(cb);
    }
    if (!ok)
        fail_ssl("SSL_CTX set-up");
    return ctx;
}

struct server_arg {
    SSL *ssl;
    int tls13;
    int ok;
};

static int read_full(SSL *ssl, uint8_t *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        size_t r = 0;
        if (!SSL_read_ex(ssl, buf + got, n - got, &r))
            return 0;
        got += r;
    }
    return 1;
}

static void *server_main(void *v)
{
    struct server_arg *a = v;
    uint8_t *buf = malloc(CHUNK);
    size_t done = 0, w;

    a->ok = SSL_accept(a->ssl) == 1;
    while (a->ok && done < TOTAL) {
        if (a->tls13 && done == TOTAL / 2 && !SSL_key_update(a->ssl, SSL_KEY_UPDATE_REQUESTED))
            a->ok = 0;
        a->ok = a->ok && read_full(a->ssl, buf, CHUNK) && SSL_write_ex(a->ssl, buf, CHUNK, &w) && w == CHUNK;
        done += CHUNK;
    }
    if (a->ok)
        SSL_shutdown(a->ssl);
    free(buf);
    return NULL;
}

static void run(const struct suite *s, int vg_is_server)
{
    OSSL_LIB_CTX *server_lib = vg_is_server ? g.lib : plain, *client_lib = vg_is_server ? plain : g.lib;
    SSL_CTX *sctx = make_ctx(server_lib, 1, s), *cctx = make_ctx(client_lib, 0, s);
    SSL *ss = SSL_new(sctx), *cs = SSL_new(cctx);
    uint8_t *sent = vgt_xmalloc(TOTAL), *back = vgt_xmalloc(CHUNK);
    int fds[2], ok;
    size_t w;
    pthread_t th;
    struct server_arg arg = { ss, s->tls13, 0 };
    const char *who = vg_is_server ? "vg server, default client" : "vg client, default server";

    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0)
        fail_ssl("socketpair");
    SSL_set_fd(ss, fds[0]);
    SSL_set_fd(cs, fds[1]);
    vgt_rand_bytes(sent, TOTAL);
    uint64_t before = vgp_cipher_ops(g.vg);
    pthread_create(&th, NULL, server_main, &arg);
    ok = SSL_connect(cs) == 1;
    if (ok) {
        const char *got = SSL_CIPHER_get_name(SSL_get_current_cipher(cs));
        CHECK(strcmp(got, s->name) == 0, "%s, %s: negotiated %s", s->name, who, got);
    }
    for (size_t done = 0; ok && done < TOTAL; done += CHUNK) {
        if (s->tls13 && done == TOTAL / 2 && !SSL_key_update(cs, SSL_KEY_UPDATE_REQUESTED))
            ok = 0;
        ok = ok && SSL_write_ex(cs, sent + done, CHUNK, &w) && w == CHUNK && read_full(cs, back, CHUNK);
        if (ok && memcmp(back, sent + done, CHUNK) != 0) {
            CHECK(0, "%s, %s: echoed data differs at %zu", s->name, who, done);
            ok = 0;
        }
    }
    if (!ok)
        ERR_print_errors_fp(stdout);
    shutdown(fds[1], SHUT_RDWR); /* unblocks the server if the client gave up */
    pthread_join(th, NULL);
    uint64_t ops = vgp_cipher_ops(g.vg) - before;
    CHECK(ok && arg.ok, "%s, %s: 1 MiB each way (client %d, server %d)", s->name, who, ok, arg.ok);
    /* A TLS 1.3 record costs vg at least 3 operations (AAD, data, Final), a TLS 1.2 record 1. */
    unsigned int want = (s->tls13 ? 3 : 1) * 2 * TOTAL / CHUNK;
    CHECK(ops >= want, "%s, %s: vg served %llu cipher operations, fewer than the %u its records need", s->name,
          who, (unsigned long long)ops, want);
    printf("%-30s %s: %s, %llu vg cipher operations\n", s->name, who, ok && arg.ok ? "ok" : "FAILED",
           (unsigned long long)ops);
    SSL_free(ss);
    SSL_free(cs);
    SSL_CTX_free(sctx);
    SSL_CTX_free(cctx);
    close(fds[0]);
    close(fds[1]);
    free(sent);
    free(back);
}

int main(int argc, char **argv)
{
    static const struct suite suites[] = {
        { "TLS_AES_128_GCM_SHA256", 1, "TLS_AES_128_GCM_SHA256" },
        { "TLS_AES_256_GCM_SHA384", 1, "TLS_AES_256_GCM_SHA384" },
        { "TLS_AES_128_CCM_SHA256", 1, "TLS_AES_128_CCM_SHA256" },
        { "TLS_AES_128_CCM_8_SHA256", 1, "TLS_AES_128_CCM_8_SHA256" },
        { "ECDHE-ECDSA-AES128-GCM-SHA256", 0, "ECDHE-ECDSA-AES128-GCM-SHA256" },
        { "ECDHE-ECDSA-AES256-GCM-SHA384", 0, "ECDHE-ECDSA-AES256-GCM-SHA384" },
        { "ECDHE-ECDSA-AES128-CCM", 0, "ECDHE-ECDSA-AES128-CCM" },
    };
    vgt_init(argc, argv);
    signal(SIGPIPE, SIG_IGN); /* a peer that has gone makes writes fail, not the process */
    vgp_open(&g);
    if (!EVP_set_default_properties(g.lib, "?provider=vg"))
        fail_ssl("default properties");
    plain = OSSL_LIB_CTX_new();
    if (plain == NULL || (plain_default = OSSL_PROVIDER_load(plain, "default")) == NULL)
        fail_ssl("plain library context");
    make_cert();
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++)
        for (int vg_is_server = 0; vg_is_server < 2; vg_is_server++)
            run(&suites[i], vg_is_server);
    free(key_pem);
    free(cert_pem);
    OSSL_PROVIDER_unload(plain_default);
    OSSL_LIB_CTX_free(plain);
    vgp_close(&g);
    return vgt_finish();
}
