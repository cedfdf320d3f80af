//===- analysis/PrivateBlocks.h - Memory of one kind only -*- C++ -*-===//
//
// Reverse mode marks the shadow bytes of pointers the augmented sweep
// stores or reads, and restores marked bytes where a number with a
// derivative is stored over them (support/PointerShadowMarks.h): a check
// of the thread's marks at every such store, which keeps a loop of them
// from being vectorized. Memory that only the function reads and writes,
// and that only ever holds numbers (or only pointers), needs neither: a
// local variable, and since 2026-12-07 a heap block the function
// allocates (malloc, calloc, aligned_alloc, new) whose address goes
// nowhere but to loads, stores and its free. Its shadow is a block of
// the derivative's own, zeroed when allocated: no pointer's shadow is
// ever in it. (GMM's gradient at d = 64 ran its Q x loop over such a
// block scalar, with a check per element.)
// Since 2026-12-07 the memory may also be handed to calls that only read
// through it and keep no copy of its address (`readonly captures(none)`
// parameters): the OpenMP GMM region's `main_term`, given to
// log_sum_exp, got a check per store, and each check took the request's
// shared marks lock in every thread of the team.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ANALYSIS_PRIVATEBLOCKS_H
#define ADCORE_ANALYSIS_PRIVATEBLOCKS_H

namespace llvm {
class Value;
} // namespace llvm

namespace adcore {

/// Whether the primal bytes at \p Ptr are a local variable or a heap block
/// of the function that only it reads and writes, and whose stores all
/// store pointers (\p Pointers) or all floating-point values.
bool isPrivateMemoryOf(const llvm::Value *Ptr, bool Pointers);

} // namespace adcore

#endif // ADCORE_ANALYSIS_PRIVATEBLOCKS_H
