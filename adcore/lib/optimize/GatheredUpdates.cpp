//===- GatheredUpdates.cpp - Stencil adjoints gathered per element -------===//
//
// The reverse loop of a stencil scatters: iteration s adds into the shadow
// elements around its own, `dw[s+1] += a(s); dw[s] += b(s); dw[s-1] +=
// c(s)`. AccumulationWindows.cpp keeps those addends in registers until
// their element is complete; once vectorized, passing them from lane to
// lane costs shuffles, several per addend, and more where the vectors are
// wider.
//
// Here a new loop walks over the elements instead, in the order the
// original iterations reach them, and adds each one's contributions itself,
// recomputing each from its own iteration s = t - k (k: the element's
// offset from s, in iterations): `dw[t] = ((dw[t] + a(t-1)) + b(t)) +
// c(t+1)`, in the order the original loop added them (earlier iterations
// first), so that every element gets the same additions of the same values
// in the same order. An addend is recomputed from the loads of its
// iteration (their addresses moved with it), which is cheap where it is a
// product like `0.25 * du[s]`; a loop whose addends would recompute a call,
// a division or a long expression keeps its windows instead. A header phi
// that carries a value from one iteration to the next (the adjoint of a
// value the primal loop loaded once and reused in the next iteration) is
// recomputed from the iteration before, or is its start value in the first.
//
// The loop's other stores (the zeroing of the adjoint it reads, `du[s] =
// 0`, and single updates like a 2-D stencil's `du[s+n] += ...`) wait until
// every element that recomputes their iteration has been done. The
// elements at both ends, whose contributions come from fewer iterations,
// are done before and after the loop, straight-line; what the last
// iteration leaves for the code after the loop is computed before the
// loop, before any store.
//
// The conditions: everything AccumulationWindows needs (no other access
// meets the windows' elements, checked before the loop where alias analysis
// cannot tell), plus: every pair of access classes apart, each stored-to
// class read only at the addresses it is stored to and before the store,
// the loop carrying nothing but induction variables and values from the
// iteration before (at most two back), and more iterations than the
// elements at the ends. Otherwise the unchanged loop runs (and gets its
// windows).
//
// In an outer loop, the rows (its iterations) may take over each other's
// single updates of the rows before and after (GatheredRows.cpp): then
// three more copies of the gathered loop, for the first, a middle and the
// last row, add the pulled values around each element's own, and the
// check before the outer loop picks them.
//
// Where a loop or nest before it zeroed the elements the loop adds into
// (ZeroedRegions.cpp: the reverse of the other half step of a time step),
// one more copy (of the middle row's form, in rows) starts each element's
// sum from zero instead of loading it, picked by a check before the loop
// (before the outer one, in rows).
//
//===----------------------------------------------------------------------===//

#include "Optimize.h"

#include "support/CheapInstructions.h"
#include "GatheredUpdates.h"
#include "LoopUpdates.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <array>
#include <optional>
#include <tuple>

using namespace llvm;

