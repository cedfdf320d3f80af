//===- PointerShadowMarks.cpp - Pointer shadows, then floats -------------===//
//
// See PointerShadowMarks.h. The clearing tests the thread's flag of live
// marks (adcc_shadow_marks_live) before it calls the runtime: a load and a
// branch where no pointer's shadow was marked.
//
//===----------------------------------------------------------------------===//

#include "PointerShadowMarks.h"
#include "CallSites.h"
#include "SweepShadowClears.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

constexpr const char *MarkName = "adcc_shadow_mark_pointer";
constexpr const char *MarkStoredName = "adcc_shadow_mark_stored_pointer";
constexpr const char *UnmarkName = "adcc_shadow_unmark_pointer";
constexpr const char *OwnedName = "adcc_shadow_marks_owned";
constexpr const char *EndName = "adcc_shadow_marks_end";
constexpr const char *ClearName = "adcc_shadow_clear_pointers";
constexpr const char *BeginName = "adcc_shadow_marks_begin";
constexpr const char *LoadedName = "adcc_shadow_mark_loaded_pointer";
constexpr const char *LoadedHelperName = "adcc.shadow.mark.loaded";
constexpr const char *LiveName = "adcc_shadow_marks_live";
constexpr const char *HelperName = "adcc.shadow.clear.pointers";
constexpr const char *PairName = "adcc_shadow_marks_pair";
constexpr const char *NestName = "adcc_shadow_marks_nest";
constexpr const char *UnnestName = "adcc_shadow_marks_unnest";

/// `if (adcc_shadow_marks_live) adcc_shadow_clear_pointers(shadow, bytes)`.
Function *clearHelper(Module &M) {
  if (Function *F = M.getFunction(HelperName))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0), *I64 = Type::getInt64Ty(C);
  Type *I32 = Type::getInt32Ty(C);
  auto *FT = FunctionType::get(Type::getVoidTy(C), {Ptr, I64, I32}, false);
  Function *F =
      Function::Create(FT, GlobalValue::InternalLinkage, HelperName, M);
  F->addFnAttr(Attribute::NoUnwind);
  auto *Live = dyn_cast<GlobalVariable>(M.getOrInsertGlobal(LiveName, I64));
  Live->setThreadLocal(true);
  FunctionCallee Clear = M.getOrInsertFunction(
      ClearName,
      FunctionType::get(Type::getVoidTy(C), {Ptr, I64, I32}, false));
  // (It writes the shadow bytes at its argument and the runtime's own
  // table, never the flag: a loop of stores tests the flag once, where
  // the loop marks no pointer's shadow.)
  if (auto *ClearFn = dyn_cast<Function>(Clear.getCallee())) {
    ClearFn->setMemoryEffects(MemoryEffects::argMemOnly() |
                              MemoryEffects::inaccessibleMemOnly());
    ClearFn->addFnAttr(Attribute::NoUnwind);
  }
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Call = BasicBlock::Create(C, "marked", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  Value *Addr = B.CreateThreadLocalAddress(Live);
  Value *Any = B.CreateICmpNE(B.CreateLoad(I64, Addr, "live"),
                              ConstantInt::get(I64, 0));
  B.CreateCondBr(Any, Call, Done);
  B.SetInsertPoint(Call);
  B.CreateCall(Clear, {F->getArg(0), F->getArg(1), F->getArg(2)});
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

/// `if (shadow != primal) adcc_shadow_mark_loaded_pointer(shadow, bytes,
/// level)`. (Memory without derivatives, whose shadow is the primal memory
/// itself, holds no pointer's shadow to put back.) The pointer's shadow
/// itself is not read: a load of a shadow the derivative does not use
/// (a shadow object's vtable pointer, never set) may read no memory.
Function *loadedHelper(Module &M) {
  if (Function *F = M.getFunction(LoadedHelperName))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0), *I64 = Type::getInt64Ty(C);
  Type *I32 = Type::getInt32Ty(C);
  auto *FT =
      FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, I64, I32}, false);
  Function *F =
      Function::Create(FT, GlobalValue::InternalLinkage, LoadedHelperName, M);
  F->addFnAttr(Attribute::NoUnwind);
  FunctionCallee Mark = M.getOrInsertFunction(
      LoadedName,
      FunctionType::get(Type::getVoidTy(C), {Ptr, I64, I32}, false));
  // (It writes the flag of live marks that the clearing reads.)
  if (auto *Fn = dyn_cast<Function>(Mark.getCallee()))
    Fn->addFnAttr(Attribute::NoUnwind);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Call = BasicBlock::Create(C, "shadowed", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateICmpNE(F->getArg(0), F->getArg(1)), Call, Done);
  B.SetInsertPoint(Call);
  B.CreateCall(Mark, {F->getArg(0), F->getArg(2), F->getArg(3)});
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

} // namespace

void markPointerShadow(IRBuilder<> &B, Value *Shadow, uint64_t Bytes,
                       unsigned Level, bool Recorded) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Mark = M.getOrInsertFunction(
      Recorded ? MarkStoredName : MarkName,
      FunctionType::get(B.getVoidTy(),
                        {B.getPtrTy(), B.getInt64Ty(), B.getInt32Ty()},
                        false));
  B.CreateCall(Mark, {Shadow, B.getInt64(Bytes), B.getInt32(Level)});
}

