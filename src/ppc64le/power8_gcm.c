/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * power8_gcm.c — the GCM kernels: CTR (inc32) and GHASH in one pass over the data, and the short
 * one-shot kernels.
 *
 * CPU features: ISA 2.07 vector crypto (VG_POWER8_TARGET).
 *
 * Every key size: one stitched loop in assembly (below), 16 blocks per iteration, every register
 * allocated by hand, one copy per key size from the same macros: 344 instructions per 16 blocks for
 * AES-128, 380 for AES-192, 416 for AES-256 (docs/ppc64le.md). AES-128's 11 round keys stay in
 * registers; AES-192/256's 13 or 15 do not fit beside the rest, so their middle round keys 10..13 are
 * loaded once per 8 blocks into registers that are free while the AES runs (one lvx per extra round
 * per 8 blocks: 4 or 8 instructions per 16 blocks, against 32 or 64 for the extra vcipher).
 * Until 2026-12-04 AES-192/256 took a chunked composition (the 8-block CTR loop, then the 8-block
 * GHASH loop over each 4 KiB while it was in L1): 33.1 and 35.2 instructions per block for a 16 KiB
 * seal with a 13-byte AAD against 24.7 and 27.0 stitched (qemu -cpu power8).
 *
 * Why assembly: written with <altivec.h> built-ins, GCC 12 could not keep a stitched loop in the 32
 * vector registers (11 round keys + 8 blocks + accumulator, 3 partial sums, counter, masks, and the
 * H powers): it spilled round keys and H powers to the stack inside the loop. Measured with
 * tools/qemu-insn-count (AES-128, 16 KiB seal, per block, 2026-12-02): stitched round by round 49.4,
 * 8-block phases in one loop 41.8, the chunked composition 31-32; the assembly loop is 21.7.
 */
#include "power8.h"

