//===- ActivityAnalysis.cpp - Which values carry derivatives -------------===//

#include "ActivityAnalysis.h"
#include "support/CallSites.h"
#include "support/MemoryScopes.h"
#include "support/NullShadowGuards.h"
#include "LibraryObjects.h"
#include "TypeAnalysis.h"
#include "rules/CustomRules.h"
#include "rules/InactiveFunctions.h"
#include "adcore/MemoryFunctions.h"
#include "Synthesis.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adcore {

bool canCarryDerivative(const Type *T) {
  if (T->isFPOrFPVectorTy() || T->isPtrOrPtrVectorTy())
    return true;
  if (auto *AT = dyn_cast<ArrayType>(T))
    return canCarryDerivative(AT->getElementType());
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(),
                  [](Type *E) { return canCarryDerivative(E); });
  return false;
}

namespace {

cl::opt<bool> CleanSlots(
    "adcc-clean-slots", cl::init(true), cl::Hidden,
    cl::desc("Take stack slots passed only to functions that keep their "
             "contents (an iterator's members) for slots without "
             "derivatives"));

/// A right shift by a constant: how one float is taken out of the integer
/// that holds several (`{float, float}` copied as an i64).
bool isLaneShift(const User &U) {
  auto *BO = dyn_cast<BinaryOperator>(&U);
  return BO && BO->getOpcode() == Instruction::LShr &&
         isa<ConstantInt>(BO->getOperand(1));
}

/// A comparison, or a call of a function without derivatives (a
/// sanitizer's report): what a check does with an address computed in an
/// integer, besides turning it into a pointer.
bool isCheckOfAddress(const User &U) {
  if (isa<ICmpInst>(U))
    return true;
  const auto *Call = dyn_cast<CallBase>(&U);
  return Call && Call->getCalledFunction() &&
         isKnownInactiveFunction(*Call->getCalledFunction());
}

/// An address's bits tested (`(p & 15) == 0`, `p % 16 == 0`: alignment
/// assertions such as Eigen's), \p Depth operations deep: every value
/// computed from it ends in a compare, none goes on.
bool isAddressTest(const User &U, unsigned Depth = 3) {
  const auto *BO = dyn_cast<BinaryOperator>(&U);
  return BO && Depth > 0 && !BO->use_empty() &&
         all_of(BO->users(), [&](const User *C) {
           return isa<ICmpInst>(C) || isAddressTest(*C, Depth - 1);
         });
}

/// True when every use of \p I is integer arithmetic that ends, \p Depth
/// operations deep, in an inttoptr: an address offset or aligned in an
/// integer (Eigen's `((uintptr_t)alloca(n + 15) + 15) & ~15` at -O0), or
/// changed in a way whose shadow is not known (an error where it is used,
/// never a derivative silently dropped).
bool becomesPointer(const Instruction &I, unsigned Depth) {
  bool Moves = false;
  for (const User *U : I.users()) {
    // (Compared and checked on the way: UBSan's pointer-overflow checks.)
    if (isCheckOfAddress(*U))
      continue;
    const auto *BO = dyn_cast<BinaryOperator>(U);
    if (!isa<IntToPtrInst>(U) &&
        !(BO && Depth > 0 && becomesPointer(*BO, Depth - 1)))
      return false;
    Moves = true;
  }
  return Moves;
}

/// An integer that only moves data (loaded and stored again, bitcast to a
/// float, turned into a pointer) may hold a float's or a pointer's bits —
/// what SROA and InstCombine make of memcpy — so it carries a shadow. So
/// does an address changed by integer arithmetic on its way to a pointer,
/// and bits changed by and, or and xor on their way back to a float (which
/// the emitters then differentiate or report, never silently drop), \p
/// Depth operations deep. (An address may also be compared and checked by
/// functions without derivatives on its way: UBSan's pointer-overflow
/// checks.)
const Value *addressBase(const Value *X, unsigned Depth);
bool isMovedInteger(const Instruction &I, unsigned Depth = 4) {
  if (!I.getType()->isIntOrIntVectorTy() || I.use_empty())
    return false;
  // (An address: computed from a pointer, or a pointer-sized integer
  // loaded from memory that becomes a pointer again, as an Eigen block's
  // data pointer read as `load i64` at -O2.)
  const auto *LI = dyn_cast<LoadInst>(&I);
  bool Address = addressBase(&I, 4) != nullptr || (LI && loadsAddress(*LI));
  for (const User *U : I.users()) {
    if (Address && (isCheckOfAddress(*U) || isAddressTest(*U)))
      continue;
    if (isa<BinaryOperator>(U) && becomesPointer(*cast<BinaryOperator>(U), 4))
      continue;
    if (const auto *BO = dyn_cast<BinaryOperator>(U);
        BO && Depth > 0 &&
        (BO->getOpcode() == Instruction::And ||
         BO->getOpcode() == Instruction::Or ||
         BO->getOpcode() == Instruction::Xor) &&
        isMovedInteger(*BO, Depth - 1))
      continue;
    if (auto *S = dyn_cast<StoreInst>(U)) {
      if (S->getValueOperand() != &I)
        return false;
      continue;
    }
    if (isa<BitCastInst, IntToPtrInst, PHINode, SelectInst, InsertValueInst,
            InsertElementInst, ShuffleVectorInst, TruncInst>(U) ||
        isLaneShift(*U))
      continue;
    // Returned, or passed to a function of the module: the bits move on
    // (`memcpy(&u, &x, 8); return u;`), and so does their derivative.
    if (isa<ReturnInst>(U))
      continue;
    if (const auto *Call = dyn_cast<CallBase>(U);
        Call && Call->getCalledFunction() &&
        !Call->getCalledFunction()->isDeclaration() &&
        Call->hasArgument(&I))
      continue;
    return false;
  }
  return true;
}

bool returnsNewAllocation(const Function &F, unsigned Depth);
bool holdsAddresses(const AllocaInst &AI, unsigned Depth);

/// True when the integer \p I is read as a floating-point value again, up
/// to \p Depth integer operations later (a bitcast to a float).
bool becomesFloat(const Instruction &I, unsigned Depth) {
  return any_of(I.users(), [&](const User *U) {
    if (const auto *BC = dyn_cast<BitCastInst>(U))
      return BC->getDestTy()->isFPOrFPVectorTy();
    const auto *UI = dyn_cast<Instruction>(U);
    return UI && Depth > 0 && UI->getType()->isIntOrIntVectorTy() &&
           isa<BinaryOperator, TruncInst, ZExtInst, SExtInst, PHINode,
               SelectInst>(UI) &&
           becomesFloat(*UI, Depth - 1);
  });
}

/// True when the integer \p V is (up to \p Depth integer operations away)
/// the bits of a floating-point value: a bitcast of one (`0x5f3759df -
/// (bits(x) >> 1)`).
bool derivesFromFloatBits(const Value *V, unsigned Depth) {
  if (const auto *BC = dyn_cast<BitCastInst>(V))
    return BC->getSrcTy()->isFPOrFPVectorTy();
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth == 0 || !I->getType()->isIntOrIntVectorTy() ||
      !isa<BinaryOperator, CastInst>(I))
    return false;
  return any_of(I->operands(), [&](const Use &Op) {
    return derivesFromFloatBits(Op.get(), Depth - 1);
  });
}

