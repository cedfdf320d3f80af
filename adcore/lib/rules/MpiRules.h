//===- rules/MpiRules.h - Derivatives of MPI calls ---------------*- C++
//-*-===//
//
// What adcc knows of MPI calls in differentiated code (docs/parallel.md#mpi):
// the point-to-point and collective calls that have derivative rules, given
// to the emitters as the rules a program registers would be (a forward
// derivative, an augmented and a reverse function; CustomRules.h), whose
// work is done by C functions of the runtime (runtime/lib/mpi/); the calls
// that carry no derivative (MPI_Comm_rank, MPI_Wtime, ...); and those that
// are refused with an error (one-sided communication, MPI_Comm_spawn,
// MPI_Op_create, datatypes and operators without a rule).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_RULES_MPIRULES_H
#define ADCORE_RULES_MPIRULES_H

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace llvm {
class CallBase;
class CallInst;
class Function;
class Module;
} // namespace llvm

namespace adcore {

/// Whether \p F is an MPI call with a derivative rule (MPI_Send, ...).
bool isMpiRuleFunction(const llvm::Function &F);

/// The forward derivative of the MPI call \p F, made in F's module the first
/// time (null when F has no rule or not the expected parameters).
llvm::Function *mpiForwardRule(const llvm::Function &F);

/// The augmented and reverse functions of the MPI call \p F; false when it
/// has no rule.
bool mpiGradientRule(const llvm::Function &F, llvm::Function *&Augmented,
                     llvm::Function *&Reverse);

/// MPI calls that carry no derivative (ranks, sizes, timers, ...).
bool isInactiveMpiFunction(const llvm::Function &F);

/// For a known MPI call \p F (one with a rule or an inactive one): the
/// parameters whose memory it writes (receive buffers, requests, statuses,
/// the integers of queries; an MPI_Irecv its buffer, which its wait fills),
/// in \p Written; it reads the others only. False for other functions.
bool mpiWrittenArguments(const llvm::Function &F,
                         llvm::SmallVectorImpl<unsigned> &Written);

/// For a call in differentiated code: the message of the error when it is
/// an MPI call adcc refuses there (one-sided communication, process
/// spawning, user-defined operators, a predefined datatype or operator
/// without a rule); otherwise empty.
std::string mpiCallError(const llvm::CallBase &Call);

/// Whether \p M calls MPI (declares a function MPI_...).
bool callsMpi(const llvm::Module &M);

/// After \p Call, a call of a reverse sweep (__enzyme_autodiff,
/// __enzyme_reverse) in a program that calls MPI: waits for the adjoint
/// messages the sweep sent from kept copies (runtime/lib/mpi/sendmodes.c),
/// so that no request the derivative started is left when it returns. The
/// runtime function is referenced weakly: it is there when the derivative
/// pulled in the runtime's MPI sends.
void emitMpiDrainAfter(llvm::CallInst &Call);

} // namespace adcore

#endif // ADCORE_RULES_MPIRULES_H
