//===- AccumulationWindows.cpp - Stencil adjoints added once per element -===//
//
// The reverse loop of a stencil scatters: iteration t adds into the shadow
// elements around its own, `du[c+1] += a; du[c] += b; du[c-1] += d`. Each
// element is loaded and stored once per offset, and the next iteration
// reloads what this one just stored. That chain through memory runs at the
// speed of store-to-load forwarding, and the loop vectorizer rejects it (a
// dependence at distance one).
//
// Here the contributions wait in registers instead: a chain of header phis
// per offset carries each addend to the iteration after which no later
// iteration adds to its element. That iteration loads the element once, adds
// the waiting addends in the order the original loop added them, and stores
// it once; the elements still pending when the loop ends are completed after
// it. The same additions happen on the same values in the same order, so the
// loop computes what it computed before (a missing addend, before the first
// iteration, is -0.0, or +0.0 for a subtraction, which leaves every value
// as it is; later passes may reassociate the additions marked `reassoc`,
// here as there). The remaining recurrences are on values, which the loop
// vectorizer handles.
//
// The other memory accesses of the loop must not touch the elements in
// flight. Where alias analysis cannot tell, the loop is versioned: a check
// before it compares the address ranges the loop covers, and an unchanged
// copy runs when they overlap. An access that meets the elements in every
// run (the reverse of an in-place update) leaves the loop as it is.
//
//===----------------------------------------------------------------------===//

#include "adcore/ADPass.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <optional>

using namespace llvm;

namespace adcore {
namespace {

cl::opt<bool> EnableWindows(
    "adcc-accumulation-windows", cl::init(true), cl::Hidden,
    cl::desc("Keep a loop's adjoint contributions to neighbouring elements "
             "in registers (tests compare the results with and without)"));

/// Marks the unchanged copy of a versioned loop in its loop metadata.
constexpr const char *FallbackMark = "adcc.accumulation.fallback";

/// One `*P = *P + V` (or `- V`) of the loop body.
struct Update {
  LoadInst *Load;
  BinaryOperator *Add;
  StoreInst *Store;
  Value *Addend;
  const SCEVAddRecExpr *Address;
  int64_t Offset = 0; ///< elements from the window's lowest update
  unsigned Delay = 0; ///< iterations until its element is complete
};

/// Updates of one array at constant distances from each other.
struct Window {
  SmallVector<Update, 4> Updates; ///< by decreasing delay
  Type *Ty;
  int64_t Step; ///< bytes per iteration: plus or minus the element size
  unsigned MaxDelay = 0;

  const Update &leading() const { return Updates.back(); }
};

/// A byte range [Lo, Hi) that an access covers over the whole loop, and
/// the one [FirstLo, FirstHi) it covers in the first iteration.
struct Range {
  const SCEV *Lo, *Hi, *FirstLo, *FirstHi;
};

/// `*P = *P + V` (or `*P - V`: InstCombine's form of adding a negated
/// product) with nothing between the load and the store that writes
/// memory, each value used once.
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

/// The memory accesses of the loop body through one pointer, or those of
/// one window.
struct AccessClass {
  SmallVector<Instruction *, 4> Accesses;
  std::optional<Range> Covered;
  bool Writes = false;
  int WindowIndex = -1;
};

/// What a loop needs to keep its windows in registers.
struct Plan {
  SmallVector<Window, 2> Windows;
  /// Ranges checked at run time; the ones for the windows are needed, the
  /// others only for the scopes.
  SmallVector<std::tuple<Range, Range, bool>, 4> Disjoint;
  /// With every pair of classes apart (by alias analysis or the check), each
  /// class gets a scope of its own in the rewritten loop: the loop
  /// vectorizer then needs no checks of its own.
  SmallVector<AccessClass, 8> Classes;
  bool Scoped = true;
};

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
  auto Where = [](Instruction *I) {
    return MemoryLocation::get(I).getWithNewSize(
        LocationSize::beforeOrAfterPointer());
  };
  for (Instruction *X : A.Accesses)
    for (Instruction *Y : B.Accesses)
      if (!AA.isNoAlias(Where(X), Where(Y)))
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
        P.Disjoint.push_back({*A.Covered, *B.Covered, HasWindow});
        continue;
      }
      if (HasWindow)
        return std::nullopt;
      P.Scoped = false;
    }
  if (!P.Scoped) // (only the checks the windows need)
    erase_if(P.Disjoint, [](auto &D) { return !std::get<2>(D); });
  SCEVExpander Expander(SE, "adcc.window");
  for (auto &[A, B, ForWindow] : P.Disjoint)
    for (const SCEV *S : {A.Lo, A.Hi, B.Lo, B.Hi})
      if (!Expander.isSafeToExpand(S))
        return std::nullopt;
  return P;
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

