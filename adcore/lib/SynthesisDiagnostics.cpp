//===- SynthesisDiagnostics.cpp - Errors of derivative synthesis ---------===//
//
// How the SynthesisContext reports a user error: at the user's source line
// (the nearest instruction with one, else the request), naming the user's
// function (not adcc's copies, outlined regions or private helpers), and the
// messages of the constructs the emitters refuse as a whole (OpenMP
// constructs, float bits that cannot be traced, GPU launches).
//
//===----------------------------------------------------------------------===//

#include "Synthesis.h"
#include "prepare/SimplifiedCopies.h"
#include "rules/GpuLaunches.h"
#include "rules/OpenMPRuntime.h"
#include "support/ShortNames.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {

/// "cannot differentiate 'f' in forward mode" (or reverse mode): the start
/// of the message of an error in the derivative \p Key.
static std::string cannotDifferentiate(const SynthesisContext &Ctx,
                                       const DerivativeKey &Key) {
  return "cannot differentiate " + Ctx.describe(*Key.Primal) +
         (Key.Mode == DerivativeMode::Forward ? " in forward mode"
                                              : " in reverse mode");
}

void SynthesisContext::error(const Instruction &Where, const Twine &Message) {
  HadError = true;
  // (Code the compiler made, such as an OpenMP region's bookkeeping, is at
  // line 0: the nearest instruction of the block with a line, else the
  // request.)
  auto HasLine = [](const Instruction *I) {
    return I && I->getDebugLoc() && I->getDebugLoc().getLine() != 0;
  };
  const Instruction *At = &Where;
  for (const Instruction *P = Where.getPrevNode(); !HasLine(At) && P;
       P = P->getPrevNode())
    if (HasLine(P))
      At = P;
  for (const Instruction *N = Where.getNextNode(); !HasLine(At) && N;
       N = N->getNextNode())
    if (HasLine(N))
      At = N;
  if (!HasLine(At))
    At = HasLine(RequestSite) ? RequestSite : &Where;
  const Function &F = *At->getFunction();
  F.getContext().diagnose(
      DiagnosticInfoUnsupported(F, Message, At->getDebugLoc(), DS_Error));
}

std::string SynthesisContext::displayName(const Function &F) const {
  if (const Function *Program = Copies->originalOf(F))
    return displayName(*Program);
  const Function *Named = RuleCallerOf.lookup(&F);
  StringRef Raw = (Named ? Named : &F)->getName();
  // (A copy taking float bits as floats, FloatBitArguments.cpp: the
  // program's function. Cut before demangling, as below.)
  if (size_t At = Raw.find(".floatbits."); At != StringRef::npos)
    Raw = Raw.take_front(At);
  // (One taking addresses kept as integers by reference as pointers,
  // IntegerAddressArguments.cpp.)
  if (size_t At = Raw.find(".intaddr."); At != StringRef::npos)
    Raw = Raw.take_front(At);
  // (A byte-copy helper's copy for one call, CopyHelperClones.cpp.)
  Raw.consume_back(".percall");
  return shortTemplates(demangle(Raw));
}

StringRef SynthesisContext::primalName(const Function &F) const {
  const Function *Program = Copies->originalOf(F);
  return (Program ? Program : &F)->getName();
}


std::string SynthesisContext::describe(const Function &F) const {
  if (const Function *Primal = GeneratedFrom.lookup(&F))
    return "the derivative of " + describe(*Primal);
  // (Clang's outlined body of an OpenMP region: `f.omp_outlined.1`, at -O0
  // with -g `f.omp_outlined_debug__`.)
  // (Cut before demangling: a C++ name demangles with the suffix in
  // parentheses after its parameters.)
  StringRef Raw = primalName(F);
  if (size_t At = Raw.find(".omp_outlined"); At != StringRef::npos)
    return "the OpenMP region in '" + demangle(Raw.take_front(At)) + "'";
  // (A private helper adcc made, `adcc.shadow.copy` say, differentiated
  // as part of a derivative it serves: the user knows that derivative's
  // function. Of its callers, the one fewest derivatives away from the
  // program; a call detached from any block is skipped, and so is one in
  // a derivative made from the helper itself.)
  if (Raw.starts_with("adcc.") && F.hasLocalLinkage()) {
    auto Distance = [&](const Function *G) -> unsigned {
      unsigned Depth = 0;
      for (; Depth != 8 && GeneratedFrom.count(G); ++Depth)
        if ((G = GeneratedFrom.lookup(G)) == &F)
          return ~0u;
      return Depth;
    };
    const Function *Best = nullptr;
    unsigned BestDistance = ~0u;
    for (const User *U : F.users())
      if (const auto *Call = dyn_cast<CallBase>(U))
        if (const BasicBlock *Block = Call->getParent())
          if (const Function *Caller = Block->getParent();
              Caller && Caller != &F &&
              !primalName(*Caller).starts_with("adcc."))
            if (unsigned D = Distance(Caller); D < BestDistance)
              Best = Caller, BestDistance = D;
    if (Best)
      return describe(*Best);
  }
  return "'" + displayName(F) + "'";
}

