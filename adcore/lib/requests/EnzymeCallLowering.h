//===- EnzymeCallLowering.h - One Enzyme-style request call ----*- C++ -*-===//
//
// The state of one request call while its arguments are read (markers,
// values, shadows: EnzymeCallParsing.cpp) and while it is replaced by a
// call to the derivative (EnzymeCalls.cpp). Private to requests/.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_REQUESTS_ENZYMECALLLOWERING_H
#define ADCORE_REQUESTS_ENZYMECALLLOWERING_H

#include "RequestMarkers.h"
#include "Synthesis.h"
#include "adcore/Request.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

namespace adcore {

/// Parses and lowers one request call: the parsing of its arguments is
/// EnzymeCallParsing.cpp, the call to the derivative EnzymeCalls.cpp.
class EnzymeCallLowering {
public:
  /// Reverse mode (__enzyme_autodiff) instead of forward mode.
  bool Reverse = false;
  /// Split mode: only the augmented sweep (__enzyme_augmentfwd), only the
  /// reverse sweep (__enzyme_reverse), or split forward mode's tangent
  /// sweep (__enzyme_fwdsplit).
  enum class Split { None, Augment, Reverse, Forward } SplitKind = Split::None;
  /// __enzyme_augmentfwd of a function whose tangents __enzyme_fwdsplit
  /// computes in this file: split forward mode's recording sweep.
  bool Recording = false;

public:
  EnzymeCallLowering(const Request &R, SynthesisContext &Ctx)
      : R(R), Ctx(Ctx), Call(*R.Site), B(R.Site) {}

  bool run();

private:
  bool error(const llvm::Twine &Message) {
    Ctx.error(Call, Message);
    return false;
  }
  /// The next argument, or null (after an error) when there is none.
  llvm::Value *next(const llvm::Twine &What);
  /// Steps over the marker at Next (its load is erased with the call).
  /// The marker at argument Next (None past PrimalEnd or for a value),
  /// not consumed.
  Marker peekMarker(llvm::StringRef &Name) {
    if (Next >= PrimalEnd)
      return Marker::None;
    return markerOf(Call.getArgOperand(Next), Name);
  }
  /// Whether \p M is the activity of the parameter that follows it.
  bool isActivity(Marker M) const {
    return M == Marker::Dup || M == Marker::DupNoNeed || M == Marker::Const ||
           M == Marker::DupV || (M == Marker::Out && Reverse);
  }
  void consumeMarker() {
    if (auto *LI = llvm::dyn_cast<llvm::LoadInst>(Call.getArgOperand(Next)))
      MarkerLoads.insert(LI);
    ++Next;
  }
  /// The next shadow: the next argument, or in the interleaved form the
  /// next one after enzyme_interleave.
  llvm::Value *nextShadow(const llvm::Twine &What);
  /// Finds enzyme_interleave: the primals (with their activity markers)
  /// come before it, their shadows after it, in the same order.
  void findInterleave();
  /// \p V converted to \p To as a C variadic call would have promoted it.
  llvm::Value *convert(llvm::Value *V, llvm::Type *To, const llvm::Twine &What);
  bool parseGlobalMarker(Marker M, llvm::StringRef Name);
  /// The markers before a parameter's value: global ones, then at most
  /// one activity (None if there is none).
  bool parseMarkers(Marker &Activity);
  bool parseParameter(llvm::Argument &Param, unsigned SourceNo);
  /// A by-value aggregate that the ABI passes as the two IR parameters
  /// \p Lo and \p Hi (ParamShapes.h): its value's halves come first, then
  /// each shadow's.
  bool parsePair(llvm::Argument &Lo, llvm::Argument &Hi, unsigned SourceNo);
  /// The next value of shape 'p' (its shadow if \p Shadow) as the IR types
  /// of \p Lo and \p Hi: two arguments, or one pointer to memory holding
  /// it.
  bool readPair(llvm::Argument &Lo, llvm::Argument &Hi, bool Shadow,
                const llvm::Twine &What, llvm::Value *&OutLo,
                llvm::Value *&OutHi);
  bool emitCall();
  /// Passes scratch shadows for the enzyme_const pointers whose memory the
  /// function overwrites with values that have derivatives and reads back
  /// (ScratchShadows.h); returns them, for release after the call.
  llvm::SmallVector<llvm::Value *, 2> addScratchShadows();
  /// Split forward mode's sweeps (ForwardSplit.cpp): the recording one
  /// (__enzyme_augmentfwd) and the tangent one (__enzyme_fwdsplit).
  bool emitRecording();
  bool emitForwardSplit();
  /// Global markers after the parameters (enzyme_allocated, enzyme_tape,
  /// ...), which Enzyme accepts anywhere in the call.
  bool parseTrailingMarkers();
  /// __enzyme_reverse's adjoint of a floating-point result of type \p T:
  /// one value per lane (W values at width W), into SeedArg.
  bool parseSeeds(llvm::Type *T);
  /// The seeds of the floating-point fields of a struct result \p T that
  /// mixes them with pointers or integers, one value per field in order
  /// (split mode, width 1); the other fields' adjoints are zero.
  bool parseFieldSeeds(llvm::Type *T);

  const Request &R;
  SynthesisContext &Ctx;
  llvm::CallBase &Call;
  llvm::IRBuilder<> B;
  unsigned Next = 1;
  /// The interleaved form: where the primals end (at enzyme_interleave),
  /// the next shadow after it, and the activity marker in force (it holds
  /// until the next one).
  unsigned PrimalEnd = 0, ShadowNext = 0;
  Marker Sticky = Marker::None;
  /// enzyme_const_return or enzyme_noret: the result has no derivative.
  bool ConstantResult = false;
  /// Reverse mode with enzyme_primal_return: the result is {primal,
  /// adjoints...} (Enzyme's `ReverseWithPrimal`).
  bool PrimalResult = false;
  /// enzyme_noret: the augmented sweep's result is not returned.
  bool NoReturn = false;
  llvm::Value *SRet = nullptr;
  DerivativeKey Key;
  llvm::SmallVector<llvm::Value *, 16> Args;
  llvm::SmallPtrSet<llvm::Instruction *, 8> MarkerLoads;
  /// The pointer parameters passed enzyme_const: the parameter, and the
  /// places of its value in Args and of its activity in Key.Args.
  struct ConstantPointer {
    unsigned ArgNo, ArgsIndex, KeyIndex;
  };
  llvm::SmallVector<ConstantPointer, 4> ConstantPointers;
  /// Split reverse mode: the tape handle and the adjoint of the result.
  llvm::Value *TapeArg = nullptr;
  llvm::Value *SeedArg = nullptr;
  /// Split mode's augmented sweep: the handle it returns (its null-shadow
  /// session is kept with it for the reverse sweep).
  llvm::Value *SplitHandle = nullptr;
  /// enzyme_nofree: split forward mode's records stay for another
  /// __enzyme_fwdsplit.
  bool KeepRecords = false;
  /// enzyme_runtime_activity: a duplicated pointer whose shadow is its
  /// primal at run time is inactive. Each such shadow as given and as
  /// passed (a scratch shadow where the two were equal), released after
  /// the call.
  bool RuntimeActivity = false;
  struct ActivityShadow {
    llvm::Value *Primal, *Given, *Passed;
  };
  llvm::SmallVector<ActivityShadow, 4> ActivityShadows;
};

} // namespace adcore

#endif // ADCORE_REQUESTS_ENZYMECALLLOWERING_H
