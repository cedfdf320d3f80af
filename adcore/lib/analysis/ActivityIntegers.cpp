//===- ActivityIntegers.cpp - Integers that carry derivatives ------------===//
//
// Integers carry shadows only as the bits of floats and pointers: data
// moved as integers (what SROA and InstCombine make of memcpy), addresses
// offset or aligned in integers on their way back to a pointer, and float
// bits changed on their way back to a float (which the emitters then
// differentiate or report). This file decides which integers are those,
// and which local variables hold addresses as integers.
//
//===----------------------------------------------------------------------===//

#include "ActivityAnalysis.h"
#include "ActivityIntegers.h"
#include "TypeAnalysis.h"
#include "rules/InactiveFunctions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

/// A right shift by a constant: how one float is taken out of the integer
/// that holds several (`{float, float}` copied as an i64).
bool isLaneShift(const User &U) {
  auto *BO = dyn_cast<BinaryOperator>(&U);
  return BO && BO->getOpcode() == Instruction::LShr &&
         isa<ConstantInt>(BO->getOperand(1));
}

/// A comparison, or a call of a function without derivatives (a
/// sanitizer's report): what a check does with an address computed in an
/// integer, besides turning it into a pointer.
bool isCheckOfAddress(const User &U) {
  if (isa<ICmpInst>(U))
    return true;
  const auto *Call = dyn_cast<CallBase>(&U);
  return Call && Call->getCalledFunction() &&
         isKnownInactiveFunction(*Call->getCalledFunction());
}

/// An address's bits tested (`(p & 15) == 0`, `p % 16 == 0`: alignment
/// assertions such as Eigen's), \p Depth operations deep: every value
/// computed from it ends in a compare, none goes on.
bool isAddressTest(const User &U, unsigned Depth = 3) {
  const auto *BO = dyn_cast<BinaryOperator>(&U);
  return BO && Depth > 0 && !BO->use_empty() &&
         all_of(BO->users(), [&](const User *C) {
           return isa<ICmpInst>(C) || isAddressTest(*C, Depth - 1);
         });
}

/// True when every use of \p I is integer arithmetic that ends, \p Depth
/// operations deep, in an inttoptr: an address offset or aligned in an
/// integer (Eigen's `((uintptr_t)alloca(n + 15) + 15) & ~15` at -O0), or
/// changed in a way whose shadow is not known (an error where it is used,
/// never a derivative silently dropped).
bool becomesPointer(const Instruction &I, unsigned Depth) {
  bool Moves = false;
  for (const User *U : I.users()) {
    // (Compared and checked on the way: UBSan's pointer-overflow checks.)
    if (isCheckOfAddress(*U))
      continue;
    const auto *BO = dyn_cast<BinaryOperator>(U);
    if (!isa<IntToPtrInst>(U) &&
        !(BO && Depth > 0 && becomesPointer(*BO, Depth - 1)))
      return false;
    Moves = true;
  }
  return Moves;
}

/// True when the integer \p I is read as a floating-point value again, up
/// to \p Depth integer operations later (a bitcast to a float).
bool becomesFloat(const Instruction &I, unsigned Depth) {
  return any_of(I.users(), [&](const User *U) {
    if (const auto *BC = dyn_cast<BitCastInst>(U))
      return BC->getDestTy()->isFPOrFPVectorTy();
    const auto *UI = dyn_cast<Instruction>(U);
    return UI && Depth > 0 && UI->getType()->isIntOrIntVectorTy() &&
           isa<BinaryOperator, TruncInst, ZExtInst, SExtInst, PHINode,
               SelectInst>(UI) &&
           becomesFloat(*UI, Depth - 1);
  });
}

/// True when the integer \p V is (up to \p Depth integer operations away)
/// the bits of a floating-point value: a bitcast of one (`0x5f3759df -
/// (bits(x) >> 1)`).
bool derivesFromFloatBits(const Value *V, unsigned Depth) {
  if (const auto *BC = dyn_cast<BitCastInst>(V))
    return BC->getSrcTy()->isFPOrFPVectorTy();
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth == 0 || !I->getType()->isIntOrIntVectorTy() ||
      !isa<BinaryOperator, CastInst>(I))
    return false;
  return any_of(I->operands(), [&](const Use &Op) {
    return derivesFromFloatBits(Op.get(), Depth - 1);
  });
}

} // namespace

