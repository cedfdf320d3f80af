//===- ForwardSplit.cpp - Split forward mode's two sweeps ----------------===//
//
// Split forward mode (__enzyme_augmentfwd, then __enzyme_fwdsplit) computes
// tangents from the primal values of an earlier run, which may have changed
// the memory it read since. The tangent sweep is the forward derivative
// with its copy of the primal's code rewritten:
//   store, memset, memcpy, free, a call without a result  ->  removed
//   load, a call with a result (not a pure one), alloca  ->  the next record
//   arithmetic, compares, branches, pure calls           ->  kept (computed
//                                                           again from the
//                                                           records)
// after which the primal code nothing uses any more is removed, records
// included. A stack slot's address is read too: the pointers the tangent
// sweep reads are the recording sweep's, which a slot of the tangent
// sweep's own frame would not match (`for (p = a; p < a + 3; ++p)` at
// -O0 loads p, which points into the recording sweep's `a`). The
// recording sweep is a copy of the primal that writes, right
// after each value the tangent sweep reads, that value: in the order the
// primal computes them, which is the order the tangent sweep reads them
// (both follow the primal's control flow). A call whose callee has a
// tangent sweep calls the callee's recording sweep at the same place; a
// registered split derivative's augmented function records its tape and
// result there. A call that may throw (an invoke) has its value recorded
// and read on the edge to its normal destination; the tangent sweep
// branches there (the primal did not throw, or there would be no tape).
//
//===----------------------------------------------------------------------===//

#include "ForwardEmitter.h"

#include "support/CallSites.h"
#include "support/MemoryScopes.h"
#include "support/PointerTargets.h"

#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace adcore {
namespace {

/// The place of the next record of \p Bytes bytes: \p Fn is
/// adcc_fwdsplit_read or adcc_fwdsplit_write.
Value *recordPlace(IRBuilder<> &B, StringRef Fn, Value *Records, Type *T) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Ptr = B.getPtrTy();
  FunctionCallee Place = M.getOrInsertFunction(
      Fn, FunctionType::get(Ptr, {Ptr, B.getInt64Ty()}, false));
  uint64_t Bytes = M.getDataLayout().getTypeStoreSize(T).getFixedValue();
  return B.CreateCall(Place, {Records, B.getInt64(Bytes)});
}

void writeRecord(IRBuilder<> &B, Value *Records, Value *V) {
  Value *At = recordPlace(B, "adcc_fwdsplit_write", Records, V->getType());
  tagMemoryClass(*B.CreateAlignedStore(V, At, Align(1)), MemoryClass::Tape);
}

/// A block of its own on the edge from \p I to its normal destination, in
/// which its value is recorded or read.
BasicBlock *normalEdge(InvokeInst &I) {
  BasicBlock *From = I.getParent(), *To = I.getNormalDest();
  BasicBlock *Edge = BasicBlock::Create(I.getContext(), To->getName() + ".edge",
                                        From->getParent(), To);
  BranchInst::Create(To, Edge)->setDebugLoc(I.getDebugLoc());
  I.setNormalDest(Edge);
  To->replacePhiUsesWith(From, Edge);
  return Edge;
}

/// A call through a function pointer in the recording sweep: dispatches
/// on the pointer to the recording sweep of each function it may call,
/// made with the tangent sweeps the tangent sweep dispatches to (\p K
/// without its primal); the call's result is theirs.
void dispatchRecorders(CallInst &C, DerivativeKey K, SynthesisContext &Ctx,
                       Value *Records) {
  Module &M = *C.getModule();
  LLVMContext &Cx = M.getContext();
  SmallVector<Value *, 8> Args(C.args());
  Args.push_back(Records);
  Value *Target = C.getCalledOperand();
  BasicBlock *Head = C.getParent();
  BasicBlock *Tail =
      Head->splitBasicBlock(C.getIterator(), Head->getName() + ".record.join");
  Head->getTerminator()->eraseFromParent();
  IRBuilder<> B(Tail, Tail->begin());
  B.SetCurrentDebugLocation(C.getDebugLoc());
  PHINode *Result = C.getType()->isVoidTy()
                        ? nullptr
                        : B.CreatePHI(C.getType(), 4, "record.indirect");
  BasicBlock *Test = Head;
  for (Function *F : possibleCallTargets(M, C.getFunctionType())) {
    K.Primal = F;
    Function *Rec = Ctx.splitRecorder(K);
    if (!Rec)
      continue; // (not a target the tangent sweep dispatches to)
    BasicBlock *Case = BasicBlock::Create(Cx, "record.case", Head->getParent(),
                                          Tail);
    BasicBlock *Next = BasicBlock::Create(Cx, "record.next",
                                          Head->getParent(), Tail);
    B.SetInsertPoint(Test);
    B.CreateCondBr(pointsToTarget(B, Target, F), Case, Next);
    B.SetInsertPoint(Case);
    Value *Sub = B.CreateCall(Rec, Args);
    if (Result)
      Result->addIncoming(Sub, Case);
    B.CreateBr(Tail);
    Test = Next;
  }
  B.SetInsertPoint(Test);
  B.CreateCall(M.getOrInsertFunction("adcc_unknown_derivative",
                                     Type::getVoidTy(Cx), B.getPtrTy()),
               {Target});
  B.CreateUnreachable();
  if (Result)
    C.replaceAllUsesWith(Result);
  C.eraseFromParent();
}

