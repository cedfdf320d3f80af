//===- CheckpointedSteps.cpp - The step derivatives of checkpointed calls -===//
//
// What the runtime's schedules call for one step function: its derivatives
// (forward, split-mode, their forward derivatives for forward over
// reverse, batched split-mode ones), requested with Enzyme's entry points
// in small functions of fixed signatures, and the adcc_step_fns tables
// (<adcc_checkpoint.h>) that hold them.
//
//===----------------------------------------------------------------------===//

#include "CheckpointLowering.h"

#include "analysis/GlobalShadows.h"
#include "rules/CustomRules.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {

/// The names of FwdDup to RevConst (in the names of what is made).
static const char *const StepNames[] = {"fwd",       "fwd_const", "aug",
                                        "aug_const", "rev",       "rev_const"};

Function *CheckpointLowering::internal(FunctionType *T, const Twine &Name) {
  Function *F = Function::Create(T, GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::NoUnwind);
  return F;
}

Value *CheckpointLowering::marker(IRBuilder<> &IB, StringRef Name) {
  Constant *G = M.getOrInsertGlobal(Name, IB.getInt32Ty());
  return IB.CreateLoad(IB.getInt32Ty(), G);
}

namespace {

/// What a derivative of the step of variant FwdDup to RevConst takes and
/// asks for: (state, shadow, params[, shadow][, tape]) -> tape or void.
struct StepShape {
  bool Dup, Aug, Rev;
  const char *Entry;
  FunctionType *type(PointerType *Ptr) const {
    SmallVector<Type *, 5> Params(Dup ? 4 : 3, Ptr);
    if (Rev)
      Params.push_back(Ptr);
    Type *Ret = Aug ? static_cast<Type *>(Ptr)
                    : Type::getVoidTy(Ptr->getContext());
    return FunctionType::get(Ret, Params, false);
  }
};

StepShape stepShape(StepVariant V) {
  bool Aug = V == AugDup || V == AugConst;
  bool Rev = V == RevDup || V == RevConst;
  return {V == FwdDup || V == AugDup || V == RevDup, Aug, Rev,
          Aug   ? "__enzyme_augmentfwd.adcc.checkpoint"
          : Rev ? "__enzyme_reverse.adcc.checkpoint"
                : "__enzyme_fwddiff.adcc.checkpoint"};
}

} // namespace

Function *CheckpointLowering::makeStepDerivative(Function *Step,
                                                 StepVariant V) {
  Function *&Known = StepDerivatives[{Step, V}];
  if (Known)
    return Known;
  if (V >= AugDupTangent) {
    // (Forward mode over the matching split-mode derivative.)
    StepVariant Inner = StepVariant(V - AugDupTangent + AugDup);
    return Known = makeStepTangent(V, makeStepDerivative(Step, Inner));
  }
  StepShape S = stepShape(V);
  Function *F =
      internal(S.type(Ptr),
               "__adcc_step_" + Twine(StepNames[V]) + "." + Step->getName());
  IRBuilder<> IB(BasicBlock::Create(M.getContext(), "", F));
  bool Dup = S.Dup, Rev = S.Rev;
  SmallVector<Value *, 10> Args{Step, marker(IB, "enzyme_dup"), F->getArg(0),
                                F->getArg(1)};
  if (Dup)
    append_range(Args, ArrayRef<Value *>{marker(IB, "enzyme_dup"), F->getArg(2),
                                         F->getArg(3)});
  else
    append_range(Args,
                 ArrayRef<Value *>{marker(IB, "enzyme_const"), F->getArg(2)});
  if (Rev)
    Args.push_back(F->getArg(F->arg_size() - 1));
  emitRequest(IB, S.Entry, Args);
  return Known = F;
}

/// The call of the entry point \p Entry with \p Args, which ends the
/// function being built, returning what it returns.
void CheckpointLowering::emitRequest(IRBuilder<> &IB, StringRef Entry,
                                     ArrayRef<Value *> Args) {
  Type *Ret = IB.GetInsertBlock()->getParent()->getReturnType();
  FunctionCallee Callee =
      M.getOrInsertFunction(Entry, FunctionType::get(Ret, {Ptr}, true));
  CallInst *Request = IB.CreateCall(Callee, Args);
  // (Errors in the step's derivatives point at the call it came from.)
  Request->setDebugLoc(CurrentLoc);
  if (Ret->isVoidTy())
    IB.CreateRetVoid();
  else
    IB.CreateRet(Request);
}