bool isMovedInteger(const Instruction &I, unsigned Depth) {
  if (!I.getType()->isIntOrIntVectorTy() || I.use_empty())
    return false;
  // (An address: computed from a pointer, or a pointer-sized integer
  // loaded from memory that becomes a pointer again, as an Eigen block's
  // data pointer read as `load i64` at -O2.)
  const auto *LI = dyn_cast<LoadInst>(&I);
  bool Address = addressBase(&I, 4) != nullptr || (LI && loadsAddress(*LI));
  for (const User *U : I.users()) {
    if (Address && (isCheckOfAddress(*U) || isAddressTest(*U)))
      continue;
    if (isa<BinaryOperator>(U) && becomesPointer(*cast<BinaryOperator>(U), 4))
      continue;
    if (const auto *BO = dyn_cast<BinaryOperator>(U);
        BO && Depth > 0 &&
        (BO->getOpcode() == Instruction::And ||
         BO->getOpcode() == Instruction::Or ||
         BO->getOpcode() == Instruction::Xor) &&
        isMovedInteger(*BO, Depth - 1))
      continue;
    if (auto *S = dyn_cast<StoreInst>(U)) {
      if (S->getValueOperand() != &I)
        return false;
      continue;
    }
    if (isa<BitCastInst, IntToPtrInst, PHINode, SelectInst, InsertValueInst,
            InsertElementInst, ShuffleVectorInst, TruncInst>(U) ||
        isLaneShift(*U))
      continue;
    // Returned, or passed to a function of the module: the bits move on
    // (`memcpy(&u, &x, 8); return u;`), and so does their derivative.
    if (isa<ReturnInst>(U))
      continue;
    if (const auto *Call = dyn_cast<CallBase>(U);
        Call && Call->getCalledFunction() &&
        !Call->getCalledFunction()->isDeclaration() &&
        Call->hasArgument(&I))
      continue;
    return false;
  }
  return true;
}

bool readsDeclaredIntegerField(const LoadInst &LI) {
  if (!LI.getType()->isIntegerTy())
    return false;
  const DataLayout &DL = LI.getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(LI.getPointerOperandType()), 0);
  const auto *G = dyn_cast<GlobalVariable>(
      LI.getPointerOperand()->stripAndAccumulateConstantOffsets(
          DL, Offset, /*AllowNonInbounds=*/true));
  if (!G || Offset.isNegative())
    return false;
  uint64_t At = Offset.getZExtValue();
  Type *T = G->getValueType();
  while (true) {
    if (auto *ST = dyn_cast<StructType>(T)) {
      if (!ST->hasName() || ST->getName().starts_with("union.") ||
          At >= DL.getTypeAllocSize(ST))
        return false;
      const StructLayout *SL = DL.getStructLayout(ST);
      unsigned E = SL->getElementContainingOffset(At);
      At -= SL->getElementOffset(E);
      T = ST->getElementType(E);
    } else if (auto *AT = dyn_cast<ArrayType>(T)) {
      uint64_t Size = DL.getTypeAllocSize(AT->getElementType());
      if (Size == 0 || At >= Size * AT->getNumElements())
        return false;
      At %= Size;
      T = AT->getElementType();
    } else {
      break;
    }
  }
  return T->isIntegerTy() &&
         At + DL.getTypeStoreSize(LI.getType()) <= DL.getTypeStoreSize(T);
}