/// The value \p V (of the loop body) where the loop has exited into
/// \p End, which only the body branches to.
Value *atExit(Value *V, BasicBlock *Body, BasicBlock *End) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || I->getParent() != Body)
    return V;
  for (PHINode &Phi : End->phis())
    if (Phi.getIncomingValue(0) == V)
      return &Phi;
  PHINode *Phi =
      PHINode::Create(V->getType(), 1, V->getName() + ".end", End->begin());
  Phi->addIncoming(V, Body);
  return Phi;
}

/// Keeps the addends of \p W in header phis; the leading update adds them.
void rewriteWindow(Window &W, BasicBlock *Body, BasicBlock *Pre,
                   BasicBlock *End) {
  // Waiting[U][D-1]: U's addend from D iterations ago.
  SmallVector<SmallVector<PHINode *, 4>, 4> Waiting(W.Updates.size());
  for (auto [U, Chain] : zip(W.Updates, Waiting)) {
    // Before the first iteration: what leaves every value as it is
    // (x + -0.0, x - +0.0).
    Constant *Nothing = U.Add->getOpcode() == Instruction::FSub
                            ? ConstantFP::getZero(W.Ty)
                            : ConstantFP::getNegativeZero(W.Ty);
    Value *Prev = U.Addend;
    for (unsigned D = 1; D <= U.Delay; ++D) {
      PHINode *Phi = PHINode::Create(W.Ty, 2, "adcc.waiting", Body->begin());
      Phi->addIncoming(Nothing, Pre);
      Phi->addIncoming(Prev, Body);
      Chain.push_back(Phi);
      Prev = Phi;
    }
  }
  // The leading update completes its element at the end of the iteration.
  const Update &Lead = W.leading();
  Instruction *Term = Body->getTerminator();
  Lead.Load->moveBefore(Term->getIterator());
  IRBuilder<> B(Term);
  B.SetCurrentDebugLocation(Lead.Store->getDebugLoc());
  Value *Sum = Lead.Load;
  for (auto [U, Chain] : zip(W.Updates, Waiting)) {
    if (!U.Delay)
      continue;
    B.setFastMathFlags(U.Add->getFastMathFlags());
    Sum = B.CreateBinOp(U.Add->getOpcode(), Sum, Chain.back());
  }
  Lead.Add->moveBefore(Term->getIterator());
  Lead.Add->replaceUsesOfWith(Lead.Load, Sum);
  Lead.Store->moveBefore(Term->getIterator());

  // The elements still pending after the last iteration.
  IRBuilder<> E(End->getTerminator());
  E.SetCurrentDebugLocation(Lead.Store->getDebugLoc());
  Value *LeadAddress = atExit(Lead.Store->getPointerOperand(), Body, End);
  for (unsigned J = 1; J <= W.MaxDelay; ++J) {
    Value *Address =
        E.CreateConstGEP1_64(E.getInt8Ty(), LeadAddress, J * W.Step);
    LoadInst *Load = E.CreateAlignedLoad(W.Ty, Address, Lead.Load->getAlign());
    Load->copyMetadata(*Lead.Load);
    Value *Acc = Load;
    for (auto [U, Chain] : zip(W.Updates, Waiting)) {
      if (U.Delay < J)
        continue;
      unsigned Ago = U.Delay - J;
      Value *Addend = Ago ? Chain[Ago - 1] : U.Addend;
      E.setFastMathFlags(U.Add->getFastMathFlags());
      Acc = E.CreateBinOp(U.Add->getOpcode(), Acc, atExit(Addend, Body, End));
    }
    StoreInst *Store =
        E.CreateAlignedStore(Acc, Address, Lead.Store->getAlign());
    Store->copyMetadata(*Lead.Store);
  }

  for (Update &U : W.Updates) {
    if (!U.Delay)
      continue;
    U.Store->eraseFromParent();
    U.Add->eraseFromParent();
    U.Load->eraseFromParent();
  }
}

