//===- ParallelMemory.cpp - Shared memory of a parallel region -----------===//

#include "ParallelMemory.h"
#include "RegionAliases.h"

#include "rules/OpenMPRuntime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace adcore {
namespace {

const Value *stripIntCasts(const Value *V) {
  while (isa<SExtInst, ZExtInst, TruncInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  return V;
}

/// The lower bound a scheduling call writes: __kmpc_for_static_init_*(loc,
/// gtid, schedule, last, lower, upper, stride, incr, chunk) and
/// __kmpc_dispatch_next_*(loc, gtid, last, lower, upper, stride).
const Value *lowerBoundOf(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F || classifyOpenMPCall(*F) != OpenMPCall::Inactive)
    return nullptr;
  StringRef Name = F->getName();
  if (Name.starts_with("__kmpc_for_static_init_") && Call.arg_size() == 9)
    return Call.getArgOperand(4);
  if (Name.starts_with("__kmpc_dispatch_next_") && Call.arg_size() == 6)
    return Call.getArgOperand(3);
  return nullptr;
}

/// The object \p Ptr points into, named by where its base pointer was read
/// from when it was read from memory: two reads of one pointer variable
/// (before each loop of a region) name one array.
const Value *objectOf(const Value *Ptr) {
  const Value *Obj = getUnderlyingObject(Ptr);
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    const auto *Base = dyn_cast<LoadInst>(Obj);
    if (!Base)
      break;
    Obj = getUnderlyingObject(Base->getPointerOperand());
  }
  return Obj;
}

/// Whether \p Obj holds no pointer a call given it could follow: null, a
/// constant global, or a stack slot of \p Region into which no pointer is
/// stored.
bool pointerFree(const Value *Obj, const Function &Region) {
  if (isa<ConstantPointerNull, UndefValue>(Obj))
    return true;
  if (const auto *G = dyn_cast<GlobalVariable>(Obj))
    return G->isConstant();
  const auto *Slot = dyn_cast<AllocaInst>(Obj);
  if (!Slot || Slot->getFunction() != &Region)
    return false;
  for (const BasicBlock &BB : Region)
    for (const Instruction &I : BB)
      if (const auto *SI = dyn_cast<StoreInst>(&I);
          SI && SI->getValueOperand()->getType()->isPointerTy() &&
          getUnderlyingObject(SI->getPointerOperand()) == Slot)
        return false;
  return true;
}

/// Calls that reach no memory of the program: the OpenMP runtime's,
/// lifetime and debug markers.
bool ignoredCall(const CallBase &Call) {
  if (isa<DbgInfoIntrinsic>(Call))
    return true;
  if (const auto *II = dyn_cast<IntrinsicInst>(&Call);
      II && II->isLifetimeStartOrEnd())
    return true;
  const Function *F = Call.getCalledFunction();
  return F && classifyOpenMPCall(*F) != OpenMPCall::None;
}

bool isFloatLoad(const Instruction &I) {
  const auto *LI = dyn_cast<LoadInst>(&I);
  return LI && LI->getType()->isFPOrFPVectorTy();
}

} // namespace

ParallelMemory::~ParallelMemory() = default;

