//===- FrameReserve.cpp - Records of run-time count in a frame ------------===//
//
// A combined gradient in device code whose records have no bound known at
// compile time (a loop of run-time trip count, recursion) keeps them in a
// reserve in the thread's frame: the bounded records plus
// `adcc_device_tape_bytes` (DeviceTape.cpp places it). Every push checks
// the reserve's end; past it the kernel stops at the record with the
// target's assertion failure (CUDA's `__assertfail`, HIP's `__assert_fail`
// where the module defines it: the record's file, line and function, the
// block and thread), then a trap: nothing is written beyond the buffer.
//
// The sweeps of a recursive function are functions of their own, the
// augmented one pushing, the reverse one popping: their records cannot
// live in either's frame. They share one tape in the frame of each
// function that calls them without being one (the gradient): 16 bytes of
// offset and the reserve, as a tape slot's layout, passed to both sweeps
// as a last parameter and down the recursion.
//
//===----------------------------------------------------------------------===//

#include "Synthesis.h"
#include "device/DeviceTapeParts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace devtape {
namespace {

/// A constant C string of device module \p M (one global per text), as a
/// generic pointer.
Value *deviceString(IRBuilder<> &B, Module &M, StringRef Text) {
  unsigned AS = M.getDataLayout().getDefaultGlobalsAddressSpace();
  Constant *Init = ConstantDataArray::getString(M.getContext(), Text);
  GlobalVariable *G = nullptr;
  for (GlobalVariable &Old : M.globals())
    if (Old.getName().starts_with("adcc.tape.overflow.text") &&
        Old.hasInitializer() && Old.getInitializer() == Init)
      G = &Old;
  if (!G) {
    G = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                           GlobalValue::PrivateLinkage, Init,
                           "adcc.tape.overflow.text", nullptr,
                           GlobalValue::NotThreadLocal, AS);
    G->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    G->setAlignment(Align(1));
  }
  return B.CreatePointerBitCastOrAddrSpaceCast(G, B.getPtrTy());
}

/// The assertion failure that prints a message in device code of \p M:
/// CUDA's `__assertfail` (a system call of PTX), or HIP's `__assert_fail`
/// where the module defines it (HIP's headers, on the device libraries'
/// printf); null where there is none (AMDGPU without HIP's headers).
FunctionCallee assertionFailure(Module &M) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0), *I32 = Type::getInt32Ty(C);
  Type *Void = Type::getVoidTy(C);
  if (M.getTargetTriple().isNVPTX())
    return M.getOrInsertFunction("__assertfail", Void, Ptr, Ptr, I32, Ptr,
                                 Type::getInt64Ty(C));
  Function *Hip = M.getFunction("__assert_fail");
  if (Hip && !Hip->isDeclaration() &&
      Hip->getFunctionType() ==
          FunctionType::get(Void, {Ptr, Ptr, I32, Ptr}, false))
    return Hip;
  return FunctionCallee();
}

/// \p F with a last parameter more, of type \p Param: a new function
/// that takes \p F's name, attributes and body (\p F is left empty).
Function *withStateParameter(Function &F, Type *Param) {
  FunctionType *FT = F.getFunctionType();
  SmallVector<Type *, 8> Params(FT->params());
  Params.push_back(Param);
  Function *NF = Function::Create(
      FunctionType::get(FT->getReturnType(), Params, FT->isVarArg()),
      F.getLinkage(), F.getAddressSpace(), "", F.getParent());
  NF->takeName(&F);
  NF->copyAttributesFrom(&F);
  NF->copyMetadata(&F, 0);
  F.clearMetadata();
  NF->splice(NF->begin(), &F);
  for (auto [Old, New] : zip(F.args(), NF->args())) {
    Old.replaceAllUsesWith(&New);
    New.takeName(&Old);
  }
  NF->getArg(Params.size() - 1)->setName("device.tape.state");
  return NF;
}

} // namespace

void emitFrameOverflow(IRBuilder<> &B, CallInst &Push, uint64_t Capacity,
                       uint64_t Reserve, StringRef Function) {
  Module &M = *Push.getModule();
  if (FunctionCallee Fail = assertionFailure(M)) {
    StringRef File = "<unknown>", Name = Function;
    unsigned Line = 0;
    if (const DILocation *L = Push.getDebugLoc().get()) {
      File = L->getFilename();
      Line = L->getLine();
      if (const DISubprogram *SP = L->getScope()->getSubprogram();
          SP && !SP->getName().empty())
        Name = SP->getName();
    }
    std::string Text =
        ("adcc: the tape of a gradient in device code needs more than its " +
         Twine(Capacity) +
         " bytes per thread (records of a loop of run-time trip count or of "
         "recursion); define adcc_device_tape_bytes larger than " +
         Twine(Reserve))
            .str();
    SmallVector<Value *, 5> Args = {deviceString(B, M, Text),
                                    deviceString(B, M, File), B.getInt32(Line),
                                    deviceString(B, M, Name)};
    if (Fail.getFunctionType()->getNumParams() == 5)
      Args.push_back(B.getInt64(1)); // (CUDA's: the size of a char)
    B.CreateCall(Fail, Args);
  }
  B.CreateIntrinsic(Intrinsic::trap, {});
}