/// The function whose integer result \p U stores into \p Slot (`long u =
/// bits_of(x);` at -O0), or null.
Function *storedResultOf(const User &U, const AllocaInst &Slot) {
  const auto *S = dyn_cast<StoreInst>(&U);
  if (!S || S->getPointerOperand() != &Slot ||
      !S->getValueOperand()->getType()->isIntOrIntVectorTy())
    return nullptr;
  const auto *Call = dyn_cast<CallBase>(S->getValueOperand());
  return Call ? Call->getCalledFunction() : nullptr;
}

/// The pointer whose address the integer \p X is, offset or aligned by
/// address arithmetic (\p Depth operations deep); null for anything else,
/// and for the distance between two addresses.
const Value *addressBase(const Value *X, unsigned Depth) {
  if (const auto *P2I = dyn_cast<PtrToIntInst>(X))
    return P2I->getPointerOperand();
  const auto *BO = dyn_cast<BinaryOperator>(X);
  if (!BO || Depth == 0 || !isAddressArithmetic(*BO))
    return nullptr;
  const Value *L = addressBase(BO->getOperand(0), Depth - 1);
  const Value *R = addressBase(BO->getOperand(1), Depth - 1);
  if (L && R)
    return nullptr;
  return L ? L : R;
}

/// True when every value \p V may hold is null or a block that a call of
/// an allocation function (or of a function returnsNewAllocation accepts)
/// made, or an address in such a block computed as an integer (\p Callees:
/// how many functions deep); sets \p Any when there is such a call.
/// Follows phis, selects and, at -O0 (`T *r = nullptr; if (n)
/// r = malloc(n); return r;`), the values stored into the local slot \p V
/// is loaded from, \p Steps deep.
bool onlyNewAllocations(const Value *V, unsigned Steps, unsigned Callees,
                        bool &Any) {
  V = V->stripPointerCasts();
  if (isa<ConstantPointerNull>(V))
    return true;
  if (Steps == 0)
    return false;
  if (const auto *Call = dyn_cast<CallBase>(V)) {
    const Function *Callee = Call->getCalledFunction();
    Any = true;
    auto Allocates = [&](const Function &T) {
      return isAllocationFunction(T) || returnsNewAllocation(T, Callees);
    };
    if (Callee)
      return Allocates(*Callee);
    // Through a pointer: every function it may reach allocates (an
    // allocator kept in a struct).
    if (Call->isInlineAsm())
      return false;
    SmallVector<Function *, 8> Targets =
        possibleCallTargets(*const_cast<Module *>(Call->getModule()),
                            Call->getFunctionType());
    return !Targets.empty() &&
           all_of(Targets, [&](const Function *T) { return Allocates(*T); });
  }
  auto Each = [&](const Value *In) {
    return onlyNewAllocations(In, Steps - 1, Callees, Any);
  };
  if (const auto *Phi = dyn_cast<PHINode>(V))
    return all_of(Phi->incoming_values(), Each);
  if (const auto *Sel = dyn_cast<SelectInst>(V))
    return Each(Sel->getTrueValue()) && Each(Sel->getFalseValue());
  // An address computed from the block's (the recipe books' 1-based
  // vectors, `return (double *)malloc(n * sizeof(double)) - 1;`).
  if (const auto *GEP = dyn_cast<GEPOperator>(V))
    return Each(GEP->getPointerOperand());
  // An address inside the block, aligned as an integer (Eigen's
  // handmade_aligned_malloc with AVX: `(p & ~31) + 32`).
  if (const auto *I2P = dyn_cast<IntToPtrInst>(V)) {
    const Value *Base = addressBase(I2P->getOperand(0), 4);
    return Base && Each(Base);
  }
  const auto *LI = dyn_cast<LoadInst>(V);
  const auto *Slot =
      LI ? dyn_cast<AllocaInst>(LI->getPointerOperand()->stripPointerCasts())
         : nullptr;
  if (!Slot)
    return false;
  for (const User *U : Slot->users()) {
    if (isa<LoadInst>(U))
      continue;
    if (const auto *II = dyn_cast<IntrinsicInst>(U);
        II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
      continue;
    // (posix_memalign(&p, ...) stores a block into the slot; a function
    // not yet prepared has the call, AlignedBlocks.cpp rewrites it.)
    if (const auto *Call = dyn_cast<CallInst>(U)) {
      const Function *Callee = Call->getCalledFunction();
      if (Callee && Callee->getName() == "posix_memalign" &&
          Call->arg_size() == 3 && Call->getArgOperand(0) == Slot &&
          Call->getArgOperand(1) != Slot && Call->getArgOperand(2) != Slot) {
        Any = true;
        continue;
      }
      return false;
    }
    const auto *SI = dyn_cast<StoreInst>(U);
    if (!SI || SI->getPointerOperand() != Slot || !Each(SI->getValueOperand()))
      return false;
  }
  return true;
}

/// True when every value \p F returns is a block it allocated (or null),
/// directly or through a function like itself (std::allocator<T>::allocate
/// and Eigen's conditional_aligned_new_auto at -O0): a call of it makes
/// memory that may receive derivatives, whatever its arguments, as a call
/// of malloc does.
bool returnsNewAllocation(const Function &F, unsigned Depth) {
  if (F.isDeclaration() || !F.getReturnType()->isPointerTy() || Depth == 0)
    return false;
  bool Any = false;
  for (const BasicBlock &BB : F)
    if (const auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      if (!onlyNewAllocations(Ret->getReturnValue(), 8, Depth - 1, Any))
        return false;
  return Any;
}

bool anyOperandActive(const User &U, const DenseSet<const Value *> &Active) {
  return any_of(U.operands(),
                [&](const Use &Op) { return Active.contains(Op.get()); });
}

} // namespace

bool ActivityAnalysis::receivesWholeFloatBits(const StoreInst &SI) const {
  const Value *V = SI.getValueOperand();
  auto *IT = dyn_cast<IntegerType>(V->getType());
  if (!IT || (IT->getBitWidth() != 32 && IT->getBitWidth() != 64) ||
      !Active.contains(V))
    return false;
  if (const auto *BC = dyn_cast<BitCastInst>(V))
    return BC->getSrcTy()->isFloatingPointTy();
  const auto *LI = dyn_cast<LoadInst>(V);
  return LI && !addressBase(LI, 4);
}

bool ActivityAnalysis::transfer(const Value &V) const {
  const auto *I = dyn_cast<Instruction>(&V);
  if (!I || I->hasMetadata(NoDerivativeMetadata))
    return false;
  Type *T = I->getType();

  // (A byte buffer, `alloca(n)` or a variable-length array, may hold
  // anything, as a block from malloc may.)
  // (A local stream or stream buffer of the C++ library holds none.)
  if (auto *AI = dyn_cast<AllocaInst>(I);
      AI && isKnownInactiveType(AI->getAllocatedType()))
    return false;
  if (auto *AI = dyn_cast<AllocaInst>(I))
    return canCarryDerivative(AI->getAllocatedType()) ||
           AI->getAllocatedType()->isArrayTy() || AI->isArrayAllocation() ||
           AI->getAllocatedType()->isVectorTy() || // a SIMD register (__m128i)
           // An integer variable that holds an address made a pointer
           // again (`uintptr_t u = (uintptr_t)x | 1;` at -O0): its shadow
           // holds the shadow's address, as a pointer variable's does.
           holdsAddresses(*AI, 2) ||
           any_of(AI->users(), [&](const User *U) {
             if (isa<MemTransferInst>(U)) // a buffer for copied bytes
               return true;
             // An integer slot that receives the whole bits of a float,
             // read from memory with derivatives (a union's integer member
             // copied into a variable at -O0), holds them and their
             // derivative. (Not an address, nor a part of the bits: those
             // stay errors where they are stored.)
             if (const auto *SI = dyn_cast<StoreInst>(U);
                 SI && SI->getPointerOperand() == AI &&
                 receivesWholeFloatBits(*SI))
               return true;
             // A slot that receives the bits of a float a call returns
             // holds them, and their derivative, as a float's slot would.
             Function *Callee = storedResultOf(*U, *AI);
             return Callee && returnsFloatBitsMemo(*Callee);
           });
  if (auto *LI = dyn_cast<LoadInst>(I)) {
    if (Rules &&
        Rules->isInactiveGlobal(getUnderlyingObject(LI->getPointerOperand())))
      return false;
    // A count or index read back from the tape by a reverse sweep: an
    // integer, never the bits of a float (forward over reverse).
    if (LI->hasMetadata(IntegerRecordMetadata))
      return false;
    if (!Active.contains(LI->getPointerOperand()) ||
        !mayHoldDerivatives(LI->getPointerOperand()))
      return false;
    return canCarryDerivative(T) || isMovedInteger(*LI);
  }
  if (auto *GEP = dyn_cast<GetElementPtrInst>(I))
    return Active.contains(GEP->getPointerOperand());
  if (isa<StoreInst, FenceInst, UnreachableInst, ReturnInst, BranchInst,
          SwitchInst, CmpInst, FPToSIInst, FPToUIInst, SIToFPInst, UIToFPInst>(
          I))
    return false;
  if (auto *Call = dyn_cast<CallBase>(I)) {
    // (A virtual function of a library stream or stream buffer.)
    if (isInactiveLibraryVirtualCall(*Call))
      return false;
    if (const Function *Callee = Call->getCalledFunction()) {
      if (isAllocationFunction(*Callee) || returnsNewAllocation(*Callee, 4))
        return true;
      if (isKnownInactiveFunction(*Callee) ||
          (Rules && Rules->isInactive(Callee)))
        return false;
      // The scratch shadow behind a null shadow pointer holds the inner
      // derivative's values for an active primal pointer, whatever the
      // shadow read (forward over forward: an inner shadow struct the
      // outer request sees as constant; ForwardCalls.cpp gives its
      // tangent).
      if (isNullShadowScratch(*Callee))
        return any_of(Call->args(),
                      [&](const Use &A) { return Active.contains(A.get()); });
      // A reverse sweep's result depends on what its augmented sweep put
      // on the tape, not on its arguments (forward over reverse).
      if (Callee->hasFnAttribute(UsesTapeAttribute))
        return canCarryDerivative(Call->getType());
    }
    if (isa<DbgInfoIntrinsic>(I))
      return false;
    // A call through a pointer that may reach an allocator (a struct that
    // keeps `malloc`: LibraryPointers.cpp wraps it) returns a block that
    // gets a shadow, as the direct call would.
    if (!Call->getCalledFunction() && !Call->isInlineAsm() &&
        Call->getType()->isPointerTy() &&
        any_of(possibleCallTargets(*const_cast<Module *>(F.getParent()),
                                   Call->getFunctionType()),
               [](const Function *T) {
                 return isAllocationFunction(*T) ||
                        returnsNewAllocation(*T, 4);
               }))
      return true;
    // (A stack slot that holds no derivative brings none: `*it` of an
    // iterator into a constant's std::vector.)
    auto ActiveOperand = [&](const Value *Op) {
      return Active.contains(Op) && !cleanStackPointer(Op);
    };
    // (A function that reads or writes a global with a shadow has a
    // derivative whatever its arguments; so has a call through a pointer
    // that may reach one: a table of operations whose arguments are
    // constants.)
    if (!any_of(Call->operands(),
                [&](const Use &Op) { return ActiveOperand(Op.get()); }))
      return Users.touchesShadowedGlobals(*Call);
    // A pointer a defined function returns: active only if the function
    // returns an active one for these arguments (a pointer read from
    // constant memory by a function that also takes an active argument is
    // constant: taken as active, it got a null shadow that its users
    // dereferenced).
    const Function *Callee = Call->getCalledFunction();
    // (One with a registered derivative: its rule gives the result's
    // shadow, whatever its body returns.)
    if (Callee && Rules &&
        (Rules->forwardDerivative(Callee) || Rules->gradient(Callee)))
      return true;
    if (Callee && Call->getType()->isPointerTy() && !Callee->isDeclaration() &&
        !Callee->isVarArg() && Callee != &F &&
        Call->arg_size() == Callee->arg_size() && Call->arg_size() <= 64)
      return returnsActive(*Callee, *Call, ActiveOperand);
    return true;
  }
  if (auto *Sel = dyn_cast<SelectInst>(I))
    return Active.contains(Sel->getTrueValue()) ||
           Active.contains(Sel->getFalseValue());
  if (T->isIntOrIntVectorTy()) {
    // Integers carry shadows only as the bits of pointers and floats.
    if (isa<PtrToIntInst>(I) || isa<BitCastInst>(I) || isa<PHINode>(I) ||
        isa<ExtractValueInst>(I) || isa<ExtractElementInst>(I))
      return anyOperandActive(*I, Active);
    // Lanes of a SIMD register moved as integers (`_mm_shuffle_epi32` of
    // doubles at -O0).
    if (isa<ShuffleVectorInst, InsertElementInst>(I))
      return anyOperandActive(*I, Active) && isMovedInteger(*I);
    // The pieces of an integer holding several floats' bits.
    if (isa<TruncInst>(I) || isLaneShift(*I))
      return Active.contains(I->getOperand(0)) && isMovedInteger(*I);
    if (auto *BO = dyn_cast<BinaryOperator>(I)) {
      switch (BO->getOpcode()) {
      case Instruction::Sub:
        // The distance between two pointers (`end - begin`) is a number.
        if (Active.contains(BO->getOperand(0)) &&
            Active.contains(BO->getOperand(1)))
          return false;
        [[fallthrough]];
      case Instruction::Add:
      case Instruction::And:
      case Instruction::Or:
      case Instruction::Xor: // (a sign flip on a float's bits)
        return anyOperandActive(*I, Active) && isMovedInteger(*I);
      default:
        // (Other integer operations on a float's bits whose result is read
        // as a float again: active, so that differentiating them is an
        // error, not a derivative of zero. An exponent taken out as a
        // number has none.)
        return anyOperandActive(*I, Active) &&
               (becomesPointer(*I, 4) ||
                (derivesFromFloatBits(BO, 4) && becomesFloat(*BO, 4)));
      }
    }
    return false;
  }
  if (!canCarryDerivative(T))
    return false;
  return anyOperandActive(*I, Active);
}

bool ActivityAnalysis::returnsFloatBitsMemo(Function &Callee) const {
  auto [It, New] = FloatBitsResults.try_emplace(&Callee, false);
  if (New)
    It->second = returnsFloatBits(Callee);
  return It->second;
}

void ActivityAnalysis::addRoot(const Instruction &Root, FollowUser More) {
  SmallVector<const Value *, 8> Work{&Root};
  DenseSet<const Value *> Seen;
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    if (!Seen.insert(P).second)
      continue;
    StackRoots[P].push_back(&Root);
    for (const User *U : P->users()) {
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
              SelectInst>(U))
        Work.push_back(U);
      else if (More)
        More(*U, Work);
    }
  }
}

