//===- FloatBitsResults.cpp - Functions that return a float's bits -------===//
//
// Whether a function returns a floating-point value's bits as an integer
// (returnsFloatBits, TypeAnalysis.h), or packed beside an integer in one
// word of a struct returned by value (PackedFloatResults.h): what the type
// analysis of its body says of the values it returns.
//
//===----------------------------------------------------------------------===//

#include "PackedFloatResults.h"
#include "TypeAnalysis.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {

namespace {

/// Whether \p T is made of integers only (an integer, a vector of them, or
/// a struct or array of such): the types a float's bits travel in.
bool isIntegerCarrier(const Type *T) {
  if (T->isIntOrIntVectorTy())
    return true;
  if (const auto *ST = dyn_cast<StructType>(T))
    return ST->getNumElements() > 0 && all_of(ST->elements(), isIntegerCarrier);
  if (const auto *AT = dyn_cast<ArrayType>(T))
    return isIntegerCarrier(AT->getElementType());
  return false;
}

/// Whether the integer value \p V, or a member inserted into the aggregate
/// \p V, holds a float's bits; for an aggregate loaded from memory, whether
/// the memory holds floats there (`return b;` of a struct at -O0).
bool holdsFloatBitsSomewhere(const TypeAnalysis &Types, const Value *V,
                             const DataLayout &DL, unsigned Depth = 8) {
  if (Types.isFloatBits(V))
    return true;
  if (Depth == 0)
    return false;
  if (const auto *IV = dyn_cast<InsertValueInst>(V))
    return holdsFloatBitsSomewhere(Types, IV->getInsertedValueOperand(), DL,
                                   Depth - 1) ||
           holdsFloatBitsSomewhere(Types, IV->getAggregateOperand(), DL,
                                   Depth - 1);
  if (const auto *LI = dyn_cast<LoadInst>(V)) {
    uint64_t Size = DL.getTypeStoreSize(LI->getType());
    for (uint64_t Off = 0; Off + 4 <= Size && Off < 256; Off += 4) {
      Kind K = Types.memoryKind(LI->getPointerOperand(), Off);
      if (K == Kind::Float || K == Kind::Double)
        return true;
    }
  }
  return false;
}

} // namespace

bool returnsFloatBits(Function &F) {
  if (F.isDeclaration() || !isIntegerCarrier(F.getReturnType()))
    return false;
  TypeAnalysis Types(F);
  const DataLayout &DL = F.getDataLayout();
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      if (holdsFloatBitsSomewhere(Types, Ret->getReturnValue(), DL))
        return true;
  return false;
}

std::string floatBitsInIntegerFieldsError(StringRef Callee) {
  return ("'" + Callee +
          "' returns a floating-point value packed into an integer field of "
          "its result (a float next to an int in one 8-byte word, as the "
          "calling convention passes `struct {int n; float f; ...}`); adcc "
          "does not follow derivatives through it; return the value in a "
          "field of its own, or make the function inline")
      .str();
}

namespace {

/// Whether the integer \p V holds a float's bits, also shifted and
/// combined with other bits (`zext(bitcast f) << 32 | n`: a float and an
/// int packed into one word).
bool packsFloatBits(const TypeAnalysis &Types, const Value *V,
                    const DataLayout &DL, unsigned Depth = 6) {
  if (holdsFloatBitsSomewhere(Types, V, DL))
    return true;
  if (const auto *BC = dyn_cast<BitCastInst>(V))
    return BC->getSrcTy()->isFPOrFPVectorTy();
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth == 0 ||
      !(isa<CastInst>(I) || I->getOpcode() == Instruction::Or ||
        I->getOpcode() == Instruction::Xor ||
        I->getOpcode() == Instruction::And ||
        I->getOpcode() == Instruction::Shl ||
        I->getOpcode() == Instruction::LShr ||
        I->getOpcode() == Instruction::Add))
    return false;
  return any_of(I->operands(), [&](const Value *Op) {
    return Op->getType()->isIntOrIntVectorTy() &&
           packsFloatBits(Types, Op, DL, Depth - 1);
  });
}

} // namespace