/// Forward mode over \p Inner, the step's augmented (AugDup, AugConst) or
/// reverse (RevDup, RevConst) function: each of its pointer parameters
/// followed by its tangent; the augmented one stores the tape through its
/// last parameter, the reverse one takes it last.
Function *CheckpointLowering::makeStepTangent(StepVariant V, Function *Inner) {
  bool Aug = V == AugDupTangent || V == AugConstTangent;
  unsigned Pointers = Inner->arg_size() - (Aug ? 0 : 1);
  // The augmented function made to store its tape (forward mode reads
  // no pointer result).
  Function *Primal = Inner;
  if (Aug) {
    SmallVector<Type *, 5> Params(Pointers + 1, Ptr);
    Primal = internal(FunctionType::get(B.getVoidTy(), Params, false),
                      Inner->getName() + ".out");
    IRBuilder<> IB(BasicBlock::Create(M.getContext(), "", Primal));
    SmallVector<Value *, 4> Args;
    for (unsigned I = 0; I < Pointers; ++I)
      Args.push_back(Primal->getArg(I));
    IB.CreateStore(IB.CreateCall(Inner, Args), Primal->getArg(Pointers));
    IB.CreateRetVoid();
  }
  SmallVector<Type *, 10> Params(2 * Pointers + 1, Ptr);
  Function *F = internal(FunctionType::get(B.getVoidTy(), Params, false),
                         Inner->getName() + ".tangent");
  IRBuilder<> IB(BasicBlock::Create(M.getContext(), "", F));
  SmallVector<Value *, 16> Args{Primal};
  for (unsigned I = 0; I < Pointers; ++I)
    append_range(Args,
                 ArrayRef<Value *>{marker(IB, "enzyme_dup"), F->getArg(2 * I),
                                   F->getArg(2 * I + 1)});
  Value *Tape = F->getArg(2 * Pointers);
  if (Aug)
    append_range(Args, ArrayRef<Value *>{marker(IB, "enzyme_dup"), Tape,
                                         IB.CreateAlloca(Ptr)});
  else
    append_range(Args, ArrayRef<Value *>{marker(IB, "enzyme_const"), Tape});
  emitRequest(IB, "__enzyme_fwddiff.adcc.checkpoint", Args);
  return F;
}

/// The table of the global variables the steps write (adcc_global_region
/// rows: address, shadow global, bytes), or null for none.
Constant *
CheckpointLowering::globalRegions(Function *Step,
                                  ArrayRef<GlobalVariable *> Globals) {
  if (Globals.empty())
    return ConstantPointerNull::get(Ptr);
  const DataLayout &DL = M.getDataLayout();
  auto *Row = StructType::get(Ptr, Ptr, B.getInt64Ty());
  SmallVector<Constant *, 4> Rows;
  for (GlobalVariable *G : Globals) {
    Constant *Shadow =
        hasShadowGlobal(*G, &Ctx.rules())
            ? static_cast<Constant *>(shadowGlobal(*G, 0, Ctx.rules()))
            : ConstantPointerNull::get(Ptr);
    Rows.push_back(ConstantStruct::get(
        Row, {G, Shadow, B.getInt64(DL.getTypeAllocSize(G->getValueType()))}));
  }
  auto *T = ArrayType::get(Row, Rows.size());
  return new GlobalVariable(
      M, T, /*isConstant=*/true, GlobalValue::InternalLinkage,
      ConstantArray::get(T, Rows), "__adcc_step_globals." + Step->getName());
}

