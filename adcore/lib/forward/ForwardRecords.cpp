//===- ForwardRecords.cpp - Shadow records that never hold null ----------===//
//
// Forward mode over a reverse sweep (Hessian-vector products): each tape
// record gets a shadow record holding the outer tangent of each recorded
// value (ForwardCalls.cpp). A pointer the augmented sweep recorded comes
// back in the reverse sweep with the tangent its shadow record holds,
// which is null where the outer request passed that pointer enzyme_const;
// accesses through it are then guarded (NullShadowGuards.h): a select per
// access, which keeps the reverse sweep's loops from vectorizing.
//
// Where the function that runs the reverse sweep D also runs the
// augmented sweep A that pushes the records D reads (a combined gradient:
// `call A(...)` then `call D(seed)`), the recorded pointer is, in A, one of
// A's pointer arguments, and the caller's forward mode knows whether it
// passes A a tangent for it that cannot be null: a duplicated argument of
// its own, an allocation's shadow. Then every shadow record D reads holds
// that tangent, and D's key says so (DerivativeKey::NonNullRecords): its
// forward mode does not guard accesses through it. Where the caller passes
// A no tangent for it at all (a constant parameter of the objective, which
// the reverse sweep reads again), the shadow record always holds null, and
// D's key says that (NullRecords): what D reads through the pointer has no
// tangent, which the optimizer then sees (the guards fold away).
//
// The conditions keep the pairing of pushes and pops certain: A is called
// only from this function (and the derivative being made of it), every
// call of A passes the same kind of tangent for that argument, a call
// of A dominates the call of D, the push is A's only one with the record's
// tag (EndRecordsMetadata: one tag per augmented sweep and group) and each
// pointer stored at that offset of it is the argument or an address
// computed from it.
//
//===----------------------------------------------------------------------===//

#include "ForwardEmitter.h"
#include "adcore/MemoryFunctions.h"
#include "support/IRMarks.h"
#include "support/MemoryScopes.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"

using namespace llvm;

namespace adcore {
namespace {

bool isTapeCall(const Value *V, MemoryFunctionKind Kind) {
  const auto *Call = dyn_cast<CallInst>(V);
  const Function *F = Call ? Call->getCalledFunction() : nullptr;
  return F && classifyMemoryFunction(*F) == Kind;
}

/// The tape record \p Addr points into, if it is the result of a push or
/// pop (\p Kind) tagged with EndRecordsMetadata, and the offset in it.
const CallInst *taggedRecord(const Value *Addr, MemoryFunctionKind Kind,
                             const DataLayout &DL, int64_t &Offset) {
  APInt Off(DL.getIndexTypeSizeInBits(Addr->getType()), 0);
  const Value *Base = Addr->stripAndAccumulateConstantOffsets(
      DL, Off, /*AllowNonInbounds=*/true);
  if (!isTapeCall(Base, Kind))
    return nullptr;
  const auto *Call = cast<CallInst>(Base);
  if (!Call->getMetadata(EndRecordsMetadata))
    return nullptr;
  Offset = Off.getSExtValue();
  return Call;
}

/// The argument of \p A whose address (or one computed from it) every
/// pointer stored at \p Offset of \p A's one push tagged \p Tag is; null
/// when there is none such.
const Argument *recordedArgument(const Function &A, const MDNode *Tag,
                                 int64_t Offset) {
  const DataLayout &DL = A.getDataLayout();
  const CallInst *Push = nullptr;
  for (const Instruction &I : instructions(A))
    if (isTapeCall(&I, MemoryFunctionKind::TapePush) &&
        I.getMetadata(EndRecordsMetadata) == Tag) {
      if (Push)
        return nullptr;
      Push = cast<CallInst>(&I);
    }
  if (!Push)
    return nullptr;
  const Argument *Arg = nullptr;
  for (const Instruction &I : instructions(A)) {
    const auto *SI = dyn_cast<StoreInst>(&I);
    int64_t Off = 0;
    if (!SI || taggedRecord(SI->getPointerOperand(),
                            MemoryFunctionKind::TapePush, DL,
                            Off) != Push ||
        Off != Offset)
      continue;
    const auto *Stored =
        dyn_cast<Argument>(getUnderlyingObject(SI->getValueOperand()));
    if (!SI->getValueOperand()->getType()->isPointerTy() || !Stored ||
        (Arg && Arg != Stored))
      return nullptr;
    Arg = Stored;
  }
  return Arg;
}

/// The function whose body pushes the records tagged \p Tag, among the
/// callees of \p F's calls.
Function *pusherOf(Function &F, const MDNode *Tag) {
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallBase>(&I);
    Function *A = Call ? Call->getCalledFunction() : nullptr;
    if (!A || A->isDeclaration())
      continue;
    bool Pushes = any_of(instructions(*A), [&](const Instruction &J) {
      return isTapeCall(&J, MemoryFunctionKind::TapePush) &&
             J.getMetadata(EndRecordsMetadata) == Tag;
    });
    if (Pushes)
      return A;
  }
  return nullptr;
}

} // namespace

