//===- driver/Paths.h - Where adcc finds its files ------------*- C++ -*-===//
#ifndef ADCC_DRIVER_PATHS_H
#define ADCC_DRIVER_PATHS_H

#include <string>

namespace adcc::driver {

/// The absolute path of the running adcc executable. \p Argv0 and
/// \p MainAddr help where /proc is unavailable.
std::string executablePath(const char *Argv0, void *MainAddr);

/// adcc's resource directory: \p Override when given, otherwise
/// `<dir of the executable>/../lib/adcc`, the same in the build tree and in an
/// install prefix. It holds include/ (adcc.h) and lib/ (libadcc_rt.a).
std::string adccResourceDir(const std::string &ExecutablePath,
                            const std::string &Override);

/// The Clang resource directory (builtin headers, compiler-rt) and the LLVM
/// tools directory (lld, clang-linker-wrapper) of the LLVM adcc was built
/// with.
std::string clangResourceDir();
std::string llvmToolsDir();

} // namespace adcc::driver

#endif // ADCC_DRIVER_PATHS_H
