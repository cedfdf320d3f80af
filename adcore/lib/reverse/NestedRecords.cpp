//===- NestedRecords.cpp - Reverse mode over a reverse sweep -------------===//
//
// The gradient of code that itself runs reverse sweeps (second derivatives
// by nesting __enzyme_autodiff, the gradient of an objective that uses the
// forces a gradient computed): the sweeps differentiated again push records
// on the thread's tape and pop them back, often in another function.
//
//  records   A record is memory the inner augmented sweep fills and its
//            reverse sweep reads: its shadow is a zeroed block that the
//            inner pop must find again. adcc_tape_push_shadow allocates it
//            and pushes its address on the same tape, right after the
//            record; adcc_tape_pop_shadow, just before the record's pop,
//            pops it (LIFO). The block outlives the record's bytes (reused
//            by later pushes): it is freed at the reverse of the push, as
//            a shadow heap block is. Values read back from records are
//            recorded on this derivative's own tape (one level up:
//            TapeLevels.h), never read again by the reverse sweep.
//  null      A pointer without derivatives (an enzyme_const argument of
//            the outer request) recorded by the inner sweep has a null
//            shadow in the shadow record. The adjoints of what is read or
//            written through it go nowhere: accesses based on a pointer
//            read from a record check its shadow, and read zeros or write
//            to a stack slot when it is null (as forward mode over a
//            reverse sweep does).
//  copies    adcc_adjoint_copy_*(dst, src, ...) adds dst's elements into
//            src's and clears dst's: its adjoint sets the shadow of dst's
//            elements to the shadow of src's.
//  scratch   A derivative (forward mode, differentiated in reverse mode:
//            reverse over forward) that replaces a null shadow pointer by
//            the scratch shadow of its primal address (NullShadowGuards.h)
//            keeps tangents there: the scratch's shadow is the scratch
//            shadow of the scratch's own address on this derivative's lane
//            where the shadow was null, else the shadow's shadow; the
//            outermost request's session keeps both until it returns.
//            Without it the tangents' adjoints were lost (at -O0: 2 cos^2 x
//            for the second derivative of sin^2 x written and read back
//            through a zeroed shadow struct's pointer).
//
//===----------------------------------------------------------------------===//

#include "support/CallSites.h"
#include "support/MemoryScopes.h"
#include "support/NullShadowGuards.h"
#include "ReverseEmitter.h"

#include "adcore/MemoryFunctions.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

bool ReverseEmitter::augmentNullShadowScratch(CallBase &Call) {
  Value *Shadow = Call.getArgOperand(0);
  bool Strip = isNullShadowStrip(*Call.getCalledFunction());
  if (!Active.contains(&Call) && !shadowOrNull(Shadow))
    return true;
  positionAfterCall(AB, Call);
  Value *Null = Constant::getNullValue(Call.getType());
  for (unsigned L = 0; L < Width; ++L) {
    Value *S = LaneShadows[L].lookup(Shadow);
    if (!S)
      S = Null;
    // (A shadow stored back: null where it was stripped.)
    if (Strip) {
      LaneShadows[L][&Call] = AB.CreateSelect(AB.CreateIsNull(&Call), Null, S);
      continue;
    }
    Value *Scratch = nullShadowOrScratch(
        AB, Null, &Call, reverseScratchLane(L, Key.TapeLevel));
    LaneShadows[L][&Call] =
        AB.CreateSelect(AB.CreateIsNull(Shadow), Scratch, S);
  }
  return true;
}

bool ReverseEmitter::augmentTapeRecord(CallBase &Call, unsigned K) {
  auto Kind = MemoryFunctionKind(K);
  if (Width > 1)
    return unsupported(Call, "batched (width > 1) reverse mode over a "
                             "reverse sweep is not supported yet");
  Module &M = *Aug.getParent();
  Type *Ptr = AB.getPtrTy();
  Value *Tape = Call.getArgOperand(0);
  if (Kind == MemoryFunctionKind::TapePush) {
    positionAfterCall(AB, Call);
    FunctionCallee PushShadow = M.getOrInsertFunction(
        "adcc_tape_push_shadow",
        FunctionType::get(Ptr, {Ptr, AB.getInt64Ty(), AB.getInt64Ty()},
                          false));
    shadows()[&Call] = AB.CreateCall(
        PushShadow, {Tape, Call.getArgOperand(1), Call.getArgOperand(2)},
        "record.shadow");
    ShadowMallocs.insert(&Call);
    return true;
  }
  // (Before the record's own pop: its shadow's address was pushed after
  // it.)
  AB.SetInsertPoint(&Call);
  FunctionCallee PopShadow = M.getOrInsertFunction(
      "adcc_tape_pop_shadow", FunctionType::get(Ptr, {Ptr}, false));
  shadows()[&Call] = AB.CreateCall(PopShadow, {Tape}, "record.shadow");
  return true;
}

