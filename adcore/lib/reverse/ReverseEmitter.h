//===- ReverseEmitter.h - Reverse-mode emitter (private) -------*- C++ -*-===//
//
// Reverse mode builds two functions per derivative key, sharing the
// calling thread's tape (a LIFO of records in the runtime):
//
//  augmented sweep  a clone of the primal that also maintains shadow memory
//                   (the adjoints of memory) and, after each instruction
//                   whose adjoint needs primal values, pushes those values;
//                   at each block with several predecessors it pushes
//                   which predecessor it came from;
//  reverse sweep    one block per block of the augmented sweep, visited in
//                   the reverse of the executed order (read back from the
//                   tape): each instruction's adjoint rule runs, popping
//                   what its augmented twin pushed.
//
// Adjoints of values live in stack slots of the reverse function (one per
// active value, reset after each use, so loops reuse them); SROA turns them
// into registers. A callee is differentiated the same way: its augmented
// function replaces the call in the augmented sweep, its reverse function
// runs at that point of the reverse sweep. Files:
//   ReverseEmitter.cpp  structure: cloning, tape, block reversal
//   TapeRecords.cpp     how a value is pushed on and popped from the tape
//   LoopRecordState.h, ParallelState.h  the emitter's state of loops and
//                       of parallel code (bases of the emitter)
//   AugmentedShadows.cpp  shadow pointers in the augmented sweep
//   ReverseRules.cpp    what each instruction records, and its adjoint
//   ReverseCalls.cpp    calls: callees' augmented sweeps, allocations,
//                       indirect calls, registered gradients
//   ReverseRealloc.cpp  realloc: shadow blocks, adjoints of the moved bytes
//   NestedRecords.cpp   tape records of a reverse sweep differentiated again
//   TapePlan.cpp        the tape plan remark and listing
//   (and Recompute, InvariantRecords, InvariantTrips, LoopArrays,
//   CoalescedRecords, IntegerCopies: what keeps the tape small)
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_REVERSE_REVERSEEMITTER_H
#define ADCORE_REVERSE_REVERSEEMITTER_H

#include "analysis/ActivityAnalysis.h"
#include "LoopRecordState.h"
#include "ParallelState.h"
#include "adcore/Derivative.h"
#include "analysis/NullableShadows.h"
#include "analysis/ParallelMemory.h"
#include "Synthesis.h"
#include "analysis/TypeAnalysis.h"

#include "rules/PowerRule.h"
#include "support/BuriedInstructions.h"
#include "support/CloneOrigins.h"
#include "support/UnneededResults.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace llvm {
class AssumptionCache;
class DominatorTree;
class ScalarEvolution;
class SCEVExpander;
class TargetLibraryInfo;
class TargetLibraryInfoImpl;
class IntrinsicInst;
class Loop;
class LoopInfo;
class MemTransferInst;
} // namespace llvm

