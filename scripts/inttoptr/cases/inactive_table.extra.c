#include <stdint.h>
static const int ns[3] = {1, 2, 3};
static const double cs[3] = {0.5, 1.5, -2.0};
uintptr_t table_of(int k) { return k ? (uintptr_t)cs : (uintptr_t)ns; }
