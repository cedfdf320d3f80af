//===- InactiveSlotWrites.cpp - Callees that fill a slot with constants ---===//
//
// A local array handed to a function that fills it (`hand_pose(theta, m,
// A)`) was taken to receive derivatives whatever the call's arguments:
// where the call's other arguments are constant (a forward call along the
// directions of other parameters), the array's shadow was zeroed, the
// callee's tangent stored zeros into it, and every tangent read from the
// array afterwards was computed from those zeros. Here the callee is
// analysed with the activity its arguments have at the call (the slots
// handed to it constant): when everything it stores through the slots has
// no derivative there, the slot stays clean, the call runs as the primal
// and the slot's loads are constants (ActivityMemory.cpp).
//
//===----------------------------------------------------------------------===//

#include "ActivityAnalysis.h"
#include "SlotAddresses.h"
#include "rules/InactiveFunctions.h"
#include "rules/OpenMPRuntime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace adcore {
namespace {

cl::opt<bool> InactiveSlotWrites(
    "adcc-inactive-slot-writes", cl::init(true), cl::Hidden,
    cl::desc("Take stack slots passed to functions that store only values "
             "without derivatives there, for the activity of the call's "
             "arguments, for slots without derivatives"));

/// How many analyses deep the callees' callees are followed.
constexpr unsigned MaxNesting = 2;
thread_local unsigned Nesting = 0;

class SlotWrites : SlotAddresses {
public:
  SlotWrites(const ActivityAnalysis &Inner, const CustomRules *Rules,
             bool HoldsOwnAddress)
      : Inner(Inner), Rules(Rules), HoldsOwnAddress(HoldsOwnAddress) {}

  /// Whether nothing with a derivative is stored through \p Slots (and
  /// the pointers derived from them), nor their addresses anywhere.
  bool clean(ArrayRef<const Value *> Slots) {
    SmallVector<const Value *, 16> Work(Slots.begin(), Slots.end());
    Addresses.insert(Slots.begin(), Slots.end());
    while (!Work.empty()) {
      const Value *P = Work.pop_back_val();
      for (const User *U : P->users()) {
        // (What is stored through a pointer read from a slot that holds
        // its own address may land in it: followLoad.)
        if (followCommonUse(*U, HoldsOwnAddress, Work))
          continue;
        if (const auto *SI = dyn_cast<StoreInst>(U)) {
          // The address kept in a local variable that holds nothing else
          // (the parameter's own at -O0): what is loaded from there is an
          // address into the slots too.
          if (SI->getValueOperand() == P) {
            if (!followHolderStore(*SI, Work))
              return false;
            continue;
          }
          if (!constantStore(*SI, P))
            return false;
          continue;
        }
        if (const auto *II = dyn_cast<IntrinsicInst>(U))
          if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II) ||
              isa<MemSetInst>(II))
            continue;
        if (const auto *MT = dyn_cast<MemTransferInst>(U)) {
          // (A copy out of a slot reads it; into one, from memory that
          // holds no derivative.)
          const Value *Src = MT->getRawSource();
          if (!Addresses.contains(MT->getRawDest()) || Addresses.contains(Src))
            continue;
          if (Inner.isActive(Src) && Inner.mayHoldDerivatives(Src))
            return false;
          continue;
        }
        const auto *Call = dyn_cast<CallBase>(U);
        if (!Call || !constantCall(*Call))
          return false;
      }
    }
    return holdersHoldOnlyAddresses();
  }

private:
  /// A store into a slot of a value without a derivative: a constant, or
  /// a floating-point value the analysis finds constant. (Not an address:
  /// the slot would hold a pointer, perhaps to memory with derivatives;
  /// nor other integers, which may be the bits of a float.)
  bool constantStore(const StoreInst &SI, const Value *P) const {
    const Value *V = SI.getValueOperand();
    if (V == P || Addresses.contains(V))
      return false;
    if (isa<Constant>(V))
      return true;
    return V->getType()->isFPOrFPVectorTy() && !Inner.isActive(V);
  }

  /// A call given a slot: of a function without derivatives, of one that
  /// keeps the slot as it is (CleanSlots.cpp), or of one that stores only
  /// constants there for these arguments; not one that returns a pointer
  /// the caller uses.
  bool constantCall(const CallBase &Call) const {
    const Function *Callee = Call.getCalledFunction();
    if (!Callee || Callee->isVarArg() ||
        Call.arg_size() != Callee->arg_size() || Call.arg_size() > 64)
      return false;
    if (isKnownInactiveFunction(*Callee))
      return true;
    if (Call.getType()->isPointerTy() && !Call.use_empty())
      return false;
    SmallVector<ArgActivity, 8> Args;
    uint64_t SlotArgs = 0;
    bool KeptClean = true;
    for (const Use &Arg : Call.args()) {
      const Value *A = Arg.get();
      unsigned No = Arg.getOperandNo();
      if (Addresses.contains(A)) {
        SlotArgs |= uint64_t(1) << No;
        Args.push_back(ArgActivity::Const);
        bool Returns = false;
        KeptClean &= keepsPointeeClean(*Callee, No, CleanCallDepth, Returns,
                                       HoldsOwnAddress);
        continue;
      }
      Args.push_back(Inner.isActive(A) && !Inner.cleanStackPointer(A)
                         ? ArgActivity::Dup
                         : ArgActivity::Const);
    }
    return KeptClean || storesNoDerivativeThrough(*Callee, Args, SlotArgs,
                                                  Rules, HoldsOwnAddress);
  }

  const ActivityAnalysis &Inner;
  const CustomRules *Rules;
  bool HoldsOwnAddress;
};

