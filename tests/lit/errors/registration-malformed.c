// Malformed registrations are errors at their source location: the wrong
// number of elements, an element that is not what the registration needs.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
double __enzyme_fwddiff(void *, ...);
double g(double x) { return x; }
double h(double x) { return x; }
int not_a_function;
double counter;

// CHECK: registration-malformed.c:[[@LINE+1]]:7: error: malformed registration '__enzyme_register_gradient_g': expected {(void *)function, (void *)augmented, (void *)reverse} (3 elements)
void *__enzyme_register_gradient_g[] = {(void *)g, (void *)g};
// CHECK: registration-malformed.c:[[@LINE+1]]:5: error: malformed registration '__enzyme_register_derivative_n': expected {(void *)function, (void *)derivative} (2 elements)
int __enzyme_register_derivative_n = 3;

void *__enzyme_register_derivative_h[] = {(void *)h,
// CHECK: registration-malformed.c:[[@LINE+1]]:43: error: malformed registration '__enzyme_register_derivative_h': element 2 must be the address of a function
                                          (void *)&not_a_function};
// CHECK: registration-malformed.c:[[@LINE+2]]:41: error: malformed registration '__enzyme_register_gradient_z': element 1 must be the address of a function
// CHECK: registration-malformed.c:[[@LINE+1]]:55: error: malformed registration '__enzyme_register_gradient_z': element 3 must be the address of a function
void *__enzyme_register_gradient_z[] = {0, (void *)h, "h_rev"};

double q(double x) { return x; }
// CHECK: registration-malformed.c:[[@LINE+1]]:49: error: malformed registration '__enzyme_function_like_q': element 2 must be a string naming a math function
void *__enzyme_function_like_q[2] = {(void *)q, (void *)q};

// Activity marks name functions and global variables.
// CHECK: registration-malformed.c:[[@LINE+1]]:45: error: malformed registration '__enzyme_inactivefn_a': element 2 must be the address of a function
void *__enzyme_inactivefn_a[] = {(void *)g, (void *)&not_a_function};
// CHECK: registration-malformed.c:[[@LINE+1]]:31: error: malformed registration '__enzyme_inactivefn_b': element 1 must be the address of a function
void *__enzyme_inactivefn_b = (void *)1;
// CHECK: registration-malformed.c:[[@LINE+1]]:57: error: malformed registration '__enzyme_inactive_global_c': element 2 must be the address of a global variable
void *__enzyme_inactive_global_c[] = {(void *)&counter, (void *)h};

// CHECK: registration-malformed.c:[[@LINE+1]]:7: error: malformed registration '__enzyme_register_splitderivative_g': expected {(void *)function, (void *)augmented, (void *)forward_split} (3 elements)
void *__enzyme_register_splitderivative_g[] = {(void *)g, (void *)g};

// Allocators: {allocator, size argument, "deallocator arguments",
// deallocator}.
// CHECK: registration-malformed.c:[[@LINE+1]]:7: error: malformed registration '__enzyme_allocation_like_a': expected {(void *)allocator, (void *)size_argument, (void *)"deallocator arguments", (void *)deallocator} (4 elements)
void *__enzyme_allocation_like_a[3] = {(void *)g, (void *)0, (void *)h};
// CHECK: registration-malformed.c:[[@LINE+3]]:39: error: malformed registration '__enzyme_allocation_like_b': element 1 must be the address of a function
// CHECK: registration-malformed.c:[[@LINE+2]]:42: error: malformed registration '__enzyme_allocation_like_b': element 2 must be the number of the allocator's size argument
// CHECK: registration-malformed.c:[[@LINE+1]]:60: error: malformed registration '__enzyme_allocation_like_b': element 3 must be a string listing the deallocator's arguments: the allocator's argument numbers and -1 for the block, once ("-1", "2,-1")
void *__enzyme_allocation_like_b[] = {0, (void *)&counter, (void *)"1,2", (void *)h};
