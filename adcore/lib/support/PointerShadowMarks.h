//===- support/PointerShadowMarks.h - Pointer shadows, then floats -*- C++ -*-===//
//
// Reverse mode keeps a pointer's shadow and a number's adjoint in the same
// shadow bytes. Bytes that hold a pointer and later a float with a
// derivative (a pool allocator's free list, then an object handed out from
// it; a byte buffer reused) would give the float's reverse the pointer's
// shadow bits as its adjoint. Before the augmented sweep stores a
// pointer's shadow, it marks those shadow bytes, and the runtime keeps
// what they held; a store (or copy) of floats with derivatives over marked
// bytes puts that back: zero in memory the derivative allocated, a
// caller's seed in output memory the function used for a pointer first.
// Unmarked bytes stay (the runtime's pointer_marks.c). Not in device code.
//
// Each call names the tape level of the derivative that emits it
// (TapeLevels.h): a request nested in differentiated code (reverse over
// reverse) begins and ends its marks inside the outer request's augmented
// sweep, between the outer derivative's own marks, which the runtime keeps
// on a level of their own.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_POINTERSHADOWMARKS_H
#define ADCORE_SUPPORT_POINTERSHADOWMARKS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace adcore {

/// Emits at \p B the mark of the \p Bytes shadow bytes at \p Shadow as a
/// pointer's shadow (before the augmented sweep stores one there). A
/// \p Recorded mark (a store's) also records what the bytes held, for
/// unmarkPointerShadow at the reverse of the store.
void markPointerShadow(llvm::IRBuilder<> &B, llvm::Value *Shadow,
                       uint64_t Bytes, unsigned Level, bool Recorded = false);
/// Emits at \p B, in the reverse sweep, the reverse of a recorded mark:
/// the bytes that held no pointer's shadow before get back what they held
/// (a float's adjoint, which the reverse of its loads and store reads).
void unmarkPointerShadow(llvm::IRBuilder<> &B, llvm::Value *Shadow,
                         uint64_t Bytes, unsigned Level);
/// Emits at \p B that the request allocated the shadow block \p Block of
/// \p Bytes bytes (freed by its reverse sweep): the request's end leaves
/// it alone. (adcc_shadow_alloc's blocks are known to the runtime.)
void ownPointerShadowBlock(llvm::IRBuilder<> &B, llvm::Value *Block,
                           llvm::Value *Bytes);
/// Emits at \p B the end of a request's marks, after its reverse sweep:
/// the caller's memory gets back the pointer shadows it held when the
/// augmented sweep ended.
llvm::CallInst *endPointerShadowMarks(llvm::IRBuilder<> &B, unsigned Level);
/// Emits at \p B the restoring of the marked shadow bytes among the
/// \p Bytes bytes at \p Shadow (a float with a derivative stored there).
/// No new blocks: a helper function, inlined by inlinePointerMarkHelpers.
void clearPointerShadows(llvm::IRBuilder<> &B, llvm::Value *Shadow,
                         llvm::Value *Bytes, llvm::Value *Level);
/// Emits at \p B, where the augmented sweep reads a pointer from the
/// primal bytes at \p Primal, the mark of their \p Bytes shadow bytes at
/// \p Shadow as a pointer's shadow that held zero before, unless the
/// shadow is the primal memory itself (memory without derivatives): the
/// shadow of a pointer the caller stored before the call (a pool's free
/// list), which a number's store over it later puts back to zero.
void markLoadedPointerShadow(llvm::IRBuilder<> &B, llvm::Value *Shadow,
                             llvm::Value *Primal, uint64_t Bytes,
                             unsigned Level);
