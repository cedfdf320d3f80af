//===- adcore/MergedStructTypes.h - Struct types linking merges -*- C++ -*-===//
//
// Linking modules (the link step's IR of every object) makes one type of
// identified struct types of the same layout, whatever their names: GSL's
// `gsl_vector_uint` ({size_t, size_t, unsigned *, ...}) becomes
// `gsl_vector`'s type ({size_t, size_t, double *, ...}), and the field
// accesses of -O0 code name the survivor. The declared pointees of struct
// fields (DeclaredPointees.h) are recorded by name, so a `unsigned *` field
// read through the merged type looked like a `double *` one: its integers
// the bits of doubles. The shapes of the structs of each module are noted
// before it is linked; afterwards every name of a shape answers for what
// all of them declare (disagreeing fields: nothing known).
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_MERGEDSTRUCTTYPES_H
#define ADCORE_MERGEDSTRUCTTYPES_H

#include <map>
#include <set>
#include <string>

namespace llvm {
class Module;
class StructType;
} // namespace llvm

namespace adcore {

class StructShapes {
public:
  /// Notes the named struct types of \p M (before it is linked).
  void note(const llvm::Module &M);
  /// Gives each noted name, in \p Merged's declared pointees, what the
  /// other names of its shape declare.
  void widenDeclaredPointees(llvm::Module &Merged) const;

private:
  std::string shapeOf(const llvm::StructType *ST, unsigned Depth) const;
  /// Per layout, the struct names (without `.N` suffixes) that have it.
  std::map<std::string, std::set<std::string>> NamesByShape;
};

} // namespace adcore

#endif // ADCORE_MERGEDSTRUCTTYPES_H