namespace adcore {

/// The emitter's state is grouped by concern: what loops record
/// (LoopRecordState.h) and what parallel regions keep (ParallelState.h)
/// are bases of the emitter, whose members its files use by name.
class ReverseEmitter : LoopRecordState, ParallelState {
public:
  ReverseEmitter(SynthesisContext &Ctx, const DerivativeKey &Key,
                 llvm::Function &Aug, llvm::Function &Rev);
  ~ReverseEmitter();
  bool run();

private:
  // --- augmented sweep (ReverseEmitter.cpp) ---------------------------
  bool buildAugmented();
  /// Reports a call that passes or returns a float's bits as an integer
  /// carrying a derivative (reverse mode does not follow them yet).
  bool followsIntegerBits(llvm::CallBase &Call, llvm::Function &Callee);
  bool dispatchIndirectCalls();
  bool checkIntrinsic(llvm::IntrinsicInst &II);
  bool emitCopyAdjoint(llvm::MemTransferInst &MT, llvm::Value *ShadowDest,
                       llvm::Value *ShadowSource, llvm::Value *Length);
  /// The adjoint of a move of std::function's untyped storage
  /// (ErasedMoveMetadata): the destination's shadow bytes back to the
  /// source's, the destination's cleared.
  void emitErasedMoveAdjoint(llvm::MemTransferInst &MT,
                             llvm::Value *ShadowDest, llvm::Value *ShadowSource,
                             llvm::Value *Length);
  /// True when the memory intrinsic \p I copies or sets numbers only (the
  /// type analysis knows integers there and nothing else): no adjoints,
  /// and its shadow, which may be the primal's own table, is left alone.
  bool writesOnlyNumbers(const llvm::Instruction &I) const;
  /// True when the bytes the memory intrinsic \p I writes may be numbers
  /// (the type analysis knows no float there): its shadow may then be the
  /// primal's own memory, which the shadow's clearing must leave alone.
  bool mayWriteNumbers(const llvm::Instruction &I) const;
  bool augmentInstruction(llvm::Instruction &I);
  /// A landing pad with a handler that execution may go on from, reached
  /// from a differentiated call: stops the program there if taken
  /// (CaughtExceptions.cpp).
  void guardCaughtException(llvm::LandingPadInst &LP);
  /// The shadow of \p I in lane Lane (pointers), and the shadow memory's
  /// upkeep (pointers stored, copied). (AugmentedShadows.cpp)
  bool augmentShadow(llvm::Instruction &I);
  /// Marks the shadow bytes \p Shadow that the store \p SI of a pointer
  /// (or its bits) gave a pointer's shadow, unless its bytes never hold a
  /// number (PointerShadowMarks.h; AugmentedShadows.cpp).
  void markStoredPointerShadow(const llvm::StoreInst &SI, llvm::Value *Shadow);
  /// shadowOrZero, but zeros for a struct of numbers and pointers built so
  /// far of numbers only (AugmentedShadows.cpp).
  llvm::Value *aggregateShadowOrZero(llvm::Value *V);
  /// For the store \p SI of a struct of pointers and numbers through the
  /// shadow address \p SP: stores the pointer fields of its shadow
  /// \p Shadow only, leaving the numbers' adjoints. (AugmentedShadows.cpp)
  void storePointerFieldShadows(const llvm::StoreInst &SI, llvm::Value *SP,
                                llvm::Value *Shadow, llvm::Align A);
  /// For a copy (\p MT, of \p Primal) of floating-point fields next to
  /// pointers: copies the pointers' shadows from \p SS to \p SD and returns
  /// true, or reports why it cannot and returns false; nullopt when the
  /// copied bytes are not such a mix. (AugmentedShadows.cpp)
  std::optional<bool> copyPointerFields(llvm::MemTransferInst &MT,
                                        const llvm::MemTransferInst &Primal,
                                        llvm::Value *SD, llvm::Value *SS);
  /// True when the integer \p V holds the address of an active pointer
  /// (AugmentedShadows.cpp).
  bool holdsActiveAddress(const llvm::Value *V, unsigned Depth) const;
  bool copiesShadowedBits(llvm::Value *V);
  bool changesShadowedBits(llvm::Value *V, unsigned Depth);
  /// Sets \p Replaced when the call was replaced by an augmented call.
  bool augmentCall(llvm::CallBase &Call, bool &Replaced);
  /// realloc: a shadow block for the new block (pointers moved by realloc
  /// bring their shadows along); the old shadow block is kept.
  bool augmentRealloc(llvm::CallBase &Call);
  /// realloc's adjoint: the moved bytes' adjoints go back to the old
  /// shadow block; the new one is freed.
  void emitReallocAdjoint(llvm::CallBase &Call,
                          llvm::DenseMap<llvm::Value *, llvm::Value *> &Popped);
  /// A tape push or pop (MemoryFunctionKind \p K) of a reverse sweep
  /// differentiated again: its record's shadow block (NestedRecords.cpp).
  bool augmentTapeRecord(llvm::CallBase &Call, unsigned K);
  /// The scratch shadow behind a null shadow pointer (or its stripping) in
  /// a forward-mode derivative differentiated again: the shadow of its
  /// result (NestedRecords.cpp).
  bool augmentNullShadowScratch(llvm::CallBase &Call);
  /// The pointer read from a tape record that \p Ptr is an address in
  /// (getUnderlyingObject), when it has a shadow; null otherwise
  /// (NestedRecords.cpp).
  llvm::LoadInst *recordedBase(llvm::Value *Ptr);
  /// \p SP, the shadow address of an access of \p Bytes bytes through
  /// \p Ptr, or where \p Ptr is based on a recorded pointer whose shadow
  /// (\p BaseShadow, in \p B's function) is null, a place without
  /// derivatives: constant zeros to read (\p Read), a stack slot to write
  /// to. Sets \p IsNull to that condition (null when \p Ptr is based on no
  /// recorded pointer: \p SP is returned).
  llvm::Value *guardRecorded(llvm::IRBuilder<> &B, llvm::Value *Ptr,
                             llvm::Value *SP, llvm::Value *BaseShadow,
                             uint64_t Bytes, bool Read, llvm::Value *&IsNull);
  /// adcc_adjoint_copy_* of a reverse sweep differentiated again.
  bool augmentAdjointCopy(llvm::CallBase &Call);
  void adjointCopyNeeds(llvm::CallBase &Call,
                        llvm::SmallVectorImpl<llvm::Value *> &Out);
  void emitAdjointCopyAdjoint(llvm::CallBase &Call,
                              llvm::DenseMap<llvm::Value *, llvm::Value *> &Popped);
  /// \p LaneWise: see CustomSite.
  bool augmentCustomGradient(llvm::CallBase &Call,
                             const struct CustomGradient &G,
                             bool LaneWise = false);
  /// The fields of a registered augmented function's result (-1: absent;
  /// a field of a non-struct result is the whole value).
  struct AugmentedFields {
    int Tape = -1, Result = -1, Shadow = -1;
  };
  bool augmentedShape(llvm::Type *Got, llvm::Type *Ret,
                      AugmentedFields &Fields);
  bool emitCustomAdjoint(llvm::CallBase &AugCall,
                         llvm::DenseMap<llvm::Value *, llvm::Value *> &Popped);
  /// The math rule of \p Callee, built in or by __enzyme_function_like.
  const struct MathRule *ruleFor(const llvm::Function &Callee) const;
  llvm::Value *shadowOrNull(llvm::Value *V);
  /// The shadow of \p V, or a null shadow for a value without one (a
  /// constant or an inactive pointer). An active instruction or argument
  /// without a shadow is an internal error, reported by run() (its null
  /// shadow would send the reverse sweep's additions to address 0).
  llvm::Value *shadowOrZero(llvm::Value *V);
  void record(llvm::Instruction &I, llvm::ArrayRef<llvm::Value *> Values);
  llvm::Value *tapeIn(llvm::Function &F);

  // --- reverse sweep (ReverseEmitter.cpp) -----------------------------
  bool buildReverse();
  void reverseBlock(llvm::BasicBlock &BB);

