//===- MirroredFunctions.cpp - Functions repeated on shadows -------------===//

#include "MirroredFunctions.h"

#include "support/NullShadowGuards.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {
namespace {

struct MirroredFunction {
  const char *Name; // mangled
  bool Step;        // reads links and returns a node, changing nothing
};

// One row per function: libstdc++'s out-of-line node functions.
constexpr MirroredFunction MirroredFunctionTable[] = {
    // std::map / std::set: iterator steps, insertion, erasure
    {"_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base", true},
    {"_ZSt18_Rb_tree_incrementPKSt18_Rb_tree_node_base", true},
    {"_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base", true},
    {"_ZSt18_Rb_tree_decrementPKSt18_Rb_tree_node_base", true},
    {"_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_",
     false},
    {"_ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_", false},
    // std::list
    {"_ZNSt8__detail15_List_node_base7_M_hookEPS0_", false},
    {"_ZNSt8__detail15_List_node_base9_M_unhookEv", false},
    {"_ZNSt8__detail15_List_node_base11_M_transferEPS0_S1_", false},
    {"_ZNSt8__detail15_List_node_base10_M_reverseEv", false},
    {"_ZNSt8__detail15_List_node_base4swapERS0_S1_", false},
};

const MirroredFunction *findMirrored(const Function &F) {
  if (!F.isDeclaration())
    return nullptr;
  StringRef Name = F.getName();
  for (const MirroredFunction &Row : MirroredFunctionTable)
    if (Name == Row.Name)
      return &Row;
  return nullptr;
}

} // namespace

bool isShadowMirroredFunction(const Function &F) {
  return findMirrored(F) != nullptr;
}

bool isMirroredStep(const Function &F) {
  const MirroredFunction *Row = findMirrored(F);
  return Row && Row->Step;
}

Value *emitNullableMirroredStep(IRBuilder<> &B, CallBase &Call, Value *Shadow,
                                unsigned ScratchLane) {
  // (Selects, no new blocks: the reverse sweep mirrors the augmented
  // sweep's blocks. The step is pure: taking it on the primal again
  // changes nothing.)
  Value *Primal = Call.getArgOperand(0);
  Value *NoLinks = B.CreateIsNull(strippedNullShadow(B, Shadow));
  Value *Arg = B.CreateSelect(NoLinks, Primal, Shadow);
  CallInst *Step = B.CreateCall(Call.getFunctionType(),
                                Call.getCalledOperand(), {Arg});
  Value *Kept = B.CreateSelect(
      NoLinks, Constant::getNullValue(Call.getType()), Step);
  return nullShadowOrScratch(B, Kept, &Call, ScratchLane);
}

std::string checkMirroredCall(const CallBase &Call,
                              function_ref<bool(Value *)> HasShadow,
                              bool &Any) {
  Any = false;
  int Missing = -1;
  for (auto [K, A] : enumerate(Call.args())) {
    if (!A->getType()->isPointerTy())
      continue;
    bool Has = HasShadow(A.get());
    Any |= Has;
    if (!Has && !isa<ConstantPointerNull>(A) && Missing < 0)
      Missing = int(K);
  }
  StringRef Name = Call.getCalledFunction()->getName();
  if (!Any)
    return "";
  if (Missing >= 0)
    return ("a call of '" + Name + "' whose argument " + Twine(Missing + 1) +
            " points to memory without derivatives while others point to "
            "memory with them")
        .str();
  if (isa<InvokeInst>(Call))
    return ("a call that may throw of '" + Name + "'").str();
  return "";
}

} // namespace adcore
