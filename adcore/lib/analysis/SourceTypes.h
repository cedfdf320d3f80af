//===- SourceTypes.h - What C and C++ source types say (private) -*- C++ -*-//
//
// The type analysis seeds pointers from source types that survive in the
// IR as names: the parameter types in a C++ function's mangled name
// (`double*`, `point*`, `std::vector<double> const&`, a vector's iterator
// passed by value), and the pointee type names of Clang's pointer TBAA
// ("p1 _ZTS5point"). This file reads those names.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ANALYSIS_SOURCETYPES_H
#define ADCORE_ANALYSIS_SOURCETYPES_H

#include "TypeAnalysis.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <utility>

namespace llvm {
class LLVMContext;
class Module;
class StructType;
} // namespace llvm

namespace adcore {

/// What a C++ function's parameter types say its pointer parameters (by
/// argument number) point to.
struct SignatureSeeds {
  /// Scalars: `double*`, `int const&`, `term**` (pointers).
  llvm::SmallVector<std::pair<unsigned, Kind>, 4> Pointees;
  /// Pointers to pointers to numbers (`float**`, `double*&`): what the
  /// pointers in the pointed-to memory point to.
  llvm::SmallVector<std::pair<unsigned, Kind>, 2> PointeesOfPointees;
  /// Structs of the file (`point*`: %struct.point).
  llvm::SmallVector<std::pair<unsigned, llvm::StructType *>, 4> Structs;
  /// Objects whose pointer fields point to elements of a kind, at those
  /// byte offsets: `std::vector<double> const&` (three pointers), a
  /// dynamic-size Eigen object (`DenseStorage<double, -1, ...>`: one).
  struct Container {
    unsigned ArgNo;
    Kind Elements;
    llvm::SmallVector<int64_t, 3> PointerOffsets;
    /// Elements that are structs of the file (`std::vector<point>`), with
    /// their declared fields; Elements is then Unknown.
    llvm::StructType *ElementStruct = nullptr;
  };
  llvm::SmallVector<Container, 2> Containers;
  /// A member function's `this` (by argument number) and its class of the
  /// file: the object's declared fields (not an array of them).
  std::optional<std::pair<unsigned, llvm::StructType *>> This;
};

/// Reads the parameter types in the mangled name of \p F (nothing for C
/// functions).
SignatureSeeds seedsFromSignature(const llvm::Function &F);

/// Double (Float) for a C++ type that holds nothing but doubles (floats):
/// the scalar, std::array, std::complex and fixed-size Eigen matrices of
/// it; else Unknown.
Kind floatKindOfCXXType(llvm::StringRef T);

/// The one IR struct type of the C or C++ type named \p Name (`point`,
/// `ns::point`), or null: none, a template (whose IR names are not unique),
/// or a name two types share in this module (modules of files with
/// different `struct point`s linked together: one is renamed point.0).
llvm::StructType *uniqueStructNamed(llvm::LLVMContext &C, llvm::StringRef Name);

/// A literal struct type laid out as libstdc++'s std::variant of the
/// alternatives in \p Name (`std::variant<A, B>`: structs of the file,
/// double or float) whose declared scalars agree where they overlap (the
/// union's bytes typed the same whichever alternative it holds), followed
/// by its index byte; null where they do not, where none holds a
/// floating-point value, or for another type.
llvm::StructType *variantStruct(const llvm::Module &M, llvm::StringRef Name);

/// The items of a comma-separated list of types, \p Text (a parameter list
/// without its parentheses, or what follows a template's `<`), split at
/// the commas outside nested brackets and ending at the first unmatched
/// closing one.
llvm::SmallVector<llvm::StringRef, 8> splitTopLevel(llvm::StringRef Text);

/// The class or namespace a function's mangled name \p Mangled declares it
/// in, as the demangler prints it (`std::any::_Manager_external<P3>`); a
/// clone's suffix (`.simplified`) is ignored. Empty where none.
std::string declContextOf(llvm::StringRef Mangled);

/// Whether \p Name is a lambda's closure type as the demangler prints it
/// (`f(double const*)::$_0`, `f(double const*)::{lambda(double)#1}`).
bool isClosureName(llvm::StringRef Name);

/// The IR struct type of the lambda closure \p Name in \p M, read from the
/// GEPs its member functions index `this` by; null where none does or
/// they disagree.
llvm::StructType *closureStruct(const llvm::Module &M, llvm::StringRef Name);

/// The same for a class template's specialization \p Name
/// (`std::_Bind<double (*(double, std::_Placeholder<1>))(double, double)>`),
/// whose IR name does not say its arguments.
llvm::StructType *classStruct(const llvm::Module &M, llvm::StringRef Name);

/// The C++ source name of a TBAA type name: the class a typeinfo name
/// (_ZTS5point) names, or a C struct tag as it is.
std::string sourceTypeOfTBAAName(llvm::StringRef Name);

} // namespace adcore

#endif // ADCORE_ANALYSIS_SOURCETYPES_H