void ActivityAnalysis::findStackPointers() {
  for (Instruction &I : instructions(F))
    if (isa<AllocaInst>(I))
      addRoot(I, nullptr);
  addHeapRoots();
  // A phi or select that also takes a pointer to other memory (an argument,
  // a global, a heap block) may point there: it is not stack-only.
  SmallVector<const Value *, 8> Work;
  for (const auto &[P, Roots] : StackRoots) {
    const auto *Merge = dyn_cast<Instruction>(P);
    if (!isa_and_nonnull<PHINode, SelectInst>(Merge))
      continue;
    unsigned First = isa<SelectInst>(Merge) ? 1 : 0;
    for (unsigned K = First; K < Merge->getNumOperands(); ++K) {
      const Value *In = Merge->getOperand(K);
      if (!StackRoots.count(In) && !isa<ConstantPointerNull, UndefValue>(In))
        Work.push_back(Merge);
    }
  }
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    if (!Mixed.insert(P).second)
      continue;
    for (const User *U : P->users())
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
              SelectInst>(U))
        Work.push_back(U);
  }
}

bool ActivityAnalysis::cleanStackPointer(const Value *Ptr) const {
  if (!CleanSlots)
    return false;
  auto It = StackRoots.find(Ptr);
  return It != StackRoots.end() && !Mixed.contains(Ptr) &&
         none_of(It->second,
                 [&](const Instruction *R) { return Dirty.contains(R); });
}

