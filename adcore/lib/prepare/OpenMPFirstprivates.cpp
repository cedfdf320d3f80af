//===- OpenMPFirstprivates.cpp - Floating-point values into regions -------===//
//
// Clang passes a `firstprivate` scalar (or a scalar the region captures by
// copy) to the region's outlined function by value, its bits in an integer
// as wide as a pointer:
//
//   store double %w, ptr %w.casted          (-O0; -O2: bitcast double to i64)
//   %bits = load i64, ptr %w.casted
//   __kmpc_fork_call(loc, n, @outlined, ..., i64 %bits, ...)
//     @outlined(ptr %gtid, ptr %btid, ..., i64 %w, ...):
//       store i64 %w, ptr %w.addr ... load double, ptr %w.addr
//
// A value passed by value gets no derivative out of the region: the adjoint
// of each thread's copy would have to be summed over the team. Such a
// value is passed by reference instead, before the region is
// differentiated: the caller keeps it in a local slot (the `.casted` one
// where it is there), the outlined function loads it at its entry, as a
// floating-point value. The region then reads shared memory, whose shadow
// the derivatives pass along, and whose adjoint the reverse sweep sums over
// the threads like any shared value read by all (atomically, or by
// per-thread copies: reverse/ThreadAdjoints.cpp). The primal computes what
// it computed before: each thread still works on its own copy of the value.
//
// Integers stay by value, and so does a value whose bits the region uses in
// a way not recognized here (then the engine's error remains).
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "rules/OpenMPRuntime.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace adcore {
namespace {

/// The floating-point type whose bits the outlined function's parameter
/// \p P holds: some of its uses cast it to that type (-O1 and above), or
/// choose between it and the bits of such a value (`if (e < emin) e =
/// emin` as a select of integers), or it is stored into a local variable
/// that is read as that type (-O0); no use computes with it as an integer.
/// Null when its bits are not known to be a floating-point value's.
Type *floatBitsType(Argument &P) {
  if (P.getType()->isFloatingPointTy())
    return P.getType();
  if (!P.getType()->isIntegerTy() || P.use_empty())
    return nullptr;
  Type *Found = nullptr;
  auto Agree = [&](Type *T) {
    if (!T->isFloatingPointTy() || (Found && Found != T))
      return false;
    Found = T;
    return true;
  };
  for (User *U : P.users()) {
    if (auto *Cast = dyn_cast<BitCastInst>(U)) {
      if (!Agree(Cast->getType()))
        return nullptr;
      continue;
    }
    // (A float's 32 bits in the low half: truncated, then cast.)
    if (auto *Low = dyn_cast<TruncInst>(U)) {
      if (Low->use_empty())
        return nullptr;
      for (User *LU : Low->users())
        if (!isa<BitCastInst>(LU) || !Agree(LU->getType()))
          return nullptr;
      continue;
    }
    // (Moved as bits: chosen, put into a vector.)
    if (isa<SelectInst, PHINode, InsertElementInst>(U)) {
      for (Value *Op : U->operands())
        if (auto *Cast = dyn_cast<BitCastInst>(Op);
            Cast && !Agree(Cast->getSrcTy()->getScalarType()))
          return nullptr;
      if (auto *Sel = dyn_cast<SelectInst>(U); Sel && Sel->getCondition() == &P)
        return nullptr;
      continue;
    }
    auto *Store = dyn_cast<StoreInst>(U);
    if (!Store || Store->getValueOperand() != &P)
      return nullptr;
    // (Stored into memory that is not a local variable, `e[i] = emin` with
    // the cast folded into the store: the same bits, of no known type.)
    auto *Local = dyn_cast<AllocaInst>(Store->getPointerOperand());
    if (!Local)
      continue;
    bool ReadAsFloat = false;
    for (User *LU : Local->users()) {
      if (auto *Load = dyn_cast<LoadInst>(LU)) {
        if (!Agree(Load->getType()))
          return nullptr;
        ReadAsFloat = true;
      } else if (!isa<StoreInst>(LU) && !LU->isDroppable()) {
        return nullptr;
      }
    }
    if (!ReadAsFloat)
      return nullptr;
  }
  return Found;
}

/// Whether the region never reads the value of its parameter \p P: no
/// uses, or (-O0) only stores into local variables nothing loads.
bool neverRead(Argument &P) {
  return all_of(P.users(), [&](User *U) {
    auto *Store = dyn_cast<StoreInst>(U);
    auto *Local =
        Store ? dyn_cast<AllocaInst>(Store->getPointerOperand()) : nullptr;
    return Local && Store->getValueOperand() == &P &&
           all_of(Local->users(), [](User *LU) {
             return isa<StoreInst>(LU) || LU->isDroppable();
           });
  });
}

/// The floating-point value whose bits the by-value argument \p A of
/// \p Fork holds where it is known: the value cast (-O1 and above) or
/// stored into the local variable \p A was just loaded from (-O0); else
/// null.
Value *knownFloatValueOf(CallBase &Fork, Value *A, Type *FloatTy) {
  if (const Value *Float = floatBitsThroughCasts(A);
      Float && Float->getType() == FloatTy)
    return const_cast<Value *>(Float);
  auto *Load = dyn_cast<LoadInst>(A);
  auto *Local = Load ? dyn_cast<AllocaInst>(Load->getPointerOperand()) : nullptr;
  if (!Local || Load->getParent() != Fork.getParent())
    return nullptr;
  for (auto It = Load->getReverseIterator(); It != Load->getParent()->rend();
       ++It) {
    auto *Store = dyn_cast<StoreInst>(&*It);
    // (The last write before the load: the bits it loads.)
    if (Store && Store->getPointerOperand() == Local)
      return Store->getValueOperand()->getType() == FloatTy
                 ? Store->getValueOperand()
                 : nullptr;
    if (It->mayWriteToMemory())
      return nullptr;
  }
  return nullptr;
}

/// The by-value argument \p A of \p Fork as the floating-point value it
/// holds: known (above), or its bits cast where they are as wide (a field
/// loaded as an integer at -O2); else \p A itself.
Value *floatValueOf(CallBase &Fork, Value *A, Type *FloatTy) {
  if (Value *Float = knownFloatValueOf(Fork, A, FloatTy))
    return Float;
  if (A->getType()->getPrimitiveSizeInBits() !=
      FloatTy->getPrimitiveSizeInBits())
    return A;
  IRBuilder<> B(&Fork);
  return B.CreateBitCast(A, FloatTy, A->getName() + ".float");
}

/// A new local variable that holds the by-value argument \p A of \p Fork
/// when the region starts, as a floating-point value where it can.
Value *slotFor(CallBase &Fork, Value *A, Type *FloatTy) {
  Value *Stored = floatValueOf(Fork, A, FloatTy);
  Function &Caller = *Fork.getFunction();
  IRBuilder<> Entry(&Caller.getEntryBlock(),
                    Caller.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Slot =
      Entry.CreateAlloca(Stored->getType(), nullptr, A->getName() + ".byref");
  IRBuilder<> B(&Fork);
  B.CreateStore(Stored, Slot);
  return Slot;
}

/// Makes the local variable \p Local one of type \p T (each of its
/// loads reads a \p T).
void retypeLocal(AllocaInst &Local, Type *T) {
  if (Local.getAllocatedType() == T)
    return;
  auto *New = new AllocaInst(T, Local.getAddressSpace(), nullptr,
                             Local.getAlign(), "", Local.getIterator());
  New->takeName(&Local);
  Local.replaceAllUsesWith(New);
  Local.eraseFromParent();
}

/// A copy of the outlined function \p F taking a pointer where \p FloatTys
/// names a type (per shared argument), loading the value from it at entry
/// as that floating-point type.
Function *byReferenceCopy(Function &F, ArrayRef<Type *> FloatTys) {
  Module &M = *F.getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  SmallVector<Type *, 16> Params(F.getFunctionType()->params());
  for (auto [I, FloatTy] : enumerate(FloatTys))
    if (FloatTy)
      Params[I + 2] = Ptr;
  Function *Copy = Function::Create(
      FunctionType::get(F.getReturnType(), Params, false),
      GlobalValue::InternalLinkage, F.getAddressSpace(),
      F.getName() + ".byref", &M);
  // The values first (old types), then the body.
  BasicBlock *Entry = BasicBlock::Create(C, "byref", Copy);
  IRBuilder<> B(Entry);
  ValueToValueMapTy VMap;
  SmallVector<std::pair<LoadInst *, Type *>, 4> Loaded;
  for (Argument &Old : F.args()) {
    Argument &Arg = *Copy->getArg(Old.getArgNo());
    Arg.setName(Old.getName());
    Type *FloatTy = Old.getArgNo() >= 2 ? FloatTys[Old.getArgNo() - 2] : nullptr;
    if (!FloatTy) {
      VMap[&Old] = &Arg;
      continue;
    }
    LoadInst *Value = B.CreateLoad(Old.getType(), &Arg, Old.getName());
    VMap[&Old] = Value;
    Loaded.push_back({Value, FloatTy});
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Copy, &F, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  Copy->setLinkage(GlobalValue::InternalLinkage);
  AttributeList Attrs = Copy->getAttributes();
  for (auto [I, FloatTy] : enumerate(FloatTys))
    if (FloatTy)
      Attrs = Attrs.removeParamAttributes(C, I + 2);
  Copy->setAttributes(Attrs);
  auto *Body = cast<BasicBlock>(VMap[&F.getEntryBlock()]);
  B.CreateBr(Body);
  MergeBlockIntoPredecessor(Body);
  // Each value read as the floating-point value it holds.
  for (auto [Value, FloatTy] : Loaded) {
    B.SetInsertPoint(Value);
    LoadInst *Typed = B.CreateLoad(FloatTy, Value->getPointerOperand(),
                                   Value->getName());
    for (User *U : make_early_inc_range(Value->users())) {
      if (auto *Cast = dyn_cast<BitCastInst>(U)) {
        Cast->replaceAllUsesWith(Typed);
        Cast->eraseFromParent();
      } else if (auto *Low = dyn_cast<TruncInst>(U)) {
        for (User *LU : make_early_inc_range(Low->users())) {
          LU->replaceAllUsesWith(Typed);
          cast<Instruction>(LU)->eraseFromParent();
        }
        Low->eraseFromParent();
      } else if (auto *Store = dyn_cast<StoreInst>(U);
                 Store && Store->getValueOperand() == Value) {
        // (-O0: the variable it is kept in becomes one of that type.)
        Store->setOperand(0, Typed);
        if (auto *Local = dyn_cast<AllocaInst>(Store->getPointerOperand()))
          retypeLocal(*Local, FloatTy);
      }
    }
    if (Value->use_empty())
      Value->eraseFromParent();
  }
  return Copy;
}

/// Passes the floating-point values among \p Fork's by-value arguments by
/// reference (see the file comment). Returns whether it changed anything.
bool passByReference(CallBase &Fork) {
  Function *Outlined = forkedFunction(Fork);
  if (!Outlined || Outlined->isDeclaration() || Outlined->isVarArg())
    return false;
  unsigned Shared = Fork.arg_size() - ForkSharedArgs;
  if (Outlined->arg_size() != Shared + 2)
    return false;
  SmallVector<Type *, 8> FloatTys(Shared, nullptr);
  bool Any = false, Changed = false;
  for (unsigned I = 0; I < Shared; ++I) {
    Value *A = Fork.getArgOperand(ForkSharedArgs + I);
    if (A->getType()->isPointerTy())
      continue;
    // (A value the region never reads, `firstprivate(ss4o3)` in a loop
    // that does not use it: zero, so that no integer copy of a float's bits
    // is left to the derivatives.)
    if (neverRead(*Outlined->getArg(I + 2))) {
      if (!isa<Constant>(A)) {
        Fork.setArgOperand(ForkSharedArgs + I,
                           Constant::getNullValue(A->getType()));
        if (auto *Dead = dyn_cast<Instruction>(A);
            Dead && Dead->use_empty() && !Dead->mayHaveSideEffects())
          Dead->eraseFromParent();
        Changed = true;
      }
      continue;
    }
    FloatTys[I] = floatBitsType(*Outlined->getArg(I + 2));
    Any |= FloatTys[I] != nullptr;
  }
  if (!Any)
    return Changed;

  Function *New = byReferenceCopy(*Outlined, FloatTys);
  // The call: the addresses of the values.
  for (unsigned I = 0; I < Shared; ++I)
    if (FloatTys[I]) {
      Value *A = Fork.getArgOperand(ForkSharedArgs + I);
      Fork.setArgOperand(ForkSharedArgs + I, slotFor(Fork, A, FloatTys[I]));
      if (auto *Dead = dyn_cast<Instruction>(A);
          Dead && Dead->use_empty() && !Dead->mayHaveSideEffects())
        Dead->eraseFromParent();
    }
  Fork.setArgOperand(2, New);
  if (Outlined->use_empty())
    Outlined->eraseFromParent();
  return true;
}

} // namespace

bool passFloatFirstprivatesByReference(Function &F) {
  SmallVector<CallBase *, 4> Forks;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (const Function *Callee = Call->getCalledFunction();
          Callee && classifyOpenMPCall(*Callee) == OpenMPCall::Fork)
        Forks.push_back(Call);
  bool Changed = false;
  for (CallBase *Fork : Forks)
    Changed |= passByReference(*Fork);
  return Changed;
}

} // namespace adcore
