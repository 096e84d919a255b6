/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * ppc64le_insn.c — runs the real POWER instructions the prover models, under qemu-ppc64le, for
 * validate_ppc64le.py (ctest prove.model_ppc64le). Compiled with clang for powerpc64le (so the LLVM
 * intrinsics are exercised as clang emits them) and linked with the assembly snippets the script
 * generates and with power8_aes.c's key expansion as GCC builds it for the library. Reads lines, one
 * answer each (operands and results in hex, memory order, i.e. LLVM element order on ppc64le):
 *   B                          the addresses of the snippet state's memory, the key, the schedule and BUF
 *   I OP A B C                 the intrinsic OP (clang's builtin) on A, B, C; prints the result
 *   L OP OFF BUF               a load: OP at BUF + OFF (BUF 64 bytes, 16-aligned); prints the register
 *   S OP OFF V                 a store of V at BUF + OFF (BUF 64 bytes of 0xa5 first); prints BUF
 *   A K STATE                  assembly snippet K on the register state STATE; prints the state after
 *   K IMPL LEN KEY             vg_<IMPL>_aes_expand_key(sched, KEY, LEN, 0) through a pointer (so r12
 *                              is its address, as ELFv2 has for indirect calls); prints r3 and the
 *                              256 schedule bytes (0xa5 before)
 */
#include <altivec.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TARGET __attribute__((target("altivec,vsx,power8-vector,crypto")))

typedef __vector unsigned char u8x16;
typedef __vector unsigned long long u64x2;
typedef __vector int i32x4;

/* the snippet state; the offsets are validate_ppc64le.py's */
struct state {
    uint64_t gpr[32]; /* 0 */
    uint64_t cr, xer; /* 256, 264 */
    _Alignas(16) unsigned char vr[10][16]; /* 272 */
    _Alignas(16) unsigned char mem[256];   /* 432 */
};
_Static_assert(offsetof(struct state, cr) == 256, "layout");
_Static_assert(offsetof(struct state, vr) == 272, "layout");
_Static_assert(offsetof(struct state, mem) == 432, "layout");
_Static_assert(sizeof(struct state) == 688, "layout");

extern void (*const vg_snips[])(struct state *);
extern const int vg_nsnips;
int vg_power8_aes_expand_key(void *sched, const uint8_t *key, size_t key_len, int want_decrypt);
int vg_power9_aes_expand_key(void *sched, const uint8_t *key, size_t key_len, int want_decrypt);
int (*volatile vg_expand_p8)(void *, const uint8_t *, size_t, int) = vg_power8_aes_expand_key;
int (*volatile vg_expand_p9)(void *, const uint8_t *, size_t, int) = vg_power9_aes_expand_key;

static struct state st;
static _Alignas(16) unsigned char key_buf[64];
static _Alignas(16) unsigned char sched_buf[256];
static _Alignas(16) unsigned char buf[64];

static int hex_in(const char *s, unsigned char *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1) return -1;
        out[i] = (unsigned char)v;
    }
    return 0;
}

static void hex_out(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
}

TARGET static int intrinsic(const char *op, const unsigned char *a, const unsigned char *b, const unsigned char *c,
                            unsigned char *out)
{
    u64x2 x = (u64x2)vec_xl(0, a), y = (u64x2)vec_xl(0, b);
    u8x16 z = vec_xl(0, c);
    u64x2 r;
    if (!strcmp(op, "vcipher")) r = __builtin_altivec_crypto_vcipher(x, y);
    else if (!strcmp(op, "vcipherlast")) r = __builtin_altivec_crypto_vcipherlast(x, y);
    else if (!strcmp(op, "vncipher")) r = __builtin_altivec_crypto_vncipher(x, y);
    else if (!strcmp(op, "vncipherlast")) r = __builtin_altivec_crypto_vncipherlast(x, y);
    else if (!strcmp(op, "vsbox")) r = __builtin_altivec_crypto_vsbox(x);
    else if (!strcmp(op, "vpmsumd")) r = __builtin_altivec_crypto_vpmsumd(x, y);
    else if (!strcmp(op, "vpermxor")) r = (u64x2)__builtin_altivec_crypto_vpermxor((u8x16)x, (u8x16)y, z);
    else if (!strcmp(op, "vperm")) r = (u64x2)__builtin_altivec_vperm_4si((i32x4)x, (i32x4)y, z);
    else return -1;
    vec_xst((u8x16)r, 0, out);
    return 0;
}