void unmarkPointerShadow(IRBuilder<> &B, Value *Shadow, uint64_t Bytes,
                         unsigned Level) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Unmark = M.getOrInsertFunction(
      UnmarkName,
      FunctionType::get(B.getVoidTy(),
                        {B.getPtrTy(), B.getInt64Ty(), B.getInt32Ty()}, false));
  if (auto *Fn = dyn_cast<Function>(Unmark.getCallee()))
    Fn->addFnAttr(Attribute::NoUnwind);
  B.CreateCall(Unmark, {Shadow, B.getInt64(Bytes), B.getInt32(Level)});
}

void ownPointerShadowBlock(IRBuilder<> &B, Value *Block, Value *Bytes) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Owned = M.getOrInsertFunction(
      OwnedName, FunctionType::get(B.getVoidTy(),
                                   {B.getPtrTy(), B.getInt64Ty()}, false));
  if (auto *Fn = dyn_cast<Function>(Owned.getCallee())) {
    Fn->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
    Fn->addFnAttr(Attribute::NoUnwind);
  }
  B.CreateCall(Owned, {Block, B.CreateZExtOrTrunc(Bytes, B.getInt64Ty())});
}

CallInst *endPointerShadowMarks(IRBuilder<> &B, unsigned Level) {
  Module &M = *B.GetInsertBlock()->getModule();
  return B.CreateCall(
      M.getOrInsertFunction(EndName, FunctionType::get(B.getVoidTy(),
                                                       {B.getInt32Ty()},
                                                       false)),
      {B.getInt32(Level)});
}

void clearPointerShadows(IRBuilder<> &B, Value *Shadow, Value *Bytes,
                         Value *Level) {
  Module &M = *B.GetInsertBlock()->getModule();
  B.CreateCall(clearHelper(M),
               {Shadow, B.CreateZExtOrTrunc(Bytes, B.getInt64Ty()), Level});
}

void markLoadedPointerShadow(IRBuilder<> &B, Value *Shadow, Value *Primal,
                             uint64_t Bytes, unsigned Level) {
  B.CreateCall(loadedHelper(*B.GetInsertBlock()->getModule()),
               {Shadow, Primal, B.getInt64(Bytes), B.getInt32(Level)});
}

bool isPointerMarkCall(const Instruction &I) {
  const auto *Call = dyn_cast<CallInst>(&I);
  const Function *F = Call ? Call->getCalledFunction() : nullptr;
  if (!F)
    return false;
  StringRef Name = F->getName();
  return Name == MarkName || Name == MarkStoredName || Name == UnmarkName ||
         Name == ClearName || Name == HelperName || Name == LoadedName ||
         Name == LoadedHelperName ||
         isSweepShadowClearName(Name);
}

bool isTangentMirroredMarkFunction(const Function &F) {
  StringRef Name = F.getName();
  return Name == MarkName || Name == MarkStoredName || Name == UnmarkName ||
         Name == ClearName || Name == HelperName || Name == LoadedName ||
         Name == LoadedHelperName || Name == OwnedName ||
         isSweepShadowClearName(Name);
}

void mirrorPointerMarkCall(IRBuilder<> &B, CallBase &Call,
                           function_ref<Value *(Value *)> Tangent) {
  Module &M = *B.GetInsertBlock()->getModule();
  StringRef Name = Call.getCalledFunction()->getName();
  Value *Shadow = Call.getArgOperand(0);
  Value *T = Tangent(Shadow);
  // (A tangent that is the shadow itself: those bytes get the call once.)
  if (!T || T == Shadow)
    return;
  SmallVector<Value *, 4> Args(Call.args());
  Args[0] = T;
  if (Name == LoadedHelperName) {
    // (Tested against the primal's tangent: the tangent of memory
    // without derivatives is the primal's.)
    Value *Primal = Call.getArgOperand(1);
    Value *TP = Tangent(Primal);
    Args[1] = TP ? TP : Primal;
    B.CreateCall(loadedHelper(M), Args);
    return;
  }
  if (Name == LoadedName) {
    // (Inlined already: tested against the shadow, which it then is.)
    B.CreateCall(loadedHelper(M), {T, Shadow, Args[1], Args[2]});
    return;
  }
  if (Name == ClearName || Name == HelperName) {
    B.CreateCall(clearHelper(M), Args);
    return;
  }
  B.CreateCall(Call.getFunctionType(), Call.getCalledOperand(), Args);
}

bool isStoredPointerMarkFunction(const Function &F) {
  return F.getName() == MarkStoredName;
}

void pairNestedPointerMark(IRBuilder<> &B, CallBase &Call, Value *Outer,
                           unsigned OuterLevel) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Pair = M.getOrInsertFunction(
      PairName, FunctionType::get(B.getVoidTy(),
                                  {B.getPtrTy(), B.getPtrTy(), B.getInt64Ty(),
                                   B.getInt32Ty(), B.getInt32Ty()},
                                  false));
  if (auto *Fn = dyn_cast<Function>(Pair.getCallee())) {
    Fn->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
    Fn->addFnAttr(Attribute::NoUnwind);
  }
  B.CreateCall(Pair, {Call.getArgOperand(0), Outer, Call.getArgOperand(1),
                      Call.getArgOperand(2), B.getInt32(OuterLevel)});
}