/// The step's adcc_step_fns (<adcc_checkpoint.h>).
Constant *CheckpointLowering::makeTable(Function *Step, Function *Cond,
                                        ArrayRef<GlobalVariable *> Globals) {
  Constant *&Known = Tables[{Step, Cond}];
  if (Known)
    return Known;
  SmallVector<Constant *, 14> Fns{Step};
  Fns.push_back(Cond ? static_cast<Constant *>(Cond)
                     : ConstantPointerNull::get(Ptr));
  // (Forward over reverse advances with FwdDup.)
  bool Tangents = OverReverse && Globals.empty();
  for (StepVariant V :
       {FwdDup, FwdConst, AugDup, AugConst, RevDup, RevConst, AugDupTangent,
        AugConstTangent, RevDupTangent, RevConstTangent}) {
    bool Needed = V == FwdDup     ? Forward || Tangents
                  : V == FwdConst ? Forward
                  : V <= RevConst ? Reverse
                                  : Tangents;
    Fns.push_back(Needed ? static_cast<Constant *>(makeStepDerivative(Step, V))
                         : ConstantPointerNull::get(Ptr));
  }
  Fns.push_back(globalRegions(Step, Globals));
  Fns.push_back(B.getInt64(Globals.size()));
  SmallVector<Type *, 14> Fields(Fns.size() - 1, Ptr);
  Fields.push_back(B.getInt64Ty());
  auto *T = StructType::get(M.getContext(), Fields);
  auto *G = new GlobalVariable(
      M, T, /*isConstant=*/true, GlobalValue::InternalLinkage,
      ConstantStruct::get(T, Fns), "__adcc_step_table." + Step->getName());
  Known = G;
  return G;
}

/// A batched (\p Width lanes) forward or split-mode derivative of the
/// step, FwdDup to RevConst, taking each shadow as an array of its lanes'
/// (the runtime passes them through as single pointers):
///
///   void *aug(s, ds[W], p, dp[W])
///       { return __enzyme_augmentfwd(step, enzyme_width, W,
///                                    dup s ds[0] ... ds[W-1], ...); }
Function *CheckpointLowering::makeBatchedStep(Function *Step, StepVariant V,
                                              unsigned Width) {
  StepShape S = stepShape(V);
  bool Dup = S.Dup, Rev = S.Rev;
  Function *F = internal(S.type(Ptr),
                         "__adcc_step_" + Twine(StepNames[V]) + ".w" +
                             Twine(Width) + "." + Step->getName());
  IRBuilder<> IB(BasicBlock::Create(M.getContext(), "", F));
  auto Lanes = [&](Value *Array, SmallVectorImpl<Value *> &Args) {
    for (unsigned L = 0; L < Width; ++L)
      Args.push_back(IB.CreateLoad(Ptr, IB.CreateConstGEP1_32(Ptr, Array, L)));
  };
  SmallVector<Value *, 16> Args{Step, marker(IB, "enzyme_width"),
                                IB.getInt32(Width), marker(IB, "enzyme_dup"),
                                F->getArg(0)};
  Lanes(F->getArg(1), Args);
  if (Dup) {
    append_range(Args,
                 ArrayRef<Value *>{marker(IB, "enzyme_dup"), F->getArg(2)});
    Lanes(F->getArg(3), Args);
  } else {
    append_range(Args,
                 ArrayRef<Value *>{marker(IB, "enzyme_const"), F->getArg(2)});
  }
  if (Rev)
    Args.push_back(F->getArg(F->arg_size() - 1));
  emitRequest(IB, S.Entry, Args);
  return F;
}

/// The step's adcc_step_fns for a batched gradient: its batched split-mode
/// derivatives (no globals: those are refused).
Constant *CheckpointLowering::makeBatchedTable(Function *Step, Function *Cond,
                                               unsigned Width, bool Forward) {
  SmallVector<Constant *, 14> Fns{Step};
  Fns.push_back(Cond ? static_cast<Constant *>(Cond)
                     : ConstantPointerNull::get(Ptr));
  for (StepVariant V : {FwdDup, FwdConst, AugDup, AugConst, RevDup, RevConst})
    Fns.push_back((V <= FwdConst) == Forward
                      ? static_cast<Constant *>(makeBatchedStep(Step, V, Width))
                      : ConstantPointerNull::get(Ptr));
  Fns.append(5, ConstantPointerNull::get(Ptr));
  Fns.push_back(B.getInt64(0));
  SmallVector<Type *, 14> Fields(Fns.size() - 1, Ptr);
  Fields.push_back(B.getInt64Ty());
  auto *T = StructType::get(M.getContext(), Fields);
  return new GlobalVariable(
      M, T, /*isConstant=*/true, GlobalValue::InternalLinkage,
      ConstantStruct::get(T, Fns),
      "__adcc_step_table." + Twine(Forward ? "fwd." : "") + "w" + Twine(Width) +
          "." + Step->getName());
}

} // namespace adcore
