//===- DeviceTape.cpp - The tape of device code, in the thread's frame ----===//
//
// A GPU thread cannot call adcc's host runtime. Its records go into a
// buffer in the frame of the function that runs both sweeps (the combined
// gradient, where the sweeps and the derivatives they call were inlined):
//
//   push(size):  p = buf + top;  top += round16(size)
//   pop(size):   top -= round16(size);  p = buf + top
//
// The pushes and pops keep their order (a stack), so the bump of one
// offset is the runtime's tape without chunks. Rounding every record to 16
// bytes keeps each one aligned as the runtime's would be. The buffer's
// size is the most the pushes can take: each push's size (a constant, or
// the largest value scalar evolution allows: a loop's array of records)
// times the most trips of the loops around it. With constant offsets (no
// loops), SROA turns the buffer into registers.
//
// Where a bound is not known (a loop of data-dependent trip count around a
// record, recursion), a combined gradient is an error: its frame has a size
// fixed at compile time.
//
// Split mode, whose tape outlives the call, records in a slot the caller
// gives (__enzyme_augmentfwd(..., enzyme_tape, slot), then
// __enzyme_reverse(..., slot)): the function the sweep is inlined into
// holds a mark of the slot (emitDeviceTapeSlot), and its pushes and pops
// bump the offset kept in the slot's first 8 bytes, the records following
// from byte 16:
//
//   augmented sweep:  top = 0 (at the mark); push: p = slot + 16 + top;
//                     top += round16(size)
//   reverse sweep:    pop: top -= round16(size); p = slot + 16 + top
//
// The slot's size is 16 plus the most the pushes can take, bounded as
// above; __enzyme_augmentsize of the function is that number (the largest
// over the functions of the module that record a sweep of it in a slot).
// This is what a kernel launch's augmented kernel gives each work-item:
// one slot per global linear index of a buffer the launch allocates.
//
// A slot's records of unknown size (a loop of run-time trip count around a
// record whose own size is bounded): the slot gets a fixed capacity, the
// bounded records plus a reserve (the module's `adcc_device_tape_bytes`,
// else DefaultReserve; at least the largest record), and every push of the
// function checks the slot's end:
//
//   push:  top += round16(size); p = top <= capacity ? slot + 16 + old
//                                                     : slot + 16
//
// Past the end the offset keeps counting (the bytes the thread needed) and
// the records go to the slot's start, so that nothing is written beyond the
// slot; the records are then garbage, which the caller learns from the
// offset: after the augmented sweep, an offset above the capacity
// (__enzyme_augmentsize - 16) says that the slot was too small and by how
// much. The kernel launches' augmented kernels report it, and the launch
// stops with a message instead of running the reverse kernel.
//
//===----------------------------------------------------------------------===//

#include "device/DeviceCode.h"
#include "device/DeviceTapeParts.h"
#include "Synthesis.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace adcore {
using namespace devtape;
namespace {

bool isTapeCall(const CallInst &Call, StringRef Name) {
  const Function *F = Call.getCalledFunction();
  return F && F->getName() == Name;
}

/// The runtime functions of the tape itself.
bool isTapeFunction(StringRef Name) {
  return Name.starts_with("adcc_tape_") || Name.starts_with("adcc_split_");
}

uint64_t roundUp(uint64_t N) { return (N + RecordAlign - 1) & ~(RecordAlign - 1); }

/// The allocas of \p F's entry block that mem2reg can promote, promoted:
/// at -O0 the loop counters are in memory, where scalar evolution cannot
/// see the loops' trip counts.
/// AMDGPU's stack slots are private (address space 5), used at -O0
/// through one cast to the generic address space (and lifetime markers):
/// loads and stores through the cast then use the slot itself.
void dropGenericCast(AllocaInst &AI) {
  // (Beside the cast, the slot's lifetime markers, which promotion drops.)
  AddrSpaceCastInst *Cast = nullptr;
  for (User *U : AI.users()) {
    if (auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd())
      continue;
    auto *C = dyn_cast<AddrSpaceCastInst>(U);
    if (!C || Cast)
      return;
    Cast = C;
  }
  if (!Cast || !all_of(Cast->users(), [&](User *U) {
        auto *SI = dyn_cast<StoreInst>(U);
        return (isa<LoadInst>(U) && !cast<LoadInst>(U)->isVolatile()) ||
               (SI && SI->getPointerOperand() == Cast && !SI->isVolatile());
      }))
    return;
  for (User *U : make_early_inc_range(Cast->users())) {
    if (auto *LI = dyn_cast<LoadInst>(U))
      LI->setOperand(LI->getPointerOperandIndex(), &AI);
    else
      cast<StoreInst>(U)->setOperand(1, &AI);
  }
  Cast->eraseFromParent();
}

void promoteLocals(Function &F, DominatorTree &DT, AssumptionCache &AC) {
  SmallVector<AllocaInst *, 16> Allocas;
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I)) {
      dropGenericCast(*AI);
      if (isAllocaPromotable(AI))
        Allocas.push_back(AI);
    }
  if (!Allocas.empty())
    PromoteMemToReg(Allocas, DT, &AC);
}

