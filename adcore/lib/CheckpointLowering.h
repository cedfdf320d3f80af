//===- CheckpointLowering.h - Lowering checkpointed calls ------*- C++ -*-===//
//
// The lowering of one round of checkpointed calls (CheckpointedCalls.h),
// private to the two files that hold it: CheckpointedCalls.cpp (the calls,
// the loop functions and their registered derivatives) and
// CheckpointedSteps.cpp (the step's derivatives the runtime calls, and the
// tables that hand them to it).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_CHECKPOINTLOWERING_H
#define ADCORE_CHECKPOINTLOWERING_H

#include "Synthesis.h"
#include "rules/CheckpointRuntime.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <map>
#include <tuple>

namespace adcore {

/// The step's derivatives that one kind of call of the runtime makes (the last
/// four: forward mode over AugDup, AugConst, RevDup, RevConst).
enum StepVariant {
  FwdDup,
  FwdConst,
  AugDup,
  AugConst,
  RevDup,
  RevConst,
  AugDupTangent,
  AugConstTangent,
  RevDupTangent,
  RevConstTangent
};

/// One round of checkpointed calls: each call becomes a call of a loop
/// function with registered derivatives, which hand the runtime a table of
/// the step's derivatives.
class CheckpointLowering {
public:
  CheckpointLowering(llvm::Module &M, SynthesisContext &Ctx, bool Forward,
                     bool Reverse, bool OverReverse,
                     llvm::ArrayRef<unsigned> Widths,
                     llvm::ArrayRef<unsigned> ForwardWidths)
      : M(M), Ctx(Ctx), B(M.getContext()), Ptr(B.getPtrTy()), Forward(Forward),
        Reverse(Reverse), OverReverse(OverReverse), Widths(Widths),
        ForwardWidths(ForwardWidths) {}

  /// Lowers \p Call; false after reporting an error at it.
  bool lower(llvm::CallBase &Call, const CheckpointRow &Row);
  bool addedRequests() const { return !Made.empty(); }

private:
  // CheckpointedCalls.cpp: the call, the loop function and its rules.
  llvm::Function *stepFunction(llvm::CallBase &Call, unsigned Arg,
                               const char *Role, const CheckpointRow &Row,
                               bool Condition);
  llvm::Function *intCondition(llvm::Function *Cond);
  void warnReplayed(llvm::CallBase &Call, const CheckpointRow &Row,
                    const llvm::SmallPtrSetImpl<const llvm::Function *> &Reach);
  llvm::Function *makeLoop(llvm::CallBase &Call, const CheckpointRow &Row,
                           llvm::Function *Step, llvm::Function *Cond,
                           llvm::ArrayRef<llvm::GlobalVariable *> Globals);
  llvm::Function *makeRule(llvm::Function *Loop, const CheckpointRow &Row,
                           llvm::Constant *Table, char Kind,
                           unsigned Width = 1);
  llvm::Function *makeRuleTangent(llvm::Function *Rule,
                                  const CheckpointRow &Row,
                                  llvm::Constant *Table, char Kind);
  bool overReverse(const CheckpointRow &Row,
                   llvm::ArrayRef<llvm::GlobalVariable *> Globals) const {
    return OverReverse && Reverse && Row.RecordTangent && Globals.empty();
  }

  // CheckpointedSteps.cpp: the step's derivatives and their tables.
  llvm::Constant *makeTable(llvm::Function *Step, llvm::Function *Cond,
                            llvm::ArrayRef<llvm::GlobalVariable *> Globals);
  llvm::Constant *makeBatchedTable(llvm::Function *Step, llvm::Function *Cond,
                                   unsigned Width, bool Forward);
  llvm::Constant *globalRegions(llvm::Function *Step,
                                llvm::ArrayRef<llvm::GlobalVariable *> Globals);
  llvm::Function *makeStepDerivative(llvm::Function *Step, StepVariant V);
  llvm::Function *makeStepTangent(StepVariant V, llvm::Function *Inner);
  llvm::Function *makeBatchedStep(llvm::Function *Step, StepVariant V,
                                  unsigned Width);
  llvm::Function *internal(llvm::FunctionType *T, const llvm::Twine &Name);
  llvm::Value *marker(llvm::IRBuilder<> &IB, llvm::StringRef Name);
  void emitRequest(llvm::IRBuilder<> &IB, llvm::StringRef Entry,
                   llvm::ArrayRef<llvm::Value *> Args);

  llvm::Module &M;
  SynthesisContext &Ctx;
  llvm::IRBuilder<> B;
  llvm::PointerType *Ptr;
  /// The modes the module's checkpointed calls are differentiated in (only
  /// those derivatives of the steps are requested); OverReverse: forward
  /// mode over their gradients.
  bool Forward, Reverse, OverReverse;
  /// The widths (> 1) of batched gradients through the calls.
  llvm::SmallVector<unsigned, 2> Widths;
  /// The widths (> 1) of batched forward derivatives through the calls.
  llvm::SmallVector<unsigned, 2> ForwardWidths;
  std::map<
      std::tuple<const CheckpointRow *, llvm::Function *, llvm::Function *>,
      llvm::Function *>
      Made;
  std::map<std::pair<llvm::Function *, llvm::Function *>, llvm::Constant *>
      Tables;
  /// The step derivatives made, by step and variant.
  std::map<std::pair<llvm::Function *, StepVariant>, llvm::Function *>
      StepDerivatives;
  /// The call being lowered (errors in the step's derivatives point there).
  llvm::DebugLoc CurrentLoc;
};

} // namespace adcore

#endif // ADCORE_CHECKPOINTLOWERING_H
