//===- CriticalSections.cpp - OpenMP critical sections in reverse mode ----===//
//
// The reverse region runs the adjoints of a critical section inside the
// same critical section (entered at the mirror of its end, left at the
// mirror of its start), and so the adjoints of a reduction, which
// prepare/OpenMPReductions.cpp turned into one. Its threads reach their
// sections in another order than the augmented region's did. That does
// not matter where every update of shared memory in the sections is a sum
// (`s += v`: its adjoint only reads the adjoint of s); anything else (a
// running maximum, `p = p * v`, a call that writes memory) has adjoints
// that must run in the reverse of the order the sections ran in:
//
//   augmented   __kmpc_critical(lock)
//               ... section ...
//               t = adcc_parallel_ticket(level)       (t recorded)
//               __kmpc_end_critical(lock)
//   reverse     adcc_parallel_wait_turn(t, level)     (counter == t + 1)
//               __kmpc_critical(lock)
//               adcc_parallel_pass_turn(t, level)     (counter = t)
//               ... adjoints of the section ...
//               __kmpc_end_critical(lock)
//
// The ticket counter is the region's (runtime/lib/parallel.c): tickets of
// one lock follow the order the threads held it, those of one thread its
// program order, and a barrier separates the tickets taken before it from
// those taken after, so the reverse of the tickets' order is an order the
// reverse region can always run in. The thread passes the turn as soon as
// it holds the lock: sections of other locks may then run beside it, a
// later section of its own lock waits for the lock. Sum-only regions take
// no tickets.
//
// The OpenMP API's locks are critical sections too: omp_set_lock(l) ...
// omp_unset_lock(l). The reverse region cannot take the program's lock
// (a local of the function may be gone, a destroyed lock is no lock): it
// enters at the mirror of the unset a lock of the region's own that
// stands for l, found by l's address (recorded: it may be an element of
// an array of locks), adcc_parallel_lock(l, level), and leaves it at the
// mirror of the set (runtime/lib/parallel.c).
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"

#include "rules/OpenMPRuntime.h"
#include "rules/RuleWrappers.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

/// A call of the runtime's function \p Name (returning \p Ret) at \p B.
CallInst *callRuntime(IRBuilder<> &B, StringRef Name, Type *Ret,
                      ArrayRef<Value *> Args, const Twine &ResultName = "") {
  Module &M = *B.GetInsertBlock()->getModule();
  return B.CreateCall(runtimeFunction(M, Name, Ret, Args), Args, ResultName);
}

/// The same address: one value, or two loads of one pointer variable
/// (-O0).
bool samePlace(const Value *A, const Value *B) {
  if (A == B)
    return true;
  const auto *LA = dyn_cast<LoadInst>(A), *LB = dyn_cast<LoadInst>(B);
  return LA && LB && LA->getPointerOperand() == LB->getPointerOperand() &&
         isa<AllocaInst>(LA->getPointerOperand());
}

/// Whether \p SI, in a critical section, adds to the value it overwrites:
/// `*p = *p + v` or `*p = *p - v`, *p read in the section, v not computed
/// from it.
bool accumulates(const StoreInst &SI) {
  auto *Op = dyn_cast<BinaryOperator>(SI.getValueOperand());
  if (!Op || (Op->getOpcode() != Instruction::FAdd &&
              Op->getOpcode() != Instruction::FSub))
    return false;
  for (unsigned K = 0; K < 2; ++K) {
    if (K == 1 && Op->getOpcode() == Instruction::FSub)
      break;
    auto *Old = dyn_cast<LoadInst>(Op->getOperand(K));
    if (Old && samePlace(Old->getPointerOperand(), SI.getPointerOperand()) &&
        Old->hasOneUse() && Op->getOperand(1 - K) != Old)
      return true;
  }
  return false;
}

/// Whether what \p J does in a critical section has adjoints that depend
/// on the order the threads ran the section in.
bool dependsOnOrder(const Instruction &J) {
  if (const auto *SI = dyn_cast<StoreInst>(&J))
    return !isa<AllocaInst>(getUnderlyingObject(SI->getPointerOperand())) &&
           SI->getValueOperand()->getType()->isFPOrFPVectorTy() &&
           !accumulates(*SI);
  const auto *Call = dyn_cast<CallBase>(&J);
  if (!Call || isa<IntrinsicInst>(Call))
    return false;
  const Function *G = Call->getCalledFunction();
  return !G || (!G->isDeclaration() && !G->onlyReadsMemory());
}

} // namespace

