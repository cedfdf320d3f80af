//===- NullableShadows.cpp - Shadows that may be null at run time --------===//
//
// A fixed point over the function (analysis/NullableShadows.h): pointers
// whose shadow may be null, and the memory that may hold such shadows.
//  - a pointer without a shadow (not a function's address, its own
//    shadow; the address of a global variable without a shadow is one)
//    stored into memory leaves a null shadow there; so does
//    a pointer whose shadow may be null; memory that receives the address
//    of memory holding null shadows reaches them too;
//  - a call given such a pointer, or one reaching such memory, or one
//    whose callee stores the address of a global variable, may store them
//    into any memory it may write through its arguments;
//  - a pointer loaded from memory that may hold null shadows, or through
//    a pointer whose shadow may be null, may have a null shadow (and reach
//    such memory); so may an address computed from one, a phi or select
//    with one (or with a pointer without shadow), and what a call given
//    one returns.
// Memory that holds no pointers (doubles, integers: the type analysis)
// holds no null shadows: a double array handed to a callee with a constant
// pointer gets no guards.
//
//===----------------------------------------------------------------------===//

#include "NullableShadows.h"
#include "ActivityAnalysis.h"
#include "rules/CustomRules.h"
#include "rules/InactiveFunctions.h"
#include "support/NullShadowGuards.h"
#include "adcore/MemoryFunctions.h"
#include "TypeAnalysis.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/ModRef.h"

using namespace llvm;

namespace adcore {
namespace {

/// The blocks that guarded accesses read zeros from or write into instead
/// of a null shadow (NullShadowGuards.h): a reverse sweep differentiated
/// again has no tangent for them.
bool isGuardBlock(const Value *V) {
  const auto *G = dyn_cast<GlobalVariable>(V->stripPointerCasts());
  return G && (G->getName().starts_with(ShadowSinkPrefix) ||
               G->getName().starts_with("adcc.zero.tangents."));
}

bool hasBit(uint64_t Bits, unsigned No) { return No < 64 && (Bits >> No & 1); }

/// Whether \p V is an address in a global variable that holds data: not a
/// C++ virtual table, VTT or type information (their shadows are never
/// read: calls dispatch on the primal's table).
bool isDataGlobalAddress(const Value *V) {
  const auto *G = dyn_cast<GlobalVariable>(getUnderlyingObject(V));
  if (!G)
    return false;
  StringRef Name = G->getName();
  return !Name.starts_with("_ZTV") && !Name.starts_with("_ZTT") &&
         !Name.starts_with("_ZTI") && !Name.starts_with("_ZTS");
}

/// Whether the pointer \p V, which carries no derivative, has a null
/// shadow: not a constant (a function's address is its own shadow), but
/// the address of a global variable without a shadow (a constant table,
/// `const double *rows[] = {K, a}`) and anything computed at run time.
bool nullShadowOf(const Value *V) {
  return !isa<Constant>(V) || isDataGlobalAddress(V);
}

/// Whether \p Call may store a pointer (or the bits of one) into memory
/// its arguments reach: a store of a pointer or of a 64-bit integer, a
/// memory copy, in the callee or the functions it calls (\p Depth deep;
/// further, or unknown: it may).
bool mayStorePointers(const CallBase &Call, unsigned Depth,
                      DenseMap<const Function *, bool> &Memo) {
  if (const auto *II = dyn_cast<IntrinsicInst>(&Call))
    return isa<MemTransferInst>(II);
  MemoryEffects ME = Call.getMemoryEffects();
  if (!isModSet(ME.getModRef(IRMemLocation::ArgMem)) &&
      !isModSet(ME.getModRef(IRMemLocation::Other)))
    return false;
  const Function *F = Call.getCalledFunction();
  if (!F || F->isDeclaration() || Depth == 0)
    return true;
  auto [It, New] = Memo.try_emplace(F, true); // (recursion: it may)
  if (!New)
    return It->second;
  bool Stores = any_of(instructions(*F), [&](const Instruction &I) {
    if (const auto *SI = dyn_cast<StoreInst>(&I)) {
      Type *T = SI->getValueOperand()->getType();
      return T->isPtrOrPtrVectorTy() || T->isIntOrIntVectorTy(64) ||
             T->isAggregateType();
    }
    const auto *C = dyn_cast<CallBase>(&I);
    return C && mayStorePointers(*C, Depth - 1, Memo);
  });
  Memo[F] = Stores;
  return Stores;
}

/// Whether the pointer \p V, stored by a callee, may be one it found itself
/// rather than one it was given, whose shadow may then be null: the
/// address of a global variable without a shadow (a constant table), a
/// pointer read from a global, one rebuilt from an integer, or one returned
/// by a function adcc does not differentiate (a declaration, an inactive
/// function: by \p Rules too), other than an allocation, or by a function
/// with a body that may return such a pointer (\p Depth calls deep: a
/// getter of a constant table).
bool foundPointer(const Value *V, const CustomRules *Rules,
                  unsigned Depth = 3) {
  if (isDataGlobalAddress(V))
    return true;
  const Value *O = getUnderlyingObject(V);
  if (isa<IntToPtrInst>(O))
    return true;
  if (const auto *LI = dyn_cast<LoadInst>(O))
    return isa<GlobalVariable>(getUnderlyingObject(LI->getPointerOperand()));
  const auto *C = dyn_cast<CallBase>(O);
  if (!C || isa<IntrinsicInst>(C))
    return false;
  const Function *F = C->getCalledFunction();
  if (!F)
    return false;
  if (classifyMemoryFunction(*F) != MemoryFunctionKind::None)
    return false;
  if (F->isDeclaration() || isKnownInactiveFunction(*F) ||
      (Rules && Rules->isInactive(F)))
    return true;
  return Depth > 0 && any_of(instructions(*F), [&](const Instruction &I) {
           const auto *Ret = dyn_cast<ReturnInst>(&I);
           const Value *R = Ret ? Ret->getReturnValue() : nullptr;
           return R && R->getType()->isPointerTy() &&
                  foundPointer(R, Rules, Depth - 1);
         });
}

/// Whether \p Call may store a pointer it found itself (foundPointer) into
/// memory: in the callee or the functions it calls, \p Depth deep. (At
/// -O2 a table filler given a constant table at every call has it
/// propagated into its body: the caller no longer passes it.)
bool mayStoreFoundPointer(const CallBase &Call, unsigned Depth,
                          const CustomRules *Rules,
                          DenseMap<const Function *, bool> &Memo) {
  const Function *F = Call.getCalledFunction();
  if (!F || F->isDeclaration() || Depth == 0)
    return false;
  auto [It, New] = Memo.try_emplace(F, false); // (recursion: no more)
  if (!New)
    return It->second;
  bool Stores = any_of(instructions(*F), [&](const Instruction &I) {
    if (const auto *SI = dyn_cast<StoreInst>(&I)) {
      const Value *V = SI->getValueOperand();
      return V->getType()->isPointerTy() && foundPointer(V, Rules);
    }
    const auto *C = dyn_cast<CallBase>(&I);
    return C && mayStoreFoundPointer(*C, Depth - 1, Rules, Memo);
  });
  Memo[F] = Stores;
  return Stores;
}

/// Whether \p Call pushes or pops a tape record (forward mode over a
/// reverse sweep gives each a shadow record: ForwardCalls.cpp).
bool isTapeRecordCall(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F)
    return false;
  MemoryFunctionKind Kind = classifyMemoryFunction(*F);
  return Kind == MemoryFunctionKind::TapePush ||
         Kind == MemoryFunctionKind::TapePop;
}

} // namespace

