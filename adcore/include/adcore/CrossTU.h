//===- adcore/CrossTU.h - Derivatives of functions of other files -*- C++
//-*-===//
//
// A derivative requested in one translation unit of a function defined in
// another is made when the program is linked by adcc:
//
//  * Every object file adcc writes carries its module's IR, as it was when
//    the AD pass ran, in the section ".adcc.ir" (dropped by the linker;
//    EmbeddedIR.h).
//  * A request whose function has no body becomes a call to an external
//    function whose name encodes the derivative (crossTUSymbol): mode,
//    width, the activity of each argument, what it returns, the
//    optimization level, the function's name.
//  * adcc's link step (driver/LinkJob.cpp) looks for such undefined names
//    in the objects it links. If there are any, it links the IR of all of
//    them into one module, defines each name there (defineCrossTU) and
//    compiles the result into one more object for the linker.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_CROSSTU_H
#define ADCORE_CROSSTU_H

#include "adcore/Derivative.h"
#include "adcore/EmbeddedIR.h"
#include "adcore/Options.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace llvm {
class Module;
class OptimizationLevel;
} // namespace llvm

namespace adcore {

/// Prefix of the names of derivatives made at link time.
inline constexpr llvm::StringLiteral CrossTUPrefix = "__adcc_xtu.";

/// Function attribute, in the IR an object carries, of the functions its
/// file's derivatives may run (the primals they were made of, what those
/// reach): at link time a function without it, and not reached from a
/// derivative made there, runs in no derivative (`main`, an init function,
/// which may write numbers into a getter's data that the derivatives read
/// through a null shadow: analysis/ReadOnlyResults.h).
inline constexpr llvm::StringLiteral DifferentiatedAttribute =
    "adcc-differentiated";

/// What a cross-translation-unit derivative is: its key (without the
/// primal, which is named), and whether it is the combined gradient (an
/// augmented and a reverse sweep run back to back) rather than the function
/// of Key.Mode.
struct CrossTURequest {
  DerivativeKey Key;
  bool Combined = false;
  std::string Primal;
  unsigned OptLevel = 0;
};

/// The external name under which \p R is made at link time.
std::string crossTUSymbol(const CrossTURequest &R);
/// The request a name made by crossTUSymbol stands for; none for any other
/// name.
std::optional<CrossTURequest> parseCrossTUSymbol(llvm::StringRef Name);
/// The name of the function, made at link time with the derivative named
/// \p DerivativeSymbol, that zeroes the shadows adcc owns that the
/// derivative (and, of a reverse sweep, its augmented sweep) uses: a request
/// calls it after the derivative returns, as it zeroes its own file's
/// (support/ShadowRelease.h). `__adcc_xtu.z.<the derivative's name less the
/// prefix>`.
std::string crossTUReleaseSymbol(llvm::StringRef DerivativeSymbol);
/// The name of the derivative whose shadows \p Name (made by
/// crossTUReleaseSymbol) zeroes; none for any other name.
std::optional<std::string> releasedCrossTUSymbol(llvm::StringRef Name);
/// The name of the function, made at link time with the derivative named
/// \p DerivativeSymbol, that begins (\p Begin; given the caller's stack
/// pointer) or ends the marks of pointer shadows of a request of it
/// (support/PointerShadowMarks.h) on the tape level the derivative records
/// on, which only the link step knows (it nests requests or not), or does
/// nothing where no derivative made there marks any:
/// `__adcc_xtu.mb.` or `__adcc_xtu.me.` and the derivative's name less the
/// prefix.
std::string crossTUMarksSymbol(llvm::StringRef DerivativeSymbol, bool Begin);
/// The name of the derivative whose marks \p Name (made by
/// crossTUMarksSymbol) begins or ends, and whether it begins them; none for
/// any other name.
std::optional<std::pair<std::string, bool>>
marksCrossTUSymbol(llvm::StringRef Name);
/// Whether the name crossTUSymbol makes for \p Key says all of it: the
/// parts of a key that no derivative made at link time has (an OpenMP
/// region's, split forward mode, error estimates, records of a reverse
/// sweep, interleaved lanes) are at their defaults.
bool crossTUSymbolCarries(const DerivativeKey &Key);

/// The pipeline level of a request's -O level (0-3; above 3 is 3).
llvm::OptimizationLevel crossTULevel(unsigned OptLevel);

/// Link time: defines each of \p Symbols (names made by crossTUSymbol) in
/// \p M, the IR of every object of the program linked into one module, and
/// leaves \p M holding only what the derivatives need: the definitions the
/// objects already hold become declarations. Errors are reported through
/// \p M's context; returns false after one.
bool defineCrossTU(llvm::Module &M, llvm::ArrayRef<std::string> Symbols,
                   const Options &Opts);

/// Compile step: exports, under a hidden name of \p M's own, the address of
/// each static function of \p M whose address the program may take
/// (crossfile/StaticAddresses.cpp), for the derivatives made at link time
/// that call it through a pointer, and that of each static variable the
/// program writes and reads, for the derivatives that use it.
void exportStaticAddresses(llvm::Module &M);
/// Link step: in \p M, the IR of every object linked into one module, the
/// address of each such static function (its copy here) is replaced, but
/// where it is called, by the name its file exported, which resolves to the
/// program's function; each use of such a static variable, by its name.
void useExportedAddresses(llvm::Module &M);

/// Whether \p V (a variable, or an address computed from it) is only read:
/// every use loads from it, or computes an address that is only read.
bool isOnlyRead(const llvm::Value &V);
/// Whether \p V (a variable, or an address computed from it) is only
/// stored to: nothing can read what it holds.
bool isOnlyWritten(const llvm::Value &V);

/// Whether \p Name is one of adcc's own private variables that hold nothing
/// a program reads (the sinks that writes through null shadows go to): a
/// derivative made at link time may use its own copy of one, unlike a
/// static variable of the program.
bool isScratchVariable(llvm::StringRef Name);

} // namespace adcore

#endif // ADCORE_CROSSTU_H