  // --- counted loops, recomputation, end records (Recompute.cpp) ------
  void planCountedLoops();
  void planRecomputation();
  /// What rebuilding a value in the reverse sweep takes.
  struct RebuildPlan {
    /// Leaves recorded once, at the return (arguments, values computed
    /// once per call).
    llvm::SmallVector<llvm::Value *, 4> Ends;
    /// Leaves recorded at the exits of counted loops (loop header, value).
    llvm::SmallVector<std::pair<llvm::BasicBlock *, llvm::Instruction *>, 2>
        Hoists;
    /// Loads read again once per run of a counted loop (header, load), when
    /// the reverse sweep enters it, instead of in each iteration.
    llvm::SmallVector<std::pair<llvm::BasicBlock *, llvm::Instruction *>, 2>
        Reloads;
    /// The instruction whose records may hold leaves that cannot be
    /// rebuilt (null: none may); those leaves.
    llvm::Instruction *RecordAt = nullptr;
    llvm::SmallSetVector<llvm::Value *, 2> Records;
    /// How many leaves were taken from records (RecordAt's, or at loop
    /// exits); a value rebuilt with none can be rebuilt anywhere in its
    /// loop.
    unsigned RecordedLeaves = 0;
    /// How many math calls it computes again (RecomputedCalls.cpp).
    unsigned MathCalls = 0;
  };
  /// Whether the reverse sweep computes the math call \p CI again (its
  /// arguments rebuilt from nothing recorded) instead of recording it
  /// (RecomputedCalls.cpp); adds what it needs to \p P.
  bool recomputableMathCall(llvm::CallInst &CI, const llvm::BasicBlock *Use,
                            unsigned Depth, RebuildPlan &P);
  /// Marks the reverse sweep's copy of a recomputed call as not touching
  /// memory (not even errno).
  void markRecomputedCall(llvm::Instruction &Clone);
  /// How many instructions one recorded value may take to rebuild.
  static constexpr unsigned MaxRecomputeNodes = 16;
  /// Whether the reverse sweep can rebuild \p V where \p Use is reversed,
  /// and from what (\p P).
  bool recomputable(llvm::Value *V, const llvm::BasicBlock *Use, unsigned Depth,
                    RebuildPlan &P);
  /// A leaf of a rebuilt value recorded with P.RecordAt, if it may be.
  bool recordLeaf(llvm::Instruction *I, RebuildPlan &P);
  /// Replaces records of \p I (in \p List) by fewer records of the values
  /// they are computed from, when they can be rebuilt from those.
  void recordLeavesInstead(llvm::Instruction *I,
                           llvm::SmallVectorImpl<llvm::Value *> &List,
                           llvm::SetVector<llvm::Value *> &Ends);
  /// Commits what rebuilding a value takes (end and exit records).
  void commitRebuild(const RebuildPlan &P,
                     llvm::SetVector<llvm::Value *> &Ends);
  /// Rebuilds \p V at RB's insertion point.
  llvm::Value *recompute(llvm::Value *V);
  /// Reads \p LI's primal memory again at RB's insertion point.
  llvm::LoadInst *reload(llvm::LoadInst &LI);
  /// The iteration of the counted loop of \p Header being reversed.
  llvm::Value *reverseIteration(llvm::BasicBlock *Header);
  void reverseCountedHeader(llvm::BasicBlock &BB,
                            llvm::function_ref<void(llvm::BasicBlock *)> Edge);
  void readEndRecords();
  /// Blocks with two predecessors entered one way or the other as a branch
  /// of their immediate dominator decides, on a condition the reverse
  /// sweep can rebuild (`if (d > 1) for ...` and the block after it): no
  /// path record.
  void planPathConditions(llvm::SetVector<llvm::Value *> &Ends);
  struct PathCondition {
    llvm::Value *Cond = nullptr;
    llvm::BasicBlock *IfTrue = nullptr, *IfFalse = nullptr;
  };
  llvm::DenseMap<llvm::BasicBlock *, PathCondition> PathConditions;

  // --- loop-invariant records (InvariantRecords.cpp) --------------------
  /// The header of the outermost counted loop around \p User that \p V
  /// does not depend on, if any.
  llvm::BasicBlock *invariantLoopFor(llvm::Value *V,
                                     const llvm::BasicBlock *UseBB);
  void hoistInvariantRecords();
  /// Records at each exit block of counted loops: trip counts and exit
  /// values, in one tape record; read back when the reverse sweep enters
  /// the loops there.
  void emitExitRecords();
  void readExitRecords(llvm::BasicBlock &BB);
  /// What the exit block \p Mid records: trip counts, then exit values.
  void exitRecordValues(llvm::BasicBlock *Mid,
                        llvm::SmallVectorImpl<llvm::Value *> &Values);
  /// Moves the exit records of inner loops into the array of the counted
  /// loop around their exit block (ExitArrays.cpp).
  void planExitArrays();

  // --- trip counts known before a loop nest (InvariantTrips.cpp) -------
  /// Inner counted loops whose count is the same in every run: computed
  /// before the outermost such loop and recorded with its exit values.
  void planInvariantTrips();
  /// Sets the reverse counters of those loops entered at \p BB.
  void readInvariantTrips(llvm::BasicBlock &BB);
  /// Inner counted loops with one exit whose count follows from values the
  /// reverse sweep rebuilds anyway (the iteration of an outer loop: `for
  /// (r = c + 1; r < d; r++)`): rebuilt where the reverse sweep enters the
  /// loop, not recorded. Part of planRecomputation (their rebuilding may
  /// need end records).
  void planRebuiltTrips(llvm::SetVector<llvm::Value *> &Ends);
  /// Whether the exits of the counted loop at \p Header record its count.
  bool recordsTripCount(llvm::BasicBlock *Header) const;

