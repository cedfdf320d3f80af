//===- rules/RuleWrappers.h - Rules made as module functions ---*- C++ -*-===//
//
// adcc's own rules for library calls (MPI, BLAS) are small internal
// functions made in the module that calls the library, with the
// conventions of registered rules, which call C functions of the runtime.
// The two pieces every such rule uses.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_RULES_RULEWRAPPERS_H
#define ADCORE_RULES_RULEWRAPPERS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DerivedTypes.h"

namespace llvm {
class Function;
class Module;
class Type;
class Value;
} // namespace llvm

namespace adcore {

/// The internal function \p Name of type \p FT in \p M: the one made
/// before, whose body is then already there, or a new one without a body.
llvm::Function *makeRuleWrapper(llvm::Module &M, llvm::StringRef Name,
                                llvm::FunctionType *FT);

/// The runtime's function \p Name, returning \p Ret and taking the types of
/// \p Args.
llvm::FunctionCallee runtimeFunction(llvm::Module &M, llvm::StringRef Name,
                                     llvm::Type *Ret,
                                     llvm::ArrayRef<llvm::Value *> Args);

} // namespace adcore

#endif // ADCORE_RULES_RULEWRAPPERS_H
