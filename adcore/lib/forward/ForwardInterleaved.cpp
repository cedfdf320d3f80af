//===- ForwardInterleaved.cpp - Local shadows with the lanes side by side -===//
//
// At width N a shadow alloca is N arrays, one per lane, unless the array is
// only read and written as scalars of one floating-point type T inside the
// function (a 4x4 matrix per bone, indexed by a parent read at run time):
// then its shadow is one array of N times the size whose element k holds
// the N lanes' tangents of the primal's element k side by side, and a
// load or store of the primal is one <N x T> load or store of the shadow,
// which the lanes' vector arithmetic (ForwardLanes.cpp) uses as it is.
// Lane by lane, the N loads of the lanes' arrays were N scalar loads and as
// many insertions into the vector, and the N stores as many extractions.
//
// Lane L's shadow pointer of the primal's byte offset o is the shadow's
// base + N o + L sizeof(T): the lanes stay pointers as elsewhere, and a
// GEP of the primal scales its offset by N on each lane.
//
//===----------------------------------------------------------------------===//

#include "support/MemoryScopes.h"
#include "ForwardEmitter.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/bit.h"
#include "llvm/Analysis/Utils/Local.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

static cl::opt<bool>
    InterleavedShadows("adcc-interleaved-shadows", cl::init(true), cl::Hidden,
                       cl::desc("Batched forward mode: lay the lanes' shadows "
                                "of local arrays of one floating-point type "
                                "side by side, element by element"));

namespace adcore {
namespace {

/// Whether \p V times \p Scale is a multiple of \p Size (a power of 2),
/// by the low bits of \p V known to be zero.
bool multipleOf(const Value *V, const APInt &Scale, const DataLayout &DL,
                uint64_t Size) {
  unsigned Zeros = Scale.countr_zero();
  if (V)
    Zeros += computeKnownBits(V, DL).countMinTrailingZeros();
  return Zeros >= Log2_64(Size);
}

/// Whether every constant and variable part of \p GEP's offset is a
/// multiple of \p Size bytes (a power of 2): `p + 8 i`, `p + (i << 7)`.
bool offsetInElements(const GEPOperator &GEP, const DataLayout &DL,
                      uint64_t Size) {
  unsigned Bits = DL.getIndexTypeSizeInBits(GEP.getType());
  SmallMapVector<Value *, APInt, 4> Variable;
  APInt Constant(Bits, 0);
  if (!GEP.collectOffset(DL, Bits, Variable, Constant))
    return false;
  if (!Constant.isZero() && !multipleOf(nullptr, Constant, DL, Size))
    return false;
  return all_of(Variable, [&](const auto &VS) {
    return multipleOf(VS.first, VS.second, DL, Size);
  });
}

} // namespace

Type *interleavedElementType(const Value &Root, const DataLayout &DL,
                             PlainCallFn PlainCall, unsigned Depth) {
  if (!InterleavedShadows)
    return nullptr;
  Type *T = nullptr;
  SmallVector<const Value *, 8> Work{&Root};
  SmallPtrSet<const Value *, 8> Seen;
  SmallVector<const MemSetInst *, 2> Sets;
  auto SameType = [&](Type *Ty) {
    if (!Ty || !Ty->isFloatingPointTy() || (T && T != Ty))
      return false;
    T = Ty;
    return true;
  };
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    if (!Seen.insert(P).second)
      continue;
    for (const Use &U : P->uses()) {
      const auto *I = cast<Instruction>(U.getUser());
      if (const auto *GEP = dyn_cast<GetElementPtrInst>(I)) {
        Work.push_back(GEP);
        continue;
      }
      if (const auto *LI = dyn_cast<LoadInst>(I)) {
        if (!LI->isSimple() || !SameType(LI->getType()))
          return nullptr;
        continue;
      }
      if (const auto *SI = dyn_cast<StoreInst>(I)) {
        if (!SI->isSimple() ||
            U.getOperandNo() != SI->getPointerOperandIndex() ||
            !SameType(SI->getValueOperand()->getType()))
          return nullptr;
        continue;
      }
      // (Zeroing elements: all their lanes at once.)
      if (const auto *MS = dyn_cast<MemSetInst>(I)) {
        if (MS->isVolatile() || U.getOperandNo() != 0)
          return nullptr;
        Sets.push_back(MS);
        continue;
      }
      if (const auto *II = dyn_cast<IntrinsicInst>(I))
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
          continue;
      // A function of the module whose derivative is made here, whose
      // parameter is used the same way: it gets the lanes side by side
      // (DerivativeKey::InterleavedArgs).
      if (const auto *Call = dyn_cast<CallBase>(I);
          Call && Depth > 0 && Call->isArgOperand(&U) && PlainCall(*Call)) {
        const Function *Callee = Call->getCalledFunction();
        unsigned No = Call->getArgOperandNo(&U);
        if (No < 64 &&
            SameType(interleavedElementType(*Callee->getArg(No), DL,
                                            PlainCall, Depth - 1)))
          continue;
      }
      return nullptr; // an escape, a phi, another call ...
    }
  }
  if (!T)
    return nullptr;
  uint64_t Size = DL.getTypeStoreSize(T);
  if (Size != DL.getTypeAllocSize(T) || !isPowerOf2_64(Size))
    return nullptr;
  for (const MemSetInst *MS : Sets)
    if (!multipleOf(MS->getLength(),
                    APInt(MS->getLength()->getType()->getIntegerBitWidth(), 1),
                    DL, Size))
      return nullptr;
  for (const Value *P : Seen)
    if (const auto *GEP = dyn_cast<GEPOperator>(P);
        GEP && !offsetInElements(*GEP, DL, Size))
      return nullptr;
  return T;
}