  // --- floating-point data copied as integers (IntegerCopies.cpp) -------
  /// The floating-point type whose bits the integer load \p LI copies into
  /// stores only (double, <2 x float>, ...), or null.
  llvm::Type *floatViewOf(llvm::LoadInst &LI);
  /// True when the store \p SI moves the bits of an integer load of 32 or
  /// 64 bits (a float's or a double's width) between memory with shadows
  /// where nothing says what they are: no view, no kind of the value, no
  /// kind of either memory, no TBAA type (an untyped memcpy of 8 bytes that
  /// InstCombine made a load and a store).
  /// Where the primal has no TBAA (-fno-strict-aliasing), every integer
  /// access is untyped: there, a move whose address indexes integers of
  /// its width (a swap in an array of ints) is taken for integers.
  bool movesUntypedBits(const llvm::StoreInst &SI);
  std::optional<bool> PrimalHasTBAA;
  llvm::Value *viewSlot(llvm::Value *V);
  /// The adjoints of a view's load and store, through the shadow
  /// \p ShadowPtr; where it may be null (NullShadowGuards.h), read from a
  /// block of zeros and written into a sink instead.
  void loadAdjointOfView(llvm::LoadInst &LI, llvm::Value *ShadowPtr,
                         bool Guarded);
  void storeAdjointOfView(llvm::StoreInst &SI, llvm::Value *ShadowPtr,
                          bool Guarded);
  /// Adds \p D, the adjoint of a bitcast of \p V, to V's view slot.
  void castAdjointToView(llvm::Value *V, llvm::Value *D);
  /// Adds \p D, the adjoint of a float read out of a view's bits, to its
  /// element of the view's slot.
  void elementAdjointToView(llvm::BitCastInst &Cast, llvm::Value *D);
  /// Integer loads that copy floating-point data, and their view type;
  /// floats read out of them: the load and the element.
  llvm::DenseMap<const llvm::Value *, llvm::Type *> FloatView;
  llvm::DenseMap<const llvm::Value *, std::pair<llvm::Value *, unsigned>>
      ViewElement;
  /// Views whose bits are integers and floats side by side (a struct's
  /// `int` and `float` copied as one i64): the mask of the lanes that are
  /// floats; the others move no adjoint. Absent: every lane.
  llvm::DenseMap<const llvm::Value *, uint64_t> ViewLanes;
  /// The mask of the lanes of \p K (float or double) in the \p Bits bits
  /// at \p P, where the other lanes hold integers and nothing else; 0 where
  /// some lane holds something else or none holds a \p K.
  uint64_t mixedLanes(const llvm::Value *P, unsigned Bits, Kind K);

  // --- records sharing one tape record (CoalescedRecords.cpp) ----------
  /// Whether \p I may push or pop tape records other than \p Pushes.
  bool separatesRecords(llvm::Instruction &I,
                        const llvm::DenseSet<llvm::CallInst *> &Pushes);
  void coalesceRecords();
  /// Records \p Values in one tape record (one by one when that is not
  /// possible, returning 0); returns its size. \p Tag: metadata for the
  /// push of the one record (EndRecordsMetadata).
  uint64_t pushTogether(llvm::IRBuilder<> &B,
                        llvm::ArrayRef<llvm::Value *> Values,
                        llvm::MDNode *Tag = nullptr);
  /// Reads back what pushTogether recorded, in the same order.
  void popTogether(llvm::ArrayRef<llvm::Value *> Values, uint64_t Bytes,
                   llvm::SmallVectorImpl<llvm::Value *> &Out,
                   llvm::MDNode *Tag = nullptr);
  /// The tag of this pair's end records (EndRecordsMetadata).
  llvm::MDNode *endRecordsTag();
  /// Reads back the record of \p V made after \p I (reverse sweep);
  /// \p Bases: the groups of the block released so far.
  llvm::Value *readRecord(llvm::Instruction &I, llvm::Value *V,
                          llvm::DenseMap<unsigned, llvm::Value *> &Bases);
  /// Per record in a group: the group and the offset in it; per group, its
  /// size.
  llvm::DenseMap<std::pair<llvm::Instruction *, llvm::Value *>,
                 std::pair<unsigned, uint64_t>>
      GroupOf;
  llvm::SmallVector<uint64_t, 16> GroupBytes;
  /// Per group outside loops, the tag of its push and pop (null in loops).
  llvm::SmallVector<llvm::MDNode *, 16> GroupTags;
  /// A new tag for the push and pop of a record outside loops, which a
  /// combined gradient may keep in its frame: {Aug, number}.
  llvm::MDNode *frameTag();
  unsigned FrameTags = 0;

  // --- per-iteration records in arrays (LoopArrays.cpp) ----------------
  /// Moves the per-iteration records of counted loops whose trip count is
  /// known on entry into one tape block per run of the loop.
  void planLoopArrays();
  /// Whether the array of \p L's records (those of \p Insts) fits a GPU
  /// thread's tape at \p L's most trips.
  bool deviceArrayFits(llvm::ScalarEvolution &SE, const llvm::Loop &L,
                       llvm::ArrayRef<llvm::Instruction *> Insts);
  /// Makes the array of the counted loop at \p H, \p Stride bytes per
  /// iteration (its push, its length and address among the loop's exit
  /// records); null when the trip count is not known on entry.
  LoopArray *makeLoopArray(llvm::BasicBlock *H, uint64_t Stride,
                           llvm::ScalarEvolution &SE,
                           llvm::SCEVExpander &Expander);
  /// The address of the record at \p Offset in the row of iteration
  /// \p Iter of the array of the loop at \p H (augmented sweep).
  llvm::Value *arrayRow(llvm::IRBuilder<> &B, llvm::BasicBlock *H,
                        llvm::Value *Iter, uint64_t Offset);
  /// Adds records of \p Values to each row of the array of the loop at
  /// \p H, each at its own size and alignment; appends their offsets to
  /// \p Offsets.
  void widenLoopArray(llvm::BasicBlock *H, llvm::ArrayRef<llvm::Value *> Values,
                      llvm::SmallVectorImpl<uint64_t> &Offsets);
  /// Moves each array's push after everything else its loop's entering
  /// block records (an exit block of a previous loop records its exit
  /// values there), so that it is the last record before the loop.
  void placeLoopArrays();
  /// Releases the array of the loop of \p Header (reverse sweep, on the way
  /// out of the loop).
  void releaseLoopArray(llvm::BasicBlock *Header);
  /// Reads back one array record in the reverse sweep.
  llvm::Value *arrayRecord(const ArrayRecord &R);

