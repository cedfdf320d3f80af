//===- BatchedPrimal.cpp - Enzyme's __enzyme_batch -----------------------===//
//
// `__enzyme_batch(f, enzyme_width, W, args...)` runs the primal f on W sets
// of arguments and returns the W results (as an array, or a struct of W
// values, the caller declares). Each of f's parameters takes, in the call:
//
//   v0, ..., vW-1                  one value per lane (the default)
//   enzyme_vector, v0, ..., vW-1   the same, said
//   enzyme_scalar, v               one value for every lane
//   enzyme_buffer, stride, p       a pointer: lane k gets p + k * stride bytes
//
// The lanes run one after the other, in order, in the caller (the optimizer
// may vectorize them): the results are those of W calls of f.
//
//===----------------------------------------------------------------------===//

#include "EnzymeCalls.h"

#include "support/CallSites.h"
#include "RequestValueTypes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {
namespace {

class BatchLowering {
public:
  BatchLowering(const Request &R, SynthesisContext &Ctx)
      : R(R), Ctx(Ctx), Call(*R.Site), B(R.Site), F(*R.Primal) {}

  bool run();

private:
  bool error(const Twine &Message) {
    Ctx.error(Call, "__enzyme_batch of '" + Ctx.displayName(F) +
                        "': " + Message);
    return false;
  }
  /// The next call argument, or null (after an error) when there is none.
  Value *next(const Twine &What) {
    if (Next < Call.arg_size())
      return Call.getArgOperand(Next++);
    error("missing " + What);
    return nullptr;
  }
  /// \p V as the parameter type \p To (C's promotions of a variadic call
  /// undone).
  Value *convert(Value *V, Type *To, unsigned ParamNo);
  /// The lanes' values of parameter \p ParamNo.
  bool parseParameter(unsigned ParamNo);

