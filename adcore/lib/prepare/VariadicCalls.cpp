//===- VariadicCalls.cpp - Variadic functions made ordinary ---------------===//
//
// A function declared with `...` whose body never reads its variable
// arguments (no va_start), called with only its fixed arguments, is an
// ordinary function for its derivative. libstdc++'s std::visit names its
// variant through such a lambda (`[](_V0 &__v, ...) -> _V0 & { return __v;
// }(__variants...)`), which stays a call at -O0. Each such call in a
// function to differentiate calls an internal copy of the function
// declared without `...` instead, which the engine differentiates like any
// other.
//
// A call that passes variable arguments to a function that reads them
// (`sum(2, x[0], 2.0)` into `va_arg(ap, double)`) calls a specialization
// for its argument list instead, on x86-64 System V: the extras become
// parameters, stored at entry into a local array laid out as the ABI's
// overflow area, and va_start makes the va_list point at it with its
// register offsets at their ends, so that every va_arg reads the array
// (the register paths, never taken, are removed). The derivative then
// follows the values through that local array. Only where the va_list
// stays within the function (va_start, va_arg's loads and stores, va_end:
// not va_copy) and the extras are doubles, 32- or 64-bit integers or
// pointers; or where it is handed to another function (a `v...` helper,
// whose own va_arg code then takes the overflow area's path) and the
// extras are integers only. A call without extras of a function that reads
// them is specialized too. Other calls stay as they were, and are refused
// where they carry derivatives.
//
//===----------------------------------------------------------------------===//

#include "Prepare.h"

#include "PrimalRewrites.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace adcore {
namespace {

/// Whether \p F reads its variable arguments (va_start or va_copy).
bool readsVariableArguments(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if (II->getIntrinsicID() == Intrinsic::vastart ||
            II->getIntrinsicID() == Intrinsic::vacopy)
          return true;
  return false;
}

/// The internal copy of the variadic \p F declared without `...`.
Function *fixedCopy(Function &F) {
  Module &M = *F.getParent();
  std::string Name = (F.getName() + ".fixed").str();
  if (Function *Copy = M.getFunction(Name))
    return Copy;
  FunctionType *FT = F.getFunctionType();
  auto *Fixed =
      FunctionType::get(FT->getReturnType(), FT->params(), /*isVarArg=*/false);
  Function *Copy =
      Function::Create(Fixed, GlobalValue::InternalLinkage, Name, M);
  ValueToValueMapTy VMap;
  auto To = Copy->arg_begin();
  for (Argument &A : F.args()) {
    To->setName(A.getName());
    VMap[&A] = &*To++;
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Copy, &F, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  Copy->setLinkage(GlobalValue::InternalLinkage);
  return Copy;
}

/// An access to a va_list: the instruction and its byte offset in it.
struct ListAccess {
  Instruction *I;
  int64_t Offset;
};

/// The accesses to the va_list \p List (an alloca) when all its uses are
/// va_start, va_end, lifetime markers, loads and stores at constant
/// offsets, and calls that take the list's address (a `v...` helper given
/// the va_list: \p Handed set); false otherwise.
bool listAccesses(AllocaInst &List, SmallVectorImpl<ListAccess> &Out,
                  bool &Handed) {
  const DataLayout &DL = List.getDataLayout();
  SmallVector<std::pair<Value *, int64_t>, 8> Work = {{&List, 0}};
  while (!Work.empty()) {
    auto [V, Offset] = Work.pop_back_val();
    for (User *U : V->users()) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I)
        return false;
      if (auto *GEP = dyn_cast<GetElementPtrInst>(I)) {
        APInt Delta(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        if (!GEP->accumulateConstantOffset(DL, Delta))
          return false;
        Work.push_back({GEP, Offset + Delta.getSExtValue()});
        continue;
      }
      if (auto *SI = dyn_cast<StoreInst>(I)) {
        if (SI->getValueOperand() == V)
          return false;
      } else if (auto *II = dyn_cast<IntrinsicInst>(I)) {
        Intrinsic::ID ID = II->getIntrinsicID();
        if (ID != Intrinsic::vastart && ID != Intrinsic::vaend &&
            !II->isLifetimeStartOrEnd())
          return false;
      } else if (auto *Call = dyn_cast<CallInst>(I)) {
        if (Offset != 0 || Call->getCalledOperand() == V)
          return false;
        Handed = true;
        continue;
      } else if (!isa<LoadInst>(I)) {
        return false;
      }
      Out.push_back({I, Offset});
    }
  }
  return true;
}

/// The va_lists of \p F (va_start's operands), when each can be made to
/// read an array (listAccesses) and nothing copies one; \p Handed set when
/// one is given to another function.
bool readableLists(Function &F, SmallVectorImpl<AllocaInst *> &Lists,
                   bool &Handed) {
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
      if (II->getIntrinsicID() == Intrinsic::vacopy)
        return false;
      if (II->getIntrinsicID() != Intrinsic::vastart)
        continue;
      auto *List =
          dyn_cast<AllocaInst>(getUnderlyingObject(II->getArgOperand(0)));
      SmallVector<ListAccess, 8> Unused;
      if (!List || !listAccesses(*List, Unused, Handed))
        return false;
      if (!is_contained(Lists, List))
        Lists.push_back(List);
    }
  return !Lists.empty();
}

