//===- ComplexRuntime.cpp - Differentiable bodies of complex helpers -----===//
//
// Complex multiplication and division compile to calls of the compiler
// runtime (__muldc3, __divsc3, ...) that add infinity and NaN recovery to
// the textbook formulas; std::abs and std::arg of complex numbers call
// cabs and carg. None has a body in the module. For differentiation each
// gets an internal body built here: the formula itself (Smith's algorithm
// for division, hypot and atan2 for abs and arg), which the engine then
// differentiates like any user function. On finite values the formulas
// give the runtime's results (division up to rounding).
//
//===----------------------------------------------------------------------===//

#include "support/CallSites.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

enum class ComplexOp { Mul, Div, Abs, Arg };

struct ComplexRow {
  const char *Name;
  ComplexOp Op;
  bool Single; ///< float (…sc3, cabsf) rather than double
};

constexpr ComplexRow ComplexTable[] = {
    {"__muldc3", ComplexOp::Mul, false}, {"__mulsc3", ComplexOp::Mul, true},
    {"__divdc3", ComplexOp::Div, false}, {"__divsc3", ComplexOp::Div, true},
    {"cabs", ComplexOp::Abs, false},     {"cabsf", ComplexOp::Abs, true},
    {"carg", ComplexOp::Arg, false},     {"cargf", ComplexOp::Arg, true},
};

/// The real and imaginary parts of the complex parameters of \p F: four
/// scalars (mul, div), two scalars or one <2 x T> (abs, arg).
void complexParts(IRBuilder<> &B, Function &F, SmallVectorImpl<Value *> &Out) {
  for (Argument &A : F.args()) {
    if (auto *VT = dyn_cast<FixedVectorType>(A.getType())) {
      Out.push_back(B.CreateExtractElement(&A, uint64_t(0)));
      Out.push_back(B.CreateExtractElement(&A, uint64_t(1)));
    } else {
      Out.push_back(&A);
    }
  }
}

/// Whether \p FT is the x86-64 / generic form of \p Row's function: T for
/// the parts, {T, T} or <2 x T> for a complex result, a complex parameter
/// as two T or one <2 x T>.
bool expectedType(const ComplexRow &Row, FunctionType *FT, Type *T) {
  auto IsComplex = [&](Type *C) {
    if (auto *VT = dyn_cast<FixedVectorType>(C))
      return VT->getNumElements() == 2 && VT->getElementType() == T;
    auto *ST = dyn_cast<StructType>(C);
    return ST && ST->getNumElements() == 2 && ST->getElementType(0) == T &&
           ST->getElementType(1) == T;
  };
  unsigned Parts = 0;
  for (Type *P : FT->params()) {
    if (P == T)
      ++Parts;
    else if (isa<FixedVectorType>(P) && IsComplex(P))
      Parts += 2;
    else
      return false;
  }
  bool Binary = Row.Op == ComplexOp::Mul || Row.Op == ComplexOp::Div;
  return Parts == (Binary ? 4u : 2u) &&
         (Binary ? IsComplex(FT->getReturnType()) : FT->getReturnType() == T);
}

Value *packComplex(IRBuilder<> &B, Type *RetTy, Value *Re, Value *Im) {
  Value *R = PoisonValue::get(RetTy);
  if (isa<FixedVectorType>(RetTy))
    return B.CreateInsertElement(B.CreateInsertElement(R, Re, uint64_t(0)), Im,
                                 uint64_t(1));
  return B.CreateInsertValue(B.CreateInsertValue(R, Re, 0), Im, 1);
}

