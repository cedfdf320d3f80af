//===- MemoryFunctions.cpp - Allocation and deallocation -----------------===//

#include "adcore/MemoryFunctions.h"

#include "llvm/IR/Function.h"

using namespace llvm;

namespace adcore {
namespace {

struct MemoryFunctionRow {
  const char *Name;
  MemoryFunctionKind Kind;
};

// Itanium-mangled operator new/delete overloads (sized, aligned, nothrow).
constexpr MemoryFunctionRow MemoryFunctionTable[] = {
    {"malloc", MemoryFunctionKind::Malloc},
    {"calloc", MemoryFunctionKind::Calloc},
    {"realloc", MemoryFunctionKind::Realloc},
    {"aligned_alloc", MemoryFunctionKind::AlignedAlloc},
    {"memalign", MemoryFunctionKind::AlignedAlloc},
    {"valloc", MemoryFunctionKind::Malloc},
    {"free", MemoryFunctionKind::Free},
    {"_Znwm", MemoryFunctionKind::Malloc},
    {"_Znam", MemoryFunctionKind::Malloc},
    {"_ZnwmRKSt9nothrow_t", MemoryFunctionKind::Malloc},
    {"_ZnamRKSt9nothrow_t", MemoryFunctionKind::Malloc},
    {"_ZnwmSt11align_val_t", MemoryFunctionKind::Malloc},
    {"_ZnamSt11align_val_t", MemoryFunctionKind::Malloc},
    {"_ZdlPv", MemoryFunctionKind::Free},
    {"_ZdaPv", MemoryFunctionKind::Free},
    {"_ZdlPvm", MemoryFunctionKind::Free},
    {"_ZdaPvm", MemoryFunctionKind::Free},
    {"_ZdlPvSt11align_val_t", MemoryFunctionKind::Free},
    {"_ZdaPvSt11align_val_t", MemoryFunctionKind::Free},
    {"_ZdlPvmSt11align_val_t", MemoryFunctionKind::Free},
    {"_ZdaPvmSt11align_val_t", MemoryFunctionKind::Free},
    {"adcc_tape_push", MemoryFunctionKind::TapePush},
    {"adcc_tape_pop", MemoryFunctionKind::TapePop},
    {"adcc_tape_push_shadow", MemoryFunctionKind::TapePush},
    {"adcc_tape_pop_shadow", MemoryFunctionKind::TapePop},
    {"adcc_adjoint_copy_f64", MemoryFunctionKind::AdjointCopy},
    {"adcc_adjoint_copy_f32", MemoryFunctionKind::AdjointCopy},
    {"adcc_adjoint_copy_strided_f64", MemoryFunctionKind::AdjointCopy},
    {"adcc_adjoint_copy_strided_f32", MemoryFunctionKind::AdjointCopy},
};

} // namespace

MemoryFunctionKind classifyMemoryFunction(const Function &F) {
  if (!F.isDeclaration())
    return MemoryFunctionKind::None;
  StringRef Name = F.getName();
  for (const MemoryFunctionRow &Row : MemoryFunctionTable)
    if (Name == Row.Name)
      return Row.Kind;
  return MemoryFunctionKind::None;
}

} // namespace adcore
