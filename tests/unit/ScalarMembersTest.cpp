//===- ScalarMembersTest.cpp - Members of plain-data types ----------------===//
//
// The host side of a launch's derivative (rules/LaunchRules.cpp) and the
// device kernels (device/LaunchKernels.cpp) read a struct passed by value
// with the same walkers: they must agree on its floating-point members and
// pointers, at the offsets of the data layout.

#include "../../adcore/lib/support/ScalarMembers.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"

#include <catch2/catch.hpp>

using namespace adcore;
using namespace llvm;

TEST_CASE("members of a struct passed by value to a kernel", "[launch]") {
  LLVMContext Ctx;
  DataLayout DL("e-m:e-i64:64-n32:64");
  Type *F64 = Type::getDoubleTy(Ctx), *F32 = Type::getFloatTy(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx), *Ptr = PointerType::getUnqual(Ctx);
  // struct { double a; float b[2]; ptr p; int n; struct { float c; ptr q; } s; }
  Type *Inner = StructType::get(Ctx, {F32, Ptr});
  Type *Outer =
      StructType::get(Ctx, {F64, ArrayType::get(F32, 2), Ptr, I32, Inner});
  REQUIRE(isPlainData(Outer));

  SmallVector<std::pair<uint64_t, Type *>, 4> Floats;
  floatMembers(Outer, 16, DL, Floats);
  REQUIRE(Floats.size() == 4);
  CHECK(Floats[0] == std::make_pair(uint64_t(16), F64));
  CHECK(Floats[1] == std::make_pair(uint64_t(24), F32));
  CHECK(Floats[2] == std::make_pair(uint64_t(28), F32));
  CHECK(Floats[3] == std::make_pair(uint64_t(16 + 32), F32));

  SmallVector<uint32_t, 4> Pointers;
  pointerOffsets(Outer, 0, DL, Pointers);
  REQUIRE(Pointers.size() == 2);
  CHECK(Pointers[0] == 16);
  CHECK(Pointers[1] == 40);

  // A scalar is its own one member.
  Floats.clear();
  floatMembers(F32, 8, DL, Floats);
  REQUIRE(Floats.size() == 1);
  CHECK(Floats[0] == std::make_pair(uint64_t(8), F32));
}

TEST_CASE("plain data holds numbers and pointers only", "[launch]") {
  LLVMContext Ctx;
  Type *F64 = Type::getDoubleTy(Ctx);
  CHECK(isPlainData(Type::getInt8Ty(Ctx)));
  CHECK(isPlainData(ArrayType::get(F64, 3)));
  // (Floating point is float and double only; a vector is not plain.)
  CHECK_FALSE(isPlainData(Type::getX86_FP80Ty(Ctx)));
  CHECK_FALSE(isPlainData(Type::getHalfTy(Ctx)));
  CHECK_FALSE(isPlainData(FixedVectorType::get(F64, 2)));
  CHECK_FALSE(isPlainData(StructType::get(Ctx, {F64, Type::getHalfTy(Ctx)})));
}
