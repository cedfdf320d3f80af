//===- CheckpointedCalls.cpp - Checkpointed loops and fixed points -------===//
//
// A call `adcc_checkpointed_steps((void *)step, n, state, bytes, params,
// params_bytes, schedule, snapshots)` in differentiated code becomes a call
// of a function named `adcc_checkpointed_steps(step)` taking the same
// arguments but the step, which runs the same call. That function gets
// registered derivatives (as
// __enzyme_register_derivative_ / __enzyme_register_gradient_ would give):
// its forward derivative, augmented and reverse functions call the
// runtime's schedules (runtime/lib/checkpoint.c, fixed_point.c) with a
// table of the step's derivatives, which are requested here as a program
// would request them:
//
//   void fwd(s, ds, p, dp)   { __enzyme_fwddiff(step, dup s, ds, dup p, dp); }
//   void *aug(s, ds, p, dp)  { return __enzyme_augmentfwd(step, ...); }
//   void rev(s, ds, p, dp, t){ __enzyme_reverse(step, ..., t); }
//
// and the same with `enzyme_const p` (params without a shadow). Where a
// gradient through the call is itself differentiated in forward mode
// (forward over reverse: Hessian-vector products), the augmented and
// reverse functions get registered forward derivatives too, which call the
// runtime's schedules with tangents and the forward derivatives of `aug`
// and `rev`:
//
//   void aug_t(s, ts, ds, tds, p, tp, dp, tdp, void **tape)
//       { __enzyme_fwddiff(aug_out, dup s ts, ..., dup tape t_tape); }
//   void rev_t(s, ts, ds, tds, p, tp, dp, tdp, t)
//       { __enzyme_fwddiff(rev, dup s ts, ..., const t); }
//
//===----------------------------------------------------------------------===//

#include "CheckpointedCalls.h"
#include "CheckpointLowering.h"
#include "rules/CheckpointRuntime.h"

#include "Synthesis.h"
#include "analysis/GlobalShadows.h"
#include "requests/RequestMarkers.h"
#include "rules/CustomRules.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

#include <map>
#include <set>

using namespace llvm;