NullableShadows::NullableShadows(const Function &F,
                                 const ActivityAnalysis &Activity,
                                 const TypeAnalysis &Types, NullableBits Args,
                                 ArrayRef<const Value *> Seeds)
    : Activity(Activity), Types(Types) {
  for (const Argument &A : F.args()) {
    if (!A.getType()->isPointerTy())
      continue;
    if (hasBit(Args.Nullable, A.getArgNo()))
      Nullable.insert(&A);
    if (hasBit(Args.Reaching, A.getArgNo()))
      Reaching.insert(&A);
  }
  Nullable.insert_range(Seeds);
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const Instruction &I : instructions(F))
      Changed |= update(I);
  }
}

bool NullableShadows::reaches(const Value *Ptr) const {
  if (AnyTainted || Reaching.contains(Ptr))
    return true;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  return any_of(Objects, [&](const Value *O) {
    return Tainted.contains(O) || Reaching.contains(O);
  });
}

bool NullableShadows::mayHoldNull(const Value *Ptr) const {
  return Nullable.contains(Ptr) || reaches(Ptr);
}

bool NullableShadows::leavesNull(const Value *V) const {
  if (!V->getType()->isPointerTy())
    return false;
  if (Nullable.contains(V) || isGuardBlock(V))
    return true;
  if (!Activity.isActive(V))
    return nullShadowOf(V);
  return reaches(V);
}

