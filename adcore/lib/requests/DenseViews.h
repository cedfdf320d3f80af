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

namespace llvm {
class Module;
} // namespace llvm

namespace adcore {

class SynthesisContext;

/// Whether \p Name makes a dense view (__enzyme_todense,
/// __enzyme_post_sparse_todense, with any suffix).
bool isDenseViewFunction(llvm::StringRef Name);

/// Lowers the dense views of \p M. False after a reported error.
bool lowerDenseViews(llvm::Module &M, SynthesisContext &Ctx);

} // namespace adcore

#endif // ADCORE_DENSEVIEWS_H
