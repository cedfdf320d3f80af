//===- ForwardLanes.cpp - Batched tangents in SIMD lanes -----------------===//
//
// At width N a shadow of a floating-point scalar is an [N x T] array, one
// element per direction (the lanes). Where the loop vectorizer cannot take
// the code (straight-line code, outer loops, innermost loops with a
// recurrence that is not a reduction or with calls), a tangent of
// arithmetic is computed in one <N x T> vector: t(a) + t(b) is one vector
// addition, t(a) b + a t(b) two multiplications by splats and an addition,
// where lane by lane they would be N of each (the SLP vectorizer finds
// few of them again: the lanes read and write memory of their own).
// Inside a loop the vectorizer can take, the lanes stay scalars: it then
// computes VF iterations of each lane at once, and vector operations in the
// loop would keep it from doing so (a batched stencil was 1.5-2x slower).
// It does not take loops of a few iterations known at compile time (a 4x4
// matrix product's rows) nor loops that read or write floating-point memory
// at addresses loaded in the loop (a skinning loop over the bones a vertex
// names): there the lanes are vectors as in straight-line code (the batched
// HT pose and skinning: their tangents were scalar lanes, 8 times the
// primal's arithmetic).
// Where the loop vectorizer does not run (-fno-vectorize, as Enzyme's
// benchmarks build; -O0 and -O1), nothing would vectorize the lanes of
// those loops either: there they are vectors too, unless the loop carries
// a floating-point value across iterations (a sum). A vector phi of the
// lanes made x86's code generator split the sum's arithmetic into scalars
// and shuffle the phi's lanes out and back in every iteration: batched
// `sumsq`, `dot` and `rosenbrock` took 1.1-4x longer than with scalar lanes;
// the batched stencil and matrix product, whose loops carry nothing, time
// the same either way on x86 (their lanes are loaded from and stored to W
// separate shadow arrays, which packing into vectors costs about what the
// vector arithmetic saves); loops doing more arithmetic per element gain.
// The array stays the shadow's type (of phis, loads, stores, calls); the
// vector and the array convert into each other, conversions InstCombine
// removes between two vector operations.
//
//===----------------------------------------------------------------------===//

#include "ForwardEmitter.h"
#include "rules/PowerRule.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/IVDescriptors.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

/// Below this known trip count the loop vectorizer leaves a loop alone
/// unless it needs no scalar iterations (LLVM's
/// -vectorizer-min-trip-count); a loop of so few iterations gains little
/// from it either way, and the lanes gain from vectors.
constexpr unsigned TinyTripCount = 16;

/// Whether a floating-point access of \p L through \p Ptr is at an address
/// the vectorizer can compute for consecutive iterations: invariant in
/// \p L or an affine function of its induction. An address computed from a
/// value loaded in the loop (an index read from an array) needs a gather.
bool affineAddress(Value *Ptr, Loop &L, ScalarEvolution &SE) {
  const SCEV *S = SE.getSCEV(Ptr);
  if (SE.isLoopInvariant(S, &L))
    return true;
  const auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  return AR && AR->getLoop() == &L && AR->isAffine();
}

/// Whether the loop vectorizer may take \p L: innermost, its
/// floating-point phis reductions or values of earlier iterations (u[i - 1]
/// kept from the iteration before), no calls but intrinsics, more than a
/// few iterations, floating-point memory at affine addresses.
bool mayVectorize(Loop &L, DominatorTree &DT, ScalarEvolution &SE) {
  if (!L.isInnermost())
    return false;
  // (The recurrence analyses need a preheader and one latch: a loop
  // entered from several blocks, as at -O0 or after a `continue`, has
  // none; they crashed on it.)
  if (!L.getLoopPreheader() || !L.getLoopLatch())
    return false;
  if (unsigned Trips = SE.getSmallConstantTripCount(&L);
      Trips && Trips < TinyTripCount)
    return false;
  for (PHINode &Phi : L.getHeader()->phis()) {
    if (!Phi.getType()->isFloatingPointTy())
      continue;
    RecurrenceDescriptor Reduction;
    if (!RecurrenceDescriptor::isReductionPHI(&Phi, &L, Reduction) &&
        !RecurrenceDescriptor::isFixedOrderRecurrence(&Phi, &L, &DT))
      return false;
  }
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (isa<CallBase>(I) && !isa<IntrinsicInst>(I))
        return false;
      Value *Ptr = getLoadStorePointerOperand(&I);
      if (Ptr && getLoadStoreType(&I)->isFPOrFPVectorTy() &&
          !affineAddress(Ptr, L, SE))
        return false;
    }
  return true;
}

