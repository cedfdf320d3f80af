//===- StableMemory.cpp - Memory nothing writes between the sweeps --------===//
//
// The reverse sweep reads a value from memory again, instead of recording
// it, where nothing can write that memory between the augmented sweep's
// load and the reverse sweep's (Recompute.cpp):
//
//  argument memory    memory a pointer argument reaches, where the
//                     derivative's key says its callers write none of it
//                     (DerivativeKey::StableMemory) and the function writes
//                     only its own stack and heap blocks or, for a noalias
//                     (restrict) argument, memory of other arguments; a
//                     noalias argument the function only reads (readonly)
//                     is never written while it runs.
//  captured pointers  an OpenMP region reaches the forking function's
//                     variables through pointers to their stack slots (the
//                     outlined function's parameters); where every fork
//                     gives a parameter a slot that holds only pointers into
//                     argument memory of the forking function that nothing
//                     writes (neither the function with its regions, nor,
//                     as the region's key says with StableMemory, its
//                     callers), the reverse region reads again what the
//                     region reads through the pointer it loads from that
//                     parameter: the parameters of a model that every data
//                     point's iteration reads. (The pointer itself is
//                     recorded once; the slot is never read again: it is in
//                     the forking function's frame, which is gone where that
//                     function's reverse sweep runs apart from its
//                     augmented sweep.)
//
// What a function writes is followed into the regions it forks: a write of
// the region through one of its arguments writes the forking function's
// variable the fork gives it, and a write through a pointer the region
// loads from such a variable writes what the forking function stored in
// it. The OpenMP runtime's scheduling, barrier, critical-section and
// reduction calls write through their pointer arguments only (the locks
// Clang makes for critical sections are the runtime's).
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"

#include "rules/BlasRules.h"
#include "rules/MpiRules.h"
#include "rules/OpenMPRuntime.h"

