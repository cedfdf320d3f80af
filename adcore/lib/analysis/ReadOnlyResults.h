//===- analysis/ReadOnlyResults.h - Getters' data only read -----*- C++ -*-===//
//
// See ReadOnlyResults.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ANALYSIS_READONLYRESULTS_H
#define ADCORE_ANALYSIS_READONLYRESULTS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>

namespace llvm {
class Function;
} // namespace llvm

namespace adcore {

/// Whether the program only reads what \p Getter returns: each call of it
/// (in the functions of its module, the whole program at link time) gives
/// the pointer, through address arithmetic and, at -O0, local variables,
/// only to functions that read through it, and through the pointers they
/// read from that memory, without storing into it, keeping it or
/// returning it (4 calls deep); functions whose derivatives are made at
/// link time (\p MadeHere: some file asks for one; not the caller's
/// static, inline or weak functions). Then the shadow of the pointer may
/// be null: the arguments it is given as go to \p Given (bit i of a
/// callee: its argument i), whose derivatives guard their accesses through
/// them (support/NullShadowGuards.h). A call in a function no derivative
/// is made of (\p Differentiated false: `main`, an init function) may also
/// read through the pointer itself and store numbers there.
bool onlyReadThroughResult(
    const llvm::Function &Getter,
    llvm::function_ref<bool(const llvm::Function &)> MadeHere,
    llvm::function_ref<bool(const llvm::Function &)> Differentiated,
    llvm::DenseMap<const llvm::Function *, uint64_t> &Given);

} // namespace adcore

#endif // ADCORE_ANALYSIS_READONLYRESULTS_H
