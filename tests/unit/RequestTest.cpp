//===- RequestTest.cpp - Entry points and request collection -------------===//

#include "adcore/EntryPoints.h"
#include "adcore/RequestCollector.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>

using namespace adcore;

namespace {

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext &Ctx,
                                    const char *Source) {
  llvm::SMDiagnostic Err;
  auto M = llvm::parseAssemblyString(Source, Err, Ctx);
  if (!M)
    Err.print("RequestTest", llvm::errs());
  REQUIRE(M);
  return M;
}

std::string printed(const Request &R) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  print(OS, R);
  return S;
}

} // namespace

TEST_CASE("entry points are matched by substring, longest first",
          "[requests]") {
  CHECK(classifyEntryPoint("__enzyme_autodiff") == RequestKind::Reverse);
  CHECK(classifyEntryPoint("__enzyme_autodiff_vec3") == RequestKind::Reverse);
  CHECK(classifyEntryPoint("_Z17__enzyme_autodiffPvz") == RequestKind::Reverse);
  CHECK(classifyEntryPoint("__enzyme_fwddiff") == RequestKind::Forward);
  CHECK(classifyEntryPoint("__enzyme_fwdsplit") == RequestKind::ForwardSplit);
  CHECK(classifyEntryPoint("__enzyme_augmentfwd") ==
        RequestKind::AugmentedForward);
  CHECK(classifyEntryPoint("__enzyme_augmentsize") == RequestKind::AugmentSize);
  CHECK(classifyEntryPoint("__enzyme_reverse") == RequestKind::SplitReverse);
  CHECK(classifyEntryPoint("__enzyme_batch") == RequestKind::Batch);
  CHECK(classifyEntryPoint("__enzyme_error_estimate") ==
        RequestKind::ErrorEstimate);
  CHECK_FALSE(classifyEntryPoint("enzyme_dup"));
  CHECK_FALSE(classifyEntryPoint("autodiff"));
  CHECK_FALSE(classifyEntryPoint("printf"));
}

TEST_CASE("every request kind has a name and a description", "[requests]") {
  for (RequestKind K :
       {RequestKind::Forward, RequestKind::ForwardSplit, RequestKind::Reverse,
        RequestKind::AugmentedForward, RequestKind::SplitReverse,
        RequestKind::AugmentSize, RequestKind::Batch,
        RequestKind::ErrorEstimate}) {
    // The name of a kind classifies back to the same kind.
    CHECK(classifyEntryPoint(entryPointName(K)) == K);
    CHECK_FALSE(describe(K).empty());
  }
}

TEST_CASE("requests are collected from entry-point calls", "[requests]") {
  llvm::LLVMContext Ctx;
  auto M = parse(Ctx, R"IR(
    define double @square(double %x) {
      %m = fmul double %x, %x
      ret double %m
    }
    declare double @__enzyme_fwddiff(ptr, ...)
    declare double @__enzyme_autodiff_d(ptr, ...)
    define double @use(double %x) {
      %a = call double (ptr, ...) @__enzyme_fwddiff(ptr @square, double %x, double 1.0)
      %b = call double (ptr, ...) @__enzyme_autodiff_d(ptr @square, double %x)
      %s = fadd double %a, %b
      ret double %s
    }
  )IR");

  CollectedRequests Found = collectRequests(*M);
  REQUIRE(Found.Errors.empty());
  REQUIRE(Found.Requests.size() == 2);
  const Request &Fwd = Found.Requests[0];
  CHECK(Fwd.Kind == RequestKind::Forward);
  CHECK(Fwd.Primal == M->getFunction("square"));
  CHECK(Fwd.Site->getFunction() == M->getFunction("use"));
  CHECK(Fwd.Width == 1);
  CHECK(Found.Requests[1].Kind == RequestKind::Reverse);
  CHECK(printed(Fwd) ==
        "forward mode of 'square' (width 1) requested in 'use'");
}

TEST_CASE("a request without a known function is an error", "[requests]") {
  llvm::LLVMContext Ctx;
  auto M = parse(Ctx, R"IR(
    declare double @__enzyme_autodiff(ptr, ...)
    declare double @__enzyme_fwddiff(...)
    define double @use(ptr %fn, double %x) {
      %a = call double (ptr, ...) @__enzyme_autodiff(ptr %fn, double %x)
      %b = call double (...) @__enzyme_fwddiff()
      %s = fadd double %a, %b
      ret double %s
    }
  )IR");

  CollectedRequests Found = collectRequests(*M);
  CHECK(Found.Requests.empty());
  REQUIRE(Found.Errors.size() == 2);
  CHECK(Found.Errors[0].Message ==
        "the first argument of __enzyme_autodiff must name a function known "
        "at compile time; it is a parameter of 'use', which adcc copies for "
        "each function its callers pass only where it is static or inline "
        "and called directly");
  CHECK(Found.Errors[1].Message ==
        "__enzyme_fwddiff needs the function to differentiate as its first "
        "argument");
}

TEST_CASE("calls to defined functions are not requests", "[requests]") {
  llvm::LLVMContext Ctx;
  // A user function that happens to contain an entry-point name but has a
  // body is an ordinary call.
  auto M = parse(Ctx, R"IR(
    define double @my__enzyme_fwddiff_helper(ptr %f) {
      ret double 0.0
    }
    define double @use() {
      %a = call double @my__enzyme_fwddiff_helper(ptr null)
      ret double %a
    }
  )IR");
  CollectedRequests Found = collectRequests(*M);
  CHECK(Found.Requests.empty());
  CHECK(Found.Errors.empty());
}