/// Replaces the invoke \p I by a branch to its normal destination.
void branchToNormal(InvokeInst &I) {
  I.getUnwindDest()->removePredecessor(I.getParent());
  BranchInst::Create(I.getNormalDest(), I.getIterator())
      ->setDebugLoc(I.getDebugLoc());
}

/// Whether the primal's instruction \p I, copied into the tangent sweep,
/// reads or writes memory or has another effect, or is a stack slot whose
/// address is compared with recorded pointers: its value is read from the
/// records, or it is removed.
bool hasEffects(const Instruction &I) {
  return I.mayReadOrWriteMemory() || I.mayHaveSideEffects() ||
         isa<AllocaInst>(I);
}

} // namespace

Value *ForwardEmitter::readRecord(Type *T) {
  Value *At = recordPlace(B, "adcc_fwdsplit_read", Records, T);
  LoadInst *L = B.CreateAlignedLoad(T, At, Align(1), "record");
  tagMemoryClass(*L, MemoryClass::Tape);
  return L;
}

bool ForwardEmitter::emitCustomSplit(CallBase &Call,
                                     const CustomSplitDerivative &Rule) {
  Function &Aug = *Rule.Augmented, &Split = *Rule.Split;
  if (Width != 1)
    return unsupported(Call, "the registered split derivative '" +
                                 Split.getName() +
                                 "' has no batched (width > 1) form");
  if (isa<InvokeInst>(Call))
    return unsupported(Call, "a call that may throw of a function with a "
                             "registered split derivative; declare it "
                             "noexcept");
  for (Use &U : Call.args())
    if (U->getType()->isPointerTy() && tangentOrNull(U.get()))
      return unsupported(Call, "the registered split derivative '" +
                                   Split.getName() +
                                   "' is called with a pointer that has a "
                                   "shadow; adcc's split forward mode passes "
                                   "registered split derivatives floating-"
                                   "point values and constant pointers only");
  Type *RetTy = Call.getType(), *Ptr = B.getPtrTy();
  // f_aug(args) returns the tape (void f), or {tape, result, ...}.
  FunctionType *AT = Aug.getFunctionType();
  bool AugMatch = AT->getNumParams() == Call.arg_size();
  for (unsigned I = 0; AugMatch && I < Call.arg_size(); ++I)
    AugMatch = AT->getParamType(I) == Call.getArgOperand(I)->getType();
  auto *AR = dyn_cast<StructType>(AT->getReturnType());
  AugMatch &= RetTy->isVoidTy()
                  ? AT->getReturnType() == Ptr
                  : AR && AR->getNumElements() >= 2 &&
                        AR->getElementType(0) == Ptr &&
                        AR->getElementType(1) == RetTy;
  if (!AugMatch)
    return unsupported(Call, "the augmented function '" + Aug.getName() +
                                 "' of a registered split derivative must "
                                 "take the function's parameters and return "
                                 "{void *tape, result} (the tape alone for a "
                                 "void function)");
  // f_fwdsplit(args, each floating-point one followed by its tangent, tape)
  // returns the tangent, {primal, tangent}, or nothing.
  B.SetInsertPoint(Call.getNextNode());
  Value *Tape = readRecord(Ptr);
  Value *Primal = RetTy->isVoidTy() ? nullptr : readRecord(RetTy);
  SmallVector<Value *, 16> Args;
  for (Use &U : Call.args()) {
    Args.push_back(U.get());
    if (canCarryDerivative(U->getType()))
      Args.push_back(tangent(U.get()));
  }
  Args.push_back(Tape);
  FunctionType *FT = Split.getFunctionType();
  bool Match = FT->getNumParams() == Args.size();
  for (unsigned I = 0; Match && I < Args.size(); ++I)
    Match = FT->getParamType(I) == Args[I]->getType();
  bool Pair = Primal && FT->getReturnType() == StructType::get(RetTy, RetTy);
  if (!Match || (!Pair && FT->getReturnType() != RetTy))
    return unsupported(Call, "the registered split derivative '" +
                                 Split.getName() +
                                 "' does not have the expected signature "
                                 "(each floating-point or pointer parameter "
                                 "followed by its tangent, then the tape; "
                                 "returning the tangent or {primal, "
                                 "tangent})");
  CallInst *D = B.CreateCall(&Split, Args);
  D->setCallingConv(Split.getCallingConv());
  Dead.push_back(&Call);
  SplitRuleCalls.push_back(cast<CallBase>(PrimalOf.lookup(&Call)));
  if (!Primal)
    return true;
  Call.replaceAllUsesWith(Primal);
  if (const Value *Original = PrimalOf.lookup(&Call))
    PrimalOf.try_emplace(Primal, Original);
  setTangent(Primal, Pair ? B.CreateExtractValue(D, 1) : D);
  return true;
}

