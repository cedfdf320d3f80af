//===- LoopUpdates.cpp - The `*p += v` of a loop, and what they meet -----===//

#include "LoopUpdates.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace adcore {
namespace {

/// Marks the unchanged copy of a versioned loop in its loop metadata.
constexpr const char *FallbackMark = "adcc.accumulation.fallback";

/// Groups \p Updates into windows: the same element type and step, at
/// constant element distances, each offset once. Windows of one update
/// carry nothing from one iteration to the next and are dropped.
SmallVector<Window, 2> formWindows(ArrayRef<Update> Updates,
                                   ScalarEvolution &SE, const DataLayout &DL) {
  SmallVector<Window, 2> Windows;
  SmallVector<bool, 8> Taken(Updates.size(), false);
  for (unsigned I = 0; I < Updates.size(); ++I) {
    if (Taken[I])
      continue;
    const Update &First = Updates[I];
    Type *Ty = First.Load->getType();
    if (!Ty->isFloatingPointTy() ||
        DL.getTypeStoreSize(Ty) != DL.getTypeAllocSize(Ty))
      continue;
    int64_t Size = DL.getTypeStoreSize(Ty).getFixedValue();
    auto *Step = dyn_cast<SCEVConstant>(First.Address->getOperand(1));
    if (!Step || (Step->getAPInt().getSExtValue() != Size &&
                  Step->getAPInt().getSExtValue() != -Size))
      continue;
    Window W{{}, Ty, Step->getAPInt().getSExtValue()};
    SmallVector<int64_t, 4> Offsets;
    for (unsigned J = I; J < Updates.size(); ++J) {
      const Update &U = Updates[J];
      if (Taken[J] || U.Load->getType() != Ty ||
          U.Address->getOperand(1) != First.Address->getOperand(1))
        continue;
      auto *Distance = dyn_cast<SCEVConstant>(
          SE.getMinusSCEV(U.Address->getStart(), First.Address->getStart()));
      if (!Distance || Distance->getAPInt().getSignificantBits() > 48 ||
          Distance->getAPInt().getSExtValue() % Size)
        continue;
      int64_t Offset = Distance->getAPInt().getSExtValue() / Size;
      if (is_contained(Offsets, Offset))
        continue; // two updates of one element: left as they are
      Offsets.push_back(Offset);
      W.Updates.push_back(U);
      W.Updates.back().Offset = Offset;
      Taken[J] = true;
    }
    if (W.Updates.size() < 2)
      continue;
    int64_t Min = *llvm::min_element(Offsets),
            Max = *llvm::max_element(Offsets);
    if (Max - Min > 16)
      continue; // too many registers in flight
    for (Update &U : W.Updates) {
      U.Offset -= Min;
      // Walking down, the highest element is complete first; walking up,
      // the lowest.
      U.Delay = W.Step < 0 ? (Max - Min) - U.Offset : U.Offset;
    }
    W.MaxDelay = Max - Min;
    llvm::stable_sort(W.Updates, [](const Update &A, const Update &B) {
      return A.Delay > B.Delay;
    });
    Windows.push_back(std::move(W));
  }
  return Windows;
}

/// The bytes an access at \p Address (an add recurrence of \p L or a
/// loop-invariant pointer) of \p Size bytes covers while \p L runs; nothing
/// when it is neither.
std::optional<Range> coveredRange(const SCEV *Address, uint64_t Size,
                                  const SCEV *Trips, const Loop &L,
                                  ScalarEvolution &SE) {
  const SCEV *Start = Address, *Step = nullptr;
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(Address)) {
    if (AR->getLoop() != &L || !AR->isAffine())
      return std::nullopt;
    Start = AR->getStart();
    Step = AR->getOperand(1);
  } else if (!SE.isLoopInvariant(Address, &L)) {
    return std::nullopt;
  }
  const SCEV *Last = Start;
  bool Down = false;
  if (Step) {
    auto *C = dyn_cast<SCEVConstant>(Step);
    if (!C)
      return std::nullopt;
    Down = C->getAPInt().isNegative();
    Type *IntTy = Step->getType();
    Last = SE.getAddExpr(
        Start, SE.getMulExpr(Step, SE.getTruncateOrZeroExtend(Trips, IntTy)));
  }
  const SCEV *Lo = Down ? Last : Start, *Hi = Down ? Start : Last;
  const SCEV *Bytes =
      SE.getConstant(SE.getEffectiveSCEVType(Hi->getType()), Size);
  return Range{Lo, SE.getAddExpr(Hi, Bytes), Start,
               SE.getAddExpr(Start, Bytes)};
}