namespace adcore {
namespace {

/// How many iterations back an addend may reach through carried phis.
constexpr unsigned MaxCarriedDepth = 2;

cl::opt<bool> EnableGather(
    "adcc-gathered-updates", cl::init(true), cl::Hidden,
    cl::desc("Gather a stencil reverse loop's additions per element, "
             "recomputing each addend at its iteration (tests compare the "
             "results with and without)"));

/// Cheap enough to compute once more per element: loads, the header phis
/// (an induction variable's value, or a carried one's source), and
/// arithmetic but division.
bool isCheap(const Instruction &I) {
  if (isa<LoadInst, PHINode>(I))
    return true;
  switch (I.getOpcode()) {
  case Instruction::FDiv:
  case Instruction::FRem:
  case Instruction::SDiv:
  case Instruction::UDiv:
  case Instruction::SRem:
  case Instruction::URem:
    return false;
  default:
    return isCheapPure(I);
  }
}

/// The offsets (iterations before the element) at which an element needs
/// each instruction of the loop body.
using TreeOffsets = DenseMap<Instruction *, SmallVector<int64_t, 2>>;

/// Adds to \p Offsets the instructions of \p Body that \p V, at offset \p K,
/// is computed from (through a carried phi, at K + 1), and to \p Depth how
/// far back that reaches; false when one of them cannot be computed at
/// another iteration.
bool collectTree(Value *V, int64_t K, unsigned Back, BasicBlock *Body,
                 const Shape &S, TreeOffsets &Offsets, unsigned &Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || I->getParent() != Body)
    return true;
  SmallVector<int64_t, 2> &Ks = Offsets[I];
  if (is_contained(Ks, K))
    return true;
  Ks.push_back(K);
  if (auto *Phi = dyn_cast<PHINode>(I)) {
    if (S.Inductions.contains(Phi))
      return true;
    auto It = S.CarriedPhis.find(Phi);
    if (It == S.CarriedPhis.end() || Back == MaxCarriedDepth)
      return false;
    Depth = std::max(Depth, Back + 1);
    return collectTree(It->second.Latch, K + 1, Back + 1, Body, S, Offsets,
                       Depth);
  }
  if (auto *Load = dyn_cast<LoadInst>(I)) {
    if (!Load->isSimple())
      return false;
  } else if (I->mayReadOrWriteMemory() || I->mayHaveSideEffects() ||
             I->isTerminator()) {
    return false;
  }
  return all_of(I->operands(), [&](Value *Op) {
    return collectTree(Op, K, Back, Body, S, Offsets, Depth);
  });
}

/// Whether a stored-to class is only read where and before it is written:
/// one pointer, its loads first, each iteration its own element.
bool isSourceClass(const AccessClass &C, ScalarEvolution &SE, const Loop &L) {
  bool SeenStore = false;
  for (Instruction *I : C.Accesses) {
    if (isa<StoreInst>(I))
      SeenStore = true;
    else if (SeenStore)
      return false;
  }
  Instruction *First = C.Accesses.front();
  auto *AR =
      dyn_cast<SCEVAddRecExpr>(SE.getSCEV(getLoadStorePointerOperand(First)));
  auto *Step = AR ? dyn_cast<SCEVConstant>(AR->getOperand(1)) : nullptr;
  if (!AR || AR->getLoop() != &L || !Step)
    return false;
  const DataLayout &DL = First->getDataLayout();
  uint64_t Size = 0;
  for (Instruction *I : C.Accesses)
    Size = std::max<uint64_t>(
        Size, DL.getTypeStoreSize(getLoadStoreType(I)).getFixedValue());
  return Step->getAPInt().abs().uge(Size);
}

std::optional<Shape> shapeLoop(Loop &L, const Plan &P, ScalarEvolution &SE) {
  if (!P.Scoped)
    return std::nullopt;
  BasicBlock *Body = L.getHeader();
  Shape S;
  S.Trips = SE.getBackedgeTakenCount(&L);
  SCEVExpander Expander(SE, "adcc.gather");
  if (!Expander.isSafeToExpand(S.Trips) ||
      S.Trips->getType()->getScalarSizeInBits() > 64)
    return std::nullopt;
  for (PHINode &Phi : Body->phis()) {
    Value *Start = Phi.getIncomingValueForBlock(L.getLoopPreheader());
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Phi));
    auto *Step = AR ? dyn_cast<SCEVConstant>(AR->getOperand(1)) : nullptr;
    if (AR && AR->getLoop() == &L && AR->isAffine() && Step &&
        Step->getAPInt().getSignificantBits() <= 32)
      S.Inductions[&Phi] = {Start, Step->getAPInt().getSExtValue()};
    else
      S.CarriedPhis[&Phi] = {Start, Phi.getIncomingValueForBlock(Body)};
  }

  SmallPtrSet<const Instruction *, 16> InWindow;
  for (const Window &W : P.Windows)
    for (const Update &U : W.Updates)
      InWindow.insert({U.Load, U.Add, U.Store});
  for (Instruction &I : *Body) {
    if (any_of(I.users(), [&](User *Usr) {
          return cast<Instruction>(Usr)->getParent() != Body;
        })) {
      TreeOffsets Unused;
      if (InWindow.contains(&I) || isa<StoreInst>(I) ||
          !collectTree(&I, 0, 0, Body, S, Unused, S.LiveOutDepth))
        return std::nullopt;
      S.LiveOuts.push_back(&I);
    }
    if (InWindow.contains(&I) || I.isTerminator())
      continue;
    if (auto *Store = dyn_cast<StoreInst>(&I)) {
      std::optional<unsigned> C = classIndex(P, Store);
      if (!Store->isSimple() || !C || !isSourceClass(P.Classes[*C], SE, L))
        return std::nullopt;
      S.Stores.push_back(Store);
      continue;
    }
    if (I.mayWriteToMemory() || (I.mayHaveSideEffects() && !isa<LoadInst>(I)))
      return std::nullopt;
  }

  // The offsets, in iterations: update U of iteration s adds into element
  // s + k of its window (element t at the lowest update's address plus t
  // steps). What an element recomputes: each addend at its offset, each
  // store at its own; no costly instruction at more than one offset.
  TreeOffsets Offsets;
  auto Need = [&](Value *V, int64_t K, unsigned &Depth) {
    TreeOffsets Own; // (its own walk: the depth is per value)
    if (!collectTree(V, K, 0, Body, S, Own, Depth))
      return false;
    for (auto &[I, Ks] : Own)
      for (int64_t Each : Ks)
        if (!is_contained(Offsets[I], Each))
          Offsets[I].push_back(Each);
    return true;
  };
  bool First = true;
  for (const Window &W : P.Windows) {
    SmallVector<Contribution, 4> Cs;
    for (const Update &U : W.Updates) {
      int64_t K = W.Step > 0 ? U.Offset : -U.Offset;
      unsigned Depth = 0;
      if (!Need(U.Addend, K, Depth) ||
          !Need(U.Store->getPointerOperand(), K, Depth))
        return std::nullopt;
      Cs.push_back({&U, K});
      S.KMin = First ? K : std::min(S.KMin, K);
      S.KMax = First ? K : std::max(S.KMax, K);
      S.KHi = First ? K + Depth : std::max<int64_t>(S.KHi, K + Depth);
      First = false;
    }
    // Earlier iterations first: the larger offsets.
    llvm::stable_sort(Cs, [](const Contribution &A, const Contribution &B) {
      return A.K > B.K;
    });
    S.Contributions.push_back(std::move(Cs));
  }
  for (StoreInst *Store : S.Stores) {
    unsigned Depth = 0;
    if (!Need(Store->getValueOperand(), S.lag(), Depth) ||
        !Need(Store->getPointerOperand(), S.lag(), Depth) || Depth)
      return std::nullopt;
  }
  unsigned Extra = 0;
  for (auto &[I, Ks] : Offsets) {
    if (Ks.size() > 1 && !isCheap(*I))
      return std::nullopt;
    Extra += Ks.size() - 1;
  }
  if (Extra > MaxExtraInstructions)
    return std::nullopt;
  return S;
}

