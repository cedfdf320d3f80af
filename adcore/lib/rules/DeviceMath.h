//===- DeviceMath.h - Rules of GPU device math ------------------*- C++ -*-===//
//
// The device libraries' math functions and the targets' math intrinsics
// as rows of the math rule table (DeviceMath.cpp); the rest of what
// differs in device code is device/DeviceCode.h.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_RULES_DEVICEMATH_H
#define ADCORE_RULES_DEVICEMATH_H

#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class Function;
class FunctionCallee;
class Module;
class Type;
} // namespace llvm

namespace adcore {

struct MathRule;

/// Whether \p M is GPU device code (an NVPTX or AMDGPU target).
bool isDeviceModule(const llvm::Module &M);

/// The rule of a device-library function (`__nv_sinf`, `__ocml_exp_f64`)
/// or a target math intrinsic (`llvm.nvvm.fabs.f64`, `llvm.amdgcn.sqrt`),
/// in a device module; null otherwise.
const MathRule *findDeviceMathRule(const llvm::Function &Callee);

/// The digamma function of \p Ty (double or float) for the derivatives of
/// lgamma and tgamma in the device module \p M: an internal function made
/// there the first time (DeviceDigamma.cpp), as device code cannot call
/// the host runtime's adcc_digamma.
llvm::FunctionCallee deviceDigamma(llvm::Module &M, llvm::Type *Ty);

/// The rows that only device intrinsics use (rounding-mode arithmetic,
/// approximate reciprocals, AMDGPU's sin and cos of turns), for tests.
llvm::ArrayRef<MathRule> deviceMathRules();

} // namespace adcore

#endif // ADCORE_RULES_DEVICEMATH_H
