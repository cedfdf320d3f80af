//===- optimize/Optimize.h - Rewrites of generated derivatives --*- C++ -*-===//
//
// The optimize stage: what runs on the derivatives once they are generated
// (ADPass.cpp's finishGenerated, and the passes Pipeline.cpp registers):
// simplification, inlining, and the loop rewrites that make reverse loops
// fast.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_OPTIMIZE_OPTIMIZE_H
#define ADCORE_OPTIMIZE_OPTIMIZE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"

namespace llvm {
class LoopInfo;
class ScalarEvolution;
} // namespace llvm

namespace adcore {

class SynthesisContext;
struct CombinedSweeps;

/// Runs the function simplification pipeline of \p Level on \p Functions
/// (the generated derivatives, or with \p Derivatives false the functions
/// they were inlined into): they were created after the module's own
/// simplification ran. Derivatives' loops also get
/// keepAccumulationsInRegisters, and with \p Contract their adjoint sums
/// are contracted (ContractArithmetic.h). With \p UnrollCounted (the
/// module's loops stay rolled: loopsStayRolled) the loops that became
/// countable during the simplification are fully unrolled after it.
void optimizeGenerated(llvm::ArrayRef<llvm::Function *> Functions,
                       llvm::OptimizationLevel Level, bool Derivatives,
                       bool Contract = false, bool UnrollCounted = false);

/// Whether a loop of \p M is marked `llvm.loop.unroll.disable` (clang marks
/// every loop so under -fno-unroll-loops and at -O1): then the optimizer
/// that runs after adcc's pass unrolls no loop. Asked before adcc's pass
/// changes the module.
bool loopsStayRolled(const llvm::Module &M);

/// Inlines \p Call (of a generated function) as the inliner would: only
/// into a caller compiled for the same target and processor features, and
/// merging the callee's function attributes that describe its code into
/// the caller's (the vector width its intrinsics need:
/// "min-legal-vector-width" of AVX-512 code). Returns whether it did.
bool inlineGeneratedCall(llvm::CallBase &Call);

/// Inlines calls of the generated \p Functions that are worth it: a
/// derivative called once, or a small one; never a recursive one. The
/// functions that received code worth simplifying again are added to \p
/// Touched: not a caller that only received the body of one of \p
/// Simplified (simplified, and nothing inlined into it since) through a call
/// whose arguments are neither constants nor addresses in its frame; the
/// rest of the pipeline optimizes that caller as it is. With \p Always
/// (device code, whose sweeps must reach the function that holds their
/// tape), every call of a non-recursive one is inlined, whatever its size.
void inlineGenerated(llvm::ArrayRef<llvm::Function *> Functions,
                     const llvm::SmallPtrSetImpl<llvm::Function *> &Simplified,
                     llvm::SmallPtrSetImpl<llvm::Function *> &Touched,
                     bool Always = false);

/// Replaces each phi of an aggregate (the `[N x double]` tangent of a
/// batched derivative) by one phi per scalar element, so that loops carrying
/// them are within reach of the loop vectorizer. Returns whether \p F
/// changed.
bool splitAggregatePhis(llvm::Function &F);

/// Moves each call of llvm.sin or llvm.cos next to the other function's
/// call of the same angle earlier in its block (a primal's sin(x) and the
/// cos(x) of its adjoint), where the code generator computes both by one
/// call of sincos (SinCosPairs.cpp). Returns whether \p F changed.
bool pairSinesAndCosines(llvm::Function &F);

/// pairSinesAndCosines as a pass (adcc-opt's `-passes=adcc-pair-sin-cos`).
struct PairSinesAndCosinesPass
    : public llvm::PassInfoMixin<PairSinesAndCosinesPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &) {
    return pairSinesAndCosines(F) ? llvm::PreservedAnalyses::none()
                                  : llvm::PreservedAnalyses::all();
  }
};

/// Replaces the calls of adcc_tape_thread (and of adcc_tape_thread_level
/// with one constant level) in \p F by one that dominates them, where no
/// other call of F can change the thread's tape (TapeHandles.cpp): the
/// sweeps inlined into one function, a callee's in a loop, ask for it once.
/// Returns whether \p F changed.
bool shareTapeHandles(llvm::Function &F);

/// shareTapeHandles as a pass (adcc-opt's `-passes=adcc-share-tape-handles`).
struct ShareTapeHandlesPass : public llvm::PassInfoMixin<ShareTapeHandlesPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &) {
    return shareTapeHandles(F) ? llvm::PreservedAnalyses::none()
                               : llvm::PreservedAnalyses::all();
  }
};

/// Replaces each tape push of constant size that the same tape's pop of
/// that size follows on its only path, with nothing between them that may
/// touch the tape, by a stack slot (AdjacentRecords.cpp): the records a
/// combined gradient's sweeps pass from one to the other where their tags
/// were lost. Returns the bytes moved to \p F's frame.
uint64_t keepAdjacentRecordsInFrame(llvm::Function &F);

/// splitAggregatePhis as a pass (adcc-opt's
/// `-passes=adcc-split-aggregate-phis`).
struct SplitAggregatePhisPass
    : public llvm::PassInfoMixin<SplitAggregatePhisPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &) {
    return splitAggregatePhis(F) ? llvm::PreservedAnalyses::none()
                                 : llvm::PreservedAnalyses::all();
  }
};