/// Whether derivatives in \p M mark pointer shadows: their requests then
/// start the marks afresh (beginPointerShadowMarks).
bool usesPointerShadowMarks(const llvm::Module &M);
/// Emits at \p B the start of a request's marks, on the tape level
/// \p Level its derivative records on.
llvm::CallInst *beginPointerShadowMarks(llvm::IRBuilder<> &B, unsigned Level);
/// Whether \p I is a call that marks shadow bytes or restores marked ones
/// (markPointerShadow, clearPointerShadows): where the shadow is a dense
/// view's (`__enzyme_todense`), whose bytes are the program's functions',
/// such a call is dropped (DenseViews.cpp).
bool isPointerMarkCall(const llvm::Instruction &I);
/// Whether \p F marks shadow bytes, restores marked ones or names a shadow
/// block the request owns: a call that a reverse sweep differentiated
/// again (forward over reverse) repeats on the tangents of those bytes
/// (mirrorPointerMarkCall). Not the begin and end of a request's marks.
bool isTangentMirroredMarkFunction(const llvm::Function &F);
/// Emits at \p B the call \p Call of such a function on the tangents of
/// its pointers, \p Tangent's (null: none; the call is not repeated): the
/// tangent bytes of shadow bytes that a store later writes a number over
/// get back the tangent of what they held, as the shadow bytes get back
/// what they held. A mark of a loaded pointer's shadow keeps its test on
/// the tangents (the tangent memory of memory without derivatives is not
/// marked).
void mirrorPointerMarkCall(
    llvm::IRBuilder<> &B, llvm::CallBase &Call,
    llvm::function_ref<llvm::Value *(llvm::Value *)> Tangent);
/// Whether \p F marks the shadow of a pointer stored (markPointerShadow,
/// Recorded).
bool isStoredPointerMarkFunction(const llvm::Function &F);
/// Emits at \p B, after \p Call (such a mark, made by a request nested in
/// code that a reverse-mode derivative on tape level \p OuterLevel
/// differentiates), that the marked shadow bytes have \p Outer as their
/// outer shadow: where the nested request's end puts a pointer's shadow
/// back there, the outer shadow of it is stored back too
/// (nestPointerShadowMarks; the runtime's pointer_marks_nested.c).
void pairNestedPointerMark(llvm::IRBuilder<> &B, llvm::CallBase &Call,
                           llvm::Value *Outer, unsigned OuterLevel);
/// Whether \p F ends a request's marks (endPointerShadowMarks).
bool isPointerMarksEndFunction(const llvm::Function &F);
/// Emits at \p B, before \p End (such an end, of a request nested in code
/// that a reverse-mode derivative on tape level \p OuterLevel
/// differentiates), that the outer shadows of the pointer shadows that end
/// puts back are stored back too, as the outer request's pointer stores;
/// unnestPointerShadowMarks, in the outer reverse sweep where it passes
/// that end, undoes them (the runtime's pointer_marks_nested.c).
void nestPointerShadowMarks(llvm::IRBuilder<> &B, llvm::CallBase &End,
                            unsigned OuterLevel);
void unnestPointerShadowMarks(llvm::IRBuilder<> &B, unsigned OuterLevel);
/// Inlines the helper of clearPointerShadows where derivatives call it.
void inlinePointerMarkHelpers(llvm::Module &M);
/// Whether the primal bytes at \p Ptr are a local variable that only this
/// function writes (its address goes to no call but ones that only read
/// through it and keep it, `readonly captures(none)`, and is stored
/// nowhere), and whose stores all store pointers (\p Pointers) or all
/// floating-point values: its bytes never hold the other kind.
bool isPrivateLocalOf(const llvm::Value *Ptr, bool Pointers);
/// Whether every use of the addresses of the object \p Object (an alloca,
/// an allocation call) loads, stores values of one kind (pointers where
/// \p Pointers, else floating-point values), is a lifetime marker, is a
/// call that only reads through it and does not keep it (a `readonly
/// captures(none)` argument), or is a call that \p Releases accepts (a
/// free of the block): nothing else writes it, and it never holds the
/// other kind.
bool holdsOneKindOnly(
    const llvm::Value *Object, bool Pointers,
    llvm::function_ref<bool(const llvm::CallBase &, const llvm::Value &)>
        Releases);

/// Whether \p Ptr addresses an element of an array a pointer argument
/// points to, at an index that is not a constant (`y[i]` in a loop): its
/// stores are checked for marks once before the loop where they may be
/// (SweepShadowClears.h), a check in the loop keeping it from being
/// vectorized.
bool isArgumentArraySweep(const llvm::Value *Ptr);

} // namespace adcore

#endif
