/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * vg-provider-check — does vg serve the AES ciphers of a program using OpenSSL?
 *
 *   vg-provider-check [--config FILE]    this process, as an application would start
 *   vg-provider-check --pid PID          a running process: is vg.so mapped, which OPENSSL_CONF
 *
 * The first form loads OpenSSL's configuration the way an application does (OPENSSL_CONF, else
 * OpenSSL's default openssl.cnf; --config FILE instead of both), fetches every algorithm vg offers
 * with the default properties (a NULL property query, as EVP_aes_128_gcm() or libssl would), and
 * prints which provider serves each. Why a program and not `openssl list`: `openssl list -providers`
 * says vg is loaded, not that a fetch picks it (that takes default_properties = ?provider=vg), and
 * when a configuration names a module that is missing OpenSSL 3.0 says nothing at all (no error, exit
 * status 0, docs/openssl-provider.md): this program names the module file it looked for.
 *
 * Exit status: 0 vg is loaded and serves every algorithm it offers; 1 it does not (vg not loaded, an
 * algorithm vg offers served by another provider or by none, the configuration failed to load, or,
 * with --pid, vg.so not mapped); 2 usage error, unreadable --config FILE or unreadable process.
 *
 * It uses OpenSSL's public API and vg.h's constants only (it does not link vg: the vg that matters is
 * the one inside the loaded vg.so, asked through its provider parameters).
 */
#define _POSIX_C_SOURCE 200809L /* getline, strnlen */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/conf.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "vg.h"

enum { EXIT_VG_SERVES = 0, EXIT_NOT_VG = 1, EXIT_USAGE = 2 };

/* Every cipher vg.so registers (provider/provider.c); AES-192-GCM-SIV only where its vg takes 24-byte
   GCM-SIV keys, so it counts only when vg offers it. OpenSSL 3.0's default provider has no GCM-SIV:
   without vg those three are served by nobody, which is reported, not an error of this program. */
static const char *const algorithms[] = {
    "AES-128-GCM", "AES-192-GCM", "AES-256-GCM", "AES-128-CCM",     "AES-192-CCM",     "AES-256-CCM",
    "AES-128-CTR", "AES-192-CTR", "AES-256-CTR", "AES-128-ECB",     "AES-192-ECB",     "AES-256-ECB",
    "AES-128-GCM-SIV", "AES-192-GCM-SIV", "AES-256-GCM-SIV",
};

/* vg.so's own provider parameter (provider/provider.c): vg_impl_env_status() inside the module. */
#define VG_PARAM_IMPL_ENV_STATUS "vg-impl-env-status"

static void usage(FILE *f)
{
    fprintf(f, "usage: vg-provider-check [--config FILE]\n"
               "       vg-provider-check --pid PID\n"
               "Reports which OpenSSL provider serves each AES cipher vg offers, as an application\n"
               "loading OpenSSL's configuration (OPENSSL_CONF, else the default openssl.cnf) would get it.\n"
               "Exit status: 0 vg serves them all; 1 not (or, with --pid, vg.so not mapped); 2 usage.\n");
}

/* Prints the file names in /proc/PID/maps (pid "self" for this process) whose last component is
   vg.so, each once, with the prefix before each; returns how many. -1 if the maps are unreadable. */
static int print_mapped_vg(const char *pid, const char *prefix)
{
    char path[64], *line = NULL, last[PATH_MAX + 16] = "";
    size_t cap = 0;
    int found = 0;
    FILE *f;

    snprintf(path, sizeof path, "/proc/%s/maps", pid);
    f = fopen(path, "r");
    if (f == NULL)
        return -1;
    while (getline(&line, &cap, f) > 0) {
        char *name = strchr(line, '/'), *base, *end;

        if (name == NULL)
            continue;
        name[strcspn(name, "\n")] = '\0';
        /* a module replaced on disk since it was mapped reads "/path/vg.so (deleted)" */
        end = strstr(name, " (deleted)");
        base = strrchr(name, '/') + 1;
        if (strncmp(base, "vg.so", 5) != 0 || (base[5] != '\0' && base + 5 != end))
            continue;
        if (strcmp(name, last) == 0) /* one line per mapping: print each file once */
            continue;
        snprintf(last, sizeof last, "%s", name);
        printf("%s%s%s\n", prefix, name,
               end != NULL ? "  <- replaced on disk since the process mapped it: restart it" : "");
        found++;
    }
    free(line);
    fclose(f);
    return found;
}

