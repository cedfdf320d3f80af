//===- DeclaredDerivatives.h - Derivatives from attributes ------*- C++ -*-===//
//
// The annotation attributes of <adcc.h> (ADCC_FORWARD, ...) reach the IR as
// entries of `llvm.global.annotations` on the primal's definition, with the
// string
//   adcc.derivative:<mode>:<width>:<derivative symbol>:<act>,...:<return act>
// e.g. `adcc.derivative:forward:1:d_f:Dual,Const:Dual`. The frontend has
// declared the derivative (with Clang's ABI lowering of its C signature);
// this file defines it: its body calls the generated derivative and adapts
// arguments and result to that signature.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_DECLAREDDERIVATIVES_H
#define ADCORE_DECLAREDDERIVATIVES_H

#include "adcore/Derivative.h"
#include "adcore/ParamShapes.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace adcore {

class SynthesisContext;

struct DeclaredDerivative {
  DerivativeKey Key;
  /// The IR symbol of the derivative the user calls.
  std::string Symbol;
  /// "forward" or "reverse".
  std::string Mode;
  /// Where the attribute is (from the annotation).
  std::string File;
  unsigned Line = 0;
  /// The primal's IR parameters by source parameter, where they differ
  /// (ParamShapes.h); empty when each is one IR parameter.
  llvm::SmallVector<ParamGroup, 8> Groups;
  /// The activity of each source parameter (Key.Args has one per IR
  /// parameter).
  llvm::SmallVector<ArgActivity, 8> SourceArgs;
};

/// Parses the adcc annotations of \p M. Malformed ones are reported.
std::vector<DeclaredDerivative>
collectDeclaredDerivatives(llvm::Module &M, SynthesisContext &Ctx);

/// Defines the derivative function \p D asks for. False after an error.
bool defineDeclaredDerivative(const DeclaredDerivative &D,
                              SynthesisContext &Ctx);

} // namespace adcore

#endif // ADCORE_DECLAREDDERIVATIVES_H
