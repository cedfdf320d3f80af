//===- ForwardError.cpp - Error estimation rules ------------------------===//
//
// __enzyme_error_estimate runs the forward-mode emitter with
// DerivativeKey::ErrorEstimate: the tangent of a value is then an estimate
// of its floating-point error, in Enzyme's convention. For an operation or
// math call f(x_1, ..., x_n) whose arguments carry the estimates e_i:
//
//   e(f) = max(ulp(f), sum_i |df/dx_i * (e_i * x_i / f)|)
//
// (the arguments' errors relative to f, weighted by the condition of f,
// and at least one unit in the last place of the result: |f - f'| where f'
// differs from f in the lowest bit of its representation). Only arguments
// that carry an estimate contribute; an operation on constants has none. A
// select row (fmin, fmax) takes the chosen argument's term alone. Copies
// (loads, stores, phis, selects, casts, vector shuffles) move estimates
// unchanged: the emitter's ordinary rules.
//
// The partials are the ones of forward mode: a row per operation below, and
// the math functions' rows of MathRules.cpp.
//
// When the module has a function `enzymeLogError`, each estimate of an
// active value is passed to it with the value and where it was made, as
// Enzyme does.
//
//===----------------------------------------------------------------------===//

#include "ForwardEmitter.h"

#include "adcore/MathRules.h"
#include "rules/InactiveFunctions.h"

#include "llvm/Analysis/ValueTracking.h"

#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <iterator>

using namespace llvm;

namespace adcore {
namespace {

Value *one(IRBuilderBase &, ArrayRef<Value *> Args, Value *) {
  return ConstantFP::get(Args[0]->getType(), 1.0);
}
Value *minusOne(IRBuilderBase &, ArrayRef<Value *> Args, Value *) {
  return ConstantFP::get(Args[0]->getType(), -1.0);
}
Value *secondArg(IRBuilderBase &, ArrayRef<Value *> Args, Value *) {
  return Args[1];
}
Value *firstArg(IRBuilderBase &, ArrayRef<Value *> Args, Value *) {
  return Args[0];
}
Value *reciprocalOfSecond(IRBuilderBase &B, ArrayRef<Value *> Args, Value *) {
  return B.CreateFDiv(ConstantFP::get(Args[1]->getType(), 1.0), Args[1]);
}
Value *quotientOverSecond(IRBuilderBase &B, ArrayRef<Value *> Args,
                          Value *Result) {
  return B.CreateFNeg(B.CreateFDiv(Result, Args[1]));
}
Value *truncatedQuotient(IRBuilderBase &B, ArrayRef<Value *> Args, Value *) {
  return B.CreateFNeg(B.CreateUnaryIntrinsic(Intrinsic::trunc,
                                             B.CreateFDiv(Args[0], Args[1])));
}

/// The partials of a floating-point instruction, per operand.
struct OperationRow {
  unsigned Opcode;
  PartialBuilder Partials[2];
};

constexpr OperationRow OperationTable[] = {
    {Instruction::FAdd, {one, one}},
    {Instruction::FSub, {one, minusOne}},
    {Instruction::FMul, {secondArg, firstArg}},
    {Instruction::FDiv, {reciprocalOfSecond, quotientOverSecond}},
    {Instruction::FRem, {one, truncatedQuotient}},
    {Instruction::FNeg, {minusOne, nullptr}},
};

/// |X - X'| where X' is X with the lowest bit of its representation
/// flipped: one unit in the last place of X.
Value *unitInLastPlace(IRBuilderBase &B, Value *X) {
  Type *Ty = X->getType();
  Type *IntTy =
      Ty->getWithNewType(B.getIntNTy(Ty->getScalarType()->getScalarSizeInBits()));
  Value *Bits = B.CreateBitCast(X, IntTy);
  Value *Neighbour =
      B.CreateBitCast(B.CreateXor(Bits, ConstantInt::get(IntTy, 1)), Ty);
  return B.CreateUnaryIntrinsic(Intrinsic::fabs, B.CreateFSub(X, Neighbour));
}

/// Whether the value \p V can reach the function's outputs: a return, memory
/// that is not a local slot read back (a store anywhere else counts), a call
/// that may use it (not one of the functions known to carry no derivative,
/// such as printf). Through local slots (-O0) and arithmetic; \p Budget
/// bounds the walk (when it runs out, the value counts as reaching).
bool reachesOutputs(const Value *V, SmallPtrSetImpl<const Value *> &Seen,
                    unsigned &Budget) {
  if (!Seen.insert(V).second)
    return false;
  if (Budget == 0)
    return true;
  --Budget;
  for (const User *U : V->users()) {
    if (isa<ReturnInst>(U))
      return true;
    if (const auto *S = dyn_cast<StoreInst>(U)) {
      if (S->getValueOperand() != V)
        continue;
      const auto *Slot = dyn_cast<AllocaInst>(
          getUnderlyingObject(S->getPointerOperand()));
      bool LocalSlot =
          Slot && all_of(Slot->users(), [](const User *SU) {
            if (const auto *II = dyn_cast<IntrinsicInst>(SU))
              return II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II);
            return isa<LoadInst, StoreInst>(SU);
          });
      if (!LocalSlot)
        return true;
      for (const User *SU : Slot->users())
        if (isa<LoadInst>(SU) && reachesOutputs(SU, Seen, Budget))
          return true;
      continue;
    }
    if (const auto *Call = dyn_cast<CallBase>(U)) {
      const Function *Callee = Call->getCalledFunction();
      if (Callee && isKnownInactiveFunction(*Callee))
        continue;
      if (Callee && findMathRule(*Callee)) {
        if (reachesOutputs(Call, Seen, Budget))
          return true;
        continue;
      }
      if (isa<DbgInfoIntrinsic>(Call))
        continue;
      return true;
    }
    // Comparisons and conversions to integers carry no error.
    if (isa<CmpInst, FPToSIInst, FPToUIInst, BranchInst, SwitchInst>(U))
      continue;
    if (reachesOutputs(U, Seen, Budget))
      return true;
  }
  return false;
}

} // namespace

