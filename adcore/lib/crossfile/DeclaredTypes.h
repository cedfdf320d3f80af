//===- crossfile/DeclaredTypes.h - Struct types kept for link time -*- C++ -*-//
//
// See DeclaredTypes.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_CROSSFILE_DECLAREDTYPES_H
#define ADCORE_CROSSFILE_DECLAREDTYPES_H

#include "llvm/IR/PassManager.h"

namespace adcore {

/// The named metadata that keeps the declared struct types.
inline constexpr const char *DeclaredTypesMetadata = "adcc.declared.types";

/// Keeps the module's named struct types (of the file's classes and
/// structs, not templates) in named metadata, so that the IR carried for
/// derivatives made at link time has them.
struct KeepDeclaredTypesPass
    : public llvm::PassInfoMixin<KeepDeclaredTypesPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace adcore

#endif // ADCORE_CROSSFILE_DECLAREDTYPES_H