void buildBody(const ComplexRow &Row, Function &F, Type *T) {
  LLVMContext &C = F.getContext();
  Module &M = *F.getParent();
  IRBuilder<> B(BasicBlock::Create(C, "entry", &F));
  SmallVector<Value *, 4> P;
  complexParts(B, F, P);
  Type *RetTy = F.getReturnType();
  const char *Suffix = Row.Single ? "f" : "";
  switch (Row.Op) {
  case ComplexOp::Mul: {
    Value *Re =
        B.CreateFSub(B.CreateFMul(P[0], P[2]), B.CreateFMul(P[1], P[3]));
    Value *Im =
        B.CreateFAdd(B.CreateFMul(P[0], P[3]), B.CreateFMul(P[1], P[2]));
    B.CreateRet(packComplex(B, RetTy, Re, Im));
    return;
  }
  case ComplexOp::Div: {
    // Smith's algorithm, with a branch (not a select: the reverse sweep
    // must not propagate through the side not taken).
    Value *A = P[0], *Bi = P[1], *Cr = P[2], *D = P[3];
    Value *WideC = B.CreateFCmpOGE(B.CreateUnaryIntrinsic(Intrinsic::fabs, Cr),
                                   B.CreateUnaryIntrinsic(Intrinsic::fabs, D));
    BasicBlock *CBig = BasicBlock::Create(C, "c.big", &F);
    BasicBlock *DBig = BasicBlock::Create(C, "d.big", &F);
    BasicBlock *Done = BasicBlock::Create(C, "done", &F);
    B.CreateCondBr(WideC, CBig, DBig);
    B.SetInsertPoint(CBig);
    Value *R1 = B.CreateFDiv(D, Cr);
    Value *Den1 = B.CreateFAdd(Cr, B.CreateFMul(D, R1));
    Value *Re1 = B.CreateFDiv(B.CreateFAdd(A, B.CreateFMul(Bi, R1)), Den1);
    Value *Im1 = B.CreateFDiv(B.CreateFSub(Bi, B.CreateFMul(A, R1)), Den1);
    B.CreateBr(Done);
    B.SetInsertPoint(DBig);
    Value *R2 = B.CreateFDiv(Cr, D);
    Value *Den2 = B.CreateFAdd(B.CreateFMul(Cr, R2), D);
    Value *Re2 = B.CreateFDiv(B.CreateFAdd(B.CreateFMul(A, R2), Bi), Den2);
    Value *Im2 = B.CreateFDiv(B.CreateFSub(B.CreateFMul(Bi, R2), A), Den2);
    B.CreateBr(Done);
    B.SetInsertPoint(Done);
    PHINode *Re = B.CreatePHI(T, 2), *Im = B.CreatePHI(T, 2);
    Re->addIncoming(Re1, CBig);
    Re->addIncoming(Re2, DBig);
    Im->addIncoming(Im1, CBig);
    Im->addIncoming(Im2, DBig);
    B.CreateRet(packComplex(B, RetTy, Re, Im));
    return;
  }
  case ComplexOp::Abs:
  case ComplexOp::Arg: {
    // |z| = hypot(re, im), arg z = atan2(im, re): libm functions with
    // rules.
    bool Abs = Row.Op == ComplexOp::Abs;
    FunctionCallee Fn =
        M.getOrInsertFunction((Twine(Abs ? "hypot" : "atan2") + Suffix).str(),
                              FunctionType::get(T, {T, T}, false));
    Value *X = Abs ? P[0] : P[1], *Y = Abs ? P[1] : P[0];
    B.CreateRet(B.CreateCall(Fn, {X, Y}));
    return;
  }
  }
}

} // namespace

Function *complexRuntimeBody(Function &Callee) {
  if (!Callee.isDeclaration())
    return nullptr;
  const ComplexRow *Row = nullptr;
  for (const ComplexRow &R : ComplexTable)
    if (Callee.getName() == R.Name)
      Row = &R;
  if (!Row)
    return nullptr;
  LLVMContext &C = Callee.getContext();
  Type *T = Row->Single ? Type::getFloatTy(C) : Type::getDoubleTy(C);
  FunctionType *FT = Callee.getFunctionType();
  if (!expectedType(*Row, FT, T))
    return nullptr;
  Module &M = *Callee.getParent();
  std::string Name = ("__adcc_body_" + Callee.getName()).str();
  if (Function *Body = M.getFunction(Name))
    return Body->getFunctionType() == FT ? Body : nullptr;
  Function *Body = Function::Create(FT, GlobalValue::InternalLinkage, Name, M);
  Body->addFnAttr(Attribute::NoUnwind);
  Body->addFnAttr(Attribute::AlwaysInline);
  buildBody(*Row, *Body, T);
  return Body;
}

} // namespace adcore
