//===- support/SweepShadowClears.h - One clear per loop of y[i] -*- C++ -*-===//
//
// A store of a number with a derivative into an array a pointer argument
// points to, at a variable index (`y[i]` in a loop), would keep the loop
// from being vectorized with the marks' check before it
// (PointerShadowMarks.h). The augmented sweep's stores of numbers never
// read shadow bytes, so where the loop stores no pointer and loads none,
// runs the store in every iteration and has a computable trip count, one
// check of the whole range the store sweeps runs before the loop instead;
// elsewhere the store keeps its own check. Not in device code.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_SWEEPSHADOWCLEARS_H
#define ADCORE_SUPPORT_SWEEPSHADOWCLEARS_H

#include "llvm/IR/IRBuilder.h"

namespace adcore {

/// Emits at \p B the place of the check of the \p Bytes shadow bytes at
/// \p Shadow (a number with a derivative stored at `y[i]`) by a
/// derivative of tape level \p Level, which placeSweepShadowClears moves
/// before the loop or makes a check there.
void deferSweepShadowClear(llvm::IRBuilder<> &B, llvm::Value *Shadow,
                           llvm::Value *Bytes, unsigned Level);
/// Whether \p Name is the function deferSweepShadowClear calls.
bool isSweepShadowClearName(llvm::StringRef Name);
/// Replaces every deferred check in \p M: one per loop before it where
/// that is sound, the store's own check elsewhere.
void placeSweepShadowClears(llvm::Module &M);

} // namespace adcore

#endif