bool ForwardEmitter::emitErrorOperation(Instruction &I) {
  const OperationRow *Row =
      find_if(OperationTable,
              [&](const OperationRow &R) { return R.Opcode == I.getOpcode(); });
  if (Row == std::end(OperationTable))
    return unsupported(I, Twine("the operation '") + I.getOpcodeName() +
                              "' has no error estimation rule in adcc");
  SmallVector<Value *, 2> Args(I.operands());
  SmallVector<Value *, 2> Partials;
  for (unsigned No = 0; No < Args.size(); ++No)
    Partials.push_back(tangentOrNull(Args[No]) && Row->Partials[No]
                           ? Row->Partials[No](B, Args, &I)
                           : nullptr);
  setErrorEstimate(I, &I, Args, Partials, nullptr);
  return logError(I, tangentOrNull(&I));
}

bool ForwardEmitter::emitErrorMathCall(CallBase &Call, const MathRule &Rule) {
  if (!Call.getType()->isFPOrFPVectorTy())
    return unsupported(Call, "'" + Call.getCalledFunction()->getName() +
                                 "' returns more than one value, which has "
                                 "no error estimation rule in adcc");
  SmallVector<Value *, MaxMathArgs> Args(Call.args());
  SmallVector<Value *, MaxMathArgs> Partials;
  for (unsigned No = 0; No < Args.size(); ++No)
    Partials.push_back(No < Rule.NumArgs && Rule.Partials[No] &&
                               tangentOrNull(Args[No])
                           ? Rule.Partials[No](B, Args, &Call)
                           : nullptr);
  setErrorEstimate(Call, &Call, Args, Partials,
                   Rule.Combine == MathCombine::Select ? &Rule : nullptr);
  return logError(Call, tangentOrNull(&Call));
}

