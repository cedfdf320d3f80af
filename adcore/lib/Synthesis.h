//===- Synthesis.h - Generating derivative functions ------------*- C++ -*-===//
//
// The entry point of the emitters: derivative functions are created on
// demand, memoized by key, and generated recursively for the functions they
// call. Errors are reported at the source location of the offending
// instruction through the LLVMContext's diagnostic handler.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_SYNTHESIS_H
#define ADCORE_SYNTHESIS_H

#include "rules/CustomRules.h"
#include "support/IRMarks.h"
#include "adcore/Derivative.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class BasicBlock;
class CallBase;
class Function;
class FunctionType;
class Instruction;
class Module;
} // namespace llvm

namespace adcore {

/// The blocks of a function that may run more than once per call: those in
/// a cycle of its control-flow graph (its strongly connected components of
/// more than one block, and blocks that branch to themselves). Exact, where
/// a reachability query gives up on large functions.
class CycleBlocks {
public:
  explicit CycleBlocks(const llvm::Function &F);
  bool contains(const llvm::BasicBlock &BB) const {
    return Blocks.contains(&BB);
  }

private:
  llvm::SmallPtrSet<const llvm::BasicBlock *, 16> Blocks;
};

/// A function that runs an augmented sweep and then its reverse sweep, back
/// to back: the combined gradient of a request (CombinedSweeps.cpp).
struct CombinedSweeps {
  llvm::Function *Caller;
  llvm::Function *Aug;
  llvm::Function *Rev;
};

class TapeLevelFinder;
class SimplifiedCopies;

class SynthesisContext {
public:
  explicit SynthesisContext(llvm::Module &M, bool PrintTapePlans = false);
  ~SynthesisContext();
  bool printTapePlans() const { return PrintTapePlans; }
  /// Whether derivative arithmetic is contracted into multiply-adds
  /// (Options::ContractDerivatives).
  void setContractDerivatives(bool On) { Contract = On; }
  bool contractsDerivatives() const { return Contract; }
  /// Whether the loop vectorizer runs after the AD pass
  /// (Options::LoopVectorizer).
  void setLoopVectorizer(bool On) { LoopVectorizer = On; }
  bool loopVectorizer() const { return LoopVectorizer; }

  /// From now on a derivative of a function without a body here is an
  /// external declaration, made when adcc links the program (CrossTU.h),
  /// compiled at \p OptLevel (0-3).
  void deferMissingBodies(unsigned OptLevel) { DeferLevel = OptLevel; }
  /// Whether \p F, which has no body here, gets derivatives made at link
  /// time.
  bool defers(const llvm::Function &F) const;

  /// The derivative function for \p Key, generating it (and what it calls)
  /// when needed. Null after a reported error.
  llvm::Function *getOrCreate(const DerivativeKey &Key);

  /// Checks the module once all derivatives are generated; a malformed
  /// generated function (an adcc bug) is reported as an internal error and
  /// loses its body. One verifier for the module checks the debug info the
  /// functions share once: one per derivative went through all of it each
  /// time (minutes for Eigen at -O0 -g).
  void verifyGenerated();

  /// Reports an error at \p Where (its debug location, or its function).
  /// Code adcc made has no location: then the error is reported at the
  /// request being lowered, when there is one (setRequestSite).
  void error(const llvm::Instruction &Where, const llvm::Twine &Message);
  /// The request call being lowered (null after it).
  void setRequestSite(const llvm::Instruction *Site) { RequestSite = Site; }
  /// The name of \p F in messages: demangled, the registered function for
  /// the function getOrCreateThroughRule made to call it, and the
  /// program's function for its simplified copy (SimplifiedCopies.h).
  std::string displayName(const llvm::Function &F) const;
  /// The name derivatives of \p F are named after: its own, or for a
  /// simplified copy the program's function's (`diffe_f`, never
  /// `diffe_f.simplified`).
  llvm::StringRef primalName(const llvm::Function &F) const;
  /// Removes the simplified copies nothing calls once the derivatives are
  /// made.
  void eraseUnusedCopies();
  /// \p F in messages, quoted: `'f'`, or for a derivative adcc made (a
  /// reverse sweep differentiated again) `the derivative of 'f'`, never
  /// its internal name.
  std::string describe(const llvm::Function &F) const;
  /// Where an error found at \p I, while differentiating \p Primal, is
  /// reported: at \p I, or at the request being lowered when \p Primal is
  /// a derivative adcc made (its code is adcc's, not the user's: the
  /// user's request of the derivative of a derivative is the place).
  const llvm::Instruction &placeOf(const llvm::Instruction &I,
                                   const llvm::Function &Primal) const {
    return RequestSite && isGenerated(Primal) ? *RequestSite : I;
  }
  /// One above the highest tape level code that \p F may run uses; 0
  /// when it uses no tape (TapeLevels.h).
  unsigned tapeLevelFor(llvm::Function &F);
  /// Whether adcc made \p F (a derivative, or the function running both
  /// sweeps of a gradient).
  bool isGenerated(const llvm::Function &F) const {
    return GeneratedFrom.count(&F);
  }
  bool hadError() const { return HadError; }

