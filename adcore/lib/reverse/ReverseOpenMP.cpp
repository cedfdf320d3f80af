//===- ReverseOpenMP.cpp - OpenMP parallel regions in reverse mode --------===//
//
// The reverse of a parallel region is a parallel region:
//
//   augmented sweep   R = adcc_parallel_new_at(level)
//                     __kmpc_fork_call(loc, n', aug.omp, R, a1, s(a1), ...)
//                       aug.omp: adcc_parallel_enter_at(R, thread, threads,
//                                                       omp_get_level())
//                                augmented_outlined(a1, s(a1), ...)
//                                adcc_parallel_exit(R, thread)
//                     (R recorded)
//   reverse sweep     __kmpc_push_num_threads(threads of R)
//                     __kmpc_fork_call(loc, 1, rev.omp, R)
//                       rev.omp: adcc_parallel_resume(R, thread, threads)
//                                diffe_outlined()
//                                adcc_parallel_leave
//                     adcc_parallel_free(R)
//
// Each thread of the augmented region records on its own tape, and thread
// t of the reverse region (as many threads) replays the tape thread t
// recorded (the runtime lends it that tape if another system thread has
// number t this time: runtime/lib/parallel.c). A static schedule gives
// thread t the same iterations again; a dynamic one's chunks are on that
// tape. The region's body is differentiated with DerivativeKey::Parallel:
// its adjoint updates of shared memory are atomic where other threads may
// update the same place (analysis/ParallelMemory.h), a barrier runs again
// at its mirror, and the adjoints of a critical section (and so of a
// reduction: prepare/OpenMPReductions.cpp) run inside the same critical
// section, in the reverse of the threads' order where that matters
// (CriticalSections.cpp).
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"

#include "analysis/ParallelMemory.h"
#include "rules/OpenMPRuntime.h"
#include "support/CallSites.h"

#include "support/MemoryScopes.h"
#include "support/NullShadowGuards.h"
#include "support/ReturnedValues.h"
#include "support/ShadowAlignment.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

FunctionCallee runtimeCall(Module &M, StringRef Name, Type *Ret,
                           ArrayRef<Type *> Params) {
  return M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
}

/// The thread's number in its team and the team's size.
std::pair<Value *, Value *> threadAndTeam(IRBuilder<> &B) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *I32 = B.getInt32Ty();
  return {B.CreateCall(runtimeCall(M, "omp_get_thread_num", I32, {})),
          B.CreateCall(runtimeCall(M, "omp_get_num_threads", I32, {}))};
}

/// Makes \p Region the thread's current region (whose turn counter its
/// ordered critical sections use: CriticalSections.cpp); returns the
/// previous one, given back when the thread leaves the region.
Value *swapRegion(IRBuilder<> &B, Value *Region, Constant *Level) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Ptr = B.getPtrTy();
  return B.CreateCall(
      runtimeCall(M, "adcc_parallel_swap", Ptr, {Ptr, B.getInt32Ty()}),
      {Region, Level});
}

/// An outlined function for __kmpc_fork_call: (global tid, bound tid,
/// region, \p Rest...), running \p Body.
Function *makeOutlined(Module &M, const Twine &Name, ArrayRef<Type *> Rest,
                       function_ref<void(IRBuilder<> &, Function &)> Body) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  SmallVector<Type *, 16> Params = {Ptr, Ptr, Ptr};
  Params.append(Rest.begin(), Rest.end());
  Function *F = Function::Create(
      FunctionType::get(Type::getVoidTy(C), Params, false),
      GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Body(B, *F);
  B.CreateRetVoid();
  return F;
}

} // namespace

