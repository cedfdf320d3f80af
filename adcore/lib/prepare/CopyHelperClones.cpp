//===- CopyHelperClones.cpp - A byte-copy helper per call site -----------===//
//
// At -O0 a helper that copies `void *` bytes for its callers stays a call:
//
//   int reduce_copy(void *d, const void *s, int n, int size) {
//     memcpy(d, s, (size_t)n * size);
//     return 0;
//   }
//
// called with arrays of doubles and with arrays of ints (miniMD's MPI
// stubs' MPI_Allreduce, its mmd_grow_alloc). Nothing in the helper says
// what the bytes are; its callers do, each for its own call, but the
// helper is shared (and external: other files may call it too), so the
// type analysis asks none of them. Each call of such a helper in a
// function being differentiated calls a copy of it of its own instead
// (internal, cloned unchanged): the copy's only caller then types its
// pointers (CallerTypes.cpp: the declared type of the variable passed, the
// pointers read from memory with their TBAA types), and its derivative
// moves the adjoints of the doubles; a call given ints keeps a copy whose
// bytes are integers.
//
// Only helpers Clang compiled `optnone` (-O0; from -O1 on the inliner
// types them in their callers) whose memory copy of a run-time length
// goes from or to a pointer parameter.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace adcore {
namespace {

/// The argument \p V is, directly or through its local slot (-O0).
const Argument *parameterOf(const Value *V) {
  V = V->stripPointerCasts();
  if (auto *LI = dyn_cast<LoadInst>(V))
    if (auto *Slot = dyn_cast<AllocaInst>(LI->getPointerOperand())) {
      const Value *Stored = nullptr;
      for (const User *U : Slot->users())
        if (auto *SI = dyn_cast<StoreInst>(U);
            SI && SI->getPointerOperand() == Slot) {
          if (Stored)
            return nullptr;
          Stored = SI->getValueOperand();
        }
      V = Stored;
    }
  return dyn_cast_or_null<Argument>(V);
}

/// Whether \p F is a byte-copy helper that its callers may type.
bool isCopyHelper(const Function &F) {
  if (F.isDeclaration() || !F.hasOptNone() || F.isVarArg() ||
      F.getName().ends_with(".percall"))
    return false;
  for (const Instruction &I : instructions(F))
    if (auto *MT = dyn_cast<MemTransferInst>(&I);
        MT && !isa<ConstantInt>(MT->getLength()) &&
        (parameterOf(MT->getRawDest()) || parameterOf(MT->getRawSource())))
      return true;
  return false;
}

} // namespace

bool cloneCopyHelpersPerCall(Function &F) {
  SmallVector<CallInst *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && Callee != &F && isCopyHelper(*Callee))
        Calls.push_back(Call);
  for (CallInst *Call : Calls) {
    Function *Callee = Call->getCalledFunction();
    ValueToValueMapTy Map;
    Function *Copy = CloneFunction(Callee, Map);
    Copy->setName(Callee->getName() + ".percall");
    Copy->setLinkage(GlobalValue::InternalLinkage);
    Copy->setVisibility(GlobalValue::DefaultVisibility);
    Copy->setComdat(nullptr);
    Copy->setDSOLocal(true);
    Call->setCalledFunction(Copy);
  }
  return !Calls.empty();
}

} // namespace adcore
