//===- DeviceUpdates.cpp - Atomic adjoint updates of device code ----------===//
//
// In device code, the adjoint of a load is added into its shadow with
// `atomicrmw fadd` where other threads may update the same location
// (needsAtomicUpdate, DeviceMemory.cpp says which); a vector is added lane
// by lane. The remark (-Rpass=adcc) counts the updates of each kind.
//
// A barrier of the primal runs again at the mirrored place of the reverse
// sweep: the adjoints that other threads add into shared memory after the
// code the barrier ordered (in the reverse sweep: before the mirror) are
// complete when this thread reads them. A fence beside it is mirrored
// with release and acquire exchanged (AMDGPU's __syncthreads() is a
// release fence, s_barrier, an acquire fence).
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"

#include "device/DeviceCode.h"
#include "support/MemoryScopes.h"
#include "support/NullShadowGuards.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adcore {
namespace {

constexpr unsigned AmdgpuGlobalAddressSpace = 1, AmdgpuConstantAddressSpace = 4;

/// The shadow address \p To guards, when it is `null ? sink : address`
/// (guardedWriteAddress, NullShadowGuards.h); else null.
Value *unguardedAddress(Value *To) {
  auto *Sel = dyn_cast<SelectInst>(To);
  auto *Sink = Sel ? dyn_cast<GlobalVariable>(Sel->getTrueValue()) : nullptr;
  if (!Sink || !Sink->getName().starts_with(ShadowSinkPrefix))
    return nullptr;
  return Sel->getFalseValue();
}

/// `*To += D` (a float or a double) atomically, at \p A, the alignment of
/// the primal's load. An atomic operation needs its natural alignment: a
/// field of a packed struct (miniBUDE's `Atom {float x, y, z; int type;}`)
/// is loaded at align 1, and an atomic add at that alignment becomes a call
/// of libatomic's `__atomic_compare_exchange`, which programs do not link.
/// On the host, such an address takes the natural-alignment add where it is
/// aligned (a run-time test) and the runtime's add under a lock where it is
/// not; an address is always one or the other, so the two never meet. On a
/// GPU a misaligned atomic faults: device code takes the natural alignment.
void addAtomic(IRBuilder<> &B, Value *To, Value *D, Align A, bool Device) {
  Module &M = *B.GetInsertBlock()->getModule();
  // (AMDGPU has no atomics on its constant address space, where a kernel's
  // struct parameters by value are (byref): the shadow of such a member,
  // the adjoint of an active scalar in the device memory that a launch's
  // derivative allocated, is updated through its global address, the same
  // bits. Not the generic one: InferAddressSpaces takes it back.)
  if (Device && M.getTargetTriple().isAMDGPU() &&
      To->getType()->getPointerAddressSpace() == AmdgpuConstantAddressSpace)
    To = B.CreateAddrSpaceCast(To, B.getPtrTy(AmdgpuGlobalAddressSpace));
  Type *T = D->getType();
  uint64_t Size = M.getDataLayout().getTypeStoreSize(T);
  Align Natural(Size);
  bool Known = T->isFloatTy() || T->isDoubleTy();
  if (A >= Natural || Device || !Known) {
    B.CreateAtomicRMW(AtomicRMWInst::FAdd, To, D,
                      Known || Device ? std::max(A, Natural) : A,
                      AtomicOrdering::Monotonic);
    return;
  }
  LLVMContext &C = M.getContext();
  Function *F = B.GetInsertBlock()->getParent();
  BasicBlock *Aligned = BasicBlock::Create(C, "atomic.aligned", F);
  BasicBlock *Unaligned = BasicBlock::Create(C, "atomic.unaligned", F);
  BasicBlock *Join = BasicBlock::Create(C, "atomic.join", F);
  Value *Low = B.CreateAnd(B.CreatePtrToInt(To, B.getInt64Ty()), Size - 1);
  B.CreateCondBr(B.CreateICmpEQ(Low, B.getInt64(0)), Aligned, Unaligned);
  B.SetInsertPoint(Aligned);
  B.CreateAtomicRMW(AtomicRMWInst::FAdd, To, D, Natural,
                    AtomicOrdering::Monotonic);
  B.CreateBr(Join);
  B.SetInsertPoint(Unaligned);
  FunctionCallee Add = M.getOrInsertFunction(
      T->isFloatTy() ? "adcc_atomic_add_unaligned_f32"
                     : "adcc_atomic_add_unaligned_f64",
      B.getVoidTy(), B.getPtrTy(), T);
  B.CreateCall(Add, {To, D});
  B.CreateBr(Join);
  B.SetInsertPoint(Join);
}

} // namespace