bool isPointerMarksEndFunction(const Function &F) {
  return F.getName() == EndName;
}

void nestPointerShadowMarks(IRBuilder<> &B, CallBase &End,
                            unsigned OuterLevel) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Nest = M.getOrInsertFunction(
      NestName, FunctionType::get(B.getVoidTy(),
                                  {B.getInt32Ty(), B.getInt32Ty()}, false));
  if (auto *Fn = dyn_cast<Function>(Nest.getCallee())) {
    Fn->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
    Fn->addFnAttr(Attribute::NoUnwind);
  }
  B.CreateCall(Nest, {End.getArgOperand(0), B.getInt32(OuterLevel)});
}

void unnestPointerShadowMarks(IRBuilder<> &B, unsigned OuterLevel) {
  Module &M = *B.GetInsertBlock()->getModule();
  // (It writes the shadow memory of the records it undoes.)
  FunctionCallee Unnest = M.getOrInsertFunction(
      UnnestName, FunctionType::get(B.getVoidTy(), {B.getInt32Ty()}, false));
  if (auto *Fn = dyn_cast<Function>(Unnest.getCallee()))
    Fn->addFnAttr(Attribute::NoUnwind);
  B.CreateCall(Unnest, {B.getInt32(OuterLevel)});
}

bool usesPointerShadowMarks(const Module &M) {
  return M.getFunction(MarkName) || M.getFunction(MarkStoredName) ||
         M.getFunction(LoadedHelperName);
}

CallInst *beginPointerShadowMarks(IRBuilder<> &B, unsigned Level) {
  Module &M = *B.GetInsertBlock()->getModule();
  // (The caller's stack pointer: the request's frames lie below it.)
  Value *Stack = B.CreateStackSave("caller.stack");
  return B.CreateCall(
      M.getOrInsertFunction(
          BeginName, FunctionType::get(B.getVoidTy(),
                                       {B.getPtrTy(), B.getInt32Ty()}, false)),
      {Stack, B.getInt32(Level)});
}

void inlinePointerMarkHelpers(Module &M) {
  inlineHelperCalls(M, HelperName);
  inlineHelperCalls(M, LoadedHelperName);
}

bool isArgumentArraySweep(const Value *Ptr) {
  if (!Ptr || !isa<Argument>(getUnderlyingObject(Ptr)))
    return false;
  for (const Value *V = Ptr; auto *GEP = dyn_cast<GEPOperator>(V);
       V = GEP->getPointerOperand())
    if (!GEP->hasAllConstantIndices())
      return true;
  return false;
}

/// Whether \p Call only reads through \p Address wherever it is given it
/// (`readonly captures(none)` arguments: log_sum_exp(main_term, K)), so
/// that its callee neither writes the block nor keeps its address. Its
/// derivative adds adjoints there, of what it read: the block's kind.
static bool onlyReadsThrough(const CallBase &Call, const Value &Address) {
  if (Call.getCalledOperand() == &Address || Call.hasOperandBundles())
    return false;
  for (const Use &Arg : Call.args())
    if (Arg.get() == &Address &&
        (!Call.onlyReadsMemory(Arg.getOperandNo()) ||
         !Call.doesNotCapture(Arg.getOperandNo())))
      return false;
  return true;
}

bool isPrivateLocalOf(const Value *Ptr, bool Pointers) {
  if (!Ptr)
    return false;
  const auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr));
  return AI && holdsOneKindOnly(AI, Pointers,
                                [](const CallBase &, const Value &) {
                                  return false;
                                });
}

bool holdsOneKindOnly(
    const Value *Object, bool Pointers,
    function_ref<bool(const CallBase &, const Value &)> Releases) {
  auto Holds = [&](Type *T) {
    return Pointers ? T->isPtrOrPtrVectorTy() : T->isFPOrFPVectorTy();
  };
  // (Every address of it, and what each use does.)
  SmallVector<const Value *, 8> Work{Object};
  SmallPtrSet<const Value *, 8> Seen{Object};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (isa<LoadInst>(U))
        continue;
      if (const auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() == V ||
            !Holds(SI->getValueOperand()->getType()))
          return false;
        continue;
      }
      if (const auto *II = dyn_cast<IntrinsicInst>(U);
          II && (II->isLifetimeStartOrEnd() || II->isDebugOrPseudoInst()))
        continue;
      if (isa<GetElementPtrInst, BitCastInst, PHINode, SelectInst>(U)) {
        if (Seen.insert(U).second)
          Work.push_back(U);
        continue;
      }
      if (const auto *Call = dyn_cast<CallBase>(U);
          Call && (Releases(*Call, *V) || onlyReadsThrough(*Call, *V)))
        continue;
      return false;
    }
  }
  return true;
}

} // namespace adcore