  // --- invariant records read from arrays (ReusedRecords.cpp) ----------
  /// Replaces loop-invariant records of loads by reads of the rows of an
  /// earlier loop's array that hold the same values.
  void reuseArrayRecords();
  /// The header of the counted loop around \p V whose iteration is the row
  /// of \p R's array that holds \p V's value, where that array may stand
  /// for \p V's record at the exits of the loop of \p Header; null if none.
  llvm::BasicBlock *rowLoopFor(llvm::LoadInst &V, llvm::BasicBlock *Header,
                               const ArrayRecord &R);
  /// Whether something may write \p Obj (an identified object) between an
  /// iteration of \p From and \p To, within one iteration of the loop
  /// around both (\p Around, null for the function).
  bool writesBetween(const llvm::Value *Obj, llvm::BasicBlock *From,
                     llvm::BasicBlock *To, const llvm::Loop *Around);
  /// Reads, as the reverse sweep enters the loops left at \p BB, the
  /// values their exits would have recorded from the arrays that hold them.
  void readReusedRecords(llvm::BasicBlock &BB);
  llvm::AllocaInst *hoistSlot(llvm::BasicBlock *Header, llvm::Value *V);
  void eraseRecord(llvm::CallInst *Push);
  /// Erases the record of \p V made after \p I, and forgets its push.
  void dropRecord(llvm::Instruction *I, llvm::Value *V);
  /// Whether the primal may write the memory of \p Obj, one of its
  /// arguments (cached).
  bool writesObject(const llvm::Value *Obj);
  /// Whether \p Ptr (in the augmented sweep) points into the memory of an
  /// argument that the primal does not write.
  bool stableArgumentMemory(const llvm::Value *Ptr);
  /// Whether the reverse sweep may read \p LI's memory again.
  bool reloadable(llvm::LoadInst &LI);

  // --- power rule (ReversePowerRules.cpp) --------------------------------
  /// Finds the products (fmul, fma) of powers of one active value and the
  /// factors only they use (PowerRule.h): the product's adjoint goes to the
  /// value directly, and those factors have no adjoint at all.
  void planPowerRules();
  /// The adjoint of a power product: a(x) += d * Factor * Other (and a(c)
  /// += d for fma(a, b, c)).
  bool emitPowerAdjoint(llvm::Instruction &I, const PowerRule &Power,
                        llvm::DenseMap<llvm::Value *, llvm::Value *> &Popped);
  /// The power rule of \p I when it is one of PowerProducts, from its
  /// operands as they are now (the augmented sweep replaces calls).
  std::optional<PowerRule> powerProduct(const llvm::Instruction &I) const;
  llvm::SmallPtrSet<const llvm::Instruction *, 8> PowerProducts;
  /// Factors of power products that nothing else uses: no adjoint.
  llvm::SmallPtrSet<const llvm::Instruction *, 8> Bypassed;

  // --- rules (ReverseRules.cpp) -----------------------------------------
  /// The primal values the adjoint of \p I needs, pushed after \p I.
  bool neededValues(llvm::Instruction &I,
                    llvm::SmallVectorImpl<llvm::Value *> &Out);
  /// Emits \p I's adjoint at RB's insertion point. \p Popped maps the
  /// values neededValues listed to their values in the reverse sweep.
  bool emitAdjoint(llvm::Instruction &I,
                   llvm::DenseMap<llvm::Value *, llvm::Value *> &Popped);

  // --- powers of two applied after a source's rule (DeferredScales.cpp)
  /// Notes \p Mul, a product of a float given a new exponent in its bits
  /// by a power of two, as deferred to its source's rule where it can be.
  void noteDeferredScale(llvm::BinaryOperator &Mul);
  /// The slot that keeps a deferred product's factor in the reverse sweep.
  llvm::Value *scaleSlot(llvm::Instruction &Mul);
  /// The adjoint of \p Mul, a deferred product by \p Factor: \p D times
  /// it where that is a normal number (or D is 0), else D, the factor
  /// kept for the source's rule.
  void emitDeferredScale(llvm::BinaryOperator &Mul, llvm::Value *D,
                         llvm::Value *Factor);
  /// Before and after \p I's adjoint rule: the factors its addAdjoint
  /// calls multiply by, where I is the rule of a deferred source.
  void beginDeferredScales(llvm::Instruction &I);
  void endDeferredScales();
  llvm::Value *applyPendingScales(llvm::Value *Delta);
  /// An error where a deferred factor was not applied.
  bool checkDeferredScales();
  llvm::SmallPtrSet<const llvm::Instruction *, 4> DeferredMuls;
  llvm::DenseMap<llvm::Instruction *, llvm::SmallVector<llvm::Instruction *, 2>>
      DeferredSources;
  llvm::SmallPtrSet<const llvm::Instruction *, 4> AppliedScales;
  llvm::DenseMap<llvm::Instruction *, llvm::AllocaInst *> ScaleSlots;
  llvm::SmallVector<llvm::Value *, 2> PendingScales;
  bool DeferredScaleLost = false;

  // Adjoint slots.
  bool isActiveFloat(const llvm::Value *V) const;
  llvm::Value *slot(llvm::Value *V);
  /// Loads and clears the adjoint of \p V.
  llvm::Value *takeAdjoint(llvm::Value *V);
  void addAdjoint(llvm::Value *V, llvm::Value *Delta);
  /// A + B for floats, float vectors and float aggregates (element-wise).
  llvm::Value *sum(llvm::Value *A, llvm::Value *B);
  /// A value of the augmented sweep as seen in the reverse sweep: a
  /// constant as is, anything else popped.
  llvm::Value *revValue(llvm::Value *V,
                        llvm::DenseMap<llvm::Value *, llvm::Value *> &Popped);

