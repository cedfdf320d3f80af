//===- NullShadowGuards.cpp - Accesses through shadows that may be null ---===//
//
// See NullShadowGuards.h. Reads and writes are selects of their address
// (no new blocks: the reverse sweep mirrors the augmented sweep's blocks);
// copies and clears of a length known only at run time call small helper
// functions, made once per module.
//
//===----------------------------------------------------------------------===//

#include "NullShadowGuards.h"
#include "CallSites.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

constexpr const char *OrScratchName = "adcc.null.shadow.or.scratch";
constexpr const char *StripName = "adcc.null.shadow.strip";

/// A block of at least \p Bytes bytes aligned to \p A, named \p Prefix and
/// its size: constant zeros, or (\p Sink) a block written and never read.
GlobalVariable *sizedBlock(Module &M, StringRef Prefix, uint64_t Bytes, Align A,
                           bool Sink) {
  Bytes = std::max<uint64_t>(Bytes, 64);
  std::string Name = (Prefix + Twine(Bytes)).str();
  auto *Ty = ArrayType::get(Type::getInt8Ty(M.getContext()), Bytes);
  auto *G = dyn_cast_or_null<GlobalVariable>(M.getNamedValue(Name));
  if (!G)
    G = new GlobalVariable(M, Ty, /*isConstant=*/!Sink,
                           GlobalValue::PrivateLinkage,
                           Constant::getNullValue(Ty), Name);
  if (G->getAlign().valueOrOne() < A)
    G->setAlignment(A);
  return G;
}

uint64_t storeBytes(IRBuilder<> &B, Type *Ty) {
  return B.GetInsertBlock()->getModule()->getDataLayout().getTypeStoreSize(Ty);
}