bool ActivityAnalysis::mayHoldDerivatives(const Value *Ptr) const {
  if (Mixed.contains(Ptr))
    return true;
  auto It = StackRoots.find(Ptr);
  if (It == StackRoots.end())
    return true; // not (only) stack memory: anything may be there
  return any_of(It->second,
                [&](const Instruction *R) { return Dirty.contains(R); });
}

bool ActivityAnalysis::updateDirtyAllocas() {
  bool Changed = false;
  auto MarkDirty = [&](const Value *Ptr) {
    auto It = StackRoots.find(Ptr);
    if (It == StackRoots.end())
      return;
    for (const Instruction *R : It->second)
      Changed |= Dirty.insert(R).second;
  };
  // An object's own address stored into it (std::string's pointer to its
  // local buffer) neither escapes nor brings a derivative.
  auto SelfReference = [&](const StoreInst &S) {
    auto V = StackRoots.find(S.getValueOperand());
    auto D = StackRoots.find(S.getPointerOperand());
    return V != StackRoots.end() && D != StackRoots.end() &&
           !Mixed.contains(V->first) && !Mixed.contains(D->first) &&
           V->second == D->second;
  };
  // (The roots of objects that hold their own address: a callee that
  // stores through an address read from one stores into it.)
  SmallPtrSet<const Instruction *, 8> HoldOwnAddress;
  for (const auto &[P, Roots] : StackRoots)
    for (const User *U : P->users())
      if (auto *S = dyn_cast<StoreInst>(U);
          S && S->getPointerOperand() == P && SelfReference(*S))
        HoldOwnAddress.insert(Roots.begin(), Roots.end());
  for (const auto &[P, Roots] : StackRoots) {
    bool HoldsOwnAddress = any_of(Roots, [&](const Instruction *R) {
      return HoldOwnAddress.contains(R);
    });
    for (const User *U : P->users()) {
      if (auto *S = dyn_cast<StoreInst>(U)) {
        if (SelfReference(*S))
          continue;
        // (Not into the local variable that holds a heap block's address:
        // HeapRoots.cpp.)
        if (S->getValueOperand() == P) {
          if (!HolderStores.contains(S))
            MarkDirty(P); // the address escapes into memory
        } else if (Active.contains(S->getValueOperand())) {
          MarkDirty(P);
        }
        continue;
      }
      if (isa<LoadInst, GetElementPtrInst, BitCastInst, AddrSpaceCastInst,
              PHINode, SelectInst, ICmpInst>(U))
        continue;
      if (auto *MT = dyn_cast<MemTransferInst>(U)) {
        if (MT->getRawDest() == P && Active.contains(MT->getRawSource()) &&
            mayHoldDerivatives(MT->getRawSource()))
          MarkDirty(P);
        continue;
      }
      if (isa<MemSetInst>(U) || isa<DbgInfoIntrinsic>(U))
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(U))
        if (II->isLifetimeStartOrEnd())
          continue;
      // A library function without derivatives (std::string's members,
      // output) writes no derivative into what it is given; nor does a
      // function that only moves what the slot holds (an iterator's
      // operator++: CleanSlots.cpp).
      if (auto *Call = dyn_cast<CallBase>(U))
        if (const Function *Callee = Call->getCalledFunction()) {
          if (isKnownInactiveFunction(*Callee) ||
              isDeallocation(classifyMemoryFunction(*Callee)))
            continue;
          // (Not when it returns the slot's address to be used here:
          // stores through that would not be seen.)
          if (CleanSlots && all_of(Call->args(), [&](const Use &Arg) {
                bool Returns = false;
                return Arg.get() != P ||
                       (keepsPointeeClean(*Callee, Arg.getOperandNo(),
                                          CleanCallDepth, Returns,
                                          HoldsOwnAddress) &&
                        (!Returns || Call->use_empty()));
              }))
            continue;
          // Nor one that, with the activity its arguments have here, stores
          // only constants into the slot (InactiveSlotWrites.cpp; in a slot
          // that holds its own address, through the pointers read from it
          // too).
          if (callKeepsSlotClean(*Call, P, HoldsOwnAddress))
            continue;
        }
      MarkDirty(P); // passed to a call, converted to an integer, returned...
    }
  }
  return Changed;
}

