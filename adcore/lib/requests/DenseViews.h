//===- requests/DenseViews.h - Enzyme's __enzyme_todense --------*- C++ -*-===//
//
// A dense view is a pointer that Enzyme's users make with
//
//   T *v = __enzyme_todense(load_fn, store_fn, extra...);
//
// and pass as a shadow (a seed read by the derivative, or where it writes
// its derivatives) when the storage behind it is sparse. Every load of a T
// through the view, at a byte offset k from it, becomes
// load_fn(k, extra...), and every store of a value v becomes
// store_fn(v, k, extra...): the program's functions give the dense picture
// of its sparse storage (a one-hot seed; triplets of a sparse Jacobian).
// __enzyme_post_sparse_todense is the same.
//
// An enzyme_dupnoneed argument whose value is a constant address (Enzyme's
// users write `enzyme_dupnoneed, (double *)0x1, d_out`: the caller wants
// only the shadow) has no primal memory: it is passed as a view with no
// functions, whose loads read zero and whose stores are dropped.
//
// The views are lowered after the derivatives are made: the calls that
// receive a view (the derivatives, the program's functions) are inlined
// into the function that makes it, its local variables holding it promoted
// to registers, and each access through it becomes a call. A view that
// reaches anything else (a pointer phi, memory, an intrinsic, a function
// without a body) is an error at the use, naming it.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_DENSEVIEWS_H
#define ADCORE_DENSEVIEWS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"

namespace llvm {
class Module;
} // namespace llvm

namespace adcore {

class SynthesisContext;

/// Whether \p Name makes a dense view (__enzyme_todense,
/// __enzyme_post_sparse_todense, with any suffix).
bool isDenseViewFunction(llvm::StringRef Name);

/// Whether \p V, an argument's value, is a constant address that points to
/// no object (null, or an integer made a pointer).
bool isConstantAddress(const llvm::Value *V);

/// A view without functions, at \p B: the primal of an enzyme_dupnoneed
/// argument that has no memory.
llvm::Value *makeNoPrimalMemory(llvm::IRBuilder<> &B);

/// Whether \p M makes dense views that are still to be lowered.
bool makesDenseViews(const llvm::Module &M);

/// Lowers the dense views of \p M. False after a reported error.
bool lowerDenseViews(llvm::Module &M, SynthesisContext &Ctx);

} // namespace adcore

#endif // ADCORE_DENSEVIEWS_H