/// Whether \p Region (an OpenMP region's outlined function) only reads
/// through the pointers it loads from its parameters in the bit set
/// \p Slots: each such pointer, and every address computed from it, is
/// loaded from, compared, or given to calls that only read through it and
/// keep no copy (`readonly captures(none)`). A region that writes through
/// one (a constant array used as scratch, `tmp[i] = ...; ... = tmp[i]`)
/// needs its shadow, null or not (a scratch shadow then: NullableShadows.h).
bool onlyReadsThroughLoadedPointers(const Function &Region, uint64_t Slots) {
  SmallVector<const Value *, 16> Work;
  SmallPtrSet<const Value *, 16> Seen;
  for (const Argument &A : Region.args())
    if (Slots >> A.getArgNo() & 1)
      for (const User *U : A.users()) {
        // (The slot's address kept in a local, as at -O0, or given to a
        // call: the pointers read through it are not followed.)
        const auto *LI = dyn_cast<LoadInst>(U);
        if (!LI)
          return false;
        if (LI->getType()->isPointerTy() && Seen.insert(LI).second)
          Work.push_back(LI);
      }
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    for (const Use &Use : P->uses()) {
      const User *U = Use.getUser();
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
              SelectInst, FreezeInst>(U)) {
        if (Seen.insert(U).second)
          Work.push_back(U);
        continue;
      }
      if (isa<ICmpInst>(U))
        continue;
      if (const auto *LI = dyn_cast<LoadInst>(U)) {
        if (LI->getPointerOperand() == P && !LI->isVolatile())
          continue;
        return false;
      }
      if (const auto *II = dyn_cast<IntrinsicInst>(U))
        if (II->isLifetimeStartOrEnd() || II->isDebugOrPseudoInst())
          continue;
      if (const auto *Call = dyn_cast<CallBase>(U))
        if (Call->isArgOperand(&Use) && !Call->hasOperandBundles() &&
            Call->onlyReadsMemory(Call->getArgOperandNo(&Use)) &&
            Call->doesNotCapture(Call->getArgOperandNo(&Use)))
          continue;
      return false; // stored through or stored, given to a call, returned
    }
  }
  return true;
}

} // namespace

bool storesNoDerivativeThrough(const Function &Callee,
                               ArrayRef<ArgActivity> Args, uint64_t SlotArgs,
                               const CustomRules *Rules,
                               bool HoldsOwnAddress) {
  if (Callee.isDeclaration() || Callee.isVarArg() ||
      Args.size() != Callee.arg_size() || Args.size() > 64 ||
      Nesting >= MaxNesting)
    return false;
  SmallVector<const Value *, 4> Slots;
  for (const Argument &A : Callee.args())
    if (SlotArgs >> A.getArgNo() & 1) {
      if (!A.getType()->isPointerTy())
        return false;
      Slots.push_back(&A);
    }
  ++Nesting;
  ActivityAnalysis Inner(const_cast<Function &>(Callee), Args, Rules);
  bool Clean = SlotWrites(Inner, Rules, HoldsOwnAddress).clean(Slots);
  --Nesting;
  return Clean;
}

bool ActivityAnalysis::callKeepsSlotClean(const CallBase &Call,
                                          const Value *P,
                                          bool HoldsOwnAddress) {
  const Function *Callee = Call.getCalledFunction();
  // (An OpenMP fork runs its outlined function on the team with the fork's
  // shared arguments after the two thread ids, which are constants: the
  // slot of a constant pointer the region only reads stays clean, and the
  // region gets it constant, as a call would: ReverseOpenMP.cpp.)
  unsigned First = 0, Skip = 0;
  if (Callee && Callee->isDeclaration() &&
      classifyOpenMPCall(*Callee) == OpenMPCall::Fork) {
    Callee = forkedFunction(Call);
    First = ForkSharedArgs;
    Skip = 2;
  }
  // (Once dirty, a slot stays so: nothing to ask.)
  if (!InactiveSlotWrites || !Callee || Callee == &F ||
      Callee->isDeclaration() || Callee->isVarArg() ||
      Call.arg_size() - First + Skip != Callee->arg_size() ||
      Callee->arg_size() > 63 || !cleanStackPointer(P) ||
      (Call.getType()->isPointerTy() && !Call.use_empty()))
    return false;
  const auto &Roots = StackRoots.find(P)->second;
  uint64_t Activity = 0, Slots = 0;
  SmallVector<ArgActivity, 8> Args(Skip, ArgActivity::Const);
  for (const Use &Arg : drop_begin(Call.args(), First)) {
    const Value *A = Arg.get();
    unsigned No = Arg.getOperandNo() - First + Skip;
    auto It = StackRoots.find(A);
    if (It != StackRoots.end() && any_of(It->second, [&](const Instruction *R) {
          return is_contained(Roots, R);
        })) {
      // (A pointer that may also point elsewhere: not followed.)
      if (Mixed.contains(A))
        return false;
      Slots |= uint64_t(1) << No;
      Args.push_back(ArgActivity::Const);
      continue;
    }
    bool On = Active.contains(A) && !cleanStackPointer(A);
    Activity |= uint64_t(On) << No;
    Args.push_back(On ? ArgActivity::Dup : ArgActivity::Const);
  }
  // (Bit 63 of the slots' set, no argument's: the slot holds its address.)
  auto Key = std::make_tuple(Callee, Activity,
                             Slots | uint64_t(HoldsOwnAddress) << 63);
  if (auto It = SlotCalls.find(Key); It != SlotCalls.end())
    return It->second;
  bool Clean =
      (!Skip || onlyReadsThroughLoadedPointers(*Callee, Slots)) &&
      storesNoDerivativeThrough(*Callee, Args, Slots, Rules, HoldsOwnAddress);
  SlotCalls[Key] = Clean;
  return Clean;
}

} // namespace adcore