/// Computes values of the loop body at other iterations, in new code.
class Shifter {
public:
  Shifter(const Shape &S, BasicBlock *Body, const RowBytes *Bytes)
      : S(S), Body(Body), Bytes(Bytes) {}

  /// \p V at iteration \p Iter (an i64), built at \p B.
  Value *at(Value *V, Value *Iter, IRBuilder<> &B) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || I->getParent() != Body)
      return V;
    auto [It, New] = Memo.try_emplace({I, Iter}, nullptr);
    if (!New)
      return It->second;
    Value *R;
    if (auto *Phi = dyn_cast<PHINode>(I); Phi && S.CarriedPhis.count(Phi)) {
      // From the iteration before, or the start in the first.
      const Carried &C = S.CarriedPhis.at(Phi);
      auto *Const = dyn_cast<ConstantInt>(Iter);
      if (Const && Const->isZero())
        R = C.Start;
      else if (Const)
        R = at(C.Latch, B.getInt64(Const->getSExtValue() - 1), B);
      else
        R = at(C.Latch, before(Iter, B), B);
    } else if (auto *Phi = dyn_cast<PHINode>(I)) {
      const Induction &Ind = S.Inductions.at(Phi);
      if (Phi->getType()->isPointerTy()) {
        R = B.CreateGEP(B.getInt8Ty(), Ind.Start,
                        B.CreateMul(Iter, B.getInt64(Ind.Step)));
      } else {
        Type *Ty = Phi->getType();
        R = B.CreateAdd(Ind.Start,
                        B.CreateMul(B.CreateSExtOrTrunc(Iter, Ty),
                                    ConstantInt::get(Ty, Ind.Step, true)));
      }
    } else {
      Instruction *C = I->clone();
      for (Use &Op : C->operands())
        Op.set(at(Op.get(), Iter, B));
      B.Insert(C, I->getName());
      if (isa<LoadInst>(I))
        Cloned.push_back({I, C});
      R = C;
    }
    Memo[{I, Iter}] = R;
    return R;
  }

  /// \p V at iteration \p Iter of the row \p Dir (-1 or +1) outer
  /// iterations away: its loads (Rows::Steps) moved by a row, its
  /// inductions as in this row.
  Value *row(Value *V, Value *Iter, int Dir, IRBuilder<> &B) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || I->getParent() != Body || isa<PHINode>(I))
      return at(V, Iter, B);
    auto [It, New] = RowMemo.try_emplace({I, Iter, Dir}, nullptr);
    if (!New)
      return It->second;
    Instruction *C = I->clone();
    if (auto *Load = dyn_cast<LoadInst>(C)) {
      Load->setOperand(0, rowAddress(I, Iter, Dir, B));
      Cloned.push_back({I, C});
    } else {
      for (Use &Op : C->operands())
        Op.set(row(Op.get(), Iter, Dir, B));
    }
    B.Insert(C, I->getName());
    RowMemo[{I, Iter, Dir}] = C;
    return C;
  }

  /// The address of load or store \p I at iteration \p Iter, \p Dir rows
  /// away.
  Value *rowAddress(Instruction *I, Value *Iter, int Dir, IRBuilder<> &B) {
    Value *Here = at(getLoadStorePointerOperand(I), Iter, B);
    return B.CreateGEP(B.getInt8Ty(), Here, Bytes->lookup(I)[Dir > 0]);
  }

  /// Iteration \p Iter - 1.
  Value *before(Value *Iter, IRBuilder<> &B) {
    auto [It, New] = Before.try_emplace(Iter, nullptr);
    if (New)
      It->second = B.CreateSub(Iter, B.getInt64(1), "adcc.iter");
    return It->second;
  }

  /// The loads copied, with their originals.
  SmallVector<std::pair<Instruction *, Instruction *>, 8> Cloned;