bool ReverseEmitter::addAtomically(LoadInst &LI, Value *To, Value *D, Value *SP,
                                   Align ShadowA) {
  const char *Why = "";
  const Value *Object = nullptr;
  // (Device code is judged on the primal function: the forward sweep's
  // copy also reads shadows and the tape.)
  const auto *Primal = dyn_cast_or_null<LoadInst>(PrimalOf.lookup(&LI));
  const Value *Address = (Primal ? Primal : &LI)->getPointerOperand();
  ParallelUpdate How =
      DeviceCode ? (needsAtomicUpdate(Address, Why) ? ParallelUpdate::Atomic
                                                    : ParallelUpdate::Plain)
                 : parallelUpdateOf(LI, Why, Object);
  if (DeviceCode)
    countArrayUpdate(Address, How != ParallelUpdate::Plain);
  if (How == ParallelUpdate::Plain) {
    ++PlainUpdates[Why];
    return false;
  }
  if (How == ParallelUpdate::PerThread) {
    if (addPerThread(To, D, Object)) {
      ++PerThreadUpdates[Why];
      return true;
    }
    Why = "memory other threads may update";
  }
  if (How == ParallelUpdate::Checked) {
    // Plain where the augmented sweep found the arrays of the loop apart,
    // atomic where they may overlap (ApartChecks.cpp).
    ++CheckedUpdates[Why];
    LLVMContext &C = Rev.getContext();
    Function *F = RB.GetInsertBlock()->getParent();
    BasicBlock *Apart = BasicBlock::Create(C, "apart.adjoint", F);
    BasicBlock *Overlap = BasicBlock::Create(C, "overlap.adjoint", F);
    BasicBlock *Join = BasicBlock::Create(C, "checked.adjoint.end", F);
    RB.CreateCondBr(apartFlag(sharedMemory().checkOf(*Primal)), Apart, Overlap);
    RB.SetInsertPoint(Apart);
    LoadInst *Old = RB.CreateAlignedLoad(LI.getType(), SP, ShadowA);
    tagMemoryClass(*Old, MemoryClass::Shadow);
    tagMemoryClass(*RB.CreateAlignedStore(sum(Old, D), To, ShadowA),
                   MemoryClass::Shadow);
    RB.CreateBr(Join);
    RB.SetInsertPoint(Overlap);
    emitAtomicAdd(LI, To, D);
    RB.CreateBr(Join);
    RB.SetInsertPoint(Join);
    return true;
  }
  ++AtomicUpdates[Why];
  emitAtomicAdd(LI, To, D);
  return true;
}

void ReverseEmitter::emitAtomicAdd(LoadInst &LI, Value *To, Value *D) {
  // (Through a shadow that may be null, the guarded address is the sink,
  // one global for every thread: where the shadow is null, nothing is
  // added, instead of atomic adds that all threads make on one line.)
  BasicBlock *After = nullptr;
  if (Value *Unguarded = DeviceCode ? nullptr : unguardedAddress(To)) {
    LLVMContext &C = Rev.getContext();
    Function *F = RB.GetInsertBlock()->getParent();
    BasicBlock *Add = BasicBlock::Create(C, "atomic.adjoint", F);
    After = BasicBlock::Create(C, "atomic.adjoint.end", F);
    RB.CreateCondBr(RB.CreateIsNull(Unguarded), After, Add);
    RB.SetInsertPoint(Add);
    To = Unguarded;
  }
  auto *VecTy = dyn_cast<FixedVectorType>(D->getType());
  if (!VecTy) {
    addAtomic(RB, To, D, LI.getAlign(), DeviceCode);
  } else {
    Type *Elt = VecTy->getElementType();
    Align EltAlign = commonAlignment(
        LI.getAlign(), Rev.getParent()->getDataLayout().getTypeStoreSize(Elt));
    for (unsigned L = 0; L < VecTy->getNumElements(); ++L)
      addAtomic(RB, RB.CreateConstInBoundsGEP1_32(Elt, To, L),
                RB.CreateExtractElement(D, L), EltAlign, DeviceCode);
  }
  if (After) {
    RB.CreateBr(After);
    RB.SetInsertPoint(After);
  }
}