/// The reserve of a slot whose records' size is unknown at compile time,
/// unless the module defines `adcc_device_tape_bytes`.
constexpr uint64_t DefaultReserve = 8192;


/// The most bytes one record of \p Push takes.
std::optional<uint64_t> recordBound(CallInst &Push, ScalarEvolution &SE) {
  Value *Size = Push.getArgOperand(1);
  if (auto *C = dyn_cast<ConstantInt>(Size))
    return roundUp(C->getZExtValue());
  if (!SE.isSCEVable(Size->getType()))
    return std::nullopt;
  APInt Max = SE.getUnsignedRangeMax(SE.getSCEV(Size));
  if (Max.getActiveBits() > 32 || roundUp(Max.getZExtValue()) > MaxThreadTape)
    return std::nullopt;
  return roundUp(Max.getZExtValue());
}

/// The most bytes \p Push can take in one call of its function.
std::optional<uint64_t> pushBound(CallInst &Push, LoopInfo &LI,
                                  ScalarEvolution &SE) {
  std::optional<uint64_t> Record = recordBound(Push, SE);
  if (!Record)
    return std::nullopt;
  uint64_t Bytes = *Record;
  for (Loop *L = LI.getLoopFor(Push.getParent()); L; L = L->getParentLoop()) {
    unsigned Trips = SE.getSmallConstantMaxTripCount(L);
    if (Trips == 0)
      return std::nullopt;
    Bytes *= Trips;
    if (Bytes > MaxThreadTape)
      return std::nullopt;
  }
  return Bytes;
}

FrameTape collectTape(Function &F, bool Promote) {
  FrameTape T;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I)) {
      if (isTapeCall(*Call, "adcc_tape_push"))
        T.Pushes.push_back(Call);
      else if (isTapeCall(*Call, "adcc_tape_pop"))
        T.Pops.push_back(Call);
      else if (isTapeCall(*Call, "adcc_tape_thread"))
        T.Threads.push_back(Call);
    }
  if (T.Pushes.empty() && T.Pops.empty())
    return T;
  DominatorTree DT(F);
  AssumptionCache AC(F);
  if (Promote) {
    promoteLocals(F, DT, AC);
    DT.recalculate(F);
  }
  LoopInfo LI(DT);
  TargetLibraryInfoImpl TLII(F.getParent()->getTargetTriple());
  TargetLibraryInfo TLI(TLII);
  ScalarEvolution SE(F, TLI, AC, DT, LI);
  for (CallInst *Push : T.Pushes) {
    std::optional<uint64_t> B = pushBound(*Push, LI, SE);
    if (B && T.Bytes + *B <= MaxThreadTape) {
      T.Bytes += *B;
      continue;
    }
    std::optional<uint64_t> Record = recordBound(*Push, SE);
    if (!Record) {
      if (!T.UnknownRecord)
        T.UnknownRecord = Push;
      continue;
    }
    if (!T.Unbounded)
      T.Unbounded = Push;
    T.LargestUnbounded = std::max(T.LargestUnbounded, *Record);
  }
  return T;
}