  const Request &R;
  SynthesisContext &Ctx;
  CallBase &Call;
  IRBuilder<> B;
  Function &F;
  unsigned Next = 1;
  unsigned Width = 1;
  /// Per lane, f's arguments.
  SmallVector<SmallVector<Value *, 8>, 8> Lanes;
  /// (One load may serve several markers at -O1 and up.)
  SmallSetVector<Instruction *, 8> MarkerLoads;
};

Value *BatchLowering::convert(Value *V, Type *To, unsigned ParamNo) {
  if (Value *C = convertArgument(B, V, To))
    return C;
  error("argument " + Twine(ParamNo + 1) + " has type " +
        typeName(V->getType()) + ", but the function expects " + typeName(To));
  return nullptr;
}

bool BatchLowering::parseParameter(unsigned ParamNo) {
  Type *T = F.getArg(ParamNo)->getType();
  std::string Which = ("argument " + Twine(ParamNo + 1)).str();
  enum { Vector, Scalar, Buffer } Kind = Width == 1 ? Scalar : Vector;
  if (Next < Call.arg_size()) {
    Value *A = Call.getArgOperand(Next);
    StringRef Marker = markerName(A);
    if (!Marker.empty()) {
      if (Marker == "enzyme_scalar")
        Kind = Scalar;
      else if (Marker == "enzyme_vector")
        Kind = Vector;
      else if (Marker == "enzyme_buffer")
        Kind = Buffer;
      else
        return error("marker '" + Marker + "' is not valid in __enzyme_batch "
                     "(it takes enzyme_width, enzyme_vector, enzyme_scalar and "
                     "enzyme_buffer)");
      if (auto *LI = dyn_cast<LoadInst>(A))
        MarkerLoads.insert(LI);
      ++Next;
    }
  }
  if (Kind == Scalar) {
    Value *V = next("the value of " + Which);
    if (!V || !(V = convert(V, T, ParamNo)))
      return false;
    for (auto &L : Lanes)
      L.push_back(V);
    return true;
  }
  if (Kind == Buffer) {
    Value *Stride = next("the byte stride after enzyme_buffer for " + Which);
    if (!Stride)
      return false;
    if (!Stride->getType()->isIntegerTy())
      return error("enzyme_buffer must be followed by an integer byte stride "
                   "(for " + Which + ")");
    Value *P = next("the pointer of " + Which);
    if (!P)
      return false;
    if (!P->getType()->isPointerTy() || !T->isPointerTy())
      return error("enzyme_buffer is for pointer arguments (" + Which + ")");
    Stride = B.CreateSExtOrTrunc(Stride, B.getInt64Ty());
    for (unsigned K = 0; K < Width; ++K)
      Lanes[K].push_back(B.CreateGEP(B.getInt8Ty(), P,
                                     B.CreateMul(Stride, B.getInt64(K))));
    return true;
  }
  for (unsigned K = 0; K < Width; ++K) {
    Value *V = next("the value of " + Which + " for lane " + Twine(K));
    if (!V || !(V = convert(V, T, ParamNo)))
      return false;
    Lanes[K].push_back(V);
  }
  return true;
}

bool BatchLowering::run() {
  Value *SRet = nullptr;
  if (Call.arg_size() > 0 && Call.paramHasAttr(0, Attribute::StructRet)) {
    SRet = Call.getArgOperand(0);
    Next = 2;
  }
  if (F.arg_size() > 0 && F.hasParamAttribute(0, Attribute::StructRet))
    return error("the function returns its result through memory (a struct "
                 "of more than 16 bytes); return it through a pointer "
                 "argument instead");
  if (F.isVarArg())
    return error("the function is variadic");
  if (Next < Call.arg_size() &&
      markerName(Call.getArgOperand(Next)) == "enzyme_width") {
    if (auto *LI = dyn_cast<LoadInst>(Call.getArgOperand(Next)))
      MarkerLoads.insert(LI);
    ++Next;
    Value *W = next("the width after enzyme_width");
    auto *C = dyn_cast_or_null<ConstantInt>(W);
    if (!C || C->isZero() || C->getValue().ugt(64))
      return error("enzyme_width must be followed by a constant between 1 "
                   "and 64");
    Width = unsigned(C->getZExtValue());
  }
  Lanes.resize(Width);
  for (unsigned I = 0; I < F.arg_size(); ++I)
    if (!parseParameter(I))
      return false;
  if (Next != Call.arg_size())
    return error("too many arguments: the function takes " +
                 Twine(F.arg_size()) + " parameters, at width " +
                 Twine(Width));

  Type *RetTy = F.getReturnType();
  Type *Want = SRet ? Call.getParamStructRetType(0) : Call.getType();
  bool Used = SRet || (!Call.getType()->isVoidTy() && !Call.use_empty());
  Type *Results =
      RetTy->isVoidTy() ? RetTy
      : Width == 1      ? RetTy
                        : static_cast<Type *>(ArrayType::get(RetTy, Width));
  const DataLayout &DL = F.getDataLayout();
  if (Used && (Results->isVoidTy() || !sameScalars(Results, Want) ||
               DL.getTypeStoreSize(Results) > DL.getTypeAllocSize(Want)))
    return error("__enzyme_batch is declared to return " + typeName(Want) +
                 ", but " + Twine(Width) + " results of '" +
                 Ctx.displayName(F) + "' are " +
                 (Results->isVoidTy() ? std::string("nothing")
                                      : typeName(Results)));

  Value *All = Width == 1 || RetTy->isVoidTy() ? nullptr
                                               : PoisonValue::get(Results);
  Value *Single = nullptr;
  for (unsigned K = 0; K < Width; ++K) {
    CallInst *Lane = B.CreateCall(&F, Lanes[K]);
    Lane->setCallingConv(F.getCallingConv());
    if (All)
      All = B.CreateInsertValue(All, Lane, K);
    else
      Single = Lane;
  }
  if (Used) {
    Value *Result = All ? All : Single;
    if (Result->getType() != Want)
      Result = reinterpretAs(B, Result, Want);
    if (SRet)
      B.CreateStore(Result, SRet);
    else
      Call.replaceAllUsesWith(Result);
  } else if (!Call.getType()->isVoidTy()) {
    Call.replaceAllUsesWith(PoisonValue::get(Call.getType()));
  }
  Call.eraseFromParent();
  for (Instruction *L : MarkerLoads)
    if (L->use_empty())
      L->eraseFromParent();
  return true;
}

} // namespace

bool lowerBatchRequest(const Request &R, SynthesisContext &Ctx) {
  return BatchLowering(R, Ctx).run();
}

} // namespace adcore