SmallVector<const LoadInst *, 8> recordedPointerLoads(const Function &F) {
  SmallVector<const LoadInst *, 8> Loads;
  for (const Instruction &I : instructions(F))
    if (const auto *LI = dyn_cast<LoadInst>(&I);
        LI && LI->getType()->isPointerTy() &&
        hasMemoryClass(*LI, MemoryClass::Tape))
      Loads.push_back(LI);
  return Loads;
}

void ForwardEmitter::recordTangents(CallBase &Call, Function &Callee,
                                    DerivativeKey &K) {
  SmallVector<const LoadInst *, 8> Loads = recordedPointerLoads(Callee);
  const auto *Site = dyn_cast_or_null<CallBase>(PrimalOf.lookup(&Call));
  if (Loads.empty() || !Site)
    return;
  Function &F = *const_cast<Function *>(Site->getFunction());
  // (The clone of each of F's calls: its operands carry the tangents.
  // Not a call that replaced it, a derivative's: its operands are others.)
  DenseMap<const Value *, CallBase *> CloneOf;
  auto CallsSame = [&](const CallBase &Clone, const CallBase &Orig) {
    const Value *Callee = Clone.getCalledOperand();
    return Callee == Orig.getCalledOperand() ||
           PrimalOf.lookup(Callee) == Orig.getCalledOperand();
  };
  for (Instruction &I : instructions(Derivative))
    if (auto *Clone = dyn_cast<CallBase>(&I))
      if (const auto *Orig = dyn_cast_or_null<CallBase>(PrimalOf.lookup(Clone));
          Orig && CallsSame(*Clone, *Orig))
        CloneOf.try_emplace(Orig, Clone);
  std::optional<DominatorTree> DT;
  const DataLayout &DL = F.getDataLayout();
  for (unsigned No = 0; No < Loads.size() && No < 64; ++No) {
    int64_t Offset = 0;
    const CallInst *Pop = taggedRecord(Loads[No]->getPointerOperand(),
                                       MemoryFunctionKind::TapePop, DL, Offset);
    if (!Pop)
      continue;
    const MDNode *Tag = Pop->getMetadata(EndRecordsMetadata);
    Function *A = pusherOf(F, Tag);
    if (!A || A == &Callee)
      continue;
    const Argument *Arg = recordedArgument(*A, Tag, Offset);
    if (!Arg)
      continue;
    if (!DT)
      DT.emplace(F);
    bool Dominates = false, AllNonNull = true, AllNull = true;
    for (const User *U : A->users()) {
      const auto *C = dyn_cast<CallBase>(U);
      if (!C || C->getCalledOperand() != A) {
        AllNonNull = AllNull = false;
        break;
      }
      if (C->getFunction() == &Derivative)
        continue; // (this function's clones of F's calls)
      CallBase *Clone = CloneOf.lookup(C);
      if (C->getFunction() != &F || !Clone) {
        AllNonNull = AllNull = false;
        break;
      }
      // (No tangent: fwd(A) stores null into the shadow record.)
      Value *Given = Clone->getArgOperand(Arg->getArgNo());
      bool Shadowed = duplicatedArgument(Given);
      AllNonNull &= Shadowed && !nullable(Given) &&
                    !isa<ConstantPointerNull>(Given);
      AllNull &= !Shadowed;
      Dominates |= DT->dominates(C, Site);
    }
    if (!Dominates)
      continue;
    if (AllNonNull)
      K.NonNullRecords |= uint64_t(1) << No;
    else if (AllNull)
      K.NullRecords |= uint64_t(1) << No;
  }
}

} // namespace adcore