bool ActivityAnalysis::returnsActive(
    const Function &Callee, const CallBase &Call,
    function_ref<bool(const Value *)> ActiveOperand) const {
  uint64_t Mask = 0;
  SmallVector<ArgActivity, 8> Args;
  for (unsigned I = 0; I < Call.arg_size(); ++I) {
    bool On = ActiveOperand(Call.getArgOperand(I));
    Mask |= uint64_t(On) << I;
    Args.push_back(On ? ArgActivity::Dup : ArgActivity::Const);
  }
  auto Key = std::make_pair(&Callee, Mask);
  if (auto It = ReturnActivity.find(Key); It != ReturnActivity.end())
    return It->second;
  // Two functions deep at most (each level analyses its callee once per
  // pattern of active arguments); deeper, the result is taken as active.
  static thread_local unsigned Depth = 0;
  if (Depth >= 2)
    return true;
  ++Depth;
  ActivityAnalysis Inner(const_cast<Function &>(Callee), Args, Rules);
  --Depth;
  bool Result = false;
  for (const BasicBlock &BB : Callee)
    if (const auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      Result |= Ret->getReturnValue() && Inner.isActive(Ret->getReturnValue());
  ReturnActivity[Key] = Result;
  return Result;
}

ActivityAnalysis::ActivityAnalysis(Function &F, ArrayRef<ArgActivity> Args,
                                   const CustomRules *Rules)
    : F(F), Rules(Rules), Users(Rules) {
  for (Argument &A : F.args())
    if (A.getArgNo() < Args.size() && Args[A.getArgNo()] != ArgActivity::Const)
      Active.insert(&A);
  // Globals with shadows are shadowed pointers, as Dup arguments are.
  for (Instruction &I : instructions(F))
    for (Use &Op : I.operands())
      if (auto *G = dyn_cast<GlobalVariable>(Op.get());
          G && hasShadowGlobal(*G, Rules) && Active.insert(G).second)
        ShadowedGlobals.push_back(G);
  findStackPointers();
  // Activity and dirtiness only grow, so iterating to a fixed point
  // terminates.
  bool Changed = true;
  while (Changed) {
    Changed = updateDirtyAllocas();
    for (Instruction &I : instructions(F)) {
      if (Active.contains(&I) || !transfer(I))
        continue;
      Active.insert(&I);
      Changed = true;
    }
  }
}

void ActivityAnalysis::print(raw_ostream &OS) const {
  OS << "activity of '" << F.getName() << "'\n";
  for (Argument &A : F.args()) {
    OS << (Active.contains(&A) ? "  active " : "  const  ");
    A.printAsOperand(OS, /*PrintType=*/true);
    OS << "\n";
  }
  for (Instruction &I : instructions(F)) {
    if (I.getType()->isVoidTy() && !isa<CallBase>(I))
      continue;
    OS << (Active.contains(&I) ? "  active " : "  const  ");
    I.print(OS);
    if ((isa<AllocaInst>(I) || StackRoots.count(&I)) &&
        !mayHoldDerivatives(&I))
      OS << "  ; holds no derivative";
    OS << "\n";
  }
}

bool isAddressArithmetic(const BinaryOperator &BO) {
  switch (BO.getOpcode()) {
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::And:
  case Instruction::Or:
    return true;
  default:
    return false;
  }
}

namespace {

/// True when the integer \p V is made a pointer, directly or after address
/// arithmetic.
bool becomesAddress(const Value &V) {
  SmallVector<const Value *, 8> Work{&V};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *X = Work.pop_back_val();
    if (!Seen.insert(X).second || Seen.size() > 16)
      continue;
    for (const User *U : X->users()) {
      if (isa<IntToPtrInst>(U))
        return true;
      if (const auto *BO = dyn_cast<BinaryOperator>(U);
          BO && isAddressArithmetic(*BO))
        Work.push_back(BO);
    }
  }
  return false;
}

/// The local variable or array \p LI reads from or the one \p SI writes
/// to (through GEPs, and the phis and selects of a loop that walks it: the
/// insertion sort of `std::sort` inlined from -O1 on steps a pointer down
/// the array), or null.
const AllocaInst *localOf(const Value *Ptr) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  const AllocaInst *Local = nullptr;
  for (const Value *O : Objects) {
    const auto *AI = dyn_cast<AllocaInst>(O);
    if (!AI || (Local && Local != AI))
      return nullptr;
    Local = AI;
  }
  return Local;
}

