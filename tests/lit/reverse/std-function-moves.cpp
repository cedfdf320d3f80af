// std::function's storage moved as bytes at -O0: its move constructor and
// std::swap<std::_Any_data> (which its swap and assignments call) copy 16
// untyped bytes that hold a lambda's captured doubles or a pointer to a
// closure on the heap. The copies are marked at the pipeline's start
// (prepare/ErasedMoves.cpp) and their adjoints moved back as bytes. Until
// 2026-12-06 copy assignment (`h = g`) was a located error at -O0, and move
// assignment and a vector of functions grown by push_back lost the
// captures' derivatives without a word (e2e rev_std_function_moves.cpp
// checks the values).
// RUN: %clang++ -O0 -Xclang -disable-llvm-passes -S -emit-llvm %s -o %t.ll
// RUN: %adcc-opt -passes=adcc-mark-erased-moves %t.ll -o - | FileCheck %s --check-prefix=MARK
// RUN: %expect-exit 0 %adcc++ -O0 -c %s -o /dev/null
// RUN: %expect-exit 0 %adcc++ -O0 -g -c %s -o /dev/null
// RUN: %expect-exit 0 %adcc++ -O1 -g -c %s -o /dev/null
// The three copies of the swap and the one of the move constructor:
// MARK-LABEL: define {{.*}} @_ZSt4swapISt9_Any_dataE
// MARK-COUNT-3: call void @llvm.memcpy{{.*}} i64 16, i1 false), !adcc.erased.move
// MARK-LABEL: define {{.*}} @_ZNSt8functionIFddEEC2EOS1_(
// MARK: call void @llvm.memcpy{{.*}} i64 16, i1 false), !adcc.erased.move
#include <functional>
#include <utility>
extern "C" double __enzyme_autodiff(void *, ...);
static double assigned(double k) {
  std::function<double(double)> g = [k](double t) { return k * t; };
  std::function<double(double)> h;
  h = g;
  std::function<double(double)> j;
  j = std::move(h);
  return j(2.0);
}
double dk(double k) { return __enzyme_autodiff((void *)assigned, k); }
