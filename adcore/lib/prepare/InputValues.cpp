//===- InputValues.cpp - Values read from streams have no derivative ------===//
//
// Reading a floating-point value from a C++ stream (`in >> x`, std::cin,
// std::istringstream, std::ifstream) stores a constant of the derivative
// into x. The stream functions are inactive (InactiveFunctions.cpp), so the
// store they make is not seen; each such call gets, just after it, a load
// of what it left in x, marked as without derivative, stored back into x:
// no change to the primal, and the derivative of x is reset there (a
// store of a constant) in both modes. (A read that fails before it starts
// leaves x alone; its derivative is reset all the same.)
//
//===----------------------------------------------------------------------===//

#include "support/CallSites.h"

#include "Prepare.h"
#include "support/IRMarks.h"

#include "PrimalRewrites.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace adcore {
namespace {

struct InputValueRow {
  const char *Name;
  char Kind; ///< 'f' float, 'd' double, 'e' long double
};

// The extraction operators of std::istream and std::wistream, and the
// member template they call (inlined at -O1 and above): the variable read
// into is their second argument.
constexpr InputValueRow InputValueTable[] = {
    {"_ZNSirsERf", 'f'},
    {"_ZNSirsERd", 'd'},
    {"_ZNSirsERe", 'e'},
    {"_ZNSi10_M_extractIfEERSiRT_", 'f'},
    {"_ZNSi10_M_extractIdEERSiRT_", 'd'},
    {"_ZNSi10_M_extractIeEERSiRT_", 'e'},
    {"_ZNSt13basic_istreamIwSt11char_traitsIwEErsERf", 'f'},
    {"_ZNSt13basic_istreamIwSt11char_traitsIwEErsERd", 'd'},
    {"_ZNSt13basic_istreamIwSt11char_traitsIwEErsERe", 'e'},
    {"_ZNSt13basic_istreamIwSt11char_traitsIwEE10_M_extractIfEERS2_RT_", 'f'},
    {"_ZNSt13basic_istreamIwSt11char_traitsIwEE10_M_extractIdEERS2_RT_", 'd'},
    {"_ZNSt13basic_istreamIwSt11char_traitsIwEE10_M_extractIeEERS2_RT_", 'e'},
};

/// The type of the value \p Call reads into its second argument, or null.
Type *inputValueType(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F || Call.arg_size() != 2 ||
      !Call.getArgOperand(1)->getType()->isPointerTy())
    return nullptr;
  LLVMContext &C = Call.getContext();
  for (const InputValueRow &Row : InputValueTable) {
    if (F->getName() != Row.Name)
      continue;
    if (Row.Kind == 'f')
      return Type::getFloatTy(C);
    if (Row.Kind == 'd')
      return Type::getDoubleTy(C);
    // long double: x87's 80 bits on x86, IEEE quad elsewhere (AArch64).
    return Triple(Call.getModule()->getTargetTriple()).isX86()
               ? Type::getX86_FP80Ty(C)
               : Type::getFP128Ty(C);
  }
  return nullptr;
}

bool resetInputValue(CallBase &Call) {
  Type *T = inputValueType(Call);
  if (!T)
    return false;
  Value *Dst = Call.getArgOperand(1);
  IRBuilder<> B(Call.getContext());
  positionAfterCall(B, Call);
  LoadInst *Read = B.CreateLoad(T, Dst, "input");
  Read->setMetadata(NoDerivativeMetadata, MDNode::get(Call.getContext(), {}));
  B.CreateStore(Read, Dst);
  return true;
}

} // namespace

bool resetInputValues(Function &F) {
  return rewriteEach<CallBase>(F, resetInputValue);
}

} // namespace adcore