/* --pid: is vg.so mapped in the process, and what do OPENSSL_CONF, OPENSSL_MODULES and VG_IMPL say
   in its environment (as it was when the process started: /proc shows the initial environment). */
static int check_pid(const char *pid)
{
    static const char *const vars[] = { "OPENSSL_CONF", "OPENSSL_MODULES", "VG_IMPL" };
    char path[64], comm[64] = "?", *env = NULL;
    size_t len = 0, cap = 0;
    int mapped;
    FILE *f;

    for (const char *c = pid; *c != '\0'; c++)
        if (*c < '0' || *c > '9' || c - pid > 10) {
            fprintf(stderr, "vg-provider-check: --pid wants a process id, not '%s'\n", pid);
            return EXIT_USAGE;
        }
    snprintf(path, sizeof path, "/proc/%s/maps", pid);
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "vg-provider-check: cannot read %s: %s\n", path, strerror(errno));
        return EXIT_USAGE;
    }
    snprintf(path, sizeof path, "/proc/%s/comm", pid);
    if ((f = fopen(path, "r")) != NULL) {
        if (fgets(comm, sizeof comm, f) != NULL)
            comm[strcspn(comm, "\n")] = '\0';
        fclose(f);
    }
    printf("process %s (%s)\n", pid, comm);
    mapped = print_mapped_vg(pid, "  vg.so mapped: ");
    if (mapped < 0) {
        fprintf(stderr, "vg-provider-check: cannot read /proc/%s/maps: %s\n", pid, strerror(errno));
        return EXIT_USAGE;
    }
    if (mapped == 0)
        printf("  vg.so is not mapped: this process has not loaded vg\n");

    snprintf(path, sizeof path, "/proc/%s/environ", pid);
    if ((f = fopen(path, "r")) == NULL) {
        printf("  environment unreadable (%s): run as its user or as root\n", strerror(errno));
    } else {
        for (;;) { /* the whole file: NUL-separated NAME=value entries */
            if (len == cap) {
                char *n = realloc(env, cap = cap ? 2 * cap : 4096);
                if (n == NULL)
                    break;
                env = n;
            }
            size_t got = fread(env + len, 1, cap - len, f);
            if (got == 0)
                break;
            len += got;
        }
        fclose(f);
        for (size_t v = 0; v < sizeof vars / sizeof vars[0]; v++) {
            size_t n = strlen(vars[v]);
            const char *value = NULL;

            for (size_t i = 0; i < len; i += strnlen(env + i, len - i) + 1)
                if (len - i > n && memcmp(env + i, vars[v], n) == 0 && env[i + n] == '=')
                    value = env + i + n + 1;
            if (value != NULL)
                printf("  %s=%.*s\n", vars[v], (int)strnlen(value, (size_t)(env + len - value)), value);
            else if (v == 0) /* not proof: a process may rewrite that memory (nginx does, for its title) */
                printf("  OPENSSL_CONF not in its initial environment (/proc/%s/environ): unset, so its "
                       "OpenSSL reads the default openssl.cnf, or that memory was rewritten (nginx does, for "
                       "its process title)\n", pid);
            else
                printf("  %s not in its initial environment\n", vars[v]);
        }
        free(env);
    }
    if (mapped > 0)
        printf("  (mapped means loaded; whether fetches pick vg depends on that configuration's\n"
               "   default_properties: run vg-provider-check with the same OPENSSL_CONF to see)\n");
    return mapped > 0 ? EXIT_VG_SERVES : EXIT_NOT_VG;
}

/* The UTF-8 string parameter key of a provider, or NULL. */
static const char *provider_string(const OSSL_PROVIDER *prov, const char *key)
{
    const char *value = NULL;
    OSSL_PARAM params[] = { OSSL_PARAM_utf8_ptr(key, (char **)&value, 0), OSSL_PARAM_END };

    if (!OSSL_PROVIDER_get_params(prov, params) || !OSSL_PARAM_modified(params))
        return NULL;
    return value;
}

/* vg's provider identified by what it says its name is ("vg"), not by the name the configuration gave
   it: a configuration may load vg.so as any name. */
