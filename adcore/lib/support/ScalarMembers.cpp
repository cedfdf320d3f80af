//===- ScalarMembers.cpp - Members of plain-data types --------------------===//

#include "ScalarMembers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"

using namespace llvm;

namespace adcore {

bool isPlainData(Type *T) {
  if (T->isIntegerTy() || T->isPointerTy() || T->isFloatTy() ||
      T->isDoubleTy())
    return true;
  if (auto *S = dyn_cast<StructType>(T))
    return all_of(S->elements(), isPlainData);
  if (auto *A = dyn_cast<ArrayType>(T))
    return isPlainData(A->getElementType());
  return false;
}

void forEachScalarMember(Type *T, uint64_t At, const DataLayout &DL,
                         function_ref<void(uint64_t, Type *)> Visit) {
  if (auto *S = dyn_cast<StructType>(T)) {
    const StructLayout *L = DL.getStructLayout(S);
    for (unsigned I = 0; I < S->getNumElements(); ++I)
      forEachScalarMember(S->getElementType(I), At + L->getElementOffset(I),
                          DL, Visit);
  } else if (auto *A = dyn_cast<ArrayType>(T)) {
    uint64_t Size = DL.getTypeAllocSize(A->getElementType());
    for (uint64_t I = 0; I < A->getNumElements(); ++I)
      forEachScalarMember(A->getElementType(), At + I * Size, DL, Visit);
  } else {
    Visit(At, T);
  }
}

void floatMembers(Type *T, uint64_t At, const DataLayout &DL,
                  SmallVectorImpl<std::pair<uint64_t, Type *>> &Out) {
  forEachScalarMember(T, At, DL, [&](uint64_t Offset, Type *M) {
    if (M->isFloatingPointTy())
      Out.push_back({Offset, M});
  });
}

void pointerOffsets(Type *T, uint64_t At, const DataLayout &DL,
                    SmallVectorImpl<uint32_t> &Out) {
  forEachScalarMember(T, At, DL, [&](uint64_t Offset, Type *M) {
    if (M->isPointerTy())
      Out.push_back(Offset);
  });
}

} // namespace adcore