bool ForwardEmitter::finishSplit() {
  // The primal's instructions that touch memory: those with a value are
  // read from the records, the others go.
  SmallVector<Instruction *, 32> Writes;
  SmallPtrSet<Instruction *, 32> Reads;
  // (PrimalOf also maps what replaced a primal's call, for the type
  // analysis: a call of a derivative, a record. Those stay.)
  auto IsCopy = [&](const Instruction &I) {
    const auto *O = dyn_cast_or_null<Instruction>(PrimalOf.lookup(&I));
    if (!O || O->getOpcode() != I.getOpcode())
      return false;
    const auto *Call = dyn_cast<CallBase>(&I);
    return !Call ||
           Call->getCalledFunction() == cast<CallBase>(O)->getCalledFunction();
  };
  for (BasicBlock &BB : Derivative)
    for (Instruction &I : BB) {
      if (!IsCopy(I) || isa<PHINode>(I) || !hasEffects(I))
        continue;
      if (isa<CallBrInst>(I))
        return unsupported(I, "split forward mode does not support 'asm "
                              "goto'");
      if (I.isTerminator() && !isa<InvokeInst>(I))
        continue;
      if (I.getType()->isVoidTy())
        Writes.push_back(&I);
      else
        Reads.insert(&I);
    }
  auto Erase = [&](Instruction &I) {
    PrimalOf.erase(&I);
    Reads.erase(&I);
    if (auto *Invoke = dyn_cast<InvokeInst>(&I))
      branchToNormal(*Invoke);
    I.eraseFromParent();
  };
  for (Instruction *I : Writes)
    Erase(*I);
  // What only the removed code used is not read either.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock &BB : Derivative)
      for (Instruction &I : make_early_inc_range(reverse(BB))) {
        if (!I.use_empty() || (I.isTerminator() && !Reads.contains(&I)) ||
            !IsCopy(I) ||
            (!Reads.contains(&I) && !isInstructionTriviallyDead(&I)))
          continue;
        Erase(I);
        Changed = true;
      }
  }
  if (!readsInPrimalOrder(Reads))
    return false;
  SmallVector<const Instruction *, 32> Recorded;
  for (BasicBlock &BB : Derivative)
    for (Instruction &I : make_early_inc_range(BB)) {
      if (!Reads.contains(&I))
        continue;
      Recorded.push_back(cast<Instruction>(PrimalOf.lookup(&I)));
      auto *Invoke = dyn_cast<InvokeInst>(&I);
      B.SetInsertPoint(Invoke ? normalEdge(*Invoke)->getTerminator() : &I);
      B.SetCurrentDebugLocation(I.getDebugLoc());
      Value *V = readRecord(I.getType());
      I.replaceAllUsesWith(V);
      V->takeName(&I);
      Erase(I);
    }
  return makeRecorder(Recorded);
}

