//===- CheckpointRuntime.h - The calls of checkpointed loops -*- C++ -*-===//
//
// What adcc knows of the C calls that run checkpointed loops and fixed
// points (adcc_checkpointed_steps, adcc_checkpointed_while,
// adcc_fixed_point; docs/checkpointing.md) and of the runtime functions
// their derivatives call: one row per call. CheckpointedCalls.cpp lowers
// the calls; the emitters refuse a derivative of those derivatives.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_RULES_CHECKPOINTRUNTIME_H
#define ADCORE_RULES_CHECKPOINTRUNTIME_H

#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace adcore {

/// One public call. Arguments are numbered as the call has them; the
/// function made for a call site (the *loop function*) takes them without
/// the step and condition functions, and its derivatives interleave
/// shadows. The runtime calls' argument lists are written over the loop
/// function's parameters: `vK` the value of parameter K, `dK` its shadow.
/// Forward mode over the gradient (forward over reverse) calls the
/// `*Tangent` functions (none: not supported) from forward derivatives of
/// the augmented and reverse functions; their lists are written over those
/// functions' parameters: `vK` the value of parameter K, `tK` its tangent.
struct CheckpointRow {
  const char *Name;
  const char *Short; // (in names of what is made)
  unsigned NumArgs;
  int Cond;               // the condition function's argument, or -1
  int Snapshots;          // the snapshot budget's argument, or -1
  unsigned State, Params; // (loop function parameters)
  const char *Tangent, *TangentArgs;
  const char *Record, *RecordArgs;
  const char *Reverse, *ReverseArgs;
  const char *RecordTangent, *RecordTangentArgs;
  const char *ReverseTangent, *ReverseTangentArgs;
};

inline constexpr CheckpointRow CheckpointRows[] = {
    {"adcc_checkpointed_steps", "steps", 8, -1, 7, 1, 3, "adcc_steps_tangent",
     "v0 v1 d1 v3 d3", "adcc_steps_record", "v0 v1 d1 v2 v3 d3 v4 v5 v6",
     "adcc_steps_reverse", "d1 d3", "adcc_steps_record_tangent",
     "v0 v1 t1 v2 t2 v3 v4 t4 v5 t5 v6 v7 v8", "adcc_steps_reverse_tangent",
     "v9 v2 t2 v5 t5"},
    {"adcc_checkpointed_while", "while", 7, 1, 6, 0, 2, "adcc_while_tangent",
     "v0 d0 v2 d2", "adcc_while_record", "v0 d0 v1 v2 d2 v3 v4",
     "adcc_steps_reverse", "d0 d2", "adcc_while_record_tangent",
     "v0 t0 v1 t1 v2 v3 t3 v4 t4 v5 v6", "adcc_steps_reverse_tangent",
     "v7 v1 t1 v4 t4"},
    {"adcc_fixed_point", "fixed_point", 7, -1, -1, 0, 2,
     "adcc_fixed_point_tangent", "v0 d0 v1 v2 d2 v4 v5",
     "adcc_fixed_point_record", "v0 v1 v2 v3 v4 v5", "adcc_fixed_point_reverse",
     "d0 d2", nullptr, nullptr, nullptr, nullptr},
};

/// For a call of \p Callee in code being differentiated: when it is one of
/// the runtime calls that a checkpointed loop's derivatives make (a
/// derivative of a derivative through the loop), the message of the error
/// that says this is not supported; otherwise empty.
std::string nestedCheckpointMessage(const llvm::Function &Callee);

} // namespace adcore

#endif // ADCORE_RULES_CHECKPOINTRUNTIME_H
