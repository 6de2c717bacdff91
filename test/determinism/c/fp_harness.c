/* The floating-point environment harness: builds each scene's inputs in the default
 * environment, then sets the thread to flush-to-zero + denormals-are-zero and to each
 * rounding mode in turn, steps through the library's entry shim, and checks that the
 * mode was really set, that the hashes equal the default-mode hashes and that the
 * thread's mode came back unchanged. On Windows (mingw-w64) fesetround sets MXCSR too. */
#include <fenv.h>
#include <stdint.h>
#include <stdio.h>

extern void *m3test_build(int32_t scene);
extern uint64_t m3test_step_hash(void *world, int32_t steps);
extern void m3test_free(void *world);

#if defined(__x86_64__) || defined(__i386__)
typedef unsigned long long mode_t_;
static mode_t_ get_mode(void) {
    unsigned m;
    __asm__ volatile("stmxcsr %0" : "=m"(m));
    return m;
}
static void set_mode(mode_t_ m) {
    unsigned v = (unsigned)m;
    __asm__ volatile("ldmxcsr %0" ::"m"(v));
}
#define FLUSH_BITS 0x8040ull /* FTZ | DAZ */
#elif defined(__aarch64__)
typedef unsigned long long mode_t_;
static mode_t_ get_mode(void) {
    mode_t_ r;
    __asm__ volatile("mrs %0, fpcr" : "=r"(r));
    return r;
}
static void set_mode(mode_t_ m) { __asm__ volatile("msr fpcr, %0" ::"r"(m)); }
#define FLUSH_BITS (1ull << 24) /* FZ */
#else
#error "the FP harness covers x86, x86-64 and aarch64"
#endif

struct mode_case {
    const char *name;
    int round;
    int flush;
};

/* Returns the number of failures; prints one line per case. */
int32_t m3test_fp_modes(int32_t scenes, int32_t steps) {
    static const struct mode_case cases[] = {
        {"ftz+daz", FE_TONEAREST, 1},
        {"upward", FE_UPWARD, 0},
        {"downward", FE_DOWNWARD, 0},
        {"toward-zero", FE_TOWARDZERO, 0},
        {"ftz+daz+upward", FE_UPWARD, 1},
    };
    uint64_t reference[16];
    int failures = 0;
    if (scenes > 16) scenes = 16;
    mode_t_ base = get_mode();
    for (int s = 0; s < scenes; s++) {
        void *w = m3test_build(s);
        reference[s] = m3test_step_hash(w, steps);
        m3test_free(w);
    }
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int ok = 1;
        for (int s = 0; s < scenes; s++) {
            void *w = m3test_build(s); /* inputs built first, in the default mode */
            fesetround(cases[c].round);
            if (cases[c].flush) set_mode(get_mode() | FLUSH_BITS);
            mode_t_ before = get_mode();
            uint64_t h = m3test_step_hash(w, steps);
            mode_t_ after = get_mode();
            set_mode(base);
            fesetround(FE_TONEAREST);
            m3test_free(w);
            if (h != reference[s] || after != before || before == base) {
                /* before == base: the C runtime did not set the mode (a case that tests
                 * nothing, e.g. a fesetround that leaves MXCSR alone) */
                ok = 0;
                printf("fp-mode %s scene %d: hash %016llx (expected %016llx), mode %llx -> %llx"
                       " (default %llx)\n",
                       cases[c].name, s, (unsigned long long)h, (unsigned long long)reference[s],
                       (unsigned long long)before, (unsigned long long)after,
                       (unsigned long long)base);
            }
        }
        printf("fp-mode %-16s %s\n", cases[c].name, ok ? "same hashes, mode kept" : "FAILED");
        failures += !ok;
    }
    fflush(stdout);
    return failures;
}