static int is_vg(const OSSL_PROVIDER *prov)
{
    const char *name = provider_string(prov, OSSL_PROV_PARAM_NAME);
    return name != NULL && strcmp(name, "vg") == 0;
}

struct loaded {
    const OSSL_PROVIDER *vg;
    char names[512];
};

static int collect(OSSL_PROVIDER *prov, void *arg)
{
    struct loaded *l = arg;
    size_t n = strlen(l->names);

    snprintf(l->names + n, sizeof l->names - n, "%s%s", n ? ", " : "", OSSL_PROVIDER_get0_name(prov));
    if (l->vg == NULL && is_vg(prov))
        l->vg = prov;
    return 1;
}

static int print_error_line(const char *str, size_t len, void *u)
{
    (void)u;
    printf("      %.*s", (int)len, str);
    if (len == 0 || str[len - 1] != '\n')
        printf("\n");
    return 1;
}

/* OpenSSL 3.0 also skips an `.include` whose file is missing without a word (Debian 12's 3.0.22,
   config_diagnostics = 1 or not): what a system-wide `.include .../vg-provider.cnf` leaves behind once
   vg is uninstalled. Names each such file of FILE's own .include lines; returns how many. */
static int print_missing_includes(const char *file)
{
    FILE *f = fopen(file, "r");
    char *line = NULL, path[PATH_MAX];
    size_t cap = 0;
    int missing = 0;
    const char *dir = getenv("OPENSSL_CONF_INCLUDE"); /* where OpenSSL takes relative ones from */

    while (f != NULL && getline(&line, &cap, f) > 0) {
        char *p = line + strspn(line, " \t"), *end;

        if (strncmp(p, ".include", 8) != 0 || (p[8] != ' ' && p[8] != '\t' && p[8] != '='))
            continue;
        p += 8;
        p += strspn(p, " \t");
        if (*p == '=')
            p += 1 + strspn(p + 1, " \t");
        for (end = p + strlen(p); end > p && strchr(" \t\r\n", end[-1]) != NULL; end--)
            ;
        *end = '\0';
        if (*p == '\0')
            continue;
        if (*p != '/' && dir != NULL && *dir != '\0')
            snprintf(path, sizeof path, "%s/%s", dir, p);
        else
            snprintf(path, sizeof path, "%s", p);
        if (access(path, F_OK) != 0) {
            printf("  %s includes %s: %s (was vg uninstalled?); OpenSSL 3.0 skips a missing "
                   ".include without a word\n", file, path, strerror(errno));
            missing++;
        }
    }
    free(line);
    if (f != NULL)
        fclose(f);
    return missing;
}

/* OpenSSL 3.0 skips a configured provider whose module does not load without a word, whatever
   config_diagnostics says. So read the providers section of the same file and, for each one the file
   activates that is not loaded, say which module file was looked for and why it did not load. */
