//===- IntegerCopies.cpp - Floating-point data copied as integers --------===//
//
// At -O1 and above InstCombine turns small memcpy/memmove calls (a struct
// assignment, std::swap, std::sort's moves) into an integer load and
// integer stores of the same bits. When the type analysis says the bits are
// floating-point data (doubles, floats, or several of them), the loaded
// integer is given a floating-point *view* (double, <2 x float>, <2 x
// double>, ...): its adjoint lives in a slot of that type, a store of it
// moves the destination's adjoint into that slot, and the load adds the
// slot into the source's adjoint, as for a floating-point load and store;
// a bitcast of it to a floating-point type (store-to-load forwarding) adds
// its adjoint to the slot. Integers with other uses (arithmetic on the
// bits) are not covered.
//
//===----------------------------------------------------------------------===//

#include "support/NullShadowGuards.h"
#include "support/ShadowAlignment.h"
#include "ReverseEmitter.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace adcore {

Type *ReverseEmitter::floatViewOf(LoadInst &LI) {
  auto *IT = dyn_cast<IntegerType>(LI.getType());
  const Value *Ptr = PrimalOf.lookup(LI.getPointerOperand());
  if (!IT || !Ptr || LI.use_empty())
    return nullptr;
  // The source's or a destination's layout says what the bytes are.
  SmallVector<const Value *, 4> Places{Ptr};
  unsigned Bits = IT->getBitWidth();
  // Floats read out of the loaded bits (store-to-load forwarding): a
  // bitcast of all of them, or of a trunc of them, maybe shifted right.
  SmallVector<std::pair<BitCastInst *, unsigned>, 4> Reads; // cast, bit
  auto ReadsOf = [&](Value *V, unsigned Shift) {
    for (User *U : V->users()) {
      auto *BC = dyn_cast<BitCastInst>(U);
      if (!BC || !BC->getType()->isFloatingPointTy())
        return false;
      Reads.push_back({BC, Shift});
    }
    return true;
  };
  auto TruncsOf = [&](Value *V, unsigned Shift) {
    for (User *U : V->users())
      if (!isa<TruncInst>(U) || !ReadsOf(U, Shift))
        return false;
    return true;
  };
  for (User *U : LI.users()) {
    if (isa<BitCastInst>(U)) {
      if (!U->getType()->isFPOrFPVectorTy())
        return nullptr;
      continue; // the whole value: handled as the view itself
    }
    if (isa<TruncInst>(U)) {
      if (!ReadsOf(U, 0))
        return nullptr;
      continue;
    }
    if (auto *BO = dyn_cast<BinaryOperator>(U)) {
      auto *Amount = dyn_cast<ConstantInt>(BO->getOperand(1));
      if (BO->getOpcode() != Instruction::LShr || BO->getOperand(0) != &LI ||
          !Amount || !TruncsOf(BO, unsigned(Amount->getZExtValue())))
        return nullptr;
      continue;
    }
    auto *SI = dyn_cast<StoreInst>(U);
    if (!SI || SI->getValueOperand() != &LI)
      return nullptr;
    if (const Value *P = PrimalOf.lookup(SI->getPointerOperand()))
      Places.push_back(P);
  }
  // Every element of the copied bytes must be of one floating-point kind.
  auto ViewAt = [&](const Value *P) -> Kind {
    Kind K = Types->memoryKind(P);
    if (K != Kind::Double && K != Kind::Float)
      return Kind::Unknown;
    unsigned EltBits = K == Kind::Double ? 64 : 32;
    if (Bits % EltBits)
      return Kind::Unknown;
    for (unsigned E = 1; E < Bits / EltBits; ++E)
      if (Types->memoryKind(P, int64_t(E) * EltBits / 8) != K)
        return Kind::Unknown;
    return K;
  };
  Kind K = Kind::Unknown;
  for (const Value *P : Places)
    if ((K = ViewAt(P)) != Kind::Unknown)
      break;
  // Integers and floats side by side, a struct's `int type; float radius;`
  // copied as one i64 (an implicit copy assignment): a view whose integer
  // lanes move no adjoint, where the bits are only moved.
  if (K == Kind::Unknown && Reads.empty() &&
      all_of(LI.users(), [](const User *U) { return isa<StoreInst>(U); }))
    for (Kind Float : {Kind::Float, Kind::Double})
      for (const Value *P : Places)
        if (uint64_t Lanes = mixedLanes(P, Bits, Float)) {
          ViewLanes[&LI] = Lanes;
          Type *Elt = Float == Kind::Double ? Type::getDoubleTy(LI.getContext())
                                            : Type::getFloatTy(LI.getContext());
          return FixedVectorType::get(Elt, Bits / (Float == Kind::Double ? 64
                                                                         : 32));
        }
  // Without a layout, the access type clang gave the copy (the TBAA of a
  // lambda's captured double that std::function's manager copies as an
  // i64 out of its untyped storage), when no store of it says otherwise.
  if (K == Kind::Unknown && Reads.empty()) {
    Kind Says = kindOfTBAA(LI);
    unsigned SaysBits = Says == Kind::Double  ? 64
                        : Says == Kind::Float ? 32
                                              : 0;
    if (SaysBits == Bits && all_of(LI.users(), [&](const User *U) {
          auto *SI = dyn_cast<StoreInst>(U);
          Kind StoreSays = SI ? kindOfTBAA(*SI) : Kind::Unknown;
          return StoreSays == Kind::Unknown || StoreSays == Says;
        }))
      K = Says;
  }
  // Without a layout, the floats read out of the bits say what they are.
  if (K == Kind::Unknown && !Reads.empty()) {
    Type *First = Reads.front().first->getType();
    if (all_of(Reads, [&](auto &R) { return R.first->getType() == First; }) &&
        (First->isFloatTy() || First->isDoubleTy()))
      K = First->isFloatTy() ? Kind::Float : Kind::Double;
  }
  if (K == Kind::Unknown)
    return nullptr;
  unsigned EltBits = K == Kind::Double ? 64 : 32;
  if (Bits % EltBits)
    return nullptr;
  unsigned N = Bits / EltBits;
  for (auto &[Cast, Shift] : Reads)
    if (Shift % EltBits || Cast->getType()->getPrimitiveSizeInBits() != EltBits)
      return nullptr;
  for (auto &[Cast, Shift] : Reads)
    ViewElement[Cast] = {&LI, Shift / EltBits};
  Type *Elt = K == Kind::Double ? Type::getDoubleTy(LI.getContext())
                                : Type::getFloatTy(LI.getContext());
  return N == 1 ? Elt : FixedVectorType::get(Elt, N);
}