private:
  const Shape &S;
  BasicBlock *Body;
  const RowBytes *Bytes;
  DenseMap<std::pair<Instruction *, Value *>, Value *> Memo;
  DenseMap<std::tuple<Instruction *, Value *, int>, Value *> RowMemo;
  DenseMap<Value *, Value *> Before;
};

/// The iterations that element T's contributions come from, T - K, each
/// computed once.
class ElementIterations {
public:
  ElementIterations(IRBuilder<> &B, Value *T) : B(B), T(T) {}

  Value *of(int64_t K) {
    auto [It, New] = Iters.try_emplace(K, nullptr);
    if (New)
      It->second = K ? B.CreateSub(T, B.getInt64(K), "adcc.iter") : T;
    return It->second;
  }

private:
  IRBuilder<> &B;
  Value *T;
  DenseMap<int64_t, Value *> Iters;
};

/// Emits the code of a gathered loop.
class Gatherer {
public:
  Gatherer(const Plan &P, const Shape &S, BasicBlock *Body,
           const Rows *R = nullptr, RowPosition Pos = RowPosition::Only,
           const RowBytes *Bytes = nullptr, ArrayRef<bool> Zeroed = {})
      : P(P), S(S), R(R), Pos(Pos), Shift(S, Body, Bytes),
        Accesses(P.Classes.size()), Zeroed(Zeroed) {}

