//===- ForwardEmitter.h - Forward-mode emitter (private) -------*- C++ -*-===//
//
// Private header of the forward-mode emitter. The emitter clones the primal
// into the derivative function and, walking the clone in reverse post-order,
// emits after each active instruction the instructions that compute its
// tangent (or, for pointers, its shadow). One visitor method per instruction
// kind, grouped into files by family:
//   ForwardEmitter.cpp  signature, cloning, traversal, phis, returns
//   ForwardArith.cpp    floating-point arithmetic, casts, select
//   ForwardMemory.cpp   alloca, load, store, GEP, mem intrinsics, heap
//   ForwardCalls.cpp    calls: math rules, intrinsics, user functions
//   ForwardVector.cpp   vector and aggregate operations, reductions
//   ForwardLanes.cpp    batched tangents of arithmetic in <N x T> vectors
//   ForwardInterleaved.cpp  batched shadows of local arrays with the lanes
//                       side by side
//   ForwardSplit.cpp    split forward mode: records instead of the primal's
//                       memory, and the sweep that writes them
//   ForwardRecords.cpp  forward mode over a reverse sweep: which recorded
//                       pointers have tangents that are never null
//   ForwardError.cpp    error estimation rules (__enzyme_error_estimate)
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_FORWARD_FORWARDEMITTER_H
#define ADCORE_FORWARD_FORWARDEMITTER_H

#include "support/BuriedInstructions.h"
#include "support/CloneOrigins.h"
#include "support/UnneededResults.h"
#include "analysis/ActivityAnalysis.h"
#include "adcore/Derivative.h"
#include "analysis/NullableShadows.h"
#include "Synthesis.h"
#include "analysis/TypeAnalysis.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstVisitor.h"

#include <memory>
#include <optional>

namespace adcore {

/// The blocks of \p F outside the loops the loop vectorizer may take (all of
/// them when \p LoopVectorizer is off: it does not run): there a batched
/// tangent of arithmetic is computed in one <N x T> vector
/// (ForwardLanes.cpp).
llvm::SmallVector<const llvm::BasicBlock *, 16>
vectorLaneBlocks(llvm::Function &F, bool LoopVectorizer);

/// Width N > 1: the floating-point type T of the scalars \p AI's memory is
/// only read and written as, when its shadow can hold the N lanes side by
/// side, element by element (ForwardInterleaved.cpp); else null.
/// \p PlainCall: whether a call is one whose callee's derivative is made
/// here with the caller's key (ForwardEmitter::plainUserCall), which may
/// take such shadows too. The same for a pointer \p Root (a parameter),
/// through at most \p Depth calls.
using PlainCallFn = llvm::function_ref<bool(const llvm::CallBase &)>;
llvm::Type *interleavedElementType(const llvm::AllocaInst &AI,
                                   const llvm::DataLayout &DL,
                                   PlainCallFn PlainCall);
llvm::Type *interleavedElementType(const llvm::Value &Root,
                                   const llvm::DataLayout &DL,
                                   PlainCallFn PlainCall, unsigned Depth);

/// The loads of pointers from tape records in \p F, in instruction order
/// (forward mode over a reverse sweep: ForwardRecords.cpp).
llvm::SmallVector<const llvm::LoadInst *, 8>
recordedPointerLoads(const llvm::Function &F);

class ForwardEmitter : public llvm::InstVisitor<ForwardEmitter, bool> {
public:
  ForwardEmitter(SynthesisContext &Ctx, const DerivativeKey &Key,
                 llvm::Function &Derivative);

  /// Fills the derivative's body. False after a diagnosed error.
  bool run();

  // Visitors return false after reporting an error. The default (for
  // instruction kinds without a rule) reports an unsupported instruction.
  bool visitInstruction(llvm::Instruction &I);

  // ForwardArith.cpp
  bool visitBinaryOperator(llvm::BinaryOperator &I);
  bool visitUnaryOperator(llvm::UnaryOperator &I);
  bool visitCastInst(llvm::CastInst &I);
  bool visitSelectInst(llvm::SelectInst &I);
  bool visitCmpInst(llvm::CmpInst &) { return true; }
  bool visitFreezeInst(llvm::FreezeInst &I);

  // ForwardMemory.cpp
  bool visitAllocaInst(llvm::AllocaInst &I);
  bool visitLoadInst(llvm::LoadInst &I);
  bool visitStoreInst(llvm::StoreInst &I);
  bool visitGetElementPtrInst(llvm::GetElementPtrInst &I);
  bool visitMemTransferInst(llvm::MemTransferInst &I);
  bool visitMemSetInst(llvm::MemSetInst &I);
  bool visitAtomicRMWInst(llvm::AtomicRMWInst &I);
  bool visitAtomicCmpXchgInst(llvm::AtomicCmpXchgInst &I);

