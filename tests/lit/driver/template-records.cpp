// The layouts the frontend records of class templates' specializations
// (adcore/TemplateRecords.h), keyed by the demangled name: only those that
// hold a floating-point number, with a union's bytes, a vtable pointer, a
// base class's fields at its offset, bit-fields and empty members left
// unnamed, and a nested class of a specialization.
// RUN: %adcc++ -O1 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: not grep -q 'Ints<' %t.ll

template <class T> struct Pair {
  T a;
  int n;
  T b;
};
template <class T> struct Base {
  virtual ~Base() {}
  T w;
};
template <class T> struct Derived : Base<T> {
  union {
    T t;
    long l;
  } u;
  unsigned flag : 3;
  char tag;
  T *p;
};
template <class T> struct Outer {
  struct Inner {
    T x[2];
  };
  Inner in;
};
template <class T> struct Ints {
  T a, b;
};

double use(Pair<double> &pd, Pair<float> &pf, Derived<double> &d,
           Outer<float> &o, Ints<int> &i) {
  return pd.a + pf.b + d.w + o.in.x[1] + i.a;
}

// CHECK-DAG: !{!"Pair<double>", i64 24, !"0d8,8i4,16d8"}
// CHECK-DAG: !{!"Pair<float>", i64 12, !"0f4,4i4,8f4"}
// CHECK-DAG: !{!"Base<double>", i64 16, !"0p8,8d8"}
// CHECK-DAG: !{!"Derived<double>", i64 40, !"0p8,8d8,16u8,25b1,32p8"}
// CHECK-DAG: !{!"Outer<float>", i64 8, !"0f4,4f4"}
// CHECK-DAG: !{!"Outer<float>::Inner", i64 8, !"0f4,4f4"}
