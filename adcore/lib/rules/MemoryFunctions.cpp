//===- MemoryFunctions.cpp - Allocation and deallocation -----------------===//

#include "adcore/MemoryFunctions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

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
    // (Reverse mode's shadows of heap blocks, differentiated again: plain
    // malloc blocks of zeros.)
    {"adcc_shadow_alloc", MemoryFunctionKind::Malloc},
    {"adcc_shadow_free", MemoryFunctionKind::Free},
    {"adcc_tape_push", MemoryFunctionKind::TapePush},
    {"adcc_tape_pop", MemoryFunctionKind::TapePop},
    {"adcc_tape_push_shadow", MemoryFunctionKind::TapePush},
    {"adcc_tape_pop_shadow", MemoryFunctionKind::TapePop},
    {"adcc_adjoint_copy_f64", MemoryFunctionKind::AdjointCopy},
    {"adcc_adjoint_copy_f32", MemoryFunctionKind::AdjointCopy},
    {"adcc_adjoint_copy_strided_f64", MemoryFunctionKind::AdjointCopy},
    {"adcc_adjoint_copy_strided_f32", MemoryFunctionKind::AdjointCopy},
    // (The same from shared memory in a parallel region, atomically.)
    {"adcc_adjoint_copy_shared_f64", MemoryFunctionKind::AdjointCopy},
    {"adcc_adjoint_copy_shared_f32", MemoryFunctionKind::AdjointCopy},
    {"adcc_adjoint_copy_strided_shared_f64", MemoryFunctionKind::AdjointCopy},
    {"adcc_adjoint_copy_strided_shared_f32", MemoryFunctionKind::AdjointCopy},
    // (Linear in the memory it copies as the others: forward mode over a
    // reverse sweep does the same on the tangents.)
    {"adcc_shadow_copy_strided_ptr", MemoryFunctionKind::AdjointCopy},
};

/// The marks of a registered allocator and of its deallocator (function
/// attributes, and the deallocator as metadata of the allocator).
constexpr StringRef AllocAttr = "adcc-allocation-like";
constexpr StringRef FreeArgsAttr = "adcc-deallocation-args";
constexpr StringRef FreeAttr = "adcc-deallocation-like";
constexpr StringRef FreeMD = "adcc.deallocator";

unsigned intAttribute(const Function &F, StringRef Name) {
  unsigned N = 0;
  (void)F.getFnAttribute(Name).getValueAsString().getAsInteger(10, N);
  return N;
}

} // namespace

bool parseDeallocationArgs(StringRef Spec, SmallVectorImpl<int> &Args) {
  SmallVector<StringRef, 4> Parts;
  Spec.split(Parts, ',');
  unsigned Blocks = 0;
  for (StringRef P : Parts) {
    int N;
    if (P.trim().getAsInteger(10, N) || N < -1)
      return false;
    Blocks += N == -1;
    Args.push_back(N);
  }
  return Blocks == 1;
}

void markAllocationLike(Function &Alloc, unsigned SizeArg,
                        ArrayRef<int> FreeArgs, Function &Free) {
  Alloc.addFnAttr(AllocAttr, utostr(SizeArg));
  SmallVector<std::string, 4> Parts;
  for (int N : FreeArgs)
    Parts.push_back(itostr(N));
  Alloc.addFnAttr(FreeArgsAttr, join(Parts, ","));
  Alloc.setMetadata(FreeMD, MDNode::get(Alloc.getContext(),
                                        {ValueAsMetadata::get(&Free)}));
  unsigned Block = find(FreeArgs, -1) - FreeArgs.begin();
  Free.addFnAttr(FreeAttr, utostr(Block));
}

unsigned allocationSizeArg(const Function &F) {
  return intAttribute(F, AllocAttr);
}

unsigned freedPointerArg(const Function &F) {
  return F.hasFnAttribute(FreeAttr) ? intAttribute(F, FreeAttr) : 0;
}

Deallocation deallocationOf(const CallBase &Alloc, Value *Block,
                            function_ref<Value *(Value *)> Map) {
  Deallocation D;
  const Function &F = *Alloc.getCalledFunction();
  if (MDNode *MD = F.getMetadata(FreeMD))
    D.Callee = dyn_cast<Function>(
        cast<ValueAsMetadata>(MD->getOperand(0))->getValue());
  SmallVector<int, 4> Args;
  parseDeallocationArgs(F.getFnAttribute(FreeArgsAttr).getValueAsString(),
                        Args);
  for (int N : Args)
    D.Args.push_back(N < 0 ? Block : Map(Alloc.getArgOperand(N)));
  return D;
}

MemoryFunctionKind classifyMemoryFunction(const Function &F) {
  if (F.hasFnAttribute(AllocAttr))
    return MemoryFunctionKind::AllocationLike;
  if (F.hasFnAttribute(FreeAttr))
    return MemoryFunctionKind::DeallocationLike;
  if (!F.isDeclaration())
    return MemoryFunctionKind::None;
  StringRef Name = F.getName();
  for (const MemoryFunctionRow &Row : MemoryFunctionTable)
    if (Name == Row.Name)
      return Row.Kind;
  return MemoryFunctionKind::None;
}

FunctionCallee shadowBlockAllocator(const Function &F) {
  if (!F.isDeclaration() ||
      (F.getName() != "malloc" && F.getName() != "calloc") ||
      !F.getReturnType()->isPointerTy() || F.arg_size() == 0 ||
      !F.getArg(0)->getType()->isIntegerTy())
    return FunctionCallee();
  Module &M = *const_cast<Module *>(F.getParent());
  Type *Size = F.getArg(0)->getType();
  FunctionCallee Alloc = M.getOrInsertFunction(
      "adcc_shadow_alloc", FunctionType::get(F.getReturnType(), {Size}, false));
  // (An allocator of zeroed blocks to LLVM, as calloc is: loads of a
  // fresh shadow fold to zero, stores of zero into it go away.)
  if (auto *Fn = dyn_cast<Function>(Alloc.getCallee());
      Fn && !Fn->hasFnAttribute(Attribute::AllocKind)) {
    LLVMContext &C = M.getContext();
    Fn->addRetAttr(Attribute::NoAlias);
    Fn->addFnAttr(Attribute::getWithAllocKind(
        C, AllocFnKind::Alloc | AllocFnKind::Zeroed));
    Fn->addFnAttr(Attribute::getWithAllocSizeArgs(C, 0, std::nullopt));
    Fn->addFnAttr("alloc-family", "adcc_shadow");
  }
  return Alloc;
}

FunctionCallee shadowBlockDeallocator(Module &M) {
  LLVMContext &C = M.getContext();
  FunctionCallee Free = M.getOrInsertFunction(
      "adcc_shadow_free",
      FunctionType::get(Type::getVoidTy(C), {PointerType::get(C, 0)}, false));
  if (auto *Fn = dyn_cast<Function>(Free.getCallee());
      Fn && !Fn->hasFnAttribute(Attribute::AllocKind)) {
    Fn->addFnAttr(Attribute::getWithAllocKind(C, AllocFnKind::Free));
    Fn->addFnAttr("alloc-family", "adcc_shadow");
    Fn->addParamAttr(0, Attribute::AllocatedPointer);
  }
  return Free;
}

} // namespace adcore