  // ForwardCalls.cpp
  bool visitCallBase(llvm::CallBase &I);

  // ForwardVector.cpp
  bool visitExtractElementInst(llvm::ExtractElementInst &I);
  bool visitInsertElementInst(llvm::InsertElementInst &I);
  bool visitShuffleVectorInst(llvm::ShuffleVectorInst &I);
  bool visitExtractValueInst(llvm::ExtractValueInst &I);
  bool visitInsertValueInst(llvm::InsertValueInst &I);

  // Control flow: nothing to do for branches; phis and returns are handled
  // by the traversal.
  bool visitBranchInst(llvm::BranchInst &) { return true; }
  bool visitSwitchInst(llvm::SwitchInst &) { return true; }
  bool visitUnreachableInst(llvm::UnreachableInst &) { return true; }
  bool visitReturnInst(llvm::ReturnInst &) { return true; }
  bool visitPHINode(llvm::PHINode &) { return true; }
  // Exceptions carry no derivatives: the unwind path runs the primal's
  // cleanups (differentiated like any code) and rethrows.
  bool visitLandingPadInst(llvm::LandingPadInst &) { return true; }
  bool visitResumeInst(llvm::ResumeInst &) { return true; }

private:
  friend class ForwardCallEmitter;

  /// True when \p V carries a tangent or shadow (one has been emitted).
  bool isActive(const llvm::Value *V) const;
  /// Whether a callee gets the argument \p V with a tangent: an active
  /// value, or a null pointer (with a null tangent: a function that writes
  /// through an optional output pointer only when it is not null then has
  /// the derivative of that store).
  bool duplicatedArgument(const llvm::Value *V) const;
  /// True when the activity analysis found \p V active.
  bool isAnalyzedActive(const llvm::Value *V) const {
    return ActiveClones.contains(V);
  }
  /// True when \p V is a number: an integer that the type analysis knows
  /// is never the bits of a pointer or a float (a count, an index, an id).
  bool isNumber(const llvm::Value *V);
  /// Takes numbers out of ActiveClones (ForwardEmitter.cpp).
  void dropActiveNumbers();
  /// The tangent/shadow of \p V: its mapped value, or zero (null shadow)
  /// when \p V is constant. Of type shadowType(V's type, Width).
  llvm::Value *tangent(llvm::Value *V);
  /// The tangent of \p V, or null when \p V is constant.
  llvm::Value *tangentOrNull(llvm::Value *V);
  void setTangent(llvm::Value *V, llvm::Value *T) { Tangents[V] = T; }
  llvm::Value *zero(llvm::Type *PrimalTy);

  /// Tags \p Shadow, lane \p Lane's access of the shadow of what \p Primal
  /// accesses: shadow memory (MemoryScopes.h), the primal's TBAA, the lane.
  void tagShadowAccess(const llvm::Instruction &Primal,
                       llvm::Instruction &Shadow, unsigned Lane);
  /// Lane \p L of a shadow (the shadow itself at width 1).
  llvm::Value *lane(llvm::Value *Shadow, unsigned L);
  /// Builds a shadow of type shadowType(PrimalTy) lane by lane.
  llvm::Value *forEachLane(llvm::Type *PrimalTy,
                           llvm::function_ref<llvm::Value *(unsigned)> Fn);

  /// The tangent of \p A * \p B by the power rule (PowerRule.h): a
  /// constant times one factor times dx, when both factors are powers of the
  /// same x.
  std::optional<llvm::Value *> powerRuleTangent(llvm::Value *A, llvm::Value *B);
  /// Factor * Other of a power rule: what multiplies dx.
  llvm::Value *powerScale(const struct PowerRule &Power);

  /// Width N > 1: the N lanes of a floating-point shadow as one vector, and
  /// back.
  llvm::Value *packLanes(llvm::Value *Shadow);
  llvm::Value *unpackLanes(llvm::Value *Vec);
  /// The tangent of a floating-point \p I at width N > 1, computed in one
  /// <N x T> vector (null: an operation computed lane by lane).
  llvm::Value *vectorTangent(llvm::BinaryOperator &I, llvm::Value *TA,
                             llvm::Value *TB);
  /// Shadows whose lanes lie side by side (ForwardInterleaved.cpp): the
  /// shadow of alloca \p I of element type \p T; of a GEP of such a
  /// pointer; a load and a store through one, all lanes at once.
  llvm::Value *interleavedAlloca(llvm::AllocaInst &I, llvm::Type *T,
                                 bool Zero);
  llvm::Value *interleavedGEP(llvm::GetElementPtrInst &I, llvm::Value *SP,
                              llvm::Type *T);
  llvm::Value *interleavedLoad(llvm::LoadInst &I, llvm::Value *SP);
  void interleavedStore(llvm::StoreInst &I, llvm::Value *SP, llvm::Value *TV);
  void interleavedClear(llvm::MemSetInst &I, llvm::Value *SD);
  void tagInterleavedAccess(const llvm::Instruction &Primal,
                            llvm::Instruction &Shadow);
  /// Whether \p Call is differentiated by a derivative of its callee (a
  /// function of this module) made with this key's mode (emitUserCall), no
  /// rule.
  bool plainUserCall(const llvm::CallBase &Call) const;