#include "adcore/MathRules.h"
#include "adcore/MemoryFunctions.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {
namespace {

using WritesThrough = function_ref<bool(const Value *Ptr)>;
/// Whether a function is one of the math functions with a rule (which
/// write errno at most).
using MathFunction = function_ref<bool(const Function &)>;

/// Memory this function allocated: its stack slots and heap blocks.
bool isLocalObject(const Value *Obj) {
  if (isa<AllocaInst>(Obj))
    return true;
  auto *Call = dyn_cast<CallBase>(Obj);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee && isAllocationFunction(*Callee);
}

/// Memory no write of the program reaches: null, constants, functions, and
/// the locks Clang makes for critical sections and reductions (the
/// runtime's, which the program cannot name).
bool unwrittenObject(const Value *Base) {
  if (isa<ConstantPointerNull, Function>(Base))
    return true;
  auto *GV = dyn_cast<GlobalVariable>(Base);
  return GV && (GV->isConstant() ||
                GV->getName().starts_with(".gomp_critical_user_"));
}

bool writesThroughArguments(const CallBase &Call, WritesThrough MayWrite) {
  return any_of(Call.args(), [&](const Use &U) {
    return U->getType()->isPointerTy() && MayWrite(U.get());
  });
}

/// The pointers the forking function stores in the stack slot that the
/// fork \p Fork gives its region as parameter \p ArgNo, where nothing else
/// writes that slot: the forking function only stores pointers into it
/// and loads from it, gives its address to this fork alone, and the region
/// neither writes through the parameter nor keeps it (readonly, nocapture:
/// as LLVM infers them). Else false.
bool slotPointers(const CallBase &Fork, unsigned ArgNo,
                  SmallVectorImpl<const Value *> &Held) {
  const Function *Region = forkedFunction(Fork);
  if (!Region || ArgNo < 2 || ArgNo >= Region->arg_size())
    return false;
  auto *Slot = dyn_cast<AllocaInst>(
      Fork.getArgOperand(ForkSharedArgs + ArgNo - 2)->stripPointerCasts());
  if (!Slot)
    return false;
  for (const Use &U : Slot->uses()) {
    const User *Usr = U.getUser();
    if (auto *SI = dyn_cast<StoreInst>(Usr)) {
      if (U.getOperandNo() != SI->getPointerOperandIndex() ||
          !SI->getValueOperand()->getType()->isPointerTy())
        return false;
      Held.push_back(SI->getValueOperand());
      continue;
    }
    if (isa<LoadInst>(Usr))
      continue;
    if (auto *II = dyn_cast<IntrinsicInst>(Usr);
        II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
      continue;
    // (The fork may give the slot to several parameters: each only read.)
    if (Usr != &Fork || Fork.isCallee(&U) ||
        U.getOperandNo() < ForkSharedArgs)
      return false;
    const Argument *Param =
        Region->getArg(U.getOperandNo() - ForkSharedArgs + 2);
    if (!Param->onlyReadsMemory() || !Param->hasNoCaptureAttr())
      return false;
  }
  return true;
}

/// For a pointer \p L that a forked region loads from one of its
/// parameters: the pointers that parameter's slot holds (slotPointers).
bool loadedSlotPointers(const CallBase &Fork, const Value *L,
                        SmallVectorImpl<const Value *> &Held) {
  auto *Load = dyn_cast<LoadInst>(L);
  auto *Param =
      Load && Load->isSimple() && Load->getType()->isPointerTy()
          ? dyn_cast<Argument>(Load->getPointerOperand())
          : nullptr;
  return Param && slotPointers(Fork, Param->getArgNo(), Held);
}

bool instructionWrites(const Instruction &I, WritesThrough MayWrite,
                       function_ref<bool(const CallBase &)> ForkWrites,
                       MathFunction IsMath);

/// Whether the region \p Fork starts may write what \p MayWrite (of the
/// forking function) says a write through a pointer may reach.
bool forkWrites(const CallBase &Fork, WritesThrough MayWrite,
                MathFunction IsMath) {
  const Function *Region = forkedFunction(Fork);
  if (!Region || Region->isDeclaration())
    return true;
  auto RegionMayWrite = [&](const Value *Ptr) {
    SmallVector<const Value *, 4> Bases;
    getUnderlyingObjects(Ptr, Bases);
    return any_of(Bases, [&](const Value *Base) {
      if (isLocalObject(Base) || unwrittenObject(Base))
        return false;
      // A variable of the forking function (or a value it gives by value).
      if (auto *A = dyn_cast<Argument>(Base))
        return A->getArgNo() < 2 ||
               MayWrite(Fork.getArgOperand(ForkSharedArgs + A->getArgNo() - 2));
      // A pointer the region reads from such a variable.
      SmallVector<const Value *, 2> Held;
      if (loadedSlotPointers(Fork, Base, Held))
        return any_of(Held, MayWrite);
      return true;
    });
  };
  // (A region forked inside the region is not followed.)
  return any_of(instructions(*Region), [&](const Instruction &I) {
    return instructionWrites(
        I, RegionMayWrite, [](const CallBase &) { return true; }, IsMath);
  });
}

/// Whether \p I may write memory that a write through a pointer reaches
/// where \p MayWrite says so; \p ForkWrites answers for the forks of
/// OpenMP regions.
bool instructionWrites(const Instruction &I, WritesThrough MayWrite,
                       function_ref<bool(const CallBase &)> ForkWrites,
                       MathFunction IsMath) {
  if (!I.mayWriteToMemory())
    return false;
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return MayWrite(SI->getPointerOperand());
  if (auto *MI = dyn_cast<AnyMemIntrinsic>(&I))
    return MayWrite(MI->getRawDest());
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return MayWrite(RMW->getPointerOperand());
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return MayWrite(CX->getPointerOperand());
  auto *Call = dyn_cast<CallBase>(&I);
  if (!Call)
    return !isa<FenceInst>(I);
  if (auto *II = dyn_cast<IntrinsicInst>(Call))
    if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II) ||
        II->getIntrinsicID() == Intrinsic::assume ||
        II->getIntrinsicID() == Intrinsic::experimental_noalias_scope_decl)
      return false;
  const Function *Callee = Call->getCalledFunction();
  if (Callee && IsMath(*Callee))
    return false; // a math function: at most errno
  if (Callee) {
    switch (classifyOpenMPCall(*Callee)) {
    case OpenMPCall::Fork:
      return ForkWrites(*Call);
    case OpenMPCall::Inactive:
    case OpenMPCall::Barrier:
    case OpenMPCall::Critical:
    case OpenMPCall::EndCritical:
    case OpenMPCall::EndReduce:
      return writesThroughArguments(*Call, MayWrite);
    case OpenMPCall::Reduce: {
      // (The runtime may combine the threads' private copies through the
      // pointers of the list it is given: __kmpc_reduce(loc, gtid, n,
      // size, list, combine, lock).)
      auto *List = Call->arg_size() > 4
                       ? dyn_cast<AllocaInst>(getUnderlyingObject(
                             Call->getArgOperand(4)))
                       : nullptr;
      if (!List)
        return true;
      return writesThroughArguments(*Call, MayWrite) ||
             any_of(instructions(*Call->getFunction()),
                    [&](const Instruction &J) {
                      auto *SI = dyn_cast<StoreInst>(&J);
                      return SI &&
                             getUnderlyingObject(SI->getPointerOperand()) ==
                                 List &&
                             (!SI->getValueOperand()->getType()->isPointerTy() ||
                              MayWrite(SI->getValueOperand()));
                    });
    }
    case OpenMPCall::Unsupported:
    case OpenMPCall::None:
      break;
    }
    MemoryFunctionKind K = classifyMemoryFunction(*Callee);
    if (K == MemoryFunctionKind::Free)
      return MayWrite(Call->getArgOperand(0));
    // (A registered allocator or deallocator is the program's code, which
    // may write what it likes: as any call.)
    if (K != MemoryFunctionKind::None && K != MemoryFunctionKind::Realloc &&
        K != MemoryFunctionKind::AdjointCopy &&
        K != MemoryFunctionKind::AllocationLike &&
        K != MemoryFunctionKind::DeallocationLike)
      return false;
  }
  // (errno is the C library's: a function that calls exp writes it.)
  MemoryEffects Effects =
      Call->getMemoryEffects().getWithoutLoc(IRMemLocation::ErrnoMem);
  if (Effects.onlyReadsMemory())
    return false;
  // An MPI call writes its receive buffer, request and status alone.
  SmallVector<unsigned, 4> Written;
  if (Callee && mpiWrittenArguments(*Callee, Written))
    return any_of(Written, [&](unsigned K) {
      return MayWrite(Call->getArgOperand(K));
    });
  // A BLAS routine with a rule writes its output array alone.
  if (Callee && isBlasRuleFunction(*Callee)) {
    int Out = blasWrittenArray(*Callee);
    return Out >= 0 && MayWrite(Call->getArgOperand(Out));
  }
  // A callee that writes only through its pointer arguments.
  return !Effects.onlyAccessesArgPointees() ||
         writesThroughArguments(*Call, MayWrite);
}