/// Whether the variable argument \p V has a type laid out here: one
/// eight-byte slot of the overflow area.
bool hasSlotType(const Value *V) {
  Type *T = V->getType();
  return T->isDoubleTy() || T->isIntegerTy(32) || T->isIntegerTy(64) ||
         T->isPointerTy();
}

// x86-64 System V: the va_list's fields and the ends of the register
// save area's general and floating-point parts.
constexpr int64_t GpOffsetField = 0, FpOffsetField = 4, OverflowField = 8,
                  RegSaveField = 16;
constexpr unsigned GpEnd = 48, FpEnd = 176;

/// In \p Spec (a copy of a variadic function taking its extras from
/// parameter \p FirstExtra on), points each va_list of \p Lists at an
/// array holding the extras, with the register offsets at their ends.
void readExtrasFromArray(Function &Spec, unsigned FirstExtra,
                         ArrayRef<AllocaInst *> Lists) {
  const DataLayout &DL = Spec.getDataLayout();
  unsigned Slots = Spec.arg_size() - FirstExtra;
  IRBuilder<> B(&*Spec.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Area = B.CreateAlloca(
      ArrayType::get(B.getInt64Ty(), std::max(Slots, 1u)), nullptr,
      "va.overflow");
  Area->setAlignment(Align(16));
  for (unsigned I = 0; I < Slots; ++I)
    B.CreateStore(Spec.getArg(FirstExtra + I),
                  B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Area, 8 * I));
  SmallVector<Instruction *, 16> Offsets, Erase;
  for (AllocaInst *List : Lists) {
    SmallVector<ListAccess, 16> Accesses;
    bool Handed = false;
    listAccesses(*List, Accesses, Handed);
    for (const ListAccess &A : Accesses) {
      auto *II = dyn_cast<IntrinsicInst>(A.I);
      if (II && II->getIntrinsicID() == Intrinsic::vastart) {
        IRBuilder<> At(II);
        auto Field = [&](int64_t Offset) {
          return At.CreateConstInBoundsGEP1_64(At.getInt8Ty(),
                                               II->getArgOperand(0), Offset);
        };
        At.CreateStore(At.getInt32(GpEnd), Field(GpOffsetField));
        At.CreateStore(At.getInt32(FpEnd), Field(FpOffsetField));
        At.CreateStore(Area, Field(OverflowField));
        At.CreateStore(Area, Field(RegSaveField));
        Erase.push_back(II);
      } else if (II && II->getIntrinsicID() == Intrinsic::vaend) {
        Erase.push_back(II);
      } else if (auto *LI = dyn_cast<LoadInst>(A.I);
                 LI && LI->getType()->isIntegerTy(32) &&
                 (A.Offset == GpOffsetField || A.Offset == FpOffsetField)) {
        // (The register paths run only while an offset is below its end:
        // never, so the offsets keep their first values.)
        LI->replaceAllUsesWith(ConstantInt::get(
            LI->getType(), A.Offset == GpOffsetField ? GpEnd : FpEnd));
        Erase.push_back(LI);
      }
    }
  }
  for (Instruction *I : Erase)
    I->eraseFromParent();
  // Fold the register paths' conditions, then remove those paths.
  bool Folded = true;
  while (Folded) {
    Folded = false;
    for (Instruction &I : make_early_inc_range(instructions(Spec)))
      if (isa<CmpInst>(I) || isa<BinaryOperator>(I) || isa<CastInst>(I))
        if (Constant *K = ConstantFoldInstruction(&I, DL)) {
          I.replaceAllUsesWith(K);
          I.eraseFromParent();
          Folded = true;
        }
  }
  for (BasicBlock &BB : Spec)
    ConstantFoldTerminator(&BB, /*DeleteDeadConditions=*/true);
  removeUnreachableBlocks(Spec);
}

