// __enzyme_allocation_like registrations whose functions do not fit: the
// allocator must return a pointer and take an integer size at the position
// given; the deallocator must take the arguments the string lists, of the
// allocator's types, and the block where it says -1. Errors at the
// registration, never a shadow block allocated or freed with the wrong
// arguments. (Malformed elements: registration-malformed.c.)
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
typedef unsigned long size_t;
void *pool_alloc(void *pool, size_t n);
void pool_free(void *pool, void *p);
double not_an_allocator(double x);

// CHECK: allocation-like.c:[[@LINE+1]]:43: error: malformed registration '__enzyme_allocation_like_size': the allocator 'pool_alloc' must return a pointer and take the size (an integer) as its argument 0
void *__enzyme_allocation_like_size[4] = {(void *)pool_alloc, (void *)0, (void *)"0,-1", (void *)pool_free};
// CHECK: allocation-like.c:[[@LINE+1]]:42: error: malformed registration '__enzyme_allocation_like_ret': the allocator 'not_an_allocator' must return a pointer and take the size (an integer) as its argument 0
void *__enzyme_allocation_like_ret[4] = {(void *)not_an_allocator, (void *)0, (void *)"-1", (void *)pool_free};
// CHECK: allocation-like.c:[[@LINE+1]]:88: error: malformed registration '__enzyme_allocation_like_free': the deallocator 'pool_free' must take 1 arguments: the block (-1) and the allocator's arguments that the string names, of the same types
void *__enzyme_allocation_like_free[4] = {(void *)pool_alloc, (void *)1, (void *)"-1", (void *)pool_free};
// CHECK: allocation-like.c:[[@LINE+1]]:91: error: malformed registration '__enzyme_allocation_like_types': the deallocator 'pool_free' must take 2 arguments: the block (-1) and the allocator's arguments that the string names, of the same types
void *__enzyme_allocation_like_types[4] = {(void *)pool_alloc, (void *)1, (void *)"1,-1", (void *)pool_free};

double __enzyme_autodiff(void *, ...);
double f(double x) { return x * x; }
double df(double x) { return __enzyme_autodiff((void *)f, x); }