/// True when a pointer-sized integer read from the local \p AI is made a
/// pointer again, or is copied (\p Depth copies deep) into a local whose
/// integers are: an array of addresses kept as integers, and the variable
/// of a swap between two of its elements (`t = a[i]; a[i] = a[j]; a[j] =
/// t;` of a sort by address).
bool holdsAddresses(const AllocaInst &AI, unsigned Depth) {
  Type *IntPtr = AI.getModule()->getDataLayout().getIntPtrType(AI.getContext());
  SmallVector<const Value *, 8> Work{&AI};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    if (!Seen.insert(P).second || Seen.size() > 32)
      continue;
    for (const User *U : P->users()) {
      if (isa<GetElementPtrInst, BitCastInst, PHINode, SelectInst>(U)) {
        Work.push_back(U);
        continue;
      }
      const auto *LI = dyn_cast<LoadInst>(U);
      if (!LI || LI->getType() != IntPtr)
        continue;
      if (becomesAddress(*LI))
        return true;
      if (Depth == 0)
        continue;
      for (const User *V : LI->users())
        if (const auto *SI = dyn_cast<StoreInst>(V);
            SI && SI->getValueOperand() == LI)
          if (const AllocaInst *To = localOf(SI->getPointerOperand());
              To && To != &AI && holdsAddresses(*To, Depth - 1))
            return true;
    }
  }
  return false;
}

} // namespace