/// The internal copy of the variadic \p F that takes \p Call's variable
/// arguments as parameters and reads them from an array.
Function *specialization(Function &F, const CallBase &Call,
                         ArrayRef<AllocaInst *> Lists) {
  Module &M = *F.getParent();
  SmallVector<Type *, 8> Params(F.getFunctionType()->params());
  std::string Name = (F.getName() + ".va").str();
  for (unsigned I = F.arg_size(); I < Call.arg_size(); ++I) {
    Type *T = Call.getArgOperand(I)->getType();
    Params.push_back(T);
    Name += T->isDoubleTy() ? ".d" : T->isPointerTy() ? ".p" : ".i";
    if (T->isIntegerTy())
      Name += std::to_string(T->getIntegerBitWidth());
  }
  if (Function *Done = M.getFunction(Name))
    return Done;
  auto *FT = FunctionType::get(F.getReturnType(), Params, /*isVarArg=*/false);
  Function *Spec = Function::Create(FT, GlobalValue::InternalLinkage, Name, M);
  ValueToValueMapTy VMap;
  auto To = Spec->arg_begin();
  for (Argument &A : F.args()) {
    To->setName(A.getName());
    VMap[&A] = &*To++;
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Spec, &F, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  Spec->setLinkage(GlobalValue::InternalLinkage);
  SmallVector<AllocaInst *, 2> Copied;
  for (AllocaInst *List : Lists)
    Copied.push_back(cast<AllocaInst>(VMap[List]));
  readExtrasFromArray(*Spec, F.arg_size(), Copied);
  return Spec;
}

/// A call passing variable arguments to \p F, which reads them: a call of
/// its specialization for the call's argument list, where one can be made.
bool specializeVariadicCall(CallBase &Call, Function &F) {
  Triple TT(F.getParent()->getTargetTriple());
  if (TT.getArch() != Triple::x86_64 || TT.isOSWindows() ||
      !isa<CallInst>(Call) || Call.hasOperandBundles())
    return false;
  for (unsigned I = F.arg_size(); I < Call.arg_size(); ++I)
    if (!hasSlotType(Call.getArgOperand(I)))
      return false;
  SmallVector<AllocaInst *, 2> Lists;
  bool Handed = false;
  if (!readableLists(F, Lists, Handed))
    return false;
  // A va_list given to another function is read there by va_arg's own
  // code, which takes the overflow area's path (the register offsets are at
  // their ends): right at run time, but the derivative would follow values
  // through the register paths too. Only integers, then: no derivative
  // goes through the list (KANN's `kad_feed(int n_d, ...)` handing its
  // dimensions to `kad_vleaf`).
  if (Handed)
    for (unsigned I = F.arg_size(); I < Call.arg_size(); ++I)
      if (!Call.getArgOperand(I)->getType()->isIntegerTy())
        return false;
  Function *Spec = specialization(F, Call, Lists);
  SmallVector<Value *, 8> Args(Call.args());
  auto *New = CallInst::Create(Spec, Args, "", Call.getIterator());
  New->setDebugLoc(Call.getDebugLoc());
  New->setCallingConv(Call.getCallingConv());
  New->takeName(&Call);
  Call.replaceAllUsesWith(New);
  Call.eraseFromParent();
  return true;
}

bool rewriteVariadicCall(CallBase &Call) {
  Function *F = Call.getCalledFunction();
  if (!F || !F->isVarArg() || F->isDeclaration() || F->isInterposable() ||
      Call.isMustTailCall())
    return false;
  if (Call.arg_size() == F->arg_size() && !readsVariableArguments(*F)) {
    Call.setCalledFunction(fixedCopy(*F));
    return true;
  }
  return specializeVariadicCall(Call, *F);
}

} // namespace

bool rewriteVariadicCalls(Function &F) {
  return rewriteEach<CallBase>(F, rewriteVariadicCall);
}

} // namespace adcore
