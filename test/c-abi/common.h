/* Shared by the C tests of the m3 ABI: checks, the odd floating-point mode, and a
 * pthread task system for enqueueTask/finishTask. */
#ifndef M3_TEST_COMMON_H
#define M3_TEST_COMMON_H

#include "maul3d.h"

#include <fenv.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
/* MXCSR flush-to-zero (bit 15) and denormals-are-zero (bit 6). */
#define M3T_FTZ_DAZ 0x8040u
static inline unsigned m3t_ftz_bits(void) { return _mm_getcsr() & M3T_FTZ_DAZ; }
static inline void m3t_set_ftz(int on)
{
    unsigned csr = _mm_getcsr();
    _mm_setcsr(on ? (csr | M3T_FTZ_DAZ) : (csr & ~M3T_FTZ_DAZ));
}
#define M3T_FTZ_ON M3T_FTZ_DAZ
#elif defined(__aarch64__)
/* FPCR flush-to-zero (bit 24). */
static inline unsigned long m3t_fpcr(void)
{
    unsigned long r;
    __asm__ volatile("mrs %0, fpcr" : "=r"(r));
    return r;
}
static inline unsigned m3t_ftz_bits(void) { return (unsigned)((m3t_fpcr() >> 24) & 1u); }
static inline void m3t_set_ftz(int on)
{
    unsigned long r = m3t_fpcr();
    r = on ? (r | (1ul << 24)) : (r & ~(1ul << 24));
    __asm__ volatile("msr fpcr, %0" : : "r"(r));
}
#define M3T_FTZ_ON 1u
#else
static inline unsigned m3t_ftz_bits(void) { return 0; }
static inline void m3t_set_ftz(int on) { (void)on; }
#define M3T_FTZ_ON 0u
#endif

/* When set, every library call runs with the thread rounding upward and flushing
 * subnormals, and the mode is checked to come back unchanged. Inputs are computed in
 * the default mode, outside the bracket. */
static int m3t_odd = 0;

static inline void m3t_fail(const char *what)
{
    fprintf(stderr, "FAIL: %s (%s)\n", what, m3GetLastErrorMessage());
    exit(1);
}

static inline void m3t_odd_enter(void)
{
    if (m3t_odd) {
        fesetround(FE_UPWARD);
        m3t_set_ftz(1);
    }
}

static inline void m3t_odd_leave(const char *what)
{
    if (m3t_odd) {
        if (fegetround() != FE_UPWARD || m3t_ftz_bits() != M3T_FTZ_ON) {
            fprintf(stderr, "FAIL: %s changed the thread's floating-point mode\n", what);
            exit(1);
        }
        fesetround(FE_TONEAREST);
        m3t_set_ftz(0);
    }
}

/* Calls the library (in the odd mode if on) and requires success. */
#define CALL(x)                                                                           \
    do {                                                                                  \
        m3t_odd_enter();                                                                  \
        m3Result r_ = (x);                                                                \
        m3t_odd_leave(#x);                                                                \
        if (r_ != m3_success) {                                                           \
            fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #x, (int)r_);  \
            m3t_fail(#x);                                                                 \
        }                                                                                 \
    } while (0)

/* Calls the library (in the odd mode if on) for a value. */
#define VALUE(out, x)                                                                     \
    do {                                                                                  \
        m3t_odd_enter();                                                                  \
        (out) = (x);                                                                      \
        m3t_odd_leave(#x);                                                                \
    } while (0)

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

#endif