/// The helper `void name(ptr dst, ptr src, i64 len)` (\p Copy) or
/// `void name(ptr dst, i64 len)`.
Function *helper(Module &M, bool Copy) {
  StringRef Name = Copy ? "adcc.shadow.copy" : "adcc.shadow.clear";
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  SmallVector<Type *, 3> Params{Ptr};
  if (Copy)
    Params.push_back(Ptr);
  Params.push_back(I64);
  auto *F =
      Function::Create(FunctionType::get(Type::getVoidTy(C), Params, false),
                       GlobalValue::PrivateLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  Argument *Dst = F->getArg(0), *Len = F->getArg(Copy ? 2 : 1);
  Argument *Src = Copy ? F->getArg(1) : nullptr;
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Work = BasicBlock::Create(C, "work", F);
  auto *Zero = BasicBlock::Create(C, "zero", F);
  auto *Move = BasicBlock::Create(C, "move", F);
  auto *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateIsNull(Dst), Done, Work);
  B.SetInsertPoint(Work);
  if (Copy)
    B.CreateCondBr(B.CreateIsNull(Src), Zero, Move);
  else
    B.CreateBr(Zero);
  B.SetInsertPoint(Zero);
  B.CreateMemSet(Dst, B.getInt8(0), Len, MaybeAlign());
  B.CreateBr(Done);
  B.SetInsertPoint(Move);
  if (Copy)
    B.CreateMemMove(Dst, MaybeAlign(), Src, MaybeAlign(), Len);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

/// The helper `ptr name(ptr shadow[, ptr primal, i32 lane])`: the shadow
/// where it is null (\p Or: non-null), else what the runtime gives for
/// (Or) the primal and lane, or (strip) the shadow.
Function *scratchHelper(Module &M, bool Or) {
  StringRef Name = Or ? OrScratchName : StripName;
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  Type *I32 = Type::getInt32Ty(C);
  SmallVector<Type *, 3> Params{Ptr};
  if (Or) {
    Params.push_back(Ptr);
    Params.push_back(I32);
  }
  auto *FTy = FunctionType::get(Ptr, Params, false);
  auto *F = Function::Create(FTy, GlobalValue::PrivateLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  // (A compare where the shadow is known: inlined.)
  F->addFnAttr(Attribute::AlwaysInline);
  FunctionCallee Runtime =
      Or ? M.getOrInsertFunction("adcc_null_shadow",
                                 FunctionType::get(Ptr, {Ptr, I32}, false))
         : M.getOrInsertFunction("adcc_null_shadow_strip",
                                 FunctionType::get(Ptr, {Ptr}, false));
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Call = BasicBlock::Create(C, "call", F);
  auto *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  Value *Shadow = F->getArg(0);
  Value *IsNull = B.CreateIsNull(Shadow);
  B.CreateCondBr(IsNull, Or ? Call : Done, Or ? Done : Call);
  B.SetInsertPoint(Call);
  Value *Got = Or ? B.CreateCall(Runtime, {F->getArg(1), F->getArg(2)})
                  : B.CreateCall(Runtime, {Shadow});
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  PHINode *Phi = B.CreatePHI(Ptr, 2);
  Phi->addIncoming(Shadow, Entry);
  Phi->addIncoming(Got, Call);
  B.CreateRet(Phi);
  return F;
}

/// Whether scratch shadows can stand behind the null shadow \p Shadow: on
/// the host (the runtime reserves the pages), in the default address space.
bool scratchApplies(IRBuilder<> &B, Value *Shadow) {
  const Module &M = *B.GetInsertBlock()->getModule();
  const Triple &TT = M.getTargetTriple();
  return Shadow->getType()->isPointerTy() &&
         Shadow->getType()->getPointerAddressSpace() == 0 && !TT.isNVPTX() &&
         !TT.isAMDGPU();
}

} // namespace

bool lacksNullShadowScratch(const Module &M) {
  const Triple &TT = M.getTargetTriple();
  return TT.isNVPTX() || TT.isAMDGPU();
}

FunctionCallee guardedAdjointCopy(Module &M, StringRef Name, bool Strided) {
  std::string Wrapper = (Name + ".guarded").str();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  auto *FTy =
      Strided
          ? FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, I64, I64}, false)
          : FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, I64}, false);
  if (Function *F = M.getFunction(Wrapper))
    return {FTy, F};
  auto *F = Function::Create(FTy, GlobalValue::PrivateLinkage, Wrapper, M);
  F->addFnAttr(Attribute::NoUnwind);
  // The runtime's strided copy takes a null source (it clears dst).
  StringRef StridedName = Name.ends_with("f32")
                              ? "adcc_adjoint_copy_strided_f32"
                              : "adcc_adjoint_copy_strided_f64";
  uint64_t Size = Name.ends_with("f32") ? 4 : 8;
  FunctionCallee Inner = M.getOrInsertFunction(Name, FTy);
  FunctionCallee Clear = M.getOrInsertFunction(
      StridedName,
      FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, I64, I64}, false));
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Work = BasicBlock::Create(C, "work", F);
  auto *Drop = BasicBlock::Create(C, "drop", F);
  auto *Copy = BasicBlock::Create(C, "copy", F);
  auto *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  Value *Dst = F->getArg(0), *Src = F->getArg(1);
  B.CreateCondBr(B.CreateIsNull(Dst), Done, Work);
  B.SetInsertPoint(Work);
  B.CreateCondBr(B.CreateIsNull(Src), Drop, Copy);
  B.SetInsertPoint(Drop);
  if (Strided)
    B.CreateCall(Clear, {Dst, Src, F->getArg(2), F->getArg(3)});
  else
    B.CreateCall(Clear, {Dst, Src, B.CreateUDiv(F->getArg(2), B.getInt64(Size)),
                         B.getInt64(Size)});
  B.CreateBr(Done);
  B.SetInsertPoint(Copy);
  SmallVector<Value *, 4> Args(llvm::make_pointer_range(F->args()));
  B.CreateCall(Inner, Args);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return {FTy, F};
}

Constant *zeroBlock(Module &M, uint64_t Bytes, Align A) {
  return sizedBlock(M, "adcc.zero.tangents.", Bytes, A, /*Sink=*/false);
}

Value *guardedReadAddress(IRBuilder<> &B, Value *Addr, Type *Ty, Align A) {
  Module &M = *B.GetInsertBlock()->getModule();
  // (Cast to the address's space: AMDGPU's globals are in their own.)
  Constant *Zeros = ConstantExpr::getPointerBitCastOrAddrSpaceCast(
      zeroBlock(M, storeBytes(B, Ty), A), Addr->getType());
  return B.CreateSelect(B.CreateIsNull(Addr), Zeros, Addr,
                        Addr->getName() + ".or.zeros");
}

