//===- OtherFileTargets.h - Other files' functions called by pointer -*- C++ -*-===//
//
// A call through a function pointer whose only possible targets are
// functions of other files (-O0 code that passes one to a helper,
// `via(sq_e, x)`; from -O1 the pointer is folded into a direct call):
// their derivatives are made at link time, so the call dispatches to them
// as to the functions this file defines (possibleCallTargets).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_OTHERFILETARGETS_H
#define ADCORE_OTHERFILETARGETS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Function;
class FunctionType;
class Module;
} // namespace llvm

namespace adcore {

/// Declared (not defined), address-taken functions of \p M with type \p FT
/// that \p Deferred accepts (those whose derivatives are made at link
/// time).
llvm::SmallVector<llvm::Function *, 8> possibleOtherFileTargets(
    llvm::Module &M, llvm::FunctionType *FT,
    llvm::function_ref<bool(const llvm::Function &)> Deferred);

} // namespace adcore

#endif // ADCORE_OTHERFILETARGETS_H
