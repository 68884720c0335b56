/*
 * Stand-in for the generated <asm/asm-offsets.h>: <asm/mcpm.h> includes it
 * (in assembly) only for CACHE_WRITEBACK_GRANULE, which vlock.S does not use.
 */
#ifndef VERIFY_COMPAT_ASM_OFFSETS_H
#define VERIFY_COMPAT_ASM_OFFSETS_H
#define CACHE_WRITEBACK_GRANULE 64
#endif
