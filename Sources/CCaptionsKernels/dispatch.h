// What the kernels' source files share: on x86-64, the AVX2 target attribute and the run-time
// choice between an AVX2 body and the portable one (DISPATCH). Not part of the module's API.
#ifndef CCAPTIONS_KERNELS_DISPATCH_H
#define CCAPTIONS_KERNELS_DISPATCH_H

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define CCAPTIONS_X86 1
#include <immintrin.h>
#define AVX2 __attribute__((target("avx2")))

/// Whether this processor has AVX2 (asked once per source file).
static inline int ccaptions_has_avx2(void) {
    static int known = -1;
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    return known;
}
#define DISPATCH(avx2_call, portable_call) \
    do { if (ccaptions_has_avx2()) { avx2_call; } else { portable_call; } } while (0)
#else
#define DISPATCH(avx2_call, portable_call) do { portable_call; } while (0)
#endif

#endif