/// Whether \p L carries a floating-point value from one iteration to the
/// next (a sum, a value of the iteration before).
bool carriesFloatingPoint(const Loop &L) {
  return any_of(L.getHeader()->phis(), [](const PHINode &Phi) {
    return Phi.getType()->isFloatingPointTy();
  });
}

} // namespace

SmallVector<const BasicBlock *, 16> vectorLaneBlocks(Function &F,
                                                     bool LoopVectorizer) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  AssumptionCache AC(F);
  TargetLibraryInfoImpl TLII(F.getParent()->getTargetTriple());
  TargetLibraryInfo TLI(TLII);
  ScalarEvolution SE(F, TLI, AC, DT, LI);
  SmallVector<const BasicBlock *, 16> Blocks;
  for (BasicBlock &BB : F) {
    Loop *L = LI.getLoopFor(&BB);
    if (!L || !mayVectorize(*L, DT, SE) ||
        (!LoopVectorizer && !carriesFloatingPoint(*L)))
      Blocks.push_back(&BB);
  }
  return Blocks;
}

Value *ForwardEmitter::packLanes(Value *Shadow) {
  Type *T = cast<ArrayType>(Shadow->getType())->getElementType();
  Value *V = PoisonValue::get(FixedVectorType::get(T, Width));
  for (unsigned L = 0; L < Width; ++L)
    V = B.CreateInsertElement(V, B.CreateExtractValue(Shadow, L), L);
  return V;
}

Value *ForwardEmitter::unpackLanes(Value *Vec) {
  Type *T = cast<VectorType>(Vec->getType())->getElementType();
  Value *R = PoisonValue::get(ArrayType::get(T, Width));
  for (unsigned L = 0; L < Width; ++L)
    R = B.CreateInsertValue(R, B.CreateExtractElement(Vec, L), L);
  return R;
}

Value *ForwardEmitter::vectorTangent(BinaryOperator &I, Value *TA, Value *TB) {
  Value *A = I.getOperand(0), *Bv = I.getOperand(1);
  // (A sum with one tangent is that tangent, as it is.)
  bool Sum = I.getOpcode() == Instruction::FAdd ||
             I.getOpcode() == Instruction::FSub;
  if (Sum && !TB)
    return TA;
  if (I.getOpcode() == Instruction::FAdd && !TA)
    return TB;
  Value *VA = TA ? packLanes(TA) : nullptr, *VB = TB ? packLanes(TB) : nullptr;
  auto Splat = [&](Value *V) { return B.CreateVectorSplat(Width, V); };
  Value *T = nullptr;
  switch (I.getOpcode()) {
  case Instruction::FAdd:
    T = B.CreateFAdd(VA, VB);
    break;
  case Instruction::FSub:
    T = VA ? B.CreateFSub(VA, VB) : B.CreateFNeg(VB);
    break;
  case Instruction::FMul: {
    if (std::optional<PowerRule> Power = powerRule(A, Bv))
      if (Value *TX = tangentOrNull(Power->X)) {
        T = B.CreateFMul(Splat(powerScale(*Power)), packLanes(TX));
        break;
      }
    Value *X = VA ? B.CreateFMul(VA, Splat(Bv)) : nullptr;
    Value *Y = VB ? B.CreateFMul(Splat(A), VB) : nullptr;
    T = X && Y ? B.CreateFAdd(X, Y) : X ? X : Y;
    break;
  }
  case Instruction::FDiv: {
    Value *R = isa<Constant>(Bv)
                   ? nullptr
                   : B.CreateFDiv(ConstantFP::get(Bv->getType(), 1.0), Bv);
    Value *N = VA;
    if (VB) {
      Value *Q = B.CreateFMul(Splat(&I), VB);
      N = VA ? B.CreateFSub(VA, Q) : B.CreateFNeg(Q);
    }
    T = R ? B.CreateFMul(N, Splat(R)) : B.CreateFDiv(N, Splat(Bv));
    break;
  }
  default:
    return nullptr;
  }
  return unpackLanes(T);
}

} // namespace adcore