/// Replaces \p T's pushes and pops by bumps of an offset into a buffer of
/// \p F's frame: T.Bytes, or, with records of unknown size, \p Capacity
/// bytes, each push checked against it (emitFrameOverflow).
void placeInFrame(Function &F, FrameTape &T,
                  std::optional<uint64_t> Capacity = std::nullopt,
                  uint64_t Reserve = 0, StringRef Name = "") {
  const DataLayout &DL = F.getParent()->getDataLayout();
  IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
  Type *I64 = EB.getInt64Ty();
  AllocaInst *Buf = EB.CreateAlloca(
      ArrayType::get(EB.getInt8Ty(), Capacity.value_or(T.Bytes)),
      DL.getAllocaAddrSpace(), nullptr, "device.tape");
  Buf->setAlignment(Align(RecordAlign));
  AllocaInst *Top =
      EB.CreateAlloca(I64, DL.getAllocaAddrSpace(), nullptr, "device.tape.top");
  EB.CreateStore(EB.getInt64(0), Top);
  bumpOffsets(
      T, Top, [&](IRBuilder<> &) { return Buf; }, Capacity,
      [&](IRBuilder<> &B, CallInst &Push) {
        emitFrameOverflow(B, Push, *Capacity, Reserve, Name);
      });
}


constexpr const char *SlotMark = "adcc_device_tape_slot";
constexpr const char *SizeMark = "adcc_device_tape_size";

/// The slot marks of \p F, or an error at the second mark of another slot.
struct SlotMarks {
  SmallVector<CallInst *, 2> Marks;
  Value *Slot = nullptr;
  CallInst *Conflict = nullptr;
};

SlotMarks slotMarks(Function &F) {
  SlotMarks S;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I); Call && isTapeCall(*Call, SlotMark)) {
      S.Marks.push_back(Call);
      Value *Slot = Call->getArgOperand(0);
      if (S.Slot && S.Slot != Slot && !S.Conflict)
        S.Conflict = Call;
      S.Slot = Slot;
    }
  return S;
}

/// Replaces \p T's pushes and pops by bumps of the offset kept in the slot
/// of \p S (the header above); the augmented sweeps' marks start it at 0.
/// Records of unknown size get \p Capacity bytes, checked at each push.
void placeInSlot(Function &F, FrameTape &T, SlotMarks &S,
                 std::optional<uint64_t> Capacity) {
  Type *I64 = Type::getInt64Ty(F.getContext());
  Value *Slot = S.Slot;
  for (CallInst *Mark : S.Marks) {
    if (cast<ConstantInt>(Mark->getArgOperand(2))->isOne())
      IRBuilder<>(Mark).CreateStore(ConstantInt::get(I64, 0), Slot);
    Mark->eraseFromParent();
  }
  bumpOffsets(
      T, Slot,
      [&](IRBuilder<> &B) {
        return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Slot, SlotHeader);
      },
      Capacity);
}


/// Replaces each __enzyme_augmentsize mark by the slot bytes of its
/// function in \p Bytes.
void resolveSlotSizes(SynthesisContext &Ctx,
                      const DenseMap<const Value *, uint64_t> &Bytes) {
  SmallVector<CallInst *, 4> Sizes;
  for (Function &F : Ctx.module())
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallInst>(&I); Call && isTapeCall(*Call, SizeMark))
        Sizes.push_back(Call);
  for (CallInst *Call : Sizes) {
    const Value *Primal = Call->getArgOperand(0);
    auto It = Bytes.find(Primal);
    if (It == Bytes.end()) {
      Ctx.error(*Call, "__enzyme_augmentsize of '" + Primal->getName() +
                           "' in device code: no __enzyme_augmentfwd of it "
                           "with enzyme_tape in this module gives the size "
                           "of its tape");
      Call->replaceAllUsesWith(ConstantInt::get(Call->getType(), 0));
    } else {
      Call->replaceAllUsesWith(ConstantInt::get(Call->getType(), It->second));
    }
    Call->eraseFromParent();
  }
}

/// A call of adcc's runtime in \p F, or null.
CallInst *runtimeCall(Function &F) {
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && Callee->isDeclaration() &&
          Callee->getName().starts_with("adcc_"))
        return Call;
  return nullptr;
}

/// Runtime functions that stand for a feature device code lacks (rather
/// than a bug of adcc), and what to say.
struct MissingDeviceFeature {
  const char *Prefix;
  const char *What;
};