void ReverseEmitter::planCriticalSections() {
  for (BasicBlock &BB : *Key.Primal)
    for (Instruction &I : BB) {
      auto *Call = dyn_cast<CallBase>(&I);
      Function *F = Call ? Call->getCalledFunction() : nullptr;
      if (!F || classifyOpenMPCall(*F) != OpenMPCall::Critical)
        continue;
      // The section: what runs after I and before the end on its lock.
      SmallVector<Instruction *, 8> Work = {I.getNextNode()};
      SmallPtrSet<Instruction *, 32> Seen;
      while (!Work.empty()) {
        Instruction *J = Work.pop_back_val();
        if (!J || !Seen.insert(J).second)
          continue;
        auto *Inner = dyn_cast<CallBase>(J);
        Function *G = Inner ? Inner->getCalledFunction() : nullptr;
        if (G && classifyOpenMPCall(*G) == OpenMPCall::EndCritical &&
            isOpenMPLockCall(*G) == isOpenMPLockCall(*F) &&
            samePlace(criticalLock(*Inner), criticalLock(*Call)))
          continue;
        if (dependsOnOrder(*J)) {
          OrderedCriticals = true;
          return;
        }
        if (J->isTerminator())
          for (BasicBlock *S : successors(J->getParent()))
            Work.push_back(&S->front());
        else
          Work.push_back(J->getNextNode());
      }
    }
}

void ReverseEmitter::takeCriticalTicket(CallBase &End) {
  Function *F = End.getCalledFunction();
  // (The lock of an omp_*_lock call, for its mirror.)
  if (F && Key.Parallel && !DeviceCode && isOpenMPLockCall(*F))
    if (Value *Lock = criticalLock(End))
      record(End, {Lock});
  if (!OrderedCriticals || !Key.Parallel || DeviceCode || !F ||
      classifyOpenMPCall(*F) != OpenMPCall::EndCritical)
    return;
  IRBuilder<> B(&End);
  Value *Ticket = callRuntime(B, "adcc_parallel_ticket", B.getInt64Ty(),
                              {B.getInt32(Key.TapeLevel)}, "ticket");
  CriticalTickets[&End] = Ticket;
  record(End, {Ticket});
}

bool ReverseEmitter::mirrorsOpenMPSync(Instruction &I,
                                       DenseMap<Value *, Value *> &Popped) {
  auto *Call = dyn_cast<CallBase>(&I);
  Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee)
    return false;
  OpenMPCall Kind = classifyOpenMPCall(*Callee);
  if (Kind != OpenMPCall::Barrier && Kind != OpenMPCall::Critical &&
      Kind != OpenMPCall::EndCritical)
    return false;
  if (Lane != 0)
    return true;
  Type *Void = RB.getVoidTy();
  bool ApiLock = isOpenMPLockCall(*Callee);
  Value *Loc = nullptr, *Tid = nullptr;
  if (!ApiLock) {
    // (The thread's id in the reverse region, not a record of the
    // primal's.)
    Loc = Call->getArgOperand(0);
    Tid = callRuntime(RB, "__kmpc_global_thread_num", RB.getInt32Ty(), {Loc});
  }
  if (Kind == OpenMPCall::Barrier) {
    callRuntime(RB, "__kmpc_barrier", Void, {Loc, Tid});
    return true;
  }
  // The reverse of a section's end enters it (in its turn, where the
  // order matters); of its start, leaves it.
  Value *Lock = revValue(criticalLock(*Call), Popped);
  if (!Lock) {
    unsupported(I, "internal error: the lock of an omp_set_lock or "
                   "omp_unset_lock was not recorded");
    return true;
  }
  Value *Ticket = nullptr;
  if (Value *T = CriticalTickets.lookup(Call)) {
    Ticket = Popped.lookup(T);
    // (Never unordered silently: the error is the derivative's.)
    if (!Ticket) {
      unsupported(I, "internal error: the ticket of an ordered critical "
                     "section was not recorded");
      return true;
    }
  }
  Constant *Level = RB.getInt32(Key.TapeLevel);
  if (Ticket)
    callRuntime(RB, "adcc_parallel_wait_turn", Void, {Ticket, Level});
  if (ApiLock)
    callRuntime(RB,
                Kind == OpenMPCall::EndCritical ? "adcc_parallel_lock"
                                                : "adcc_parallel_unlock",
                Void, {Lock, Level});
  else
    callRuntime(RB,
                Kind == OpenMPCall::EndCritical ? "__kmpc_critical"
                                                : "__kmpc_end_critical",
                Void, {Loc, Tid, Lock});
  if (Ticket)
    callRuntime(RB, "adcc_parallel_pass_turn", Void, {Ticket, Level});
  return true;
}

} // namespace adcore
