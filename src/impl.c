/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * impl.c — which implementation runs: the list compiled in, CPU detection, VG_IMPL, vg_impl_select.
 *
 * The selection is one atomic pointer. The first reader that finds it unchosen (its initial value, the
 * placeholder table below) computes the default (VG_IMPL if it names an available implementation, else
 * the best available) and installs it with a compare-and-swap; detection is a pure function of the
 * CPU and the environment, so two threads racing here compute the same answer and either store is
 * right. Availability is probed once per implementation and cached in an atomic int (0 unknown, 1
 * no, 2 yes) for the same reason.
 *
 * VG_IMPL is read with secure_getenv where the C library has it (CMake defines VG_HAVE_SECURE_GETENV):
 * in a set-uid or set-gid program the environment belongs to the caller, who must not steer which
 * code handles the program's keys. An unknown or unavailable name is ignored (the library prints
 * nothing); vg_impl_env_status reports it.
 */
#if defined(VG_HAVE_SECURE_GETENV) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE 1 /* secure_getenv */
#endif
#include <stdatomic.h>
#include <stdlib.h>

#include "internal.h"

/* VG_PORTABLE_ONLY compiles the portable implementation alone (the Frama-C Eva analysis, proofs/eva/,
   which has no model of the vector and crypto instructions the other backends use). */
#if !defined(VG_PORTABLE_ONLY)
#if defined(__x86_64__)
#include "x86_64/x86_64.h"
#endif
#if defined(__aarch64__)
#include "aarch64/aarch64.h"
#endif
#if defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#include "ppc64le/ppc64le.h"
#endif
#endif /* !VG_PORTABLE_ONLY */

/* Best first. Each architecture's backends are added here under their #if. */
const struct vg_impl *const vg_all_impls[] = {
#if !defined(VG_PORTABLE_ONLY)
#if defined(__x86_64__)
    &vg_vaes512_impl,
    &vg_vaes256_impl,
    &vg_aesni_impl,
#endif
#if defined(__aarch64__)
    &vg_armv8_impl,
#endif
#if defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
    &vg_power9_impl,
    &vg_power8_impl,
#endif
#endif /* !VG_PORTABLE_ONLY */
    &vg_portable_impl,
    NULL,
};

#define VG_MAX_IMPLS 8
static atomic_int availability[VG_MAX_IMPLS];
_Static_assert(sizeof(vg_all_impls) / sizeof(vg_all_impls[0]) <= VG_MAX_IMPLS + 1, "raise VG_MAX_IMPLS");

static int impl_available(size_t i)
{
    int a = atomic_load_explicit(&availability[i], memory_order_acquire);
    if (a == 0) {
        a = vg_all_impls[i]->available() ? 2 : 1;
        atomic_store_explicit(&availability[i], a, memory_order_release);
    }
    return a == 2;
}

static const struct vg_impl *find_available(const char *name)
{
    for (size_t i = 0; vg_all_impls[i]; i++) {
        if (!impl_available(i)) continue;
        if (name == NULL || strcmp(name, "auto") == 0 || strcmp(name, vg_all_impls[i]->name) == 0)
            return vg_all_impls[i];
    }
    return NULL;
}

/*
 * The choice before it is made. vg_aes_key_init (internal.h) reads vg_impl_choice inline and runs its
 * aes_expand_key with no test for "not chosen yet", so the initial value is this table, whose
 * schedule makes the choice first. It is reached only that way: with st->sched as sched, and st->impl
 * already set to this table, which it replaces by the choice before the chosen schedule runs. No other
 * slot is ever read: every other reader goes through vg_current_impl, which never returns it.
 */
static int unchosen_expand_key(void *sched, const uint8_t *key, size_t key_len, int want_decrypt)
{
    struct vg_aes_key_state *st =
        (struct vg_aes_key_state *)(void *)((unsigned char *)sched - offsetof(struct vg_aes_key_state, sched));
    const struct vg_impl *impl = vg_current_impl();
    st->impl = impl;
    return VG_ARCH_AES_EXPAND_KEY(impl, sched, key, key_len, want_decrypt);
}
static const struct vg_impl unchosen = {.name = "unchosen", .aes_expand_key = unchosen_expand_key};
_Atomic(const struct vg_impl *) vg_impl_choice = &unchosen;

/* VG_IMPL's value, NULL when unset or empty. */
static const char *impl_env(void)
{
#if defined(VG_HAVE_SECURE_GETENV)
    const char *env = secure_getenv("VG_IMPL");
#else
    const char *env = getenv("VG_IMPL");
#endif
    return env && env[0] ? env : NULL;
}

/* The first call's choice (VG_IMPL, else the best available), published once. Kept out of
   vg_current_impl so that the path every later call takes -- one acquire load and a test -- is a
   leaf without a stack frame: with this inlined, GCC saved two registers and built a frame on every
   call (ppc64le: 17 instructions, now 9). */
static __attribute__((noinline)) const struct vg_impl *choose_impl(void)
{
    const char *env = impl_env();
    const struct vg_impl *chosen = env ? find_available(env) : NULL;
    if (!chosen) chosen = find_available(NULL);
    const struct vg_impl *expected = &unchosen;
    if (!atomic_compare_exchange_strong(&vg_impl_choice, &expected, chosen)) return expected;
    return chosen;
}

const struct vg_impl *vg_current_impl(void)
{
    const struct vg_impl *impl = atomic_load_explicit(&vg_impl_choice, memory_order_acquire);
    if (impl != &unchosen) return impl;
    return choose_impl();
}

const char *vg_impl_name(void) { return vg_current_impl()->name; }

int vg_impl_select(const char *name)
{
    if (!name) return VG_ERR_ARG;
    const struct vg_impl *impl = find_available(name);
    if (!impl) return VG_ERR_UNSUPPORTED;
    atomic_store_explicit(&vg_impl_choice, impl, memory_order_release);
    return VG_OK;
}

int vg_impl_env_status(void)
{
    /* the same test choose_impl makes (a pure function of the environment and the CPU), so the
       answer holds whether or not the first call has happened yet */
    const char *env = impl_env();
    if (!env || find_available(env)) return VG_OK;
    return VG_ERR_UNSUPPORTED;
}

size_t vg_impl_list(const char **names, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; vg_all_impls[i]; i++) {
        if (!impl_available(i)) continue;
        if (names && n < max) names[n] = vg_all_impls[i]->name;
        n++;
    }
    return n;
}