/// Whether \p F may write the memory of \p Obj, one of its arguments.
bool functionWritesObject(const Function &F, const Value *Obj,
                          MathFunction IsMath) {
  // Whether a write through Ptr may change Obj's memory: not when Ptr is
  // based on memory this function allocated, nor when Obj is a noalias
  // argument and Ptr is based on another argument.
  auto *ObjArg = dyn_cast<Argument>(Obj);
  bool NoAlias = ObjArg && ObjArg->hasNoAliasAttr();
  // A noalias argument the function only reads (readonly, as LLVM infers
  // it from the body and the callees): while the function runs, nothing
  // writes that memory, whatever its callees write elsewhere (a callee
  // calling lgamma, which writes signgam, is assumed to write anything).
  if (NoAlias && ObjArg->onlyReadsMemory())
    return false;
  // (The objects are followed through phis and selects: buffers swapped
  // between the steps of a time loop are still the function's own.)
  auto MayWrite = [&](const Value *Ptr) {
    SmallVector<const Value *, 4> Bases;
    getUnderlyingObjects(Ptr, Bases);
    return any_of(Bases, [&](const Value *Base) {
      if (isLocalObject(Base) || unwrittenObject(Base))
        return false;
      if (Base == Obj)
        return true;
      return !(NoAlias && isa<Argument>(Base));
    });
  };
  return any_of(instructions(F), [&](const Instruction &I) {
    return instructionWrites(
        I, MayWrite,
        [&](const CallBase &Fork) { return forkWrites(Fork, MayWrite, IsMath); },
        IsMath);
  });
}

