//===- TapeRecords.cpp - How values are recorded on the tape -------------===//

#include "TapeRecords.h"

#include "support/IRMarks.h"
#include "support/MemoryScopes.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;

namespace adcore {
namespace {

FunctionCallee tapeFunction(Module &M, StringRef Name, Type *Ret,
                            ArrayRef<Type *> Params) {
  return M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
}

} // namespace

FunctionCallee tapeRecordFunction(Module &M, StringRef Name) {
  Type *Ptr = PointerType::getUnqual(M.getContext());
  Type *I64 = Type::getInt64Ty(M.getContext());
  return tapeFunction(M, Name, Ptr, {Ptr, I64, I64});
}

Type *recordType(Type *T) {
  return T->isIntegerTy(1) ? Type::getInt8Ty(T->getContext()) : T;
}

uint64_t recordBytes(const DataLayout &DL, Type *T) {
  uint64_t Bytes = DL.getTypeAllocSize(recordType(T));
  return (Bytes + RecordGranule - 1) / RecordGranule * RecordGranule;
}

uint64_t placeInRow(const DataLayout &DL, Type *T, uint64_t &End,
                    uint64_t &Align) {
  Type *R = recordType(T);
  uint64_t A = DL.getABITypeAlign(R).value();
  uint64_t Offset = alignTo(End, A);
  End = Offset + DL.getTypeAllocSize(R);
  Align = std::max(Align, A);
  return Offset;
}

// Records live on the tape (or, once kept in a frame, in stack slots):
// memory that neither primal nor shadow pointers reach. Tagged here, where
// that is known, also for records read back through a pointer the reverse
// sweep keeps in a slot (a loop's array of records).
//
// A record of a value just loaded goes through a freeze (no instruction in
// the end): else LoopIdiomRecognize turns a loop's records of the array it
// reads into a memcpy after the loop, which reads the array a second time
// (a 2-D stencil's rows: its gradient ran 10-20 % slower).
void storeRecord(IRBuilder<> &B, Value *V, Value *Addr) {
  if (V->getType()->isIntegerTy(1))
    V = B.CreateZExt(V, B.getInt8Ty());
  if (isa<LoadInst>(V))
    V = B.CreateFreeze(V);
  tagMemoryClass(*B.CreateStore(V, Addr), MemoryClass::Tape);
}

Value *loadRecord(IRBuilder<> &B, Type *T, Value *Addr) {
  LoadInst *L = B.CreateLoad(recordType(T), Addr);
  tagMemoryClass(*L, MemoryClass::Tape);
  if (T->isIntegerTy())
    L->setMetadata(IntegerRecordMetadata, MDNode::get(B.getContext(), {}));
  return T->isIntegerTy(1) ? B.CreateTrunc(L, T) : static_cast<Value *>(L);
}

CallInst *pushRecord(IRBuilder<> &B, Value *Tape, Value *V) {
  Module &M = *B.GetInsertBlock()->getModule();
  const DataLayout &DL = M.getDataLayout();
  Type *T = recordType(V->getType());
  CallInst *Slot = B.CreateCall(tapeRecordFunction(M, "adcc_tape_push"),
                                {Tape, B.getInt64(DL.getTypeAllocSize(T)),
                                 B.getInt64(DL.getABITypeAlign(T).value())});
  storeRecord(B, V, Slot);
  return Slot;
}

Value *popRecord(IRBuilder<> &B, Value *Tape, Type *T) {
  Module &M = *B.GetInsertBlock()->getModule();
  const DataLayout &DL = M.getDataLayout();
  Type *Stored = recordType(T);
  Value *Slot = B.CreateCall(tapeRecordFunction(M, "adcc_tape_pop"),
                             {Tape, B.getInt64(DL.getTypeAllocSize(Stored)),
                              B.getInt64(DL.getABITypeAlign(Stored).value())});
  return loadRecord(B, T, Slot);
}

} // namespace adcore
