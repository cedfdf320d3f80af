//===- DeviceMath.cpp - Rules of GPU device math --------------------------===//
//
// Device code reaches math through three spellings:
// - the device libraries' functions, which clang's CUDA and HIP headers
//   call for sin(), exp(), ...: libdevice's `__nv_sin` / `__nv_sinf` and
//   ocml's `__ocml_sin_f64` / `__ocml_sin_f32`. They compute what libm's
//   function of the same name does: they take libm's row (names table
//   below), with libm's type;
// - the target's intrinsics, to which the device libraries and the
//   headers' `__fsqrt_rn`, `__fmul_rz`, ... lower: each family is a row of
//   the table (rounding modes and flush-to-zero do not change a
//   derivative), libm's where one fits, else a row of this file;
// - LLVM's own math intrinsics, which MathRules.cpp covers.
//
//===----------------------------------------------------------------------===//

#include "rules/DeviceMath.h"
#include "adcore/MathRules.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace adcore {
namespace {

using Args = ArrayRef<Value *>;

constexpr double TwoPi = 6.28318530717958647692528676655900577;

Constant *fp(Value *Like, double C) {
  return ConstantFP::get(Like->getType(), C);
}

// Partials of the rows below. A: the primal arguments, R: the result.

// x * y: d/dx = y, d/dy = x
Value *dMulX(IRBuilderBase &, Args A, Value *) { return A[1]; }
Value *dMulY(IRBuilderBase &, Args A, Value *) { return A[0]; }
// x + y: 1
Value *dOne(IRBuilderBase &, Args A, Value *) { return fp(A[0], 1); }
// x / y: d/dx = 1 / y, d/dy = -r / y
Value *dDivX(IRBuilderBase &B, Args A, Value *) {
  return B.CreateFDiv(fp(A[1], 1), A[1]);
}
Value *dDivY(IRBuilderBase &B, Args A, Value *R) {
  return B.CreateFNeg(B.CreateFDiv(R, A[1]));
}
// r = 1 / sqrt(x): -r^3 / 2
Value *dRsqrt(IRBuilderBase &B, Args, Value *R) {
  return B.CreateFMul(fp(R, -0.5), B.CreateFMul(R, B.CreateFMul(R, R)));
}
// r = 1 / x: -r^2
Value *dRcp(IRBuilderBase &B, Args, Value *R) {
  return B.CreateFNeg(B.CreateFMul(R, R));
}
// The same intrinsic as the call's, on other arguments (the partial of
// sin.approx is cos.approx of the same argument).
Value *sameFamily(IRBuilderBase &B, Intrinsic::ID ID, Value *X) {
  return B.CreateIntrinsic(ID, {}, {X});
}
// nvvm.sin.approx.f: cos.approx; nvvm.cos.approx.f: -sin.approx
Value *dSinApprox(IRBuilderBase &B, Args A, Value *) {
  return sameFamily(B, Intrinsic::nvvm_cos_approx_f, A[0]);
}
Value *dCosApprox(IRBuilderBase &B, Args A, Value *) {
  return B.CreateFNeg(sameFamily(B, Intrinsic::nvvm_sin_approx_f, A[0]));
}
// amdgcn.sin(x) = sin(2 pi x): 2 pi cos(2 pi x) = 2 pi amdgcn.cos(x)
Value *dSinTurns(IRBuilderBase &B, Args A, Value *) {
  Value *C = B.CreateIntrinsic(Intrinsic::amdgcn_cos, {A[0]->getType()}, {A[0]});
  return B.CreateFMul(fp(A[0], TwoPi), C);
}
// amdgcn.cos(x) = cos(2 pi x): -2 pi amdgcn.sin(x)
Value *dCosTurns(IRBuilderBase &B, Args A, Value *) {
  Value *S = B.CreateIntrinsic(Intrinsic::amdgcn_sin, {A[0]->getType()}, {A[0]});
  return B.CreateFMul(fp(A[0], -TwoPi), S);
}

constexpr unsigned Arg = UsesArgs, Res = UsesResult;

// clang-format off
const MathRule DeviceRules[] = {
  {"device.mul",        2, {dMulX, dMulY},  {{-3, 3}, {-3, 3}},    Arg,         0, true},
  {"device.add",        2, {dOne, dOne},    {{-3, 3}, {-3, 3}},    UsesNothing, 0, true},
  {"device.div",        2, {dDivX, dDivY},  {{-3, 3}, {0.5, 3}},   Arg | Res,   0, true},
  {"device.rsqrt",      1, {dRsqrt},        {{0.1, 10}},           Res,         0, true},
  {"device.rcp",        1, {dRcp},          {{0.1, 10}},           Res,         0, true},
  {"device.sin.approx", 1, {dSinApprox},    {{-3, 3}},             Arg,         0, true},
  {"device.cos.approx", 1, {dCosApprox},    {{-3, 3}},             Arg,         0, true},
  {"device.sin.turns",  1, {dSinTurns},     {{-1, 1}},             Arg,         0, true},
  {"device.cos.turns",  1, {dCosTurns},     {{-1, 1}},             Arg,         0, true},
  {"device.fract",      1, {dOne},          {{0.1, 0.9}},          UsesNothing, 0, true},
};
// clang-format on

const MathRule *deviceRow(StringRef Name) {
  for (const MathRule &R : DeviceRules)
    if (Name == R.Name)
      return &R;
  return nullptr;
}

/// A family of target intrinsics, by the start of its name after
/// `llvm.nvvm.` or `llvm.amdgcn.` (`sqrt.` for `sqrt.rn.d`, `sqrt.f`), and the row it takes: libm's row
/// (`sqrt`) or one of this file (`device.rcp`). Half and bfloat forms
/// (`fmin.f16`), saturating, NaN-propagating and sign-folding forms are
/// left out: their calls stay errors.
struct IntrinsicFamily {
  const char *Prefix;
  const char *Row;
};

// clang-format off
const IntrinsicFamily NVVMFamilies[] = {
  {"fabs",             "fabs"},
  {"fmin.",            "fmin"},
  {"fmax.",            "fmax"},
  {"sqrt.",            "sqrt"},
  {"rsqrt.approx.",    "device.rsqrt"},
  {"rcp.",             "device.rcp"},
  {"ex2.approx",       "exp2"},
  {"lg2.approx.",      "log2"},
  {"sin.approx.",      "device.sin.approx"},
  {"cos.approx.",      "device.cos.approx"},
  {"fma.r",            "fma"},
  {"mul.r",            "device.mul"},
  {"add.r",            "device.add"},
  {"div.r",            "device.div"},
  {"div.approx.",      "device.div"},
};

const IntrinsicFamily AMDGPUFamilies[] = {
  {"sqrt",             "sqrt"},
  {"rsq",              "device.rsqrt"},
  {"rcp",              "device.rcp"},
  {"exp2",             "exp2"},
  {"log",              "log2"},
  {"sin",              "device.sin.turns"},
  {"cos",              "device.cos.turns"},
  {"fract",            "device.fract"},
  {"fmul.legacy",      "device.mul"},
  {"fma.legacy",       "fma"},
};
// clang-format on

/// Suffixes of family members that a row does not describe.
bool isUnsupportedForm(StringRef Rest) {
  for (StringRef Bad : {".sat", "sat.", ".relu", "f16", "bf16", ".nan",
                        "xorsign", ".clamp"})
    if (Rest.contains(Bad))
      return true;
  return false;
}

const MathRule *findFamilyRow(StringRef Rest,
                              ArrayRef<IntrinsicFamily> Families) {
  if (isUnsupportedForm(Rest))
    return nullptr;
  for (const IntrinsicFamily &F : Families) {
    if (!Rest.starts_with(F.Prefix))
      continue;
    if (const MathRule *R = deviceRow(F.Row))
      return R;
    return findMathRule(StringRef(F.Row));
  }
  return nullptr;
}

const MathRule *findDeviceIntrinsicRule(const Function &Callee) {
  StringRef Name = Callee.getName();
  if (Callee.arg_empty() ||
      !Callee.getFunctionType()->getParamType(0)->isFloatingPointTy())
    return nullptr;
  Type *Ty = Callee.getFunctionType()->getParamType(0);
  if (!Ty->isFloatTy() && !Ty->isDoubleTy())
    return nullptr;
  if (Name.consume_front("llvm.nvvm."))
    return findFamilyRow(Name, NVVMFamilies);
  if (Name.consume_front("llvm.amdgcn."))
    return findFamilyRow(Name, AMDGPUFamilies);
  return nullptr;
}

/// `__nv_sin` (double), `__nv_sinf` (float); `__ocml_sin_f64`,
/// `__ocml_sin_f32`: libm's row and the floating-point type.
const MathRule *findLibraryRule(const Function &Callee) {
  StringRef Name = Callee.getName();
  LLVMContext &Ctx = Callee.getContext();
  const MathRule *R = nullptr;
  Type *FPTy = nullptr;
  if (Name.consume_front("__nv_")) {
    R = findMathRule(Name);
    if (R)
      FPTy = Name == R->Name ? Type::getDoubleTy(Ctx) : Type::getFloatTy(Ctx);
  } else if (Name.consume_front("__ocml_")) {
    if (Name.consume_back("_f64"))
      FPTy = Type::getDoubleTy(Ctx);
    else if (Name.consume_back("_f32"))
      FPTy = Type::getFloatTy(Ctx);
    // (Only the canonical name: `__ocml_sinf_f32` is not ocml's.)
    R = FPTy ? findMathRule(Name) : nullptr;
    if (R && Name != R->Name)
      R = nullptr;
  }
  if (!R || R->IntrinsicOnly || Callee.getFunctionType() != mathRuleLibmType(*R, FPTy))
    return nullptr;
  return R;
}

} // namespace

bool isDeviceModule(const Module &M) {
  const Triple &TT = M.getTargetTriple();
  return TT.isNVPTX() || TT.isAMDGPU();
}

const MathRule *findDeviceMathRule(const Function &Callee) {
  if (!Callee.getParent() || !isDeviceModule(*Callee.getParent()))
    return nullptr;
  if (Callee.isIntrinsic())
    return findDeviceIntrinsicRule(Callee);
  return findLibraryRule(Callee);
}

ArrayRef<MathRule> deviceMathRules() { return DeviceRules; }

} // namespace adcore