  bool unsupported(llvm::Instruction &I, const llvm::Twine &What);

  /// The tape plan: what the augmented sweep records, per call and per
  /// loop iteration. Reported as an optimization remark (-Rpass=adcc) and,
  /// with -fadcc-print-tape-plan, listed value by value.
  struct TapePlan {
    uint64_t CallBytes = 0, LoopBytes = 0, StackShadowBytes = 0;
    unsigned ValueRecords = 0, PathRecords = 0, LoopCounts = 0;
  };
  void reportTapePlan();
  /// Device code: adds \p D into the shadow \p To of \p LI's location with
  /// an atomic add where other threads may update it (DeviceCode.h), and
  /// counts the update for reportDeviceUpdates. Returns whether it added.
  /// \p SP, \p ShadowA: where and how the plain add reads the shadow (a
  /// Checked update of a parallel region adds plainly where its run-time
  /// check found the arrays apart).
  bool addAtomically(llvm::LoadInst &LI, llvm::Value *To, llvm::Value *D,
                     llvm::Value *SP, llvm::Align ShadowA);
  /// `*To += D` atomically (a vector lane by lane), skipping a null shadow.
  void emitAtomicAdd(llvm::LoadInst &LI, llvm::Value *To, llvm::Value *D);
  /// Device code: runs a barrier \p I of the primal (or a fence beside
  /// it) in the reverse sweep, once for all lanes. Returns whether \p I was
  /// one.
  bool mirrorsBarrier(llvm::Instruction &I,
                      llvm::DenseMap<llvm::Value *, llvm::Value *> &Popped);
  /// The remark of device code: which adjoint updates are atomic and why.
  void reportDeviceUpdates();

  // --- OpenMP parallel regions (ReverseOpenMP.cpp) ----------------------
  /// __kmpc_fork_call: a fork of the region's augmented sweep, whose
  /// threads' tapes a region handle notes (recorded for the reverse).
  bool augmentForkCall(llvm::CallBase &Call, bool &Replaced);
  /// The reverse of that fork: a fork of the region's reverse sweep on as
  /// many threads.
  bool emitForkAdjoint(llvm::CallBase &AugCall,
                       llvm::DenseMap<llvm::Value *, llvm::Value *> &Popped);
  // --- OpenMP tasks reversed as tasks (ReverseTasks.cpp) ----------------
  /// Whether the function's tasks run as tasks in both sweeps (a parallel
  /// function of a module with tasks, width 1, host code).
  bool runsTasks();
  /// Whether the module has tasks that run as tasks in reverse mode (none
  /// where a request differentiates code that asks for derivatives).
  bool moduleRunsTasks();
  /// Calls adcc_task_spawn on \p Batch at \p B's position.
  void spawnTasks(llvm::IRBuilder<> &B, llvm::Value *Batch);
  /// The call of a task's entry that prepare/OpenMPTasks.cpp made: started
  /// as a task with a tape of its own (Replaced), or left to run where it
  /// is (returns true, Replaced false).
  bool augmentTaskCall(llvm::CallBase &Call, bool &Replaced);
  /// The reverse of that task's creation: waits for its reverse, copies
  /// the adjoints of its record back, frees its handle.
  bool emitTaskAdjoint(llvm::CallBase &Started,
                       llvm::DenseMap<llvm::Value *, llvm::Value *> &Popped);
  /// A __kmpc_omp_wait_deps in a function whose tasks run as tasks: the
  /// wait of a task with dependences that augmentTaskCall starts, or an
  /// error (an undeferred task with dependences).
  bool checkDependenceWait(llvm::CallBase &Call);
  /// After a taskwait, a taskgroup's end or a barrier: takes the tasks
  /// created since the last sync point (a batch, recorded).
  void augmentTaskSync(llvm::CallBase &Call);
  /// Its mirror: spawns the batch's reverses (after the barrier's mirror).
  /// Returns whether \p I was one.
  bool mirrorsTaskSync(llvm::Instruction &I,
                       llvm::DenseMap<llvm::Value *, llvm::Value *> &Popped);

  /// `atomicrmw fadd p, v` (omp atomic): v's adjoint is the adjoint of *p,
  /// read from its shadow \p SP (null: memory without derivatives).
  bool emitAtomicAdjoint(llvm::AtomicRMWInst &RMW, llvm::Value *SP);

  /// The region's shared memory (analysis/ParallelMemory.h), made once.
  ParallelMemory &sharedMemory();
  /// Whether the adjoint of a copy from \p PrimalSource adds into memory
  /// other threads may update (the body of a parallel region; not the
  /// thread's stack): then atomically (runtime/lib/shared_copies.c).
  bool sharedCopySource(const llvm::Value *PrimalSource);
  /// In a parallel region: how the adjoint of what \p LI reads is added
  /// (analysis/ParallelMemory.h), and why; \p Object names the per-thread
  /// copy.
  ParallelUpdate parallelUpdateOf(llvm::LoadInst &LI, const char *&Why,
                                  const llvm::Value *&Object);

  // --- run-time overlap checks of a region's arrays (ApartChecks.cpp) ---
  /// After cloning: the augmented sweep's values of each check of
  /// sharedMemory() (\p VMap: primal to clone).
  void noteApartChecks(llvm::ValueToValueMapTy &VMap);
  /// At the end: the checks in the augmented sweep, each noted in the
  /// region (runtime/lib/parallel.c).
  void emitApartChecks();
  /// In the reverse sweep: whether check \p K found its arrays apart (read
  /// once, at the entry).
  llvm::Value *apartFlag(int K);
  /// In a parallel region: the bits of \p Call's pointer arguments that
  /// point into the calling thread's stack (DerivativeKey::PrivateArgs).
  uint64_t threadPrivateArgs(const llvm::CallBase &Call) const;