static void explain_unloaded(const char *file)
{
    CONF *conf = NCONF_new(NULL);
    long eline = 0;
    const char *init, *list;
    STACK_OF(CONF_VALUE) *init_sect, *providers;
    int named = 0;

    if (access(file, F_OK) != 0) {
        /* OPENSSL_CONF naming a file that is gone (a service's drop-in left behind) */
        printf("  %s does not exist (was vg uninstalled?): OpenSSL 3.0 then runs with no "
               "configuration at all, not even its default openssl.cnf, and says nothing about it\n", file);
        NCONF_free(conf);
        return;
    }
    if (print_missing_includes(file) > 0)
        named = 1; /* a missing .include may well have been vg's: "does not name vg" would mislead */
    if (conf == NULL || NCONF_load(conf, file, &eline) <= 0) {
        printf("  (could not parse %s%s to say more)\n", file, eline > 0 ? " past an error" : "");
        NCONF_free(conf);
        ERR_clear_error();
        return;
    }
    init = NCONF_get_string(conf, NULL, "openssl_conf");
    init_sect = init != NULL ? NCONF_get_section(conf, init) : NULL;
    list = NULL;
    for (int i = 0; init_sect != NULL && i < sk_CONF_VALUE_num(init_sect); i++) {
        CONF_VALUE *v = sk_CONF_VALUE_value(init_sect, i);
        if (strcmp(v->name, "providers") == 0)
            list = v->value;
    }
    providers = list != NULL ? NCONF_get_section(conf, list) : NULL;
    for (int i = 0; providers != NULL && i < sk_CONF_VALUE_num(providers); i++) {
        CONF_VALUE *p = sk_CONF_VALUE_value(providers, i);
        STACK_OF(CONF_VALUE) *sect = NCONF_get_section(conf, p->value);
        const char *module = NULL, *name = p->name;
        int activate = 0;
        char path[PATH_MAX];

        for (int j = 0; sect != NULL && j < sk_CONF_VALUE_num(sect); j++) {
            CONF_VALUE *v = sk_CONF_VALUE_value(sect, j);
            if (strcmp(v->name, "module") == 0)
                module = v->value;
            else if (strcmp(v->name, "activate") == 0)
                activate = 1;
            else if (strcmp(v->name, "identity") == 0)
                name = v->value;
        }
        if (strcmp(name, "vg") == 0 || (module != NULL && strstr(module, "vg.so") != NULL))
            named = 1;
        if (!activate || OSSL_PROVIDER_available(NULL, name))
            continue;
        /* Where OpenSSL looks: module as given if it has a '/', else in OPENSSL_MODULES or the
           modules directory, named <module> or <name>.so. */
        if (module != NULL && strchr(module, '/') != NULL) {
            snprintf(path, sizeof path, "%s", module);
        } else {
            const char *dir = getenv("OPENSSL_MODULES");
            if (dir == NULL || *dir == '\0')
                dir = OPENSSL_info(OPENSSL_INFO_MODULES_DIR);
            if (module != NULL)
                snprintf(path, sizeof path, "%s/%s", dir, module);
            else
                snprintf(path, sizeof path, "%s/%s.so", dir, name);
        }
        printf("  provider '%s' (section [%s]) is activated by the configuration but not loaded:\n",
               name, p->value);
        if (access(path, F_OK) != 0) {
            printf("    module %s: %s (OpenSSL says nothing about it)\n", path, strerror(errno));
        } else {
            /* Try it in a library context of its own, for OpenSSL's reason (dlopen's message). */
            OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
            OSSL_PROVIDER *prov;

            ERR_clear_error();
            prov = ctx != NULL ? OSSL_PROVIDER_load(ctx, path) : NULL;
            printf("    module %s exists but %s:\n", path,
                   prov != NULL ? "loads here (a race?)" : "does not load");
            ERR_print_errors_cb(print_error_line, NULL);
            OSSL_PROVIDER_unload(prov);
            OSSL_LIB_CTX_free(ctx);
        }
    }
    if (!named)
        printf("  %s does not name vg: no provider section in it loads vg.so\n", file);
    NCONF_free(conf);
    ERR_clear_error();
}

