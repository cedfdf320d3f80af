//===- DeviceMathTest.cpp - Rules of GPU device math ----------------------===//
//
// Which device-library functions and target intrinsics have rules
// (DeviceMath.cpp), and the partials of the rows of device intrinsics
// against central differences (those whose partials need no target
// intrinsic: they are folded here from constants).
//
//===----------------------------------------------------------------------===//

#include "../../adcore/lib/rules/DeviceMath.h"
#include "adcore/MathRules.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace llvm;
using namespace adcore;

namespace {

std::unique_ptr<Module> parseModule(LLVMContext &Ctx, const char *Source) {
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(Source, Err, Ctx);
  if (!M)
    Err.print("DeviceMathTest", errs());
  REQUIRE(M);
  return M;
}

const char *ruleName(const Module &M, StringRef Name) {
  const Function *F = M.getFunction(Name);
  INFO(Name.str());
  REQUIRE(F);
  const MathRule *R = findMathRule(*F);
  return R ? R->Name : "";
}

} // namespace

TEST_CASE("device libraries and intrinsics take rows", "[devicemath]") {
  LLVMContext Ctx;
  auto NV = parseModule(Ctx, R"(
    target triple = "nvptx64-nvidia-cuda"
    declare double @__nv_sin(double)
    declare float @__nv_expf(float)
    declare double @__nv_pow(double, double)
    declare i32 @__nv_sin2(i32)
    declare double @llvm.nvvm.fabs.f64(double)
    declare float @llvm.nvvm.fabs.ftz.f32(float)
    declare double @llvm.nvvm.sqrt.rn.d(double)
    declare double @llvm.nvvm.fmin.d(double, double)
    declare float @llvm.nvvm.fmin.ftz.nan.f(float, float)
    declare double @llvm.nvvm.mul.rn.d(double, double)
    declare double @llvm.nvvm.div.rz.d(double, double)
    declare double @llvm.nvvm.rcp.rn.d(double)
    declare double @llvm.nvvm.fma.rn.d(double, double, double)
    declare float @llvm.nvvm.sin.approx.f(float)
    declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  )");
  CHECK(StringRef(ruleName(*NV, "__nv_sin")) == "sin");
  CHECK(StringRef(ruleName(*NV, "__nv_expf")) == "exp");
  CHECK(StringRef(ruleName(*NV, "__nv_pow")) == "pow");
  CHECK(StringRef(ruleName(*NV, "__nv_sin2")) == "");
  CHECK(StringRef(ruleName(*NV, "llvm.nvvm.fabs.f64")) == "fabs");
  CHECK(StringRef(ruleName(*NV, "llvm.nvvm.fabs.ftz.f32")) == "fabs");
  CHECK(StringRef(ruleName(*NV, "llvm.nvvm.sqrt.rn.d")) == "sqrt");
  CHECK(StringRef(ruleName(*NV, "llvm.nvvm.fmin.d")) == "fmin");
  // (NaN-propagating forms are not fmin's row.)
  CHECK(StringRef(ruleName(*NV, "llvm.nvvm.fmin.ftz.nan.f")) == "");
  CHECK(StringRef(ruleName(*NV, "llvm.nvvm.mul.rn.d")) == "device.mul");
  CHECK(StringRef(ruleName(*NV, "llvm.nvvm.div.rz.d")) == "device.div");
  CHECK(StringRef(ruleName(*NV, "llvm.nvvm.rcp.rn.d")) == "device.rcp");
  CHECK(StringRef(ruleName(*NV, "llvm.nvvm.fma.rn.d")) == "fma");
  CHECK(StringRef(ruleName(*NV, "llvm.nvvm.sin.approx.f")) ==
        "device.sin.approx");
  CHECK(StringRef(ruleName(*NV, "llvm.nvvm.read.ptx.sreg.tid.x")) == "");

  auto AMD = parseModule(Ctx, R"(
    target triple = "amdgcn-amd-amdhsa"
    declare double @__ocml_sin_f64(double)
    declare float @__ocml_exp_f32(float)
    declare float @__ocml_sinf_f32(float)
    declare float @llvm.amdgcn.rsq.f32(float)
    declare float @llvm.amdgcn.sin.f32(float)
    declare float @llvm.amdgcn.log.f32(float)
    declare float @llvm.amdgcn.rsq.clamp.f32(float)
  )");
  CHECK(StringRef(ruleName(*AMD, "__ocml_sin_f64")) == "sin");
  CHECK(StringRef(ruleName(*AMD, "__ocml_exp_f32")) == "exp");
  CHECK(StringRef(ruleName(*AMD, "__ocml_sinf_f32")) == "");
  CHECK(StringRef(ruleName(*AMD, "llvm.amdgcn.rsq.f32")) == "device.rsqrt");
  CHECK(StringRef(ruleName(*AMD, "llvm.amdgcn.sin.f32")) == "device.sin.turns");
  CHECK(StringRef(ruleName(*AMD, "llvm.amdgcn.log.f32")) == "log2");
  CHECK(StringRef(ruleName(*AMD, "llvm.amdgcn.rsq.clamp.f32")) == "");

  // On the host, `__nv_sin` is the program's own function.
  auto Host = parseModule(Ctx, R"(
    target triple = "x86_64-unknown-linux-gnu"
    declare double @__nv_sin(double)
  )");
  CHECK(StringRef(ruleName(*Host, "__nv_sin")) == "");
}