bool ReverseEmitter::augmentForkCall(CallBase &Call, bool &Replaced) {
  Function *Outlined = forkedFunction(Call);
  if (!Outlined)
    return unsupported(Call, "an OpenMP parallel region whose body adcc "
                             "cannot find (__kmpc_fork_call of a function "
                             "pointer or of a function without a body)");
  if (Width > 1)
    return unsupported(Call, "batched reverse mode (width > 1) of an OpenMP "
                             "parallel region is not supported yet");
  if (isa<InvokeInst>(Call))
    return unsupported(Call, "an OpenMP parallel region that may throw");
  DerivativeKey K;
  K.Primal = Outlined;
  K.Mode = DerivativeMode::Augmented;
  K.TapeLevel = Key.TapeLevel;
  K.Parallel = true;
  K.NestedRegion = Key.Parallel;
  // (Memory the region reads through the forking function's pointers
  // that nothing writes is read again by the reverse region, where this
  // function's callers leave it alone: StableMemory.cpp.)
  K.StableMemory = Key.StableMemory;
  K.Args.append(2, ArgActivity::Const);
  Module &M = *Aug.getParent();
  Type *Ptr = AB.getPtrTy();
  SmallVector<Value *, 16> Shared;
  for (unsigned I = ForkSharedArgs; I < Call.arg_size(); ++I) {
    Value *A = Call.getArgOperand(I);
    Shared.push_back(A);
    if (CleanSlotClones.contains(A)) {
      K.Args.push_back(ArgActivity::Const);
    } else if (Value *S = shadowOrNull(A)) {
      K.Args.push_back(ArgActivity::Dup);
      Shared.push_back(S);
    } else if (isa<ConstantPointerNull>(A)) {
      K.Args.push_back(ArgActivity::Dup);
      Shared.push_back(A);
    } else if (const Value *Float = floatBitsThroughCasts(A);
               Active.contains(A) || (Float && Active.contains(Float))) {
      return unsupported(Call,
                         byValueIntoRegionError(I - ForkSharedArgs + 1));
    } else {
      K.Args.push_back(ArgActivity::Const);
    }
  }
  // (Shared pointers whose shadows may be null: guarded in the region.)
  NullableBits Bits = CalleeNullableBits.lookup(&Call);
  for (unsigned No = 2; No < K.Args.size() && No < 64; ++No)
    if (hasShadow(K.Args[No])) {
      K.NullableShadows |= forkedParamBits(Bits.Nullable) & uint64_t(1) << No;
      K.NullReaching |= forkedParamBits(Bits.Reaching) & uint64_t(1) << No;
    }
  Function *AugRegion = Ctx.getOrCreate(K);
  if (!AugRegion)
    return false;
  DerivativeKey RK = K;
  RK.Mode = DerivativeMode::Reverse;
  Function *RevRegion = Ctx.cache().lookup(RK);
  if (!RevRegion || !RevRegion->getFunctionType()->getReturnType()->isVoidTy() ||
      RevRegion->arg_size() != 0)
    return unsupported(Call, "internal error: the reverse sweep of an OpenMP "
                             "parallel region has an unexpected form");
  Type *I32 = AB.getInt32Ty();
  Constant *Level = AB.getInt32(Key.TapeLevel);
  bool Tasks = moduleRunsTasks();
  SmallVector<Type *, 16> Rest;
  for (Value *V : Shared)
    Rest.push_back(V->getType());
  Function *AugOutlined = makeOutlined(
      M, AugRegion->getName() + ".omp", Rest,
      [&](IRBuilder<> &B, Function &F) {
        auto [Thread, Team] = threadAndTeam(B);
        // (Nested in another region: the threads of the team other than
        // 0 record on tapes of the region's own, runtime/lib/parallel.c.)
        Value *Depth =
            B.CreateCall(runtimeCall(M, "omp_get_level", I32, {}), {});
        B.CreateCall(runtimeCall(M, "adcc_parallel_enter_at", B.getVoidTy(),
                                 {Ptr, I32, I32, I32, I32}),
                     {F.getArg(2), Thread, Team, Depth, Level});
        Value *Outer = swapRegion(B, F.getArg(2), Level);
        SmallVector<Value *, 16> Args = {F.getArg(0), F.getArg(1)};
        for (unsigned I = 3; I < F.arg_size(); ++I)
          Args.push_back(F.getArg(I));
        B.CreateCall(AugRegion, Args);
        // (The tasks the thread left at the region's end: their reverses
        // start with the thread's reverse, ReverseTasks.cpp.)
        if (Tasks)
          B.CreateCall(
              runtimeCall(M, "adcc_parallel_note_tasks", B.getVoidTy(),
                          {Ptr, I32, Ptr}),
              {F.getArg(2), Thread,
               B.CreateCall(runtimeCall(M, "adcc_task_sync", Ptr, {I32}),
                            {Level})});
        swapRegion(B, Outer, Level);
        B.CreateCall(runtimeCall(M, "adcc_parallel_exit", B.getVoidTy(),
                                 {Ptr, I32, I32}),
                     {F.getArg(2), Thread, Level});
      });
  Function *RevOutlined =
      makeOutlined(M, RevRegion->getName() + ".omp", {},
                   [&](IRBuilder<> &B, Function &F) {
                     auto [Thread, Team] = threadAndTeam(B);
                     Value *Saved = B.CreateCall(
                         runtimeCall(M, "adcc_parallel_resume", Ptr,
                                     {Ptr, I32, I32, I32}),
                         {F.getArg(2), Thread, Team, Level});
                     Value *Outer = swapRegion(B, F.getArg(2), Level);
                     if (Tasks)
                       spawnTasks(B, B.CreateCall(
                                         runtimeCall(M, "adcc_parallel_tasks",
                                                     Ptr, {Ptr, I32}),
                                         {F.getArg(2), Thread}));
                     B.CreateCall(RevRegion, {});
                     swapRegion(B, Outer, Level);
                     B.CreateCall(runtimeCall(M, "adcc_parallel_leave",
                                              B.getVoidTy(), {Ptr, I32}),
                                  {Saved, Level});
                   });
  Value *Region =
      AB.CreateCall(runtimeCall(M, "adcc_parallel_new_at", Ptr, {I32}),
                    {Level}, "region");
  SmallVector<Value *, 16> Args = {Call.getArgOperand(0),
                                   AB.getInt32(Shared.size() + 1), AugOutlined,
                                   Region};
  Args.append(Shared.begin(), Shared.end());
  CallBase *New = emitReplacementCall(AB, Call, Call.getCalledFunction(), Args);
  ForkSites[New] = {Region, RevOutlined, Call.getArgOperand(0)};
  record(*New, {Region});
  Dead.push_back(&Call);
  Replaced = true;
  return true;
}