namespace adcore {
namespace {

/// Functions whose effects a program sees when they run again (output,
/// input, clocks, random numbers): matched by the start of their names.
constexpr const char *ReplayVisible[] = {
    "printf",      "fprintf",  "vprintf", "vfprintf", "puts",    "fputs",
    "putchar",     "fputc",    "putc",    "fwrite",   "write",   "scanf",
    "fscanf",      "fread",    "read",    "getchar",  "fgets",   "rand",
    "random",      "drand48",  "time",    "clock",    "_ZStlsI", "_ZNSolsE",
    "_ZNSo5write", "_ZNSirsE", "_ZStrsI",  "erand48", "lrand48", "nrand48",
    "mrand48",     "jrand48",  "rand_r",  "random_r",
};

bool replayVisible(const Function &F) {
  StringRef Name = F.getName();
  for (const char *Prefix : ReplayVisible)
    if (Name == Prefix || (Name.starts_with(Prefix) && Name.starts_with("_Z")))
      return true;
  return false;
}

/// Marks the functions made for call sites (whose own call of the public
/// function is the primal, never lowered again).
constexpr StringRef LoopAttr = "adcc-checkpoint-loop";

const CheckpointRow *rowFor(const Function *Callee) {
  if (!Callee)
    return nullptr;
  for (const CheckpointRow &Row : CheckpointRows)
    if (Callee->getName() == Row.Name)
      return &Row;
  return nullptr;
}

/// The call's argument that is loop function parameter \p K.
unsigned callArgument(const CheckpointRow &Row, unsigned K) {
  return K + 1 + (Row.Cond >= 0 ? 1 : 0);
}

} // namespace

/// A warning at \p Call for each call in the steps (\p Reach) that the
/// gradient runs again, visibly, when it recomputes steps: output, input,
/// clocks, random numbers, and functions marked inactive (whose writes the
/// snapshots do not hold).
void CheckpointLowering::warnReplayed(
    CallBase &Call, const CheckpointRow &Row,
    const SmallPtrSetImpl<const Function *> &Reach) {
  SmallPtrSet<const Function *, 4> Named;
  for (const Function *F : Reach)
    for (const Instruction &I : instructions(*F)) {
      auto *C = dyn_cast<CallBase>(&I);
      const Function *Callee = C ? C->getCalledFunction() : nullptr;
      if (!Callee || Named.contains(Callee))
        continue;
      bool Marked = Ctx.rules().isInactive(Callee);
      if (!Marked && !replayVisible(*Callee))
        continue;
      Named.insert(Callee);
      Function &Caller = *Call.getFunction();
      Caller.getContext().diagnose(DiagnosticInfoUnsupported(
          Caller,
          Twine("the steps of ") + Row.Name + " call '" + Callee->getName() +
              "'" + (Marked ? ", marked inactive," : "") +
              " which the gradient runs again when it recomputes steps",
          Call.getDebugLoc(), DS_Warning));
    }
}

/// \p Cond, or for one that returns a `bool` (or another integer than
/// `int`), a function returning its result as the `int` the runtime reads
/// (only the low bits of a `bool` result are defined).
Function *CheckpointLowering::intCondition(Function *Cond) {
  Type *Int = B.getInt32Ty();
  if (Cond->getReturnType() == Int)
    return Cond;
  std::string Name = ("__adcc_cond." + Cond->getName()).str();
  if (Function *Known = M.getFunction(Name))
    return Known;
  Function *F = internal(FunctionType::get(Int, {Ptr, Ptr}, false), Name);
  IRBuilder<> IB(BasicBlock::Create(M.getContext(), "", F));
  Value *R = IB.CreateCall(Cond, {F->getArg(0), F->getArg(1)});
  IB.CreateRet(IB.CreateZExt(
      IB.CreateICmpNE(R, Constant::getNullValue(R->getType())), Int));
  return F;
}

Function *CheckpointLowering::stepFunction(CallBase &Call, unsigned Arg,
                                           const char *Role,
                                           const CheckpointRow &Row,
                                           bool Condition) {
  auto *F = dyn_cast<Function>(Call.getArgOperand(Arg)->stripPointerCasts());
  if (!F) {
    Ctx.error(Call, Twine("the ") + Role + " of " + Row.Name +
                        " must name a function known at compile time");
    return nullptr;
  }
  FunctionType *T = F->getFunctionType();
  bool Shape = T->getNumParams() == 2 && !T->isVarArg() &&
               T->getParamType(0)->isPointerTy() &&
               T->getParamType(1)->isPointerTy() &&
               (Condition ? T->getReturnType()->isIntegerTy()
                          : T->getReturnType()->isVoidTy());
  if (!Shape) {
    Ctx.error(Call, Twine("the ") + Role + " '" + F->getName() + "' of " +
                        Row.Name + " must be a function " +
                        (Condition ? "int (const T *state, const P *params)"
                                   : "void (T *state, P *params)"));
    return nullptr;
  }
  return F;
}

/// The loop function's forward derivative ('f'), augmented ('a') or reverse
/// ('r') function: the runtime call of \p Row with the table.
Function *CheckpointLowering::makeRule(Function *Loop, const CheckpointRow &Row,
                                       Constant *Table, char Kind,
                                       unsigned Width) {
  // Where each loop parameter's value and shadow are among the rule's (a
  // batched one's: \p Width shadows).
  SmallVector<Type *, 12> Params;
  SmallVector<int, 8> ValueAt, ShadowAt;
  for (Argument &A : Loop->args()) {
    ValueAt.push_back(Params.size());
    Params.push_back(A.getType());
    bool Shadowed = A.getType()->isPointerTy() ||
                    (Kind == 'f' && A.getType()->isFloatingPointTy());
    ShadowAt.push_back(Shadowed ? Params.size() : -1);
    if (Shadowed)
      Params.append(Width, A.getType());
  }
  if (Kind == 'r')
    Params.push_back(Ptr);
  // The reverse function returns the adjoints of floating-point
  // parameters (a tolerance): zero.
  SmallVector<Type *, 2> Floats;
  for (Argument &A : Loop->args())
    if (A.getType()->isFloatingPointTy())
      Floats.push_back(A.getType());
  Type *Ret = B.getVoidTy();
  if (Kind == 'a')
    Ret = Ptr;
  else if (Kind == 'r' && Floats.size() == 1)
    Ret = Floats[0];
  else if (Kind == 'r' && !Floats.empty())
    Ret = StructType::get(M.getContext(), Floats);
  const char *Role = Kind == 'f'   ? ".tangent"
                     : Kind == 'a' ? ".record"
                                   : ".reverse";
  Function *F = internal(FunctionType::get(Ret, Params, false),
                         Loop->getName() + Role +
                             (Width > 1 ? ".w" + Twine(Width) : Twine()));
  IRBuilder<> IB(BasicBlock::Create(M.getContext(), "", F));
  // A batched rule hands the runtime each shadow as an array of its lanes'
  // (the batched step derivatives read them); the parameters' as null
  // when they have none.
  SmallVector<Value *, 8> ShadowOf(ShadowAt.size(), nullptr);
  for (unsigned K = 0; K < ShadowAt.size(); ++K) {
    if (ShadowAt[K] < 0)
      continue;
    ShadowOf[K] = F->getArg(ShadowAt[K]);
    if (Width == 1)
      continue;
    Value *Lanes = IB.CreateAlloca(ArrayType::get(Ptr, Width));
    for (unsigned L = 0; L < Width; ++L)
      IB.CreateStore(
          F->getArg(ShadowAt[K] + L),
          IB.CreateConstGEP2_32(ArrayType::get(Ptr, Width), Lanes, 0, L));
    ShadowOf[K] = K == Row.Params
                      ? IB.CreateSelect(IB.CreateIsNull(F->getArg(ShadowAt[K])),
                                        ConstantPointerNull::get(Ptr), Lanes)
                      : Lanes;
  }
  const char *Callee = Kind == 'f'   ? Row.Tangent
                       : Kind == 'a' ? Row.Record
                                     : Row.Reverse;
  const char *Spec = Kind == 'f'   ? Row.TangentArgs
                     : Kind == 'a' ? Row.RecordArgs
                                   : Row.ReverseArgs;
  SmallVector<Value *, 10> Args;
  if (Kind == 'r')
    Args.push_back(F->getArg(F->arg_size() - 1));
  else
    Args.push_back(Table);
  SmallVector<StringRef, 8> Words;
  StringRef(Spec).split(Words, ' ');
  for (StringRef W : Words) {
    unsigned K = 0;
    W.drop_front().getAsInteger(10, K);
    Args.push_back(W[0] == 'v' ? F->getArg(ValueAt[K]) : ShadowOf[K]);
  }
  SmallVector<Type *, 10> Types;
  for (Value *A : Args)
    Types.push_back(A->getType());
  FunctionCallee Run = M.getOrInsertFunction(
      Callee,
      FunctionType::get(Kind == 'a' ? static_cast<Type *>(Ptr) : B.getVoidTy(),
                        Types, false));
  CallInst *Call = IB.CreateCall(Run, Args);
  if (Kind == 'a')
    IB.CreateRet(Call);
  else if (Ret->isVoidTy())
    IB.CreateRetVoid();
  else
    IB.CreateRet(Constant::getNullValue(Ret));
  return F;
}

/// The forward derivative of \p Rule, the loop function's augmented ('a')
/// or reverse ('r') function, for forward mode over the gradient: Rule's
/// parameters, each pointer followed by its tangent; the augmented one
/// returns {tape, null}.
Function *CheckpointLowering::makeRuleTangent(Function *Rule,
                                              const CheckpointRow &Row,
                                              Constant *Table, char Kind) {
  SmallVector<Type *, 24> Params;
  SmallVector<int, 12> ValueAt, TangentAt;
  for (Argument &A : Rule->args()) {
    ValueAt.push_back(Params.size());
    Params.push_back(A.getType());
    bool Tangent = A.getType()->isPointerTy();
    TangentAt.push_back(Tangent ? Params.size() : -1);
    if (Tangent)
      Params.push_back(A.getType());
  }
  Type *Ret = Kind == 'a' ? static_cast<Type *>(StructType::get(Ptr, Ptr))
                          : B.getVoidTy();
  Function *F = internal(FunctionType::get(Ret, Params, false),
                         Rule->getName() + ".tangent");
  IRBuilder<> IB(BasicBlock::Create(M.getContext(), "", F));
  SmallVector<Value *, 16> Args;
  if (Kind == 'a')
    Args.push_back(Table);
  SmallVector<StringRef, 16> Words;
  StringRef(Kind == 'a' ? Row.RecordTangentArgs : Row.ReverseTangentArgs)
      .split(Words, ' ');
  for (StringRef W : Words) {
    unsigned K = 0;
    W.drop_front().getAsInteger(10, K);
    Args.push_back(F->getArg(W[0] == 'v' ? ValueAt[K] : TangentAt[K]));
  }
  SmallVector<Type *, 16> Types;
  for (Value *A : Args)
    Types.push_back(A->getType());
  FunctionCallee Run = M.getOrInsertFunction(
      Kind == 'a' ? Row.RecordTangent : Row.ReverseTangent,
      FunctionType::get(Kind == 'a' ? static_cast<Type *>(Ptr) : B.getVoidTy(),
                        Types, false));
  CallInst *Call = IB.CreateCall(Run, Args);
  if (Kind == 'a')
    // (The tape handle has no tangent.)
    IB.CreateRet(IB.CreateInsertValue(
        IB.CreateInsertValue(PoisonValue::get(Ret), Call, 0),
        ConstantPointerNull::get(Ptr), 1));
  else
    IB.CreateRetVoid();
  return F;
}

Function *CheckpointLowering::makeLoop(CallBase &Call, const CheckpointRow &Row,
                                       Function *Step, Function *Cond,
                                       ArrayRef<GlobalVariable *> Globals) {
  Function *&Loop = Made[{&Row, Step, Cond}];
  if (Loop)
    return Loop;
  SmallVector<Type *, 8> Params;
  for (unsigned I = 1; I < Call.arg_size(); ++I)
    if ((int)I != Row.Cond)
      Params.push_back(Call.getArgOperand(I)->getType());
  // (Named as the user wrote the call: messages about it quote the name.)
  std::string Name = std::string(Row.Name) + "(" + Step->getName().str();
  if (Cond)
    Name += ", " + Cond->getName().str();
  Name += ")";
  Loop = internal(FunctionType::get(B.getVoidTy(), Params, false), Name);
  Loop->addFnAttr(LoopAttr);
  IRBuilder<> IB(BasicBlock::Create(M.getContext(), "", Loop));
  SmallVector<Value *, 8> Args{Step};
  if (Cond)
    Args.push_back(Cond);
  for (Argument &A : Loop->args())
    Args.push_back(&A);
  IB.CreateCall(Call.getFunctionType(), Call.getCalledOperand(), Args);
  IB.CreateRetVoid();

  Constant *Table = makeTable(Step, Cond, Globals);
  if (Forward)
    Ctx.rules().addForwardDerivative(Loop, makeRule(Loop, Row, Table, 'f'));
  // (Batched forward derivatives: as batched gradients, below.)
  if (Forward && Row.RecordTangent && Globals.empty())
    for (unsigned W : ForwardWidths)
      Ctx.rules().addBatchedForwardDerivative(
          Loop, W,
          makeRule(Loop, Row, makeBatchedTable(Step, Cond, W, true), 'f', W));
  if (Reverse) {
    Function *Aug = makeRule(Loop, Row, Table, 'a');
    Function *Rev = makeRule(Loop, Row, Table, 'r');
    Ctx.rules().addGradient(Loop, {Aug, Rev});
    if (overReverse(Row, Globals)) {
      Ctx.rules().addForwardDerivative(Aug,
                                       makeRuleTangent(Aug, Row, Table, 'a'));
      Ctx.rules().addForwardDerivative(Rev,
                                       makeRuleTangent(Rev, Row, Table, 'r'));
    }
    // (Batched gradients: not of a fixed point, whose rules return the
    // tolerance's adjoint, nor through globals, whose shadows have lanes.)
    if (Row.RecordTangent && Globals.empty())
      for (unsigned W : Widths) {
        Constant *Lanes = makeBatchedTable(Step, Cond, W, false);
        Ctx.rules().addBatchedGradient(Loop, W,
                                       {makeRule(Loop, Row, Lanes, 'a', W),
                                        makeRule(Loop, Row, Lanes, 'r', W)});
      }
  }
  return Loop;
}

bool CheckpointLowering::lower(CallBase &Call, const CheckpointRow &Row) {
  CurrentLoc = Call.getDebugLoc();
  if (isa<InvokeInst>(Call)) {
    Ctx.error(Call, Twine(Row.Name) + " where an exception may be caught "
                                      "is not supported yet");
    return false;
  }
  if (Call.arg_size() != Row.NumArgs ||
      !Call.getArgOperand(callArgument(Row, Row.State))
           ->getType()
           ->isPointerTy() ||
      !Call.getArgOperand(callArgument(Row, Row.Params))
           ->getType()
           ->isPointerTy()) {
    Ctx.error(Call, Twine("the call of ") + Row.Name +
                        " does not match its declaration in "
                        "<adcc_checkpoint.h>");
    return false;
  }
  Function *Step =
      stepFunction(Call, 0,
                   Row.Cond < 0 && Row.Snapshots < 0 ? "iteration function"
                                                     : "step function",
                   Row, false);
  Function *Cond = Row.Cond < 0
                       ? nullptr
                       : stepFunction(Call, Row.Cond, "condition", Row, true);
  if (!Step || (Row.Cond >= 0 && !Cond))
    return false;
  if (Cond)
    Cond = intCondition(Cond);
  if (Row.Snapshots >= 0)
    if (auto *S = dyn_cast<ConstantInt>(Call.getArgOperand(Row.Snapshots));
        S && S->getSExtValue() < 1) {
      Ctx.error(Call, Twine("the number of snapshots of ") + Row.Name +
                          " must be at least 1 (got " +
                          Twine(S->getSExtValue()) + ")");
      return false;
    }
  // The globals the steps write: the snapshots hold them next to the
  // state (a fixed point's iterations pass on only its state).
  auto Reach = reachableFrom(*Step);
  SmallVector<const Function *, 16> List(Reach.begin(), Reach.end());
  DenseSet<const GlobalVariable *> Written;
  collectWrittenGlobals(List, Written);
  SmallVector<GlobalVariable *, 4> Globals;
  for (const GlobalVariable *G : Written)
    if (!G->isConstant() && !Ctx.rules().isInactiveGlobal(G))
      Globals.push_back(const_cast<GlobalVariable *>(G));
  // (In the module's order: the same table in every build.)
  sort(Globals, [&](GlobalVariable *A, GlobalVariable *B) {
    return A->getName() < B->getName();
  });
  for (GlobalVariable *G : Globals)
    if (Row.Snapshots < 0 || !G->getValueType()->isSized()) {
      Ctx.error(Call, Twine("the ") +
                          (Row.Snapshots < 0 ? "iteration" : "step") +
                          " function '" + Step->getName() + "' of " +
                          Row.Name + " writes the global variable '" +
                          G->getName() + "'" +
                          (Row.Snapshots < 0
                               ? ": a fixed point's iterations pass on only "
                                 "its state"
                               : ", whose size is unknown"));
      return false;
    }
  warnReplayed(Call, Row, Reach);
  Function *Loop = makeLoop(Call, Row, Step, Cond, Globals);
  SmallVector<Value *, 8> Args;
  for (unsigned I = 1; I < Call.arg_size(); ++I)
    if ((int)I != Row.Cond)
      Args.push_back(Call.getArgOperand(I));
  IRBuilder<> IB(&Call);
  CallInst *New = IB.CreateCall(Loop, Args);
  New->setDebugLoc(Call.getDebugLoc());
  Call.eraseFromParent();
  return true;
}

namespace {

/// The functions that derivatives are made of, by mode.
struct DifferentiatedCode {
  SmallPtrSet<const Function *, 16> Forward, Reverse;
  /// Code whose gradient forward mode differentiates (forward over
  /// reverse).
  SmallPtrSet<const Function *, 16> OverReverse;
  /// The widths (> 1) of the batched gradients of code.
  std::map<const Function *, std::set<unsigned>> Widths, ForwardWidths;
};

/// The width of \p R's derivative (`enzyme_width, W` among its
/// arguments), or 1.
unsigned requestWidth(const Request &R) {
  for (unsigned I = 0; R.Site && I + 1 < R.Site->arg_size(); ++I) {
    StringRef Name;
    auto *W = dyn_cast<ConstantInt>(R.Site->getArgOperand(I + 1));
    if (markerOf(R.Site->getArgOperand(I), Name) == Marker::Width && W &&
        W->getValue().ule(64))
      return unsigned(W->getZExtValue());
  }
  return 1;
}

bool isReverseKind(RequestKind Kind) {
  return Kind == RequestKind::Reverse ||
         Kind == RequestKind::AugmentedForward ||
         Kind == RequestKind::SplitReverse;
}

bool isForwardKind(RequestKind Kind) {
  return Kind == RequestKind::Forward || Kind == RequestKind::ForwardSplit ||
         Kind == RequestKind::ErrorEstimate || Kind == RequestKind::Batch;
}

/// One round: the calls in \p Code; whether requests were added.
bool lowerRound(Module &M, const DifferentiatedCode &Code,
                SynthesisContext &Ctx) {
  SmallVector<std::pair<CallBase *, const CheckpointRow *>, 4> Calls;
  bool Forward = false, Reverse = false, OverReverse = false;
  std::set<unsigned> Widths, ForwardWidths;
  for (Function &F : M) {
    bool InForward = Code.Forward.contains(&F);
    bool InReverse = Code.Reverse.contains(&F);
    if ((!InForward && !InReverse) || F.hasFnAttribute(LoopAttr))
      continue;
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (const CheckpointRow *Row = rowFor(Call->getCalledFunction())) {
          Calls.push_back({Call, Row});
          Forward |= InForward;
          Reverse |= InReverse;
          OverReverse |= Code.OverReverse.contains(&F);
          if (auto It = Code.Widths.find(&F); It != Code.Widths.end())
            Widths.insert(It->second.begin(), It->second.end());
          if (auto It = Code.ForwardWidths.find(&F);
              It != Code.ForwardWidths.end())
            ForwardWidths.insert(It->second.begin(), It->second.end());
        }
  }
  if (Calls.empty())
    return false;
  SmallVector<unsigned, 2> WidthList(Widths.begin(), Widths.end());
  SmallVector<unsigned, 2> ForwardList(ForwardWidths.begin(),
                                       ForwardWidths.end());
  CheckpointLowering L(M, Ctx, Forward, Reverse, OverReverse, WidthList,
                       ForwardList);
  for (auto [Call, Row] : Calls)
    L.lower(*Call, *Row);
  return L.addedRequests();
}

} // namespace

void lowerCheckpointedCalls(Module &M, CollectedRequests &Found,
                            ArrayRef<DeclaredDerivative> Declared,
                            SynthesisContext &Ctx) {
  // (Most modules call none of them: nothing to walk.)
  if (none_of(CheckpointRows, [&](const CheckpointRow &Row) {
        Function *F = M.getFunction(Row.Name);
        return F && !F->use_empty();
      }))
    return;
  DifferentiatedCode Code;
  for (const DeclaredDerivative &D : Declared)
    (D.Mode == "forward" ? Code.Forward : Code.Reverse)
        .insert_range(reachableFrom(*D.Key.Primal));
  // (Each round lowers the calls it finds; a step's own calls are found in
  // the next, through the requests of its derivatives.)
  for (unsigned Round = 0; Round < 8; ++Round) {
    for (const Request &R : Found.Requests)
      (isForwardKind(R.Kind) ? Code.Forward : Code.Reverse)
          .insert_range(reachableFrom(*R.Primal));
    for (const Request &R : Found.Requests)
      if (unsigned W = requestWidth(R); W > 1 && R.Kind != RequestKind::Batch)
        for (const Function *F : reachableFrom(*R.Primal))
          (isReverseKind(R.Kind) ? Code.Widths : Code.ForwardWidths)[F].insert(
              W);
    // (A gradient requested in code that forward mode differentiates.)
    for (const Request &R : Found.Requests)
      if (isReverseKind(R.Kind) && R.Site &&
          Code.Forward.contains(R.Site->getFunction()))
        Code.OverReverse.insert_range(reachableFrom(*R.Primal));
    if (!lowerRound(M, Code, Ctx))
      return;
    Found = collectRequests(M);
  }
}

} // namespace adcore