/// The bytes of \p W's elements, the completed-after-the-loop ones
/// included.
std::optional<Range> windowRange(const Window &W, uint64_t Size,
                                 const SCEV *Trips, const Loop &L,
                                 ScalarEvolution &SE) {
  const Update *Low = &W.Updates.front(), *High = Low;
  for (const Update &U : W.Updates) {
    if (U.Offset < Low->Offset)
      Low = &U;
    if (U.Offset > High->Offset)
      High = &U;
  }
  std::optional<Range> A = coveredRange(Low->Address, Size, Trips, L, SE);
  std::optional<Range> B = coveredRange(High->Address, Size, Trips, L, SE);
  if (!A || !B)
    return std::nullopt;
  return Range{A->Lo, B->Hi, A->FirstLo, B->FirstHi};
}

/// Whether the ranges \p A and \p B overlap whatever the loop's trip count:
/// they meet in the first iteration, which every run has (an in-place
/// update, whose reverse reads and zeroes the element it adds around).
/// Checking them would only ever pick the unchanged loop.
bool overlapsAlways(const Range &A, const Range &B, ScalarEvolution &SE) {
  auto Before = [&](const SCEV *X, const SCEV *Y) { // X <= Y, known
    auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(Y, X));
    return D && !D->getAPInt().isNegative();
  };
  return !Before(A.FirstHi, B.FirstLo) && !Before(B.FirstHi, A.FirstLo) &&
         isa<SCEVConstant>(SE.getMinusSCEV(A.FirstLo, B.FirstLo));
}

bool apart(const AccessClass &A, const AccessClass &B, AAResults &AA) {
  for (Instruction *X : A.Accesses)
    for (Instruction *Y : B.Accesses)
      if (!AA.isNoAlias(aroundPointer(X), aroundPointer(Y)))
        return false;
  return true;
}

/// The classes of \p Body's memory accesses, the windows' first; nothing
/// when an access is neither a simple load nor a simple store.
std::optional<SmallVector<AccessClass, 8>>
classifyAccesses(BasicBlock &Body, ArrayRef<Window> Windows, const SCEV *Trips,
                 const Loop &L, ScalarEvolution &SE) {
  SmallVector<AccessClass, 8> Classes;
  SmallPtrSet<const Instruction *, 16> InWindow;
  const DataLayout &DL = Body.getDataLayout();
  for (auto [I, W] : enumerate(Windows)) {
    AccessClass C;
    for (const Update &U : W.Updates) {
      C.Accesses.append({U.Load, U.Store});
      InWindow.insert({U.Load, U.Store});
    }
    C.Covered =
        windowRange(W, DL.getTypeStoreSize(W.Ty).getFixedValue(), Trips, L, SE);
    if (!C.Covered)
      return std::nullopt;
    C.Writes = true;
    C.WindowIndex = I;
    Classes.push_back(std::move(C));
  }
  DenseMap<const Value *, unsigned> ByPointer;
  for (Instruction &I : Body) {
    if (!I.mayReadOrWriteMemory() || InWindow.contains(&I))
      continue;
    auto *Load = dyn_cast<LoadInst>(&I);
    auto *Store = dyn_cast<StoreInst>(&I);
    if (!(Load && Load->isSimple()) && !(Store && Store->isSimple()))
      return std::nullopt; // calls, atomics, volatile accesses
    Value *Ptr = getLoadStorePointerOperand(&I);
    Type *Ty = getLoadStoreType(&I);
    if (Ty->isScalableTy())
      return std::nullopt;
    auto [It, New] = ByPointer.try_emplace(Ptr, Classes.size());
    if (New) {
      Classes.emplace_back();
      Classes.back().Covered =
          coveredRange(SE.getSCEV(Ptr), DL.getTypeStoreSize(Ty).getFixedValue(),
                       Trips, L, SE);
    }
    AccessClass &C = Classes[It->second];
    C.Accesses.push_back(&I);
    C.Writes |= Store != nullptr;
    if (C.Covered && C.Accesses.size() > 1 &&
        DL.getTypeStoreSize(Ty) !=
            DL.getTypeStoreSize(getLoadStoreType(C.Accesses.front())))
      C.Covered.reset(); // (accesses of different sizes: no one range)
  }
  return Classes;
}

/// A new loop ID for the unchanged copy: the original's properties, the
/// fallback mark, and neither vectorized nor unrolled: it runs only when
/// arrays overlap, and is not worth the code.
MDNode *fallbackLoopID(LLVMContext &Ctx, MDNode *Original) {
  SmallVector<Metadata *, 4> Ops{nullptr};
  if (Original)
    append_range(Ops, drop_begin(Original->operands()));
  Ops.push_back(MDNode::get(Ctx, MDString::get(Ctx, FallbackMark)));
  // (What the vectorizer puts on the scalar loops it leaves: it passes
  // them by without a remark.)
  Ops.push_back(MDNode::get(Ctx, {MDString::get(Ctx, "llvm.loop.isvectorized"),
                                  ConstantAsMetadata::get(ConstantInt::get(
                                      Type::getInt32Ty(Ctx), 1))}));
  Ops.push_back(
      MDNode::get(Ctx, MDString::get(Ctx, "llvm.loop.unroll.disable")));
  MDNode *ID = MDNode::getDistinct(Ctx, Ops);
  ID->replaceOperandWith(0, ID);
  return ID;
}

} // namespace