int main(int argc, char **argv)
{
    const char *config = NULL, *source;
    char *default_config = NULL;
    OPENSSL_INIT_SETTINGS *settings = NULL;
    struct loaded loaded = { NULL, "" };
    int offered = 0, served = 0, status;
    const char *impl = "?";

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--pid") == 0 && i + 1 < argc && argc == 3)
            return check_pid(argv[i + 1]);
        if (strcmp(argv[i], "--config") == 0 && i + 1 < argc && config == NULL) {
            config = argv[++i];
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return EXIT_VG_SERVES;
        } else {
            usage(stderr);
            return EXIT_USAGE;
        }
    }

    /* The configuration, as an application loads it. */
    if (config != NULL) {
        FILE *f = fopen(config, "r"); /* OpenSSL ignores a missing file: refuse it here instead */
        if (f == NULL) {
            fprintf(stderr, "vg-provider-check: cannot read %s: %s\n", config, strerror(errno));
            return EXIT_USAGE;
        }
        fclose(f);
        settings = OPENSSL_INIT_new();
        if (settings == NULL || !OPENSSL_INIT_set_config_filename(settings, config))
            return EXIT_USAGE;
        source = "--config";
    } else {
        config = default_config = CONF_get1_default_config_file();
        const char *env = getenv("OPENSSL_CONF");
        source = env != NULL && *env != '\0' ? "OPENSSL_CONF" : "OpenSSL's default";
    }
    printf("vg-provider-check %s, %s\n", VG_VERSION_STRING, OpenSSL_version(OPENSSL_VERSION));
    printf("configuration: %s (%s)\n", config != NULL ? config : "(none)", source);
    if (!OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CONFIG, settings)) {
        printf("the configuration failed to load (an application would fail to start or run "
               "without it):\n");
        ERR_print_errors_cb(print_error_line, NULL);
        OPENSSL_INIT_free(settings);
        OPENSSL_free(default_config);
        return EXIT_NOT_VG;
    }
    OPENSSL_INIT_free(settings);
    {
        const char *modules = getenv("OPENSSL_MODULES");
        printf("modules directory: %s\n", modules != NULL && *modules != '\0'
                                              ? modules : OPENSSL_info(OPENSSL_INFO_MODULES_DIR));
        if (modules != NULL && *modules != '\0')
            printf("  (from OPENSSL_MODULES)\n");
    }
    OSSL_PROVIDER_do_all(NULL, collect, &loaded);
    printf("providers loaded: %s\n", loaded.names[0] ? loaded.names : "(none)");

    if (loaded.vg != NULL) {
        const char *version = provider_string(loaded.vg, OSSL_PROV_PARAM_VERSION);
        int env_status = VG_OK;
        OSSL_PARAM params[] = { OSSL_PARAM_int(VG_PARAM_IMPL_ENV_STATUS, &env_status), OSSL_PARAM_END };

        impl = provider_string(loaded.vg, OSSL_PROV_PARAM_BUILDINFO);
        impl = impl != NULL ? impl : "?";
        printf("vg: loaded as '%s', version %s, implementation %s\n", OSSL_PROVIDER_get0_name(loaded.vg),
               version != NULL ? version : "?", impl);
        print_mapped_vg("self", "  module ");
        /* vg ignores a VG_IMPL it cannot honour without a word; say it here. */
        if (OSSL_PROVIDER_get_params(loaded.vg, params) && OSSL_PARAM_modified(params)) {
            if (env_status == VG_ERR_UNSUPPORTED)
                printf("warning: VG_IMPL=%s was ignored: this vg does not know that implementation or this "
                       "CPU cannot run it; vg runs %s instead\n",
                       getenv("VG_IMPL") != NULL ? getenv("VG_IMPL") : "", impl);
        } else if (getenv("VG_IMPL") != NULL) {
            printf("note: this vg.so does not report whether VG_IMPL=%s was honoured\n", getenv("VG_IMPL"));
        }
    }

    printf("\n  %-16s %-12s %s\n", "algorithm", "served by", "vg implementation, or why not vg");
    for (size_t i = 0; i < sizeof algorithms / sizeof algorithms[0]; i++) {
        EVP_CIPHER *c, *own = NULL;
        const OSSL_PROVIDER *by;
        const char *note;

        ERR_set_mark(); /* a fetch that finds nothing queues an error: not ours to report */
        c = EVP_CIPHER_fetch(NULL, algorithms[i], NULL);
        if (loaded.vg != NULL)
            own = EVP_CIPHER_fetch(NULL, algorithms[i], "provider=vg");
        ERR_pop_to_mark();
        by = c != NULL ? EVP_CIPHER_get0_provider(c) : NULL;
        if (loaded.vg != NULL && own == NULL) {
            note = "not offered by this vg (not counted)";
        } else {
            offered++;
            if (by != NULL && is_vg(by)) {
                served++;
                note = impl;
            } else if (loaded.vg != NULL) {
                note = "NOT vg: vg offers it, but the default properties do not pick it "
                       "(default_properties = ?provider=vg)";
            } else {
                note = c != NULL ? "NOT vg" : "NOT vg (no loaded provider has it)";
            }
        }
        printf("  %-16s %-12s %s\n", algorithms[i], by != NULL ? OSSL_PROVIDER_get0_name(by) : "(none)", note);
        EVP_CIPHER_free(c);
        EVP_CIPHER_free(own);
    }
    printf("\n");

    if (loaded.vg == NULL) {
        printf("result: vg is NOT loaded\n");
        if (config != NULL)
            explain_unloaded(config);
        status = EXIT_NOT_VG;
    } else if (served < offered) {
        printf("result: vg is loaded, but serves only %d of the %d algorithms it offers\n", served, offered);
        status = EXIT_NOT_VG;
    } else {
        printf("result: vg serves all %d algorithms it offers\n", offered);
        status = EXIT_VG_SERVES;
    }
    OPENSSL_free(default_config);
    return status;
}
