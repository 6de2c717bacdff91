/* bcryptprimitives.dll for the hash matrix's Windows cell. Rust's std (1.78 and later)
 * imports ProcessPrng from it on Windows (for HashMap seeds); Debian 12's Wine 8.0 does not
 * have the DLL yet, so no Rust program starts there. This one answers ProcessPrng from
 * RtlGenRandom (advapi32's SystemFunction036), which Wine has. Nothing the determinism
 * program hashes reads it. test/hash-matrix.sh builds it into the Wine prefix:
 *   x86_64-w64-mingw32-gcc -shared -O2 -s -o bcryptprimitives.dll bcryptprimitives.c -ladvapi32
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG n = length > 0x40000000u ? 0x40000000u : (ULONG)length;
        if (!SystemFunction036(data, n)) return FALSE;
        data += n;
        length -= n;
    }
    return TRUE;
}
