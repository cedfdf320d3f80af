//===- NullShadowGuards.h - Accesses through null shadows -----*- C++ -*-===//
//
// Where a shadow pointer may be null at run time while its primal is not
// (analysis/NullableShadows.h: a pointer to constant data read back from
// memory that holds derivatives), both modes guard what they do through it:
// an address computed from it stays null (a select, not address 0 plus an
// offset); a read through a null shadow reads zeros (a constant block); a
// write goes to a sink block nothing reads; copies and clears of shadow
// memory skip a null destination and copy zeros from a null source. So an
// adjoint added there is dropped and a tangent read there is zero: the
// derivative of what is read through a constant pointer.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_NULLSHADOWGUARDS_H
#define ADCORE_NULLSHADOWGUARDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/GEPNoWrapFlags.h"
#include "llvm/IR/IRBuilder.h"

namespace adcore {

/// The error for a value with a derivative written through a null shadow
/// and read back in device code, where no scratch shadow can stand behind
/// it (the host runtime's, nullShadowOrScratch).
constexpr const char *DeviceNullShadowWriteError =
    "a value with a derivative is written through the shadow of constant "
    "memory in device code (a null shadow pointer: a shadow struct the "
    "caller zeroed, or a pointer to constant data kept beside "
    "derivatives) and read back; adcc cannot keep its derivative there on "
    "a GPU (no scratch shadow in device code); give that data a shadow "
    "buffer of its own (enzyme_dup)";

/// Whether the derivatives of \p M run without scratch shadows behind
/// null shadow pointers: device code (NVPTX, AMDGPU).
bool lacksNullShadowScratch(const llvm::Module &M);
/// The error for a call whose callee may write such a value through a null
/// shadow that the caller reads back (callWritesBackThroughNullShadow).
constexpr const char *DeviceNullShadowCallError =
    "the function called here (or one it calls) may write a value with a "
    "derivative through the shadow of constant memory that this function "
    "reads back, in device code (a null shadow pointer: a shadow struct the "
    "caller zeroed, or a pointer to constant data kept beside "
    "derivatives); adcc cannot keep its derivative there on a GPU (no "
    "scratch shadow in device code); give that data a shadow buffer of its "
    "own (enzyme_dup)";

/// Whether a derivative whose pointers \p Nullable (clones) may have null
/// shadows may read a value with a derivative back through the pointer
/// held in memory that \p Addr, the address of a write, was computed from
/// (the same slot: `s->p[0] = ...; ... = s->p[0]`; a slot it was copied
/// into or from; a call given that pointer or the struct holding it): then,
/// without scratch shadows, the value written loses its derivative
/// (DeviceNullShadowWriteError). Conservative (NullShadowReadBack.cpp):
/// any element through that pointer counts, and what the check cannot
/// follow counts as a read. A pointer that is no held slot's (an argument)
/// is its callers' to check (callWritesBackThroughNullShadow). Both look
/// at the primal function (\p Addr, \p Call and \p Nullable primal
/// values; a null Addr or Call, one without a primal, counts as read back).
bool readsBackThroughNullShadow(
    const llvm::Value *Addr, const llvm::DenseSet<const llvm::Value *> &Nullable);
/// Whether the callee of \p Call may write a number through the arguments
/// whose shadows may be null (bits \p NullableArgs) or that reach memory
/// holding such shadows (\p ReachingArgs), and the caller may read it back
/// through the same pointers (as readsBackThroughNullShadow): `set(s, x);
/// ... = s->p[0]`, `setp(s->p, x); ... = s->p[0]`
/// (DeviceNullShadowCallError).
bool callWritesBackThroughNullShadow(
    const llvm::CallBase *Call, uint64_t NullableArgs, uint64_t ReachingArgs,
    const llvm::DenseSet<const llvm::Value *> &Nullable);

/// A constant block of zeros of at least \p Bytes, aligned to \p A.
llvm::Constant *zeroBlock(llvm::Module &M, uint64_t Bytes, llvm::Align A);

/// \p Addr, or a block of zeros when it is null: where to read a value of
/// type \p Ty through a shadow that may be null.
llvm::Value *guardedReadAddress(llvm::IRBuilder<> &B, llvm::Value *Addr,
                                llvm::Type *Ty, llvm::Align A);
/// The prefix of the names of the sink blocks (below): private variables
/// that writes through null shadows go to and nothing reads back.
inline constexpr llvm::StringLiteral ShadowSinkPrefix = "adcc.shadow.sink.";
/// \p Addr, or a sink block nothing reads when it is null: where to write a
/// value of type \p Ty through a shadow that may be null.
llvm::Value *guardedWriteAddress(llvm::IRBuilder<> &B, llvm::Value *Addr,
                                 llvm::Type *Ty, llvm::Align A);
/// The shadow \p Shadow of the pointer \p Primal, read from memory where
/// it may be null (a shadow struct the caller zeroed), or where it is null
/// the scratch shadow of Primal's address (runtime/lib/null_shadows.c):
/// what a derivative call writes through it and reads back meets, as
/// through a real shadow. Null again outside a call that enters a session
/// (nullShadowSessions), and on GPUs.
/// \p Lane: of a batched derivative, whose lanes get scratch shadows of
/// their own.
llvm::Value *nullShadowOrScratch(llvm::IRBuilder<> &B, llvm::Value *Shadow,
                                 llvm::Value *Primal, unsigned Lane);
/// The lane to give nullShadowOrScratch for lane \p Lane of a reverse-mode
/// derivative recording on tape level \p TapeLevel (TapeLevels.h): apart
/// from forward mode's lanes (lane itself), so that in forward over reverse
/// the outer tangent of a pointer to which the inner gradient also gave a
/// scratch shadow never meets that shadow's adjoints (a checkpointed
/// loop's parameter block, whose steps' forward derivatives replay the
/// steps for the outer derivative: e2e checkpoint_hvp.c,
/// checkpoint_heap.c), and apart per level of reverse over reverse.
inline unsigned reverseScratchLane(unsigned Lane, unsigned TapeLevel) {
  return Lane + ((1 + TapeLevel) << 16);
}
/// The lane to give nullShadowOrScratch for lane \p Lane of a forward-mode
/// derivative of scratch level \p Level (DerivativeKey::ScratchLevel):
/// apart per level of forward over forward (the inner and the outer
/// tangent of one primal address never meet) and from reverse mode's
/// lanes.
inline unsigned forwardScratchLane(unsigned Lane, unsigned Level) {
  return Lane + (Level << 24);
}
/// The forward scratch level a call \p V of nullShadowOrScratch's helper
/// uses (its lane's), or -1 for anything else: the code that makes such
/// calls is differentiated in forward mode on the level above
/// (TapeLevelFinder with this).
int forwardScratchLevelOf(const llvm::Value *V);
/// Whether \p F is the helper nullShadowOrScratch calls: differentiated
/// again (forward mode over a reverse sweep), the tangent of its result is
/// nullShadowOrScratch of the shadow's tangent and the result.
bool isNullShadowScratch(const llvm::Function &F);
/// Whether \p F is the helper strippedNullShadow calls: differentiated
/// again, the tangent of its result is the stripped tangent of the shadow.
bool isNullShadowStrip(const llvm::Function &F);
/// \p Shadow, or null where it is a scratch shadow of nullShadowOrScratch:
/// the shadow to store into memory (the caller's shadow struct keeps its
/// null pointer).
llvm::Value *strippedNullShadow(llvm::IRBuilder<> &B, llvm::Value *Shadow);
/// Whether derivatives in \p M use nullShadowOrScratch: their requests
/// enter a session (adcc_null_shadows_enter) and leave it when they return.
bool usesNullShadowScratch(const llvm::Module &M);
/// Inlines the helpers of nullShadowOrScratch and strippedNullShadow where
/// the derivatives call them (once all are made: whether a session is
/// needed is told by the helper's existence).
void inlineNullShadowHelpers(llvm::Module &M);
/// Undoes inlineNullShadowHelpers in IR carried for link time: each call of
/// the runtime's adcc_null_shadow_strip or adcc_null_shadow becomes a call
/// of its helper again (the same value there), so that a derivative made
/// at link time of a reverse sweep made when its file was compiled (a
/// callback that requests a gradient) gives the helpers' results their
/// tangents and adjoints; the runtime functions are inactive.
void restoreNullShadowHelpers(llvm::Module &M);
/// Emits at \p B the start and the end of such a session.
llvm::CallInst *enterNullShadowSession(llvm::IRBuilder<> &B);
void leaveNullShadowSession(llvm::IRBuilder<> &B);
/// Split mode: emits at \p B, after an augmented sweep, the suspension of
/// its session, kept with the sweep's tape handle \p Handle; and before a
/// reverse sweep given \p Tape, its resumption (left after the sweep).
void suspendNullShadowSession(llvm::IRBuilder<> &B, llvm::Value *Handle);
llvm::CallInst *resumeNullShadowSession(llvm::IRBuilder<> &B,
                                        llvm::Value *Tape);
/// A request made by an invoke, before \p Enter (its session's start):
/// counts the sessions open before it, and restores that count at the
/// invoke's landing pad, where a derivative that throws leaves its
/// session open.
void restoreNullShadowsOnUnwind(llvm::InvokeInst &Invoke,
                                llvm::CallInst &Enter);
/// A GEP on a shadow \p Base that may be null: null when Base is.
llvm::Value *nullKeepingGEP(llvm::IRBuilder<> &B, llvm::Type *SourceTy,
                            llvm::Value *Base,
                            llvm::ArrayRef<llvm::Value *> Idx,
                            const llvm::Twine &Name, llvm::GEPNoWrapFlags NW);
/// \p Offset bytes past the shadow \p Base: null when \p Guarded (Base may
/// be null) and Base is null.
llvm::Value *shadowByteOffset(llvm::IRBuilder<> &B, llvm::Value *Base,
                              int64_t Offset, bool Guarded);
/// Copies \p Len bytes of shadow from \p Src to \p Dst, either of which may
/// be null: nothing when Dst is, zeros when Src is.
void guardedShadowCopy(llvm::IRBuilder<> &B, llvm::Value *Dst, llvm::Value *Src,
                       llvm::Value *Len);
/// Zeroes \p Len bytes of shadow at \p Dst, unless it is null.
void guardedShadowClear(llvm::IRBuilder<> &B, llvm::Value *Dst,
                        llvm::Value *Len);
/// The length \p Len of a shadow's copy or clearing at \p Shadow, the
/// shadow of the primal address \p Dest: zero where the shadow is the
/// primal's own memory (a shadow struct sharing the primal's integer
/// tables), which holds numbers and has had the primal's write.
llvm::Value *lengthUnlessPrimal(llvm::IRBuilder<> &B, llvm::Value *Dest,
                                llvm::Value *Shadow, llvm::Value *Len);
/// A wrapper of the runtime's adjoint copy \p Name (adcc_adjoint_copy_f64,
/// ..._strided_f64: `(dst, src, bytes)` or `(dst, src, count, stride)`)
/// whose shadows may be null: nothing when dst is null; with a null src,
/// dst's adjoints are cleared and dropped.
llvm::FunctionCallee guardedAdjointCopy(llvm::Module &M, llvm::StringRef Name,
                                        bool Strided);

} // namespace adcore

#endif // ADCORE_NULLSHADOWGUARDS_H
