// Enzyme's attributes and annotations that adcc does not know, misplaced or
// with a wrong argument, are errors at their source location, never the
// warning Clang gives an unknown attribute: ignored, they could change
// derivatives silently. Also with the warning turned off.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c -Wno-unknown-attributes %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O0 -c -w %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O0 -c -DANNOTATIONS %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANN

#ifndef ANNOTATIONS
// CHECK: enzyme-attributes.c:[[@LINE+1]]:16: error: unknown Enzyme attribute 'enzyme_foo': adcc does not know what it does to derivatives
__attribute__((enzyme_foo)) double f(double x) { return x; }
// CHECK: enzyme-attributes.c:[[@LINE+1]]:3: error: unknown Enzyme attribute 'enzyme::bar'
[[enzyme::bar]] double g(double x) { return x; }
// CHECK: enzyme-attributes.c:[[@LINE+1]]:16: error: unknown Enzyme attribute 'enzyme_inactiv'
__attribute__((enzyme_inactiv)) double g2(double x) { return x; }
// CHECK: enzyme-attributes.c:[[@LINE+1]]:37: error: 'enzyme_function_like' needs the name of a math function adcc knows, such as "log1p", not 'nosuch'
__attribute__((enzyme_function_like("nosuch"))) double k(double x) {
  return x;
}
// CHECK: enzyme-attributes.c:[[@LINE+1]]:16: error: 'enzyme_function_like' needs the name of a math function adcc knows, such as "log1p" (docs/rules.md
__attribute__((enzyme_function_like)) double k2(double x) { return x; }
// CHECK: enzyme-attributes.c:[[@LINE+1]]:23: error: 'enzyme_inactive' only applies to functions and global variables
struct __attribute__((enzyme_inactive)) S { int a; };
// CHECK: enzyme-attributes.c:[[@LINE+1]]:16: error: 'enzyme_nocache' only applies to functions
__attribute__((enzyme_nocache)) double v;
// CHECK: enzyme-attributes.c:[[@LINE+1]]:3: error: 'enzyme::inactive' attribute takes no arguments
[[enzyme::inactive(3)]] double c(double x) { return x; }
// CHECK: enzyme-attributes.c:[[@LINE+1]]:30: error: 'enzyme_shadow' needs the global variable that holds the shadow, declared before: enzyme_shadow(d_shadowed)
__attribute__((enzyme_shadow(d_nosuch))) double shadowed;
float d_single;
// CHECK: enzyme-attributes.c:[[@LINE+1]]:30: error: the shadow 'd_single' of 'shadowed2' must be another global variable of the same type ('double')
__attribute__((enzyme_shadow(d_single))) double shadowed2;
// CHECK-NOT: error:
// A local variable is no global.
double loc(double x) {
  // CHECK: enzyme-attributes.c:[[@LINE+1]]:18: error: 'enzyme_inactive' only applies to functions and global variables
  __attribute__((enzyme_inactive)) double t = x;
  return t;
}
#else
// ANN: enzyme-attributes.c:[[@LINE+1]]:16: error: unknown Enzyme annotation 'enzyme_baz': adcc does not know what it does to derivatives
__attribute__((annotate("enzyme_baz"))) double h(double x) { return x; }
// ANN: enzyme-attributes.c:[[@LINE+1]]:16: error: 'enzyme_shadow' only applies to global variables
__attribute__((annotate("enzyme_shadow"))) double h2(double x) { return x; }
// ANN: enzyme-attributes.c:[[@LINE+1]]:16: error: 'enzyme_function_like' needs the name of a math function adcc knows, such as "log1p", not 'nosuch'
__attribute__((annotate("enzyme_function_like=nosuch"))) double h3(double x) {
  return x;
}
// ANN: enzyme-attributes.c:[[@LINE+1]]:16: error: 'enzyme_shadow' needs the address of the global variable that holds the shadow: annotate("enzyme_shadow", &d_g)
__attribute__((annotate("enzyme_shadow"))) double unnamed_shadow;
// ANN: enzyme-attributes.c:[[@LINE+1]]:16: error: 'enzyme_nofree' only applies to functions
__attribute__((annotate("enzyme_nofree"))) double t;
// Other annotations are the program's own.
__attribute__((annotate("hot_path"))) double h4(double x) { return x; }
#endif