ParallelMemory::ParallelMemory(
    Function &Region, bool PerThread, uint64_t PrivateArgs, bool OwnElements,
    std::function<bool(const Function &)> Generated)
    : PrivateArgs(PrivateArgs), OwnElements(OwnElements) {
  SmallPtrSet<const Value *, 4> Bounds;
  for (const BasicBlock &BB : Region)
    for (const Instruction &I : BB)
      if (const auto *Call = dyn_cast<CallBase>(&I)) {
        if (const Value *LB = lowerBoundOf(*Call)) {
          Bounds.insert(LB);
          Schedules.push_back(Call);
        }
        // (Clang's name of a task's entry, called where the task is
        // created since prepare/OpenMPTasks.cpp.)
        if (const Function *F = Call->getCalledFunction();
            F && F->getName().starts_with(".omp_task_entry."))
          RunsTasks = true;
      }
  if (RunsTasks)
    for (const BasicBlock &BB : Region)
      for (const Instruction &I : BB)
        if (const auto *SI = dyn_cast<StoreInst>(&I);
            SI && SI->getValueOperand()->getType()->isPointerTy())
          if (const auto *Slot = dyn_cast<AllocaInst>(
                  getUnderlyingObject(SI->getValueOperand())))
            TaskSharedSlots.insert(Slot);
  DT = std::make_unique<DominatorTree>(Region);
  LoopInfo LI(*DT);
  // i = phi [lower bound, preheader], [i + step, latch]
  for (const BasicBlock &BB : Region) {
    const Loop *L = LI.getLoopFor(&BB);
    if (!L || L->getHeader() != &BB)
      continue;
    for (const PHINode &Phi : BB.phis()) {
      if (Phi.getNumIncomingValues() != 2 || !Phi.getType()->isIntegerTy())
        continue;
      const Value *Start = nullptr;
      bool Steps = false;
      for (unsigned K = 0; K < 2; ++K) {
        const Value *In = Phi.getIncomingValue(K);
        const APInt *Step;
        if (L->contains(Phi.getIncomingBlock(K)))
          Steps = match(In, m_Add(m_Specific(&Phi), m_APInt(Step))) &&
                  !Step->isZero();
        else
          Start = stripIntCasts(In);
      }
      const auto *Load = dyn_cast_or_null<LoadInst>(Start);
      if (Steps && Load && Bounds.contains(Load->getPointerOperand()))
        Inductions.insert(&Phi);
    }
  }
  // What some access reads at another address than the iteration's own
  // element, or a call may read.
  for (const BasicBlock &BB : Region)
    for (const Instruction &I : BB) {
      if (isFloatLoad(I)) {
        const Value *Ptr = cast<LoadInst>(I).getPointerOperand();
        if (!iterationBase(Ptr))
          Shared.insert(objectOf(Ptr));
        continue;
      }
      const auto *Call = dyn_cast<CallBase>(&I);
      if (!Call || isa<DbgInfoIntrinsic>(Call))
        continue;
      if (const Function *F = Call->getCalledFunction();
          F && classifyOpenMPCall(*F) != OpenMPCall::None)
        continue;
      if (const auto *II = dyn_cast<IntrinsicInst>(Call);
          II && II->isLifetimeStartOrEnd())
        continue;
      for (const Use &U : Call->args())
        if (U->getType()->isPointerTy())
          Shared.insert(objectOf(U.get()));
    }
  // (An object read as the iteration's element through two different
  // bases, b and b + 1, is read at two elements by one iteration; one read
  // by two loops, at iterations that other threads may run at once.)
  ElementForms BaseOf;
  for (const BasicBlock &BB : Region)
    for (const Instruction &I : BB)
      if (isFloatLoad(I)) {
        const Value *Ptr = cast<LoadInst>(I).getPointerOperand();
        if (const Value *Base = iterationBase(Ptr)) {
          const Value *Index = cast<GEPOperator>(Ptr)->getOperand(1);
          std::pair<const Value *, const Value *> Form = {
              Base, stripIntCasts(Index)};
          auto [It, New] = BaseOf.try_emplace(objectOf(Base), Form);
          if (!New && It->second != Form)
            Shared.insert(It->first);
        }
      }
  // (Arrays read only at the iteration's own element, in one form: two of
  // them that may overlap are checked at run time, in the region itself.)
  SmallPtrSet<const Value *, 8> Checkable;
  for (const auto &[Obj, Form] : BaseOf)
    if (!Shared.contains(Obj))
      Checkable.insert(Obj);
  RegionAliases Aliases(Region, std::move(Generated));
  if (OwnElements)
    shareAliasedElements(Region, Aliases, BaseOf,
                         PerThread && !RunsTasks ? &Checkable : nullptr, LI);
  if (PerThread)
    findPerThreadObjects(Region, Bounds, Aliases);
}

