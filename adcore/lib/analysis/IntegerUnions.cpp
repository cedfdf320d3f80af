//===- IntegerUnions.cpp - Unions that hold only integers ----------------===//
//
// See adcore/IntegerUnions.h.
//
//===----------------------------------------------------------------------===//

#include "adcore/IntegerUnions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

constexpr const char *IntegerUnionsMetadata = "adcc.integer.unions";

/// \p Name without the `.N` suffixes that make IR type names unique.
StringRef baseName(StringRef Name) {
  for (;;) {
    auto [Head, Tail] = Name.rsplit('.');
    if (Head.empty() || Tail.empty() || Head == Name ||
        !all_of(Tail, isDigit) || Head == "union")
      return Name;
    Name = Head;
  }
}

} // namespace

void attachIntegerUnions(Module &M, const IntegerUnionTable &Table) {
  if (Table.empty())
    return;
  LLVMContext &C = M.getContext();
  NamedMDNode *N = M.getOrInsertNamedMetadata(IntegerUnionsMetadata);
  for (const auto &[Name, IntegersOnly] : Table)
    N->addOperand(MDNode::get(
        C, {MDString::get(C, Name),
            ConstantAsMetadata::get(
                ConstantInt::get(Type::getInt1Ty(C), IntegersOnly))}));
}

bool isIntegerUnion(const Module &M, const StructType *ST) {
  if (!ST || !ST->hasName() || !ST->getName().starts_with("union."))
    return false;
  const NamedMDNode *N = M.getNamedMetadata(IntegerUnionsMetadata);
  if (!N)
    return false;
  StringRef Name = baseName(ST->getName());
  bool Said = false;
  for (const MDNode *E : N->operands()) {
    auto *S = E->getNumOperands() == 2 ? dyn_cast<MDString>(E->getOperand(0))
                                       : nullptr;
    auto *B = S ? mdconst::dyn_extract<ConstantInt>(E->getOperand(1)) : nullptr;
    if (!B || S->getString() != Name)
      continue;
    if (B->isZero())
      return false;
    Said = true;
  }
  return Said;
}

} // namespace adcore
