//===- InactiveFunctions.cpp - Functions without derivatives -------------===//

#include "adcore/InactiveFunctions.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"

using namespace llvm;

namespace adcore {
namespace {

// One name per row.
constexpr const char *InactiveFunctionTable[] = {
    // output
    "printf",
    "fprintf",
    "sprintf",
    "snprintf",
    "vprintf",
    "vfprintf",
    "puts",
    "fputs",
    "putchar",
    "fputc",
    "fflush",
    "perror",
    "__printf_chk",
    "__fprintf_chk",
    "__sprintf_chk",
    "__snprintf_chk",
    // process control and assertions
    "abort",
    "exit",
    "_exit",
    "__assert_fail",
    "__cxa_pure_virtual",
    // time
    "time",
    "clock",
    "clock_gettime",
    "gettimeofday",
    // random numbers (their results are constants of the derivative)
    "rand",
    "srand",
    "random",
    "srandom",
    "drand48",
    "srand48",
    // comparisons and sizes
    "memcmp",
    "strcmp",
    "strncmp",
    "strlen",
    "getenv",
    "malloc_usable_size",
    // adcc's own run-time reports
    "adcc_unknown_derivative",
    "adcc_split_check",
    // OpenMP queries
    "omp_get_thread_num",
    "omp_get_num_threads",
    "omp_get_max_threads",
};

} // namespace

bool isKnownInactiveFunction(const Function &F) {
  if (!F.isDeclaration())
    return false;
  StringRef Name = F.getName();
  for (const char *Row : InactiveFunctionTable)
    if (Name == Row)
      return true;
  return false;
}

} // namespace adcore
