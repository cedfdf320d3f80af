//===- rules/CustomRules.h - User-registered rules and marks ----*- C++ -*-===//
//
// Programs register derivatives and activity facts with globals, as with
// Enzyme:
//   void *__enzyme_register_derivative_f[] = {(void *)f, (void *)f_fwd};
//   void *__enzyme_register_gradient_f[] = {(void *)f, (void *)f_aug,
//                                           (void *)f_rev};
//   void *__enzyme_register_splitderivative_f[] = {(void *)f, (void *)f_aug,
//                                                  (void *)f_fwdsplit};
//   void *__enzyme_inactivefn_log[] = {(void *)log_message};
//   void *__enzyme_inactive_global_counter = (void *)&counter;
//   void *__enzyme_function_like[2] = {(void *)my_log, (void *)"log"};
//   void *__enzyme_shadow_global_g[2] = {(void *)&g, (void *)&d_g};
// (any suffix after the prefix; scalar or array initializers). The
// conventions of f_fwd, f_aug and f_rev are in docs/custom-derivatives.md.
// Malformed registrations are reported at the registering global.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_CUSTOMRULES_H
#define ADCORE_CUSTOMRULES_H

#include "InactiveFunctions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <string>

namespace llvm {
class Function;
class GlobalVariable;
class Module;
class Value;
} // namespace llvm

namespace adcore {

struct CustomGradient {
  llvm::Function *Augmented = nullptr;
  llvm::Function *Reverse = nullptr;
};

/// A split forward derivative: the augmented function records (returns a
/// tape), the split one computes tangents from it.
struct CustomSplitDerivative {
  llvm::Function *Augmented = nullptr;
  llvm::Function *Split = nullptr;
};

class CustomRules {
public:
  /// Reads the registrations of \p M. Each malformed one is reported and
  /// skipped; \p HadError is set then.
  void collect(llvm::Module &M, bool &HadError);

  /// The program's rule, or adcc's own for an MPI or a BLAS call
  /// (MpiRules.h, BlasRules.h).
  llvm::Function *forwardDerivative(const llvm::Function *F) const;
  const CustomGradient *gradient(const llvm::Function *F) const;
  /// adcc's rule for the BLAS routine \p F whose reverse reads the arrays
  /// \p Stable (BlasRules.h: blasGradientRule) again instead of copies;
  /// null when the program registers a gradient of F itself.
  const CustomGradient *blasGradient(const llvm::Function *F,
                                     unsigned Stable) const;
  /// The rule of split forward mode for \p F, or null.
  const CustomSplitDerivative *splitDerivative(const llvm::Function *F) const {
    auto It = Splits.find(F);
    return It == Splits.end() ? nullptr : &It->second;
  }
  /// Registers derivatives the engine makes itself (CheckpointedCalls.h),
  /// as the program's registrations would.
  void addForwardDerivative(const llvm::Function *F, llvm::Function *Fwd) {
    Forward[F] = Fwd;
  }
  void addGradient(const llvm::Function *F, CustomGradient G) {
    Gradients[F] = G;
  }
  /// A gradient of \p F for batched reverse mode of width \p Width: each
  /// pointer parameter followed by its Width shadows (registered by the
  /// engine only: CheckpointedCalls.h), or null.
  const CustomGradient *batchedGradient(const llvm::Function *F,
                                        unsigned Width) const {
    auto It = BatchedGradients.find({F, Width});
    return It == BatchedGradients.end() ? nullptr : &It->second;
  }
  void addBatchedGradient(const llvm::Function *F, unsigned Width,
                          CustomGradient G) {
    BatchedGradients[{F, Width}] = G;
  }
  /// A forward derivative of \p F for batched forward mode of width
  /// \p Width: each floating-point or pointer parameter followed by its
  /// Width tangents, doing F's work (registered by the engine only), or
  /// null.
  llvm::Function *batchedForwardDerivative(const llvm::Function *F,
                                           unsigned Width) const {
    return BatchedForward.lookup({F, Width});
  }
  void addBatchedForwardDerivative(const llvm::Function *F, unsigned Width,
                                   llvm::Function *Fwd) {
    BatchedForward[{F, Width}] = Fwd;
  }
  /// Whether \p F is the augmented function of a gradient the program
  /// registered (its result may hold the rule's tape).
  bool isAugmentedRule(const llvm::Function *F) const {
    for (const auto &E : Gradients)
      if (E.second.Augmented == F)
        return true;
    return false;
  }
  bool isInactive(const llvm::Function *F) const {
    return InactiveFunctions.contains(F);
  }
  /// Whether a derivative of \p F in forward (\p InForwardMode) or reverse
  /// mode comes from the program's rule for it, or is zero (an inactive
  /// function): F's body is then not needed.
  bool coversDerivative(const llvm::Function *F, bool InForwardMode) const {
    return isInactive(F) ||
           (InForwardMode ? forwardDerivative(F) != nullptr
                          : gradient(F) != nullptr);
  }
  /// Marked by __enzyme_inactive_global, or the library's memory known to
  /// hold no derivatives (isKnownInactiveMemory).
  bool isInactiveGlobal(const llvm::Value *G) const {
    return InactiveGlobals.contains(G) || isKnownInactiveMemory(G);
  }
  /// The global the program named as \p G's shadow (enzyme_shadow), or
  /// null.
  llvm::GlobalVariable *namedShadow(const llvm::GlobalVariable *G) const {
    return NamedShadows.lookup(G);
  }
  /// Whether the differentiated code may write \p G (collectWrittenGlobals
  /// in GlobalShadows.h; every global until setWrittenGlobals).
  bool writtenGlobal(const llvm::GlobalVariable *G) const {
    return !WrittenKnown || Written.contains(G);
  }
  void setWrittenGlobals(llvm::DenseSet<const llvm::GlobalVariable *> W) {
    Written = std::move(W);
    WrittenKnown = true;
  }
  /// Whether \p Ptr, a pointer of a primal function, points into the
  /// memory of a global without a shadow that the differentiated code
  /// only writes (WriteOnlyMemory.h): values with derivatives stored there
  /// flow nowhere.
  bool writeOnlyMemory(const llvm::Value *Ptr) const {
    return Ptr && WriteOnly.contains(Ptr);
  }
  void setWriteOnlyMemory(llvm::DenseSet<const llvm::Value *> W) {
    WriteOnly = std::move(W);
  }
  /// The math function \p F behaves like ("log"), or empty.
  std::string functionLike(const llvm::Function *F) const {
    auto It = Like.find(F);
    return It == Like.end() ? std::string() : It->second;
  }