  llvm::Module &module() { return M; }
  /// The program's registered derivatives and activity marks.
  CustomRules &rules() { return Rules; }
  const CustomRules &rules() const { return Rules; }
  const DerivativeCache &cache() const { return Cache; }

  /// The function that calls \p Aug and then \p Rev, with Aug's
  /// parameters followed by Rev's; created once per pair.
  llvm::Function *getOrCreateCombined(llvm::Function &Aug, llvm::Function &Rev);
  /// Records that \p Caller calls \p Aug and then \p Rev, back to back.
  void noteCombined(llvm::Function &Caller, llvm::Function &Aug,
                    llvm::Function &Rev) {
    Combined.push_back({&Caller, &Aug, &Rev});
  }
  llvm::ArrayRef<CombinedSweeps> combined() const { return Combined; }
  /// The functions getOrCreateCombined made, in order of creation.
  llvm::ArrayRef<llvm::Function *> combinedFunctions() const {
    return CombinedFunctions;
  }
  /// Records that \p F, a derivative, calls itself (directly or through
  /// other derivatives; noteRecursiveSweeps, CombinedSweeps.cpp).
  void noteRecursive(llvm::Function &F) { Recursive.insert(&F); }
  bool isRecursive(const llvm::Function &F) const {
    return Recursive.contains(&F);
  }

  /// Split forward mode: the recording sweep made with the tangent sweep
  /// of \p Key (a Forward key with Split), once that is made; else null.
  llvm::Function *splitRecorder(const DerivativeKey &Key) const;
  /// Split forward mode's requests: a recording (__enzyme_augmentfwd) or a
  /// tangent sweep (__enzyme_fwdsplit) of \p Primal with records tagged
  /// \p Tag, at \p Site (the call that replaced it). checkSplitTags reports each tangent sweep whose
  /// tag no recording of its function in this file has.
  void noteSplitTag(const llvm::Function &Primal, std::string Tag,
                    const llvm::Instruction &Site, bool Records) {
    SplitTags.push_back({&Primal, std::move(Tag), &Site, Records});
  }
  void checkSplitTags();
  /// Functions that __enzyme_fwdsplit requests in this file: their
  /// __enzyme_augmentfwd calls record for split forward mode.
  void noteForwardSplit(const llvm::Function &F) { ForwardSplits.insert(&F); }
  bool recordsForwardSplit(const llvm::Function &F) const {
    return ForwardSplits.contains(&F);
  }

private:
  llvm::Function *getOrCreateReverse(const DerivativeKey &Key);
  /// The derivative of \p Same (which makes the same code), recorded for
  /// \p Key too: in both sweeps' keys for a reverse one.
  llvm::Function *getOrCreateAs(const DerivativeKey &Key,
                                const DerivativeKey &Same);
  /// The tangent sweep of split forward mode and its recording sweep.
  llvm::Function *getOrCreateSplit(const DerivativeKey &Key);
  /// After an error in the derivatives \p Made: records the error and
  /// leaves them body-less declarations; returns null.
  llvm::Function *discardGenerated(llvm::ArrayRef<llvm::Function *> Made);
  /// Reports \p Call, an OpenMP construct derivatives do not follow, met
  /// while making the derivative of \p Key.
  void reportOpenMPConstruct(const llvm::CallBase &Call,
                             const DerivativeKey &Key);
  /// Reports \p Call, a GPU kernel launch of host code (rules/GpuLaunches.h)
  /// met while making the derivative of \p Key.
  void reportGpuLaunch(const llvm::CallBase &Call, const DerivativeKey &Key);
  /// Reports \p I, a float made by integer arithmetic on a float's
  /// significand (analysis/BitProvenance.h) or a float cut into integer
  /// pieces (analysis/FloatPieces.h), met while making the derivative of
  /// \p Key; \p Why says which.
  void reportUntraceableFloatBits(const llvm::Instruction &I,
                                  const DerivativeKey &Key,
                                  llvm::StringRef Why);
  /// A reverse derivative of code that itself runs reverse sweeps: made
  /// on the tape level it needs (TapeLevels.h), and answering for \p Key
  /// too; a forward derivative of code that uses scratch shadows behind
  /// null shadow pointers, on the scratch level above theirs. Nothing when \p Key's level is enough; null after a reported
  /// error.
  std::optional<llvm::Function *> getOrCreateNested(const DerivativeKey &Key);
  std::optional<llvm::Function *>
  getOrCreateScratchLevel(const DerivativeKey &Key);
  /// A request of a function that has a registered derivative for its
  /// mode, or is inactive: the derivative of a function that calls it,
  /// which uses the rule (or the mark) as any call in differentiated code
  /// does. Nothing when \p Key's
  /// primal has no rule for its mode; null after a reported error.
  std::optional<llvm::Function *>
  getOrCreateThroughRule(const DerivativeKey &Key);
  /// A request of a function compiled `optnone` (at -O0): the derivative of
  /// its simplified copy (SimplifiedCopies.h), answering for \p Key too.
  /// Nothing when the function is differentiated as it is; null after a
  /// reported error.
  std::optional<llvm::Function *>
  getOrCreateFromCopy(const DerivativeKey &Key);
  /// Makes the derivatives of \p To, in each mode made, answer for \p From.
  void answerFor(const DerivativeKey &From, const DerivativeKey &To);
  /// The external declaration of a derivative made at link time; null
  /// (reported) for a key its name cannot say (crossTUSymbolCarries).
  llvm::Function *declareDeferred(const DerivativeKey &Key, bool Combined);

