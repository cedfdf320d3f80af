//===- GatheredUpdates.h - Gathered stencil loops (private) -----*- C++ -*-===//
//
// What GatheredUpdates.cpp (a stencil reverse loop gathered per element)
// and GatheredRows.cpp (the rows of such a loop in an outer loop, pulling
// each other's updates) share: the shape of a gathered loop and the plan of
// its rows.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_GATHEREDUPDATES_H
#define ADCORE_GATHEREDUPDATES_H

#include "LoopUpdates.h"
#include "ZeroedRegions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

#include <array>
#include <optional>

namespace adcore {

/// Recomputed instructions beyond the loop's own that an element may cost.
constexpr unsigned MaxExtraInstructions = 24;
/// A header phi of the loop: at iteration S it holds Start + S * Step.
struct Induction {
  llvm::Value *Start;
  int64_t Step;
};

/// A header phi that carries a value from the iteration before (the
/// adjoint of a value the primal loop carried: a load of the next
/// iteration's element, reused); \p Start in the first iteration.
struct Carried {
  llvm::Value *Start;
  llvm::Value *Latch;
};

/// One addition into an element: \p U, of the iteration K before it.
struct Contribution {
  const Update *U;
  int64_t K;
};

/// How a planned loop is gathered.
struct Shape {
  llvm::DenseMap<llvm::PHINode *, Induction> Inductions;
  llvm::DenseMap<llvm::PHINode *, Carried> CarriedPhis;
  /// The values of the last iteration used after the loop, and how many
  /// iterations back they reach.
  llvm::SmallVector<llvm::Instruction *, 2> LiveOuts;
  unsigned LiveOutDepth = 0;
  /// The stores outside the windows, in the body's order.
  llvm::SmallVector<llvm::StoreInst *, 4> Stores;
  /// Per window: its contributions, earlier iterations first.
  llvm::SmallVector<llvm::SmallVector<Contribution, 4>, 2> Contributions;
  const llvm::SCEV *Trips; ///< backedge-taken count
  /// The offsets' range; KHi: the highest offset plus depth.
  int64_t KMin = 0, KMax = 0, KHi = 0;

  /// The elements before the loop's first, which lack a contribution or
  /// would reach back before the first iteration, and those after its last,
  /// which lack one.
  int64_t lowEnds() const { return KHi - KMin; }
  int64_t highEnds() const { return KMax - KMin; }
  /// The offset of the element after which an iteration's other stores
  /// come: the last that reads the iteration.
  int64_t lag() const { return KHi; }
};

/// Where a run of the gathered loop is in the loop around it: without
/// rows (Only), or its first, a middle or its last iteration.
enum class RowPosition { Only, First, Middle, Last };

/// One of the loop's other stores that adds into the row of the outer
/// loop's next iteration (\p ToNext) or previous one, `*Q += a(s)` with Q
/// the element that update \p K of window \p Window makes there: that row
/// adds a(s) itself, computed one row away, first (the push came before its
/// own additions) or last (after them).
struct RowPull {
  Update Push;
  unsigned Window;
  int64_t K;
  bool ToNext;
};

/// How the runs of a gathered loop in an outer loop (its rows) take over
/// each other's pushes.
struct Rows {
  llvm::Loop *Outer = nullptr;
  const llvm::SCEV *OuterTrips =
      nullptr; ///< the outer loop's backedge-taken count
  llvm::SmallVector<RowPull, 2> Pulls;
  /// The loop's constant stores (the zeroing of the adjoint that the pulls
  /// read), each done by the next row, after it read the element.
  llvm::SmallVector<llvm::StoreInst *, 2> Deferred;
  /// Bytes per outer iteration of the accesses made one row away: the
  /// loads of the pulled addends and the deferred stores.
  /// (In the order found: the expansions are emitted in this order.)
  llvm::MapVector<llvm::Instruction *, const llvm::SCEV *> Steps;
  /// What the check before the outer loop compares: |Step| >= Span (a
  /// row's elements apart from the next row's), and ranges over the whole
  /// nest apart: {ALo, AHi, BLo, BHi}, as integers.
  llvm::SmallVector<std::pair<const llvm::SCEV *, const llvm::SCEV *>, 4>
      Separate;
  llvm::SmallVector<std::array<const llvm::SCEV *, 4>, 4> Apart;

  const RowPull *pullOf(const llvm::StoreInst *S) const {
    for (const RowPull &P : Pulls)
      if (P.Push.Store == S)
        return &P;
    return nullptr;
  }
};

/// Per access made one row away (Rows::Steps): the bytes to the previous
/// row's element and to the next row's, computed before the loop.
using RowBytes =
    llvm::DenseMap<llvm::Instruction *, std::array<llvm::Value *, 2>>;

/// What the rows need before the gathered loop: whether the nest runs in
/// rows (computed before the outer loop), the outer iteration and its
/// last, and the bytes of the accesses made a row away.
struct RowValues {
  llvm::Value *Use, *Iteration, *LastIteration;
  RowBytes Bytes;
};

/// The bytes \p Address (of \p L's body) moves from one iteration of the
/// loop \p O around \p L to the next (zero when it does not move), when
/// that is the same in every iteration; else null.
const llvm::SCEV *outerStep(const llvm::SCEV *Address, const llvm::Loop &L,
                            const llvm::Loop &O, llvm::ScalarEvolution &SE);
/// \p S (an address or offset) as an integer.
const llvm::SCEV *asInteger(const llvm::SCEV *S, llvm::ScalarEvolution &SE);
/// The lowest (\p Low) or highest value \p S (of the loop \p O's body)
/// takes in any of \p O's iterations (\p OuterTrips + 1); null when S is
/// neither invariant in \p O nor linear in its iterations.
const llvm::SCEV *overNest(const llvm::SCEV *S, bool Low, const llvm::Loop &O,
                           const llvm::SCEV *OuterTrips,
                           llvm::ScalarEvolution &SE);

/// How the rows of \p L (gathered as \p S says) in the loop around it take
/// over each other's pushes, when they can; may give that loop a preheader.
std::optional<Rows> planRows(llvm::Loop &L, const Plan &P, const Shape &S,
                             llvm::ScalarEvolution &SE, llvm::AAResults &AA,
                             llvm::DominatorTree &DT, llvm::LoopInfo &LI);

/// Computes what \p R needs: the check before the outer loop, the bytes to
/// the rows before and after, and the outer iteration before \p L.
RowValues expandRows(const Rows &R, const Shape &S, llvm::Loop &L,
                     llvm::ScalarEvolution &SE);

/// An i1 computed before the outer loop of \p R (or before \p L without
/// rows): whether the elements that the gathered loop loads (in its middle
/// rows; of \p L's windows in \p Zeroed, set here) are all zero there,
/// left so by a nest in \p Regions; null when no window's are known.
/// (ZeroedRegions.cpp.)
llvm::Value *zeroedElements(llvm::Loop &L, const Plan &P, const Shape &S,
                            const Rows *R, llvm::ArrayRef<ZeroedRegion> Regions,
                            llvm::ScalarEvolution &SE, llvm::AAResults &AA,
                            llvm::SmallVectorImpl<bool> &Zeroed);

} // namespace adcore

#endif // ADCORE_GATHEREDUPDATES_H
