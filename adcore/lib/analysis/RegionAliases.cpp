//===- RegionAliases.cpp - Which shared objects of a region may alias -----===//

#include "RegionAliases.h"

#include "rules/OpenMPRuntime.h"
#include "support/RestrictParameters.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {
namespace {

/// Whether \p I uses its operand \p Ptr without keeping the address: a load
/// or a store into it, a lifetime or debug marker, a memory intrinsic.
bool keepsNoAddress(const Instruction &I, const Value *Ptr) {
  if (isa<LoadInst>(I))
    return true;
  if (const auto *SI = dyn_cast<StoreInst>(&I))
    return SI->getValueOperand() != Ptr;
  if (isa<DbgInfoIntrinsic>(I))
    return true;
  if (const auto *II = dyn_cast<IntrinsicInst>(&I))
    return II->isLifetimeStartOrEnd() || isa<MemIntrinsic>(II);
  return false;
}

bool isFork(const User *U) {
  const auto *Call = dyn_cast<CallBase>(U);
  const Function *F = Call ? Call->getCalledFunction() : nullptr;
  return F && classifyOpenMPCall(*F) == OpenMPCall::Fork;
}

/// Visits the users of \p Obj's address, through casts and address
/// arithmetic: \p Visit(User, the address it uses) returns false to stop.
template <typename Fn> bool forEachAddressUse(const Value *Obj, Fn Visit) {
  SmallVector<const Value *, 8> Work{Obj};
  SmallPtrSet<const Value *, 16> Seen{Obj};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
              SelectInst>(U) ||
          (isa<ConstantExpr>(U) && U->getType()->isPointerTy())) {
        if (Seen.insert(U).second)
          Work.push_back(U);
        continue;
      }
      if (!Visit(U, V))
        return false;
    }
  }
  return true;
}

/// The value a stack slot written exactly once holds, when \p From is that
/// slot (-O0's copies of arguments and pointer variables), or null.
const Value *onlyStored(const Value *From) {
  const auto *Slot = dyn_cast<AllocaInst>(From->stripPointerCasts());
  if (!Slot)
    return nullptr;
  const StoreInst *Only = nullptr;
  bool Simple = forEachAddressUse(Slot, [&](const User *U, const Value *P) {
    if (const auto *SI = dyn_cast<StoreInst>(U)) {
      if (Only || SI->getValueOperand() == P || P != Slot)
        return false;
      Only = SI;
      return true;
    }
    const auto *I = dyn_cast<Instruction>(U);
    return I && keepsNoAddress(*I, P) && !isa<MemIntrinsic>(I);
  });
  return Simple && Only ? Only->getValueOperand() : nullptr;
}

/// \p V's underlying object, looking through slots written once.
const Value *forwarded(const Value *V) {
  V = getUnderlyingObject(V);
  for (unsigned Step = 0; Step < 8; ++Step) {
    const auto *L = dyn_cast<LoadInst>(V);
    const Value *Held = L ? onlyStored(L->getPointerOperand()) : nullptr;
    if (!Held)
      break;
    V = getUnderlyingObject(Held);
  }
  return V;
}

