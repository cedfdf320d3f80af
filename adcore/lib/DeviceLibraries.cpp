//===- DeviceLibraries.cpp - Device math libraries around the AD pass -----===//
//
// clang links the device libraries (libdevice, ocml) into a device module
// before optimization, keeping only the functions the source calls,
// internal and always_inline: by the time the AD pass runs, `sin` is the
// polynomial of `__nv_sin` inlined into the user's code, made of
// bit-level integer operations that have no useful derivative. So:
// - at the start of the pipeline, each library function that has a rule
//   (DeviceMath.cpp) is marked noinline and remembered by an attribute;
// - after the AD pass, the partials' math intrinsics that the target
//   cannot select (llvm.cos.f64 on NVPTX) become calls of the library's
//   function of the same name, the libraries are linked again for those,
//   and every library function the AD pass kept or needed is inlined.
//
//===----------------------------------------------------------------------===//

#include "ADPass.h"
#include "optimize/Optimize.h"
#include "device/DeviceCode.h"
#include "adcore/MathRules.h"
#include "rules/WarpShuffles.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace adcore {
namespace {

/// Marks a device-library function kept out of line for the AD pass.
constexpr StringRef KeptDeviceMathAttr = "adcc-kept-device-math";

bool isLibraryFunction(StringRef Name) {
  return Name.starts_with("__nv_") || Name.starts_with("__ocml_");
}

/// The LLVM math intrinsics a partial may call that the targets lower only
/// to a library call, which device code cannot make: their device-library
/// spelling, double then float (`%s` is the libm name).
struct LibrarySpelling {
  const char *Double;
  const char *Float;
};

LibrarySpelling spellingFor(const Triple &TT) {
  if (TT.isNVPTX())
    return {"__nv_%s", "__nv_%sf"};
  return {"__ocml_%s_f64", "__ocml_%s_f32"};
}

/// The intrinsics whose calls become library calls (those with a libm
/// name of the same meaning; sqrt, fabs, fma, ... are selected directly).
constexpr const char *LoweredToLibrary[] = {
    "sin",  "cos",  "tan",  "exp",  "exp2", "exp10", "log",   "log2",
    "log10", "pow", "sinh", "cosh", "tanh", "asin",  "acos",  "atan",
    "atan2",
};

std::string librarySpelling(const char *Pattern, StringRef Libm) {
  std::string S(Pattern);
  size_t At = S.find("%s");
  S.replace(At, 2, Libm.str());
  return S;
}

/// Replaces the scalar calls of the intrinsics in LoweredToLibrary by calls
/// of the device library's functions. Returns the names of those the module
/// only declares.
SmallVector<std::string, 4> callLibraryForIntrinsics(Module &M) {
  LibrarySpelling Spelling = spellingFor(M.getTargetTriple());
  SmallVector<IntrinsicInst *, 8> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
        Type *Ty = II->getType();
        if (!Ty->isFloatTy() && !Ty->isDoubleTy())
          continue;
        StringRef Base = Intrinsic::getBaseName(II->getIntrinsicID());
        if (!Base.consume_front("llvm."))
          continue;
        if (is_contained(LoweredToLibrary, Base))
          Calls.push_back(II);
      }
  SmallVector<std::string, 4> Declared;
  for (IntrinsicInst *II : Calls) {
    StringRef Base = Intrinsic::getBaseName(II->getIntrinsicID());
    Base.consume_front("llvm.");
    Type *Ty = II->getType();
    std::string Name = librarySpelling(
        Ty->isDoubleTy() ? Spelling.Double : Spelling.Float, Base);
    SmallVector<Type *, 2> Params(II->arg_size(), Ty);
    FunctionCallee Fn =
        M.getOrInsertFunction(Name, FunctionType::get(Ty, Params, false));
    auto *Callee = dyn_cast<Function>(Fn.getCallee());
    if (!Callee)
      continue;
    SmallVector<Value *, 2> Args(II->args());
    auto *Call = CallInst::Create(Fn, Args, "", II->getIterator());
    Call->takeName(II);
    Call->setDebugLoc(II->getDebugLoc());
    Call->copyFastMathFlags(II);
    II->replaceAllUsesWith(Call);
    II->eraseFromParent();
    if (Callee->isDeclaration() && !is_contained(Declared, Name))
      Declared.push_back(Name);
  }
  return Declared;
}