bool readsRotatedIntegerState(const LoadInst &LI) {
  if (!LI.getType()->isIntegerTy() || kindOfTBAA(LI) != Kind::Integer)
    return false;
  SmallVector<std::pair<const Value *, unsigned>, 8> Work{{&LI, 6}};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    auto [V, Depth] = Work.pop_back_val();
    if (!Seen.insert(V).second || Seen.size() > 32)
      continue;
    for (const User *U : V->users()) {
      if (const auto *II = dyn_cast<IntrinsicInst>(U))
        switch (II->getIntrinsicID()) {
        case Intrinsic::fshl:
        case Intrinsic::fshr:
        case Intrinsic::bswap:
        case Intrinsic::bitreverse:
          return true;
        default:
          continue;
        }
      const auto *BO = dyn_cast<BinaryOperator>(U);
      bool Bitwise = BO && (BO->getOpcode() == Instruction::Xor ||
                            BO->getOpcode() == Instruction::Or ||
                            BO->getOpcode() == Instruction::And);
      if (Depth > 0 && (Bitwise || isa<PHINode, SelectInst>(U)))
        Work.push_back({U, Depth - 1});
    }
  }
  return false;
}

const Value *addressBase(const Value *X, unsigned Depth) {
  if (const auto *P2I = dyn_cast<PtrToIntInst>(X))
    return P2I->getPointerOperand();
  const auto *BO = dyn_cast<BinaryOperator>(X);
  if (!BO || Depth == 0 || !isAddressArithmetic(*BO))
    return nullptr;
  const Value *L = addressBase(BO->getOperand(0), Depth - 1);
  const Value *R = addressBase(BO->getOperand(1), Depth - 1);
  if (L && R)
    return nullptr;
  return L ? L : R;
}

bool ActivityAnalysis::transferInteger(const Instruction &I) const {
  // Integers carry shadows only as the bits of pointers and floats.
  if (isa<PtrToIntInst>(I) || isa<BitCastInst>(I) || isa<PHINode>(I) ||
      isa<ExtractValueInst>(I) || isa<ExtractElementInst>(I))
    return anyOperandActive(I);
  // Lanes of a SIMD register moved as integers (`_mm_shuffle_epi32` of
  // doubles at -O0).
  if (isa<ShuffleVectorInst, InsertElementInst>(I))
    return anyOperandActive(I) && isMovedInteger(I);
  // The pieces of an integer holding several floats' bits.
  if (isa<TruncInst>(I) || isLaneShift(I))
    return Active.contains(I.getOperand(0)) && isMovedInteger(I);
  if (auto *BO = dyn_cast<BinaryOperator>(&I)) {
    switch (BO->getOpcode()) {
    case Instruction::Sub:
      // The distance between two pointers (`end - begin`) is a number.
      if (Active.contains(BO->getOperand(0)) &&
          Active.contains(BO->getOperand(1)))
        return false;
      [[fallthrough]];
    case Instruction::Add:
    case Instruction::And:
    case Instruction::Or:
    case Instruction::Xor: // (a sign flip on a float's bits)
      return anyOperandActive(I) && isMovedInteger(I);
    default:
      // (Other integer operations on a float's bits whose result is read
      // as a float again: active, so that differentiating them is an
      // error, not a derivative of zero. An exponent taken out as a
      // number has none.)
      return anyOperandActive(I) &&
             (becomesPointer(I, 4) ||
              (derivesFromFloatBits(BO, 4) && becomesFloat(*BO, 4)));
    }
  }
  return false;
}

bool isAddressArithmetic(const BinaryOperator &BO) {
  switch (BO.getOpcode()) {
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::And:
  case Instruction::Or:
    return true;
  default:
    return false;
  }
}

namespace {

/// True when the integer \p V is made a pointer, directly or after address
/// arithmetic.
bool becomesAddress(const Value &V) {
  SmallVector<const Value *, 8> Work{&V};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *X = Work.pop_back_val();
    if (!Seen.insert(X).second || Seen.size() > 16)
      continue;
    for (const User *U : X->users()) {
      if (isa<IntToPtrInst>(U))
        return true;
      if (const auto *BO = dyn_cast<BinaryOperator>(U);
          BO && isAddressArithmetic(*BO))
        Work.push_back(BO);
    }
  }
  return false;
}