void ParallelMemory::shareAliasedElements(
    Function &Region, const RegionAliases &Aliases, const ElementForms &BaseOf,
    const SmallPtrSetImpl<const Value *> *Checkable, const LoopInfo &LI) {
  // (Per array: the arrays of its loop it may overlap, read at their
  // iteration's own elements, where that is all that may reach it.)
  DenseMap<const Value *, SmallVector<const Value *, 2>> Partners;
  // An iteration's own element is updated plainly only where nothing
  // reaches that array through another object: a pointer read from
  // memory that holds its address (`h->p[0]` where h holds p), or a call
  // given such memory (RegionAliases.h).
  for (const BasicBlock &BB : Region)
    for (const Instruction &I : BB) {
      // (Two arguments only read may overlap: dot(a, a + 1) adds into one
      // adjoint from iterations i and i + 1. A write through one of them
      // that reaches what another iteration reads through the other is a
      // data race of the program itself; without one, the reverses are as
      // ordered as the accesses.)
      SmallVector<const Value *, 4> Reads, Writes, Calls;
      if (isFloatLoad(I)) {
        Reads.push_back(cast<LoadInst>(I).getPointerOperand());
      } else if (const auto *SI = dyn_cast<StoreInst>(&I)) {
        if (SI->getValueOperand()->getType()->isFPOrFPVectorTy())
          Writes.push_back(SI->getPointerOperand());
      } else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
        Writes.push_back(RMW->getPointerOperand());
      } else if (const auto *Call = dyn_cast<CallBase>(&I)) {
        if (!ignoredCall(*Call))
          for (const Use &U : Call->args())
            if (U->getType()->isPointerTy())
              Calls.push_back(U.get());
      }
      for (const auto &[Obj, Form] : BaseOf) {
        if (Shared.contains(Obj))
          continue;
        for (const Value *Ptr : Reads) {
          const Value *Other = objectOf(Ptr);
          if (Other == Obj || !Aliases.mayAlias(Ptr, Form.first))
            continue;
          if (Checkable && Checkable->contains(Obj) &&
              Checkable->contains(Other) &&
              BaseOf.lookup(Other).second == Form.second) {
            if (!is_contained(Partners[Obj], Other))
              Partners[Obj].push_back(Other);
            continue;
          }
          Shared.insert(Obj);
        }
        for (const Value *Ptr : Writes)
          if (objectOf(Ptr) != Obj &&
              Aliases.mayAlias(Ptr, Form.first,
                               RegionAliases::Arguments::Distinct))
            Shared.insert(Obj);
        for (const Value *Ptr : Calls)
          if (objectOf(Ptr) != Obj && Aliases.mayReach(Ptr, Form.first))
            Shared.insert(Obj);
      }
    }
  // The arrays left with partners only: Checked, by their loop's check,
  // which covers them and their partners (whatever the partners' own
  // updates are, their reads are at their iteration's elements).
  // (In the order of the region's loads: the checks' code is the same in
  // every compile.)
  const DataLayout &DL = Region.getDataLayout();
  SmallVector<const Value *, 4> Order;
  for (const BasicBlock &BB : Region)
    for (const Instruction &I : BB)
      if (isFloatLoad(I)) {
        const Value *Obj = objectOf(cast<LoadInst>(I).getPointerOperand());
        if (Partners.count(Obj) && !is_contained(Order, Obj))
          Order.push_back(Obj);
      }
  SmallSet<int, 2> Failed;
  for (const Value *Obj : Order) {
    const SmallVector<const Value *, 2> &Others = Partners.find(Obj)->second;
    if (Shared.contains(Obj))
      continue;
    const auto *Induction = cast<PHINode>(BaseOf.lookup(Obj).second);
    int K = checkFor(Induction, LI);
    if (K < 0) {
      Shared.insert(Obj);
      continue;
    }
    ApartCheck &Check = Checks[K];
    bool Ok = true;
    SmallVector<const Value *, 4> Objects = {Obj};
    Objects.append(Others.begin(), Others.end());
    for (const Value *O : Objects) {
      if (any_of(Check.Arrays, [&](const ApartCheck::Array &A) {
            return objectOf(A.Base) == O;
          }))
        continue;
      // (The stride and the bytes read, from its loads: one stride.)
      ApartCheck::Array A = {BaseOf.lookup(O).first, 0, 0};
      for (const BasicBlock &BB : Region)
        for (const Instruction &I : BB)
          if (isFloatLoad(I)) {
            const Value *Ptr = cast<LoadInst>(I).getPointerOperand();
            if (objectOf(Ptr) != O || !iterationBase(Ptr))
              continue;
            uint64_t Stride = DL.getTypeAllocSize(
                cast<GEPOperator>(Ptr)->getSourceElementType());
            if (A.Stride && A.Stride != Stride)
              Ok = false;
            A.Stride = Stride;
            A.Bytes =
                std::max<uint64_t>(A.Bytes, DL.getTypeStoreSize(I.getType()));
          }
      const auto *BaseI = dyn_cast<Instruction>(A.Base);
      if (!A.Stride || (BaseI && !DT->dominates(BaseI, Check.At)))
        Ok = false;
      Check.Arrays.push_back(A);
    }
    if (!Ok)
      Failed.insert(K);
    CheckOfObject[Obj] = K;
  }
  // (A check with an array it cannot cover checks nothing.)
  for (const Value *Obj : Order)
    if (auto It = CheckOfObject.find(Obj);
        It != CheckOfObject.end() && Failed.contains(It->second)) {
      Shared.insert(Obj);
      CheckOfObject.erase(It);
    }
}