bool ForwardEmitter::readsInPrimalOrder(
    const SmallPtrSetImpl<Instruction *> &Reads) {
  for (BasicBlock &BB : Derivative) {
    const Instruction *Last = nullptr;
    for (Instruction &I : BB) {
      const auto *O = dyn_cast_or_null<Instruction>(PrimalOf.lookup(&I));
      if (!O || (!Reads.contains(&I) && !SplitCallees.count(O)))
        continue;
      if (Last && Last->getParent() == O->getParent() && O->comesBefore(Last)) {
        Ctx.error(I, "internal error: the tangent sweep of split forward "
                     "mode reads its records out of the primal's order; "
                     "please report this adcc bug");
        return false;
      }
      Last = O;
    }
  }
  return true;
}

bool ForwardEmitter::makeRecorder(ArrayRef<const Instruction *> Recorded) {
  Function &Primal = *Key.Primal;
  // (Made with the tangent sweep, and the callees' with theirs: missing
  // only by an adcc bug.)
  auto Missing = [&](Instruction &At) {
    Ctx.error(At, "internal error: the recording sweep of split forward mode "
                  "is missing; please report this adcc bug");
    return false;
  };
  Function *Rec = Ctx.splitRecorder(Key);
  if (!Rec)
    return Missing(*Primal.getEntryBlock().begin());
  ValueToValueMapTy VMap;
  for (Argument &A : Primal.args()) {
    Argument *R = Rec->getArg(A.getArgNo());
    R->setName(A.getName());
    VMap[&A] = R;
  }
  Argument *RecordsArg = Rec->getArg(Primal.arg_size());
  RecordsArg->setName("records");
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Rec, &Primal, VMap, CloneFunctionChangeType::GlobalChanges,
                    Returns);
  prepareDerivativeFunction(Primal, *Rec);
  IRBuilder<> RB(Rec->getContext());
  auto Clone = [&](const Instruction *O) {
    return cast<Instruction>(VMap[const_cast<Instruction *>(O)]);
  };
  for (const Instruction *O : Recorded) {
    Instruction *C = Clone(O);
    auto *Invoke = dyn_cast<InvokeInst>(C);
    RB.SetInsertPoint(Invoke ? normalEdge(*Invoke)->getTerminator()
                             : C->getNextNode());
    writeRecord(RB, RecordsArg, C);
  }
  // Calls whose callees' tangent sweeps read records of their own.
  for (auto &[O, K] : SplitCallees) {
    auto *C = cast<CallBase>(Clone(O));
    if (!C->getCalledFunction()) {
      // (Each target's sweeps were made by the tangent sweep's dispatch;
      // an invoke was refused there.)
      dispatchRecorders(*cast<CallInst>(C), K, Ctx, RecordsArg);
      continue;
    }
    Function *CalleeRec = Ctx.splitRecorder(K);
    if (!CalleeRec)
      return Missing(*C);
    SmallVector<Value *, 8> Args(C->args());
    Args.push_back(RecordsArg);
    RB.SetInsertPoint(C);
    CallBase *N = emitReplacementCall(RB, *C, CalleeRec, Args);
    C->replaceAllUsesWith(N);
    C->eraseFromParent();
  }
  // Registered split derivatives: their tape, then their result.
  for (const CallBase *O : SplitRuleCalls) {
    auto *C = cast<CallBase>(Clone(O));
    const CustomSplitDerivative &Rule =
        *Ctx.rules().splitDerivative(O->getCalledFunction());
    RB.SetInsertPoint(C);
    RB.SetCurrentDebugLocation(C->getDebugLoc());
    SmallVector<Value *, 8> Args(C->args());
    CallInst *A = RB.CreateCall(Rule.Augmented, Args);
    A->setCallingConv(Rule.Augmented->getCallingConv());
    bool Void = C->getType()->isVoidTy();
    writeRecord(RB, RecordsArg, Void ? A : RB.CreateExtractValue(A, 0));
    if (!Void) {
      Value *Result = RB.CreateExtractValue(A, 1);
      writeRecord(RB, RecordsArg, Result);
      C->replaceAllUsesWith(Result);
    }
    C->eraseFromParent();
  }
  return true;
}

} // namespace adcore
