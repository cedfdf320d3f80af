//===- adcore/ParamShapes.h - Source parameters over IR ones --*- C++ -*-===//
//
// The x86-64 C ABI passes a struct or complex value of 9 to 16 bytes as two
// IR arguments, one per eightbyte (`double _Complex z` becomes `double,
// double`), and drops empty structs. A request then has more (or fewer) IR
// parameters than the source has, and the arguments of an Enzyme call come
// in source order: the value's halves, then its shadow's halves. Reading
// them one IR parameter at a time would pair a half with the other half as
// its shadow.
//
// The frontend knows the source types: it describes each parameter of the
// functions that need it by one letter, and adcore groups the IR parameters
// by them.
//
//   v  one IR parameter
//   e  none (an empty struct)
//   p  a by-value aggregate of 9 to 16 bytes: two IR parameters (its
//      eightbytes), or one where the ABI put it in memory (`byval`, when
//      registers run out) or in one 16-byte value (a vector)
//
// The description travels as function metadata (`adcc.param.shapes`), set
// when the AD pass starts from Options::ParamShapes (by mangled name) and
// from the annotations the frontend puts on definitions that code
// generation emits after it has looked (`adcc.param.shapes:<letters>` in
// `llvm.global.annotations`: templates, inline functions and lambdas,
// whose mangled names the frontend's own mangler may spell differently:
// it numbers local lambdas' types apart from code generation).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_PARAMSHAPES_H
#define ADCORE_PARAMSHAPES_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <string>
#include <utility>

namespace llvm {
class CallBase;
class Function;
class IRBuilderBase;
class Module;
class Type;
class Value;
} // namespace llvm

namespace adcore {

/// Shapes by IR function name (what the frontend gives).
using ParamShapeTable = std::map<std::string, std::string>;

/// The IR parameters of one source parameter: [First, First + Count).
struct ParamGroup {
  unsigned First = 0;
  unsigned Count = 1;
};

/// Attaches the shapes in \p Table to the functions of \p M they name,
/// then those of the annotations (which win), and drops the annotations.
void attachParamShapes(llvm::Module &M, const ParamShapeTable &Table);

/// The prefix of the annotation string that carries a function's shapes.
constexpr const char *ParamShapesAnnotation = "adcc.param.shapes:";

/// The shape string of \p F, empty when it has none.
llvm::StringRef paramShapes(const llvm::Function &F);

/// The IR parameters of \p F grouped by source parameter (a leading `sret`
/// parameter, the result's memory, is a group of its own); nullopt when
/// \p F has no shapes or they do not fit its IR parameters.
std::optional<llvm::SmallVector<ParamGroup, 8>>
groupParameters(const llvm::Function &F);

/// How many arguments of \p Call from \p Index on carry a value of shape
/// 'p': one when it is passed in memory or as one wide value, else two.
unsigned pairArgumentCount(const llvm::CallBase &Call, unsigned Index);

/// The two halves (eightbytes) of a value of shape 'p' that the ABI passed
/// in memory at \p Mem, as types \p Lo and \p Hi.
std::pair<llvm::Value *, llvm::Value *> loadPairHalves(llvm::IRBuilderBase &B,
                                                       llvm::Value *Mem,
                                                       llvm::Type *Lo,
                                                       llvm::Type *Hi);

} // namespace adcore

#endif // ADCORE_PARAMSHAPES_H