uint64_t ReverseEmitter::mixedLanes(const Value *P, unsigned Bits, Kind K) {
  unsigned EltBytes = K == Kind::Double ? 8 : 4;
  unsigned N = Bits / 8 / EltBytes;
  if (Bits % (8 * EltBytes) || N < 2 || N > 64)
    return 0;
  const MemoryLayout &L = Types->layout(P);
  // (An array's elements at every offset: not a struct's fields.)
  if (L.empty() || L.count(-1))
    return 0;
  uint64_t Lanes = 0;
  for (unsigned E = 0; E < N; ++E) {
    int64_t Begin = int64_t(E) * EltBytes, End = Begin + EltBytes;
    Kind First = Types->memoryKind(P, Begin);
    if (First == K) {
      Lanes |= uint64_t(1) << E;
      continue;
    }
    // An integer lane: integers only in its bytes (an `int` and its
    // padding), nothing a float or a pointer.
    if (First != Kind::Integer)
      return 0;
    for (auto It = L.upper_bound(Begin); It != L.end() && It->first < End;
         ++It)
      if (It->second != Kind::Integer)
        return 0;
  }
  // (Some bytes before the copy or inside it typed otherwise: a float
  // that starts off the lanes' grid.)
  for (auto It = L.lower_bound(0); It != L.end() && It->first < Bits / 8;
       ++It)
    if (It->first % EltBytes && It->second != Kind::Integer)
      return 0;
  return Lanes == (uint64_t(1) << N) - 1 ? 0 : Lanes;
}

/// What the element type of the address computation \p Ptr indexes says of
/// the \p Bits bits accessed there: Double or Float for a floating-point
/// element of that width, Integer for an integer of that width, else
/// Unknown (a byte offset, no address arithmetic).
static Kind kindOfIndexing(const Value *Ptr, unsigned Bits) {
  const auto *GEP = dyn_cast<GEPOperator>(Ptr);
  if (!GEP)
    return Kind::Unknown;
  Type *T = GEP->getResultElementType();
  if (T->isDoubleTy() && Bits == 64)
    return Kind::Double;
  if (T->isFloatTy() && Bits == 32)
    return Kind::Float;
  if (T->isIntegerTy(Bits))
    return Kind::Integer;
  return Kind::Unknown;
}

