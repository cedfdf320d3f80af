//===- support/PointerTargets.h - Tests of called pointers ------*- C++ -*-===//
//
// A call through a function pointer in differentiated code compares the
// pointer with each function it may point to (possibleCallTargets). A
// library function with a rule (libm's sin) is a target through the
// internal wrapper that stands for its address in a module with
// derivatives (prepare/LibraryPointers.cpp); a pointer stored by code that
// never saw the wrapper holds the function's own address: a table of libm
// functions in a file without derivative requests, read by a derivative
// made at link time (tinyexpr's table of functions, or a tree of nodes its
// parser filled from the table).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_POINTERTARGETS_H
#define ADCORE_SUPPORT_POINTERTARGETS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"

namespace adcore {

/// The names of the wrappers: `__adcc_pointer_to_sin`.
constexpr llvm::StringLiteral LibraryPointerPrefix = "__adcc_pointer_to_";

/// The test, at \p B, that \p Target (a called function pointer) points to
/// \p F, a possible target: its address, or for a wrapper of a library
/// function also that function's own address.
llvm::Value *pointsToTarget(llvm::IRBuilder<> &B, llvm::Value *Target,
                            llvm::Function *F);

} // namespace adcore

#endif // ADCORE_SUPPORT_POINTERTARGETS_H