  /// Keeps the functions that registrations name out of line and opaque
  /// until the AD pass: the AD pass runs after the inliner and the
  /// interprocedural passes, and a registered function inlined into its
  /// callers, or whose result they replaced by what its body computes,
  /// would lose its rule or its mark. They become `noinline`, and their
  /// linkage replaceable (weak) until restoreKeptLinkage. Run at the start
  /// of the pipeline. Returns whether it changed any.
  static bool keepRegisteredOutOfLine(llvm::Module &M);
  /// Gives the functions keepRegisteredOutOfLine made weak their linkage
  /// back (the AD pass's first step).
  static void restoreKeptLinkage(llvm::Module &M);

private:
  llvm::DenseMap<const llvm::Function *, llvm::Function *> Forward;
  llvm::DenseMap<const llvm::Function *, CustomGradient> Gradients;
  llvm::DenseMap<std::pair<const llvm::Function *, unsigned>, llvm::Function *>
      BatchedForward;
  /// The batched gradients, and the rules of MPI and BLAS calls made when
  /// first asked for (in maps whose elements stay where they are: the
  /// emitters keep pointers to them).
  std::map<std::pair<const llvm::Function *, unsigned>, CustomGradient>
      BatchedGradients;
  mutable std::map<const llvm::Function *, CustomGradient> MpiGradients;
  mutable std::map<std::pair<const llvm::Function *, unsigned>,
                   CustomGradient>
      BlasGradients;
  llvm::DenseMap<const llvm::Function *, CustomSplitDerivative> Splits;
  llvm::DenseSet<const llvm::Function *> InactiveFunctions;
  llvm::DenseSet<const llvm::Value *> InactiveGlobals;
  llvm::DenseMap<const llvm::Function *, std::string> Like;
  llvm::DenseMap<const llvm::GlobalVariable *, llvm::GlobalVariable *>
      NamedShadows;
  llvm::DenseSet<const llvm::GlobalVariable *> Written;
  bool WrittenKnown = false;
  llvm::DenseSet<const llvm::Value *> WriteOnly;
};

} // namespace adcore

#endif // ADCORE_CUSTOMRULES_H