  /// Completes the element of every window at \p It, with the
  /// contributions whose offsets \p Valid accepts; in the loop (\p
  /// Interior), the elements of the windows known zero start from zero
  /// instead of a load.
  void elements(IRBuilder<> &B, ElementIterations &It,
                function_ref<bool(int64_t)> Valid, bool Interior = false) {
    for (auto [Index, W] : enumerate(P.Windows)) {
      const SmallVector<Contribution, 4> &Cs = S.Contributions[Index];
      SmallVector<Contribution, 4> Taken;
      for (const Contribution &C : Cs)
        if (Valid(C.K))
          Taken.push_back(C);
      if (Taken.empty())
        continue;
      const Update &U0 = *Taken.front().U;
      Value *Address =
          Shift.at(U0.Store->getPointerOperand(), It.of(Taken.front().K), B);
      Align A = U0.Load->getAlign();
      for (const Update &U : W.Updates)
        A = std::min({A, U.Load->getAlign(), U.Store->getAlign()});
      B.SetCurrentDebugLocation(U0.Store->getDebugLoc());
      LoadInst *Load = nullptr;
      Value *Acc = Constant::getNullValue(W.Ty);
      if (!Interior || Index >= Zeroed.size() || !Zeroed[Index]) {
        Load = B.CreateAlignedLoad(W.Ty, Address, A);
        Load->copyMetadata(*U0.Load);
        Acc = Load;
      }
      auto Add = [&](const Update &U, Value *Addend) {
        B.setFastMathFlags(U.Add->getFastMathFlags());
        Acc = B.CreateBinOp(U.Add->getOpcode(), Acc, Addend);
      };
      // The previous row's pushes came before this row's additions, the
      // next row's after them.
      SmallVector<const RowPull *, 2> Before = pulls(Index, true, Valid),
                                      After = pulls(Index, false, Valid);
      for (const RowPull *Pull : Before)
        Add(Pull->Push, Shift.row(Pull->Push.Addend, It.of(Pull->K), -1, B));
      for (const Contribution &C : Taken)
        Add(*C.U, Shift.at(C.U->Addend, It.of(C.K), B));
      for (const RowPull *Pull : After)
        Add(Pull->Push, Shift.row(Pull->Push.Addend, It.of(Pull->K), +1, B));
      B.setFastMathFlags(FastMathFlags());
      StoreInst *Store = B.CreateAlignedStore(Acc, Address, A);
      Store->copyMetadata(*U0.Store);
      if (Load)
        Accesses[classIndex(U0.Store)].push_back(Load);
      Accesses[classIndex(U0.Store)].push_back(Store);
    }
  }

  /// \p V of the loop body at iteration \p Iter.
  Value *at(Value *V, Value *Iter, IRBuilder<> &B) {
    return Shift.at(V, Iter, B);
  }

  /// The loop's other stores, of iteration \p Iter: in rows, the pushes no
  /// other row pulls, the previous row's deferred stores, and in the last
  /// row its own.
  void stores(IRBuilder<> &B, Value *Iter) {
    // Every value first: the iteration read its elements before it stored.
    SmallVector<std::tuple<StoreInst *, Value *, Value *>, 4> Computed;
    for (StoreInst *Store : S.Stores) {
      if (const RowPull *Pull = R ? R->pullOf(Store) : nullptr) {
        if (Pull->ToNext ? Pos != RowPosition::Last : Pos != RowPosition::First)
          continue;
      } else if (R) {
        if (Pos != RowPosition::First)
          Computed.push_back({Store, Store->getValueOperand(),
                              Shift.rowAddress(Store, Iter, -1, B)});
        if (Pos != RowPosition::Last)
          continue;
      }
      Computed.push_back({Store, Shift.at(Store->getValueOperand(), Iter, B),
                          Shift.at(Store->getPointerOperand(), Iter, B)});
    }
    for (auto [Store, V, Address] : Computed) {
      B.SetCurrentDebugLocation(Store->getDebugLoc());
      StoreInst *Copy = B.CreateAlignedStore(V, Address, Store->getAlign());
      Copy->copyMetadata(*Store);
      Accesses[classIndex(Store)].push_back(Copy);
    }
  }

  /// Every access made, by class (for their scopes).
  SmallVector<SmallVector<Instruction *, 4>, 8> classes() {
    for (auto [Original, Copy] : Shift.Cloned)
      Accesses[classIndex(Original)].push_back(Copy);
    Shift.Cloned.clear();
    return Accesses;
  }

private:
  /// The pulls into window \p Window's element that this row adds: from
  /// the previous row (\p FromPrevious, its pushes to the next row) or the
  /// next; earlier iterations first.
  SmallVector<const RowPull *, 2> pulls(unsigned Window, bool FromPrevious,
                                        function_ref<bool(int64_t)> Valid) {
    SmallVector<const RowPull *, 2> Taken;
    if (!R || Pos == (FromPrevious ? RowPosition::First : RowPosition::Last))
      return Taken;
    for (const RowPull &Pull : R->Pulls)
      if (Pull.Window == Window && Pull.ToNext == FromPrevious && Valid(Pull.K))
        Taken.push_back(&Pull);
    llvm::stable_sort(
        Taken, [](const RowPull *A, const RowPull *B) { return A->K > B->K; });
    return Taken;
  }

  /// (shapeLoop saw every access of the loop in a class.)
  unsigned classIndex(const Instruction *I) const {
    return *adcore::classIndex(P, I);
  }