/// Gives each class of \p P's rewritten loop an alias scope of its own,
/// declared in \p Pre: per run of the loop (an unrolled outer loop gets
/// fresh scopes for each copy).
void scopeClasses(Plan &P, BasicBlock *Pre) {
  if (P.Classes.size() < 2)
    return;
  LLVMContext &Ctx = Pre->getContext();
  MDBuilder MDB(Ctx);
  MDNode *Domain = MDB.createAnonymousAliasScopeDomain("adcc.windows");
  SmallVector<Metadata *, 8> Scopes;
  IRBuilder<> B(Pre->getTerminator());
  for (unsigned I = 0; I < P.Classes.size(); ++I) {
    Scopes.push_back(MDB.createAnonymousAliasScope(Domain));
    B.CreateNoAliasScopeDeclaration(
        MDNode::get(Ctx, cast<MDNode>(Scopes.back())));
  }
  for (auto [I, C] : enumerate(P.Classes)) {
    SmallVector<Instruction *, 4> Accesses = C.Accesses;
    if (C.WindowIndex >= 0) { // (its other updates are gone)
      const Update &Lead = P.Windows[C.WindowIndex].leading();
      Accesses = {Lead.Load, Lead.Store};
    }
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

/// Rewrites \p L by \p P: versioned when a range check is needed.
void rewriteLoop(Loop &L, Plan &P, ScalarEvolution &SE) {
  BasicBlock *Body = L.getHeader(), *Pre = L.getLoopPreheader(),
             *Exit = L.getExitBlock();
  if (!P.Disjoint.empty()) {
    const DataLayout &DL = Body->getDataLayout();
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
    for (auto &[A, R, ForWindow] : P.Disjoint) {
      Value *ALo = Expand(A.Lo), *AHi = Expand(A.Hi);
      Value *RLo = Expand(R.Lo), *RHi = Expand(R.Hi);
      Value *Apart = B.CreateOr(B.CreateICmpULE(AHi, RLo),
                                B.CreateICmpULE(RHi, ALo), "adcc.apart");
      Check = Check ? B.CreateAnd(Check, Apart) : Apart;
    }
    versionLoop(L, Check);
  }
  BasicBlock *End = BasicBlock::Create(Body->getContext(), "adcc.window.end",
                                       Body->getParent(), Exit);
  BranchInst::Create(Exit, End);
  Body->getTerminator()->replaceSuccessorWith(Exit, End);
  for (PHINode &Phi : Exit->phis())
    Phi.replaceIncomingBlockWith(Body, End);
  for (Window &W : P.Windows)
    rewriteWindow(W, Body, Pre, End);
  if (P.Scoped)
    scopeClasses(P, Pre);
}

} // namespace

bool keepAccumulationsInRegisters(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || !EnableWindows)
    return false;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &AA = FAM.getResult<AAManager>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  SmallVector<std::pair<Loop *, Plan>, 4> Plans;
  for (Loop *L : LI.getLoopsInPreorder())
    if (L->isInnermost())
      if (std::optional<Plan> P = planLoop(*L, SE, AA))
        Plans.push_back({L, std::move(*P)});
  if (Plans.empty())
    return false;
  // Values of the loops used after them go through exit phis: the copy of a
  // versioned loop adds its own.
  for (auto &[L, P] : Plans)
    formLCSSA(*L, DT, &LI, &SE);
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  for (auto &[L, P] : Plans) {
    for (const Window &W : P.Windows)
      ORE.emit([&] {
        return OptimizationRemark("adcc", "AccumulationWindow",
                                  W.leading().Store)
               << "additions into " << ore::NV("Elements", W.MaxDelay + 1)
               << " neighbouring elements kept in registers until each "
                  "element is complete"
               << (P.Disjoint.empty() ? ""
                                      : " (the loop's other accesses are "
                                        "checked not to meet them)");
      });
    rewriteLoop(*L, P, SE);
  }
  return true;
}

} // namespace adcore
