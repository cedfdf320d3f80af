//===- TapeRecords.h - How values are recorded on the tape -----*- C++ -*-===//
//
// A record is a value stored in whole granules of the tape (the runtime's
// LIFO of bytes, runtime/lib/tape.c), pushed by the augmented sweep and
// popped by the reverse sweep; an i1 is recorded as an i8. Records are
// tagged as tape memory (MemoryScopes.h), which no primal or shadow
// pointer reaches.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_REVERSE_TAPERECORDS_H
#define ADCORE_REVERSE_TAPERECORDS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"

#include <cstdint>

namespace adcore {

/// Records take whole granules of the tape (the runtime's 8 bytes).
constexpr uint64_t RecordGranule = 8;
/// The type a value of type \p T is recorded as (an i1 as i8).
llvm::Type *recordType(llvm::Type *T);
/// The bytes of tape a record of \p T takes, whole granules.
uint64_t recordBytes(const llvm::DataLayout &DL, llvm::Type *T);
/// Places a record of type \p T in a row of a loop's array of records
/// (LoopArrays.cpp) whose records so far end at \p End: at its own size
/// and alignment (an i32 takes 4 bytes, an i1 1), not a whole granule.
/// Returns its offset; moves \p End past it and raises \p Align to its
/// alignment.
uint64_t placeInRow(const llvm::DataLayout &DL, llvm::Type *T, uint64_t &End,
                    uint64_t &Align);
/// Stores \p V as a record at \p Addr.
void storeRecord(llvm::IRBuilder<> &B, llvm::Value *V, llvm::Value *Addr);
/// Loads a record of type \p T from \p Addr (an integer is marked with
/// IntegerRecordMetadata).
llvm::Value *loadRecord(llvm::IRBuilder<> &B, llvm::Type *T, llvm::Value *Addr);
/// Pushes \p V on the tape (a record of its size, into which it is
/// stored); returns the push call.
llvm::CallInst *pushRecord(llvm::IRBuilder<> &B, llvm::Value *Tape,
                           llvm::Value *V);
/// The runtime's adcc_tape_push or adcc_tape_pop (\p Name):
/// ptr (ptr tape, i64 bytes, i64 align).
llvm::FunctionCallee tapeRecordFunction(llvm::Module &M, llvm::StringRef Name);
/// Pops a value of type \p T pushed by pushRecord.
llvm::Value *popRecord(llvm::IRBuilder<> &B, llvm::Value *Tape, llvm::Type *T);

} // namespace adcore

#endif // ADCORE_REVERSE_TAPERECORDS_H
