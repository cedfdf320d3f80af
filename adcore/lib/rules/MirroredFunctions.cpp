//===- MirroredFunctions.cpp - Functions repeated on shadows -------------===//

#include "MirroredFunctions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {
namespace {

// One mangled name per row: libstdc++'s out-of-line node functions.
constexpr const char *MirroredFunctionTable[] = {
    // std::map / std::set: iterator steps, insertion, erasure
    "_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base",
    "_ZSt18_Rb_tree_incrementPKSt18_Rb_tree_node_base",
    "_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base",
    "_ZSt18_Rb_tree_decrementPKSt18_Rb_tree_node_base",
    "_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_",
    "_ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_",
    // std::list
    "_ZNSt8__detail15_List_node_base7_M_hookEPS0_",
    "_ZNSt8__detail15_List_node_base9_M_unhookEv",
    "_ZNSt8__detail15_List_node_base11_M_transferEPS0_S1_",
    "_ZNSt8__detail15_List_node_base10_M_reverseEv",
    "_ZNSt8__detail15_List_node_base4swapERS0_S1_",
};

} // namespace

bool isShadowMirroredFunction(const Function &F) {
  if (!F.isDeclaration())
    return false;
  StringRef Name = F.getName();
  for (const char *Row : MirroredFunctionTable)
    if (Name == Row)
      return true;
  return false;
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