void ForwardEmitter::setErrorEstimate(Instruction &I, Value *Result,
                                      ArrayRef<Value *> Args,
                                      ArrayRef<Value *> Partials,
                                      const MathRule *SelectRule) {
  // (No fast-math flags: a term that is NaN, 0/0 at a zero result, must
  // leave max(ulp, NaN) = ulp as it is.)
  B.clearFastMathFlags();
  SmallVector<MathTerm, MaxMathArgs> Terms;
  for (unsigned No = 0; No < Args.size(); ++No)
    if (Partials[No])
      Terms.push_back(
          {Partials[No],
           B.CreateFDiv(B.CreateFMul(tangent(Args[No]), Args[No]), Result)});
  if (Terms.empty())
    return;
  Value *Sum = nullptr;
  if (SelectRule) {
    Sum = B.CreateUnaryIntrinsic(Intrinsic::fabs,
                                 mathTangent(B, *SelectRule, Terms));
  } else {
    for (const MathTerm &T : Terms) {
      Value *Abs = B.CreateUnaryIntrinsic(
          Intrinsic::fabs, B.CreateFMul(T.Partial, T.Tangent));
      Sum = Sum ? B.CreateFAdd(Sum, Abs) : Abs;
    }
  }
  setTangent(&I, B.CreateBinaryIntrinsic(Intrinsic::maxnum,
                                         unitInLastPlace(B, Result), Sum));
}

bool ForwardEmitter::logError(Instruction &I, Value *Error) {
  Module &M = *Derivative.getParent();
  Function *Log = M.getFunction("enzymeLogError");
  if (!Log || !Error || !isAnalyzedActive(&I))
    return true;
  FunctionType *FT = Log->getFunctionType();
  Type *Double = B.getDoubleTy(), *Ptr = B.getPtrTy();
  bool Matches = FT->getNumParams() == 7 && !FT->isVarArg() &&
                 FT->getParamType(0) == Double &&
                 FT->getParamType(1) == Double;
  for (unsigned No = 2; Matches && No < 7; ++No)
    Matches = FT->getParamType(No) == Ptr;
  if (!Matches)
    return unsupported(I, "enzymeLogError must be declared as void "
                          "enzymeLogError(double value, double error, const "
                          "char *operation, const char *callee, const char "
                          "*module, const char *function, const char *block)");
  // Where the primal's instruction is: its index in its block, its block's
  // in the function, the function's in the module.
  auto *Primal = dyn_cast_or_null<Instruction>(PrimalOf.lookup(&I));
  if (!Primal)
    Primal = &I;
  // As Enzyme: only values that can reach the outputs (not one only
  // printed).
  SmallPtrSet<const Value *, 16> Seen;
  unsigned Budget = 256;
  if (!reachesOutputs(Primal, Seen, Budget))
    return true;
  auto IndexOf = [](auto &List, const auto *Item) {
    unsigned N = 0;
    for (const auto &E : List) {
      if (&E == Item)
        return N;
      ++N;
    }
    return N;
  };
  const BasicBlock *Block = Primal->getParent();
  const Function *Fn = Block->getParent();
  auto Labelled = [](StringRef Name, unsigned Index) {
    return (Name + " (" + Twine(Index) + ")").str();
  };
  std::string Callee = "<N/A>";
  if (auto *Call = dyn_cast<CallBase>(Primal))
    Callee = Call->getCalledFunction()
                 ? Call->getCalledFunction()->getName().str()
                 : "<Unknown>";
  Value *Strings[] = {
      B.CreateGlobalString(
          Labelled(Primal->getOpcodeName(), IndexOf(*Block, Primal))),
      B.CreateGlobalString(Callee),
      B.CreateGlobalString(M.getModuleIdentifier()),
      B.CreateGlobalString(Labelled(Fn->getName(),
                                    IndexOf(*Fn->getParent(), Fn))),
      B.CreateGlobalString(Labelled(Block->getName(), IndexOf(*Fn, Block)))};
  // (A vector: one report per element.)
  auto *VT = dyn_cast<FixedVectorType>(I.getType());
  for (unsigned L = 0, E = VT ? VT->getNumElements() : 1; L < E; ++L) {
    Value *V = VT ? B.CreateExtractElement(&I, L) : &I;
    Value *Err = VT ? B.CreateExtractElement(Error, L) : Error;
    B.CreateCall(Log, {B.CreateFPCast(V, Double), B.CreateFPCast(Err, Double),
                       Strings[0], Strings[1], Strings[2], Strings[3],
                       Strings[4]});
  }
  return true;
}

} // namespace adcore
