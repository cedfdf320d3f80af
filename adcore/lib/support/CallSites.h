//===- CallSites.h - Replacing calls and invokes (private) -----*- C++ -*-===//
//
// Calls that may throw are `invoke` terminators in C++ code. Replacing one
// by a call to a derivative needs another invoke with the same normal and
// unwind destinations, and the code that uses its result goes to the start
// of the normal path.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_CALLSITES_H
#define ADCORE_CALLSITES_H

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstrTypes.h"

#include "adcore/Derivative.h"

namespace adcore {

/// Emits a call of \p Callee with \p Args that takes the place of \p Old:
/// a call at \p B's position (which the caller keeps next to \p Old, after
/// the code computing \p Args), or an invoke with \p Old's destinations in
/// front of it. \p Old must then be erased by the caller. On return \p B is
/// where code using the new call's result goes.
llvm::CallBase *emitReplacementCall(llvm::IRBuilder<> &B, llvm::CallBase &Old,
                                    llvm::FunctionCallee Callee,
                                    llvm::ArrayRef<llvm::Value *> Args,
                                    const llvm::Twine &Name = "");

/// Gives the generated function \p D the primal's function attributes that
/// stay true (target features, frame pointer, ...), less those it breaks
/// (it writes shadow memory) or that keep it from being optimized (optnone,
/// which clang puts on everything at -O0); makes it internal. Where the
/// primal has points without a derivative (DerivativeStops.h), \p D stops
/// the program there.
void prepareDerivativeFunction(const llvm::Function &Primal, llvm::Function &D);

/// Gives \p Rev, the reverse sweep of \p Primal, those of the primal's
/// function attributes that the compile put on every function (target CPU
/// and features, floating-point options, frame pointer, stack protection,
/// unwind tables, size optimization), none of those that describe what
/// the primal does (memory, no return, allocation). Without them the sweep
/// was compiled for the default target and, once inlined, turned the
/// caller's floating-point options off (the inliner keeps an option such as
/// "no-nans-fp-math" only where caller and callee both have it).
void prepareReverseSweep(const llvm::Function &Primal, llvm::Function &Rev);

/// Copies those attributes of \p From's parameter \p FromArg to \p To's
/// parameter \p ToArg.
void copyPointerFacts(const llvm::Function &From, unsigned FromArg,
                      llvm::Function &To, unsigned ToArg);

/// The C string a constant points to (a private global's initializer), or
/// empty.
llvm::StringRef constantString(llvm::Constant *C);

/// Defined, address-taken functions of \p M with type \p FT: the possible
/// targets of a call through a function pointer of that type.
llvm::SmallVector<llvm::Function *, 8>
possibleCallTargets(llvm::Module &M, llvm::FunctionType *FT);

/// Positions \p B where code that uses \p Call's result goes: after a call,
/// or at the start of an invoke's normal path (given a block of its own).
void positionAfterCall(llvm::IRBuilder<> &B, llvm::CallBase &Call);

/// Whether and how far companionCall moves a companion found after its
/// call up to just after it.
enum class CompanionMove {
  /// Not moved: one after the call is returned as is (reverse mode).
  None,
  /// Across arithmetic and other libm calls (forward mode).
  AcrossMath,
  /// As AcrossMath, but a companion that has an effect (libm's errno) only
  /// across code without one: in split forward mode each of those is read
  /// from the records in the tangent sweep's order, which must stay the
  /// primal's (the recording sweep's).
  KeepRecordOrder,
};

/// The call that computes the partial derivative of the math call \p Call
/// (rule \p RuleName: sin, cos, sinh, cosh) on the same operand in the
/// same block, cos x for sin x, if \p Usable accepts it; minus its value
/// when \p Negate. One after \p Call is moved to just after it as \p Move
/// allows (MathCompanions.cpp); without a move, returned as is. Null when
/// there is none (or none that may move).
llvm::CallInst *
companionCall(llvm::CallBase &Call, llvm::StringRef RuleName, bool &Negate,
              llvm::function_ref<bool(const llvm::CallInst &)> Usable,
              CompanionMove Move = CompanionMove::AcrossMath);

/// Whether \p Obj (an underlying object) is a C++ exception object
/// (__cxa_allocate_exception): the value thrown carries no derivative.
bool isExceptionObject(const llvm::Value *Obj);

/// An internal, differentiable body for \p Callee when it is a complex
/// helper without one (__muldc3, __divsc3, cabs, carg, ...): the textbook
/// formula (ComplexRuntime.cpp). Null for other functions.
llvm::Function *complexRuntimeBody(llvm::Function &Callee);

/// The error message for a call of \p Callee, which has no body and no
/// rule: what it is and what the user can do. \p Registration is the
/// prefix of the registration that would give it a derivative in this mode
/// (`__enzyme_register_derivative_` or `__enzyme_register_gradient_`).
std::string missingBodyMessage(const llvm::Function &Callee,
                               llvm::StringRef Registration);

/// Inlines every direct call of the module's function \p Name (a helper
/// adcc made, kept out of line while the derivatives were built) and
/// erases it once nothing uses it.
void inlineHelperCalls(llvm::Module &M, llvm::StringRef Name);

} // namespace adcore

#endif // ADCORE_CALLSITES_H