/// The local variable or array \p LI reads from or the one \p SI writes
/// to (through GEPs, and the phis and selects of a loop that walks it: the
/// insertion sort of `std::sort` inlined from -O1 on steps a pointer down
/// the array), or null.
const AllocaInst *localOf(const Value *Ptr) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  const AllocaInst *Local = nullptr;
  for (const Value *O : Objects) {
    const auto *AI = dyn_cast<AllocaInst>(O);
    if (!AI || (Local && Local != AI))
      return nullptr;
    Local = AI;
  }
  return Local;
}

} // namespace

namespace {

/// True when \p U passes a pointer to a parameter of an internal copy
/// that moves the integers it points to as pointers, with their shadows,
/// and returns one of them as a pointer (`std::exchange`, `std::max` of an
/// initializer list of `uintptr_t` at -O0; prepare/
/// IntegerAddressArguments.cpp marks such parameters and results). (Not a
/// copy that returns none: the elements `v.push_back(u)` reaches at -O0
/// go into heap memory whose shadow adcc does not follow, and a shadow
/// for `u` made a run-time crash of the probes vector_uint and
/// unordered_map_uint instead of the located error.)
bool passedToIntegerAddressCopy(const Use &U) {
  const auto *Call = dyn_cast<CallBase>(U.getUser());
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee && Call->isArgOperand(&U) &&
         Callee->getAttributes().hasParamAttr(Call->getArgOperandNo(&U),
                                              "adcc-integer-addresses") &&
         any_of(Call->users(), [](const User *R) {
           return isa<PtrToIntInst>(R) &&
                  cast<Instruction>(R)->hasMetadata("adcc.integer.element");
         });
}

} // namespace

const Value *localFieldPointer(const LoadInst &LI) {
  if (!LI.getType()->isPointerTy())
    return nullptr;
  const DataLayout &DL = LI.getModule()->getDataLayout();
  unsigned Bits = DL.getIndexTypeSizeInBits(LI.getPointerOperandType());
  APInt Off(Bits, 0);
  const auto *AI = dyn_cast<AllocaInst>(
      LI.getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Off,
                                                                false));
  if (!AI || !AI->getAllocatedType()->isStructTy())
    return nullptr;
  const Value *Stored = nullptr;
  // (Each field reached directly or by one constant index, only loaded
  // and stored into.)
  auto Visit = [&](const Value *Field, const APInt &At) {
    for (const Use &U : Field->uses()) {
      if (isa<LoadInst>(U.getUser()) ||
          (Field == AI && isa<GetElementPtrInst>(U.getUser())))
        continue;
      const auto *SI = dyn_cast<StoreInst>(U.getUser());
      if (!SI || U.getOperandNo() != 1)
        return false;
      if (At != Off)
        continue;
      if (Stored && Stored != SI->getValueOperand())
        return false;
      Stored = SI->getValueOperand();
    }
    return true;
  };
  for (const Use &U : AI->uses()) {
    const auto *GEP = dyn_cast<GetElementPtrInst>(U.getUser());
    APInt At(Bits, 0);
    if (GEP && !GEP->accumulateConstantOffset(DL, At))
      return nullptr;
    if (GEP && !Visit(GEP, At))
      return nullptr;
  }
  if (!Visit(AI, APInt(Bits, 0)))
    return nullptr;
  return Stored && Stored->getType()->isPointerTy() ? Stored : nullptr;
}

namespace {

/// True when \p SI stores a pointer into a field of a local record that
/// is loaded and passed to a copy that moves integers as pointers (the
/// array of `std::max({a, b, c})` in its `std::initializer_list`, -O0).
bool storedForIntegerAddressCopy(const StoreInst &SI) {
  const Value *P = SI.getValueOperand();
  const auto *AI =
      dyn_cast<AllocaInst>(getUnderlyingObject(SI.getPointerOperand(), 2));
  if (!AI || !P->getType()->isPointerTy())
    return false;
  SmallVector<const Value *, 4> Fields{AI};
  for (const User *U : AI->users())
    if (isa<GetElementPtrInst>(U))
      Fields.push_back(U);
  return any_of(Fields, [&](const Value *Field) {
    return any_of(Field->users(), [&](const User *U) {
      const auto *LI = dyn_cast<LoadInst>(U);
      return LI && LI->getPointerOperand() == Field &&
             localFieldPointer(*LI) == P &&
             any_of(LI->uses(), passedToIntegerAddressCopy);
    });
  });
}

} // namespace