TARGET static int load(const char *op, long off, unsigned char *out)
{
    u8x16 r;
    if (!strcmp(op, "lvx")) r = (u8x16)__builtin_altivec_lvx(off, buf);
    else if (!strcmp(op, "lxvw4x")) r = (u8x16)__builtin_vsx_lxvw4x_be(off, (const int *)buf);
    else if (!strcmp(op, "lxvd2x")) r = (u8x16)__builtin_vsx_lxvd2x_be(off, (const double *)buf);
    else return -1;
    vec_xst(r, 0, out);
    return 0;
}

TARGET static int store(const char *op, long off, const unsigned char *v)
{
    u8x16 x = vec_xl(0, v);
    memset(buf, 0xa5, sizeof buf);
    if (!strcmp(op, "stvx")) __builtin_altivec_stvx((i32x4)x, off, buf);
    else if (!strcmp(op, "stxvw4x")) __builtin_vsx_stxvw4x_be((i32x4)x, off, (int *)buf);
    else if (!strcmp(op, "stxvd2x")) __builtin_vsx_stxvd2x_be((__vector double)x, off, (double *)buf);
    else return -1;
    return 0;
}

int main(void)
{
    static char line[4096];
    char op[32], h1[1500], h2[72], h3[72];
    setvbuf(stdout, NULL, _IOFBF, 1 << 16);
    while (fgets(line, sizeof line, stdin)) {
        unsigned char a[16], b[16], c[16], r[16];
        long n;
        if (line[0] == 'B') {
            printf("%lx %lx %lx %lx\n", (unsigned long)(uintptr_t)st.mem, (unsigned long)(uintptr_t)key_buf,
                   (unsigned long)(uintptr_t)sched_buf, (unsigned long)(uintptr_t)buf);
        } else if (line[0] == 'I' && sscanf(line + 1, "%31s %64s %64s %64s", op, h1, h2, h3) == 4) {
            if (hex_in(h1, a, 16) || hex_in(h2, b, 16) || hex_in(h3, c, 16) || intrinsic(op, a, b, c, r)) return 2;
            hex_out(r, 16);
            printf("\n");
        } else if (line[0] == 'L' && sscanf(line + 1, "%31s %ld %1499s", op, &n, h1) == 3) {
            if (n < 0 || n > 48 || hex_in(h1, buf, 64) || load(op, n, r)) return 2;
            hex_out(r, 16);
            printf("\n");
        } else if (line[0] == 'S' && sscanf(line + 1, "%31s %ld %1499s", op, &n, h1) == 3) {
            if (n < 0 || n > 48 || hex_in(h1, a, 16) || store(op, n, a)) return 2;
            hex_out(buf, 64);
            printf("\n");
        } else if (line[0] == 'A' && sscanf(line + 1, "%ld %1499s", &n, h1) == 2) {
            if (n < 0 || n >= vg_nsnips || hex_in(h1, (unsigned char *)&st, sizeof st)) return 2;
            vg_snips[n](&st);
            hex_out((const unsigned char *)&st, sizeof st);
            printf("\n");
        } else if (line[0] == 'K' && sscanf(line + 1, "%31s %ld %64s", op, &n, h1) == 3) {
            if ((n != 16 && n != 24 && n != 32) || hex_in(h1, key_buf, (size_t)n)) return 2;
            memset(sched_buf, 0xa5, sizeof sched_buf);
            int ret = (!strcmp(op, "power9") ? vg_expand_p9 : vg_expand_p8)(sched_buf, key_buf, (size_t)n, 0);
            printf("%d ", ret);
            hex_out(sched_buf, sizeof sched_buf);
            printf("\n");
        } else {
            return 2;
        }
    }
    return 0;
}