bool ReverseEmitter::movesUntypedBits(const StoreInst &SI) {
  auto *LI = dyn_cast<LoadInst>(const_cast<Value *>(SI.getValueOperand()));
  if (!LI || FloatView.count(LI) || !LI->getType()->isIntegerTy() ||
      (LI->getType()->getIntegerBitWidth() != 32 &&
       LI->getType()->getIntegerBitWidth() != 64) ||
      !shadowOrNull(LI->getPointerOperand()))
    return false;
  const auto *PL = dyn_cast_or_null<LoadInst>(PrimalOf.lookup(LI));
  const auto *PS = dyn_cast_or_null<StoreInst>(PrimalOf.lookup(&SI));
  if (!PL || !PS || Types->kindOf(PL) != Kind::Unknown)
    return false;
  // (A TBAA access type names what the bits are: an integer, a pointer.)
  if (LI->getMetadata(LLVMContext::MD_tbaa) ||
      SI.getMetadata(LLVMContext::MD_tbaa))
    return false;
  // (Strict aliasing is a flag of the file: a helper whose only accesses
  // are the untyped copy has no TBAA of its own (`move(void *r, ...)`, its
  // pointer read by the caller), yet its file has.)
  if (!PrimalHasTBAA)
    PrimalHasTBAA = any_of(*PL->getModule(), [](const Function &F) {
      return any_of(instructions(F), [](const Instruction &I) {
        return I.getMetadata(LLVMContext::MD_tbaa) != nullptr;
      });
    });
  if (Types->memoryKind(PL->getPointerOperand()) != Kind::Unknown ||
      Types->memoryKind(PS->getPointerOperand()) != Kind::Unknown)
    return false;
  if (*PrimalHasTBAA)
    return true;
  // Without TBAA (-fno-strict-aliasing) every integer access is untyped:
  // the address arithmetic says what the bits are, an index into doubles
  // (`(double *)c->r + to`) or into integers of their width (a swap of
  // two ints in an array of them).
  unsigned Bits = LI->getType()->getIntegerBitWidth();
  Kind From = kindOfIndexing(PL->getPointerOperand(), Bits);
  Kind To = kindOfIndexing(PS->getPointerOperand(), Bits);
  if (From == Kind::Double || From == Kind::Float || To == Kind::Double ||
      To == Kind::Float)
    return true;
  if (From == Kind::Integer || To == Kind::Integer)
    return false;
  // A byte offset (or none) into the memory a pointer read from a field
  // points to (`(char *)c->u.v + 8 * to`, `memcpy(c->r, (char *)c->r + 24,
  // 8)`, or such a pointer passed by the callers: `move(c->r, to, from)`):
  // what the callers read and write through the same field says what the
  // bits are. Where they say nothing of it, or more than one kind (the
  // doubles written through a second field that points to the same array),
  // the adjoint of the copy would be lost without a word. (Integers or
  // pointers by every caller: bits without a derivative.)
  for (const Value *P : {PL->getPointerOperand(), PS->getPointerOperand()})
    if (std::optional<Kind> Say = fieldPointeeEvidence(P);
        Say && *Say != Kind::Integer && *Say != Kind::Pointer)
      return true;
  return false;
}

Value *ReverseEmitter::viewSlot(Value *V) {
  Type *T = FloatView.lookup(V);
  auto [It, Inserted] = slots().insert({V, nullptr});
  if (Inserted) {
    IRBuilder<> EB(RevEntry, RevEntry->begin());
    It->second = EB.CreateAlloca(T, nullptr, V->getName() + ".adjoint");
    EB.SetInsertPoint(RevEntry->getTerminator());
    EB.CreateStore(ConstantFP::getNegativeZero(T), It->second);
  }
  return It->second;
}

