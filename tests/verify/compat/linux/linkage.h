/*
 * Minimal stand-in for <linux/linkage.h>, enough to assemble
 * arch/arm/common/vlock.S as a user-space object for the stress test.
 */
#ifndef VERIFY_COMPAT_LINKAGE_H
#define VERIFY_COMPAT_LINKAGE_H

#define ENTRY(name) \
	.globl name; \
	.p2align 2; \
	name:

#define ENDPROC(name) \
	.type name, %function; \
	.size name, . - name

#endif
