//===- OpenMPAtomics.cpp - OpenMP atomics other than sums as sections -----===//
//
// Clang lowers `#pragma omp atomic` `x *= v` (and `/=`, `x = expr op x`,
// captures of them) on a double or float to a compare-and-swap loop on the
// value's bits:
//
//   init = load atomic iN, p
//   loop: old = phi [init], [got]
//         f = bitcast old to double;  n = f * v    (n's bits: a bitcast, or
//         got, ok = cmpxchg p, old, bits(n)         a store and an integer
//         br ok, exit, loop                          load of a slot at -O0)
//
// A derivative cannot follow an update that other threads may retry in
// any order. In a program that starts OpenMP regions (and so links the
// OpenMP runtime), before a function is differentiated, the loop is
// rewritten as a critical section on a lock of adcc's, in which the
// update runs once:
//
//   __kmpc_critical(null, gtid, .adcc.atomic.lock)
//   f = load double, p;  n = f * v;  store n, p
//   __kmpc_end_critical(null, gtid, .adcc.atomic.lock)
//
// which forward mode differentiates as any section and reverse mode
// replays in the reverse of the threads' order (reverse/CriticalSections
// .cpp). So that the lock keeps the updates atomic with respect to each
// other, every floating-point `atomicrmw` of such a function takes the
// same lock; an `atomicrmw` alone is rewritten where its adjoint depends
// on the order too (an `atomic compare` maximum, an `atomic capture` of
// the value before a `+=`); `+=` and `-=` alone stay atomic adds. The
// primal computes what it computed before.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace adcore {
namespace {

/// A compare-and-swap loop of a floating-point update.
struct SwapLoop {
  AtomicCmpXchgInst *Swap = nullptr;
  LoadInst *Init = nullptr;  ///< the atomic load before the loop
  PHINode *Old = nullptr;    ///< the value the update reads (bits)
  Value *FloatOld = nullptr; ///< ... as a float (a bitcast of Old)
  Value *FloatNew = nullptr; ///< the value it writes, as a float
  BasicBlock *Exit = nullptr;
};

/// The float whose bits \p V holds: `bitcast float to iN`, or at -O0 an
/// integer load of a slot the block stored the float into just before.
Value *floatOf(Value *V) {
  if (auto *Cast = dyn_cast<BitCastInst>(V))
    return Cast->getOperand(0)->getType()->isFloatingPointTy()
               ? Cast->getOperand(0)
               : nullptr;
  auto *Load = dyn_cast<LoadInst>(V);
  if (!Load || !isa<AllocaInst>(Load->getPointerOperand()))
    return nullptr;
  for (Instruction *I = Load->getPrevNode(); I; I = I->getPrevNode())
    if (auto *SI = dyn_cast<StoreInst>(I);
        SI && SI->getPointerOperand() == Load->getPointerOperand())
      return SI->getValueOperand()->getType()->isFloatingPointTy()
                 ? SI->getValueOperand()
                 : nullptr;
  return nullptr;
}

std::optional<SwapLoop> matchSwapLoop(AtomicCmpXchgInst &CX) {
  SwapLoop L;
  L.Swap = &CX;
  BasicBlock *Body = CX.getParent();
  L.Old = dyn_cast<PHINode>(CX.getCompareOperand());
  if (!L.Old || L.Old->getParent() != Body ||
      L.Old->getNumIncomingValues() != 2)
    return std::nullopt;
  auto *Br = dyn_cast<BranchInst>(Body->getTerminator());
  if (!Br || !Br->isConditional() || Br->getSuccessor(1) != Body)
    return std::nullopt;
  L.Exit = Br->getSuccessor(0);
  if (L.Exit->getSinglePredecessor() != Body)
    return std::nullopt;
  for (unsigned K = 0; K < 2; ++K) {
    Value *In = L.Old->getIncomingValue(K);
    if (L.Old->getIncomingBlock(K) == Body) {
      auto *Got = dyn_cast<ExtractValueInst>(In);
      if (!Got || Got->getAggregateOperand() != &CX ||
          Got->getIndices()[0] != 0)
        return std::nullopt;
    } else {
      L.Init = dyn_cast<LoadInst>(In);
    }
  }
  if (!L.Init || !L.Init->isAtomic() ||
      L.Init->getPointerOperand() != CX.getPointerOperand())
    return std::nullopt;
  for (User *U : L.Old->users())
    if (auto *Cast = dyn_cast<BitCastInst>(U);
        Cast && Cast->getType()->isFloatingPointTy())
      L.FloatOld = Cast;
  L.FloatNew = floatOf(CX.getNewValOperand());
  if (!L.FloatOld || !L.FloatNew ||
      L.FloatOld->getType() != L.FloatNew->getType())
    return std::nullopt;
  // (The loop's exit is decided by the swap's success alone.)
  auto *Ok = dyn_cast<ExtractValueInst>(Br->getCondition());
  if (!Ok || Ok->getAggregateOperand() != &CX || Ok->getIndices()[0] != 1)
    return std::nullopt;
  return L;
}

/// The lock of the rewritten atomics (a kmp_critical_name: 8 x i32).
GlobalVariable *atomicLock(Module &M) {
  auto *Ty = ArrayType::get(Type::getInt32Ty(M.getContext()), 8);
  if (auto *GV = M.getGlobalVariable(".adcc.atomic.lock", true))
    return GV;
  return new GlobalVariable(M, Ty, false, GlobalValue::InternalLinkage,
                            Constant::getNullValue(Ty), ".adcc.atomic.lock");
}

/// __kmpc_critical (\p Enter) or __kmpc_end_critical on adcc's lock.
void callLock(IRBuilder<> &B, bool Enter) {
  Module &M = *B.GetInsertBlock()->getModule();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I32 = Type::getInt32Ty(C);
  Value *Null = ConstantPointerNull::get(cast<PointerType>(Ptr));
  Value *Tid =
      B.CreateCall(M.getOrInsertFunction("__kmpc_global_thread_num",
                                         FunctionType::get(I32, {Ptr}, false)),
                   {Null});
  B.CreateCall(
      M.getOrInsertFunction(
          Enter ? "__kmpc_critical" : "__kmpc_end_critical",
          FunctionType::get(Type::getVoidTy(C), {Ptr, I32, Ptr}, false)),
      {Null, Tid, atomicLock(M)});
}

void rewriteSwapLoop(const SwapLoop &L) {
  IRBuilder<> B(L.Init);
  callLock(B, true);
  Value *P = L.Swap->getPointerOperand();
  LoadInst *Old = B.CreateLoad(L.FloatOld->getType(), P, "atomic.old");
  Old->setAlignment(L.Init->getAlign());
  L.FloatOld->replaceAllUsesWith(Old);
  B.SetInsertPoint(L.Swap);
  B.CreateAlignedStore(L.FloatNew, P, L.Swap->getAlign());
  // The swap succeeds the first time: the loop runs once.
  for (User *U : make_early_inc_range(L.Swap->users())) {
    auto *EV = cast<ExtractValueInst>(U);
    EV->replaceAllUsesWith(EV->getIndices()[0] == 1
                               ? static_cast<Value *>(B.getTrue())
                               : static_cast<Value *>(L.Old));
    EV->eraseFromParent();
  }
  Value *NewBits = L.Swap->getNewValOperand();
  L.Swap->eraseFromParent();
  RecursivelyDeleteTriviallyDeadInstructions(NewBits);
  // (The phi of the bits, its float view and the atomic load: dead now.)
  cast<Instruction>(L.FloatOld)->eraseFromParent();
  L.Old->replaceAllUsesWith(L.Init);
  L.Old->eraseFromParent();
  if (L.Init->use_empty())
    L.Init->eraseFromParent();
  ConstantFoldTerminator(L.Exit->getSinglePredecessor());
  B.SetInsertPoint(&*L.Exit->getFirstInsertionPt());
  callLock(B, false);
}

/// A floating-point atomicrmw (an operation isRewrittenOperation accepts)
/// as the same critical section.
void rewriteUpdate(AtomicRMWInst &RMW) {
  Value *V = RMW.getValOperand(), *P = RMW.getPointerOperand();
  IRBuilder<> B(&RMW);
  callLock(B, true);
  LoadInst *Old = B.CreateAlignedLoad(V->getType(), P, RMW.getAlign());
  AtomicRMWInst::BinOp Op = RMW.getOperation();
  Value *New = Op == AtomicRMWInst::FAdd   ? B.CreateFAdd(Old, V)
               : Op == AtomicRMWInst::FSub ? B.CreateFSub(Old, V)
               : Op == AtomicRMWInst::FMax ? B.CreateMaxNum(Old, V)
                                           : B.CreateMinNum(Old, V);
  B.CreateAlignedStore(New, P, RMW.getAlign());
  callLock(B, false);
  RMW.replaceAllUsesWith(Old);
  RMW.eraseFromParent();
}

bool isRewrittenOperation(const AtomicRMWInst &RMW) {
  switch (RMW.getOperation()) {
  case AtomicRMWInst::FAdd:
  case AtomicRMWInst::FSub:
  case AtomicRMWInst::FMax:
  case AtomicRMWInst::FMin:
    return RMW.getValOperand()->getType()->isFloatingPointTy();
  default:
    return false;
  }
}

} // namespace

bool rewriteOpenMPAtomics(Function &F) {
  SmallVector<SwapLoop, 2> Loops;
  SmallVector<AtomicRMWInst *, 4> Updates;
  bool NeedsLock = false;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
        if (std::optional<SwapLoop> L = matchSwapLoop(*CX))
          Loops.push_back(*L);
      } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I);
                 RMW && isRewrittenOperation(*RMW)) {
        Updates.push_back(RMW);
        // (A maximum, or a capture of the value before the update.)
        NeedsLock |= RMW->getOperation() == AtomicRMWInst::FMax ||
                     RMW->getOperation() == AtomicRMWInst::FMin ||
                     !RMW->use_empty();
      }
    }
  if (Loops.empty() && !NeedsLock)
    return false;
  for (const SwapLoop &L : Loops)
    rewriteSwapLoop(L);
  for (AtomicRMWInst *RMW : Updates)
    rewriteUpdate(*RMW);
  return true;
}

} // namespace adcore