/* The key size picks the stitched loop (the key length is public). */
VG_POWER8_TARGET
size_t P8_FN(gcm_seal_blocks)(const void *sched, const void *hkey, uint8_t counter[16], uint8_t acc[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks)
{
    uint32_t key_len = ((const struct power8_sched *)sched)->key_len;
    if (key_len == 16)
        P8_FN(gcm_seal_stitched_10)(sched, hkey, counter, acc, in, out, nblocks);
    else if (key_len == 24)
        P8_FN(gcm_seal_stitched_12)(sched, hkey, counter, acc, in, out, nblocks);
    else
        P8_FN(gcm_seal_stitched_14)(sched, hkey, counter, acc, in, out, nblocks);
    return nblocks;
}

VG_POWER8_TARGET
size_t P8_FN(gcm_open_blocks)(const void *sched, const void *hkey, uint8_t counter[16], uint8_t acc[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks)
{
    uint32_t key_len = ((const struct power8_sched *)sched)->key_len;
    if (key_len == 16)
        P8_FN(gcm_open_stitched_10)(sched, hkey, counter, acc, in, out, nblocks);
    else if (key_len == 24)
        P8_FN(gcm_open_stitched_12)(sched, hkey, counter, acc, in, out, nblocks);
    else
        P8_FN(gcm_open_stitched_14)(sched, hkey, counter, acc, in, out, nblocks);
    return nblocks;
}

/* ---------------------------------------------------------------------------------------------- */
/* The stitched loop: CTR and GHASH of 16 blocks per iteration, every register by hand              */
/*
 * P8_FN(gcm_seal_stitched_R) / P8_FN(gcm_open_stitched_R)(sched = r3, hkey = r4, counter = r5,
 * acc = r6, in = r7, out = r8, nblocks = r9), R = 10, 12, 14 the AES rounds: one copy per key size,
 * made by P8G_FUNC from the same macros, whose assembler parameter `rounds` adds AES-192/256's middle
 * rounds (.if, so AES-128's two functions are the code they were before AES-192/256 joined). counter
 * and acc in, updated, out.
 *
 * Why assembly: the count (issue 5: <= 26 instructions per block) needs all 11 round keys in
 * registers for the whole loop, and GCC spilled them (see the top of this file).
 *
 * AES-192/256. The 32 vector registers are all taken (below), so 13 or 15 round keys cannot all stay.
 * Round keys 0..9 and the last (12 or 14) stay in v21..v31, where AES-128 keeps 0..10; the middle
 * ones, 10, 11 (AES-256 also 12, 13), are loaded from the schedule in each 8-block AES step into
 * v15..v17, temporaries of the data and GHASH steps that are free from the start of the AES step to
 * its end (AES-256's round key 13 reuses v15 once round 10 is done with it): per 16 blocks 4 or 8 lvx
 * beside the 32 or 64 extra vcipher. (v13, v14 are free only in a group's first AES step, the sums
 * live through the second; on power9 v1 and v18, power8's vperm masks, are free and could hold two
 * of them for good, 0.25 instructions per block, not taken so that both CPUs run one register plan.)
 * The loads need the schedule's address: r3 has become an offset, so r21 (callee-saved, kept in the
 * protected zone's last free doubleword, nothing else moved) holds sched, and the offsets already
 * in r15..r18 (160..208) reach round keys 10..13. The single-block tail loads the four (two) once
 * into v5..v7 and v17, free there. Extra per call: 3 instructions (std, addi, ld of r21), and 2 or 4
 * lvx when single blocks remain.
 *
 * GHASH, two blocks per step. Blocks 2q and 2q+1 of the group (X_a, X_b as POLYVAL operands,
 * X = X1 x^64 + X0) take a = H_(16-2q) and b = H_(15-2q). With U = (Xa1, Xb1), L = (Xa0, Xb0) and the
 * paired powers A = (a0, b0), B = (a1, b1) (struct power8_hkey's pair[q]; the products as in section 3
 * of power8_ghash.c, vpmsumd XORing its two doubleword products):
 *   vpmsumd(L, A) = Xa0 a0 ^ Xb0 b0                                          both x^0 terms
 *   vpmsumd(U, B) = Xa1 a1 ^ Xb1 b1                                          both x^128 terms
 *   vpmsumd(U, A) ^ vpmsumd(L, B) = (Xa1 a0 ^ Xa0 a1) ^ (Xb1 b0 ^ Xb0 b1)    both x^64 terms
 * Two vpmsumd per block as with the per-block (0, h0), (h0, h1), (h1, 0) form, but two H loads per
 * pair instead of six and four products to accumulate instead of six. The 16 blocks share one
 * reduction; the group's first block carries the accumulator (acc ^ X_1 times H_16).
 *
 * Byte orders. power8 moves blocks raw (lxvw4x: AES order with each word's bytes reversed, j -> j^3;
 * power8.h) and needs U and L in AES order. vpermxor t,a,b,m computes t[j] = a[m[j] >> 4] ^
 * b[m[j] & 15], so with m = (j, j^3) one instruction turns the keystream K (AES order) raw and XORs
 * it with the raw input: seal C raw = vpermxor(P, K), open P raw = vpermxor(C, K). U and L are then one
 * vperm each from the two raw ciphertext blocks of a pair (they pick AES-order doublewords out of both
 * registers): per block lxvw4x, vpermxor, stxvw4x and one vperm, where CTR alone takes four and a
 * separate GHASH pass another two for its vperm and xxpermdi. The accumulator (AES order) joins the raw
 * first ciphertext block by the same vpermxor mask: vpermxor(C, acc, (j, j^3)) = C ^ raw(acc).
 * power9 (lxvb16x/stxvb16x, AES order): vxor instead of vpermxor, xxpermdi instead of vperm.
 *
 * Registers: v0 the vpermxor mask (j, j^3); v1, v18 the vperm masks making L and U; v2 the counter (AES
 * order); v3 (0, 0, 0, 1); v4..v11 the 8 blocks (keystream, then U, L of each pair); v12, v13, v14 the
 * x^0, x^64, x^128 sums, v12 also the reduced accumulator between groups; v15..v17 temporaries; v19
 * (0, c) of the reduction; v20 the first pair's A = (H_16 low, H_15 low), loaded once per call (at
 * the start and the end it briefly holds the vperm (j^3, j^3) for the counter's and the
 * accumulator's byte order); v21..v31 round keys 0..9 and the last (10, 12 or 14); AES-192/256: r21
 * sched, the middle round keys passing through v15..v17 (above). v20..v31 and r14..r21 are
 * callee-saved in the ELFv2 ABI: they, r5, r6 and the tail's count are kept in the 288-byte protected
 * zone below r1 (272 bytes, 280 with r21). r7/r8 in/out, advanced once
 * per 16 blocks; r4 the pair table (hkey + 384); offsets 16..240 in r11, r12, r0, r9, r5, r6, r10, r3,
 * r14..r20 (r0 only as RB: as RA it reads as zero), for the data and the pair table alike.
 * The last r = nblocks mod 16 blocks: 8 of them as a group of their own (the pairs of H_8..H_1), the
 * rest one block at a time with the per-block (0, h0), (h0, h1), (h1, 0) forms of H_(r-j).
 * A leaf: no frame, no call, branches only on nblocks (public); addresses depend on the pointers and
 * nblocks only.
 *
 * Per 16 blocks (power8; power9 the same count): AES 16 x (10 vcipher(last) + round-key-0 vxor +
 * vadduwm) = 192; data 16 x (lxvw4x, vpermxor, stxvw4x) + 16 vperm (U, L) = 64; GHASH 8 pairs x
 * (2 lvx, 4 vpmsumd, 4 vxor) - 3 (the first pair starts the sums) - 1 (its A is resident) = 76, + 1
 * vpermxor for the accumulator; the reduction 8; the loop 3 (two addi, bdnz): 344, 21.5 per block,
 * plus about 110 per call. AES-192: + 32 vcipher + 4 lvx = 380, 23.75 per block; AES-256: + 64
 * vcipher + 8 lvx = 416, 26.0 per block; each plus about 113 per call (power9 102; measured with
 * count-insns -f over 1024 blocks: 24433 and 26737 on power8).
 */
#define P8G_STR2(x) #x
#define P8G_STR(x) P8G_STR2(x)
/* X-form operands (RA, RB) of in/out + off; off = z: offset 0, RA = 0 */
#define P8G_ADDR_MACROS                                                                             \
    ".macro P8G_X op, v, base, off\n\t"                                                              \
    ".ifc \\off,z\n\t\\op \\v,0,\\base\n\t.else\n\t\\op \\v,\\base,\\off\n\t.endif\n\t"              \
    ".endm\n\t"
#if defined(P8_POWER9)
#define P8G_MACHINE "power9"
#define P8G_LOADBLK(v, r) "lxvb16x 32+" v ",0," r "\n\t"
#define P8G_STOREBLK(v, r) "stxvb16x 32+" v ",0," r "\n\t"
#define P8G_CONSTS ""
#define P8G_TOAES ""
#define P8G_FROMAES ""
/* blocks a, b: K in v\a, v\b -> U in v\a, L in v\b, the data moved (AES order throughout) */
#define P8G_DATA_PAIR                                                                               \
    ".macro P8G_DATA a, b, offa, offb, first, dir\n\t"                                               \
    ".ifc \\dir,seal\n\t"                                                                            \
    "P8G_X lxvb16x,47,7,\\offa\n\tvxor 16,\\a,15\n\tP8G_X stxvb16x,48,8,\\offa\n\t"                 \
    "P8G_X lxvb16x,47,7,\\offb\n\tvxor \\b,\\b,15\n\tP8G_X stxvb16x,32+\\b,8,\\offb\n\t"            \
    ".if \\first\n\tvxor 16,16,12\n\t.endif\n\t" /* acc into the hashed copy of block 0 */           \
    "xxpermdi 32+\\a,48,32+\\b,0\n\t"   /* U = (Xa1, Xb1) */                                        \
    "xxpermdi 32+\\b,48,32+\\b,3\n\t"   /* L = (Xa0, Xb0) */                                        \
    ".else\n\t"                                                                                      \
    "P8G_X lxvb16x,47,7,\\offa\n\tP8G_X lxvb16x,48,7,\\offb\n\t"                                    \
    "vxor 17,15,\\a\n\tP8G_X stxvb16x,49,8,\\offa\n\t"                                               \
    "vxor 17,16,\\b\n\tP8G_X stxvb16x,49,8,\\offb\n\t"                                               \
    ".if \\first\n\tvxor 15,15,12\n\t.endif\n\t"                                                     \
    "xxpermdi 32+\\a,47,48,0\n\t"                                                                    \
    "xxpermdi 32+\\b,47,48,3\n\t"                                                                    \
    ".endif\n\t"                                                                                     \
    ".endm\n\t"
#define P8G_ACC_OUT "vxor 12,14,15\n\t"
/* one block: K in v4 -> the data moved, X (AES order, ^ acc, which is then cleared) in v16 */
#define P8G_TAIL_DATA                                                                               \
    ".macro P8G_TAILDATA dir\n\t"                                                                    \
    "lxvb16x 47,0,7\n\tvxor 16,4,15\n\tstxvb16x 48,0,8\n\t"                                        \
    ".ifc \\dir,seal\n\tvxor 16,16,12\n\t.else\n\tvxor 16,15,12\n\t.endif\n\t"                       \
    "vxor 12,12,12\n\t"                                                                              \
    ".endm\n\t"
#else
#define P8G_MACHINE "power8"
#define P8G_LOADBLK(v, r) "lxvw4x 32+" v ",0," r "\n\t"
#define P8G_STOREBLK(v, r) "stxvw4x 32+" v ",0," r "\n\t"
#define P8G_CONSTS                                                                                  \
    "lvx 0,0,3\n\t"   /* (j, j^3) */                                                                 \
    "lvx 1,3,11\n\t"  /* L */                                                                        \
    "lvx 18,3,12\n\t" /* U */                                                                        \
    "lvx 20,3,5\n\t"  /* (j^3, j^3) */
/* the counter and the accumulator to AES order and back: vperm uses the low 5 bits of each byte of
   (j^3, j^3), and with both operands the same register that is j^3; at the end v20 (by then an H
   vector) is loaded again (r5 = 80 still) */
#define P8G_TOAES "vperm 2,2,2,20\n\tvperm 12,12,12,20\n\t"
#define P8G_FROMAES                                                                                 \
    "addis 3,2,.Lp8g_table@toc@ha\n\taddi 3,3,.Lp8g_table@toc@l\n\tlvx 20,3,5\n\t"                  \
    "vperm 2,2,2,20\n\tvperm 12,12,12,20\n\t"
/* raw: blocks a, b: K in v\a, v\b -> U in v\a, L in v\b (AES order), the data moved raw */
#define P8G_DATA_PAIR                                                                               \
    ".macro P8G_DATA a, b, offa, offb, first, dir\n\t"                                               \
    ".ifc \\dir,seal\n\t"                                                                            \
    "P8G_X lxvw4x,47,7,\\offa\n\tvpermxor 16,15,\\a,0\n\tP8G_X stxvw4x,48,8,\\offa\n\t"             \
    "P8G_X lxvw4x,47,7,\\offb\n\tvpermxor \\b,15,\\b,0\n\tP8G_X stxvw4x,32+\\b,8,\\offb\n\t"        \
    ".if \\first\n\tvpermxor 16,16,12,0\n\t.endif\n\t" /* acc (AES order) into the raw hashed copy */ \
    "vperm \\a,16,\\b,18\n\t"           /* U = (Xa1, Xb1), AES order */                             \
    "vperm \\b,16,\\b,1\n\t"            /* L = (Xa0, Xb0) */                                        \
    ".else\n\t"                                                                                      \
    "P8G_X lxvw4x,47,7,\\offa\n\tP8G_X lxvw4x,48,7,\\offb\n\t"                                      \
    "vpermxor 17,15,\\a,0\n\tP8G_X stxvw4x,49,8,\\offa\n\t"                                          \
    "vpermxor 17,16,\\b,0\n\tP8G_X stxvw4x,49,8,\\offb\n\t"                                          \
    ".if \\first\n\tvpermxor 15,15,12,0\n\t.endif\n\t"                                              \
    "vperm \\a,15,16,18\n\t"                                                                         \
    "vperm \\b,15,16,1\n\t"                                                                          \
    ".endif\n\t"                                                                                     \
    ".endm\n\t"
#define P8G_ACC_OUT "vxor 12,14,15\n\t"
/* one block: K in v4 -> the data moved raw, X (AES order, ^ acc, which is then cleared) in v16:
   vpermxor(acc, C raw, (j, j^3)) is acc ^ C in AES order in one instruction */
#define P8G_TAIL_DATA                                                                               \
    ".macro P8G_TAILDATA dir\n\t"                                                                    \
    "lxvw4x 47,0,7\n\tvpermxor 16,15,4,0\n\tstxvw4x 48,0,8\n\t"                                    \
    ".ifc \\dir,seal\n\tvpermxor 16,12,16,0\n\t.else\n\tvpermxor 16,12,15,0\n\t.endif\n\t"           \
    "vxor 12,12,12\n\t"                                                                              \
    ".endm\n\t"
#endif

#define P8G_FUNC(name, dir, rounds)                                                                 \
    P8_ASM_ENTRY(name)                                                                               \
    "rldicl 10,9,0,60\n\t"   /* r = nblocks mod 16, for the tail */                                 \
    "std 10,-216(1)\n\t"                                                                             \
    "srdi. 9,9,4\n\t"        /* n16, cr0.eq: no whole group */                                      \
    "mtctr 9\n\t"                                                                                    \
    P8G_LOADBLK("2", "5") /* the counter */                                                          \
    P8G_LOADBLK("12", "6") /* the accumulator (power8: raw until P8G_TOAES) */                       \
    "std 5,-200(1)\n\t"                                                                              \
    "std 6,-208(1)\n\t"                                                                             \
    "std 14,-224(1)\n\tstd 15,-232(1)\n\tstd 16,-240(1)\n\tstd 17,-248(1)\n\t"                      \
    "std 18,-256(1)\n\tstd 19,-264(1)\n\tstd 20,-272(1)\n\t"                                        \
    "addi 10,1,-192\n\t"                                                                             \
    "li 11,16\n\tli 12,32\n\tli 0,48\n\tli 9,64\n\tli 5,80\n\tli 6,96\n\t"                          \
    "stvx 20,0,10\n\tstvx 21,10,11\n\tstvx 22,10,12\n\tstvx 23,10,0\n\t"                            \
    "stvx 24,10,9\n\tstvx 25,10,5\n\tstvx 26,10,6\n\t"                                               \
    "addi 10,10,112\n\t"                                                                             \
    "stvx 27,0,10\n\tstvx 28,10,11\n\tstvx 29,10,12\n\tstvx 30,10,0\n\tstvx 31,10,9\n\t"            \
    "li 10,112\n\t"                                                                                  \
    "lvx 21,0,3\n\tlvx 22,3,11\n\tlvx 23,3,12\n\tlvx 24,3,0\n\t" /* round keys 0..10 */             \
    "lvx 25,3,9\n\tlvx 26,3,5\n\tlvx 27,3,6\n\tlvx 28,3,10\n\t"                                     \
    "addi 3,3,128\n\t"                                                                               \
    "lvx 29,0,3\n\tlvx 30,3,11\n\t"                                                                   \
    "P8G_LASTKEY " rounds "\n\t" /* v31 = round key 10, 12 or 14; r21 = sched (AES-192/256) */        \
    "addis 3,2,.Lp8g_table@toc@ha\n\t"                                                               \
    "addi 3,3,.Lp8g_table@toc@l\n\t"                                                                 \
    P8G_CONSTS                                                                                       \
    "lvx 3,3,0\n\t"   /* (0, 0, 0, 1) */                                                             \
    "lvx 19,3,9\n\t"  /* (0, c) */                                                                   \
    P8G_TOAES                                                                                        \
    "li 3,128\n\tli 14,144\n\tli 15,160\n\tli 16,176\n\t" /* offsets 128..240 */                    \
    "li 17,192\n\tli 18,208\n\tli 19,224\n\tli 20,240\n\t"                                          \
    "addi 4,4,384\n\t"                                                                               \
    "lvx 20,0,4\n\t" /* the first pair's A (H_16, H_15), for the whole call */                     \
    "beq 2f\n"                                                                                       \
    "1:\n\t"                                                                                         \
    "P8G_HALF " dir ",0,0,1," rounds "\n\t"                                                         \
    "P8G_HALF " dir ",1,1,0," rounds "\n\t"                                                         \
    "addi 7,7,256\n\taddi 8,8,256\n\t"                                                              \
    "P8G_REDUCE 12\n\t"                                                                             \
    "bdnz 1b\n"                                                                                      \
    /* the last r < 16 blocks: 8 as a group of their own (H_8..H_1, the second half's pairs), then  \
       the last r mod 8 one at a time, block j times H_(r-j) in the per-block form (H_1..H_8 only) */  \
    "2:\tld 9,-216(1)\n\t"                                                                          \
    "cmpldi 9,8\n\t"                                                                                 \
    "blt 5f\n\t"                                                                                     \
    "li 9,64\n\t"                                                                                    \
    "P8G_HALF " dir ",0,1,1," rounds "\n\t"                                                         \
    "addi 7,7,128\n\taddi 8,8,128\n\t"                                                              \
    "P8G_REDUCE 12\n\t"                                                                                 \
    "ld 9,-216(1)\n\t"                                                                               \
    "addi 9,9,-8\n"                                                                                  \
    "5:\tcmpldi 9,0\n\t"                                                                            \
    "beq 4f\n\t"                                                                                     \
    "mtctr 9\n\t"                                                                                    \
    "sldi 9,9,4\n\t"                                                                                 \
    "addi 9,9,-16\n\t"      /* 16 (r - 1): H_r */                                                  \
    "addi 10,4,-384\n\t"    /* the lo, mid, hi rows */                                             \
    "addi 11,4,-256\n\t"                                                                            \
    "addi 12,4,-128\n\t"                                                                            \
    "vxor 8,8,8\n\tvxor 13,13,13\n\tvxor 14,14,14\n\t"                                             \
    "P8G_TAILKEYS " rounds "\n"                                                                     \
    "3:\n\t"                                                                                         \
    "P8G_TAIL " dir "," rounds "\n\t"                                                              \
    "bdnz 3b\n\t"                                                                                    \
    "P8G_REDUCE 8\n"                                                                                   \
    "4:\n\t"                                                                                         \
    P8G_FROMAES                                                                                      \
    "ld 5,-200(1)\n\t"                                                                               \
    "ld 6,-208(1)\n\t"                                                                              \
    "ld 14,-224(1)\n\tld 15,-232(1)\n\tld 16,-240(1)\n\tld 17,-248(1)\n\t"                          \
    "ld 18,-256(1)\n\tld 19,-264(1)\n\tld 20,-272(1)\n\t"                                           \
    ".if " rounds " > 10\n\tld 21,-280(1)\n\t.endif\n\t"                                               \
    P8G_STOREBLK("2", "5")                                                                           \
    P8G_STOREBLK("12", "6")                                                                          \
    "addi 10,1,-192\n\t"                                                                             \
    "li 11,16\n\tli 12,32\n\tli 9,64\n\tli 5,80\n\tli 6,96\n\t" /* (the tail took r9, r11, r12) */    \
    "lvx 20,0,10\n\tlvx 21,10,11\n\tlvx 22,10,12\n\tlvx 23,10,0\n\t"                                \
    "lvx 24,10,9\n\tlvx 25,10,5\n\tlvx 26,10,6\n\t"                                                  \
    "addi 10,10,112\n\t"                                                                             \
    "lvx 27,0,10\n\tlvx 28,10,11\n\tlvx 29,10,12\n\tlvx 30,10,0\n\tlvx 31,10,9\n\t"                 \
    "blr\n\t"                                                                                        \
    ".size " name ",.-" name "\n\t"

__asm__(".text\n\t"
        ".machine push\n\t"
        ".machine " P8G_MACHINE "\n\t"
        P8G_ADDR_MACROS
        P8G_DATA_PAIR
        /* v31 = the last round key (sched + 16 rounds = r3 + 128 + 32, 64 or 96); AES-192/256 keep
           sched in r21 (saved in the protected zone) for the middle round keys 10..13 */
        ".macro P8G_LASTKEY rounds\n\t"
        ".if \\rounds == 10\n\tlvx 31,3,12\n\t"
        ".else\n\t"
        "std 21,-280(1)\n\taddi 21,3,-128\n\t"
        ".if \\rounds == 12\n\tlvx 31,3,9\n\t.else\n\tlvx 31,3,6\n\t.endif\n\t"
        ".endif\n\t"
        ".endm\n\t"
        /* 8 blocks, one round with the key in v\k */
        ".macro P8G_ROUND8 k\n\t"
        ".irp b,4,5,6,7,8,9,10,11\n\tvcipher \\b,\\b,\\k\n\t.endr\n\t"
        ".endm\n\t"
        /* 8 counter blocks from v2 (vadduwm is inc32: power8.h), ^ round key 0, the rounds. Rounds
           1..9 take v22..v30 and the last v31; AES-192/256's rounds 10, 11 (, 12, 13) load their keys
           from sched (r21) + 160, 176 (, 192, 208) (offsets r15..r18) into v15..v17, which are free
           until the data step: one lvx per extra round per 8 blocks (k13 reuses v15 once round 10
           is done with it) */
        ".macro P8G_AES8 rounds\n\t"
        ".irp b,4,5,6,7,8,9,10,11\n\tvxor \\b,2,21\n\tvadduwm 2,2,3\n\t.endr\n\t"
        ".if \\rounds > 10\n\tlvx 15,21,15\n\tlvx 16,21,16\n\t.endif\n\t"
        ".if \\rounds > 12\n\tlvx 17,21,17\n\t.endif\n\t"
        ".irp k,22,23,24,25,26,27,28,29,30\n\tP8G_ROUND8 \\k\n\t.endr\n\t"
        ".if \\rounds > 10\n\t"
        "P8G_ROUND8 15\n\t"
        ".if \\rounds > 12\n\tlvx 15,21,18\n\t.endif\n\t"
        "P8G_ROUND8 16\n\t"
        ".endif\n\t"
        ".if \\rounds > 12\n\tP8G_ROUND8 17\n\tP8G_ROUND8 15\n\t.endif\n\t"
        ".irp b,4,5,6,7,8,9,10,11\n\tvcipherlast \\b,\\b,31\n\t.endr\n\t"
        ".endm\n\t"
        /* U in v\a, L in v\b times the pair at base + lo, base + hi, into the sums v12..v14; first:
           the sums start here */
        ".macro P8G_PAIR a, b, base, lo, hi, first\n\t"
        ".ifc \\lo,res\n\t"                      /* A resident in v20 (first pairs only) */
        "P8G_X lvx,16,\\base,\\hi\n\t"
        "vpmsumd 12,\\b,20\n\tvpmsumd 13,\\b,16\n\tvpmsumd 17,\\a,20\n\tvpmsumd 14,\\a,16\n\t"
        "vxor 13,13,17\n\t"
        ".else\n\t"
        "P8G_X lvx,15,\\base,\\lo\n\t"           /* A = (a0, b0) */
        "P8G_X lvx,16,\\base,\\hi\n\t"           /* B = (a1, b1) */
        ".if \\first\n\t"
        "vpmsumd 12,\\b,15\n\t"                  /* x^0:  Xa0 a0 ^ Xb0 b0 */
        "vpmsumd 13,\\b,16\n\t"                  /* x^64: Xa0 a1 ^ Xb0 b1 */
        "vpmsumd 17,\\a,15\n\t"                  /* x^64: Xa1 a0 ^ Xb1 b0 */
        "vpmsumd 14,\\a,16\n\t"                  /* x^128: Xa1 a1 ^ Xb1 b1 */
        "vxor 13,13,17\n\t"
        ".else\n\t"
        "vpmsumd 17,\\b,15\n\t"
        "vpmsumd 15,\\a,15\n\t"
        "vpmsumd \\b,\\b,16\n\t"
        "vpmsumd \\a,\\a,16\n\t"
        "vxor 12,12,17\n\t"
        "vxor 13,13,15\n\t"
        "vxor 13,13,\\b\n\t"
        "vxor 14,14,\\a\n\t"
        ".endif\n\t"
        ".endif\n\t"
        ".endm\n\t"
        /* 8 blocks: AES, data in and out at in/out + 0..112 (dset 0) or + 128..240 (dset 1), GHASH
           against the pairs of H_16..H_9 (hset 0) or H_8..H_1 (hset 1); first: a group's first 8
           blocks (the accumulator joins the first block, the sums start) */
        ".macro P8G_HALF dir, dset, hset, first, rounds\n\t"
        "P8G_AES8 \\rounds\n\t"
        ".if \\dset\n\t"
        "P8G_DATA 4,5,3,14,\\first,\\dir\n\tP8G_DATA 6,7,15,16,0,\\dir\n\t"
        "P8G_DATA 8,9,17,18,0,\\dir\n\tP8G_DATA 10,11,19,20,0,\\dir\n\t"
        ".else\n\t"
        "P8G_DATA 4,5,z,11,\\first,\\dir\n\tP8G_DATA 6,7,12,0,0,\\dir\n\t"
        "P8G_DATA 8,9,9,5,0,\\dir\n\tP8G_DATA 10,11,6,10,0,\\dir\n\t"
        ".endif\n\t"
        ".if \\hset\n\t"
        "P8G_PAIR 4,5,4,3,14,\\first\n\tP8G_PAIR 6,7,4,15,16,0\n\t"
        "P8G_PAIR 8,9,4,17,18,0\n\tP8G_PAIR 10,11,4,19,20,0\n\t"
        ".else\n\t"
        "P8G_PAIR 4,5,4,res,11,1\n\tP8G_PAIR 6,7,4,12,0,0\n\t" /* (hset 0 is always first) */
        "P8G_PAIR 8,9,4,9,5,0\n\tP8G_PAIR 10,11,4,6,10,0\n\t"
        ".endif\n\t"
        ".endm\n\t"
        /* v12 = (v14 x^128 + v13 x^64 + v12) x^-128 mod P: p8_gf_reduce in power8.h, instruction for
           instruction, zero made in v4 (free here) */
        ".macro P8G_REDUCE lo\n\t"
        "vpmsumd 15,\\lo,19\n\t"                /* l0 c */
        "vsldoi 16,\\lo,\\lo,8\n\t"             /* l1 + l0 x^64 */
        "vxor 13,13,15\n\t"
        "vxor 13,13,16\n\t"                      /* S = mid + lo x^-64 */
        "vpmsumd 15,13,19\n\t"                   /* s0 c */
        "vsldoi 16,13,13,8\n\t"                  /* s1 + s0 x^64 */
        "vxor 14,14,16\n\t"
        P8G_ACC_OUT                              /* hi + S x^-64 */
        ".endm\n\t"
        P8G_TAIL_DATA
        /* the tail's middle round keys 10..13 of AES-192/256, loaded once into v5..v7, v17 (free
           in the tail: it uses v4 and v8..v16 only) */
        ".macro P8G_TAILKEYS rounds\n\t"
        ".if \\rounds > 10\n\tlvx 5,21,15\n\tlvx 6,21,16\n\t.endif\n\t"
        ".if \\rounds > 12\n\tlvx 7,21,17\n\tlvx 17,21,18\n\t.endif\n\t"
        ".endm\n\t"
        /* one block of the tail: AES, data, s += X H_k (r9 = 16 (k - 1) into the lo/mid/hi rows at
           r10/r11/r12: power8.h's p8_gf_mul_add), then H_(k-1) */
        ".macro P8G_TAIL dir, rounds\n\t"
        "vxor 4,2,21\n\tvadduwm 2,2,3\n\t"
        ".irp k,22,23,24,25,26,27,28,29,30\n\tvcipher 4,4,\\k\n\t.endr\n\t"
        ".if \\rounds > 10\n\tvcipher 4,4,5\n\tvcipher 4,4,6\n\t.endif\n\t"
        ".if \\rounds > 12\n\tvcipher 4,4,7\n\tvcipher 4,4,17\n\t.endif\n\t"
        "vcipherlast 4,4,31\n\t"
        "P8G_TAILDATA \\dir\n\t"
        "lvx 9,9,10\n\tlvx 10,9,11\n\tlvx 11,9,12\n\t"
        "vpmsumd 15,16,9\n\tvxor 8,8,15\n\t"    /* x0 h0 */
        "vpmsumd 15,16,10\n\tvxor 13,13,15\n\t" /* x1 h0 ^ x0 h1 */
        "vpmsumd 15,16,11\n\tvxor 14,14,15\n\t" /* x1 h1 */
        "addi 7,7,16\n\taddi 8,8,16\n\taddi 9,9,-16\n\t"
        ".endm\n\t"
        P8G_FUNC(P8G_STR(P8_FN(gcm_seal_stitched_10)), "seal", "10")
        P8G_FUNC(P8G_STR(P8_FN(gcm_open_stitched_10)), "open", "10")
        P8G_FUNC(P8G_STR(P8_FN(gcm_seal_stitched_12)), "seal", "12")
        P8G_FUNC(P8G_STR(P8_FN(gcm_open_stitched_12)), "open", "12")
        P8G_FUNC(P8G_STR(P8_FN(gcm_seal_stitched_14)), "seal", "14")
        P8G_FUNC(P8G_STR(P8_FN(gcm_open_stitched_14)), "open", "14")
        ".purgem P8G_X\n\t.purgem P8G_DATA\n\t.purgem P8G_LASTKEY\n\t.purgem P8G_ROUND8\n\t"
        ".purgem P8G_AES8\n\t.purgem P8G_PAIR\n\t.purgem P8G_HALF\n\t.purgem P8G_REDUCE\n\t"
        ".purgem P8G_TAILDATA\n\t.purgem P8G_TAILKEYS\n\t.purgem P8G_TAIL\n\t"
        /* register images for lvx (memory byte 15 - j is register byte j, so rows run backwards) */
        ".pushsection .rodata\n\t"
        ".p2align 4\n"
        ".Lp8g_table:\n\t"
        ".byte 252,237,222,207,184,169,154,139,116,101,86,71,48,33,18,3\n\t"    /* +0  (j, j^3) */
        ".byte 28,29,30,31,24,25,26,27,12,13,14,15,8,9,10,11\n\t"               /* +16 L from 2 raw */
        ".byte 20,21,22,23,16,17,18,19,4,5,6,7,0,1,2,3\n\t"                     /* +32 U from 2 raw */
        ".long 1,0,0,0\n\t"                                                     /* +48 (0, 0, 0, 1) */
        ".quad 0xc200000000000000,0\n\t"                                        /* +64 (0, c) */
        ".byte 204,221,238,255,136,153,170,187,68,85,102,119,0,17,34,51\n\t"    /* +80 (j^3, j^3) */
        ".popsection\n\t"
        ".machine pop\n");

/* ---------------------------------------------------------------------------------------------- */
/* Short one-shot messages: the whole of SP 800-38D §7.1/§7.2 in one call                          */
/*
 * For a 12-byte nonce, len <= POWER8_GCM_SHORT_MAX and aad_len <= POWER8_GCM_SHORT_MAX_AAD (the mode
 * checks both; they are public). The general path (stream state, staging buffer, a ctr32 call and one
 * or two ghash_update calls, each loading the round keys or setting up its loop) costs several times
 * the AES and GHASH of a 64-byte message. Here:
 *   AES:   the t = nd + 1 blocks inc32^1(J0) .. inc32^nd(J0) (the nd = ceil(len / 16) data blocks)
 *          and J0 itself, round keys loaded once, in groups of 8, 4, 2, 1 by the bits of t (t <= 15:
 *          one group of each size at most, so at most four serial chains). J0 is the last lane of the
 *          last group, so only that group differs from the others.
 *   GHASH: S = GHASH(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64) over m = ceil(aad_len / 16)
 *          + nd + 1 blocks, aggregated as in power8_ghash.c section 3: cut into groups of 8 from the
 *          END (the first group has ((m - 1) mod 8) + 1 blocks), block j of a group of g taking H_(g-j),
 *          products summed unreduced and each group reduced once. Between groups the reduced
 *          accumulator joins the next group's first block, whose power is H_8: acc * H_8 starts the
 *          next sum (only when m > 8). A 64-byte message with up to 3 blocks of AAD is ONE reduction.
 *   Tag:   E(J0) ^ S, all 16 bytes (the mode truncates and, for open, compares in constant time).
 * The two run one after the other, not interleaved: AES (11 round keys, up to 8 blocks, the counters)
 * and GHASH (three partial sums, the H powers, the data) side by side need more than the 20
 * call-clobbered vector registers, and saving and restoring the callee-saved ones v20..v31 costs
 * about 100 instructions, more than the whole GHASH of a 64-byte message. So seal encrypts, then hashes
 * the ciphertext it wrote; open hashes the ciphertext, then decrypts (so in == out works).
 * Messages of t < 8 blocks (len < 112) take a copy of the code without the 8-block group, whose
 * registers then fit the call-clobbered ones; t >= 8 takes the copy with it.
 * A partial last block (and a partial AAD block) goes through a zeroed 16-byte stack copy, moved by
 * 8/4/2/1-byte pieces chosen by the bits of the public length.
 */

/* Copies n < 16 bytes in at most four moves (8, 4, 2, 1 by the bits of the public n). */
VG_POWER8_INLINE void copy_partial(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n & 8) { memcpy(dst, src, 8); dst += 8; src += 8; }
    if (n & 4) { memcpy(dst, src, 4); dst += 4; src += 4; }
    if (n & 2) { memcpy(dst, src, 2); dst += 2; src += 2; }
    if (n & 1) *dst = *src;
}

/* buf (16 bytes, aligned) = the n < 16 bytes at src, zero-padded. */
VG_POWER8_INLINE void pad_partial(uint8_t *buf, const uint8_t *src, size_t n)
{
    vec_st(vec_splats((unsigned char)0), 0, buf);
    copy_partial(buf, src, n);
}

/* Bytes 0..n-1 all ones, the rest zero (AES order), for 0 < n < 16: masks a partial ciphertext block
   to C_n* || 0^u before GHASH. */
VG_POWER8_INLINE p8_u8 partial_mask(size_t n)
{
    static const uint8_t ones_then_zeros[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                                0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    return p8_load_aes(ones_then_zeros + 16 - n);
}

/* ---- AES: the keystream and the data ---- */

struct short_aes {
    struct power8_round_keys rk;
    p8_u8 ctr;  /* the counter block of the next data block (AES order) */
    p8_u8 j0;   /* J0 = nonce || 0^31 || 1 (AES order) */
    p8_u8 ekj0; /* E(J0), from the last group */
    const uint8_t *in;
    uint8_t *out;
    size_t rem;   /* bytes in the partial last data block, 0 if none (public) */
    size_t left;  /* data blocks not yet done (public) */
    uint8_t *buf; /* the zero-padded partial input block (aligned stack); seal leaves C_n* || 0^u there */
};

/* One group of n AES blocks (n = 8, 4, 2, 1 and last: constants after inlining). last = 0: n data
   blocks. last = 1: the message's last group: n - 1 data blocks and J0 in lane n - 1. The message's
   last data block (partial if rem) ends the last group or, when that group is J0 alone, the group
   before: st->left (data blocks not yet done) tells which. */
VG_POWER8_INLINE void short_group(struct short_aes *st, int n, int last, int decrypt)
{
    const struct power8_round_keys *rk = &st->rk;
    const int nd = n - last;
    p8_u8 b[8];
    for (int i = 0; i < nd; i++) {
        b[i] = vec_xor(st->ctr, rk->k[0]);
        st->ctr = p8_inc32(st->ctr);
        __asm__("" : "+v"(st->ctr)); /* a chain of single vadduwm, not n constants */
    }
    if (last) b[n - 1] = vec_xor(st->j0, rk->k[0]);
    p8_encrypt_rounds(rk, b, n);
    if (last) st->ekj0 = b[n - 1];
    if (nd == 0) return;
    /* data: raw in, keystream to raw (power8: one vperm; power9: none), XOR, raw out */
    for (int i = 0; i < nd - 1; i++)
        p8_store_data_at(vec_xor(p8_aes_to_data(b[i]), p8_load_data_at(st->in, 16 * i)), st->out, 16 * i);
    const int i = nd - 1;
    if (st->rem && st->left == (size_t)nd) {
        p8_u8 y = vec_xor(p8_load_aes(st->buf), b[i]);
        /* seal: the keystream beyond the message must not reach GHASH, which reads C_n* || 0^u
           from buf afterwards; open: GHASH has already read buf */
        if (!decrypt) y = vec_and(y, partial_mask(st->rem));
        p8_store_aes(y, st->buf);
        copy_partial(st->out + 16 * i, st->buf, st->rem);
    } else {
        p8_store_data_at(vec_xor(p8_aes_to_data(b[i]), p8_load_data_at(st->in, 16 * i)), st->out, 16 * i);
    }
    st->left -= (size_t)nd;
    st->in += 16 * nd;
    st->out += 16 * nd;
}

/* ---- GHASH over AAD, ciphertext and lengths ---- */

/* The running sum: s = the unreduced sum of the current aggregation group, hoff = 16 (k - 1) where
   H_k is the power the next block takes (a byte offset into the lo/mid/hi rows). */
struct short_hash {
    struct power8_gf_sum s;
    long hoff;
};

/* s += x * H_k; the next block takes H_(k-1). After H_1 (and another group follows: the length block
   is fed by short_hash_last) the group is reduced and the next sum starts as acc * H_8. */
VG_POWER8_INLINE void short_hash_block(struct short_hash *h, const struct power8_hkey *hk, p8_u8 x)
{
    h->s.lo = vec_xor(h->s.lo, p8_pmsum(x, vec_ld(h->hoff, hk->lo[0])));   /* x0 h0 */
    h->s.mid = vec_xor(h->s.mid, p8_pmsum(x, vec_ld(h->hoff, hk->mid[0]))); /* x1 h0 ^ x0 h1 */
    h->s.hi = vec_xor(h->s.hi, p8_pmsum(x, vec_ld(h->hoff, hk->hi[0])));   /* x1 h1 */
    h->hoff -= 16;
    if (h->hoff < 0) { /* public: depends on the lengths only */
        p8_u8 acc = p8_gf_reduce(&h->s);
        p8_gf_sum_zero(&h->s);
        p8_gf_mul_add(&h->s, hk, acc, 8);
        h->hoff = 16 * 7;
    }
}

/* n whole blocks at p. */
VG_POWER8_INLINE void short_hash_blocks(struct short_hash *h, const struct power8_hkey *hk, const uint8_t *p,
                                        size_t n)
{
    for (size_t i = 0; i < n; i++) short_hash_block(h, hk, p8_data_to_aes(p8_load_data_at(p, (long)(16 * i))));
}

/* S = GHASH_H(A || 0^v || C || 0^u || lengths); cbuf holds C_n* || 0^u when len % 16. */
VG_POWER8_INLINE p8_u8 short_ghash(const struct power8_hkey *hk, const uint8_t *aad, size_t aad_len,
                                   const uint8_t *c, size_t len, const uint8_t *cbuf, uint8_t *abuf)
{
    size_t aad_whole = aad_len / 16, aad_rem = aad_len % 16, c_whole = len / 16, c_rem = len % 16;
    size_t m = aad_whole + (aad_rem != 0) + c_whole + (c_rem != 0) + 1;
    struct short_hash h;
    p8_gf_sum_zero(&h.s);
    h.hoff = (long)(16 * ((m - 1) % 8)); /* the first group has ((m - 1) mod 8) + 1 blocks */
    short_hash_blocks(&h, hk, aad, aad_whole);
    if (aad_rem) {
        pad_partial(abuf, aad + 16 * aad_whole, aad_rem);
        short_hash_block(&h, hk, p8_load_aes(abuf));
    }
    short_hash_blocks(&h, hk, c, c_whole);
    if (c_rem) short_hash_block(&h, hk, p8_load_aes(cbuf));
    /* [len(A)]_64 || [len(C)]_64 in bits, the high doubleword len(A) (GCC element 0 is the low one);
       always at H_1, then the last reduction */
    p8_gf_mul_add(&h.s, hk, (p8_u8)(p8_u64){(uint64_t)len * 8, (uint64_t)aad_len * 8}, 1);
    return p8_gf_reduce(&h.s);
}

/* ---- the whole message ---- */

VG_POWER8_INLINE void gcm_short_body(const void *sched, const void *hkey, const uint8_t nonce[12],
                                     const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                                     size_t len, uint8_t tag[16], int decrypt, unsigned rounds, int large)
{
    _Alignas(16) uint8_t buf[16], abuf[16];
    const struct power8_hkey *hk = (const struct power8_hkey *)hkey;
    struct short_aes st;
    st.in = in;
    st.out = out;
    st.rem = len % 16;
    st.buf = buf;
    st.ekj0 = vec_splats((unsigned char)0); /* set by the last group (t >= 1 always) */
    size_t nd = len / 16 + (st.rem != 0), t = nd + 1;
    st.left = nd;
    if (st.rem) pad_partial(buf, in + 16 * (nd - 1), st.rem);

    p8_u8 s = vec_splats((unsigned char)0);
    if (decrypt) s = short_ghash(hk, aad, aad_len, in, len, buf, abuf); /* before out is written */

    p8_load_keys(&st.rk, sched, rounds);
    /* J0 = nonce || 0^31 || 1: as a 128-bit big-endian integer (the AES-order register) the high 64
       bits are nonce bytes 0..7, the low 64 bits nonce bytes 8..11 then 1 */
    uint64_t n_hi = vg_load64_be(nonce), n_lo = ((uint64_t)vg_load32_be(nonce + 8) << 32) | 1;
    st.j0 = (p8_u8)(p8_u64){n_lo, n_hi};
    st.ctr = p8_inc32(st.j0);
    /* the groups by the bits of t; the last one (lowest set bit) carries J0 */
    if (large) {
        if (t & 7) short_group(&st, 8, 0, decrypt);
        else short_group(&st, 8, 1, decrypt);
    }
    if (t & 4) {
        if (t & 3) short_group(&st, 4, 0, decrypt);
        else short_group(&st, 4, 1, decrypt);
    }
    if (t & 2) {
        if (t & 1) short_group(&st, 2, 0, decrypt);
        else short_group(&st, 2, 1, decrypt);
    }
    if (t & 1) short_group(&st, 1, 1, decrypt);

    if (!decrypt) s = short_ghash(hk, aad, aad_len, out, len, buf, abuf);
    p8_store_aes(vec_xor(st.ekj0, s), tag);
    /* the stack blocks held plaintext (and AAD) bytes */
    vec_st(vec_splats((unsigned char)0), 0, buf);
    vec_st(vec_splats((unsigned char)0), 0, abuf);
    __asm__ __volatile__("" : : "r"(buf), "r"(abuf) : "memory");
}

/* One function per (direction, key size, with or without the 8-block group), so that each gets only
   the registers its own path needs. */
/* The copies take the exported functions' arguments in the same places, so that the dispatch enters
   them by a plain tail call with nothing to move. */
#define P8_SHORT_ARGS                                                                                     \
    const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad, size_t aad_len,    \
        const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16]
#define P8_SHORT_FN(name, decrypt, rounds, large)                                                        \
    __attribute__((noinline)) VG_INTERNAL VG_POWER8_TARGET void name(P8_SHORT_ARGS);                   \
    __attribute__((noinline)) VG_INTERNAL VG_POWER8_TARGET void name(P8_SHORT_ARGS)                    \
    {                                                                                                    \
        gcm_short_body(sched, hkey, nonce, aad, aad_len, in, out, len, tag, decrypt, rounds, large);                                                                           \
    }
P8_SHORT_FN(P8_FN(seal_short_10), 0, 10, 0)
P8_SHORT_FN(P8_FN(seal_short_12), 0, 12, 0)
P8_SHORT_FN(P8_FN(seal_short_14), 0, 14, 0)
P8_SHORT_FN(P8_FN(seal_short_large_10), 0, 10, 1)
P8_SHORT_FN(P8_FN(seal_short_large_12), 0, 12, 1)
P8_SHORT_FN(P8_FN(seal_short_large_14), 0, 14, 1)
P8_SHORT_FN(P8_FN(open_short_10), 1, 10, 0)
P8_SHORT_FN(P8_FN(open_short_12), 1, 12, 0)
P8_SHORT_FN(P8_FN(open_short_14), 1, 14, 0)
P8_SHORT_FN(P8_FN(open_short_large_10), 1, 10, 1)
P8_SHORT_FN(P8_FN(open_short_large_12), 1, 12, 1)
P8_SHORT_FN(P8_FN(open_short_large_14), 1, 14, 1)

/* ---- the commonest short messages: t <= 7 AES blocks, m <= 8 GHASH blocks, t a constant ---- */
/*
 * When the message is t <= 7 AES blocks (len <= 96) and the whole GHASH input is one aggregation
 * group (m = a + t <= 8, a = ceil(aad_len / 16)), a copy of the kernel per t makes everything but the
 * AAD compile-time: the t blocks are ONE batch (t <= 7 in flight), the data block offsets and the H
 * powers of the ciphertext blocks and of the length block (H_(t-i) for data block i, H_1 for the
 * lengths: the AAD came first and took H_m .. H_(t+1)) are constants, and nothing loops but the AAD.
 * The keystream (seal: the ciphertext) stays in registers from the AES to GHASH: seal encrypts, then
 * hashes AAD, C and lengths while the round keys are dead; open loads and hashes C first, then
 * decrypts from the same registers. The key size is a run-time branch: round keys 0..9 and the last
 * one stay in registers, AES-192/256's middle rounds 10..11 (10..13) load their keys as they go, so
 * one copy serves every key size.
 */

/* S for the AAD blocks, which take H_m .. H_(t+1) (a run-time loop: the AAD length varies). */
VG_POWER8_INLINE void fixed_hash_aad(struct power8_gf_sum *s, const struct power8_hkey *hk, const uint8_t *aad,
                                     size_t aad_len, size_t t, uint8_t *abuf)
{
    size_t whole = aad_len / 16, rest = aad_len % 16;
    long hoff = (long)(16 * (whole + (rest != 0) + t - 1));
    for (size_t i = 0; i < whole; i++, hoff -= 16) {
        p8_u8 x = p8_load_aes(aad + 16 * i);
        s->lo = vec_xor(s->lo, p8_pmsum(x, vec_ld(hoff, hk->lo[0])));
        s->mid = vec_xor(s->mid, p8_pmsum(x, vec_ld(hoff, hk->mid[0])));
        s->hi = vec_xor(s->hi, p8_pmsum(x, vec_ld(hoff, hk->hi[0])));
    }
    if (rest) {
        pad_partial(abuf, aad + 16 * whole, rest);
        p8_u8 x = p8_load_aes(abuf);
        s->lo = vec_xor(s->lo, p8_pmsum(x, vec_ld(hoff, hk->lo[0])));
        s->mid = vec_xor(s->mid, p8_pmsum(x, vec_ld(hoff, hk->mid[0])));
        s->hi = vec_xor(s->hi, p8_pmsum(x, vec_ld(hoff, hk->hi[0])));
    }
}

/* s += x * H_k, the rows of H_k at hk->lo[k - 1] + 0, 128, 256. */
VG_POWER8_INLINE void fixed_mul_add(struct power8_gf_sum *s, const struct power8_hkey *hk, long o128, long o256,
                                    p8_u8 x, int k)
{
    const unsigned char *row = hk->lo[k - 1];
    s->lo = vec_xor(s->lo, p8_pmsum(x, vec_ld(0, row)));
    s->mid = vec_xor(s->mid, p8_pmsum(x, vec_ld(o128, row)));
    s->hi = vec_xor(s->hi, p8_pmsum(x, vec_ld(o256, row)));
}

VG_POWER8_INLINE void gcm_fixed_body(const void *sched, const void *hkey, const uint8_t nonce[12],
                                     const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                                     size_t len, uint8_t tag[16], int decrypt, int t, unsigned rounds)
{
    const struct power8_hkey *hk = (const struct power8_hkey *)hkey;
    const int nd = t - 1; /* data blocks; the last one partial if rem */
    const size_t rem = len % 16;
    _Alignas(16) uint8_t buf[16], abuf[16];
    struct power8_gf_sum s;
    p8_gf_sum_zero(&s);
    /* the lo, mid and hi rows of H_k are 128 bytes apart: one address per power, two offsets held in
       registers (hidden from GCC, which would otherwise add an addi per load) */
    long o128 = 128, o256 = 256;
    __asm__("" : "+r"(o128), "+r"(o256));

    if (rem) pad_partial(buf, in + 16 * (nd - 1), rem);
    if (decrypt) {
        /* GHASH first, from the ciphertext: out may be in */
        fixed_hash_aad(&s, hk, aad, aad_len, (size_t)t, abuf);
        _Pragma("GCC unroll 8") for (int i = 0; i < nd; i++) {
            p8_u8 c = i == nd - 1 && rem ? p8_load_aes(buf) : p8_data_to_aes(p8_load_data_at(in, 16 * i));
            fixed_mul_add(&s, hk, o128, o256, c, t - i);
        }
    }

    /* the AES, one batch: inc32^1(J0) .. inc32^nd(J0), then J0 */
    struct power8_round_keys rk;
    p8_load_keys(&rk, sched, rounds);
    uint64_t n_hi = vg_load64_be(nonce), n_lo = ((uint64_t)vg_load32_be(nonce + 8) << 32) | 1;
    p8_u8 j0 = (p8_u8)(p8_u64){n_lo, n_hi}, ctr = j0; /* as in gcm_short_body */
    p8_u8 b[8];
    _Pragma("GCC unroll 8") for (int i = 0; i < nd; i++) {
        ctr = p8_inc32(ctr);
        __asm__("" : "+v"(ctr));
        b[i] = vec_xor(ctr, rk.k[0]);
    }
    b[nd] = vec_xor(j0, rk.k[0]);
    p8_encrypt_rounds(&rk, b, t);

    /* the data; seal keeps C (AES order) in b[i] for GHASH */
    _Pragma("GCC unroll 8") for (int i = 0; i < nd; i++) {
        if (i == nd - 1 && rem) {
            p8_u8 y = vec_xor(p8_load_aes(buf), b[i]);
            if (!decrypt) y = vec_and(y, partial_mask(rem)); /* C_n* || 0^u for GHASH */
            p8_store_aes(y, buf);
            copy_partial(out + 16 * i, buf, rem);
            b[i] = y;
        } else if (decrypt) { /* as CTR: the keystream to the data layout, no conversion of the data */
            p8_store_data_at(vec_xor(p8_aes_to_data(b[i]), p8_load_data_at(in, 16 * i)), out, 16 * i);
        } else {
            b[i] = vec_xor(b[i], p8_data_to_aes(p8_load_data_at(in, 16 * i)));
            p8_store_data_at(p8_aes_to_data(b[i]), out, 16 * i);
        }
    }
    if (!decrypt) {
        /* the sum of products does not care about order: C first, so its registers die before the
           AAD loop */
        _Pragma("GCC unroll 8") for (int i = 0; i < nd; i++) fixed_mul_add(&s, hk, o128, o256, b[i], t - i);
        fixed_hash_aad(&s, hk, aad, aad_len, (size_t)t, abuf);
    }
    fixed_mul_add(&s, hk, o128, o256, (p8_u8)(p8_u64){(uint64_t)len * 8, (uint64_t)aad_len * 8}, 1);
    p8_store_aes(vec_xor(b[nd], p8_gf_reduce(&s)), tag);
    vec_st(vec_splats((unsigned char)0), 0, buf);
    vec_st(vec_splats((unsigned char)0), 0, abuf);
    __asm__ __volatile__("" : : "r"(buf), "r"(abuf) : "memory");
}

#define P8_FIXED_FN(name, decrypt, t, rounds)                                                            \
    __attribute__((noinline)) VG_INTERNAL VG_POWER8_TARGET void name(P8_SHORT_ARGS);                   \
    __attribute__((noinline)) VG_INTERNAL VG_POWER8_TARGET void name(P8_SHORT_ARGS)                    \
    {                                                                                                    \
        gcm_fixed_body(sched, hkey, nonce, aad, aad_len, in, out, len, tag, decrypt, t, rounds); \
    }
#define P8_FIXED_FNS(dir, decrypt, t)                     \
    P8_FIXED_FN(P8_FN(dir##_fixed_##t##_10), decrypt, t, 10) \
    P8_FIXED_FN(P8_FN(dir##_fixed_##t##_12), decrypt, t, 12) \
    P8_FIXED_FN(P8_FN(dir##_fixed_##t##_14), decrypt, t, 14)
P8_FIXED_FNS(seal, 0, 1)
P8_FIXED_FNS(seal, 0, 2)
P8_FIXED_FNS(seal, 0, 3)
P8_FIXED_FNS(seal, 0, 4)
P8_FIXED_FNS(seal, 0, 5)
P8_FIXED_FNS(seal, 0, 6)
P8_FIXED_FNS(seal, 0, 7)
P8_FIXED_FNS(open, 1, 1)
P8_FIXED_FNS(open, 1, 2)
P8_FIXED_FNS(open, 1, 3)
P8_FIXED_FNS(open, 1, 4)
P8_FIXED_FNS(open, 1, 5)
P8_FIXED_FNS(open, 1, 6)
P8_FIXED_FNS(open, 1, 7)

/* Which copy runs: the public lengths and the key length pick a row and a column of a table of the
   copies' addresses, and the copy is entered by a tail branch with the caller's arguments untouched.
   Written in assembly because GCC, given the 27 possible tail calls in C, first moved all nine
   arguments to callee-saved registers (and saved those): 41-51 instructions against about 22 here.
     nd = ceil(len / 16), a = ceil(aad_len / 16), t = nd + 1, m = a + t
     row = nd (= t - 1)   if m <= 8 and t <= 7   (the fixed copies, t = 1..7)
           7              else if len <= 96      (the general copy without the 8-block group)
           8              else                   (the general copy with it)
     column = (rounds - 10) / 2                  (AES-128, -192, -256)
   ELFv2: the copies are entered at their global entry point with r12 = their address, so they set
   up their own TOC pointer; r3..r10 and the stack argument (tag) are the caller's. */
#define P8_STR2(x) #x
#define P8_STR(x) P8_STR2(x)
#define P8_ROW(dir, t) ".long " P8_STR(P8_FN(dir##_fixed_##t##_10)) "-1b\n.long " P8_STR(P8_FN(dir##_fixed_##t##_12)) \
    "-1b\n.long " P8_STR(P8_FN(dir##_fixed_##t##_14)) "-1b\n"
#define P8_DISPATCH_ASM(name, dir)                                                                   \
    __asm__(".text\n"                                                                                 \
            ".globl " name "\n"                                                                       \
            ".hidden " name "\n"                                                                      \
            ".type " name ",@function\n"                                                              \
            ".p2align 4\n" name ":\n"                                                                 \
            "0: addis 2,12,.TOC.-0b@ha\n"                                                             \
            "addi 2,2,.TOC.-0b@l\n"                                                                   \
            ".localentry " name ",.-" name "\n"                                                       \
            "addi 11,10,15\n"  /* r11 = nd = (len + 15) >> 4 */                                       \
            "srdi 11,11,4\n"                                                                          \
            "addi 12,7,15\n"   /* r12 = a + nd = m - 1 */                                             \
            "srdi 12,12,4\n"                                                                          \
            "add 12,12,11\n"                                                                          \
            "lwz 0,240(3)\n"   /* r0 = key length 16, 24, 32 (struct power8_sched) */                 \
            "cmpldi 12,7\n"                                                                           \
            "bgt 2f\n"                                                                                \
            "cmpldi 11,6\n"                                                                           \
            "ble 3f\n"                                                                                \
            "2: li 11,7\n"     /* the general copies */                                               \
            "cmpldi 10,96\n"                                                                          \
            "ble 3f\n"                                                                                \
            "li 11,8\n"                                                                               \
            "3: mulli 11,11,12\n" /* row * 3 entries * 4 bytes */                                     \
            "srdi 0,0,1\n"    /* + column * 4 = key length / 2 - 8 (addi cannot take r0 as a source) */ \
            "add 11,11,0\n"                                                                           \
            "addi 11,11,-8\n"                                                                         \
            "addis 12,2,.L" name "_table@toc@ha\n" /* r12 = the table (TOC-relative) */              \
            "addi 12,12,.L" name "_table@toc@l\n"                                                     \
            "lwax 0,12,11\n"                                                                          \
            "add 12,12,0\n"                                                                           \
            "mtctr 12\n"                                                                              \
            "bctr\n"                                                                                  \
            ".L" name "_table:\n"                                                                     \
            "1:\n" P8_ROW(dir, 1) P8_ROW(dir, 2) P8_ROW(dir, 3) P8_ROW(dir, 4) P8_ROW(dir, 5)        \
            P8_ROW(dir, 6) P8_ROW(dir, 7)                                                             \
            ".long " P8_STR(P8_FN(dir##_short_10)) "-1b\n.long " P8_STR(P8_FN(dir##_short_12))        \
            "-1b\n.long " P8_STR(P8_FN(dir##_short_14)) "-1b\n"                                       \
            ".long " P8_STR(P8_FN(dir##_short_large_10)) "-1b\n.long " P8_STR(P8_FN(dir##_short_large_12)) \
            "-1b\n.long " P8_STR(P8_FN(dir##_short_large_14)) "-1b\n"                                 \
            ".size " name ",.-" name "\n")
P8_DISPATCH_ASM(P8_STR(P8_FN(gcm_seal_short)), seal);
P8_DISPATCH_ASM(P8_STR(P8_FN(gcm_open_short)), open);