int ParallelMemory::checkFor(const PHINode *Induction, const LoopInfo &LI) {
  if (auto It = CheckOfLoop.find(Induction); It != CheckOfLoop.end())
    return It->second;
  CheckOfLoop[Induction] = -1;
  const Loop *L = LI.getLoopFor(Induction->getParent());
  const BasicBlock *Preheader = L ? L->getLoopPreheader() : nullptr;
  if (!Preheader)
    return -1;
  // The lower bound the loop starts from, and the call that wrote it.
  const LoadInst *Start = nullptr;
  for (unsigned K = 0; K < Induction->getNumIncomingValues(); ++K)
    if (!L->contains(Induction->getIncomingBlock(K)))
      Start = dyn_cast<LoadInst>(stripIntCasts(Induction->getIncomingValue(K)));
  const CallBase *Schedule = nullptr;
  for (const CallBase *Call : Schedules)
    if (Start && lowerBoundOf(*Call) == Start->getPointerOperand())
      Schedule = Call;
  if (!Schedule)
    return -1;
  // The whole iteration space: what the region stores into the bounds
  // before __kmpc_for_static_init_* (static schedules), or what it gives
  // __kmpc_dispatch_init_* (the region's only one; dynamic ones).
  const Value *Lower = nullptr, *Upper = nullptr;
  StringRef Name = Schedule->getCalledFunction()->getName();
  if (Name.starts_with("__kmpc_for_static_init_")) {
    const Value *LowerSlot = Schedule->getArgOperand(4),
                *UpperSlot = Schedule->getArgOperand(5);
    for (const Instruction *I = Schedule->getPrevNode(); I && !(Lower && Upper);
         I = I->getPrevNode()) {
      if (const auto *SI = dyn_cast<StoreInst>(I)) {
        if (!Lower && SI->getPointerOperand() == LowerSlot)
          Lower = SI->getValueOperand();
        else if (!Upper && SI->getPointerOperand() == UpperSlot)
          Upper = SI->getValueOperand();
      } else if (I->mayWriteToMemory() && !isa<IntrinsicInst>(I)) {
        break;
      }
    }
  } else {
    const CallBase *Init = nullptr;
    for (const BasicBlock &BB : *Induction->getFunction())
      for (const Instruction &I : BB)
        if (const auto *Call = dyn_cast<CallBase>(&I))
          if (const Function *F = Call->getCalledFunction();
              F && F->getName().starts_with("__kmpc_dispatch_init_") &&
              Call->arg_size() == 7) {
            if (Init)
              return -1;
            Init = Call;
          }
    if (!Init || !DT->dominates(Init, Schedule))
      return -1;
    Lower = Init->getArgOperand(3);
    Upper = Init->getArgOperand(4);
  }
  const Instruction *At = Preheader->getTerminator();
  for (const Value *V : {Lower, Upper}) {
    if (!V || !V->getType()->isIntegerTy())
      return -1;
    if (const auto *I = dyn_cast<Instruction>(V); I && !DT->dominates(I, At))
      return -1;
  }
  ApartCheck Check;
  Check.Unsigned = Name.ends_with("u");
  Check.At = At;
  Check.Lower = Lower;
  Check.Upper = Upper;
  Checks.push_back(Check);
  return CheckOfLoop[Induction] = int(Checks.size() - 1);
}

namespace {

bool isThreadNumber(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  return F && F->getName() == "omp_get_thread_num";
}

/// The stack slot \p Ptr points into, or null.
const AllocaInst *slotOf(const Value *Ptr) {
  return dyn_cast<AllocaInst>(getUnderlyingObject(Ptr));
}

/// The float or double elements of a load of \p T, or null.
Type *elementOf(Type *T) {
  Type *E = T->getScalarType();
  return E->isFloatTy() || E->isDoubleTy() ? E : nullptr;
}

} // namespace