  const Plan &P;
  const Shape &S;
  const Rows *R;
  RowPosition Pos;
  Shifter Shift;
  SmallVector<SmallVector<Instruction *, 4>, 8> Accesses;
  ArrayRef<bool> Zeroed;
};

/// The loop ID of the gathered loop: \p Original's properties.
MDNode *gatheredLoopID(LLVMContext &Ctx, MDNode *Original) {
  SmallVector<Metadata *, 4> Ops{nullptr};
  if (Original)
    append_range(Ops, drop_begin(Original->operands()));
  MDNode *ID = MDNode::getDistinct(Ctx, Ops);
  ID->replaceOperandWith(0, ID);
  return ID;
}

/// The blocks of one gathered copy of the loop: \p First (entered with
/// nothing done) to \p Last (which branches to the loop's exit).
struct GatheredBlocks {
  BasicBlock *First, *Last;
};

/// Emits a gathered copy of the loop with \p G, before \p Exit, in blocks
/// named \p Name; \p LiveOut (when given) gets the values of the last
/// iteration used after it.
GatheredBlocks emitGathered(Gatherer &G, const Shape &S, Value *Trips,
                            BasicBlock *Exit, MDNode *LoopID,
                            const DebugLoc &LatchLoc, const Twine &Name,
                            DenseMap<Value *, Value *> *LiveOut) {
  Function &F = *Exit->getParent();
  LLVMContext &Ctx = F.getContext();
  const int64_t Low = S.lowEnds(), High = S.highEnds();
  BasicBlock *First = BasicBlock::Create(Ctx, Name + ".first", &F, Exit);
  BasicBlock *Loop = BasicBlock::Create(Ctx, Name, &F, Exit);
  BasicBlock *Last = BasicBlock::Create(Ctx, Name + ".last", &F, Exit);

  // Iterations 0..N-1 (N = Trips + 1); elements KMin..N-1+KMax, of which
  // KHi..N-1+KMin get every contribution, with every iteration their
  // addends reach: the loop's. Element E (near iteration 0) and N + E (near
  // N - 1) take the contributions of existing iterations.
  IRBuilder<> B(First);
  Value *N = B.CreateAdd(Trips, B.getInt64(1), "adcc.n");
  Value *Count = B.CreateSub(N, B.getInt64(Low), "adcc.count");
  auto LowEnd = [&](int64_t E) {
    ElementIterations It(B, B.getInt64(E));
    G.elements(B, It, [&](int64_t K) { return K <= E; });
  };
  auto HighEnd = [&](int64_t E) {
    ElementIterations It(B, B.CreateAdd(N, B.getInt64(E)));
    G.elements(B, It, [&](int64_t K) { return K > E; });
  };
  // The values used after the loop, of its last iteration: before any
  // other store, as there (each iteration stores to its own elements).
  if (LiveOut)
    for (Instruction *I : S.LiveOuts)
      (*LiveOut)[I] = G.at(I, Trips, B);
  for (int64_t J = 0; J < Low; ++J)
    LowEnd(S.KMin + J);
  B.CreateBr(Loop);

  // The loop: an element, then the other stores of the iteration whose
  // elements are all done, KHi before.
  B.SetInsertPoint(Loop);
  B.SetCurrentDebugLocation(LatchLoc);
  PHINode *M = B.CreatePHI(B.getInt64Ty(), 2, "adcc.m");
  M->addIncoming(B.getInt64(0), First);
  ElementIterations It(B, B.CreateAdd(M, B.getInt64(S.KHi), "adcc.t"));
  G.elements(
      B, It, [](int64_t) { return true; }, /*Interior=*/true);
  G.stores(B, It.of(S.lag()));
  B.SetCurrentDebugLocation(LatchLoc);
  Value *Next = B.CreateAdd(M, B.getInt64(1), "adcc.m.next", true, true);
  M->addIncoming(Next, Loop);
  BranchInst *Latch = B.CreateCondBr(B.CreateICmpEQ(Next, Count), Last, Loop);
  Latch->setMetadata(LLVMContext::MD_loop, gatheredLoopID(Ctx, LoopID));

  // The other end, then the stores of the iterations not stored yet.
  B.SetInsertPoint(Last);
  for (int64_t J = 0; J < High; ++J)
    HighEnd(S.KMin + J);
  for (int64_t J = 0; J < Low; ++J)
    G.stores(B, B.CreateAdd(Count, B.getInt64(J)));
  B.CreateBr(Exit);
  return {First, Last};
}

