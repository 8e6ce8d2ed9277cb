// CPrefetch: the compiler's cache-prefetch hint, for the pixel loops of MapDrawingCairo (ProjectiveBlit.swift).
// Swift has no spelling for `__builtin_prefetch`; this header gives it one. Header only, no library: the function is
// static inline, so Swift's optimiser inlines it into the loop that calls it and it costs one instruction
// (`prefetcht0` on x86-64, `prfm pldl1keep` on AArch64).
#pragma once

/// Asks the CPU to bring the cache line holding `address` into every cache level, for a read soon. A hint only:
/// it never faults, whatever the address, and never changes what the program computes. Any thread.
static inline void waymark_prefetch_read(const void *address) { __builtin_prefetch(address, 0, 3); }