LoadInst *ReverseEmitter::recordedBase(Value *Ptr) {
  if (Key.TapeLevel == 0)
    return nullptr;
  auto *LI = dyn_cast<LoadInst>(getUnderlyingObject(Ptr));
  return LI && LI->getType()->isPointerTy() &&
                 hasMemoryClass(*LI, MemoryClass::Tape) && shadowOrNull(LI)
             ? LI
             : nullptr;
}

Value *ReverseEmitter::guardRecorded(IRBuilder<> &B, Value *Ptr, Value *SP,
                                     Value *BaseShadow, uint64_t Bytes,
                                     bool Read, Value *&IsNull) {
  IsNull = nullptr;
  if (!BaseShadow || !recordedBase(Ptr))
    return SP;
  Function &F = *B.GetInsertBlock()->getParent();
  Value *Sink;
  if (Read) {
    Sink = zeroBlock(*F.getParent(), Bytes, Align(16));
  } else {
    IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().begin());
    AllocaInst *Slot = EB.CreateAlloca(
        ArrayType::get(EB.getInt8Ty(), std::max<uint64_t>(Bytes, 1)), nullptr,
        "no.derivative");
    Slot->setAlignment(Align(16));
    Sink = Slot;
  }
  IsNull = B.CreateIsNull(BaseShadow);
  return B.CreateSelect(IsNull, Sink, SP);
}

bool ReverseEmitter::augmentAdjointCopy(CallBase &Call) {
  if (Width > 1)
    return unsupported(Call, "batched (width > 1) reverse mode over a "
                             "reverse sweep is not supported yet");
  // (Pointers' shadows, which move forward: their reverse is not an
  // adjoint copy.)
  if (Call.getCalledFunction()->getName() == "adcc_shadow_copy_strided_ptr")
    return unsupported(Call, "reverse mode over a reverse sweep that copies "
                             "an array of structs mixing numbers and "
                             "pointers is not supported yet");
  // (Without a shadow of the destination nothing has an adjoint to set.)
  if (shadowOrNull(Call.getArgOperand(0)))
    AdjointCopies.insert(&Call);
  return true;
}

void ReverseEmitter::adjointCopyNeeds(CallBase &Call,
                                      SmallVectorImpl<Value *> &Out) {
  Out.push_back(shadowOrNull(Call.getArgOperand(0)));
  if (Value *SS = shadowOrNull(Call.getArgOperand(1)))
    Out.push_back(SS);
  for (unsigned K = 2; K < Call.arg_size(); ++K)
    Out.push_back(Call.getArgOperand(K));
}

void ReverseEmitter::emitAdjointCopyAdjoint(
    CallBase &Call, DenseMap<Value *, Value *> &Popped) {
  Value *SD = revValue(shadowOrNull(Call.getArgOperand(0)), Popped);
  Value *Src = shadowOrNull(Call.getArgOperand(1));
  Value *SS = Src ? revValue(Src, Popped) : nullptr;
  bool Single = Call.getCalledFunction()->getName().ends_with("f32");
  Type *Elt = Single ? RB.getFloatTy() : RB.getDoubleTy();
  if (Call.arg_size() == 3) {
    // Contiguous elements: the source's shadow copied over the
    // destination's (zeros without one).
    Value *Bytes = revValue(Call.getArgOperand(2), Popped);
    Align A(Single ? 4 : 8);
    if (SS)
      RB.CreateMemMove(SD, A, SS, A, Bytes);
    else
      RB.CreateMemSet(SD, RB.getInt8(0), Bytes, A);
    return;
  }
  // One field of `count` structs `stride` bytes apart: element by element.
  Value *Count = revValue(Call.getArgOperand(2), Popped);
  Value *Stride = revValue(Call.getArgOperand(3), Popped);
  BasicBlock *Before = RB.GetInsertBlock();
  Function *F = Before->getParent();
  LLVMContext &C = F->getContext();
  BasicBlock *Body = BasicBlock::Create(C, "copy.adjoint", F);
  BasicBlock *After = BasicBlock::Create(C, "copy.adjoint.end", F);
  RB.CreateCondBr(RB.CreateICmpEQ(Count, RB.getInt64(0)), After, Body);
  RB.SetInsertPoint(Body);
  PHINode *I = RB.CreatePHI(RB.getInt64Ty(), 2, "k");
  I->addIncoming(RB.getInt64(0), Before);
  Value *Offset = RB.CreateMul(I, Stride);
  Value *V = Constant::getNullValue(Elt);
  if (SS)
    V = RB.CreateLoad(Elt, RB.CreateGEP(RB.getInt8Ty(), SS, Offset));
  RB.CreateStore(V, RB.CreateGEP(RB.getInt8Ty(), SD, Offset));
  Value *Next = RB.CreateAdd(I, RB.getInt64(1));
  I->addIncoming(Next, Body);
  RB.CreateCondBr(RB.CreateICmpEQ(Next, Count), After, Body);
  RB.SetInsertPoint(After);
  // (The reverse sweep goes on in After: blocks made for this instruction
  // are reached from the one being reversed.)
}

} // namespace adcore