/// Replaces \p L by its gathered form, behind the checks it needs; with
/// \p R, also by the forms of the rows of the loop around it.
void gatherLoop(Loop &L, const Plan &P, const Shape &S, const Rows *R,
                Value *KnownZero, ArrayRef<bool> Zeroed, ScalarEvolution &SE,
                LoopInfo &LI, DominatorTree &DT) {
  BasicBlock *Body = L.getHeader(), *Pre = L.getLoopPreheader(),
             *Exit = L.getExitBlock();
  MDNode *LoopID = L.getLoopID();
  DebugLoc LatchLoc = Body->getTerminator()->getDebugLoc();
  // (What the loop's last iteration leaves for the code after it goes
  // through phis there, which the unchanged copy adds to.)
  formLCSSA(L, DT, &LI, &SE);

  // Enough iterations for every offset, and the ranges apart.
  Instruction *At = Pre->getTerminator();
  IRBuilder<> PB(At);
  SCEVExpander Expander(SE, "adcc.gather");
  Value *Trips = PB.CreateZExtOrTrunc(
      Expander.expandCodeFor(S.Trips, nullptr, At->getIterator()),
      PB.getInt64Ty());
  Value *Check = PB.CreateICmpUGE(
      Trips, PB.getInt64(std::max<int64_t>(S.lowEnds(), S.LiveOutDepth)),
      "adcc.enough");
  if (Value *Apart = checkDisjoint(P, L, SE))
    Check = PB.CreateAnd(Check, Apart);
  std::optional<RowValues> RV;
  if (R)
    RV = expandRows(*R, S, L, SE);
  versionLoop(L, Check);

  Gatherer G(P, S, Body);
  DenseMap<Value *, Value *> LiveOut;
  GatheredBlocks One = emitGathered(G, S, Trips, Exit, LoopID, LatchLoc,
                                    "adcc.gather", &LiveOut);
  Pre->getTerminator()->replaceSuccessorWith(Body, One.First);
  SmallVector<std::pair<PHINode *, Value *>, 4> ExitValues;
  for (PHINode &Phi : Exit->phis()) {
    Value *V = Phi.getIncomingValueForBlock(Body);
    ExitValues.push_back({&Phi, V});
    if (Value *New = LiveOut.lookup(V))
      Phi.setIncomingValueForBlock(Body, New);
    Phi.replaceIncomingBlockWith(Body, One.Last);
  }
  SmallVector<SmallVector<Instruction *, 4>, 8> Classes = G.classes();
  if (KnownZero && !RV) {
    // Without rows: a copy whose elements the loop before left zero.
    Gatherer ZG(P, S, Body, nullptr, RowPosition::Only, nullptr, Zeroed);
    DenseMap<Value *, Value *> ZLiveOut;
    GatheredBlocks Z = emitGathered(ZG, S, Trips, Exit, LoopID, LatchLoc,
                                    "adcc.zeroedgather", &ZLiveOut);
    BasicBlock *Which = BasicBlock::Create(
        Pre->getContext(), "adcc.gather.zeroed", Pre->getParent(), One.First);
    BranchInst::Create(Z.First, One.First, KnownZero, Which);
    Pre->getTerminator()->replaceSuccessorWith(One.First, Which);
    for (auto [Phi, V] : ExitValues)
      Phi->addIncoming(ZLiveOut.lookup(V) ? ZLiveOut.lookup(V) : V, Z.Last);
    for (auto [Into, From] : zip(Classes, ZG.classes()))
      append_range(Into, From);
  }

  if (RV) {
    // In rows: the first, a middle or the last row's form, when the check
    // before the outer loop passed; else the forms above, per row.
    BasicBlock *Checks =
        Pre->splitBasicBlock(Pre->getTerminator(), "adcc.gather.check");
    LLVMContext &Ctx = Pre->getContext();
    Function &F = *Pre->getParent();
    BasicBlock *Which = BasicBlock::Create(Ctx, "adcc.rows", &F, Exit);
    BasicBlock *NotFirst =
        BasicBlock::Create(Ctx, "adcc.rows.notfirst", &F, Exit);
    Pre->getTerminator()->eraseFromParent();
    BranchInst::Create(Which, Checks, RV->Use, Pre);
    // (A middle row whose elements the nest before left zero: its sums
    // are stored without loading those zeros.)
    BasicBlock *Entries[4] = {};
    const RowPosition Positions[4] = {RowPosition::First, RowPosition::Middle,
                                      RowPosition::Last, RowPosition::Middle};
    const char *Names[4] = {"adcc.firstrow", "adcc.row", "adcc.lastrow",
                            "adcc.zeroedrow"};
    for (unsigned K = 0; K < (KnownZero ? 4 : 3); ++K) {
      Gatherer RG(P, S, Body, R, Positions[K], &RV->Bytes,
                  K == 3 ? Zeroed : ArrayRef<bool>());
      Entries[K] =
          emitGathered(RG, S, Trips, Exit, LoopID, LatchLoc, Names[K], nullptr)
              .First;
      for (auto [Into, From] : zip(Classes, RG.classes()))
        append_range(Into, From);
    }
    IRBuilder<> B(Which);
    B.CreateCondBr(B.CreateICmpEQ(RV->Iteration, B.getInt64(0)), Entries[0],
                   NotFirst);
    B.SetInsertPoint(NotFirst);
    BasicBlock *Middle = Entries[1];
    if (KnownZero) {
      Middle = BasicBlock::Create(Ctx, "adcc.rows.middle", &F, Exit);
      BranchInst::Create(Entries[3], Entries[1], KnownZero, Middle);
    }
    B.CreateCondBr(B.CreateICmpEQ(RV->Iteration, RV->LastIteration), Entries[2],
                   Middle);
  }

  scopeAccesses(Classes, Pre);
  Body->dropAllReferences();
  Body->eraseFromParent();
}

} // namespace

