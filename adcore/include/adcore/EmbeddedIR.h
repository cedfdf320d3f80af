//===- adcore/EmbeddedIR.h - The IR an object file carries -----*- C++ -*-===//
//
// Every object file adcc writes carries the IR of its module, for the
// derivatives made at link time of the functions it defines (CrossTU.h), in
// the section ".adcc.ir" (SHF_EXCLUDE: the linker leaves it out of what it
// writes). What is carried (CarriedIR.cpp) is the module as it was when the
// AD pass ran, reduced to what a derivative made at link time can use (a
// reduced copy; the module itself when there is nothing to reduce), with
// the paths of the build machine mapped as clang maps them elsewhere; how
// it is stored (EmbeddedIRFrames.cpp) is one frame per
// module, compressed.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_EMBEDDEDIR_H
#define ADCORE_EMBEDDEDIR_H

#include "adcore/Options.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace adcore {

/// The section that holds a module's IR in adcc's object files.
inline constexpr llvm::StringLiteral EmbeddedIRSection = ".adcc.ir";

/// The module flag embedModuleIR records the contraction mode in.
constexpr const char *ContractFlag = "adcc.contract";

/// \p Path with the first prefix of \p Map that matches it replaced (as
/// clang's -fdebug-prefix-map and -fmacro-prefix-map replace one).
std::string remapPath(llvm::StringRef Path, const PathPrefixMap &Map);

/// What of \p M a derivative made at link time can use: a copy holding the
/// functions and variables other files can refer to and what they reach
/// (nothing only used by the file's own dead code), with line tables
/// instead of full debug info, and its source file name mapped by \p Map.
/// None when it would hold no definition at all.
std::unique_ptr<llvm::Module> carriedModule(const llvm::Module &M,
                                            const PathPrefixMap &Map);

/// Adds carriedModule(\p M) to \p M as the contents of EmbeddedIRSection (a
/// frame made by packBitcode), unless there is nothing to carry. The IR
/// records whether derivatives made from it contract their arithmetic
/// (Options::ContractDerivatives) in the module flag ContractFlag; a program
/// linked from objects that disagree gets uncontracted derivatives (the
/// flag's smallest value).
void embedModuleIR(llvm::Module &M, const Options &Opts);
/// embedModuleIR in two steps, for a module whose IR is carried as it is
/// at one point of the pass and whose code changes after it: the frame of
/// carriedModule(\p M) (the static addresses exported and the contraction
/// flag recorded in \p M first, as embedModuleIR does), empty when there
/// is nothing to carry; and its addition to \p M (nothing when \p Frame is
/// empty). The AD pass carries the module before its derivatives' tape
/// operations are expanded inline and the derivatives inlined into their
/// callers (ADPass.cpp): a function that runs a gradient, differentiated
/// again at link time, is then differentiated as in its own file.
std::string carriedFrame(llvm::Module &M, const Options &Opts);
void embedFrame(llvm::Module &M, llvm::StringRef Frame);

/// \p Bitcode as one frame of EmbeddedIRSection, as it is: a header (a tag
/// and the length, 64 bits little-endian), the bitcode, zeros up to a
/// multiple of 8 bytes. A relocatable link (`ld -r`) concatenates the
/// sections of its objects.
std::string frameBitcode(llvm::StringRef Bitcode);
/// \p Bitcode as one frame, compressed where LLVM can (zstd, else zlib);
/// the same bytes for the same bitcode.
std::string packBitcode(llvm::StringRef Bitcode);

/// The bitcode of each frame of an EmbeddedIRSection's contents (several
/// after a relocatable link), in order, uncompressed; an error when \p
/// Section is malformed or a frame cannot be uncompressed here.
llvm::Expected<llvm::SmallVector<std::string, 2>>
embeddedModules(llvm::StringRef Section);

} // namespace adcore

#endif // ADCORE_EMBEDDEDIR_H