/// Adds to \p Out the objects \p V may point into, looking through the
/// stack slots of the forking function it is read from (a pointer variable
/// copied into a struct at -O0): arguments, stack slots, globals, new
/// allocations, or null for a pointer that may be anything (read from
/// other memory, returned by a call).
void addHeldObjects(const Value *V, SmallPtrSetImpl<const Value *> &Out,
                    unsigned Budget = 4) {
  // (Each value a phi or select may take.)
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(V, Objects);
  if (Objects.size() > 1) {
    for (const Value *Obj : Objects)
      addHeldObjects(Obj, Out, Budget);
    return;
  }
  V = getUnderlyingObject(V);
  if (isa<ConstantPointerNull, UndefValue>(V))
    return;
  // (A new allocation is a place of its own too.)
  if (isa<Argument, AllocaInst, GlobalVariable>(V) || isNoAliasCall(V)) {
    Out.insert(V);
    return;
  }
  const auto *L = dyn_cast<LoadInst>(V);
  const auto *Slot =
      L ? dyn_cast<AllocaInst>(L->getPointerOperand()->stripPointerCasts())
        : nullptr;
  if (!Slot || !Budget) {
    Out.insert(nullptr);
    return;
  }
  SmallPtrSet<const Value *, 4> Held;
  bool Known = forEachAddressUse(Slot, [&](const User *U, const Value *P) {
    if (const auto *SI = dyn_cast<StoreInst>(U)) {
      if (SI->getValueOperand() == P || P != Slot)
        return false;
      addHeldObjects(SI->getValueOperand(), Held, Budget - 1);
      return true;
    }
    const auto *I = dyn_cast<Instruction>(U);
    return I && (isFork(U) || (keepsNoAddress(*I, P) && !isa<MemIntrinsic>(I)));
  });
  if (!Known) {
    Out.insert(nullptr);
    return;
  }
  Out.insert(Held.begin(), Held.end());
}

/// Whether two different objects given to pointer variables of the forking
/// functions (RegionAliases::storedPointers) may overlap. An argument of a
/// function comes from its caller: it may point into a global, into another
/// argument (f(a, a), f(x, x + 1)) or into the stack or allocations of
/// another function, never into its own function's new stack slots or
/// allocations.
bool givenMayOverlap(const Value *A, const Value *B,
                     RegionAliases::Arguments Args) {
  const auto *ArgA = dyn_cast<Argument>(A);
  const auto *ArgB = dyn_cast<Argument>(B);
  if (!ArgA && !ArgB)
    return false; // distinct variables, globals, allocations
  if (Args == RegionAliases::Arguments::Distinct)
    return false;
  if (!ArgA) {
    std::swap(A, B);
    std::swap(ArgA, ArgB);
  }
  const Function *F = ArgA->getParent();
  if (isa<GlobalVariable>(B) || (ArgB && ArgB->getParent() == F))
    return !restrictKeepsApart(
        *ArgA, ArgB, Args == RegionAliases::Arguments::UnlessRestrict);
  if (ArgB)
    return true; // arguments of different functions
  const auto *I = dyn_cast<Instruction>(B);
  return !I || I->getFunction() != F;
}

/// Whether a pointer is stored into the stack slot \p Slot.
bool holdsPointer(const AllocaInst &Slot) {
  return !forEachAddressUse(&Slot, [](const User *U, const Value *P) {
    const auto *SI = dyn_cast<StoreInst>(U);
    return !(SI && SI->getPointerOperand() == P &&
             SI->getValueOperand()->getType()->isPointerTy()) &&
           !isa<MemIntrinsic>(U);
  });
}

} // namespace

RegionAliases::RegionAliases(const Function &Region,
                             std::function<bool(const Function &)> Generated)
    : Region(Region), Generated(std::move(Generated)) {}

RegionAliases::Path RegionAliases::pathOf(const Value *Ptr) const {
  Path P;
  const Value *V = forwarded(Ptr);
  for (unsigned Step = 0; Step < 8; ++Step) {
    const auto *L = dyn_cast<LoadInst>(V);
    if (!L)
      break;
    ++P.Depth;
    V = forwarded(L->getPointerOperand());
  }
  if (const auto *Arg = dyn_cast<Argument>(V);
      Arg && Arg->getParent() == &Region)
    P.Root = Arg;
  else if (isa<GlobalVariable>(V))
    P.Root = V;
  else if (const auto *Slot = dyn_cast<AllocaInst>(V);
           Slot && Slot->getFunction() == &Region)
    P.Root = Slot;
  return P;
}