bool ReverseEmitter::emitForkAdjoint(CallBase &AugCall,
                                     DenseMap<Value *, Value *> &Popped) {
  const ForkSite &Site = ForkSites[&AugCall];
  Module &M = *Rev.getParent();
  Type *Ptr = RB.getPtrTy(), *I32 = RB.getInt32Ty();
  Value *Region = revValue(Site.Region, Popped);
  // As many threads as the augmented region had: thread t replays the
  // tape thread t recorded.
  Value *Team = RB.CreateCall(
      runtimeCall(M, "adcc_parallel_threads", I32, {Ptr}), {Region});
  Value *Tid = RB.CreateCall(
      runtimeCall(M, "__kmpc_global_thread_num", I32, {Ptr}), {Site.Loc});
  RB.CreateCall(runtimeCall(M, "__kmpc_push_num_threads", RB.getVoidTy(),
                            {Ptr, I32, I32}),
                {Site.Loc, Tid, Team});
  auto *Fork = cast<Function>(AugCall.getCalledOperand());
  RB.CreateCall(Fork, {Site.Loc, RB.getInt32(1), Site.Reverse, Region});
  RB.CreateCall(
      runtimeCall(M, "adcc_parallel_free", RB.getVoidTy(), {Ptr}), {Region});
  return true;
}

