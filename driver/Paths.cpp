//===- Paths.cpp - Where adcc finds its files ----------------------------===//

#include "driver/Paths.h"
#include "driver/Config.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace adcc::driver {

std::string executablePath(const char *Argv0, void *MainAddr) {
  std::string Path = llvm::sys::fs::getMainExecutable(Argv0, MainAddr);
  llvm::SmallString<256> Real;
  // adcc++ is a symlink to adcc; both share one resource directory.
  if (!llvm::sys::fs::real_path(Path, Real))
    return std::string(Real);
  return Path;
}

std::string adccResourceDir(const std::string &ExecutablePath,
                            const std::string &Override) {
  if (!Override.empty()) {
    llvm::SmallString<256> Abs(Override);
    llvm::sys::fs::make_absolute(Abs);
    return std::string(Abs);
  }
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(ExecutablePath));
  llvm::sys::path::append(Dir, "..", ADCC_RESOURCE_SUBDIR);
  llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  return std::string(Dir);
}

std::string clangResourceDir() { return ADCC_CLANG_RESOURCE_DIR; }

std::string llvmToolsDir() { return ADCC_LLVM_TOOLS_DIR; }

} // namespace adcc::driver
