//===- CheckpointedHeap.cpp - Heap blocks in a checkpointed loop's state -===//
//
// A heap block that a loop marked ADCC_CHECKPOINT writes (held by a local
// pointer variable, allocated before the loop: analysis/FrameWrites.h) is
// copied into the loop's state and back (CheckpointedLoops.cpp). The
// copies are typed when the program accesses the block as floating-point
// values, so that the derivatives carry their adjoints and tangents.
//
//===----------------------------------------------------------------------===//

#include "CheckpointedHeap.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adcore {
namespace {

/// The floating-point type of the elements that \p P points to, as its
/// users access them (loads and stores through it and through element
/// addresses computed from it, through local copies of it and in the
/// functions it is passed to, \p Depth deep), into \p Found; false when
/// they access several.
bool noteElementType(Value *P, Type *&Found, unsigned Depth) {
  auto Note = [&](Type *T) {
    if (!T->isFloatingPointTy())
      return true;
    if (Found && Found != T)
      return false;
    Found = T;
    return true;
  };
  for (Use &U : P->uses()) {
    User *V = U.getUser();
    bool OK = true;
    if (auto *G = dyn_cast<GetElementPtrInst>(V)) {
      OK = G->getPointerOperand() != P || (Note(G->getSourceElementType()) &&
                                           noteElementType(G, Found, Depth));
    } else if (isa<LoadInst>(V)) {
      OK = Note(V->getType());
    } else if (auto *S = dyn_cast<StoreInst>(V)) {
      if (S->getPointerOperand() == P)
        OK = Note(S->getValueOperand()->getType());
      else if (auto *Slot = dyn_cast<AllocaInst>(S->getPointerOperand());
               Slot && Depth > 0)
        // (A local copy of the pointer, as Clang keeps an argument.)
        for (User *W : Slot->users())
          if (OK && isa<LoadInst>(W))
            OK = noteElementType(W, Found, Depth - 1);
    } else if (auto *C = dyn_cast<CallBase>(V)) {
      Function *Callee = C->getCalledFunction();
      if (Callee && !Callee->isDeclaration() && Depth > 0 &&
          C->isArgOperand(&U) && U.getOperandNo() < Callee->arg_size())
        OK =
            noteElementType(Callee->getArg(U.getOperandNo()), Found, Depth - 1);
    }
    if (!OK)
      return false;
  }
  return true;
}

/// The floating-point type of the elements of the heap block that \p Var
/// points to, or null when the program accesses none or several.
Type *elementType(AllocaInst &Var) {
  Type *Found = nullptr;
  for (User *U : Var.users())
    if (isa<LoadInst>(U) && !noteElementType(U, Found, 4))
      return nullptr;
  return Found;
}

/// `void copy(T *dst, const T *src, i64 count)`, a loop of typed loads and
/// stores, kept as one (optnone): the derivatives read its type.
Function *copyFunction(Module &M, Type *T) {
  std::string Name = "__adcc_copy_heap.";
  raw_string_ostream(Name) << *T;
  if (Function *Known = M.getFunction(Name))
    return Known;
  LLVMContext &Ctx = M.getContext();
  auto *Ptr = PointerType::getUnqual(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);
  Function *F = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr, I64}, false),
      GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::OptimizeNone);
  F->addFnAttr(Attribute::NoUnwind);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "", F);
  BasicBlock *Loop = BasicBlock::Create(Ctx, "loop", F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "done", F);
  IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateICmpEQ(F->getArg(2), B.getInt64(0)), Done, Loop);
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(I64, 2);
  I->addIncoming(B.getInt64(0), Entry);
  B.CreateStore(B.CreateLoad(T, B.CreateInBoundsGEP(T, F->getArg(1), I)),
                B.CreateInBoundsGEP(T, F->getArg(0), I));
  Value *Next = B.CreateAdd(I, B.getInt64(1));
  I->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateICmpEQ(Next, F->getArg(2)), Done, Loop);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

} // namespace

/// The bytes \p Alloc allocates.
Value *allocatedBytes(IRBuilder<> &B, CallBase &Alloc) {
  StringRef Name = Alloc.getCalledFunction()->getName();
  Type *I64 = B.getInt64Ty();
  auto Arg = [&](unsigned I) {
    return B.CreateZExtOrTrunc(Alloc.getArgOperand(I), I64);
  };
  if (Name == "calloc")
    return B.CreateMul(Arg(0), Arg(1));
  return Arg(Name == "aligned_alloc" ? 1 : 0);
}

/// Copies the heap block \p Var points to (\p Bytes bytes): typed when
/// its elements are floating-point values, whose derivatives the copy
/// carries.
void copyHeapBlock(IRBuilder<> &B, AllocaInst &Var, Value *Dst, Value *Src,
                   Value *Bytes) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *T = elementType(Var);
  if (!T) {
    B.CreateMemCpy(Dst, Align(1), Src, Align(1), Bytes);
    return;
  }
  uint64_t Size = M.getDataLayout().getTypeAllocSize(T);
  B.CreateCall(copyFunction(M, T),
               {Dst, Src, B.CreateUDiv(Bytes, B.getInt64(Size))});
}

} // namespace adcore
