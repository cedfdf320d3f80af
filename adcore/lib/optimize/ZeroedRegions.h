//===- ZeroedRegions.h - Memory a reverse nest left zero (private) -*- C++
//-*-===//
//
// The reverse loop of `u[c] = f(w[c - n .. c + n])` zeroes the adjoint of
// what it overwrote (`du[c] = 0`) in every element of a 2-D region; the
// reverse loop done next (of `w[c] = g(u[...])`) adds into those very
// elements (`du[c] += ...`). Where nothing wrote that memory in between, it
// can store its sums without loading the zeros first.
//
// The same for 1-D stencils: a loop alone zeroing consecutive elements
// leaves a region of one row.
//
// findZeroedRegions finds the nests (and loops) that zero such a region and
// computes it where they end; zeroedAt tells, at a point of the function,
// whether a region is still zero there: a flag that the nest's end sets and
// every instruction that may write the memory clears (phis where paths
// meet), the rows wanted inside the rows zeroed, and the plain stores on
// the last straight stretch before that point apart from the wanted rows.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ZEROEDREGIONS_H
#define ADCORE_ZEROEDREGIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"

namespace adcore {

/// Rows of bytes, as i64 values: [Lowest + r * Stride, Lowest + r * Stride
/// + RowBytes) for r < Rows (Stride > 0).
struct RowRegion {
  llvm::Value *Lowest, *Rows, *RowBytes, *Stride;
};

/// A loop nest that stores zero into every byte of a region of rows each
/// time it runs: an inner loop, run in every iteration of the outer one,
/// zeroing consecutive elements in each of its iterations; or such a loop
/// alone (one row).
struct ZeroedRegion {
  /// The underlying object of the zeroed memory.
  llvm::Value *Object;
  /// The nest's only exit, a block of its own: the region is zero when
  /// control reaches it, if \p Valid.
  llvm::BasicBlock *After;
  /// i1, in \p After: the nest's other stores that may meet the region
  /// stayed apart from it.
  llvm::Value *Valid;
  /// The region, computed in \p After.
  RowRegion Region;
};

/// The nests of \p F that zero a region (each given a block of its own
/// after it, where its region is computed).
llvm::SmallVector<ZeroedRegion, 4> findZeroedRegions(llvm::Function &F,
                                                     llvm::LoopInfo &LI,
                                                     llvm::ScalarEvolution &SE,
                                                     llvm::DominatorTree &DT,
                                                     llvm::AAResults &AA);

/// An i1 computed at the end of \p At: whether every byte of \p Wanted
/// (values available there) is zero, because \p Z's nest zeroed a region
/// that holds it and nothing that may write \p Memory ran since; null when
/// that cannot be told (\p At writes such memory itself, or is the entry).
llvm::Value *zeroedAt(const ZeroedRegion &Z, llvm::BasicBlock *At,
                      const RowRegion &Wanted,
                      const llvm::MemoryLocation &Memory, llvm::AAResults &AA);

/// Removes the computations of \p Regions that nothing used, and the
/// blocks that held them.
void dropUnusedRegions(llvm::ArrayRef<ZeroedRegion> Regions);

} // namespace adcore

#endif // ADCORE_ZEROEDREGIONS_H
