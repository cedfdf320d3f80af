//===- PrivateBlocks.cpp - Memory of one kind only -----------------------===//
//
// See PrivateBlocks.h.
//
//===----------------------------------------------------------------------===//

#include "PrivateBlocks.h"
#include "support/PointerShadowMarks.h"

#include "adcore/MemoryFunctions.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace adcore {
namespace {

/// The kind of memory function \p Call calls; None for an indirect call.
MemoryFunctionKind kindOf(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  return F ? classifyMemoryFunction(*F) : MemoryFunctionKind::None;
}

/// Whether \p Call frees the block at \p Address (and does nothing else
/// with it).
bool freesBlock(const CallBase &Call, const Value &Address) {
  MemoryFunctionKind K = kindOf(Call);
  if (!isDeallocation(K))
    return false;
  unsigned Arg = freedPointerArg(*Call.getCalledFunction());
  for (unsigned I = 0, E = Call.arg_size(); I != E; ++I)
    if (Call.getArgOperand(I) == &Address && I != Arg)
      return false;
  return Arg < Call.arg_size() && Call.getArgOperand(Arg) == &Address;
}

} // namespace

bool isPrivateMemoryOf(const Value *Ptr, bool Pointers) {
  if (!Ptr)
    return false;
  if (isPrivateLocalOf(Ptr, Pointers))
    return true;
  const auto *Alloc = dyn_cast<CallBase>(getUnderlyingObject(Ptr));
  if (!Alloc)
    return false;
  MemoryFunctionKind K = kindOf(*Alloc);
  if (K != MemoryFunctionKind::Malloc && K != MemoryFunctionKind::Calloc &&
      K != MemoryFunctionKind::AlignedAlloc)
    return false;
  return holdsOneKindOnly(Alloc, Pointers, freesBlock);
}

} // namespace adcore