/// Splits the packed read-modify-writes of shadow memory that the SLP
/// vectorizer made in a loop (`du[k-1..k] += {a, b}`) back into one per
/// element where the next iteration's overlaps them in part: a store that
/// the next load covers only in part cannot be forwarded to it
/// (OverlappingUpdates.cpp). Returns whether \p F changed.
bool splitOverlappingUpdates(llvm::Function &F, llvm::LoopInfo &LI,
                             llvm::ScalarEvolution &SE);

/// splitOverlappingUpdates as a pass, after the vectorizers (Pipeline.cpp;
/// adcc-opt's `-passes=adcc-split-overlapping-updates`).
struct OverlappingUpdatesPass
    : public llvm::PassInfoMixin<OverlappingUpdatesPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

/// In a function holding derivative code, moves each call of llvm.sin or
/// llvm.cos up to right after the computation of its angle, and that
/// computation to the top of its block (from the call's block or its single
/// predecessor), so that fewer floating-point values live across the call
/// (EarlyMathCalls.cpp). Returns whether \p F changed.
bool moveMathCallsUp(llvm::Function &F, llvm::LoopInfo &LI);

/// moveMathCallsUp as a pass, after the whole IR pipeline (Pipeline.cpp;
/// adcc-opt's `-passes=adcc-early-math-calls`).
struct EarlyMathCallsPass : public llvm::PassInfoMixin<EarlyMathCallsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

/// Moves the computation of values carried around a loop (the incoming value
/// of a header phi) above the phi's first user where only arithmetic has to
/// move, so that the loop vectorizer recognizes the recurrence. The reverse
/// loops of stencils need it. Returns whether \p F changed.
bool orderRecurrenceUpdates(llvm::Function &F);

/// Keeps the adjoint contributions that a loop adds into neighbouring
/// elements of one array (the reverse loop of a stencil) in registers until
/// their element is complete, which then is loaded and stored once; the
/// additions and their order stay the same. Loops whose other accesses may
/// touch those elements are versioned by a check of the address ranges.
/// Returns whether \p F changed.
bool keepAccumulationsInRegisters(llvm::Function &F,
                                  llvm::FunctionAnalysisManager &FAM);

/// Turns the reverse loop of a stencil around where its addends are cheap
/// to compute again: a new loop walks over the elements the loop adds into
/// and adds each element's contributions, recomputed from their iterations,
/// in the original order (GatheredUpdates.cpp). Loops with fewer iterations
/// than the offsets span, or whose arrays meet, run unchanged. Returns
/// whether \p F changed.
bool gatherUpdates(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

/// gatherUpdates as a pass (adcc-opt's `-passes=adcc-gathered-updates`).
struct GatheredUpdatesPass : public llvm::PassInfoMixin<GatheredUpdatesPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM) {
    return gatherUpdates(F, FAM) ? llvm::PreservedAnalyses::none()
                                 : llvm::PreservedAnalyses::all();
  }
};

/// keepAccumulationsInRegisters as a pass (adcc-opt's
/// `-passes=adcc-accumulation-windows`).
struct AccumulationWindowsPass
    : public llvm::PassInfoMixin<AccumulationWindowsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM) {
    return keepAccumulationsInRegisters(F, FAM)
               ? llvm::PreservedAnalyses::none()
               : llvm::PreservedAnalyses::all();
  }
};

/// Replaces the tape pushes and pops of \p F (generated code) by inline
/// fast paths that call the runtime only at the end of a chunk; with \p
/// KeepEndRecords, not those of end records (EndRecordsMetadata), which
/// inlineCombinedSweeps may put in a stack slot.
void expandTapeOperations(llvm::Function &F, bool KeepEndRecords = false);
/// Expands the given pushes and pops (calls of adcc_tape_push and
/// adcc_tape_pop) as expandTapeOperations does.
void expandTapeCalls(llvm::ArrayRef<llvm::CallInst *> Calls);

/// Inlines each combined gradient's augmented and reverse sweeps into the
/// function that runs them back to back, where they are its only calls,
/// and keeps their end records in its frame (CombinedSweeps.cpp). Adds the
/// functions changed to \p Touched.
void inlineCombinedSweeps(const SynthesisContext &Ctx,
                          llvm::SmallPtrSetImpl<llvm::Function *> &Touched);
/// Notes in \p Ctx each derivative that calls itself, directly or through
/// other derivatives: a recursive function's sweeps, whose records stay
/// on the tape (CombinedSweeps.cpp). Run before the derivatives are
/// optimized: tail-call elimination makes loops of such calls. (Calls
/// through pointers are already dispatches to direct calls of each
/// target's derivative.)
void noteRecursiveSweeps(SynthesisContext &Ctx);
/// True when \p S's sweeps are called by S.Caller only (and once each).
bool callsCombinedAlone(const CombinedSweeps &S);
/// The sweeps of the callees of \p S's sweeps that are inlined with them
/// and keep their records in the same frame: an augmented sweep called
/// only from S.Aug (or from such a callee's), whose reverse sweep is
/// called as often, only from S.Rev (or the callee's reverse sweep); at
/// several sites only small ones, 8 copies at most; callers first. None
/// in device code, none of a recursive function's (and below).
void calleeSweepsInFrame(
    const SynthesisContext &Ctx, const CombinedSweeps &S,
    llvm::SmallVectorImpl<std::pair<llvm::Function *, llvm::Function *>>
        &Pairs);

} // namespace adcore

#endif // ADCORE_OPTIMIZE_OPTIMIZE_H