  // --- OpenMP critical sections (CriticalSections.cpp) -----------------
  /// In a parallel region: whether a critical section has adjoints that
  /// depend on the order the threads ran it in (anything but sums into
  /// shared memory): then every section of the function takes a ticket
  /// (OrderedCriticals), and the reverse runs them in reverse order.
  void planCriticalSections();
  /// After the augmented sweep's clone \p End of a section's end, where
  /// the sections are ordered: takes the thread's ticket and records it;
  /// after any omp_*_lock call, records its lock.
  void takeCriticalTicket(llvm::CallBase &End);
  /// In a parallel region (Key.Parallel): a barrier of the primal runs
  /// again at its mirror; a critical section's end is entered there (in
  /// its turn, \p Popped holding its ticket) and its start left. Returns
  /// whether \p I was one of them.
  bool mirrorsOpenMPSync(llvm::Instruction &I,
                         llvm::DenseMap<llvm::Value *, llvm::Value *> &Popped);

  // --- Per-thread adjoints of an OpenMP region (ThreadAdjoints.cpp) -----
  /// Adds \p D into the thread's private copy of the shadow of \p Object
  /// at \p To (the shadow address). Returns false where the value's type
  /// has no copy (then the caller adds atomically).
  bool addPerThread(llvm::Value *To, llvm::Value *D,
                    const llvm::Value *Object);
  /// At the end of the reverse sweep: adds the copies into the shadows.
  void addUpThreadAdjoints();
  /// The copy of \p Object's shadow (a runtime window in the reverse
  /// sweep's frame), made on first use.
  llvm::AllocaInst *threadAdjoints(const llvm::Value *Object,
                                   uint64_t ElementBytes);

  SynthesisContext &Ctx;
  DerivativeKey Key;
  llvm::Function &Aug;
  llvm::Function &Rev;
  llvm::IRBuilder<> AB; ///< builder in the augmented sweep
  llvm::IRBuilder<> RB; ///< builder in the reverse sweep
  llvm::Value *AugTape = nullptr;
  llvm::Value *RevTape = nullptr;

  std::unique_ptr<ActivityAnalysis> Activity;
  std::unique_ptr<TypeAnalysis> Types;
  CloneOrigins PrimalOf;
  llvm::DenseSet<const llvm::Value *> Active;
  /// Pointers into local memory (stack slots, heap blocks allocated here)
  /// that never holds a derivative: passed to a callee as constants (a
  /// table of pointers into constant memory has null shadow pointers).
  llvm::DenseSet<const llvm::Value *> CleanSlotClones;
  /// Pointers whose shadow may be null at run time while they are not (a
  /// pointer to constant data read back from memory with derivatives:
  /// NullableShadows.h); accesses through them are guarded
  /// (NullShadowGuards.h). Per call, its callee's key bits.
  llvm::DenseSet<const llvm::Value *> NullableClones;
  /// The primal values of NullableClones (the device code's read-back
  /// checks, readsBackThroughNullShadow, look at the primal function).
  llvm::DenseSet<const llvm::Value *> NullablePrimals;
  llvm::DenseMap<const llvm::Value *, NullableBits> CalleeNullableBits;
  bool nullable(const llvm::Value *V) const {
    return NullableClones.contains(V);
  }
  /// The first active value shadowOrZero found without a shadow.
  llvm::Value *MissingShadow = nullptr;
  /// Device code (NVPTX, AMDGPU): adjoint updates of memory other threads
  /// may touch are atomic; how many were, and were not, by reason.
  bool DeviceCode = false;
  std::map<std::string, unsigned> AtomicUpdates, PlainUpdates, PerThreadUpdates,
      CheckedUpdates;
  /// Device code: the atomic and plain updates of each array
  /// (deviceArrayName), in the order of their first update.
  llvm::SmallVector<std::pair<std::string, std::pair<unsigned, unsigned>>, 4>
      ArrayUpdates;
  void countArrayUpdate(const llvm::Value *Address, bool Atomic);