void ParallelMemory::findPerThreadObjects(
    Function &Region, const SmallPtrSetImpl<const Value *> &Bounds,
    const RegionAliases &Aliases) {
  // What depends on the iteration: the lower bounds the scheduling calls
  // write, the thread's number, and what is computed from them, through
  // values and through stack slots (-O0 keeps the loop's variable in one).
  DenseMap<const AllocaInst *, SmallVector<const LoadInst *, 4>> LoadsOf;
  for (const BasicBlock &BB : Region)
    for (const Instruction &I : BB)
      if (const auto *LI = dyn_cast<LoadInst>(&I))
        if (const AllocaInst *Slot = slotOf(LI->getPointerOperand()))
          LoadsOf[Slot].push_back(LI);
  SmallPtrSet<const AllocaInst *, 8> Slots;
  SmallVector<const Value *, 32> Work;
  auto Mark = [&](const Value *V) {
    if (IterationValues.insert(V).second)
      Work.push_back(V);
  };
  auto MarkSlot = [&](const AllocaInst *Slot) {
    if (Slot && Slots.insert(Slot).second)
      for (const LoadInst *LI : LoadsOf.lookup(Slot))
        Mark(LI);
  };
  for (const Value *B : Bounds)
    MarkSlot(slotOf(B));
  for (const BasicBlock &BB : Region)
    for (const Instruction &I : BB)
      if (const auto *Call = dyn_cast<CallBase>(&I); Call && isThreadNumber(*Call))
        Mark(Call);
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      const auto *I = dyn_cast<Instruction>(U);
      if (!I || I->getFunction() != &Region)
        continue;
      if (const auto *SI = dyn_cast<StoreInst>(I)) {
        if (SI->getValueOperand() == V)
          MarkSlot(slotOf(SI->getPointerOperand()));
        continue;
      }
      if (!I->getType()->isVoidTy())
        Mark(I);
    }
  }
  // Which objects are read at places that do not depend on the iteration,
  // and which the region writes or reads with several element types.
  SmallPtrSet<const Value *, 8> Invariant, Excluded, CallObjects;
  DenseMap<const Value *, Type *> ElementOf;
  // A pointer that reads each object, and the pointers the region writes
  // through or gives to calls.
  DenseMap<const Value *, SmallVector<const Value *, 4>> ReadThrough;
  SmallVector<const Value *, 8> Writes, CallArgs;
  for (const BasicBlock &BB : Region)
    for (const Instruction &I : BB) {
      if (isFloatLoad(I)) {
        const Value *Ptr = cast<LoadInst>(I).getPointerOperand();
        if (slotOf(Ptr))
          continue;
        const Value *Obj = objectOf(Ptr);
        Type *E = elementOf(I.getType());
        auto [It, New] = ElementOf.try_emplace(Obj, E);
        if (!E || It->second != E)
          Excluded.insert(Obj);
        if (!IterationValues.contains(Ptr))
          Invariant.insert(Obj);
        ReadThrough[Obj].push_back(Ptr);
        continue;
      }
      if (const auto *SI = dyn_cast<StoreInst>(&I)) {
        if (SI->getValueOperand()->getType()->isFPOrFPVectorTy()) {
          Excluded.insert(objectOf(SI->getPointerOperand()));
          Writes.push_back(SI->getPointerOperand());
        }
        continue;
      }
      if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
        Excluded.insert(objectOf(RMW->getPointerOperand()));
        Writes.push_back(RMW->getPointerOperand());
        continue;
      }
      if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
        Excluded.insert(objectOf(CX->getPointerOperand()));
        Writes.push_back(CX->getPointerOperand());
        continue;
      }
      const auto *Call = dyn_cast<CallBase>(&I);
      if (!Call || isa<DbgInfoIntrinsic>(Call))
        continue;
      if (const auto *II = dyn_cast<IntrinsicInst>(Call);
          II && II->isLifetimeStartOrEnd())
        continue;
      if (const Function *F = Call->getCalledFunction();
          F && classifyOpenMPCall(*F) != OpenMPCall::None)
        continue;
      for (const Use &U : Call->args())
        if (U->getType()->isPointerTy()) {
          Excluded.insert(objectOf(U.get()));
          CallObjects.insert(objectOf(U.get()));
          CallArgs.push_back(U.get());
        }
    }
  // Writes and calls through other objects that may reach the same memory
  // (RegionAliases.h): `h->p[0] = ...` where h holds p, inlined.
  for (const Value *Obj : Invariant) {
    if (Excluded.contains(Obj))
      continue;
    // (Every read of it: the copy takes them all.)
    for (const Value *Read : ReadThrough.lookup(Obj)) {
      for (const Value *Ptr : Writes)
        if (objectOf(Ptr) != Obj &&
            Aliases.mayAlias(Ptr, Read,
                             RegionAliases::Arguments::UnlessRestrict))
          Excluded.insert(Obj);
      for (const Value *Ptr : CallArgs)
        if (objectOf(Ptr) != Obj && Aliases.mayReach(Ptr, Read))
          Excluded.insert(Obj);
    }
  }
  // A call may also write what it reaches through pointers kept in the
  // memory it is given (a struct holding the array's address): given
  // memory that is not an array the region reads as floats, nor a stack
  // slot of the region that holds no pointer, no copies are kept. (The
  // call inlined, its write through the pointer it read is one through
  // another pointer than the reads': docs/parallel.md, "Per-thread
  // copies".)
  for (const Value *Obj : CallObjects)
    if (!ElementOf.contains(Obj) && !pointerFree(Obj, Region))
      return;
  for (const Value *Obj : Invariant)
    if (!Excluded.contains(Obj))
      PerThreadObjects.insert(Obj);
}