bool RegionAliases::escapes(const Value *Root) const {
  auto [It, New] = Escapes.try_emplace(Root, true);
  if (!New)
    return It->second;
  auto Kept = [](const Value *Obj) {
    return forEachAddressUse(Obj, [](const User *U, const Value *P) {
      const auto *I = dyn_cast<Instruction>(U);
      return I && (keepsNoAddress(*I, P) || isFork(U));
    });
  };
  bool Escaped = true;
  if (const auto *G = dyn_cast<GlobalVariable>(Root)) {
    Escaped = !G->hasLocalLinkage() || !Kept(G);
  } else if (SmallPtrSet<const Value *, 4> Objects;
             forkedObjects(Root, Objects)) {
    // The variables the forks pass.
    Escaped = false;
    for (const Value *Obj : Objects)
      if (const auto *G = dyn_cast<GlobalVariable>(Obj))
        Escaped |= escapes(G);
      else
        Escaped |= !isa<AllocaInst>(Obj) || !Kept(Obj);
  }
  Escapes[Root] = Escaped;
  return Escaped;
}

bool RegionAliases::storedPointers(const Value *Root,
                                   SmallPtrSetImpl<const Value *> &Out) const {
  SmallPtrSet<const Value *, 4> Objects;
  if (!forkedObjects(Root, Objects))
    return false;
  for (const Value *Obj : Objects) {
    if (const auto *G = dyn_cast<GlobalVariable>(Obj);
        G && !G->hasLocalLinkage())
      return false;
    if (!isa<AllocaInst, GlobalVariable>(Obj))
      return false;
    bool Known = forEachAddressUse(Obj, [&](const User *U, const Value *P) {
      if (const auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() == P)
          return false;
        if (SI->getValueOperand()->getType()->isPointerTy())
          addHeldObjects(SI->getValueOperand(), Out);
        return true;
      }
      // (Whatever else writes into it is not followed.)
      // (A memset writes no pointer the program could follow.)
      return isa<LoadInst, MemSetInst>(U) || isFork(U) ||
             isa<DbgInfoIntrinsic>(U) ||
             (isa<IntrinsicInst>(U) &&
              cast<IntrinsicInst>(U)->isLifetimeStartOrEnd());
    });
    // (A slot written in other ways, by a copy of a struct: its pointers
    // may be anything.)
    if (!Known)
      Out.insert(nullptr);
  }
  return true;
}

bool RegionAliases::addForkedObjects(const Argument &Arg,
                                     SmallPtrSetImpl<const Value *> &Out,
                                     unsigned Budget) const {
  const Function &F = *Arg.getParent();
  if (Arg.getArgNo() < 2 || !Budget)
    return false;
  bool Any = false;
  for (const User *U : F.users()) {
    const auto *Fork = dyn_cast<CallBase>(U);
    if (!Fork || forkedFunction(*Fork) != &F)
      return false;
    // (Derivatives adcc is making fork it too, from copies of the
    // program's code: the program's forks say what it is.)
    if (Generated && Generated(*Fork->getFunction()))
      continue;
    Any = true;
    const Value *Obj =
        forwarded(Fork->getArgOperand(Arg.getArgNo() + ForkSharedArgs - 2));
    if (const auto *Outer = dyn_cast<Argument>(Obj);
        Outer && isForkedRegion(*Outer->getParent())) {
      if (!addForkedObjects(*Outer, Out, Budget - 1))
        return false;
      continue;
    }
    Out.insert(Obj);
  }
  return Any;
}

bool RegionAliases::forkedObjects(const Value *Root,
                                  SmallPtrSetImpl<const Value *> &Out) const {
  if (isa<GlobalVariable>(Root)) {
    Out.insert(Root);
    return true;
  }
  const auto *Arg = dyn_cast<Argument>(Root);
  return Arg && Arg->getParent() == &Region && addForkedObjects(*Arg, Out);
}

