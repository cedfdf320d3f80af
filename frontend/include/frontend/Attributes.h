//===- frontend/Attributes.h - adcc's derivative attributes ---*- C++ -*-===//
//
// The annotation attributes that mark a function for differentiation:
//
//   __attribute__((adcc_forward(d_f, "Dual, Const, Dual")))   // GNU
//   [[adcc::forward(d_f, "Dual", "Const", "Dual")]]          // C++11 / C23
//
// and their `_batch` and reverse-mode variants, normally written through the
// <adcc.h> macros (ADCC_FORWARD(d_f, Dual, Const, Dual)). For each marked
// function f the frontend declares the derivative d_f in f's scope and
// annotates f's definition for the AD engine. See docs/api.md for the rules
// and lib/AttributesInternal.h for the encoding the IR side reads.
//
//===----------------------------------------------------------------------===//
#ifndef ADCC_FRONTEND_ATTRIBUTES_H
#define ADCC_FRONTEND_ATTRIBUTES_H

namespace clang {
class CompilerInstance;
} // namespace clang

namespace adcc::frontend {

/// Enables the derivative attributes in the compile that \p CI will run: the
/// attribute handlers are registered with Clang once per process (statically,
/// in this library), and the AST consumer that completes them (checks
/// prototypes written after the attribute, declares the derivatives of
/// template instantiations) is added to \p CI's frontend action.
void enableDerivativeAttributes(clang::CompilerInstance &CI);

/// Enables the custom-derivative attributes (RuleAttributes.cpp):
/// ADCC_FORWARD_RULE(f), ADCC_REVERSE_RULE(f, f_aug) and ADCC_INACTIVE,
/// which become the registrations of adcore/lib/rules/CustomRules.h.
void enableRuleAttributes();

/// Enables the checkpointed-loop annotation (CheckpointAttribute.cpp):
/// ADCC_CHECKPOINT(snapshots[, schedule]) and [[adcc::checkpoint(...)]] on
/// a `for` or `while` loop.
void enableCheckpointAttribute();

} // namespace adcc::frontend

#endif // ADCC_FRONTEND_ATTRIBUTES_H