bool holdsAddresses(const AllocaInst &AI, unsigned Depth) {
  Type *IntPtr = AI.getModule()->getDataLayout().getIntPtrType(AI.getContext());
  SmallVector<const Value *, 8> Work{&AI};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    if (!Seen.insert(P).second || Seen.size() > 32)
      continue;
    for (const Use &Use : P->uses()) {
      const User *U = Use.getUser();
      if (isa<GetElementPtrInst, BitCastInst, PHINode, SelectInst>(U)) {
        Work.push_back(U);
        continue;
      }
      // (Read by a copy that moves its integers as pointers: the array of
      // `std::max({a, b, c})` at -O0.)
      if (passedToIntegerAddressCopy(Use))
        return true;
      if (const auto *SI = dyn_cast<StoreInst>(U);
          SI && Use.getOperandNo() == 0 && storedForIntegerAddressCopy(*SI))
        return true;
      const auto *LI = dyn_cast<LoadInst>(U);
      if (!LI || LI->getType() != IntPtr)
        continue;
      if (becomesAddress(*LI))
        return true;
      if (Depth == 0)
        continue;
      for (const User *V : LI->users())
        if (const auto *SI = dyn_cast<StoreInst>(V);
            SI && SI->getValueOperand() == LI)
          if (const AllocaInst *To = localOf(SI->getPointerOperand());
              To && To != &AI && holdsAddresses(*To, Depth - 1))
            return true;
    }
  }
  return false;
}

bool loadsAddress(const LoadInst &LI) {
  const DataLayout &DL = LI.getModule()->getDataLayout();
  if (LI.getType() != DL.getIntPtrType(LI.getContext()))
    return false;
  if (becomesAddress(LI))
    return true;
  // (Read from a local array of addresses kept as integers, or copied into
  // one: its elements compared and swapped by a sort. Until 2026-12-07 the
  // compared integers had no shadow, their stores left the shadow array
  // unsorted, and the values read through the sorted addresses got the
  // derivatives of others, without an error.)
  if (const AllocaInst *AI = localOf(LI.getPointerOperand());
      AI && holdsAddresses(*AI, 2))
    return true;
  return any_of(LI.users(), [&](const User *U) {
    const auto *SI = dyn_cast<StoreInst>(U);
    const AllocaInst *To =
        SI && SI->getValueOperand() == &LI ? localOf(SI->getPointerOperand())
                                           : nullptr;
    return To && holdsAddresses(*To, 2);
  });
}

bool isIntegerAddress(const Value &V, unsigned Depth) {
  SmallVector<std::pair<const Value *, unsigned>, 8> Work{{&V, Depth}};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    auto [X, Left] = Work.pop_back_val();
    if (!X->getType()->isIntegerTy() || !Seen.insert(X).second)
      continue;
    if (isa<PtrToIntInst>(X))
      return true;
    if (const auto *LI = dyn_cast<LoadInst>(X)) {
      if (loadsAddress(*LI))
        return true;
      continue;
    }
    if (Left == 0)
      continue;
    if (const auto *Phi = dyn_cast<PHINode>(X)) {
      for (const Value *In : Phi->incoming_values())
        Work.push_back({In, Left - 1});
    } else if (const auto *Sel = dyn_cast<SelectInst>(X)) {
      Work.push_back({Sel->getTrueValue(), Left - 1});
      Work.push_back({Sel->getFalseValue(), Left - 1});
    } else if (const auto *BO = dyn_cast<BinaryOperator>(X);
               BO && isAddressArithmetic(*BO)) {
      // (Not the distance between two addresses: a number.)
      if (BO->getOpcode() == Instruction::Sub &&
          isIntegerAddress(*BO->getOperand(1), Left - 1))
        continue;
      Work.push_back({BO->getOperand(0), Left - 1});
      Work.push_back({BO->getOperand(1), Left - 1});
    }
  }
  return false;
}

