//===- prepare/Prepare.h - Rewrites of the primal ---------------*- C++ -*-===//
//
// The prepare stage: rewrites of a primal function, before it is
// differentiated, into IR whose derivative adcc knows (SIMD idioms on the
// bits of floats, known inline assembly, fortified calls, ...). Synthesis.cpp
// runs them on each function it differentiates; keepMinMaxChoices runs at
// the start of the pipeline.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_PREPARE_PREPARE_H
#define ADCORE_PREPARE_PREPARE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class BitCastInst;
class CallBase;
class Function;
class FunctionCallee;
class Module;
} // namespace llvm

namespace adcore {

/// Rewrites shuffles of integers that only move whole floating-point
/// values (Eigen's packet broadcasts) as shuffles of those values, and the
/// integer loads they read as floating-point loads (FloatShuffles.cpp).
/// Returns whether \p F changed.
bool canonicalizeFloatShuffles(llvm::Function &F);
/// Rewrites the checked copies of _FORTIFY_SOURCE (__memcpy_chk,
/// __memmove_chk, __memset_chk) as their check and the llvm.memcpy /
/// memmove / memset intrinsic (FortifiedCalls.cpp). Returns whether \p F
/// changed.
bool rewriteFortifiedCalls(llvm::Function &F);
/// Rewrites posix_memalign(&p, align, size) as the checks it makes and a
/// call of aligned_alloc whose block is stored into p (AlignedBlocks.cpp).
/// Returns whether \p F changed.
bool rewritePosixMemaligns(llvm::Function &F);
/// Rewrites qsort and glibc's qsort_r as the order the runtime computes
/// and element copies in that order, which the engine differentiates, and
/// bsearch as its array plus the offset the runtime finds (SortCalls.cpp).
/// Returns whether \p F changed.
bool rewriteSortCalls(llvm::Function &F);

/// Inlines into device function \p F the calls of functions that wait at
/// a barrier of the block, so that the reverse sweep mirrors the barriers
/// (BarrierCalls.cpp). Returns whether it changed F.
bool inlineBarrierCalls(llvm::Function &F);

/// Rewrites the direct launches in \p F (cudaLaunchKernel,
/// hipLaunchKernel, or their C++ overloads, of a kernel whose stub has
/// registered derivatives) as the `<<<...>>>` launches they are: the
/// configuration pushed, the stub called with the argument array's values
/// (DirectLaunches.cpp). Returns whether it changed F.
bool rewriteDirectLaunches(llvm::Function &F);
/// Makes each call of a variadic function that passes only its fixed
/// arguments, into a body that never reads the others, a call of an
/// internal copy declared without `...`, and each call passing variable
/// arguments to a body that reads them (va_arg) a call of a specialization
/// for its argument list, where one can be made (VariadicCalls.cpp).
/// Returns whether \p F changed.
bool rewriteVariadicCalls(llvm::Function &F);
/// Makes each call of a function defined in the module that passes it the
/// bits of a float or double as an integer, or gets them back as its
/// result, a call of an internal copy taking (returning) the float itself,
/// unless \p HasRule says a rule of the program or of adcc covers the
/// callee (FloatBitArguments.cpp). Returns whether \p F changed.
bool passFloatBitsAsFloats(
    llvm::Function &F,
    llvm::function_ref<bool(const llvm::Function &)> HasRule);
/// Makes each call that passes a function defined in the module a local
/// variable or array holding addresses as integers (or memory a parameter
/// so marked points into, or such an element by value) a call of an
/// internal copy of the callee in which the elements moved through those
/// parameters are loaded, kept and stored as pointers, which move their
/// shadows, unless \p HasRule says a rule covers the callee; rewrites
/// those elements in \p F itself where its parameters are so marked
/// (IntegerAddressArguments.cpp). Returns whether \p F changed.
bool passIntegerAddressesAsPointers(
    llvm::Function &F,
    llvm::function_ref<bool(const llvm::Function &)> HasRule);
/// After each call that reads a floating-point value from a C++ stream into
/// a variable (`in >> x`), stores that value into it again as a constant,
/// which resets its derivative (InputValues.cpp). Returns whether \p F
/// changed.
bool resetInputValues(llvm::Function &F);
/// Replaces each llvm.threadlocal.address(@g) of \p F with @g, unless
/// \p F is a coroutine (ThreadLocalAddresses.cpp). Returns whether \p F
/// changed.
bool useThreadLocalsByName(llvm::Function &F);
/// Rewrites the inline assembly adcc knows the meaning of (Eigen's packet
/// min and max, its optimization barrier) as IR (KnownAsm.cpp). Returns
/// whether \p F changed.
bool rewriteKnownAsm(llvm::Function &F);
/// Rewrites sign-bit masks on the bits of floating-point values (Eigen's
/// pabs and pnegate at -O0) as fabs, fneg and copysign (SignMasks.cpp),
/// and a new exponent set in them (rewriteExponentBits). Returns whether
/// \p F changed.
bool rewriteSignMasks(llvm::Function &F);
/// Rewrites and/or of two floats' bits, one of them a lane mask known only
/// at run time (Eigen's pand, pandnot and por at -O0), as selects with the
/// same bits (LaneMasks.cpp). Returns whether \p F changed.
bool rewriteLaneMasks(llvm::Function &F);
/// Rewrites \p Cast when it casts to floats a new exponent set in the bits
/// of floats (the mantissa of Eigen's pfrexp) as llvm.frexp and ldexp
/// (ExponentBits.cpp). Returns whether it did.
bool rewriteExponentBits(llvm::BitCastInst &Cast);
/// Rewrites casts to floats of a float's bits with a new exponent and sign
/// (frexp, scalbn and the reductions of math libraries written on the
/// words of doubles) as that float scaled by a power of two, and makes
/// the integers computed from those bits carry no derivative
/// (ScaledFloatBits.cpp). Returns whether \p F changed.
bool rewriteScaledFloatBits(llvm::Function &F);
/// Rewrites each integer min or max of a float's bits (hypot's larger high
/// word, `umax(|hx|, |hy|)` from -O1) as a comparison and a select, the
/// program's comparison where it has one, so that the choice of the floats
/// is followed (FloatBitMinMax.cpp). Returns whether \p F changed.
bool expandFloatBitMinMax(llvm::Function &F);
/// Gives no derivative to additions of 1.5 * 2^52 and the like, which
/// round to an integer (RoundingConstants.cpp). Returns whether \p F
/// changed.
bool markRoundingConstants(llvm::Function &F);
/// What the error for an intrinsic without a derivative adds after "the
/// intrinsic 'X' is not supported yet": advice for the intrinsics users
/// meet through a library (X86Intrinsics.cpp), else nothing.
llvm::StringRef unsupportedIntrinsicAdvice(const llvm::Function &Callee);
/// Removes the local variables of \p F that are only written, with their
/// writes (DeadLocals.cpp): what the rewrites above leave unread at -O0.
/// Returns whether \p F changed.
bool removeDeadLocals(llvm::Function &F);
/// Rewrites whole floats taken out of a vector of them as an integer (the
/// halves of an AVX packet) as shuffles of the floats (FloatShuffles.cpp).
/// Returns whether \p F changed.
bool rewriteFloatBitSlices(llvm::Function &F);
/// Retypes integer copies of doubles and floats (loads whose TBAA names the
/// floating-point type) carried through phis and selects to their stores
/// as copies of that floating-point type (FloatCopies.cpp). Returns whether
/// \p F changed.
bool typeFloatCopies(llvm::Function &F);
/// Makes each call in \p F of an -O0 helper that copies bytes through its
/// pointer parameters call a copy of the helper of its own, which its one
/// caller types (CopyHelperClones.cpp). Returns whether \p F changed.
bool cloneCopyHelpersPerCall(llvm::Function &F);
/// Rewrites integer loads whose bits become floats through and/or/xor (a
/// mask on the bits of doubles loaded as integers) as loads of the floats
/// and a cast of their bits (BitLoads.cpp). Returns whether \p F changed.
bool loadFloatBitsAsFloats(llvm::Function &F);
/// Reads each i64 load of a float and an int side by side (a struct
/// `{float f; int i;}` copied whole), whose bits are stored whole or cut
/// into the float and the int, as two loads of those lanes
/// (PackedWords.cpp). Returns whether \p F changed.
bool splitPackedWordLoads(llvm::Function &F);
/// Rewrites the reductions of an OpenMP region (__kmpc_reduce and
/// __kmpc_reduce_nowait, whose method the runtime chooses) as critical
/// sections, one of the runtime's own methods (OpenMPReductions.cpp).
/// Returns whether \p F changed.
bool rewriteOpenMPReductions(llvm::Function &F);
/// In a program with OpenMP regions: rewrites the compare-and-swap loops of
/// floating-point atomic updates other than sums (omp atomic `*=`, ...)
/// and then every floating-point atomicrmw of \p F as critical sections
/// on one lock (OpenMPAtomics.cpp). Returns whether \p F changed.
bool rewriteOpenMPAtomics(llvm::Function &F);
/// Passes the floating-point values that \p F passes by value into OpenMP
/// parallel regions (firstprivate scalars, captured copies) by reference,
/// loaded at the outlined function's entry, so that their derivatives come
/// out of the region (OpenMPFirstprivates.cpp). Returns whether \p F
/// changed.
bool passFloatFirstprivatesByReference(llvm::Function &F);
/// Rewrites the tied OpenMP tasks without dependences that \p F creates to
/// run at once, on the creating thread, from a record on the stack
/// (OpenMPTasks.cpp). Returns whether \p F changed.
bool runOpenMPTasksUndeferred(llvm::Function &F);
/// Rewrites each `__kmpc_taskloop` of \p F without task reductions as a
/// loop that starts a task per chunk (OpenMPTaskloops.cpp), before
/// runOpenMPTasksUndeferred. Returns whether \p F changed.
bool splitOpenMPTaskloops(llvm::Function &F);
/// The metadata on the call of a task's entry that runOpenMPTasksUndeferred
/// makes: !{record bytes, shareds bytes, source location}.
inline constexpr const char *OpenMPTaskMetadata = "adcc.omp.task";
/// The call of __kmpc_omp_wait_deps that runOpenMPTasksUndeferred puts
/// right before the entry's call \p Run of a task with `depend` clauses
/// (its arguments 2 and 3: the count and the array of kmp_depend_info), or
/// null for a task without.
llvm::CallBase *taskDependences(llvm::CallBase &Run);
/// The metadata (an empty node) on the entry's call of a task with
/// `depend` clauses.
inline constexpr const char *OpenMPTaskDepsMetadata = "adcc.omp.task.deps";
/// __kmpc_omp_wait_deps(loc, gtid, ndeps, deps, ndeps_noalias, noalias).
llvm::FunctionCallee waitDeps(llvm::Module &M);
/// The first call in \p F of an OpenMP construct that derivatives do not
/// follow (omp task, ordered, ...: rules/OpenMPRuntime.h), or null.
const llvm::CallBase *findUnsupportedOpenMPCall(const llvm::Function &F);
/// Rewrites a bitcast to floats of an integer select as a select of
/// bitcasts (FloatSelects.cpp). Returns whether \p F changed.
bool sinkFloatCastsIntoSelects(llvm::Function &F);
/// Rewrites x86 SIMD intrinsics (rounding with a constant mode, blendv,
/// min/max, addsub, horizontal sums, constant permutes) as the
/// target-independent IR that computes the same bits (X86Intrinsics.cpp).
/// Returns whether \p F changed.
bool rewriteX86Intrinsics(llvm::Function &F);

/// Keeps floating-point min/max choices (a phi or select decided by a
/// floating-point compare) as choices in the functions the module's
/// derivative requests reach, by clearing the `nnan` and `nsz` flags that
/// let InstCombine turn them into llvm.maxnum/minnum, whose ties are not the
/// program's, and puts a constant first operand of llvm.maxnum, ... second,
/// as InstCombine does from -O1 on, so that a tie of fmax(c, x) has the same
/// derivative at every level (MinMaxChoices.cpp). Run at the start of the
/// pipeline. Returns whether it changed any.
bool keepMinMaxChoices(llvm::Module &M);

/// Replaces each address of a libm function with a rule, and of an
/// allocation or deallocation function (malloc, calloc, realloc, free,
/// aligned_alloc), by the address of an internal wrapper calling it, so that
/// calls through function pointers reach a function with a body
/// (LibraryPointers.cpp). True when something changed.
bool wrapLibraryFunctionPointers(llvm::Module &M);

/// keepMinMaxChoices as a pass (pipeline start; adcc-opt's
/// `-passes=adcc-keep-min-max-choices`).
struct KeepMinMaxChoicesPass
    : public llvm::PassInfoMixin<KeepMinMaxChoicesPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// Marks the copies that move std::function's untyped storage (its move
/// constructor, std::swap<std::_Any_data>) with ErasedMoveMetadata
/// (support/IRMarks.h), before the inliner hides the functions they are in
/// (ErasedMoves.cpp). Returns whether it marked any.
bool markErasedMoves(llvm::Module &M);

/// markErasedMoves as a pass (pipeline start; adcc-opt's
/// `-passes=adcc-mark-erased-moves`).
struct MarkErasedMovesPass : public llvm::PassInfoMixin<MarkErasedMovesPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace adcore

#endif // ADCORE_PREPARE_PREPARE_H
