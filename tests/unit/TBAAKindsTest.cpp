// Unit tests of what type analysis reads from Clang's TBAA access tags
// (adcore/lib/analysis/TypeAnalysis.h: kindOfTBAA, pointeeKindOfTBAA) in
// both of Clang's formats: the default one, where a type node is
// !{!"name", parent, offset}, and -Xclang -new-struct-path-tbaa, where it
// is !{parent, size, !"name", fields...}. The same accesses must give the
// same kinds (the second format's names were read as none: shadow tables
// of integers lost their types, e2e shared_integer_tables_nsptbaa).

#include "../../adcore/lib/analysis/TypeAnalysis.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace adcore;
using namespace llvm;

namespace {

// A function with a double store, an int store, a `double *` load and a
// load of a struct's double field, tagged with \p Tags (!1 .. !4).
std::string accesses(const std::string &Tags) {
  return R"(
define void @f(ptr %s, ptr %q) {
  store double 1.0, ptr %s, !tbaa !1
  store i32 2, ptr %q, !tbaa !2
  %p = load ptr, ptr %q, !tbaa !3
  %d = load double, ptr %s, !tbaa !4
  ret void
}
)" + Tags;
}

const char *OldFormat = R"(
!0 = !{!"Simple C/C++ TBAA"}
!5 = !{!"omnipotent char", !0, i64 0}
!6 = !{!"double", !5, i64 0}
!7 = !{!"int", !5, i64 0}
!8 = !{!"any pointer", !5, i64 0}
!9 = !{!"p1 double", !8, i64 0}
!10 = !{!"S", !6, i64 0, !7, i64 8}
!1 = !{!6, !6, i64 0}
!2 = !{!7, !7, i64 0}
!3 = !{!9, !9, i64 0}
!4 = !{!10, !6, i64 0}
)";

const char *NewFormat = R"(
!0 = !{!"Simple C/C++ TBAA"}
!5 = !{!0, i64 1, !"omnipotent char"}
!6 = !{!5, i64 8, !"double"}
!7 = !{!5, i64 4, !"int"}
!8 = !{!5, i64 8, !"any pointer"}
!9 = !{!8, i64 8, !"p1 double"}
!10 = !{!5, i64 16, !"S", !6, i64 0, i64 8, !7, i64 8, i64 4}
!1 = !{!6, !6, i64 0, i64 8}
!2 = !{!7, !7, i64 0, i64 4}
!3 = !{!9, !9, i64 0, i64 8}
!4 = !{!10, !6, i64 0, i64 8}
)";

struct Kinds {
  std::vector<Kind> Access, Pointee;
};

Kinds kindsOf(const char *Tags) {
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(accesses(Tags), Err, Ctx);
  REQUIRE(M);
  Kinds K;
  for (Instruction &I : instructions(*M->getFunction("f")))
    if (isa<LoadInst, StoreInst>(I)) {
      K.Access.push_back(kindOfTBAA(I));
      K.Pointee.push_back(pointeeKindOfTBAA(I));
    }
  return K;
}

} // namespace

TEST_CASE("TBAA kinds in both of Clang's formats", "[analysis]") {
  for (const char *Tags : {OldFormat, NewFormat}) {
    Kinds K = kindsOf(Tags);
    REQUIRE(K.Access.size() == 4);
    CHECK(K.Access[0] == Kind::Double);
    CHECK(K.Access[1] == Kind::Integer);
    CHECK(K.Access[2] == Kind::Pointer);
    CHECK(K.Pointee[2] == Kind::Double); // (a `double *`)
    CHECK(K.Access[3] == Kind::Double);  // (a struct's double field)
    CHECK(K.Pointee[0] == Kind::Unknown);
  }
}
