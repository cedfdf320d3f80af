//===- adcore/Options.h - Options of the AD engine ------------*- C++ -*-===//
//
// The AD engine takes its options as one struct, passed in by whoever builds
// the pipeline (the adcc driver, adcc-opt, unit tests). There are no global
// command-line options in adcore.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_OPTIONS_H
#define ADCORE_OPTIONS_H

#include "adcore/DeclaredPointees.h"
#include "adcore/IntegerUnions.h"
#include "adcore/TemplateRecords.h"
#include "adcore/ParamShapes.h"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace adcore {

/// Path prefixes and what replaces them, the first that matches a path
/// applying (EmbeddedIR.h: remapPath).
using PathPrefixMap = std::vector<std::pair<std::string, std::string>>;

struct Options {
  /// Run the AD pass at all. When off, marks are left in the IR untouched
  /// (and calls to `__enzyme_*` entry points fail to link).
  bool EnableAD = true;
  /// Print every derivative request found in a module to stderr.
  bool PrintRequests = false;
  /// Print the tape plan of each reverse-mode derivative to stderr.
  bool PrintTapePlan = false;
  /// Remove debug locations once derivatives are generated: the driver
  /// turned on location tracking only so that AD errors point at their
  /// source line, and nothing after the AD pass needs it (no -g, no
  /// optimization remarks).
  bool StripLocations = false;
  /// Requests of functions defined in another translation unit become
  /// calls to derivatives made when adcc links the program (CrossTU.h).
  bool CrossTU = true;
  /// Add the module's IR to the object file (set by the driver when it
  /// writes an object file with CrossTU on).
  bool EmbedIR = false;
  /// What replaces the prefixes of the paths in the embedded IR (its
  /// source file name): the driver gives -fdebug-prefix-map's and
  /// -fmacro-prefix-map's (-ffile-prefix-map sets both), as clang applies
  /// them to the other paths of an object, so that an object is the same
  /// when compiled in another directory.
  PathPrefixMap PathPrefixes;
  /// Contract products into the additions of derivative code
  /// (`llvm.fmuladd`, ContractArithmetic.h): set by the driver where the
  /// translation unit's floating-point contraction is on (clang's default)
  /// or fast, not with -ffp-contract=off.
  bool ContractDerivatives = false;
  /// Whether the loop vectorizer runs after the AD pass (clang's
  /// -fvectorize, on at -O2 and above unless -fno-vectorize): batched
  /// tangents (enzyme_width) stay scalar lanes only in the loops it will
  /// take; with it off they are <N x T> vectors everywhere
  /// (forward/ForwardLanes.cpp).
  bool LoopVectorizer = true;
  /// How the source parameters of the functions that Enzyme calls and
  /// derivative attributes name map onto IR parameters (ParamShapes.h),
  /// filled by the frontend while it parses, read when the AD pass starts.
  std::shared_ptr<const ParamShapeTable> ParamShapes;
  /// Which unions hold integers only (IntegerUnions.h), filled by the
  /// frontend while it parses, attached to the module when the AD pass
  /// starts.
  std::shared_ptr<const IntegerUnionTable> IntegerUnions;
  /// The declared pointees of structs' pointer fields
  /// (DeclaredPointees.h), filled by the frontend while it parses,
  /// attached to the module when the AD pass starts.
  std::shared_ptr<const DeclaredPointeeTable> DeclaredPointees;
  /// The layouts of class templates' specializations (TemplateRecords.h),
  /// filled by the frontend while it parses, attached to the module when
  /// the AD pass starts.
  std::shared_ptr<const TemplateRecordTable> TemplateRecords;
  /// The device libraries (bitcode files: libdevice, ocml) that clang links
  /// into a device module, linked again after the AD pass for the library
  /// functions that derivatives call (DeviceCode.h).
  std::vector<std::string> DeviceLibraries;
  /// In a device compile of a file that mentions AD: the IR names of the
  /// kernels its host code launches with `<<<...>>>`, filled by the
  /// frontend while it parses. Each gets its derivative kernels
  /// (device/LaunchKernels.cpp), which the host code's derivative of the
  /// launch runs (rules/LaunchRules.cpp).
  std::shared_ptr<const std::set<std::string>> LaunchedKernels;
  /// In a host compile (CUDA, HIP) of a file that mentions AD: per kernel
  /// its host code launches with `<<<...>>>` (IR name), the pointer
  /// parameters its body writes through directly (bit i: parameter i) and
  /// its number of parameters, as the frontend sees them. The derivative
  /// of such a launch given no shadow for one is a located error
  /// (rules/LaunchRules.cpp; the launch's run-time check covers the rest).
  std::shared_ptr<const std::map<std::string, std::pair<uint64_t, unsigned>>>
      WrittenKernelParams;
};

} // namespace adcore

#endif // ADCORE_OPTIONS_H