/// Whether the slot \p Fork gives its region as parameter \p ArgNo holds
/// only pointers into argument memory of the forking function that the
/// function (the region included) does not write.
bool stableSlot(const CallBase &Fork, unsigned ArgNo, MathFunction IsMath) {
  SmallVector<const Value *, 2> Held;
  return slotPointers(Fork, ArgNo, Held) && !Held.empty() &&
         all_of(Held, [&](const Value *P) {
           auto *A = dyn_cast<Argument>(getUnderlyingObject(P));
           return A && A->getParent() == Fork.getFunction() &&
                  !functionWritesObject(*A->getParent(), A, IsMath);
         });
}

} // namespace

bool ReverseEmitter::writesObject(const Value *Obj) {
  if (auto It = WritesObject.find(Obj); It != WritesObject.end())
    return It->second;
  bool Result = functionWritesObject(*Key.Primal, Obj, [&](const Function &F) {
    return ruleFor(F) != nullptr;
  });
  WritesObject[Obj] = Result;
  return Result;
}

bool ReverseEmitter::reloadable(LoadInst &LI) {
  if (!Key.StableMemory || !LI.isSimple())
    return false;
  const Value *Ptr = LI.getPointerOperand();
  if (stableArgumentMemory(Ptr))
    return true;
  // In an OpenMP region (whose key's StableMemory says that the forking
  // function's callers leave its argument memory alone between the
  // sweeps): memory read through a pointer loaded from a parameter, where
  // every fork of the region gives that parameter a stable slot.
  auto *L = dyn_cast<LoadInst>(getUnderlyingObject(Ptr));
  auto *A = L && L->isSimple() ? dyn_cast<Argument>(L->getPointerOperand())
                               : nullptr;
  auto *Param = A ? dyn_cast_or_null<Argument>(PrimalOf.lookup(A)) : nullptr;
  if (!Param || !isForkedRegion(*Key.Primal))
    return false;
  unsigned Forks = 0;
  for (const User *U : Key.Primal->users()) {
    auto *Fork = dyn_cast<CallBase>(U);
    if (!Fork || Ctx.isGenerated(*Fork->getFunction()))
      continue;
    if (forkedFunction(*Fork) != Key.Primal ||
        !stableSlot(*Fork, Param->getArgNo(), [&](const Function &F) {
          return ruleFor(F) != nullptr;
        }))
      return false;
    ++Forks;
  }
  return Forks > 0;
}

bool ReverseEmitter::stableArgumentMemory(const Value *Ptr) {
  // (An OpenMP region's parameters point to the forking function's stack
  // slots, gone where that function's reverse sweep runs apart from its
  // augmented sweep.)
  if (isForkedRegion(*Key.Primal))
    return false;
  // (The augmented sweep's arguments interleave shadows: PrimalOf maps
  // the primal's clones back.)
  auto *A = dyn_cast<Argument>(getUnderlyingObject(Ptr));
  const Value *Primal = A ? PrimalOf.lookup(A) : nullptr;
  return Primal && !writesObject(Primal);
}

} // namespace adcore