  /// Reports a user error at \p I; returns false.
  bool unsupported(llvm::Instruction &I, const llvm::Twine &What);

  bool emitPhis(llvm::ArrayRef<llvm::PHINode *> Phis);
  bool emitReturns();

  // ForwardError.cpp: with Key.ErrorEstimate, the tangent of a
  // floating-point operation or math call is its error estimate.
  bool emitErrorOperation(llvm::Instruction &I);
  bool emitErrorMathCall(llvm::CallBase &Call, const struct MathRule &Rule);
  /// Sets \p I's tangent to the estimate made of its result \p Result, its
  /// arguments \p Args and the partial of each (null: no contribution);
  /// \p SelectRule: the result is the argument whose partial is not 0.
  void setErrorEstimate(llvm::Instruction &I, llvm::Value *Result,
                        llvm::ArrayRef<llvm::Value *> Args,
                        llvm::ArrayRef<llvm::Value *> Partials,
                        const struct MathRule *SelectRule);
  /// Calls the program's enzymeLogError(value, error, ...) after \p I, as
  /// Enzyme does, when the module has such a function.
  bool logError(llvm::Instruction &I, llvm::Value *Error);

  // ForwardCalls.cpp helpers.
  bool emitMathCall(llvm::CallBase &Call, const struct MathRule &Rule);
  bool emitCustomForward(llvm::CallBase &Call, llvm::Function &Custom);
  bool emitIntrinsicCall(llvm::IntrinsicInst &II);
  bool emitMemoryFunctionCall(llvm::CallBase &Call, unsigned Kind);
  /// A call of a function that only links pointer structures
  /// (MirroredFunctions.h): repeated on the shadows.
  bool emitMirroredCall(llvm::CallBase &Call);
  bool emitUserCall(llvm::CallBase &Call, llvm::Function &Callee);
  bool emitIndirectCall(llvm::CallBase &Call);
  /// An OpenMP parallel region: a fork of its tangent region
  /// (ForwardOpenMP.cpp).
  /// The call of a task's entry that prepare/OpenMPTasks.cpp made (with
  /// the callee's tangent \p D): started as a task again, on copies of its
  /// record and tangent record. Returns false where it is left a call.
  bool emitTaskCall(llvm::CallBase &Call, llvm::Function &D,
                    const DerivativeKey &K);
  bool emitForkCall(llvm::CallBase &Call);
  /// A call of the per-thread adjoints' runtime in a reverse sweep
  /// differentiated again: the same on the tangents' window
  /// (ForwardOpenMP.cpp).
  bool emitThreadAdjointsCall(llvm::CallBase &Call);
  /// ForwardRecords.cpp: the callee's DerivativeKey::NonNullRecords and
  /// NullRecords in \p K, for \p Call of \p Callee (a reverse sweep whose
  /// augmented sweep this function also calls).
  void recordTangents(llvm::CallBase &Call, llvm::Function &Callee,
                      DerivativeKey &K);
  /// The derivative key for \p Call's arguments calling \p Callee.
  DerivativeKey calleeKey(llvm::CallBase &Call, llvm::Function *Callee);
  /// \p Call's arguments, each followed by its shadow when active.
  llvm::SmallVector<llvm::Value *, 16> calleeArgs(llvm::CallBase &Call);
  /// Replaces \p Call by the primal part of \p Result (a derivative's
  /// result for key \p K) and records the shadow part as its tangent.
  void replaceCall(llvm::CallBase &Call, llvm::Value *Result,
                   const DerivativeKey &K);

  // ForwardSplit.cpp: split forward mode (Key.Split).
  /// The next record, of type \p T, read where B is.
  llvm::Value *readRecord(llvm::Type *T);
  /// A call of a function with a registered split derivative: its tape
  /// and result are read from the records.
  bool emitCustomSplit(llvm::CallBase &Call,
                       const CustomSplitDerivative &Rule);
  /// Once the tangents are emitted: the primal's code reads records
  /// instead of memory and writes nothing; then the recording sweep.
  bool finishSplit();
  /// Whether the tangent sweep reads the records of \p Reads (and calls
  /// the callees' tangent sweeps) in the primal's order within each block,
  /// the order the recording sweep writes them; an internal error if not.
  bool
  readsInPrimalOrder(const llvm::SmallPtrSetImpl<llvm::Instruction *> &Reads);
  /// The recording sweep, writing the primal's values \p Recorded.
  bool makeRecorder(llvm::ArrayRef<const llvm::Instruction *> Recorded);
  /// Split mode: the records (the tangent sweep's last parameter); the
  /// primal's calls whose callees' tangent sweeps read records of their
  /// own, with their keys; those of registered split derivatives.
  llvm::Value *Records = nullptr;
  /// (In the order met: the recorders are made in this order.)
  llvm::MapVector<const llvm::Instruction *, DerivativeKey> SplitCallees;
  llvm::SmallVector<const llvm::CallBase *, 4> SplitRuleCalls;

