/* The version handshake: built against the committed header, m3World_Create succeeds;
 * built against a copy whose ABI version is bumped (-DM3_BUMPED_HEADER), the library
 * refuses it with m3_errorVersion, and says why. */
#include "maul3d.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    m3WorldDef def = m3DefaultWorldDef();
    m3WorldId w;
    m3Result r = m3World_Create(&def, &w);
#ifdef M3_BUMPED_HEADER
    if (r != m3_errorVersion || M3_ABI_VERSION == m3GetAbiVersion()) {
        fprintf(stderr, "FAIL: a bumped header got %d\n", (int)r);
        return 1;
    }
    printf("version: header %u.%u refused by library %u.%u: %s\n", M3_ABI_VERSION >> 16,
           M3_ABI_VERSION & 0xffffu, m3GetAbiVersion() >> 16, m3GetAbiVersion() & 0xffffu,
           m3GetLastErrorMessage());
#else
    if (r != m3_success || M3_ABI_VERSION != m3GetAbiVersion()) {
        fprintf(stderr, "FAIL: the library's own header got %d: %s\n", (int)r,
                m3GetLastErrorMessage());
        return 1;
    }
    m3Version v = m3GetVersion();
    printf("version: library %d.%d.%d, ABI %u.%u accepted\n", v.major, v.minor, v.patch,
           M3_ABI_VERSION >> 16, M3_ABI_VERSION & 0xffffu);
    m3World_Destroy(w);
#endif
    return 0;
}