void ReverseEmitter::countArrayUpdate(const Value *Address, bool Atomic) {
  std::string Name = deviceArrayName(Address);
  if (Name.empty())
    return;
  auto It = find_if(ArrayUpdates, [&](auto &E) { return E.first == Name; });
  if (It == ArrayUpdates.end())
    It = ArrayUpdates.insert(ArrayUpdates.end(), {Name, {0, 0}});
  ++(Atomic ? It->second.first : It->second.second);
}

bool ReverseEmitter::mirrorsBarrier(Instruction &I,
                                    DenseMap<Value *, Value *> &Popped) {
  if (auto *Fence = dyn_cast<FenceInst>(&I)) {
    if (Lane != 0)
      return true;
    AtomicOrdering O = Fence->getOrdering();
    if (O == AtomicOrdering::Release)
      O = AtomicOrdering::Acquire;
    else if (O == AtomicOrdering::Acquire)
      O = AtomicOrdering::Release;
    RB.CreateFence(O, Fence->getSyncScopeID());
    return true;
  }
  auto *Call = dyn_cast<CallBase>(&I);
  Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee || !isDeviceBarrier(*Callee))
    return false;
  if (Lane != 0)
    return true;
  SmallVector<Value *, 2> Args;
  for (Value *A : Call->args())
    Args.push_back(revValue(A, Popped));
  RB.CreateCall(Callee, Args);
  return true;
}

void ReverseEmitter::reportDeviceUpdates() {
  if (!(DeviceCode || Key.Parallel) ||
      (AtomicUpdates.empty() && PlainUpdates.empty() &&
       PerThreadUpdates.empty()))
    return;
  std::string Summary;
  raw_string_ostream SS(Summary);
  // "3 atomic adds (memory other threads may update: 3)"
  auto List = [&](const std::map<std::string, unsigned> &Counts,
                  StringRef Kind) {
    unsigned Total = 0;
    for (auto &[Why, N] : Counts)
      Total += N;
    SS << Total << " " << Kind;
    const char *Sep = " (";
    for (auto &[Why, N] : Counts) {
      SS << Sep << Why << ": " << N;
      Sep = ", ";
    }
    if (!Counts.empty())
      SS << ")";
  };
  std::string Who = Ctx.describe(*Key.Primal);
  SS << "reverse mode of " << Who
     << (DeviceCode ? " in device code"
         : StringRef(Who).starts_with("the OpenMP region")
             ? ""
             : " (run by the threads of an OpenMP region)")
     << ": adjoint updates of memory: ";
  List(AtomicUpdates, "atomic adds");
  SS << ", ";
  List(PlainUpdates, "plain");
  if (!PerThreadUpdates.empty()) {
    SS << ", ";
    List(PerThreadUpdates, "into per-thread copies");
  }
  if (!CheckedUpdates.empty()) {
    SS << ", ";
    List(CheckedUpdates, "plain where a run-time check finds the arrays "
                         "apart, atomic where they overlap");
  }
  if (OrderedCriticals)
    SS << "; critical sections replayed in the reverse of the threads' order "
          "(not all their updates are sums)";
  OptimizationRemarkEmitter ORE(Key.Primal);
  ORE.emit(OptimizationRemark("adcc", "DeviceUpdates", Key.Primal) << Summary);
  if (Ctx.printTapePlans())
    errs() << "adcc: " << Summary << "\n";
  if (ArrayUpdates.empty())
    return;
  // "... adjoint updates by array: parameter 1 (x): plain; parameter 2:
  // atomic; 'k()::tile': 1 atomic, 2 plain"
  std::string ByArray;
  raw_string_ostream BS(ByArray);
  BS << "reverse mode of " << Who << (DeviceCode ? " in device code" : "")
     << ": adjoint updates by array: ";
  const char *Sep = "";
  for (auto &[Name, Counts] : ArrayUpdates) {
    BS << Sep << Name << ": ";
    auto [Atomic, Plain] = Counts;
    if (!Plain)
      BS << "atomic";
    else if (!Atomic)
      BS << "plain";
    else
      BS << Atomic << " atomic, " << Plain << " plain";
    Sep = "; ";
  }
  ORE.emit(OptimizationRemark("adcc", "DeviceUpdates", Key.Primal) << ByArray);
  if (Ctx.printTapePlans())
    errs() << "adcc: " << ByArray << "\n";
}

} // namespace adcore