bool shareApartTapes(SynthesisContext &Ctx, MutableArrayRef<ApartSweep> Apart,
                     const SmallPtrSetImpl<const Function *> &SplitSweeps) {
  Module &M = Ctx.module();
  SmallPtrSet<Function *, 8> Sweeps;
  for (ApartSweep &A : Apart)
    Sweeps.insert(A.F);
  auto Refuse = [&](ApartSweep &A) {
    CallInst *At = A.T.Pushes.empty() ? A.T.Pops.front() : A.T.Pushes.front();
    Ctx.error(*At, SeparateSweeps);
    return false;
  };
  // A root runs both sweeps in its frame: it calls a sweep that pushes and
  // one that pops, and is no sweep of split mode (whose two halves run in
  // different kernels, the records in a slot).
  DenseMap<Function *, unsigned> Roots; // (bit 0: calls a push, 1: a pop)
  for (ApartSweep &A : Apart)
    for (User *U : A.F->users()) {
      auto *Call = dyn_cast<CallInst>(U);
      if (!Call || Call->getCalledFunction() != A.F)
        return Refuse(A);
      Function *Caller = Call->getFunction();
      // (Not a sweep made before another and left unused.)
      if (Sweeps.contains(Caller) ||
          (Caller->hasLocalLinkage() && Caller->use_empty()))
        continue;
      if (SplitSweeps.contains(Caller))
        return Refuse(A);
      Roots[Caller] |= A.T.Pushes.empty() ? 2 : 1;
    }
  for (ApartSweep &A : Apart)
    for (User *U : A.F->users())
      if (auto It = Roots.find(cast<CallInst>(U)->getFunction());
          It != Roots.end() && It->second != 3)
        return Refuse(A);
  uint64_t Reserve = slotReserve(M);
  uint64_t Capacity = Reserve;
  for (ApartSweep &A : Apart)
    Capacity = std::max({Capacity, A.T.Bytes, A.T.LargestUnbounded});
  // The roots' states.
  Type *Ptr = PointerType::get(M.getContext(), 0);
  const DataLayout &DL = M.getDataLayout();
  DenseMap<Function *, Value *> State;
  for (auto &[Root, Calls] : Roots) {
    IRBuilder<> EB(&*Root->getEntryBlock().getFirstInsertionPt());
    AllocaInst *Buf =
        EB.CreateAlloca(ArrayType::get(EB.getInt8Ty(), SlotHeader + Capacity),
                        DL.getAllocaAddrSpace(), nullptr, "device.tape.shared");
    Buf->setAlignment(Align(RecordAlign));
    EB.CreateStore(EB.getInt64(0), Buf);
    State[Root] = EB.CreateAddrSpaceCast(Buf, Ptr);
  }
  // The sweeps take the state; their calls pass it on.
  DenseMap<Function *, Function *> New;
  for (ApartSweep &A : Apart) {
    Function *NF = withStateParameter(*A.F, Ptr);
    New[A.F] = NF;
    State[NF] = NF->getArg(NF->arg_size() - 1);
  }
  for (ApartSweep &A : Apart) {
    for (User *U : make_early_inc_range(A.F->users())) {
      auto *Call = cast<CallInst>(U);
      SmallVector<Value *, 8> Args(Call->args());
      // (A caller left unused passes no state: it never runs.)
      Value *St = State.lookup(Call->getFunction());
      Args.push_back(St ? St
                        : ConstantPointerNull::get(cast<PointerType>(Ptr)));
      CallInst *NC = CallInst::Create(New[A.F], Args, "", Call->getIterator());
      NC->takeName(Call);
      NC->setCallingConv(Call->getCallingConv());
      NC->setAttributes(Call->getAttributes());
      NC->setDebugLoc(Call->getDebugLoc());
      NC->setTailCallKind(CallInst::TCK_None);
      Call->replaceAllUsesWith(NC);
      Call->eraseFromParent();
    }
    A.F->eraseFromParent();
    A.F = New[A.F];
  }
  for (ApartSweep &A : Apart) {
    Value *St = State[A.F];
    bumpOffsets(
        A.T, St,
        [&](IRBuilder<> &B) {
          return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), St, SlotHeader);
        },
        Capacity,
        [&](IRBuilder<> &B, CallInst &Push) {
          emitFrameOverflow(B, Push, Capacity, Reserve, Ctx.displayName(*A.F));
        });
  }
  return true;
}

} // namespace devtape
} // namespace adcore
