//===- ForwardCalls.cpp - Calls: math rules, intrinsics, user functions --===//
//
//   f(a, b) with a rule  ->  sum over arguments of  df/dx_i * t(x_i)
//   user function g       ->  a call to g's forward derivative, generated
//                             with the activities of this call's arguments
//   malloc / new          ->  a zeroed shadow block of the same size
//   free / delete         ->  frees the shadow block too
//
//===----------------------------------------------------------------------===//

#include "ForwardEmitter.h"

#include "adcore/InactiveFunctions.h"
#include "adcore/MathRules.h"
#include "adcore/MemoryFunctions.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace adcore {

bool ForwardEmitter::visitCallBase(CallBase &Call) {
  bool Involved = isAnalyzedActive(&Call) ||
                  any_of(Call.args(),
                         [&](const Use &U) { return isActive(U.get()); });
  if (!Involved)
    return true;
  if (Call.isInlineAsm())
    return unsupported(Call, "inline assembly cannot be differentiated; move "
                             "it into a function with a custom derivative");
  if (auto *II = dyn_cast<IntrinsicInst>(&Call))
    return emitIntrinsicCall(*II);

  Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return unsupported(Call, "calls through function pointers are not "
                             "supported yet in forward mode");
  if (const MathRule *Rule = findMathRule(*Callee))
    return emitMathCall(Call, *Rule);
  MemoryFunctionKind Kind = classifyMemoryFunction(*Callee);
  if (Kind != MemoryFunctionKind::None)
    return emitMemoryFunctionCall(Call, unsigned(Kind));
  if (isKnownInactiveFunction(*Callee))
    return true;
  if (Callee->isDeclaration())
    return unsupported(
        Call, "the external function '" + Callee->getName() +
                  "' has no body and no derivative rule; define it in this "
                  "translation unit, register a custom derivative "
                  "(__enzyme_register_derivative_" +
                  Callee->getName() + ") or mark it inactive");
  if (isa<InvokeInst>(Call))
    return unsupported(Call, "calls that may throw (invoke) are not supported "
                             "yet in forward mode");
  return emitUserCall(Call, *Callee);
}

bool ForwardEmitter::emitMathCall(CallBase &Call, const MathRule &Rule) {
  SmallVector<Value *, MaxMathArgs> Args(Call.args());
  if (isa<FPMathOperator>(Call))
    B.setFastMathFlags(Call.getFastMathFlags());
  // Partials are computed once and shared by all lanes.
  SmallVector<std::pair<Value *, Value *>, MaxMathArgs> Terms;
  for (unsigned I = 0; I < Rule.NumArgs && I < Args.size(); ++I) {
    Value *T = tangentOrNull(Args[I]);
    if (!T || !Rule.Partials[I])
      continue;
    Terms.push_back({Rule.Partials[I](B, Args, &Call), T});
  }
  B.clearFastMathFlags();
  if (Terms.empty())
    return true;

  // A struct result (llvm.frexp) carries the derivative in its first field.
  Type *ValueTy = Call.getType();
  bool InStruct = ValueTy->isStructTy();
  if (InStruct)
    ValueTy = cast<StructType>(ValueTy)->getElementType(0);
  setTangent(&Call, forEachLane(Call.getType(), [&](unsigned L) -> Value * {
               Value *Sum = nullptr;
               for (auto &[Partial, T] : Terms) {
                 Value *Term = B.CreateFMul(Partial, lane(T, L));
                 Sum = Sum ? B.CreateFAdd(Sum, Term) : Term;
               }
               if (!InStruct)
                 return Sum;
               return B.CreateInsertValue(
                   Constant::getNullValue(Call.getType()), Sum, 0);
             }));
  return true;
}