constexpr MissingDeviceFeature MissingDeviceFeatures[] = {
    {"adcc_adjoint_copy", "the adjoint of a copy of floating-point memory "
                          "(memcpy or memmove)"},
};

} // namespace

namespace devtape {

const char *const SeparateSweeps =
    "tape of unknown size in device code: the two sweeps do not run in one "
    "function here (split mode without a tape slot, recursion, or a "
    "derivative called from several places); use __enzyme_autodiff of a "
    "non-recursive function, or give split mode a slot (enzyme_tape)";

uint64_t slotReserve(const Module &M) {
  if (const GlobalVariable *G = M.getNamedGlobal("adcc_device_tape_bytes"))
    if (auto *C = dyn_cast_or_null<ConstantInt>(
            G->hasInitializer() ? G->getInitializer() : nullptr))
      return std::min<uint64_t>(C->getZExtValue(), MaxThreadTape);
  return DefaultReserve;
}

void bumpOffsets(FrameTape &T, Value *Top,
                 function_ref<Value *(IRBuilder<> &)> Records,
                 std::optional<uint64_t> Capacity, OverflowFn Overflow) {
  auto Replace = [&](CallInst *Call, bool IsPush) {
    IRBuilder<> B(Call);
    Type *I64 = B.getInt64Ty();
    Value *Size = B.CreateZExtOrTrunc(Call->getArgOperand(1), I64);
    Value *Step = B.CreateAnd(B.CreateAdd(Size, B.getInt64(RecordAlign - 1)),
                              B.getInt64(~(RecordAlign - 1)));
    Value *Old = B.CreateLoad(I64, Top, "tape.top");
    Value *New = IsPush ? B.CreateAdd(Old, Step) : B.CreateSub(Old, Step);
    B.CreateStore(New, Top);
    Value *Offset = IsPush ? Old : New;
    if (IsPush && Capacity && Overflow) {
      Value *Past = B.CreateICmpUGT(New, B.getInt64(*Capacity), "tape.past");
      Instruction *Then = SplitBlockAndInsertIfThen(
          Past, Call->getIterator(), /*Unreachable=*/true,
          MDBuilder(Call->getContext()).createUnlikelyBranchWeights());
      IRBuilder<> TB(Then);
      TB.SetCurrentDebugLocation(Call->getDebugLoc());
      Overflow(TB, *Call);
      B.SetInsertPoint(Call);
    } else if (IsPush && Capacity) {
      Offset = B.CreateSelect(B.CreateICmpULE(New, B.getInt64(*Capacity)),
                              Old, B.getInt64(0), "tape.in.slot");
    }
    Value *At = B.CreateInBoundsGEP(B.getInt8Ty(), Records(B), Offset);
    if (At->getType() != Call->getType())
      At = B.CreateAddrSpaceCast(At, Call->getType());
    Call->replaceAllUsesWith(At);
    Call->eraseFromParent();
  };
  for (CallInst *Push : T.Pushes)
    Replace(Push, true);
  for (CallInst *Pop : T.Pops)
    Replace(Pop, false);
  for (CallInst *Thread : T.Threads)
    if (Thread->use_empty())
      Thread->eraseFromParent();
}

} // namespace devtape

