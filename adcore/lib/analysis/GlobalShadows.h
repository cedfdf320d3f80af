//===- analysis/GlobalShadows.h - Shadows of global variables ---*- C++ -*-===//
//
// A global variable that holds floating-point data gets a shadow global of
// the same type, as Enzyme does: zero-initialized, named `<name>_shadow`,
// with the global's linkage. Derivative code reads and writes it as it
// reads and writes any shadow memory: in forward mode it holds the
// global's tangent, in reverse mode the adjoints of what was read from the
// global accumulate there (and a store's adjoint takes it and zeroes it).
//
// A global gets one when the code being differentiated writes it (stores
// a value that is not a constant, copies into it, or hands its address
// on), and it is defined in the module, not thread-local, holds
// floating-point data and no pointers, and is not marked inactive; or
// whenever the program names its shadow (`__attribute__((enzyme_shadow(
// d_g)))`, a registration `void *__enzyme_shadow_global_g[2] = {&g,
// &d_g};`). A global only read by the differentiated code (a parameter
// set elsewhere) is a constant to it unless its shadow is named: then the
// adjoints of its reads accumulate there. A declaration `extern double
// g_shadow;` in the module is the shadow global itself: the AD pass
// defines it, and the program reads it.
//
// A shadow the program did not name is adcc's: a store into the global
// in a reverse derivative's forward sweep zeroes it, so that what an
// earlier call left there (a forward derivative's tangent) is no adjoint.
// A named shadow is the program's, as a duplicated argument's shadow is:
// it seeds it, reads it, and zeroes it between calls.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_GLOBALSHADOWS_H
#define ADCORE_GLOBALSHADOWS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <string>

namespace llvm {
class CallBase;
class Function;
class FunctionType;
class GlobalVariable;
class Instruction;
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

/// Where \p F, a derivative differentiated again (forward over reverse),
/// uses one of \p Globals when it also uses that global's shadow global:
/// the outer derivative's shadow of it would be the same global (not
/// supported yet); \p Message is the error to report there. Null when it
/// uses none so.
const llvm::Instruction *
reusedShadowGlobal(llvm::ArrayRef<llvm::GlobalVariable *> Globals,
                   const llvm::Function &F, const CustomRules &Rules,
                   std::string &Message);

/// Turns the constant expressions \p F uses to address shadowed globals
/// (`getelementptr (@g, 8)`) into instructions, whose shadows the emitters
/// compute as for any address. Returns whether \p F changed.
bool expandShadowedGlobalUses(llvm::Function &F, const CustomRules &Rules);

/// The globals that the functions \p Differentiated (those the requests
/// reach) may write: stores of values that are not constants, copies into
/// them, their addresses handed to calls or stored. With \p FloatBitsOnly
/// (which globals need shadows), not stores of integers computed by
/// integer arithmetic, which are no float's bits: a counter or timer in a
/// struct that also has a `double` field would otherwise make every
/// function that counts active; nor of values computed from constants
/// alone (a table of constants filled on the first call). (The snapshots of checkpointed loops need
/// every write.)
void collectWrittenGlobals(
    llvm::ArrayRef<const llvm::Function *> Differentiated,
    llvm::DenseSet<const llvm::GlobalVariable *> &Written,
    bool FloatBitsOnly = false);

/// Which functions read or write shadowed globals, themselves or through
/// the functions they call: a call of one is differentiated even when
/// none of its arguments has a derivative.
class GlobalUsers {
public:
  explicit GlobalUsers(const CustomRules *Rules) : Rules(Rules) {}
  bool touchesShadowedGlobals(const llvm::Function &F);
  /// Whether \p Call may reach a function that does: its callee, or
  /// through a function pointer any function of the module of its type
  /// whose address is taken (a table of operations).
  bool touchesShadowedGlobals(const llvm::CallBase &Call);

private:
  bool usesDirectly(const llvm::Function &F);
  bool anyTargetTouches(const llvm::CallBase &Call);
  const CustomRules *Rules;
  llvm::DenseMap<const llvm::Function *, bool> Direct, Reached;
  llvm::DenseMap<const llvm::FunctionType *, bool> Indirect;
};

} // namespace adcore

#endif // ADCORE_GLOBALSHADOWS_H