bool ForwardEmitter::emitIntrinsicCall(IntrinsicInst &II) {
  if (const MathRule *Rule = findMathRule(*II.getCalledFunction()))
    return emitMathCall(II, *Rule);
  switch (II.getIntrinsicID()) {
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::prefetch:
  case Intrinsic::var_annotation:
  case Intrinsic::ptr_annotation:
  case Intrinsic::annotation:
  case Intrinsic::stacksave:
  case Intrinsic::stackrestore:
  case Intrinsic::is_fpclass:
  case Intrinsic::fake_use:
    return true;
  case Intrinsic::vector_reduce_fadd: {
    // reduce(start, v) = start + sum v  ->  t(start) + sum t(v)
    Value *TS = tangentOrNull(II.getArgOperand(0));
    Value *TV = tangentOrNull(II.getArgOperand(1));
    B.setFastMathFlags(II.getFastMathFlags());
    setTangent(&II, forEachLane(II.getType(), [&](unsigned L) -> Value * {
                 Value *Start = TS ? lane(TS, L)
                                   : ConstantFP::getNegativeZero(II.getType());
                 if (!TV)
                   return Start;
                 return B.CreateFAddReduce(Start, lane(TV, L));
               }));
    B.clearFastMathFlags();
    return true;
  }
  default:
    return unsupported(II, "the intrinsic '" +
                               II.getCalledFunction()->getName() +
                               "' is not supported yet");
  }
}

bool ForwardEmitter::emitMemoryFunctionCall(CallBase &Call, unsigned K) {
  auto Kind = MemoryFunctionKind(K);
  if (Kind == MemoryFunctionKind::Free) {
    Value *S = tangentOrNull(Call.getArgOperand(0));
    if (!S)
      return true;
    for (unsigned L = 0; L < Width; ++L) {
      SmallVector<Value *, 3> Args(Call.args());
      Args[0] = lane(S, L);
      B.CreateCall(Call.getFunctionType(), Call.getCalledOperand(), Args);
    }
    return true;
  }
  if (isa<InvokeInst>(Call))
    return unsupported(Call, "allocations that may throw (invoke) are not "
                             "supported yet in forward mode");
  Value *Old = Kind == MemoryFunctionKind::Realloc
                   ? tangent(Call.getArgOperand(0))
                   : nullptr;
  setTangent(&Call, forEachLane(Call.getType(), [&](unsigned L) -> Value * {
               SmallVector<Value *, 3> Args(Call.args());
               if (Old)
                 Args[0] = lane(Old, L);
               CallInst *S = B.CreateCall(Call.getFunctionType(),
                                          Call.getCalledOperand(), Args,
                                          Call.getName() + ".shadow");
               S->setAttributes(Call.getAttributes());
               // Fresh shadow memory holds zero derivatives.
               if (Kind == MemoryFunctionKind::Malloc)
                 B.CreateMemSet(S, B.getInt8(0), Call.getArgOperand(0),
                                MaybeAlign());
               else if (Kind == MemoryFunctionKind::AlignedAlloc)
                 B.CreateMemSet(S, B.getInt8(0), Call.getArgOperand(1),
                                MaybeAlign());
               return S;
             }));
  return true;
}

bool ForwardEmitter::emitUserCall(CallBase &Call, Function &Callee) {
  if (Callee.isVarArg())
    return unsupported(Call, "calls to the variadic function '" +
                                 Callee.getName() + "'");
  DerivativeKey CalleeKey;
  CalleeKey.Primal = &Callee;
  CalleeKey.Width = Width;
  for (Use &U : Call.args())
    CalleeKey.Args.push_back(isActive(U.get()) ? ArgActivity::Dup
                                               : ArgActivity::Const);
  Type *RetTy = Call.getType();
  CalleeKey.ReturnPrimal = !RetTy->isVoidTy();
  CalleeKey.ReturnShadow = !RetTy->isVoidTy() && isAnalyzedActive(&Call) &&
                           canCarryDerivative(RetTy);

  Function *D = Ctx.getOrCreate(CalleeKey);
  if (!D)
    return false;

  SmallVector<Value *, 16> Args;
  for (Use &U : Call.args()) {
    Args.push_back(U.get());
    if (isActive(U.get()))
      Args.push_back(tangent(U.get()));
  }
  CallInst *NewCall = B.CreateCall(D, Args);
  NewCall->setDebugLoc(Call.getDebugLoc());
  Dead.push_back(&Call);
  if (RetTy->isVoidTy())
    return true;
  Value *Primal = NewCall, *Shadow = nullptr;
  if (CalleeKey.ReturnShadow) {
    Primal = B.CreateExtractValue(NewCall, 0);
    Shadow = B.CreateExtractValue(NewCall, 1);
  }
  Call.replaceAllUsesWith(Primal);
  if (Shadow)
    setTangent(Primal, Shadow);
  return true;
}

} // namespace adcore
