//===- ShadowlessStores.h - Where a lost derivative would go -*- C++ -*-===//
//
// A value with a derivative stored into memory that has no shadow loses
// its derivative: an error. Its message names the memory as the user knows
// it, and the fix: an argument the request passed without a shadow
// (`enzyme_const`), a global variable, or other memory.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SHADOWLESSSTORES_H
#define ADCORE_SHADOWLESSSTORES_H

#include <string>

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace adcore {

class SynthesisContext;

/// The error for a store of a value with a derivative into the object
/// \p PrimalObj (an underlying object of the primal \p Primal; null when
/// unknown), in \p Mode ("forward" or "reverse").
std::string shadowlessStoreMessage(const SynthesisContext &Ctx,
                                   const llvm::Function &Primal,
                                   const llvm::Value *PrimalObj);

} // namespace adcore

#endif // ADCORE_SHADOWLESSSTORES_H