void placeDeviceTapes(SynthesisContext &Ctx, bool Promote) {
  Module &M = Ctx.module();
  // (Not the sweeps inlined everywhere, which are removed afterwards.)
  auto Dead = [](const Function &F) {
    return F.isDeclaration() || (F.hasLocalLinkage() && F.use_empty());
  };
  SmallPtrSet<const Function *, 4> Reported;
  // The slot bytes of each function whose sweeps record in a slot.
  DenseMap<const Value *, uint64_t> SlotBytes;
  SmallVector<ApartSweep, 4> Apart;
  // (The functions that run a sweep of split mode, with a slot.)
  SmallPtrSet<const Function *, 4> SplitSweeps;
  for (Function &F : M) {
    if (Dead(F))
      continue;
    FrameTape T = collectTape(F, Promote);
    // (After collectTape, whose promotion of locals may replace the slot.)
    SlotMarks S = slotMarks(F);
    if (S.Conflict) {
      Reported.insert(&F);
      Ctx.error(*S.Conflict, "split mode in device code: the sweeps called "
                             "in one function record in one tape slot");
      continue;
    }
    if (T.UnknownRecord && S.Slot) {
      Reported.insert(&F);
      Ctx.error(*T.UnknownRecord,
                "tape of unknown size in device code: a record whose own "
                "size is not known at compile time (a variable-length array) "
                "does not fit a tape slot; use __enzyme_autodiff, whose tape "
                "in the thread's frame takes it");
      continue;
    }
    if (S.Slot) {
      SplitSweeps.insert(&F);
      std::optional<uint64_t> Capacity;
      if (T.Unbounded)
        Capacity = T.Bytes + std::max(T.LargestUnbounded, slotReserve(M));
      for (CallInst *Mark : S.Marks) {
        uint64_t &B = SlotBytes[Mark->getArgOperand(1)];
        B = std::max(B, SlotHeader + Capacity.value_or(T.Bytes));
      }
      placeInSlot(F, T, S, Capacity);
    } else if (T.Pushes.empty() != T.Pops.empty()) {
      // (One sweep without the other: its records would die with the
      // frame before the other sweep reads them; they go to the frame of
      // the function that calls both, below.)
      Apart.push_back({&F, std::move(T)});
      continue;
    } else if (T.Unbounded || T.UnknownRecord) {
      // A combined gradient with records of unknown size: the bounded
      // records plus the reserve, in its frame, each push checked.
      uint64_t Reserve = slotReserve(M);
      uint64_t Capacity = T.Bytes + std::max(T.LargestUnbounded, Reserve);
      placeInFrame(F, T, Capacity, Reserve, Ctx.displayName(F));
    } else if (!T.Pushes.empty()) {
      placeInFrame(F, T);
    }
  }
  resolveSlotSizes(Ctx, SlotBytes);
  if (!Apart.empty() && !shareApartTapes(Ctx, Apart, SplitSweeps))
    return;
  // What still uses the tape cannot keep it in a frame: the sweeps run
  // apart (split mode, recursion).
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallInst>(&I);
          Call && !Dead(F) && !Reported.contains(&F))
        if (Function *Callee = Call->getCalledFunction();
            Callee && Callee->isDeclaration() &&
            isTapeFunction(Callee->getName()) &&
            !isTapeCall(*Call, "adcc_tape_thread")) {
          Ctx.error(*Call, SeparateSweeps);
          return;
        }
}

void verifyNoRuntimeCalls(SynthesisContext &Ctx) {
  for (Function &F : Ctx.module()) {
    if (F.hasLocalLinkage() && F.use_empty())
      continue;
    CallInst *Call = runtimeCall(F);
    if (!Call)
      continue;
    StringRef Name = Call->getCalledFunction()->getName();
    for (const MissingDeviceFeature &Row : MissingDeviceFeatures)
      if (Name.starts_with(Row.Prefix)) {
        Ctx.error(*Call, Twine(Row.What) +
                             " is not supported yet in device code: it "
                             "calls adcc's host runtime ('" +
                             Name + "')");
        return;
      }
    Ctx.error(*Call, "internal error: generated device code calls adcc's "
                     "host runtime ('" +
                         Name + "'); please report this adcc bug");
    return;
  }
}


void emitDeviceTapeSlot(IRBuilder<> &B, Value *Slot, Function &Primal,
                        bool Augment) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Ptr = B.getPtrTy();
  FunctionCallee Mark = M.getOrInsertFunction(
      SlotMark, FunctionType::get(B.getVoidTy(),
                                  {Slot->getType(), Ptr, B.getInt1Ty()},
                                  false));
  B.CreateCall(Mark, {Slot, &Primal, B.getInt1(Augment)});
}

Value *emitDeviceTapeSize(IRBuilder<> &B, Function &Primal, Type *Ty) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Mark = M.getOrInsertFunction(
      SizeMark, FunctionType::get(B.getInt64Ty(), {B.getPtrTy()}, false));
  return B.CreateZExtOrTrunc(B.CreateCall(Mark, {&Primal}), Ty);
}

} // namespace adcore