Type *interleavedElementType(const AllocaInst &AI, const DataLayout &DL,
                             PlainCallFn PlainCall) {
  if (!AI.isStaticAlloca())
    return nullptr;
  Type *T = interleavedElementType(AI, DL, PlainCall, /*Depth=*/4);
  uint64_t Bytes = DL.getTypeAllocSize(AI.getAllocatedType());
  return T && Bytes % DL.getTypeStoreSize(T) == 0 ? T : nullptr;
}

Value *ForwardEmitter::interleavedAlloca(AllocaInst &I, Type *T, bool Zero) {
  const DataLayout &DL = I.getModule()->getDataLayout();
  uint64_t Size = DL.getTypeStoreSize(T);
  uint64_t Bytes = DL.getTypeAllocSize(I.getAllocatedType()) *
                   cast<ConstantInt>(I.getArraySize())->getZExtValue() * Width;
  // (Aligned for the lanes' vectors where a power of 2 allows it.)
  uint64_t Vector = llvm::bit_floor(std::min<uint64_t>(Size * Width, 64));
  Align A = std::max(I.getAlign(), Align(Vector));
  AllocaInst *S = B.CreateAlloca(ArrayType::get(B.getInt8Ty(), Bytes),
                                 I.getAddressSpace(), nullptr,
                                 I.getName() + ".shadow");
  S->setAlignment(A);
  if (Zero)
    B.CreateMemSet(S, B.getInt8(0), Bytes, A);
  Interleaved[&I] = T;
  return forEachLane(I.getType(), [&](unsigned L) -> Value * {
    return L ? B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), S, L * Size) : S;
  });
}

Value *ForwardEmitter::interleavedGEP(GetElementPtrInst &I, Value *SP,
                                      Type *T) {
  const DataLayout &DL = I.getModule()->getDataLayout();
  Value *Offset = emitGEPOffset(&B, DL, &I, /*NoAssumptions=*/true);
  Value *Scaled =
      B.CreateMul(Offset, ConstantInt::get(Offset->getType(), Width), "",
                  /*HasNUW=*/false, /*HasNSW=*/true);
  Interleaved[&I] = T;
  return forEachLane(I.getType(), [&](unsigned L) {
    return B.CreateInBoundsGEP(B.getInt8Ty(), lane(SP, L), Scaled,
                               I.getName() + ".shadow");
  });
}

Value *ForwardEmitter::interleavedLoad(LoadInst &I, Value *SP) {
  auto *VT = FixedVectorType::get(I.getType(), Width);
  LoadInst *S = B.CreateAlignedLoad(
      VT, lane(SP, 0),
      Align(I.getModule()->getDataLayout().getTypeStoreSize(I.getType())),
      I.getName() + ".tangent");
  tagInterleavedAccess(I, *S);
  return unpackLanes(S);
}

void ForwardEmitter::interleavedStore(StoreInst &I, Value *SP, Value *TV) {
  Type *T = I.getValueOperand()->getType();
  Value *V = TV ? packLanes(TV)
                : Constant::getNullValue(FixedVectorType::get(T, Width));
  StoreInst *S = B.CreateAlignedStore(
      V, lane(SP, 0),
      Align(I.getModule()->getDataLayout().getTypeStoreSize(T)));
  tagInterleavedAccess(I, *S);
}

void ForwardEmitter::interleavedClear(MemSetInst &I, Value *SD) {
  Value *Length = I.getLength();
  Value *Bytes =
      B.CreateMul(Length, ConstantInt::get(Length->getType(), Width));
  B.CreateMemSet(lane(SD, 0), B.getInt8(0), Bytes, MaybeAlign(),
                 I.isVolatile());
}

void ForwardEmitter::tagInterleavedAccess(const Instruction &Primal,
                                          Instruction &Shadow) {
  // All lanes at once: no lane's scope (each lane's scope says it is apart
  // from the others).
  if (MDNode *TBAA = Primal.getMetadata(LLVMContext::MD_tbaa))
    Shadow.setMetadata(LLVMContext::MD_tbaa, TBAA);
  tagMemoryClass(Shadow, MemoryClass::Shadow);
}

} // namespace adcore