bool gatherUpdates(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || !EnableGather)
    return false;
  bool Changed = false;
  // The regions reverse nests leave zero, found before any of them changes.
  SmallVector<ZeroedRegion, 4> Regions = findZeroedRegions(
      F, FAM.getResult<LoopAnalysis>(F),
      FAM.getResult<ScalarEvolutionAnalysis>(F),
      FAM.getResult<DominatorTreeAnalysis>(F), FAM.getResult<AAManager>(F));
  if (!Regions.empty()) {
    FAM.invalidate(F, PreservedAnalyses::none());
    Changed = true;
  }
  // One loop at a time: each rewrite removes a loop and adds two.
  for (unsigned Round = 0; Round < 64; ++Round) {
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    auto &AA = FAM.getResult<AAManager>(F);
    Loop *Found = nullptr;
    std::optional<Plan> P;
    std::optional<Shape> S;
    for (Loop *L : LI.getLoopsInPreorder()) {
      if (!L->isInnermost() || !(P = planLoop(*L, SE, AA)))
        continue;
      if ((S = shapeLoop(*L, *P, SE))) {
        Found = L;
        break;
      }
    }
    if (!Found)
      break;
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    std::optional<Rows> R = planRows(*Found, *P, *S, SE, AA, DT, LI);
    SmallVector<bool, 2> Zeroed;
    Value *KnownZero = zeroedElements(*Found, *P, *S, R ? &*R : nullptr,
                                      Regions, SE, AA, Zeroed);
    auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
    ORE.emit([&] {
      unsigned Elements = 0;
      for (const Window &W : P->Windows)
        Elements += W.Updates.size();
      return OptimizationRemark("adcc", "GatheredUpdates",
                                P->Windows.front().leading().Store)
             << "additions into " << ore::NV("Elements", Elements)
             << " neighbouring elements gathered: each element is loaded "
                "and stored once, its addends recomputed from their "
                "iterations"
             << " (the unchanged loop runs when it has fewer iterations "
                "than the offsets span"
             << (P->Disjoint.empty() ? ")" : " or the address ranges meet)")
             << (R ? "; in rows: each row adds what the rows before and "
                     "after it would add into it (when the outer loop runs "
                     "twice or more and the rows' memory is apart)"
                   : "")
             << (KnownZero
                     ? (R ? "; a middle row stores its sums without loading "
                            "the elements a nest before left zero (when "
                            "nothing wrote them since)"
                          : "; it stores its sums without loading the "
                            "elements a loop before left zero (when nothing "
                            "wrote them since)")
                     : "");
    });
    gatherLoop(*Found, *P, *S, R ? &*R : nullptr, KnownZero, Zeroed, SE, LI,
               DT);
    FAM.invalidate(F, PreservedAnalyses::none());
    Changed = true;
  }
  dropUnusedRegions(Regions);
  return Changed;
}

} // namespace adcore