/// Links from \p Libraries the functions the module declares and the
/// libraries define, internal, as clang links them.
void linkLibraries(Module &M, const std::vector<std::string> &Libraries) {
  for (const std::string &Path : Libraries) {
    SMDiagnostic Err;
    std::unique_ptr<Module> Lib = parseIRFile(Path, Err, M.getContext());
    if (!Lib)
      continue; // (clang reported an unreadable library already)
    Lib->setTargetTriple(M.getTargetTriple());
    Lib->setDataLayout(M.getDataLayout());
    Linker::linkModules(M, std::move(Lib), Linker::Flags::LinkOnlyNeeded,
                        [](Module &Into, const StringSet<> &Linked) {
                          internalizeModule(Into, [&](const GlobalValue &GV) {
                            return !GV.hasName() ||
                                   !Linked.contains(GV.getName());
                          });
                        });
  }
}

} // namespace

bool keepDeviceMathOutOfLine(Module &M) {
  if (!isDeviceModule(M))
    return false;
  // (Raw NVVM shuffles of floats take the header's rules, in a function.)
  bool Changed = wrapRawShuffles(M);
  SmallVector<GlobalValue *, 4> Pinned;
  for (Function &F : M) {
    // (CUDA's warp shuffles of floats and doubles have rules too.)
    if (F.isDeclaration() ||
        !((isLibraryFunction(F.getName()) && findDeviceMathRule(F)) ||
          isWarpShuffle(F)))
      continue;
    F.addFnAttr(KeptDeviceMathAttr);
    F.removeFnAttr(Attribute::AlwaysInline);
    F.addFnAttr(Attribute::NoInline);
    // (HIP's shuffles, which AMDGPU internalizes before optimizing: marked
    // used, so that no pass drops their constant parameters, and with them
    // the signature their rules know.)
    if (isHipShuffle(F))
      Pinned.push_back(&F);
    Changed = true;
  }
  if (!Pinned.empty())
    appendToCompilerUsed(M, Pinned);
  return Changed;
}

PreservedAnalyses KeepDeviceMathPass::run(Module &M, ModuleAnalysisManager &) {
  return keepDeviceMathOutOfLine(M) ? PreservedAnalyses::none()
                                    : PreservedAnalyses::all();
}

void finishDeviceMath(Module &M, const std::vector<std::string> &Libraries) {
  SmallVector<std::string, 4> Needed = callLibraryForIntrinsics(M);
  if (!Needed.empty())
    linkLibraries(M, Libraries);
  auto InlineCalls = [](Function &F) {
    SmallVector<CallBase *, 8> Sites;
    for (User *U : F.users())
      if (auto *Call = dyn_cast<CallBase>(U); Call &&
                                              Call->getCalledFunction() == &F)
        Sites.push_back(Call);
    for (CallBase *Call : Sites)
      inlineGeneratedCall(*Call);
  };
  // The warp shuffles' rules first: they call the shuffles kept below.
  for (Function &F : make_early_inc_range(M))
    if (isWarpShuffleRule(F) && !F.isDeclaration()) {
      InlineCalls(F);
      if (F.use_empty())
        F.eraseFromParent();
    }
  for (Function &F : M) {
    // (The holders of AMDGPU's cross-lane reads, made by the AD pass.)
    bool Kept = F.hasFnAttribute(KeptDeviceMathAttr) || isAmdgpuCrossLane(F);
    if (!Kept && !is_contained(Needed, F.getName().str()))
      continue;
    if (F.isDeclaration())
      continue;
    F.removeFnAttr(KeptDeviceMathAttr);
    // (A function of the program at -O0, a CUDA header's shuffle, stays
    // optnone, which needs noinline; its calls are inlined below still.)
    if (!F.hasFnAttribute(Attribute::OptimizeNone)) {
      F.removeFnAttr(Attribute::NoInline);
      F.addFnAttr(Attribute::AlwaysInline);
    }
    InlineCalls(F);
  }
  // (The holders of raw shuffles, inlined everywhere: the program never
  // had them.)
  removeFromUsedLists(M, [](Constant *C) {
    auto *F = dyn_cast<Function>(C);
    return F && isHipShuffle(*F);
  });
  for (Function &F : make_early_inc_range(M))
    if ((isRawShuffleHolder(F) || isHipShuffle(F)) && F.use_empty() &&
        F.isDiscardableIfUnused())
      F.eraseFromParent();
}

} // namespace adcore
