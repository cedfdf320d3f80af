//===- adcore/GlobalShadows.h - Shadows of global variables -----*- C++ -*-===//
//
// A global variable that holds floating-point data gets a shadow global of
// the same type, as Enzyme does: zero-initialized, named `<name>_shadow`,
// with the global's linkage. Derivative code reads and writes it as it
// reads and writes any shadow memory: in forward mode it holds the
// global's tangent, in reverse mode the adjoints of what was read from the
// global accumulate there (and a store's adjoint takes it and zeroes it).
//
// A global gets one when it is defined in the module, writable, not
// thread-local, holds floating-point data and no pointers, and is not
// marked inactive; or when the program names its shadow
// (`__attribute__((enzyme_shadow(d_g)))`, a registration
// `void *__enzyme_shadow_global_g[2] = {&g, &d_g};`). A declaration
// `extern double g_shadow;` in the module is the shadow global itself: the
// AD pass defines it, and the program reads it.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_GLOBALSHADOWS_H
#define ADCORE_GLOBALSHADOWS_H

#include "llvm/ADT/DenseMap.h"

#include <string>

namespace llvm {
class Function;
class GlobalVariable;
class Module;
class Type;
} // namespace llvm

namespace adcore {

class CustomRules;

/// Whether \p G has a shadow global (\p Rules: the program's marks; may be
/// null).
bool hasShadowGlobal(const llvm::GlobalVariable &G, const CustomRules *Rules);

/// Why \p G, a global a derivative is stored into, has no shadow: a
/// sentence for the error, with the fix.
std::string whyNoShadowGlobal(const llvm::GlobalVariable &G);

/// The shadow global of \p G (hasShadowGlobal) in lane \p Lane of a
/// vector derivative: the one the program named, a declaration
/// `<name>_shadow` of the module now defined, or a new zero-initialized
/// global. (Lanes after the first get globals of their own.)
llvm::GlobalVariable *shadowGlobal(llvm::GlobalVariable &G, unsigned Lane,
                                   const CustomRules &Rules);

/// Turns the constant expressions \p F uses to address shadowed globals
/// (`getelementptr (@g, 8)`) into instructions, whose shadows the emitters
/// compute as for any address. Returns whether \p F changed.
bool expandShadowedGlobalUses(llvm::Function &F, const CustomRules &Rules);

/// Which functions read or write shadowed globals, themselves or through
/// the functions they call: a call of one is differentiated even when
/// none of its arguments has a derivative.
class GlobalUsers {
public:
  explicit GlobalUsers(const CustomRules *Rules) : Rules(Rules) {}
  bool touchesShadowedGlobals(const llvm::Function &F);

private:
  bool usesDirectly(const llvm::Function &F);
  const CustomRules *Rules;
  llvm::DenseMap<const llvm::Function *, bool> Direct, Reached;
};

} // namespace adcore

#endif // ADCORE_GLOBALSHADOWS_H
