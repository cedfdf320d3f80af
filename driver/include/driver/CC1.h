//===- driver/CC1.h - Compile jobs, run in this process -------*- C++ -*-===//
#ifndef ADCC_DRIVER_CC1_H
#define ADCC_DRIVER_CC1_H

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace adcc::driver {

/// Runs one job that Clang's driver would run as `clang -cc1 ...` or
/// `clang -cc1as ...`. \p Argv is `[executable, "-cc1" | "-cc1as", args...]`;
/// adcc's own `-fadcc-*` arguments among args configure the AD engine.
/// Compile jobs (-cc1) run in this process with adcc's hooks installed;
/// assembler jobs (-cc1as) run LLVM 22's clang. Returns the exit status.
int runCompileJob(llvm::SmallVectorImpl<const char *> &Argv,
                  const std::string &ExecutablePath);

} // namespace adcc::driver

#endif // ADCC_DRIVER_CC1_H