MemoryLocation aroundPointer(const Instruction *I) {
  return MemoryLocation::get(I).getWithNewSize(
      LocationSize::beforeOrAfterPointer());
}

std::optional<Update> matchUpdate(StoreInst &S, ScalarEvolution &SE,
                                  const Loop &L) {
  auto *Add = dyn_cast<BinaryOperator>(S.getValueOperand());
  if (!S.isSimple() || !Add ||
      (Add->getOpcode() != Instruction::FAdd &&
       Add->getOpcode() != Instruction::FSub) ||
      !Add->hasOneUse() || Add->getParent() != S.getParent())
    return std::nullopt;
  // (x - v: only with x the element.)
  unsigned Sides = Add->getOpcode() == Instruction::FSub ? 1 : 2;
  for (unsigned I = 0; I < Sides; ++I) {
    auto *Load = dyn_cast<LoadInst>(Add->getOperand(I));
    Value *Addend = Add->getOperand(1 - I);
    if (!Load || Load == Addend || !Load->isSimple() || !Load->hasOneUse() ||
        Load->getParent() != S.getParent() ||
        Load->getPointerOperand() != S.getPointerOperand() ||
        !Load->comesBefore(&S))
      continue;
    for (auto It = std::next(Load->getIterator()); &*It != &S; ++It)
      if (It->mayWriteToMemory())
        return std::nullopt;
    auto *Address = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(S.getPointerOperand()));
    if (!Address || Address->getLoop() != &L || !Address->isAffine())
      return std::nullopt;
    return Update{Load, Add, &S, Addend, Address};
  }
  return std::nullopt;
}

std::optional<unsigned> classIndex(const Plan &P, const Instruction *I) {
  for (auto [Index, C] : enumerate(P.Classes))
    if (is_contained(C.Accesses, I))
      return Index;
  return std::nullopt;
}

std::optional<Plan> planLoop(Loop &L, ScalarEvolution &SE, AAResults &AA) {
  BasicBlock *Body = L.getHeader();
  if (L.getNumBlocks() != 1 || !L.getLoopPreheader() || !L.getExitBlock() ||
      L.getExitBlock()->getSinglePredecessor() != Body || isFallback(L))
    return std::nullopt;
  auto *Latch = dyn_cast<BranchInst>(Body->getTerminator());
  auto *Entry = dyn_cast<BranchInst>(L.getLoopPreheader()->getTerminator());
  const SCEV *Trips = SE.getBackedgeTakenCount(&L);
  if (!Latch || !Latch->isConditional() || !Entry || Entry->isConditional() ||
      isa<SCEVCouldNotCompute>(Trips))
    return std::nullopt;

  SmallVector<Update, 8> Updates;
  for (Instruction &I : *Body)
    if (auto *S = dyn_cast<StoreInst>(&I))
      if (std::optional<Update> U = matchUpdate(*S, SE, L))
        Updates.push_back(*U);
  Plan P;
  P.Windows = formWindows(Updates, SE, Body->getDataLayout());
  if (P.Windows.empty())
    return std::nullopt;
  auto Classes = classifyAccesses(*Body, P.Windows, Trips, L, SE);
  if (!Classes)
    return std::nullopt;
  P.Classes = std::move(*Classes);

  // A window's elements may meet no other access; other accesses meeting
  // each other only cost the scopes.
  for (unsigned I = 0; I < P.Classes.size(); ++I)
    for (unsigned J = I + 1; J < P.Classes.size(); ++J) {
      const AccessClass &A = P.Classes[I], &B = P.Classes[J];
      bool HasWindow = A.WindowIndex >= 0 || B.WindowIndex >= 0;
      if ((!A.Writes && !B.Writes) || apart(A, B, AA))
        continue;
      if (A.Covered && B.Covered &&
          !overlapsAlways(*A.Covered, *B.Covered, SE)) {
        P.Disjoint.push_back({I, J, HasWindow});
        continue;
      }
      if (HasWindow)
        return std::nullopt;
      P.Scoped = false;
    }
  if (!P.Scoped) // (only the checks the windows need)
    erase_if(P.Disjoint, [](const ClassPair &D) { return !D.ForWindow; });
  SCEVExpander Expander(SE, "adcc.window");
  for (const ClassPair &D : P.Disjoint)
    for (unsigned Class : {D.A, D.B}) {
      const Range &R = *P.Classes[Class].Covered;
      for (const SCEV *S : {R.Lo, R.Hi})
        if (!Expander.isSafeToExpand(S))
          return std::nullopt;
    }
  return P;
}