  llvm::Module &M;
  bool PrintTapePlans;
  bool Contract = false;
  bool LoopVectorizer = true;
  CustomRules Rules;
  DerivativeCache Cache;
  std::vector<CombinedSweeps> Combined;
  llvm::DenseMap<llvm::Function *, llvm::Function *> CombinedOf; // by Aug
  std::vector<llvm::Function *> CombinedFunctions;
  llvm::SmallPtrSet<const llvm::Function *, 4> Recursive;
  /// Primals whose SIMD idioms were rewritten (sign masks, integer
  /// shuffles, known inline assembly, x86 rounding), before their first
  /// derivative.
  llvm::SmallPtrSet<llvm::Function *, 16> Canonical;
  /// The callers getOrCreateThroughRule made, by primal, and the other way.
  llvm::DenseMap<llvm::Function *, llvm::Function *> RuleCallers;
  llvm::DenseMap<const llvm::Function *, llvm::Function *> RuleCallerOf;
  const llvm::Instruction *RequestSite = nullptr;
  /// The primal of each function adcc made.
  llvm::DenseMap<const llvm::Function *, const llvm::Function *> GeneratedFrom;
  /// The tape levels of reverse derivatives (TapeLevels.h), and the
  /// scratch levels of forward ones (DerivativeKey::ScratchLevel).
  std::unique_ptr<TapeLevelFinder> Levels, ScratchLevels;
  /// The simplified copies of functions compiled at -O0.
  std::unique_ptr<SimplifiedCopies> Copies;
  bool HadError = false;
  /// The optimization level of derivatives made at link time, when they
  /// are (deferMissingBodies).
  std::optional<unsigned> DeferLevel;
  struct SplitTag {
    const llvm::Function *Primal;
    std::string Tag;
    const llvm::Instruction *Site;
    bool Records;
  };
  std::vector<SplitTag> SplitTags;
  llvm::SmallPtrSet<const llvm::Function *, 4> ForwardSplits;
};

/// True for types whose values have a floating-point adjoint: floats,
/// float vectors, and structs and arrays made only of them.
bool hasFloatAdjoint(llvm::Type *T);
/// True for structs and arrays that hold pointers and no floating-point
/// values (std::pair<iterator, bool>, a pair of tree nodes): returned from
/// an augmented sweep with their shadow, like a pointer.
bool isPointerAggregate(llvm::Type *T);
/// True for pointers and for structs and arrays that hold a pointer, with
/// or without floating-point values ({double *a; double r;} returned in
/// registers): the augmented sweep carries their shadow, and returns it
/// with them. A shadow of a struct that also holds numbers has its
/// pointer fields' shadows only; its other fields mean nothing (the
/// numbers' adjoints belong to the reverse sweep).
bool carriesPointerShadow(llvm::Type *T);
/// True for types that hold a floating-point value somewhere.
bool containsFloat(llvm::Type *T);

/// The type of a derivative function for \p Key (see Derivative.h).
llvm::FunctionType *derivativeType(const DerivativeKey &Key);

/// Copies what stays true of each primal parameter to the derivative's
/// parameters of \p Key's convention: noalias, nonnull, alignment and
/// dereferenceable bytes, to the primal parameter and to its shadows (the
/// shadows of distinct noalias pointers are distinct memory too), which
/// lets the optimizer vectorize derivative loops without alias checks.
void copyParameterAttributes(const llvm::Function &Primal, llvm::Function &D,
                             const DerivativeKey &Key);

} // namespace adcore

#endif // ADCORE_SYNTHESIS_H