bool localHoldsAddresses(const Value *Ptr) {
  const AllocaInst *AI = Ptr ? localOf(Ptr) : nullptr;
  return AI && holdsAddresses(*AI, 2);
}

namespace {

bool localReceivesAddresses(const Value *Ptr, unsigned Depth) {
  const auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr));
  if (!AI)
    return false;
  // (Or a copy of a local that receives one: the array of
  // `std::max({a, b, c})` at -O0 holds a's, b's and c's values.)
  auto IsAddress = [&](const Value *V) {
    if (isIntegerAddress(*V))
      return true;
    const auto *LI = dyn_cast<LoadInst>(V);
    const AllocaInst *From = LI ? localOf(LI->getPointerOperand()) : nullptr;
    return Depth > 0 && From && From != AI &&
           localReceivesAddresses(From, Depth - 1);
  };
  SmallVector<const Value *, 8> Work{AI};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    if (!Seen.insert(P).second || Seen.size() > 32)
      continue;
    for (const User *U : P->users()) {
      if (isa<GetElementPtrInst>(U))
        Work.push_back(U);
      else if (const auto *SI = dyn_cast<StoreInst>(U);
               SI && SI->getPointerOperand() == P &&
               IsAddress(SI->getValueOperand()))
        return true;
    }
  }
  return false;
}

} // namespace

bool localReceivesAddresses(const Value *Ptr) {
  return localReceivesAddresses(Ptr, 1);
}

namespace {

/// True when \p U passes a pointer to a function of the module that
/// returns a reference the caller reads a pointer-sized integer through,
/// or passes on to such a function in its turn (\p Depth calls deep:
/// `std::min(std::min(a, b), c)`).
bool passedToPick(const Use &U, Type *IntPtr, unsigned Depth) {
  const auto *Call = dyn_cast<CallBase>(U.getUser());
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee || Callee->isDeclaration() || !Call->isArgOperand(&U) ||
      !Call->getType()->isPointerTy() || Depth == 0)
    return false;
  return any_of(Call->uses(), [&](const Use &R) {
    const auto *LI = dyn_cast<LoadInst>(R.getUser());
    return (LI && LI->getType() == IntPtr) ||
           passedToPick(R, IntPtr, Depth - 1);
  });
}

} // namespace

bool passesReceivedAddresses(const AllocaInst &AI) {
  Type *IntPtr = AI.getModule()->getDataLayout().getIntPtrType(AI.getContext());
  if (AI.getAllocatedType() != IntPtr)
    return false;
  // (Only to a function that returns a reference the caller reads an
  // integer through, which may be the variable's: std::min, std::max.
  // Passed on otherwise, as `v.push_back(u)` at -O0, the integers reach
  // memory whose shadow adcc does not follow: the located error stays.)
  return any_of(AI.uses(),
                [&](const Use &U) {
                  return passedToPick(U, IntPtr, 4) ||
                         passedToIntegerAddressCopy(U);
                }) &&
         localReceivesAddresses(&AI);
}

bool mayBecomePointer(const Value *Slot, unsigned Depth) {
  const auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(Slot));
  if (!AI || Depth == 0)
    return true;
  SmallVector<std::pair<const Value *, unsigned>, 16> Work;
  SmallPtrSet<const Value *, 16> Seen;
  for (const User *U : AI->users())
    if (isa<LoadInst>(U))
      Work.push_back({U, Depth});
  while (!Work.empty()) {
    auto [V, Left] = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const User *U : V->users()) {
      if (isa<IntToPtrInst>(U))
        return true;
      if (auto *S = dyn_cast<StoreInst>(U)) {
        if (S->getValueOperand() == V &&
            mayBecomePointer(S->getPointerOperand(), Left - 1))
          return true;
        continue;
      }
      if (Left > 1 && isa<BinaryOperator, PHINode, SelectInst, CastInst>(U))
        Work.push_back({U, Left - 1});
    }
  }
  return false;
}

} // namespace adcore
