//===- FunctionParameters.h - Helpers given the function to differentiate -===//
#ifndef ADCORE_REQUESTS_FUNCTIONPARAMETERS_H
#define ADCORE_REQUESTS_FUNCTIONPARAMETERS_H

namespace llvm {
class Module;
class Value;
} // namespace llvm

namespace adcore {

/// Copies each helper that receives the function to differentiate as a
/// parameter once per distinct function its direct callers pass, so that the
/// requests inside name it. True if the module changed.
bool specializeFunctionParameters(llvm::Module &M);

/// \p V without pointer casts, and, where it is a load of a local that holds
/// one value (an -O0 parameter's or function pointer's slot), that value.
llvm::Value *lookThroughFunctionLocal(llvm::Value *V);

} // namespace adcore

#endif // ADCORE_REQUESTS_FUNCTIONPARAMETERS_H