void ReverseEmitter::loadAdjointOfView(LoadInst &LI, Value *ShadowPtr,
                                       bool Guarded) {
  Type *T = FloatView.lookup(&LI);
  Value *Slot = viewSlot(&LI);
  Value *D = RB.CreateLoad(T, Slot);
  RB.CreateStore(ConstantFP::getNegativeZero(T), Slot);
  // (From memory other threads copy too, in a parallel region: each
  // element added atomically by the runtime, runtime/lib/shared_copies.c.)
  if (sharedCopySource(PrimalOf.lookup(LI.getPointerOperand()))) {
    Type *E = T->getScalarType();
    Module &M = *Rev.getParent();
    FunctionCallee Add = M.getOrInsertFunction(
        E->isDoubleTy() ? "adcc_shared_add_f64" : "adcc_shared_add_f32",
        RB.getVoidTy(), RB.getPtrTy(), E);
    auto *VT = dyn_cast<FixedVectorType>(T);
    uint64_t Lanes = ViewLanes.lookup(&LI);
    for (unsigned K = 0, N = VT ? VT->getNumElements() : 1; K < N; ++K)
      if (!Lanes || Lanes >> K & 1)
        RB.CreateCall(Add, {RB.CreateConstGEP1_64(E, ShadowPtr, K),
                          VT ? RB.CreateExtractElement(D, K) : D});
    return;
  }
  const DataLayout &DL = Rev.getParent()->getDataLayout();
  const Align A = shadowAlign(DL, T, LI.getAlign());
  Value *From = ShadowPtr, *To = ShadowPtr;
  if (Guarded) {
    From = guardedReadAddress(RB, ShadowPtr, T, A);
    To = guardedWriteAddress(RB, ShadowPtr, T, A);
  }
  // (A view with integer lanes: its float lanes one by one.)
  if (uint64_t Lanes = ViewLanes.lookup(&LI)) {
    Type *E = T->getScalarType();
    Align EA = commonAlignment(A, DL.getTypeStoreSize(E));
    for (unsigned K = 0; K < cast<FixedVectorType>(T)->getNumElements(); ++K)
      if (Lanes >> K & 1) {
        Value *Old = RB.CreateAlignedLoad(
            E, RB.CreateConstGEP1_64(E, From, K), EA);
        RB.CreateAlignedStore(RB.CreateFAdd(Old, RB.CreateExtractElement(D, K)),
                              RB.CreateConstGEP1_64(E, To, K), EA);
      }
    return;
  }
  Value *Old = RB.CreateAlignedLoad(T, From, A);
  RB.CreateAlignedStore(RB.CreateFAdd(Old, D), To, A);
}

void ReverseEmitter::castAdjointToView(Value *V, Value *D) {
  Type *T = FloatView.lookup(V);
  Value *Slot = viewSlot(V);
  RB.CreateStore(RB.CreateFAdd(RB.CreateLoad(T, Slot), RB.CreateBitCast(D, T)),
                 Slot);
}

void ReverseEmitter::elementAdjointToView(BitCastInst &Cast, Value *D) {
  auto [V, Index] = ViewElement.lookup(&Cast);
  Type *T = FloatView.lookup(V);
  Value *Slot = viewSlot(V);
  Value *Old = RB.CreateLoad(T, Slot);
  Value *New;
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    Value *E = RB.CreateExtractElement(Old, Index);
    New = RB.CreateInsertElement(Old, RB.CreateFAdd(E, D), Index);
  } else {
    New = RB.CreateFAdd(Old, D);
  }
  RB.CreateStore(New, Slot);
}

void ReverseEmitter::storeAdjointOfView(StoreInst &SI, Value *ShadowPtr,
                                        bool Guarded) {
  Value *V = SI.getValueOperand();
  Type *T = FloatView.lookup(V);
  const Align A =
      shadowAlign(Rev.getParent()->getDataLayout(), T, SI.getAlign());
  Value *From = ShadowPtr, *To = ShadowPtr;
  if (Guarded) {
    From = guardedReadAddress(RB, ShadowPtr, T, A);
    To = guardedWriteAddress(RB, ShadowPtr, T, A);
  }
  Value *Moved;
  if (uint64_t Lanes = ViewLanes.lookup(V)) {
    // (A view with integer lanes: only its float lanes move; the
    // integers' shadow bytes stay as they are.)
    Type *E = T->getScalarType();
    Align EA = commonAlignment(A, Rev.getParent()->getDataLayout()
                                      .getTypeStoreSize(E));
    Moved = ConstantFP::getNegativeZero(T);
    for (unsigned K = 0; K < cast<FixedVectorType>(T)->getNumElements(); ++K)
      if (Lanes >> K & 1) {
        Value *Lane = RB.CreateAlignedLoad(
            E, RB.CreateConstGEP1_64(E, From, K), EA);
        RB.CreateAlignedStore(Constant::getNullValue(E),
                              RB.CreateConstGEP1_64(E, To, K), EA);
        Moved = RB.CreateInsertElement(Moved, Lane, K);
      }
  } else {
    Moved = RB.CreateAlignedLoad(T, From, A);
    RB.CreateAlignedStore(Constant::getNullValue(T), To, A);
  }
  Value *Slot = viewSlot(V);
  RB.CreateStore(RB.CreateFAdd(RB.CreateLoad(T, Slot), Moved), Slot);
}

} // namespace adcore