bool returnsFloatBitsInIntegerFields(Function &F) {
  auto *ST = dyn_cast<StructType>(F.getReturnType());
  if (F.isDeclaration() || !ST || ST->isOpaque() || isIntegerCarrier(ST))
    return false;
  const DataLayout &DL = F.getDataLayout();
  const StructLayout *SL = DL.getStructLayout(ST);
  TypeAnalysis Types(F);
  // The value of field I of the returned \p V: inserted, or loaded with the
  // whole struct from memory (the return slot at -O0).
  auto FieldHoldsFloat = [&](const Value *V, unsigned I) {
    for (unsigned Depth = 0; Depth < 16; ++Depth) {
      const auto *IV = dyn_cast<InsertValueInst>(V);
      if (!IV)
        break;
      if (IV->getNumIndices() >= 1 && IV->getIndices()[0] == I)
        return packsFloatBits(Types, IV->getInsertedValueOperand(), DL);
      V = IV->getAggregateOperand();
    }
    const auto *LI = dyn_cast<LoadInst>(V);
    if (!LI)
      return false;
    uint64_t Begin = SL->getElementOffset(I);
    uint64_t End = Begin + DL.getTypeStoreSize(ST->getElementType(I));
    for (uint64_t Off = Begin; Off + 4 <= End; Off += 4) {
      Kind K = Types.memoryKind(LI->getPointerOperand(), Off);
      if (K == Kind::Float || K == Kind::Double)
        return true;
    }
    return false;
  };
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      for (unsigned I = 0; I < ST->getNumElements(); ++I)
        if (isIntegerCarrier(ST->getElementType(I)) &&
            FieldHoldsFloat(Ret->getReturnValue(), I))
          return true;
  return false;
}

namespace {

/// Whether the integer \p V packs the bits of a float \p IsActive says is
/// active, through casts, shifts and `or`s (or is an active load).
bool packsActiveFloat(const Value *V,
                      function_ref<bool(const Value *)> IsActive,
                      unsigned Depth = 6) {
  if (isa<LoadInst>(V))
    return IsActive(V);
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth == 0)
    return false;
  if (isa<BitCastInst>(I) && I->getOperand(0)->getType()->isFPOrFPVectorTy())
    return IsActive(I->getOperand(0));
  if (!(isa<ZExtInst>(I) || isa<TruncInst>(I) ||
        I->getOpcode() == Instruction::Or ||
        I->getOpcode() == Instruction::Shl ||
        I->getOpcode() == Instruction::LShr))
    return false;
  return any_of(I->operands(), [&](const Value *Op) {
    return Op->getType()->isIntegerTy() &&
           packsActiveFloat(Op, IsActive, Depth - 1);
  });
}

/// Whether the tree of \p V above holds a bitcast of a float at all.
bool packsSomeFloat(const Value *V) {
  return packsActiveFloat(V, [](const Value *) { return true; });
}

} // namespace

int packedFloatBitsArgument(const CallBase &Call,
                            function_ref<bool(const Value *)> IsActive) {
  for (const Use &U : Call.args()) {
    const Value *A = U.get();
    // (Only words packed from several values, or loaded: a whole float's
    // bits are followed, or an error of their own.)
    if (!A->getType()->isIntegerTy(64) || !packsSomeFloat(A))
      continue;
    const auto *BO = dyn_cast<BinaryOperator>(A);
    if (!isa<LoadInst>(A) && !(BO && BO->getOpcode() == Instruction::Or))
      continue;
    if (packsActiveFloat(A, IsActive))
      return int(Call.getArgOperandNo(&U));
  }
  return -1;
}

std::string packedFloatBitsArgumentError(StringRef Callee, unsigned No) {
  return ("the bits of a floating-point value with a derivative are passed "
          "to '" +
          Callee + "' packed beside other bits in one integer (argument " +
          Twine(No + 1) +
          ": a struct of a float and integers by value, in one register); "
          "adcc does not follow derivatives through it; pass the struct by "
          "pointer, or make the function inline")
      .str();
}

} // namespace adcore