bool ReverseEmitter::emitAtomicAdjoint(AtomicRMWInst &RMW, Value *SP) {
  Value *V = RMW.getValOperand();
  // (The old value only returned, and the caller takes no adjoint of the
  // result: CUDA's and HIP's atomicAdd(p, v) at -O0, whose result the
  // program drops, has none.)
  bool ReadsOld = isActiveFloat(&RMW) && !RMW.use_empty() &&
                  (Key.ReturnShadow || !onlyReturned(RMW));
  if (!V->getType()->isFPOrFPVectorTy() ||
      (!isActiveFloat(V) && !ReadsOld && !SP))
    return true;
  AtomicRMWInst::BinOp Op = RMW.getOperation();
  if (Op != AtomicRMWInst::FAdd && Op != AtomicRMWInst::FSub)
    return unsupported(RMW, "an atomic update of a floating-point value "
                            "with a derivative other than += and -= (omp "
                            "atomic with another operator)");
  if (!isActiveFloat(V) && !ReadsOld)
    return true;
  if (ReadsOld)
    return unsupported(RMW, "the value an atomic update reads (omp atomic "
                            "capture, or a compare-and-swap loop) carries a "
                            "derivative");
  if (!SP)
    return true; // (memory without derivatives)
  // (*p += v: the adjoint of *p, which the reverse sweep only reads here,
  // flows to v.)
  const Align A = shadowAlign(Rev.getParent()->getDataLayout(), V->getType(),
                              RMW.getAlign());
  if (nullable(RMW.getPointerOperand()))
    SP = guardedReadAddress(RB, SP, V->getType(), A);
  LoadInst *D = RB.CreateAlignedLoad(V->getType(), SP, A);
  tagMemoryClass(*D, MemoryClass::Shadow);
  addAdjoint(V, Op == AtomicRMWInst::FSub ? RB.CreateFNeg(D)
                                          : static_cast<Value *>(D));
  return true;
}

ParallelMemory &ReverseEmitter::sharedMemory() {
  // (Per-thread copies in the region's own reverse sweep, which each
  // thread runs once: its end adds them in.)
  if (!SharedMemory)
    SharedMemory = std::make_unique<ParallelMemory>(
        *Key.Primal, Width == 1 && isForkedRegion(*Key.Primal),
        Key.PrivateArgs, !Key.NestedRegion,
        [this](const Function &F) { return Ctx.isGenerated(F); });
  return *SharedMemory;
}

bool ReverseEmitter::sharedCopySource(const Value *PrimalSource) {
  return Key.Parallel && PrimalSource &&
         !sharedMemory().isThreadPrivate(PrimalSource);
}

ParallelUpdate ReverseEmitter::parallelUpdateOf(LoadInst &LI,
                                                const char *&Why,
                                                const Value *&Object) {
  const auto *Primal = dyn_cast_or_null<LoadInst>(PrimalOf.lookup(&LI));
  if (!Primal) {
    Why = "memory other threads may update";
    return ParallelUpdate::Atomic;
  }
  return sharedMemory().updateOf(*Primal, Why, Object);
}

uint64_t ReverseEmitter::threadPrivateArgs(const CallBase &Call) const {
  uint64_t Bits = 0;
  for (unsigned No = 0; No < Call.arg_size() && No < 64; ++No) {
    const Value *A = Call.getArgOperand(No);
    if (!A->getType()->isPointerTy())
      continue;
    const Value *Obj = getUnderlyingObject(A);
    bool Private = isa<AllocaInst>(Obj);
    if (const auto *Arg = dyn_cast_or_null<Argument>(PrimalOf.lookup(Obj)))
      Private = Arg->getArgNo() < 64 && (Key.PrivateArgs >> Arg->getArgNo() & 1);
    if (Private)
      Bits |= uint64_t(1) << No;
  }
  return Bits;
}

} // namespace adcore
