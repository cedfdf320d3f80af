//===- support/IRMarks.h - Names adcc gives IR it marks ---------*- C++ -*-===//
//
// The function attribute and the metadata kinds that adcc puts on the code
// it rewrites and generates, read again by later stages, and the one error
// message both emitters give for an address kept in an integer.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SUPPORT_IRMARKS_H
#define ADCORE_SUPPORT_IRMARKS_H


namespace adcore {

/// Function attribute of generated functions that push or pop tape records.
constexpr const char *UsesTapeAttribute = "adcc-uses-tape";
/// Function attribute, during the AD pass, of an address-taken function
/// that no differentiated code can call through a pointer
/// (analysis/IndirectTargets.h): no candidate of such calls.
constexpr const char *NotCalledThroughPointers = "adcc-not-called-through-pointers";
/// Metadata on a reverse sweep's load of a tape record that holds an
/// integer (a loop count, a block id), never the bits of a float.
constexpr const char *IntegerRecordMetadata = "adcc.integer";
/// The function attribute of a launched kernel's body made a device
/// function (device/LaunchKernels.cpp): its parameters are still a
/// kernel's, and the derivative of a launch stops with a message where a
/// pointer parameter the kernel may write through has no shadow.
constexpr const char *KernelBodyAttr = "adcc-kernel-body";
/// The prefix of the IR names of <adcc/kernels.hpp>'s functions
/// (adcc::detail::...), whose launches the header differentiates itself. A
/// work-item's function there, `KernelArgs<...>::item(index, Actives *,
/// Consts *)`, gets its pointer arguments with shadows in its second
/// parameter (a launch stops where one has none).
constexpr const char *KernelsHeaderPrefix = "_ZN4adcc6detail";
/// Metadata on an instruction of a rewritten primal whose result carries no
/// derivative, whatever its operands (the bits of a float in a branch
/// taken only for inputs where the function is constant: ExponentBits.cpp).
constexpr const char *NoDerivativeMetadata = "adcc.no.derivative";
/// Metadata on a cast of integer bits to a float that copies another
/// float's significand in place but could not be followed (its bits also
/// go where a derivative cannot: ScaledFloatBits.cpp): an error where it is
/// differentiated (findUntraceableFloatBits), never a derivative of 0.
constexpr const char *UnfollowedBitsMetadata = "adcc.unfollowed.bits";
/// Metadata on a float given a new exponent in its bits, rewritten as its
/// source scaled (ScaledFloatBits.cpp), holding a message: its tangent is
/// the source's times 2^k, which no double holds where a subnormal is
/// normalized (k + the source's own scaling >= 1024); a forward derivative
/// stops there at run time (emitTangentOverflowStop) rather than carry
/// inf and NaN on.
constexpr const char *ScaledTangentMetadata = "adcc.scaled.tangent";
/// Metadata on the push of an augmented sweep's end records (the values it
/// records once, at its return) and on the pop of its reverse sweep that
/// reads them back: one node per augmented sweep, naming it. Groups of
/// records pushed outside loops are tagged the same way, with one node per
/// group, {sweep, group number}: each such push and pop runs at most once
/// per call, so a combined gradient can keep the group in its frame.
constexpr const char *EndRecordsMetadata = "adcc.end.records";
/// Metadata on a load or store through a pointer that may be a dense view
/// without memory (requests/DenseViews.h) once it asks for that view's tag:
/// all such views share the tag, so the access asks once.
constexpr const char *NoMemoryChoiceMetadata = "adcc.no.memory.choice";
/// Metadata on the additions of a reverse sweep that sum an adjoint: the
/// arithmetic contractDerivativeArithmetic may fuse once the derivatives
/// are simplified (ContractArithmetic.h).
constexpr const char *AdjointSumMetadata = "adcc.adjoint.sum";

/// Metadata on a pointer of a simplified copy (prepare/SimplifiedCopies.h)
/// that an inlined callee's C++ parameter type said points to floating-point
/// numbers (`double const*`): {!"double"} or {!"float"}, or to a struct
/// with floating-point fields (a lambda's closure passed by `const&`): the
/// struct's IR name, {!"class.anon.3"}. Inlining loses the
/// callee's name, which the type analysis reads such types from; the mark
/// keeps them (Eigen's TensorEvaluator::evalSubExprsIfNeeded(double*)
/// handing its destination to DefaultDevice::memcpy of `void *`). On a
/// copy's function: {i32 argument number, !"double"} nodes, one per
/// parameter such a type reached.
constexpr const char *PointeeMetadata = "adcc.pointee";

/// Metadata on a copy that moves std::function's untyped storage (its move
/// constructor, std::swap<std::_Any_data>: prepare/ErasedMoves.cpp): a
/// move whose source is dead after it, whatever its bytes hold, so that
/// the reverse sweep moves the adjoints back as they are.
constexpr const char *ErasedMoveMetadata = "adcc.erased.move";

/// Metadata on a shadow global adcc made of a static global (or of a lane
/// of a vector derivative): no other file and no mark of the program names
/// it, and it is zeroed after each derivative call (ShadowRelease.h).
/// Made of a global other files see, it holds {!"unless named"}: zeroed
/// unless a file of the program names it (NamedShadowPrefix).
constexpr const char *OwnShadowMetadata = "adcc.shadow.own";

/// Prefix of the weak marker a file defines for each `<name>_shadow` it
/// declares and uses (`adcc.names.<name>_shadow`): where the linker finds
/// none, the shadow is adcc's own and zeroed after each derivative call.
constexpr const char *NamedShadowPrefix = "adcc.names.";

/// The error for an address of memory with derivatives kept in an integer
/// variable that becomes a pointer again (both modes, at -O0).
constexpr const char *AddressInIntegerError =
    "the address of memory with derivatives is kept in an integer variable "
    "(`(uintptr_t)p`), whose derivative would be lost; compute the address "
    "with pointer arithmetic";

} // namespace adcore

#endif // ADCORE_SUPPORT_IRMARKS_H