bool isFallback(const Loop &L) {
  MDNode *ID = L.getLoopID();
  if (!ID)
    return false;
  for (const MDOperand &Op : drop_begin(ID->operands()))
    if (auto *Node = dyn_cast<MDNode>(Op))
      if (Node->getNumOperands() && isa<MDString>(Node->getOperand(0)) &&
          cast<MDString>(Node->getOperand(0))->getString() == FallbackMark)
        return true;
  return false;
}

Value *checkDisjoint(const Plan &P, Loop &L, ScalarEvolution &SE) {
  if (P.Disjoint.empty())
    return nullptr;
  BasicBlock *Pre = L.getLoopPreheader();
  const DataLayout &DL = Pre->getDataLayout();
  SCEVExpander Expander(SE, "adcc.window");
  Instruction *At = Pre->getTerminator();
  IRBuilder<> B(At);
  Value *Check = nullptr;
  auto Expand = [&](const SCEV *S) {
    Value *V = Expander.expandCodeFor(S, nullptr, At->getIterator());
    return V->getType()->isPointerTy()
               ? B.CreatePtrToInt(V, DL.getIntPtrType(V->getType()))
               : V;
  };
  for (const ClassPair &D : P.Disjoint) {
    const Range &A = *P.Classes[D.A].Covered, &R = *P.Classes[D.B].Covered;
    Value *ALo = Expand(A.Lo), *AHi = Expand(A.Hi);
    Value *RLo = Expand(R.Lo), *RHi = Expand(R.Hi);
    Value *Apart = B.CreateOr(B.CreateICmpULE(AHi, RLo),
                              B.CreateICmpULE(RHi, ALo), "adcc.apart");
    Check = Check ? B.CreateAnd(Check, Apart) : Apart;
  }
  return Check;
}

/// Copies \p L's body as the loop to run when \p Check is false.
void versionLoop(Loop &L, Value *Check) {
  BasicBlock *Body = L.getHeader(), *Pre = L.getLoopPreheader(),
             *Exit = L.getExitBlock();
  Function &F = *Body->getParent();
  ValueToValueMapTy VMap;
  BasicBlock *Copy = CloneBasicBlock(Body, VMap, ".unchanged", &F);
  VMap[Body] = Copy;
  SmallVector<BasicBlock *, 1> Blocks{Copy};
  remapInstructionsInBlocks(Blocks, VMap);
  Copy->getTerminator()->setMetadata(
      LLVMContext::MD_loop, fallbackLoopID(F.getContext(), L.getLoopID()));
  for (PHINode &Phi : Exit->phis()) {
    Value *V = Phi.getIncomingValueForBlock(Body);
    Value *Copied = VMap.lookup(V);
    Phi.addIncoming(Copied ? Copied : V, Copy);
  }
  Instruction *Old = Pre->getTerminator();
  BranchInst::Create(Body, Copy, Check, Old->getIterator())
      ->setDebugLoc(Old->getDebugLoc()); // (where remarks place the loop)
  Old->eraseFromParent();
}

void scopeAccesses(ArrayRef<SmallVector<Instruction *, 4>> Classes,
                   BasicBlock *Pre) {
  if (Classes.size() < 2)
    return;
  LLVMContext &Ctx = Pre->getContext();
  MDBuilder MDB(Ctx);
  MDNode *Domain = MDB.createAnonymousAliasScopeDomain("adcc.windows");
  SmallVector<Metadata *, 8> Scopes;
  IRBuilder<> B(Pre->getTerminator());
  for (unsigned I = 0; I < Classes.size(); ++I) {
    Scopes.push_back(MDB.createAnonymousAliasScope(Domain));
    B.CreateNoAliasScopeDeclaration(
        MDNode::get(Ctx, cast<MDNode>(Scopes.back())));
  }
  for (auto [I, Accesses] : enumerate(Classes)) {
    SmallVector<Metadata *, 8> Others(Scopes);
    Others.erase(Others.begin() + I);
    MDNode *Own = MDNode::get(Ctx, Scopes[I]);
    MDNode *NotOwn = MDNode::get(Ctx, Others);
    for (Instruction *A : Accesses) {
      A->setMetadata(LLVMContext::MD_alias_scope,
                     MDNode::concatenate(
                         A->getMetadata(LLVMContext::MD_alias_scope), Own));
      A->setMetadata(
          LLVMContext::MD_noalias,
          MDNode::concatenate(A->getMetadata(LLVMContext::MD_noalias), NotOwn));
    }
  }
}

} // namespace adcore