Value *guardedWriteAddress(IRBuilder<> &B, Value *Addr, Type *Ty, Align A) {
  Module &M = *B.GetInsertBlock()->getModule();
  Constant *Sink = ConstantExpr::getPointerBitCastOrAddrSpaceCast(
      sizedBlock(M, ShadowSinkPrefix, storeBytes(B, Ty), A, /*Sink=*/true),
      Addr->getType());
  return B.CreateSelect(B.CreateIsNull(Addr), Sink, Addr,
                        Addr->getName() + ".or.sink");
}

Value *nullKeepingGEP(IRBuilder<> &B, Type *SourceTy, Value *Base,
                      ArrayRef<Value *> Idx, const Twine &Name,
                      GEPNoWrapFlags NW) {
  Value *GEP = B.CreateGEP(SourceTy, Base, Idx, Name, NW);
  return B.CreateSelect(B.CreateIsNull(Base),
                        Constant::getNullValue(GEP->getType()), GEP,
                        Name + ".or.null");
}

Value *shadowByteOffset(IRBuilder<> &B, Value *Base, int64_t Offset,
                        bool Guarded) {
  if (Guarded)
    return nullKeepingGEP(B, B.getInt8Ty(), Base, B.getInt64(Offset),
                          Base->getName(), GEPNoWrapFlags::none());
  return B.CreateConstGEP1_64(B.getInt8Ty(), Base, Offset);
}

void guardedShadowCopy(IRBuilder<> &B, Value *Dst, Value *Src, Value *Len) {
  Module &M = *B.GetInsertBlock()->getModule();
  B.CreateCall(helper(M, /*Copy=*/true),
               {Dst, Src, B.CreateZExtOrTrunc(Len, B.getInt64Ty())});
}

void guardedShadowClear(IRBuilder<> &B, Value *Dst, Value *Len) {
  Module &M = *B.GetInsertBlock()->getModule();
  B.CreateCall(helper(M, /*Copy=*/false),
               {Dst, B.CreateZExtOrTrunc(Len, B.getInt64Ty())});
}

Value *nullShadowOrScratch(IRBuilder<> &B, Value *Shadow, Value *Primal,
                           unsigned Lane) {
  if (!scratchApplies(B, Shadow) || isa<ConstantPointerNull>(Primal))
    return Shadow;
  Module &M = *B.GetInsertBlock()->getModule();
  return B.CreateCall(scratchHelper(M, /*Or=*/true),
                      {Shadow, Primal, B.getInt32(Lane)},
                      Shadow->getName() + ".or.scratch");
}

Value *strippedNullShadow(IRBuilder<> &B, Value *Shadow) {
  if (!scratchApplies(B, Shadow) || isa<ConstantPointerNull>(Shadow))
    return Shadow;
  Module &M = *B.GetInsertBlock()->getModule();
  return B.CreateCall(scratchHelper(M, /*Or=*/false), {Shadow},
                      Shadow->getName() + ".stripped");
}

bool isNullShadowScratch(const Function &F) {
  return F.getName() == OrScratchName;
}

bool isNullShadowStrip(const Function &F) { return F.getName() == StripName; }

int forwardScratchLevelOf(const Value *V) {
  const auto *Call = dyn_cast<CallBase>(V);
  const Function *F = Call ? Call->getCalledFunction() : nullptr;
  if (!F || !isNullShadowScratch(*F) || Call->arg_size() != 3)
    return -1;
  const auto *Lane = dyn_cast<ConstantInt>(Call->getArgOperand(2));
  return Lane ? int(Lane->getZExtValue() >> 24) : 0;
}

bool usesNullShadowScratch(const Module &M) {
  return M.getFunction(OrScratchName) != nullptr;
}

static CallInst *sessionCall(IRBuilder<> &B, StringRef Name,
                             Value *Arg = nullptr) {
  Module &M = *B.GetInsertBlock()->getModule();
  if (!Arg)
    return B.CreateCall(
        M.getOrInsertFunction(Name, FunctionType::get(B.getVoidTy(), false)));
  return B.CreateCall(
      M.getOrInsertFunction(
          Name, FunctionType::get(B.getVoidTy(), {Arg->getType()}, false)),
      {Arg});
}