  /// Batched reverse mode (width > 1) carries one adjoint per lane: each
  /// lane has its own shadows, adjoint slots and realloc sites, and the
  /// code that handles them runs once per lane (Lane says which; the
  /// primal and the tape are shared).
  unsigned Width = 1, Lane = 0;
  /// Shadow pointers in the augmented sweep, per lane.
  llvm::SmallVector<llvm::DenseMap<llvm::Value *, llvm::Value *>, 1>
      LaneShadows;
  llvm::DenseMap<llvm::Value *, llvm::Value *> &shadows() {
    return LaneShadows[Lane];
  }
  /// What each instruction pushed, in order; the push of each record;
  /// what the reverse sweep rebuilds instead of recording.
  /// (Map vectors wherever the emitter iterates: the generated code must
  /// not depend on where the compiler's objects lie in memory.)
  llvm::MapVector<llvm::Instruction *, llvm::SmallVector<llvm::Value *, 3>>
      Recorded;
  llvm::DenseMap<std::pair<llvm::Instruction *, llvm::Value *>,
                 llvm::CallInst *>
      PushOf;
  llvm::DenseMap<llvm::Instruction *, llvm::SmallVector<llvm::Value *, 3>>
      Recomputed;
  /// The block being reversed (recompute reads hoisted leaves there), and
  /// the records read back for the instruction being reversed.
  llvm::BasicBlock *ReversingBlock = nullptr;
  const llvm::DenseMap<llvm::Value *, llvm::Value *> *ReadRecords = nullptr;
  /// Values recorded once, at the return; their values in the reverse sweep.
  llvm::SmallVector<llvm::Value *, 8> EndRecords;
  uint64_t EndBytes = 0;
  llvm::DenseMap<llvm::Value *, llvm::Value *> EndValues;
  llvm::DenseMap<const llvm::Value *, bool> WritesObject;
  unsigned RecomputeBudget = 0;
  std::unique_ptr<llvm::DominatorTree> AugDT;
  std::unique_ptr<llvm::LoopInfo> AugLoops;
  /// Scalar evolution of the augmented sweep's final control flow (trip
  /// counts), built on first use, with what it needs.
  llvm::ScalarEvolution &augmentedSCEV();
  std::unique_ptr<llvm::TargetLibraryInfoImpl> AugTLII;
  std::unique_ptr<llvm::TargetLibraryInfo> AugTLI;
  std::unique_ptr<llvm::AssumptionCache> AugAC;
  std::unique_ptr<llvm::ScalarEvolution> AugSE;
  /// Augmented calls that replaced user calls: their key and the value
  /// that replaced the call's result (null for void).
  llvm::DenseMap<llvm::Instruction *, DerivativeKey> CallKeys;
  llvm::DenseMap<llvm::Instruction *, llvm::Value *> CallResult;
  /// Calls of registered augmented functions: the rule, and the values
  /// given to the reverse function (args, shadows, tape), in order.
  struct CustomSite {
    const CustomGradient *Rule = nullptr;
    llvm::SmallVector<llvm::Value *, 8> RevArgs;
    llvm::Value *Result = nullptr;
    llvm::Value *Tape = nullptr;
    /// Batched (width > 1) by the width-1 rule run once per direction (a
    /// warp shuffle: linear in its value, no pointer arguments).
    bool LaneWise = false;
  };
  llvm::DenseMap<llvm::Instruction *, CustomSite> CustomSites;
  /// The reverse function's call of \p Site for the current lane.
  bool emitCustomAdjointLane(llvm::CallBase &AugCall, CustomSite &Site,
                             llvm::DenseMap<llvm::Value *, llvm::Value *> &Popped);
  bool HadRuleError = false;
  /// Shadow stack blocks: alloca -> bytes, freed at the alloca's reverse.
  llvm::DenseMap<llvm::Instruction *, uint64_t> ShadowAllocas;
  /// The frame tags of the shadow blocks of fixed-size stack slots of the
  /// entry block: a combined gradient keeps them in its frame.
  llvm::DenseMap<llvm::Instruction *, llvm::MDNode *> ShadowBlockTags;
  /// Shadow heap blocks: allocation call -> pushed shadow pointer. (Also
  /// the shadow blocks of tape records: NestedRecords.cpp.)
  llvm::DenseSet<llvm::Instruction *> ShadowMallocs;
  /// Stores of pointers whose shadows the augmented sweep marked with a
  /// record: their reverse puts back the bytes from before
  /// (PointerShadowMarks.h).
  llvm::DenseSet<const llvm::Instruction *> MarkedStores;
  /// The ends of nested requests' marks (PointerShadowMarks.h): their
  /// reverse undoes the outer shadow stores those ends made.
  llvm::DenseSet<const llvm::Instruction *> NestedMarkEnds;
  /// adcc_adjoint_copy_* calls whose destination has a shadow.
  llvm::DenseSet<llvm::Instruction *> AdjointCopies;
  /// Shadow blocks of realloc calls; where the moved bytes are doubles or
  /// floats (Data), the old shadow block and how many bytes realloc moved,
  /// for the adjoints to go back (otherwise null: only the block to free).
  struct ReallocSite {
    llvm::Value *OldShadow = nullptr, *Bytes = nullptr;
    Kind Data = Kind::Unknown;
  };
  llvm::SmallVector<llvm::DenseMap<llvm::Instruction *, ReallocSite>, 1>
      LaneReallocs;
  llvm::DenseMap<llvm::Instruction *, ReallocSite> &reallocSites() {
    return LaneReallocs[Lane];
  }
  llvm::SmallVector<llvm::Instruction *, 8> Dead;
  /// Parameters whose primal values the caller does not want (DupNoNeed
  /// output arrays), and the augmented sweep's writes of those values,
  /// erased once both sweeps are built.
  UnneededResults Unneeded;
  bool augmentMirroredCall(llvm::CallBase &Call);
  /// Erases \p I, replaced and unused, and the facts recorded about it
  /// (bury).
  void eraseReplaced(llvm::Instruction *I);
  /// Takes \p I, unused, out of its function and drops its operands; it is
  /// deleted with the emitter (BuriedInstructions.h).
  void bury(llvm::Instruction *I);
  BuriedInstructions Graveyard;
  /// Math calls whose partial is another call's result (cos x for sin x;
  /// MathCompanions.cpp): the companion, and whether the partial is minus
  /// it. A companion after its call records its own value
  /// (CarriesOwnValue), which the reverse sweep keeps (Carried) until it
  /// reaches the call.
  llvm::DenseMap<llvm::Instruction *, std::pair<llvm::CallInst *, bool>>
      Companions;
  llvm::DenseSet<llvm::Instruction *> CarriesOwnValue;
  llvm::DenseMap<llvm::Value *, llvm::Value *> Carried;

  /// Block ids for the path record, and the reverse block of each block.
  llvm::DenseMap<llvm::BasicBlock *, unsigned> BlockId;
  llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> RevBlock;
  /// Adjoint slots, per lane.
  llvm::SmallVector<llvm::DenseMap<llvm::Value *, llvm::AllocaInst *>, 1>
      LaneSlots;
  llvm::DenseMap<llvm::Value *, llvm::AllocaInst *> &slots() {
    return LaneSlots[Lane];
  }
  llvm::BasicBlock *RevEntry = nullptr;
  llvm::BasicBlock *RevExit = nullptr;
  llvm::ReturnInst *AugReturn = nullptr;
  /// The primal result when the augmented sweep returns it in a pair.
  llvm::Value *PrimalReturn = nullptr;
};

} // namespace adcore

#endif // ADCORE_REVERSE_REVERSEEMITTER_H