const Value *ParallelMemory::iterationBase(const Value *Ptr) const {
  const auto *GEP = dyn_cast<GEPOperator>(Ptr);
  if (!GEP || GEP->getNumIndices() != 1)
    return nullptr;
  const auto *Phi = dyn_cast<PHINode>(stripIntCasts(GEP->getOperand(1)));
  if (!Phi || !Inductions.contains(Phi))
    return nullptr;
  // b is invariant in the loop: defined outside it.
  const Value *Base = GEP->getPointerOperand();
  if (const auto *BI = dyn_cast<Instruction>(Base))
    if (!DT->properlyDominates(BI->getParent(), Phi->getParent()))
      return nullptr;
  return Base;
}

bool ParallelMemory::isPrivate(const Value *Ptr) const {
  if (const AllocaInst *Slot = slotOf(Ptr))
    return !TaskSharedSlots.contains(Slot);
  const Value *Obj = getUnderlyingObject(Ptr);
  // (-O0: the argument's value, read from the slot that holds it.)
  if (const auto *Held = dyn_cast<LoadInst>(Obj))
    if (const AllocaInst *Slot = slotOf(Held->getPointerOperand())) {
      const StoreInst *Only = nullptr;
      for (const User *U : Slot->users())
        if (const auto *SI = dyn_cast<StoreInst>(U)) {
          if (Only || SI->getPointerOperand() != Slot)
            return false;
          Only = SI;
        }
      if (Only)
        Obj = getUnderlyingObject(Only->getValueOperand());
    }
  const auto *Arg = dyn_cast<Argument>(Obj);
  return Arg && Arg->getArgNo() < 64 && (PrivateArgs >> Arg->getArgNo() & 1);
}

int ParallelMemory::checkOf(const LoadInst &Load) const {
  const Value *Ptr = Load.getPointerOperand();
  if (RunsTasks || !OwnElements || !iterationBase(Ptr) ||
      Shared.contains(objectOf(Ptr)))
    return -1;
  return CheckOfObject.lookup_or(objectOf(Ptr), -1);
}

ParallelUpdate ParallelMemory::updateOf(const LoadInst &Load,
                                        const char *&Why,
                                        const Value *&Object) const {
  const Value *Ptr = Load.getPointerOperand();
  if (isPrivate(Ptr)) {
    Why = "private memory";
    return ParallelUpdate::Plain;
  }
  if (RunsTasks) {
    Why = "memory other threads may update";
    return ParallelUpdate::Atomic;
  }
  if (OwnElements && iterationBase(Ptr) && !Shared.contains(objectOf(Ptr))) {
    if (CheckOfObject.count(objectOf(Ptr))) {
      Why = "the iteration's own element of arrays that pointer arguments "
            "may share";
      return ParallelUpdate::Checked;
    }
    Why = "the iteration's own element of an array";
    return ParallelUpdate::Plain;
  }
  if (PerThreadObjects.contains(objectOf(Ptr))) {
    Why = "memory the region only reads, at places that do not depend on "
          "the iteration";
    Object = objectOf(Ptr);
    return ParallelUpdate::PerThread;
  }
  Why = "memory other threads may update";
  return ParallelUpdate::Atomic;
}

} // namespace adcore