  SynthesisContext &Ctx;
  DerivativeKey Key;
  llvm::Function &Derivative;
  unsigned Width;
  /// Values of the clone that the activity analysis found active.
  llvm::DenseSet<const llvm::Value *> ActiveClones;
  /// Loads of the clone from memory that never holds derivatives (a stack
  /// slot of constants: a sign mask at -O0).
  llvm::DenseSet<const llvm::Value *> ConstantLoads;
  /// Stack slots that never hold a derivative (and whose callees put none
  /// there): a callee gets them without a shadow.
  llvm::SmallPtrSet<const llvm::Value *, 8> CleanSlotClones;
  /// Pointers whose tangent may be null at run time while they are not (a
  /// pointer to constant data read back from memory with derivatives, a
  /// pointer read from a tape record: NullableShadows.h); accesses through
  /// them are guarded (NullShadowGuards.h). Per call, its callee's key bits.
  llvm::DenseSet<const llvm::Value *> NullableClones;
  /// The primal values of NullableClones (the device code's read-back
  /// checks, readsBackThroughNullShadow, look at the primal function).
  llvm::DenseSet<const llvm::Value *> NullablePrimals;
  /// Loads of pointers from tape records whose tangent is always null
  /// (DerivativeKey::NullRecords).
  llvm::SmallPtrSet<const llvm::Value *, 4> NullRecordClones;
  /// Width N > 1: the blocks of the clone whose floating-point tangents are
  /// computed in <N x T> vectors.
  llvm::SmallPtrSet<const llvm::BasicBlock *, 16> VectorLaneBlocks;
  /// Width N > 1: the pointers of the clone whose shadows hold the lanes
  /// side by side, with the element type.
  llvm::DenseMap<const llvm::Value *, llvm::Type *> Interleaved;
  /// Width N > 1: the <N x T> phis of floating-point phis in blocks whose
  /// lanes are vectors (their tangents: the phis' lanes).
  llvm::DenseMap<const llvm::PHINode *, llvm::PHINode *> VectorPhis;
  llvm::DenseMap<const llvm::Value *, NullableBits> CalleeNullableBits;
  bool nullable(const llvm::Value *V) const {
    return NullableClones.contains(V);
  }
  /// Parameters whose primal values the caller does not want (DupNoNeed
  /// output arrays), and the primal's writes of those values.
  UnneededResults Unneeded;
  /// The type analysis of the primal (computed when first needed), and the
  /// primal value of each clone.
  std::unique_ptr<TypeAnalysis> Types;
  CloneOrigins PrimalOf;
  /// What the type analysis says of the clone's value \p V.
  bool holdsFloatBits(const llvm::Value *V);
  /// holdsFloatBits, or \p V is taken out of such bits (a shift, a
  /// truncation, a member of a returned struct) or is what a function
  /// returns as a float's bits (returnsFloatBits), \p Depth steps back.
  bool carriesFloatBits(const llvm::Value *V, unsigned Depth = 6);
  bool primalCarriesFloatBits(const llvm::Value *P, unsigned Depth);
  /// What the type analysis says of the clone's value \p V (Integer: never
  /// the bits of a float or a pointer).
  Kind primalKind(const llvm::Value *V);
  /// The type analysis of the primal (made on first use).
  const TypeAnalysis &types();
  llvm::IRBuilder<> B;
  llvm::DenseMap<llvm::Value *, llvm::Value *> Tangents;
  /// Instructions replaced while emitting (user calls), erased at the end.
  llvm::SmallVector<llvm::Instruction *, 8> Dead;
  /// Floats given a new exponent in their bits (ScaledTangentMetadata)
  /// and their tangents: checked for overflow once the body is complete.
  llvm::SmallVector<std::pair<llvm::Instruction *, llvm::Value *>, 2>
      ScaledTangents;
  /// Instructions deleted while the maps above are in use
  /// (BuriedInstructions.h).
  BuriedInstructions Graveyard;
  /// The primal's return value in the clone, per return instruction.
  llvm::SmallVector<llvm::ReturnInst *, 4> Returns;
};

} // namespace adcore

#endif // ADCORE_FORWARD_FORWARDEMITTER_H