void SynthesisContext::reportOpenMPConstruct(const CallBase &Call,
                                             const DerivativeKey &Key) {
  const Function &Callee = *Call.getCalledFunction();
  StringRef Construct = unsupportedOpenMPConstruct(Callee);
  if (Construct.empty())
    Construct = "this form of the reduction clause";
  // (A thread started by library code inlined into the function, such as
  // std::thread's constructor: at the line of the function that runs it.)
  const Instruction &At = placeOf(Call, *Key.Primal);
  DebugLoc Loc = At.getDebugLoc();
  if (const DILocation *Outer = Loc ? Loc->getInlinedAt() : nullptr) {
    while (Outer->getInlinedAt())
      Outer = Outer->getInlinedAt();
    if (Outer->getFilename() != Loc->getFilename())
      Loc = DebugLoc(Outer);
  }
  HadError = true;
  At.getContext().diagnose(DiagnosticInfoUnsupported(
      *At.getFunction(),
      cannotDifferentiate(*this, Key) +
          ": " + Construct + " (" + demangle(Callee.getName()) +
          ") is not supported in differentiated code yet; differentiate a "
          "function without it, or give the function that uses it a custom "
          "derivative; OpenMP parallel loops and adcc::launch are "
          "differentiated (docs/parallel.md)",
      Loc, DS_Error));
}

void SynthesisContext::reportUntraceableFloatBits(const Instruction &I,
                                                  const DerivativeKey &Key,
                                                  StringRef Why) {
  HadError = true;
  const Instruction &At = placeOf(I, *Key.Primal);
  At.getContext().diagnose(DiagnosticInfoUnsupported(
      *At.getFunction(),
      cannotDifferentiate(*this, Key) +
          ": " + Why,
      At.getDebugLoc(), DS_Error));
}

void SynthesisContext::reportGpuLaunch(const CallBase &Call,
                                       const DerivativeKey &Key) {
  const Function &Callee = *Call.getCalledFunction();
  // (At the launch in the user's code: the line that calls the stub, or
  // that the stub was inlined into.)
  const Instruction &At = placeOf(Call, *Key.Primal);
  DebugLoc Loc = At.getDebugLoc();
  if (const DILocation *Outer = Loc ? Loc->getInlinedAt() : nullptr) {
    while (Outer->getInlinedAt())
      Outer = Outer->getInlinedAt();
    Loc = DebugLoc(Outer);
  }
  // (The kernel of a stub: its name without the prefix. A stub inlined at
  // -O2: the launch names it.)
  const Function *Stub = &Callee;
  if ((Callee.getName() == "cudaLaunchKernel" ||
       Callee.getName() == "hipLaunchKernel" ||
       Callee.getName().contains("LaunchCooperativeKernel")) &&
      Call.arg_size() == 8)
    if (const auto *Handle = dyn_cast<Function>(
            Call.getArgOperand(0)->stripPointerCasts());
        Handle && !Handle->isDeclaration() &&
        Handle->getName().contains("__device_stub__") &&
        !Handle->hasFnAttribute(LaunchRuleAttr))
      Stub = Handle;
  std::string Launched = demangle(Stub->getName());
  if (size_t Pos = Launched.find("__device_stub__"); Pos != std::string::npos)
    Launched.erase(Pos, strlen("__device_stub__"));
  HadError = true;
  // (A stub without rules: a kernel parameter that is not a number, a
  // pointer or a struct of pointers, integers, floats and doubles, or a
  // struct whose floating-point member the host passes in an integer's
  // bits, rules/LaunchRules.cpp.)
  if (!Stub->isDeclaration()) {
    At.getContext().diagnose(DiagnosticInfoUnsupported(
        *At.getFunction(),
        cannotDifferentiate(*this, Key) +
            ": the kernel launch (<<<...>>>) of '" + Launched +
            "' is differentiated only where every parameter of the kernel "
            "is a number, a pointer, or a struct of pointers, integers, "
            "floats and doubles passed by value whose floating-point members "
            "the host does not pass in an integer's bits (a struct of up to "
            "16 bytes that mixes a float with an integer or another float "
            "in one 8-byte half); pass such a struct by pointer, or launch "
            "the kernel with adcc::launch(adcc::cuda or adcc::hip, kernel, "
            "range, workgroup, args...) of <adcc/kernels.hpp> (docs/gpu.md)",
        Loc, DS_Error));
    return;
  }
  At.getContext().diagnose(DiagnosticInfoUnsupported(
      *At.getFunction(),
      cannotDifferentiate(*this, Key) +
          ": a " + gpuLaunchKind(Callee) + " of '" + Launched +
          "' in differentiated code is not differentiated (its derivative "
          "would leave out the kernel); launch the kernel with <<<...>>>, "
          "cudaLaunchKernel or hipLaunchKernel (or their cooperative forms) "
          "naming the kernel, or with "
          "adcc::launch(adcc::cuda or adcc::hip, kernel, range, workgroup, "
          "args...) of <adcc/kernels.hpp>, whose launches are "
          "differentiated (docs/gpu.md)",
      Loc, DS_Error));
}

} // namespace adcore
