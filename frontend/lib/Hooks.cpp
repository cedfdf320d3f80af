//===- Hooks.cpp - adcc's hooks into a Clang compile ---------------------===//

#include "frontend/Hooks.h"
#include "frontend/Attributes.h"
#include "frontend/EnzymeChecks.h"
#include "frontend/DeclaredPointees.h"
#include "frontend/IntegerUnions.h"
#include "frontend/TemplateRecords.h"
#include "frontend/LaunchedKernels.h"
#include "frontend/ParamShapes.h"

#include "adcore/Pipeline.h"

#include "clang/Basic/CodeGenOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"

namespace adcc::frontend {
namespace {

/// True when the main source file may ask for derivatives. Location
/// tracking costs a few percent of compile time, so a file that never
/// mentions AD and whose IR is not embedded (-S, -emit-llvm,
/// -fno-adcc-cross-tu) compiles exactly as with clang. (Requests made only
/// from headers still work; their errors then point at the enclosing
/// function.)
bool mentionsDifferentiation(clang::CompilerInstance &CI) {
  const auto &Inputs = CI.getFrontendOpts().Inputs;
  if (Inputs.empty() || !Inputs.front().isFile())
    return true;
  auto Buffer = llvm::MemoryBuffer::getFile(Inputs.front().getFile());
  if (!Buffer)
    return true; // Clang reports the unreadable file itself.
  llvm::StringRef Text = (*Buffer)->getBuffer();
  for (llvm::StringRef Word : {"__enzyme", "ADCC_", "adcc_", "adcc::"})
    if (Text.contains(Word))
      return true;
  return false;
}

} // namespace

void installHooks(clang::CompilerInstance &CI, const adcore::Options &Opts) {
  clang::CodeGenOptions &CodeGen = CI.getCodeGenOpts();
  adcore::Options Engine = Opts;
  // Derivative arithmetic is contracted as clang contracts the user's
  // expressions (-ffp-contract=on, the default, or fast).
  Engine.ContractDerivatives = CI.getLangOpts().getDefaultFPContractMode() !=
                               clang::LangOptions::FPM_Off;
  // Batched tangents are vectors where the loop vectorizer will not run.
  Engine.LoopVectorizer = CodeGen.VectorizeLoop;
  // Locations for AD errors, without -g: dropped after the AD pass unless
  // optimization remarks need them. Also in every object file that carries
  // its IR: a derivative of one of its functions may be made at link time,
  // and its errors point at their source lines too (the IR is embedded
  // before the locations are dropped). That costs a few percent of compile
  // time for files that never mention AD.
  const bool MentionsAD = Opts.EnableAD && mentionsDifferentiation(CI);
  if (Opts.EnableAD &&
      CodeGen.getDebugInfo() == llvm::codegenoptions::NoDebugInfo &&
      (Opts.EmbedIR || MentionsAD)) {
    CodeGen.setDebugInfo(llvm::codegenoptions::LocTrackingOnly);
    Engine.StripLocations =
        !CodeGen.OptimizationRemark.hasValidPattern() &&
        !CodeGen.OptimizationRemarkMissed.hasValidPattern() &&
        !CodeGen.OptimizationRemarkAnalysis.hasValidPattern() &&
        CodeGen.OptRecordFile.empty();
  }
  // (The device libraries, for the functions that derivatives call.)
  for (const clang::CodeGenOptions::BitcodeFileToLink &F :
       CodeGen.LinkBitcodeFiles)
    Engine.DeviceLibraries.push_back(F.Filename);
  // Parameters that are not one IR parameter each, as the frontend sees
  // them (frontend/ParamShapes.h); filled while parsing.
  auto Shapes = std::make_shared<adcore::ParamShapeTable>();
  setParamShapeTable(Shapes);
  Engine.ParamShapes = Shapes;
  // Which unions hold integers only (frontend/IntegerUnions.h); filled
  // while parsing.
  if (Opts.EnableAD) {
    auto Unions = std::make_shared<adcore::IntegerUnionTable>();
    recordIntegerUnions(CI, Unions);
    Engine.IntegerUnions = Unions;
    // (What structs' pointer fields are declared to point to,
    // frontend/DeclaredPointees.h.)
    auto Pointees = std::make_shared<adcore::DeclaredPointeeTable>();
    recordDeclaredPointees(CI, Pointees);
    Engine.DeclaredPointees = Pointees;
    // (And the layouts of class templates' specializations,
    // frontend/TemplateRecords.h.)
    auto Records = std::make_shared<adcore::TemplateRecordTable>();
    recordTemplateRecords(CI, Records);
    Engine.TemplateRecords = Records;
  }

  // (The kernels that host code which may be differentiated launches with
  // <<<...>>> get derivative kernels in the device code.)
  std::shared_ptr<std::set<std::string>> Launched;
  if (MentionsAD && CI.getLangOpts().CUDAIsDevice)
    Launched = std::make_shared<std::set<std::string>>();
  setLaunchedKernelSet(Launched);
  Engine.LaunchedKernels = Launched;
  // (In a host compile, which pointer parameters the launched kernels
  // write through: the derivative of a launch needs shadows for them.)
  std::shared_ptr<std::map<std::string, std::pair<uint64_t, unsigned>>>
      Written;
  if (MentionsAD && CI.getLangOpts().CUDA && !CI.getLangOpts().CUDAIsDevice)
    Written = std::make_shared<
        std::map<std::string, std::pair<uint64_t, unsigned>>>();
  setWrittenParamTable(Written);
  Engine.WrittenKernelParams = Written;
  CodeGen.PassBuilderCallbacks.push_back([Engine](llvm::PassBuilder &PB) {
    adcore::registerPassBuilderCallbacks(PB, Engine);
  });

  enableDerivativeAttributes(CI);
  enableRuleAttributes();
  enableCheckpointAttribute();
  enableEnzymeChecks(CI);
}

} // namespace adcc::frontend
