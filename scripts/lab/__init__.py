"""Host-side helpers of the big.LITTLE lab: initramfs archives and QEMU runs."""