namespace {

/// The function of a device row, in double, for central differences.
using Reference = double (*)(const double *);

struct DeviceReference {
  const char *Name;
  Reference F;
};

const DeviceReference DeviceReferences[] = {
    {"device.mul", [](const double *A) { return A[0] * A[1]; }},
    {"device.add", [](const double *A) { return A[0] + A[1]; }},
    {"device.div", [](const double *A) { return A[0] / A[1]; }},
    {"device.rsqrt", [](const double *A) { return 1 / std::sqrt(A[0]); }},
    {"device.rcp", [](const double *A) { return 1 / A[0]; }},
    {"device.fract", [](const double *A) { return A[0] - std::floor(A[0]); }},
};

} // namespace

TEST_CASE("device rows match central differences", "[devicemath]") {
  LLVMContext Ctx;
  Module M("rows", Ctx);
  Function *F = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                                 GlobalValue::ExternalLinkage, "host", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", F));
  Type *Double = B.getDoubleTy();
  unsigned Checked = 0;
  for (const DeviceReference &Ref : DeviceReferences) {
    const MathRule *R = nullptr;
    for (const MathRule &Row : deviceMathRules())
      if (StringRef(Row.Name) == Ref.Name)
        R = &Row;
    INFO(Ref.Name);
    REQUIRE(R);
    for (unsigned K = 0; K < 5; ++K) {
      double A[MaxMathArgs] = {};
      for (unsigned I = 0; I < R->NumArgs; ++I)
        A[I] = R->Domains[I].Lo +
               (R->Domains[I].Hi - R->Domains[I].Lo) * (K + 0.5 + I) / 6;
      SmallVector<Value *, MaxMathArgs> Args;
      for (unsigned I = 0; I < R->NumArgs; ++I)
        Args.push_back(ConstantFP::get(Double, A[I]));
      Value *Result = ConstantFP::get(Double, Ref.F(A));
      for (unsigned I = 0; I < R->NumArgs; ++I) {
        auto *P = dyn_cast<ConstantFP>(R->Partials[I](B, Args, Result));
        REQUIRE(P);
        double H = 1e-6 * std::max(1.0, std::fabs(A[I]));
        double Up[MaxMathArgs] = {A[0], A[1], A[2]};
        double Down[MaxMathArgs] = {A[0], A[1], A[2]};
        Up[I] += H;
        Down[I] -= H;
        double FD = (Ref.F(Up) - Ref.F(Down)) / (Up[I] - Down[I]);
        CHECK(P->getValueAPF().convertToDouble() ==
              Approx(FD).epsilon(1e-6).margin(1e-8));
        ++Checked;
      }
    }
  }
  CHECK(Checked == 5 * 9);
}
