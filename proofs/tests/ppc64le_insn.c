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
 *   G IMPL DIR R N SEED        vg_<IMPL>_gcm_<DIR>_stitched_<R>(sched, hkey, counter, acc, in, out, N) on
 *                              bytes from xorshift64 (SEED; gcm_inputs, mirrored by the script); prints
 *                              out, counter and acc
 *   D K KEYLEN AADLEN LEN      dispatch copy K (vg_vdisp_K: power8_gcm.c's gcm_seal_short/_open_short
 *                              text with the kernels renamed to stubs returning their table index) with
 *                              KEYLEN in the schedule, through a pointer; prints the index it reached
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

#define GCM_FNS(impl)                                                                                   \
    void vg_##impl##_gcm_seal_stitched_10(GCM_ARGS); void vg_##impl##_gcm_open_stitched_10(GCM_ARGS);     \
    void vg_##impl##_gcm_seal_stitched_12(GCM_ARGS); void vg_##impl##_gcm_open_stitched_12(GCM_ARGS);     \
    void vg_##impl##_gcm_seal_stitched_14(GCM_ARGS); void vg_##impl##_gcm_open_stitched_14(GCM_ARGS);
#define GCM_ARGS const void *, const void *, uint8_t *, uint8_t *, const uint8_t *, uint8_t *, size_t
GCM_FNS(power8)
GCM_FNS(power9)
static void (*const gcm_fns[2][2][3])(GCM_ARGS) = {
    {{vg_power8_gcm_seal_stitched_10, vg_power8_gcm_seal_stitched_12, vg_power8_gcm_seal_stitched_14},
     {vg_power8_gcm_open_stitched_10, vg_power8_gcm_open_stitched_12, vg_power8_gcm_open_stitched_14}},
    {{vg_power9_gcm_seal_stitched_10, vg_power9_gcm_seal_stitched_12, vg_power9_gcm_seal_stitched_14},
     {vg_power9_gcm_open_stitched_10, vg_power9_gcm_open_stitched_12, vg_power9_gcm_open_stitched_14}}};
/* the stitched loops' inputs: validate_ppc64le.py's gcm_inputs draws the same bytes */
#define GCM_MAXB 40
static _Alignas(16) unsigned char g_sched[256], g_hkey[640], g_ctr[16], g_acc[16], g_in[16 * GCM_MAXB + 16],
    g_out[16 * GCM_MAXB + 16];
static uint64_t g_rs;
static unsigned char g_byte(void)
{
    g_rs ^= g_rs << 13;
    g_rs ^= g_rs >> 7;
    g_rs ^= g_rs << 17;
    return (unsigned char)(g_rs >> 32);
}
static void g_fill(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) p[i] = g_byte();
}
/* the dispatch copies: validate_ppc64le.py writes them into the snippets' file */
typedef long (*disp_fn)(void *, const void *, const void *, const void *, size_t, const void *, void *, size_t,
                        void *);
extern disp_fn const vg_vdisps[];
extern const int vg_ndisps;
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
        long n, nb, aad;
        unsigned long seed;
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
        } else if (line[0] == 'G' && sscanf(line + 1, "%31s %71s %ld %ld %lu", op, h2, &n, &nb, &seed) == 5) {
            int impl = !strcmp(op, "power9"), dir = !strcmp(h2, "open");
            if ((n != 10 && n != 12 && n != 14) || nb < 0 || nb > GCM_MAXB || seed == 0) return 2;
            g_rs = seed;
            size_t ioff = seed % 8, ooff = (seed / 8) % 8;
            g_fill(g_sched, 240);
            g_fill(g_hkey, sizeof g_hkey);
            g_fill(g_ctr, 16);
            if (seed % 3 == 0) memset(g_ctr + 12, 0xff, 3), g_ctr[15] = 0xf8; /* inc32 wraps within the call */
            g_fill(g_acc, 16);
            g_fill(g_in + ioff, 16 * (size_t)nb);
            memset(g_out, 0xa5, sizeof g_out);
            gcm_fns[impl][dir][(n - 10) / 2](g_sched, g_hkey, g_ctr, g_acc, g_in + ioff, g_out + ooff, (size_t)nb);
            hex_out(g_out + ooff, 16 * (size_t)nb);
            printf(" ");
            hex_out(g_ctr, 16);
            printf(" ");
            hex_out(g_acc, 16);
            printf("\n");
        } else if (line[0] == 'D' && sscanf(line + 1, "%ld %ld %ld %lu", &n, &nb, &aad, &seed) == 4) {
            if (n < 0 || n >= vg_ndisps) return 2;
            uint32_t kl = (uint32_t)nb;
            memcpy(sched_buf + 240, &kl, 4);
            long idx = vg_vdisps[n](sched_buf, 0, 0, 0, (size_t)aad, 0, 0, (size_t)seed, 0);
            printf("%ld\n", idx);
        } else {
            return 2;
        }
    }
    return 0;
}
