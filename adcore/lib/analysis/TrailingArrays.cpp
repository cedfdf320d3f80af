//===- TrailingArrays.cpp - Arrays allocated past a struct ---------------===//
//
// See analysis/TrailingArrays.h.
//
//===----------------------------------------------------------------------===//

#include "analysis/TrailingArrays.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace adcore {

/// Whether \p T holds a floating-point number, or a union (Clang names one
/// member's type only: the others may be numbers).
static bool mayHoldFloats(const Type *T) {
  if (T->isFloatingPointTy() || T->isVectorTy())
    return true;
  if (const auto *AT = dyn_cast<ArrayType>(T))
    return mayHoldFloats(AT->getElementType());
  const auto *ST = dyn_cast<StructType>(T);
  if (!ST)
    return false;
  if (ST->isOpaque() || (ST->hasName() && ST->getName().contains("union.")))
    return true;
  return any_of(ST->elements(), [](const Type *E) { return mayHoldFloats(E); });
}

bool trailingArrayWithoutFloats(const Value *Ptr) {
  const auto *GEP = Ptr ? dyn_cast<GEPOperator>(Ptr->stripPointerCasts())
                        : nullptr;
  if (!GEP || GEP->getNumIndices() != 2)
    return false;
  const auto *ST = dyn_cast<StructType>(GEP->getSourceElementType());
  const auto *Zero = dyn_cast<ConstantInt>(GEP->getOperand(1));
  const auto *Field = dyn_cast<ConstantInt>(GEP->getOperand(2));
  if (!ST || !Zero || !Zero->isZero() || !Field ||
      Field->getZExtValue() + 1 != ST->getNumElements())
    return false;
  const auto *AT = dyn_cast<ArrayType>(ST->getElementType(Field->getZExtValue()));
  return AT && !mayHoldFloats(AT);
}

} // namespace adcore
