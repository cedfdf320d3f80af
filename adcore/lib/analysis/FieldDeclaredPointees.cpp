//===- FieldDeclaredPointees.cpp - Pointers read from typed fields --------===//
//
// A pointer loaded from (or stored to) a struct's field through Clang's
// struct GEP (`getelementptr %struct.A, ptr %a, i32 0, i32 1`: every field
// access at -O0) points to what the field's declared type says, as the
// frontend recorded it (adcore/DeclaredPointees.h): the -O0 counterpart
// of the pointer TBAA tag an optimized access carries.
//
//===----------------------------------------------------------------------===//

#include "TypeAnalysis.h"

#include "adcore/DeclaredPointees.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace adcore {
namespace {

Kind kindOfDeclared(DeclaredPointee K) {
  switch (K) {
  case DeclaredPointee::Integer:
    return Kind::Integer;
  case DeclaredPointee::Pointer:
    return Kind::Pointer;
  case DeclaredPointee::Float:
    return Kind::Float;
  case DeclaredPointee::Double:
    return Kind::Double;
  case DeclaredPointee::Unknown:
  case DeclaredPointee::Size: // (pseudo entries only)
  case DeclaredPointee::Bytes:
    break;
  }
  return Kind::Unknown;
}

} // namespace

/// The struct whose field the struct GEP \p Address addresses, the
/// innermost one its indices step into, and the field's byte offset in
/// it; nullopt where the last index does not name a pointer field of a
/// struct (an element of an array field: `double *p[4]` is not recorded).
std::optional<std::pair<StructType *, uint64_t>>
addressedStructField(const Value *Address, const DataLayout &DL) {
  auto *GEP = dyn_cast<GEPOperator>(Address);
  if (!GEP || GEP->getNumIndices() < 2 ||
      !isa<StructType>(GEP->getSourceElementType()))
    return std::nullopt;
  Type *T = GEP->getSourceElementType();
  StructType *Innermost = nullptr;
  uint64_t Offset = 0;
  for (auto It = GEP->idx_begin() + 1; It != GEP->idx_end(); ++It) {
    auto *C = dyn_cast<ConstantInt>(It->get());
    if (!C)
      return std::nullopt;
    if (auto *ST = dyn_cast<StructType>(T)) {
      unsigned Field = unsigned(C->getZExtValue());
      if (ST->isOpaque() || Field >= ST->getNumElements())
        return std::nullopt;
      Innermost = ST;
      Offset = DL.getStructLayout(ST)->getElementOffset(Field);
      T = ST->getElementType(Field);
      continue;
    }
    Innermost = nullptr;
    if (auto *AT = dyn_cast<ArrayType>(T))
      T = AT->getElementType();
    else
      return std::nullopt;
  }
  if (!Innermost || !T->isPointerTy())
    return std::nullopt;
  return std::make_pair(Innermost, Offset);
}

std::optional<std::pair<StructType *, uint64_t>>
addressedArrayField(const Value *Address, const DataLayout &DL) {
  auto *GEP = dyn_cast<GEPOperator>(Address);
  if (!GEP || GEP->getNumIndices() < 2 ||
      !isa<StructType>(GEP->getSourceElementType()))
    return std::nullopt;
  Type *T = GEP->getSourceElementType();
  StructType *Innermost = nullptr;
  uint64_t Offset = 0;
  for (auto It = GEP->idx_begin() + 1; It != GEP->idx_end(); ++It) {
    auto *C = dyn_cast<ConstantInt>(It->get());
    auto *ST = dyn_cast<StructType>(T);
    if (!C || !ST || ST->isOpaque() || C->getZExtValue() >= ST->getNumElements())
      return std::nullopt;
    unsigned Field = unsigned(C->getZExtValue());
    Innermost = ST;
    Offset = DL.getStructLayout(ST)->getElementOffset(Field);
    T = ST->getElementType(Field);
  }
  if (!isa<ArrayType>(T))
    return std::nullopt;
  while (auto *AT = dyn_cast<ArrayType>(T))
    T = AT->getElementType();
  if (!Innermost || !T->isPointerTy())
    return std::nullopt;
  return std::make_pair(Innermost, Offset);
}

Kind TypeAnalysis::declaredFieldPointee(const Value *Address) {
  auto Field = addressedStructField(Address, F.getDataLayout());
  if (!Field)
    return Kind::Unknown;
  auto [It, New] = DeclaredFieldPointees.try_emplace(*Field, Kind::Unknown);
  if (New)
    It->second = kindOfDeclared(
        declaredPointee(*F.getParent(), Field->first, Field->second));
  return It->second;
}

} // namespace adcore
