#include <stdint.h>
uintptr_t lookup_u(uintptr_t u) { return u; }