CallInst *enterNullShadowSession(IRBuilder<> &B) {
  return sessionCall(B, "adcc_null_shadows_enter");
}

void leaveNullShadowSession(IRBuilder<> &B) {
  sessionCall(B, "adcc_null_shadows_leave");
}

void suspendNullShadowSession(IRBuilder<> &B, Value *Handle) {
  sessionCall(B, "adcc_null_shadows_suspend", Handle);
}

CallInst *resumeNullShadowSession(IRBuilder<> &B, Value *Tape) {
  return sessionCall(B, "adcc_null_shadows_resume", Tape);
}

void restoreNullShadowsOnUnwind(InvokeInst &Invoke, CallInst &Enter) {
  BasicBlock *Unwind = Invoke.getUnwindDest();
  if (!isa<LandingPadInst>(Unwind->getFirstNonPHIIt()))
    return;
  Function &F = *Invoke.getFunction();
  Module &M = *F.getParent();
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C);
  // (A slot: the landing pad may be reached before the request: then it
  // holds UINT_MAX, which restores nothing.)
  IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Slot = Entry.CreateAlloca(I32, nullptr, "adcc.null.level");
  Entry.CreateStore(ConstantInt::getAllOnesValue(I32), Slot);
  IRBuilder<> Before(&Enter);
  Before.CreateStore(
      Before.CreateCall(M.getOrInsertFunction("adcc_null_shadows_level",
                                              FunctionType::get(I32, false))),
      Slot);
  IRBuilder<> Pad(&*Unwind->getFirstInsertionPt());
  sessionCall(Pad, "adcc_null_shadows_restore", Pad.CreateLoad(I32, Slot));
}

void inlineNullShadowHelpers(Module &M) {
  inlineHelperCalls(M, OrScratchName);
  inlineHelperCalls(M, StripName);
}

void restoreNullShadowHelpers(Module &M) {
  for (bool Or : {true, false}) {
    Function *Runtime =
        M.getFunction(Or ? "adcc_null_shadow" : "adcc_null_shadow_strip");
    if (!Runtime || Runtime->use_empty())
      continue;
    SmallVector<CallInst *, 16> Calls;
    for (User *U : Runtime->users())
      if (auto *Call = dyn_cast<CallInst>(U);
          Call && Call->getCalledOperand() == Runtime &&
          Call->arg_size() == (Or ? 2u : 1u) &&
          Call->getFunction()->getName() != (Or ? OrScratchName : StripName))
        Calls.push_back(Call);
    if (Calls.empty())
      continue;
    Function *Helper = scratchHelper(M, Or);
    for (CallInst *Call : Calls) {
      // (The runtime is called where the shadow is null (Or) or not
      // (strip): the helper called with that shadow calls it alike.)
      IRBuilder<> B(Call);
      SmallVector<Value *, 3> Args;
      if (Or)
        Args = {Constant::getNullValue(Call->getType()),
                Call->getArgOperand(0), Call->getArgOperand(1)};
      else
        Args = {Call->getArgOperand(0)};
      CallInst *New = B.CreateCall(Helper, Args);
      New->takeName(Call);
      New->setDebugLoc(Call->getDebugLoc());
      Call->replaceAllUsesWith(New);
      Call->eraseFromParent();
    }
  }
}

Value *lengthUnlessPrimal(IRBuilder<> &B, Value *Dest, Value *Shadow,
                          Value *Len) {
  // (A local variable's or a block the function allocates has a shadow of
  // adcc's, never the primal's memory. Tested anyway at -O0, the length
  // was no longer a constant, and a reverse sweep of this derivative could
  // not type a copy of an array of structs of ints and doubles: e2e
  // rev_over_rev.c, copies.)
  const Value *Obj = getUnderlyingObject(Dest);
  if (isa<AllocaInst>(Obj) || isNoAliasCall(Obj))
    return Len;
  return B.CreateSelect(B.CreateICmpEQ(Shadow, Dest),
                        Constant::getNullValue(Len->getType()), Len);
}

} // namespace adcore