bool loadsAddress(const LoadInst &LI) {
  const DataLayout &DL = LI.getModule()->getDataLayout();
  if (LI.getType() != DL.getIntPtrType(LI.getContext()))
    return false;
  if (becomesAddress(LI))
    return true;
  // (Read from a local array of addresses kept as integers, or copied into
  // one: its elements compared and swapped by a sort. Until 2026-12-07 the
  // compared integers had no shadow, their stores left the shadow array
  // unsorted, and the values read through the sorted addresses got the
  // derivatives of others, without an error.)
  if (const AllocaInst *AI = localOf(LI.getPointerOperand());
      AI && holdsAddresses(*AI, 2))
    return true;
  return any_of(LI.users(), [&](const User *U) {
    const auto *SI = dyn_cast<StoreInst>(U);
    const AllocaInst *To =
        SI && SI->getValueOperand() == &LI ? localOf(SI->getPointerOperand())
                                           : nullptr;
    return To && holdsAddresses(*To, 2);
  });
}

bool isIntegerAddress(const Value &V, unsigned Depth) {
  SmallVector<std::pair<const Value *, unsigned>, 8> Work{{&V, Depth}};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    auto [X, Left] = Work.pop_back_val();
    if (!X->getType()->isIntegerTy() || !Seen.insert(X).second)
      continue;
    if (isa<PtrToIntInst>(X))
      return true;
    if (const auto *LI = dyn_cast<LoadInst>(X)) {
      if (loadsAddress(*LI))
        return true;
      continue;
    }
    if (Left == 0)
      continue;
    if (const auto *Phi = dyn_cast<PHINode>(X)) {
      for (const Value *In : Phi->incoming_values())
        Work.push_back({In, Left - 1});
    } else if (const auto *Sel = dyn_cast<SelectInst>(X)) {
      Work.push_back({Sel->getTrueValue(), Left - 1});
      Work.push_back({Sel->getFalseValue(), Left - 1});
    } else if (const auto *BO = dyn_cast<BinaryOperator>(X);
               BO && isAddressArithmetic(*BO)) {
      // (Not the distance between two addresses: a number.)
      if (BO->getOpcode() == Instruction::Sub &&
          isIntegerAddress(*BO->getOperand(1), Left - 1))
        continue;
      Work.push_back({BO->getOperand(0), Left - 1});
      Work.push_back({BO->getOperand(1), Left - 1});
    }
  }
  return false;
}

bool localHoldsAddresses(const Value *Ptr) {
  const AllocaInst *AI = Ptr ? localOf(Ptr) : nullptr;
  return AI && holdsAddresses(*AI, 2);
}

bool mayBecomePointer(const Value *Slot, unsigned Depth) {
  const auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(Slot));
  if (!AI || Depth == 0)
    return true;
  SmallVector<std::pair<const Value *, unsigned>, 16> Work;
  SmallPtrSet<const Value *, 16> Seen;
  for (const User *U : AI->users())
    if (isa<LoadInst>(U))
      Work.push_back({U, Depth});
  while (!Work.empty()) {
    auto [V, Left] = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const User *U : V->users()) {
      if (isa<IntToPtrInst>(U))
        return true;
      if (auto *S = dyn_cast<StoreInst>(U)) {
        if (S->getValueOperand() == V &&
            mayBecomePointer(S->getPointerOperand(), Left - 1))
          return true;
        continue;
      }
      if (Left > 1 && isa<BinaryOperator, PHINode, SelectInst, CastInst>(U))
        Work.push_back({U, Left - 1});
    }
  }
  return false;
}

} // namespace adcore