bool NullableShadows::taint(const Value *Ptr) {
  const MemoryLayout &L = Types.layout(Ptr);
  if (!L.empty() && all_of(L, [](const auto &E) {
        return E.second == Kind::Integer || E.second == Kind::Float ||
               E.second == Kind::Double;
      }))
    return false;
  bool Changed = false;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  for (const Value *O : Objects) {
    Changed |= Tainted.insert(O).second;
    // (Other pointers may reach memory not known to be this object's
    // alone: any memory may then hold null shadows.)
    if (!isa<AllocaInst>(O) && !isNoAliasCall(O) && !AnyTainted) {
      AnyTainted = true;
      Changed = true;
    }
  }
  return Changed;
}

NullableBits NullableShadows::calleeBits(const CallBase &Call) const {
  NullableBits Bits;
  for (const Use &U : Call.args()) {
    unsigned No = Call.getArgOperandNo(&U);
    const Value *A = U.get();
    if (No >= 64 || !A->getType()->isPointerTy() || !Activity.isActive(A))
      continue;
    if (Nullable.contains(A))
      Bits.Nullable |= uint64_t(1) << No;
    if (mayHoldNull(A))
      Bits.Reaching |= uint64_t(1) << No;
  }
  return Bits;
}

bool NullableShadows::update(const Value &V) {
  const auto *I = dyn_cast<Instruction>(&V);
  if (!I)
    return false;
  auto Add = [&](bool MayBeNull, bool Reach) {
    bool Changed = false;
    if (MayBeNull)
      Changed |= Nullable.insert(I).second;
    if (Reach)
      Changed |= Reaching.insert(I).second;
    return Changed;
  };
  if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, FreezeInst>(I)) {
    if (!I->getType()->isPointerTy())
      return false;
    const Value *Base = I->getOperand(0);
    return Add(Nullable.contains(Base), Reaching.contains(Base));
  }
  if (isa<PHINode, SelectInst>(I)) {
    if (!I->getType()->isPointerTy() || !Activity.isActive(I))
      return false;
    bool MayBeNull = false, Reach = false;
    for (unsigned K = isa<SelectInst>(I) ? 1 : 0; K < I->getNumOperands();
         ++K) {
      const Value *In = I->getOperand(K);
      MayBeNull |= In->getType()->isPointerTy() &&
                   (Nullable.contains(In) || isGuardBlock(In) ||
                    (!Activity.isActive(In) && nullShadowOf(In)));
      Reach |= Reaching.contains(In);
    }
    return Add(MayBeNull, Reach);
  }
  if (const auto *LI = dyn_cast<LoadInst>(I)) {
    bool Loaded = LI->getType()->isPointerTy() && Activity.isActive(LI) &&
                  mayHoldNull(LI->getPointerOperand());
    return Add(Loaded, Loaded);
  }
  if (const auto *SI = dyn_cast<StoreInst>(I)) {
    if (leavesNull(SI->getValueOperand()) &&
        Activity.isActive(SI->getPointerOperand()))
      return taint(SI->getPointerOperand());
    return false;
  }
  if (const auto *MT = dyn_cast<MemTransferInst>(I)) {
    // (A copy from memory without a shadow, a struct passed enzyme_const
    // copied into a local whose other fields get derivatives, `S a = *c;
    // a.x = x;`, zeroes the destination's shadow: the pointers it copies
    // have null shadows there.)
    const Value *Src = MT->getRawSource();
    if (Activity.isActive(MT->getRawDest()) &&
        (!Activity.isActive(Src) || mayHoldNull(Src)))
      return taint(MT->getRawDest());
    return false;
  }
  const auto *Call = dyn_cast<CallBase>(I);
  if (!Call || isa<IntrinsicInst>(Call))
    return false;
  // (A tape record's shadow is the shadow record pushed or popped beside
  // it: never null.)
  if (isTapeRecordCall(*Call))
    return false;
  // (A callee given a pointer without a shadow, or one reaching null
  // shadows, may store it into memory it writes through its other
  // arguments; its result may be such a pointer.)
  bool Given = any_of(Call->args(), [&](const Use &U) {
    return leavesNull(U.get()) ||
           (U->getType()->isPointerTy() && Activity.isActive(U.get()) &&
            mayHoldNull(U.get()));
  });
  // (Or one it finds itself: a constant table's address, a pointer an
  // inactive function returns.)
  Given = Given || mayStoreFoundPointer(*Call, /*Depth=*/3, Activity.rules(),
                                        StoresFound);
  if (!Given)
    return false;
  bool Result = Call->getType()->isPointerTy() && Activity.isActive(Call);
  bool Changed = Add(Result, Result);
  if (!mayStorePointers(*Call, /*Depth=*/3, StoresPointers))
    return Changed;
  for (const Use &U : Call->args())
    if (U->getType()->isPointerTy() && Activity.isActive(U.get()) &&
        !Call->onlyReadsMemory(Call->getArgOperandNo(&U)))
      Changed |= taint(U.get());
  return Changed;
}

} // namespace adcore
