#include <stdint.h>
uintptr_t lookup(double *x) { return (uintptr_t)x; }
