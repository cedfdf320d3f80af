//===- PackedWords.h - Float and int in one 64-bit word --------*- C++ -*-===//
//
// What PackedWords.cpp and FloatBitArguments.cpp share: an i64 that packs
// two 32-bit lanes, a float and an int or two floats, replaced by them.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_PREPARE_PACKEDWORDS_H
#define ADCORE_PREPARE_PACKEDWORDS_H

#include "llvm/IR/BasicBlock.h"

namespace llvm {
class Instruction;
class Value;
} // namespace llvm

namespace adcore {

/// Gives the uses of \p Word, an i64 whose low 32 bits are \p Low and high
/// 32 bits \p High (each a float or an i32, available at \p At, which
/// comes before every use), the lanes themselves: a trunc to i32 is Low's
/// bits, `lshr 32` High's, a float cast from a lane's bits the lane, a
/// store of the word a store of each lane. Other uses get the lanes packed
/// again (zext, shl, or). \p Word keeps no use; the caller erases it.
void replacePackedWord(llvm::Instruction &Word, llvm::Value *Low,
                       llvm::Value *High, llvm::BasicBlock::iterator At);

} // namespace adcore

#endif // ADCORE_PREPARE_PACKEDWORDS_H
