//===- OverlappingUpdates.cpp - Vector updates that stall the next one ----===//
//
// The reverse loop of a stencil adds into neighbouring adjoints every
// iteration (`du[k-1] += a; du[k] += b;` at k = n-1, ..., 1). The SLP
// vectorizer packs such a pair into one read-modify-write of two elements,
// `du[k-1..k] += {a, b}`, and the next iteration's packed load,
// `du[k-2..k-1]`, then overlaps the previous iteration's packed store by
// one element: the processor cannot forward a store to a load it covers
// only in part, and every iteration waits for the store to reach the cache
// (about 15 cycles; bench/mpi's heat equation spent half its gradient
// there). Splitting the update back into one load, addition and store per
// element lets every load take its value from the store of the same
// element, as the scalar code did.
//
// Only read-modify-writes of shadow memory (MemoryScopes.h: generated
// code) in a loop are split, when their address moves by less than the
// vector's size per iteration.
//
//===----------------------------------------------------------------------===//

#include "Optimize.h"
#include "support/MemoryScopes.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {
namespace {

/// The load of the update `store (fadd (load p), x), p` of \p S, and x.
LoadInst *updatedLoad(StoreInst &S, Value *&Other) {
  auto *Op = dyn_cast<BinaryOperator>(S.getValueOperand());
  if (!Op || !Op->hasOneUse() ||
      (Op->getOpcode() != Instruction::FAdd &&
       Op->getOpcode() != Instruction::FSub))
    return nullptr;
  for (unsigned K = 0; K < 2; ++K) {
    auto *L = dyn_cast<LoadInst>(Op->getOperand(K));
    if (!L || !L->isSimple() || !L->hasOneUse() ||
        L->getPointerOperand() != S.getPointerOperand() ||
        L->getParent() != S.getParent() || L->getType() != Op->getType())
      continue;
    if (K == 1 && Op->getOpcode() == Instruction::FSub)
      return nullptr; // (x - du: not an update of du)
    Other = Op->getOperand(1 - K);
    return L;
  }
  return nullptr;
}

/// Whether the address of \p S moves by less than its size per iteration
/// of its innermost loop.
bool overlapsNextIteration(StoreInst &S, const DataLayout &DL, LoopInfo &LI,
                           ScalarEvolution &SE) {
  Loop *L = LI.getLoopFor(S.getParent());
  if (!L)
    return false;
  const auto *Rec =
      dyn_cast<SCEVAddRecExpr>(SE.getSCEV(S.getPointerOperand()));
  if (!Rec || Rec->getLoop() != L)
    return false;
  const auto *Step = dyn_cast<SCEVConstant>(Rec->getStepRecurrence(SE));
  if (!Step)
    return false;
  int64_t Bytes = Step->getAPInt().getSExtValue();
  uint64_t Size = DL.getTypeStoreSize(S.getValueOperand()->getType());
  return Bytes != 0 && uint64_t(Bytes < 0 ? -Bytes : Bytes) < Size;
}

void splitUpdate(StoreInst &S, LoadInst &L, Value *Other,
                 const DataLayout &DL) {
  auto *VecTy = cast<FixedVectorType>(L.getType());
  Type *EltTy = VecTy->getElementType();
  uint64_t EltBytes = DL.getTypeStoreSize(EltTy);
  auto *Op = cast<BinaryOperator>(S.getValueOperand());
  bool LoadFirst = Op->getOperand(0) == &L;
  SmallVector<Value *, 8> Lanes;
  IRBuilder<> B(&L);
  for (unsigned E = 0; E < VecTy->getNumElements(); ++E) {
    Value *Ptr = E ? B.CreateConstInBoundsGEP1_64(B.getInt8Ty(),
                                                  L.getPointerOperand(),
                                                  E * EltBytes)
                   : L.getPointerOperand();
    LoadInst *Lane = B.CreateAlignedLoad(
        EltTy, Ptr, commonAlignment(L.getAlign(), E * EltBytes));
    Lane->copyMetadata(L);
    Lanes.push_back(Lane);
  }
  B.SetInsertPoint(&S);
  for (unsigned E = 0; E < VecTy->getNumElements(); ++E) {
    Value *X = findScalarElement(Other, E);
    if (!X)
      X = B.CreateExtractElement(Other, B.getInt32(E));
    Value *Sum = B.CreateBinOp(Op->getOpcode(), LoadFirst ? Lanes[E] : X,
                               LoadFirst ? X : Lanes[E]);
    if (auto *I = dyn_cast<Instruction>(Sum))
      I->copyIRFlags(Op);
    Value *Ptr = cast<LoadInst>(Lanes[E])->getPointerOperand();
    StoreInst *Lane = B.CreateAlignedStore(
        Sum, Ptr, commonAlignment(S.getAlign(), E * EltBytes));
    Lane->copyMetadata(S);
  }
  S.eraseFromParent();
  Op->eraseFromParent();
  L.eraseFromParent();
}

} // namespace

bool splitOverlappingUpdates(Function &F, LoopInfo &LI, ScalarEvolution &SE) {
  const DataLayout &DL = F.getDataLayout();
  SmallVector<std::tuple<StoreInst *, LoadInst *, Value *>, 8> Work;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      auto *S = dyn_cast<StoreInst>(&I);
      if (!S || !S->isSimple() ||
          !isa<FixedVectorType>(S->getValueOperand()->getType()) ||
          !S->getValueOperand()->getType()->isFPOrFPVectorTy() ||
          !hasMemoryClass(*S, MemoryClass::Shadow))
        continue;
      Value *Other = nullptr;
      LoadInst *L = updatedLoad(*S, Other);
      if (L && overlapsNextIteration(*S, DL, LI, SE))
        Work.emplace_back(S, L, Other);
    }
  for (auto &[S, L, Other] : Work)
    splitUpdate(*S, *L, Other, DL);
  return !Work.empty();
}

PreservedAnalyses OverlappingUpdatesPass::run(Function &F,
                                              FunctionAnalysisManager &AM) {
  if (!splitOverlappingUpdates(F, AM.getResult<LoopAnalysis>(F),
                               AM.getResult<ScalarEvolutionAnalysis>(F)))
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace adcore
