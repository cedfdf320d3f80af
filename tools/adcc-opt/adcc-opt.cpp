//===- adcc-opt.cpp - Run adcore passes on LLVM IR -----------------------===//
//
// Usage: adcc-opt [-passes=PIPELINE] [-o OUT] input.ll
//
// Reads IR, runs a textual pass pipeline in which adcore's passes are known
// by name (`adcc`, `adcc-print-requests`, plus everything `opt` knows) and
// prints the result as IR. Errors reported by passes are printed with their
// source location and make the exit status 1.
//
//===----------------------------------------------------------------------===//

#include "adcore/Options.h"
#include "adcore/Pipeline.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {

cl::opt<std::string> InputFile(cl::Positional, cl::desc("<input .ll>"),
                               cl::init("-"));
cl::opt<std::string> OutputFile("o", cl::desc("output file"),
                                cl::value_desc("file"), cl::init("-"));
cl::opt<std::string> Passes("passes", cl::desc("textual pass pipeline"),
                            cl::init("adcc"));
cl::opt<bool> PrintRequests("adcc-print-requests",
                            cl::desc("print derivative requests"));
cl::opt<bool> PrintTapePlan("adcc-print-tape-plan",
                            cl::desc("print the tape plans of reverse mode"));

/// Prints diagnostics as `error: file:line:col: message` and remembers
/// whether an error was seen, instead of LLVM's default exit on error.
struct ToolDiagnosticHandler : DiagnosticHandler {
  bool SawError = false;
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() == DS_Error)
      SawError = true;
    errs() << LLVMContext::getDiagnosticMessagePrefix(DI.getSeverity()) << ": ";
    DiagnosticPrinterRawOStream Printer(errs());
    DI.print(Printer);
    errs() << "\n";
    return true;
  }
};

} // namespace

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::ParseCommandLineOptions(Argc, Argv, "adcc-opt: adcore passes on IR\n");

  LLVMContext Ctx;
  auto Handler = std::make_unique<ToolDiagnosticHandler>();
  ToolDiagnosticHandler *Diags = Handler.get();
  Ctx.setDiagnosticHandler(std::move(Handler));

  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseIRFile(InputFile, Err, Ctx);
  if (!M) {
    Err.print(Argv[0], errs());
    return 1;
  }

  adcore::Options Opts;
  Opts.PrintRequests = PrintRequests;
  Opts.PrintTapePlan = PrintTapePlan;
  // No link step follows: a function without a body is an error, as with
  // adcc -fno-adcc-cross-tu.
  Opts.CrossTU = false;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  adcore::registerPassBuilderCallbacks(PB, Opts);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  ModulePassManager MPM;
  if (Error E = PB.parsePassPipeline(MPM, Passes)) {
    errs() << Argv[0] << ": error: " << toString(std::move(E)) << "\n";
    return 1;
  }
  MPM.addPass(VerifierPass());
  MPM.run(*M, MAM);

  std::error_code EC;
  ToolOutputFile Out(OutputFile, EC, sys::fs::OF_Text);
  if (EC) {
    errs() << Argv[0] << ": error: " << EC.message() << "\n";
    return 1;
  }
  M->print(Out.os(), nullptr);
  Out.keep();
  return Diags->SawError ? 1 : 0;
}
