/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* Exits 77 (after "UNAVAILABLE") if this CPU cannot run the implementation named by --impl, else 0:
   the shell-driven provider tests ask it first, so they skip exactly when the C tests do. */
#include "harness.h"

int main(int argc, char **argv)
{
    vgt_init(argc, argv);
    return 0;
}
