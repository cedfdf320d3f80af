//===- DeclaredTypes.cpp - Kinds from the types a program declares -------===//
//
// The type analysis starts from what the source declares: the allocated
// type of a local variable, the element type of a struct GEP, the struct a
// TBAA tag names as a pointer's pointee. Each is listed field by field
// (floats, doubles, pointers, and the wider integers of structs) at its
// byte offsets and joined into the memory the pointer points to.
//
//===----------------------------------------------------------------------===//

#include "TypeAnalysis.h"
#include "adcore/IntegerUnions.h"

#include "SourceTypes.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace adcore {

bool declaredFields(const Module *M, const DataLayout &DL, Type *T,
                    int64_t At, SmallVectorImpl<std::pair<int64_t, Kind>> &Out,
                    bool InStruct) {
  if (Out.size() > 256)
    return false;
  if (T->isFloatTy() || T->isDoubleTy() || T->isPointerTy()) {
    Out.push_back({At, kindOfType(T)});
    return true;
  }
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    int64_t Size = int64_t(DL.getTypeAllocSize(AT->getElementType()));
    for (uint64_t I = 0; I < AT->getNumElements(); ++I)
      if (!declaredFields(M, DL, AT->getElementType(), At + int64_t(I) * Size,
                          Out, InStruct))
        return false;
    return true;
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    // A std::string (C++11 ABI): its pointer, its length, and a union of
    // a character buffer and a capacity that holds no floating-point
    // number (the library's strings carry no derivatives,
    // InactiveFunctions.h).
    StringRef Name = ST->hasName() ? ST->getName() : "";
    if ((Name == "class.std::__cxx11::basic_string" ||
         Name.starts_with("class.std::__cxx11::basic_string.")) &&
        DL.getTypeAllocSize(ST) == 32) {
      Out.push_back({At, Kind::Pointer});
      Out.push_back({At + 8, Kind::Integer});
      return true;
    }
    // A union that holds integers only, by what the frontend saw
    // (IntegerUnions.h): integers in every byte (its bytes are read and
    // written one by one too: Box2D's contact features swapped), no
    // derivative; in every word where it is large.
    if (M && isIntegerUnion(*M, ST)) {
      uint64_t Size = DL.getTypeAllocSize(ST), Step = Size <= 32 ? 1 : 4;
      for (uint64_t Byte = 0; Byte == 0 || Byte + Step <= Size; Byte += Step)
        Out.push_back({At + int64_t(Byte), Kind::Integer});
      return true;
    }
    // (Not a union, whose IR type names its largest member only; but a
    // std::optional<T>'s storage, a union of T and an empty byte, is T.)
    if (ST->isOpaque() ||
        (ST->hasName() && ST->getName().starts_with("union.") &&
         !(ST->getName().starts_with("union.std::_Optional_payload_base<") &&
           ST->getName().contains(">::_Storage"))))
      return false;
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      if (!declaredFields(M, DL, ST->getElementType(I),
                          At + int64_t(SL->getElementOffset(I)), Out,
                          /*InStruct=*/true))
        return false;
    return true;
  }
  // A struct's integer field (not a byte: character buffers hold anything)
  // holds an integer, as isDeclaredIntegerField says for its GEPs.
  if (T->isIntegerTy() && T->getIntegerBitWidth() >= 16 && InStruct)
    Out.push_back({At, Kind::Integer});
  return true; // other integers: what their uses say
}

void TypeAnalysis::seedFromAllocatedType(const Value *Ptr,
                                         const AllocaInst &AI) {
  // (A variable-length array of T: only what holds for every element.)
  seedFromDeclaredType(Ptr, AI.getAllocatedType(), !AI.isArrayAllocation());
}

void TypeAnalysis::seedFromDeclaredType(const Value *Ptr, Type *T,
                                        bool WithFields) {
  // An array of doubles or floats (of any rank): every element.
  Type *E = T;
  while (auto *AT = dyn_cast<ArrayType>(E))
    E = AT->getElementType();
  if (E != T && (E->isFloatTy() || E->isDoubleTy())) {
    joinMemory(Ptr, 0, kindOfType(E));
    joinMemory(Ptr, -1, kindOfType(E));
    return;
  }
  if (!WithFields)
    return;
  SmallVector<std::pair<int64_t, Kind>, 8> Fields;
  if (declaredFields(F.getParent(), F.getDataLayout(), T, 0, Fields))
    for (auto [Offset, K] : Fields)
      joinMemory(Ptr, Offset, K);
  // An array of structs: elements of the struct's size.
  if (E != T && isa<StructType>(E))
    joinStride(Ptr, F.getDataLayout().getTypeAllocSize(E));
}

bool TypeAnalysis::seedStructElements(const Value *Ptr, StructType *ST) {
  SmallVector<std::pair<int64_t, Kind>, 8> Fields;
  if (!declaredFields(F.getParent(), F.getDataLayout(), ST, 0, Fields))
    return false;
  bool Changed = joinStride(Ptr, F.getDataLayout().getTypeAllocSize(ST));
  for (auto [Offset, K] : Fields)
    Changed |= joinMemory(Ptr, Offset, K);
  return Changed;
}

void TypeAnalysis::seedFromStructGEP(const GEPOperator &GEP) {
  // `gep %struct.S, ptr %p, ...` (how Clang addresses a struct's fields
  // and the elements of an array of structs at -O0): %p points to an S.
  auto *ST = dyn_cast<StructType>(GEP.getSourceElementType());
  if (!ST || !seedStructElements(GEP.getPointerOperand(), ST))
    return;
  // One index: the GEP steps from one S to another.
  if (GEP.getNumIndices() == 1)
    seedStructElements(&GEP, ST);
}

} // namespace adcore