bool RegionAliases::mayHold(Path Held, const Value *Direct,
                            Arguments Args) const {
  if (!escapes(Direct))
    return false;
  SmallPtrSet<const Value *, 4> Objects, Pointers;
  if (Held.Depth != 1 || !forkedObjects(Direct, Objects) ||
      !storedPointers(Held.Root, Pointers))
    return true;
  // (A pointer the forks pass by value, firstprivate(x): the forking
  // function's argument, which another argument may overlap.)
  for (const Value *V : Pointers)
    for (const Value *O : Objects)
      if (V && givenMayOverlap(V, O, Args))
        return true;
  // The pointers given to the variable are other variables, globals, or
  // the forking function's arguments (which hold no address of its own
  // stack).
  bool Globals =
      any_of(Objects, [](const Value *V) { return isa<GlobalVariable>(V); });
  for (const Value *V : Pointers)
    if (!V || Objects.contains(V) ||
        !(isa<Argument, AllocaInst, GlobalVariable>(V) || isNoAliasCall(V)) ||
        (isa<Argument>(V) && Globals))
      return true;
  return false;
}

bool RegionAliases::directMayOverlap(const Value *A, const Value *B,
                                     Arguments Args) const {
  // Distinct variables of the forking functions and globals are distinct;
  // pointers the forks pass by value (firstprivate(x, y)) are the forking
  // function's arguments, which may overlap (f(a, a + 1)).
  SmallPtrSet<const Value *, 4> InA, InB;
  if (!forkedObjects(A, InA) || !forkedObjects(B, InB))
    return false;
  for (const Value *V : InA)
    for (const Value *W : InB)
      if (V == W || givenMayOverlap(V, W, Args))
        return true;
  return false;
}

bool RegionAliases::pathsMayAlias(Path A, Path B, Arguments Args) const {
  if (!A.Root || !B.Root)
    return true;
  bool ASlot = isa<AllocaInst>(A.Root), BSlot = isa<AllocaInst>(B.Root);
  // The thread's own stack is not shared; a pointer read from a slot
  // written several times may be anything.
  if ((ASlot && A.Depth == 0) || (BSlot && B.Depth == 0))
    return A.Root == B.Root && A.Depth == B.Depth;
  if (ASlot || BSlot || A.Root == B.Root)
    return true;
  if (A.Depth == 0 && B.Depth == 0)
    return directMayOverlap(A.Root, B.Root, Args);
  if (A.Depth == 0)
    return mayHold(B, A.Root, Args);
  if (B.Depth == 0)
    return mayHold(A, B.Root, Args);
  if (A.Depth > 1 || B.Depth > 1)
    return true;
  // Two pointer variables: different arrays unless they were given the
  // same pointer, or pointers that may overlap (two arguments of the
  // forking function: f(x, x + 1)), or either is not known.
  SmallPtrSet<const Value *, 4> InA, InB;
  if (!storedPointers(A.Root, InA) || !storedPointers(B.Root, InB))
    return true;
  if (InA.contains(nullptr) || InB.contains(nullptr))
    return true;
  for (const Value *V : InA)
    for (const Value *W : InB)
      if (V == W || givenMayOverlap(V, W, Args))
        return true;
  return false;
}

bool RegionAliases::mayAlias(const Value *A, const Value *B,
                             Arguments Args) const {
  return pathsMayAlias(pathOf(A), pathOf(B), Args);
}

bool RegionAliases::mayReach(const Value *Arg, const Value *B) const {
  Path P = pathOf(Arg), Q = pathOf(B);
  if (pathsMayAlias(P, Q))
    return true;
  if (!P.Root)
    return true;
  // What the callee reaches through the pointers held in that memory.
  if (P.Depth == 0) {
    if (const auto *Slot = dyn_cast<AllocaInst>(P.Root))
      return holdsPointer(*Slot);
    SmallPtrSet<const Value *, 4> Held;
    if (storedPointers(P.Root, Held) && Held.empty())
      return false;
  }
  return pathsMayAlias({P.Root, P.Depth + 1}, Q) ||
         pathsMayAlias({P.Root, P.Depth + 2}, Q);
}

} // namespace adcore
