//===- PointeeMarks.cpp - Types a simplified copy's inlined callees said ===//
//
// Inlining a callee into a simplified copy (prepare/SimplifiedCopies.h)
// loses its name, whose C++ parameter types (`double const*`) the type
// analysis reads; the copy keeps them as PointeeMetadata marks (on its
// pointers, and per parameter on the function), which seed the analysis
// here as a parameter's declared type would.
//
//===----------------------------------------------------------------------===//

#include "analysis/TypeAnalysis.h"
#include "support/IRMarks.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace adcore {

/// The kind a PointeeMetadata node's last operand names.
static Kind markedKind(const MDNode &N) {
  auto *S = dyn_cast<MDString>(N.getOperand(N.getNumOperands() - 1));
  if (!S)
    return Kind::Unknown;
  return S->getString() == "double"  ? Kind::Double
         : S->getString() == "float" ? Kind::Float
                                     : Kind::Unknown;
}

void TypeAnalysis::seedFromPointeeMarks() {
  auto Seed = [&](const Value *P, Kind K) {
    if (K == Kind::Unknown || !P->getType()->isPointerTy())
      return;
    joinMemory(P, 0, K);
    joinMemory(P, -1, K);
  };
  for (Instruction &I : instructions(F))
    if (MDNode *N = I.getMetadata(PointeeMetadata))
      Seed(&I, markedKind(*N));
  if (MDNode *N = F.getMetadata(PointeeMetadata))
    for (const MDOperand &Op : N->operands()) {
      auto *Entry = dyn_cast<MDNode>(Op);
      if (!Entry || Entry->getNumOperands() != 2)
        continue;
      auto *ArgNo = mdconst::dyn_extract<ConstantInt>(Entry->getOperand(0));
      if (ArgNo && ArgNo->getZExtValue() < F.arg_size())
        Seed(F.getArg(ArgNo->getZExtValue()), markedKind(*Entry));
    }
}

/// The name the PointeeMetadata mark on \p P says it points to: an
/// instruction's own mark, an argument's on its function; empty if none.
static StringRef markedName(const Value *P) {
  auto Last = [](const MDNode &N) {
    auto *S = dyn_cast<MDString>(N.getOperand(N.getNumOperands() - 1));
    return S ? S->getString() : StringRef();
  };
  if (const auto *I = dyn_cast<Instruction>(P))
    if (MDNode *N = I->getMetadata(PointeeMetadata))
      return Last(*N);
  const auto *A = dyn_cast<Argument>(P);
  MDNode *N = A ? A->getParent()->getMetadata(PointeeMetadata) : nullptr;
  if (!N)
    return "";
  for (const MDOperand &Op : N->operands()) {
    auto *Entry = dyn_cast<MDNode>(Op);
    if (!Entry || Entry->getNumOperands() != 2)
      continue;
    auto *ArgNo = mdconst::dyn_extract<ConstantInt>(Entry->getOperand(0));
    if (ArgNo && ArgNo->getZExtValue() == A->getArgNo())
      return Last(*Entry);
  }
  return "";
}

Kind markedPointeeKind(const Value *P) {
  StringRef Name = markedName(P);
  return Name == "double"  ? Kind::Double
         : Name == "float" ? Kind::Float
                           : Kind::Unknown;
}

StructType *markedPointeeStruct(const Value *P) {
  StringRef Name = markedName(P);
  if (Name.empty() || Name == "double" || Name == "float")
    return nullptr;
  return StructType::getTypeByName(P->getContext(), Name);
}

} // namespace adcore
