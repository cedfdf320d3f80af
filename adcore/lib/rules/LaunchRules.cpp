//===- LaunchRules.cpp - Derivatives of <<<>>> launches in host code -----===//
//
// Host code compiled with -x cuda or -x hip launches `k<<<grid,
// block>>>(args)` as a push of the configuration, then a call of the
// kernel's stub, `__device_stub__k(args)`, which pops the configuration and
// calls cudaLaunchKernel (hipLaunchKernel) with the kernel's handle. In a
// module that asks for derivatives, each stub whose parameters are numbers,
// pointers and structs of them by value gets registered derivatives
// (rules/CustomRules.cpp), made here, that call the runtime
// (runtime/lib/gpu_launch.c):
//
// - forward: the tangent kernel __adcc_fwd_k over the same grid;
// - augmented: the augmented kernel __adcc_aug_k with a tape slot per
//   thread in a device buffer, which the returned record keeps;
// - reverse: the reverse kernel __adcc_rev_k from the slots, then the
//   buffer freed; the adjoints of the number arguments returned, those of
//   the floating-point members of structs by value added into the
//   caller's shadow struct.
//
// The arguments go to the runtime as two structs of the kernel's parameter
// types: the values and the shadows (a pointer's shadow, a number's
// tangent; the adjoints come back in it). The device code has the
// derivative kernels when the frontend saw the launch
// (device/LaunchKernels.cpp); the host registers them with the device
// binary next to the kernel (__cuda_register_globals,
// __hip_register_globals), under handles named `__adcc_handle_` and the
// derivative kernel's name. The configuration push stays where it is,
// inactive.
//
//===----------------------------------------------------------------------===//

#include "rules/GpuLaunches.h"
#include "support/ScalarMembers.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace adcore {
namespace {

/// The name of the kernel that the stub \p Stub launches, clang's
/// mangling of it without `__device_stub__` (`_Z20__device_stub__kPd`:
/// `_Z1kPd`).
std::string kernelName(StringRef Stub) {
  const StringRef Infix = "__device_stub__";
  size_t At = Stub.find(Infix);
  size_t Digits = At;
  while (Digits > 0 && isDigit(Stub[Digits - 1]))
    --Digits;
  if (Digits == At) // (extern "C": the plain name)
    return (Stub.substr(0, At) + Stub.substr(At + Infix.size())).str();
  unsigned Length = 0;
  Stub.substr(Digits, At - Digits).getAsInteger(10, Length);
  return (Stub.substr(0, Digits) + Twine(Length - Infix.size()) +
          Stub.substr(At + Infix.size()))
      .str();
}

/// The handle the stub passes to the runtime's launch, and whether it is
/// HIP's; null where there is no launch call in the stub.
std::pair<GlobalValue *, bool> launchHandle(Function &Stub) {
  for (Instruction &I : instructions(Stub))
    if (auto *Call = dyn_cast<CallBase>(&I)) {
      const Function *Callee = Call->getCalledFunction();
      if (!Callee || Call->arg_size() < 1)
        continue;
      StringRef Name = Callee->getName();
      if (Name == "cudaLaunchKernel" || Name == "hipLaunchKernel")
        return {dyn_cast<GlobalValue>(
                    Call->getArgOperand(0)->stripPointerCasts()),
                Name.starts_with("hip")};
    }
  return {nullptr, false};
}

enum ParamKind : uint8_t { Integer, Float, Double, Pointer, Aggregate };

struct RuleMaker {
  Module &M;
  Function &Stub;
  GlobalValue &Handle;
  bool Hip;
  std::string Kernel;
  LLVMContext &Ctx = M.getContext();
  PointerType *Ptr = PointerType::get(Ctx, 0);
  StructType *Args = nullptr;
  GlobalVariable *Desc = nullptr;

  /// Where the stub (as clang emits it, before optimization) stores \p A:
  /// a local and the offset in it; null where not in one place.
  static std::pair<const AllocaInst *, uint64_t> home(const Argument &A) {
    const AllocaInst *Found = nullptr;
    uint64_t Offset = 0;
    const DataLayout &DL = A.getParent()->getDataLayout();
    for (const User *U : A.users()) {
      const auto *Store = dyn_cast<StoreInst>(U);
      if (!Store || Store->getValueOperand() != &A)
        continue;
      APInt At(64, 0);
      const auto *Local = dyn_cast<AllocaInst>(
          Store->getPointerOperand()->stripAndAccumulateConstantOffsets(
              DL, At, /*AllowNonInbounds=*/true));
      if (!Local || (Found && (Found != Local || Offset != At.getZExtValue())))
        return {nullptr, 0};
      Found = Local;
      Offset = At.getZExtValue();
    }
    return {Found, Offset};
  }

  /// A piece of a struct that the ABI passes as numbers (x86-64: a struct
  /// of up to 16 bytes in registers): the stub stores it into a local of
  /// the struct's type, a struct of pointers, integers and floating-point
  /// numbers. A floating-point member must be a piece of its own (a float
  /// or a double): one carried in an integer's bits (`{float; int}` is one
  /// i64) would lose its derivative.
  static bool isPiece(const Argument &A) {
    auto [Local, Offset] = home(A);
    if (!Local || Local->getAllocatedType() == A.getType() ||
        !Local->getAllocatedType()->isStructTy() ||
        !isPlainData(Local->getAllocatedType()))
      return false;
    Type *T = A.getType();
    const DataLayout &DL = A.getParent()->getDataLayout();
    SmallVector<std::pair<uint64_t, Type *>, 4> Floats;
    floatMembers(Local->getAllocatedType(), 0, DL, Floats);
    uint64_t End = Offset + DL.getTypeStoreSize(T);
    if (T->isFloatTy() || T->isDoubleTy())
      return any_of(Floats, [&](auto &F) {
        return F.first == Offset && F.second == T;
      });
    return (T->isIntegerTy() || T->isPointerTy()) &&
           none_of(Floats, [&](auto &F) {
             return F.first < End &&
                    Offset < F.first + DL.getTypeStoreSize(F.second);
           });
  }

  /// Each parameter a number or a pointer of the source: the stub stores
  /// it whole into a local of its own type. Or a struct of pointers,
  /// integers, floats and doubles by value: in memory (byval), or as
  /// pieces (isPiece); its bytes are the kernel's.
  static bool supported(const Function &Stub) {
    for (const Argument &A : Stub.args()) {
      Type *T = A.getType();
      if (A.hasByValAttr() && isPlainData(A.getParamByValType()))
        continue;
      if (A.hasByValAttr() || A.hasStructRetAttr() ||
          !(T->isIntegerTy() || T->isFloatTy() || T->isDoubleTy() ||
            T->isPointerTy()))
        return false;
      if (A.use_empty() || isPiece(A))
        continue;
      auto [Local, Offset] = home(A);
      if (!Local || Local->getAllocatedType() != T || Offset != 0)
        return false;
    }
    return true;
  }

  /// Each stub parameter's field of the arguments' struct, and its offset
  /// in the field (a piece of a struct).
  SmallVector<unsigned, 8> FieldOf;
  SmallVector<uint64_t, 8> OffsetIn;

  /// The kind of \p A, and the type of its value in the arguments'
  /// struct.
  static ParamKind kindOf(const Argument &A) {
    return A.hasByValAttr() || isPiece(A) ? Aggregate : kindOf(A.getType());
  }
  static Type *fieldType(const Argument &A) {
    if (A.hasByValAttr())
      return A.getParamByValType();
    if (isPiece(A))
      return home(A).first->getAllocatedType();
    return A.getType();
  }

  static ParamKind kindOf(Type *T) {
    return T->isPointerTy()  ? Pointer
           : T->isFloatTy()  ? Float
           : T->isDoubleTy() ? Double
                             : Integer;
  }

  /// The handle of derivative kernel \p Prefix, registered where the
  /// stub's kernel is.
  GlobalVariable *handle(StringRef Prefix) {
    std::string Device = (Prefix + Kernel).str();
    std::string Name = "__adcc_handle_" + Device;
    if (GlobalVariable *G = M.getGlobalVariable(Name, true))
      return G;
    auto *G = new GlobalVariable(M, Type::getInt8Ty(Ctx), false,
                                 GlobalValue::LinkOnceODRLinkage,
                                 ConstantInt::get(Type::getInt8Ty(Ctx), 0),
                                 Name);
    G->setVisibility(GlobalValue::HiddenVisibility);
    register_(G, Device);
    return G;
  }

  /// A registration like the kernel's for the handle \p G of the device
  /// function \p Device (only where the module registers a device binary).
  void register_(GlobalVariable *G, StringRef Device) {
    for (User *U : Handle.users()) {
      auto *Call = dyn_cast<CallBase>(U);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee || (Callee->getName() != "__cudaRegisterFunction" &&
                      Callee->getName() != "__hipRegisterFunction") ||
          Call->getArgOperand(1)->stripPointerCasts() != &Handle)
        continue;
      IRBuilder<> B(Call->getNextNode());
      Constant *Name = B.CreateGlobalString(Device, "__adcc_kernel_name");
      SmallVector<Value *, 10> Operands(Call->args());
      Operands[1] = G;
      Operands[2] = Name;
      Operands[3] = Name;
      B.CreateCall(Call->getFunctionType(), Call->getCalledOperand(),
                   Operands);
      return;
    }
  }

  void makeDesc() {
    SmallVector<Type *, 8> Fields;
    SmallVector<uint8_t, 8> Kinds;
    // (The pieces of one struct share its field.)
    DenseMap<const AllocaInst *, unsigned> Pieces;
    for (const Argument &A : Stub.args()) {
      OffsetIn.push_back(0);
      if (isPiece(A)) {
        auto [Local, Offset] = home(A);
        OffsetIn.back() = Offset;
        auto [It, New] = Pieces.try_emplace(Local, Fields.size());
        FieldOf.push_back(It->second);
        if (!New)
          continue;
      } else {
        FieldOf.push_back(Fields.size());
      }
      Fields.push_back(fieldType(A));
      Kinds.push_back(kindOf(A));
    }
    Args = StructType::get(Ctx, Fields);
    const DataLayout &DL = M.getDataLayout();
    const StructLayout *L = DL.getStructLayout(Args);
    SmallVector<uint32_t, 8> Offsets, Members;
    for (unsigned I = 0; I < Fields.size(); ++I) {
      Offsets.push_back(L->getElementOffset(I));
      // (The pointers in the structs passed by value, which need shadows.)
      if (Kinds[I] == Aggregate)
        pointerOffsets(Fields[I], L->getElementOffset(I), DL, Members);
    }
    Members.push_back(~0u);
    Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
    auto Table = [&](Constant *Init, StringRef Name) -> Constant * {
      return new GlobalVariable(M, Init->getType(), true,
                                GlobalValue::PrivateLinkage, Init, Name);
    };
    Constant *KindsG = Table(ConstantDataArray::get(Ctx, Kinds), "__adcc_kinds");
    Constant *OffsetsG =
        Table(ConstantDataArray::get(Ctx, Offsets), "__adcc_offsets");
    Constant *MembersG =
        Table(ConstantDataArray::get(Ctx, Members), "__adcc_members");
    IRBuilder<> B(Ctx);
    Constant *Name = Table(ConstantDataArray::getString(Ctx, llvm::demangle(Kernel)),
                           "__adcc_kernel");
    StructType *DescTy = StructType::get(
        Ctx,
        {Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, I32, I32, I32, I64, I64, Ptr, Ptr});
    Constant *Init = ConstantStruct::get(
        DescTy,
        {Name, handle("__adcc_fwd_"), handle("__adcc_aug_"),
         handle("__adcc_rev_"), handle("__adcc_size_"), KindsG, OffsetsG,
         ConstantInt::get(I32, Fields.size()),
         ConstantInt::get(I32, L->getSizeInBytes()),
         ConstantInt::get(I32, Hip), ConstantInt::get(I64, 0),
         ConstantInt::get(I64, 0), MembersG, ConstantPointerNull::get(Ptr)});
    // (Not constant: the runtime keeps the slot's size, the parameters
    // the kernel writes through and the size kernel's answer in fields.)
    Desc = new GlobalVariable(M, DescTy, false, GlobalValue::InternalLinkage,
                              Init, "__adcc_launch." + Kernel);
  }

  FunctionCallee runtime(StringRef Name, Type *Result, unsigned Pointers) {
    SmallVector<Type *, 3> Params(Pointers, Ptr);
    return M.getOrInsertFunction(Name,
                                 FunctionType::get(Result, Params, false));
  }

  /// The floating-point members of the structs by value, at their offsets
  /// in the arguments' struct, with the stub parameter of each (a piece's
  /// are its own: a number parameter).
  SmallVector<std::tuple<unsigned, uint64_t, Type *>, 4> structFloats() {
    SmallVector<std::tuple<unsigned, uint64_t, Type *>, 4> Out;
    const DataLayout &DL = M.getDataLayout();
    for (const Argument &A : Stub.args()) {
      if (!A.hasByValAttr())
        continue;
      SmallVector<std::pair<uint64_t, Type *>, 4> Floats;
      floatMembers(A.getParamByValType(), 0, DL, Floats);
      for (auto [Offset, T] : Floats)
        Out.push_back({A.getArgNo(), Offset, T});
    }
    return Out;
  }

  /// The two structs filled: the values, and the shadows (zero where none
  /// is given). \p Adjoints: the shadows of reverse mode, whose
  /// floating-point members of structs by value start at zero (the
  /// caller's shadow struct holds their adjoints so far, not the
  /// kernel's; the reverse adds the kernel's to them).
  std::pair<Value *, Value *> structs(IRBuilder<> &B,
                                      ArrayRef<Value *> Values,
                                      ArrayRef<Value *> Shadows,
                                      bool Adjoints = false) {
    Value *V = B.CreateAlloca(Args);
    Value *D = B.CreateAlloca(Args);
    B.CreateMemSet(D, B.getInt8(0),
                   M.getDataLayout().getTypeAllocSize(Args), MaybeAlign());
    const DataLayout &DL = M.getDataLayout();
    for (unsigned I = 0; I < Values.size(); ++I) {
      Type *T = Args->getElementType(FieldOf[I]);
      Value *To = B.CreateStructGEP(Args, V, FieldOf[I]);
      Value *ShadowTo = B.CreateStructGEP(Args, D, FieldOf[I]);
      if (T != Values[I]->getType() && !Stub.getArg(I)->hasByValAttr()) {
        // (A piece of a struct, at its offset in the struct.)
        B.CreateStore(Values[I], B.CreateConstInBoundsGEP1_64(
                                     B.getInt8Ty(), To, OffsetIn[I]));
        if (Shadows[I])
          B.CreateStore(Shadows[I], B.CreateConstInBoundsGEP1_64(
                                        B.getInt8Ty(), ShadowTo, OffsetIn[I]));
        continue;
      }
      if (T == Values[I]->getType()) {
        B.CreateStore(Values[I], To);
        if (Shadows[I])
          B.CreateStore(Shadows[I], ShadowTo);
        continue;
      }
      // (A struct by value: copied from the stub's byval copy, and from
      // its shadow, a copy of the caller's shadow struct.)
      uint64_t Bytes = DL.getTypeAllocSize(T);
      B.CreateMemCpy(To, MaybeAlign(), Values[I], MaybeAlign(), Bytes);
      if (Shadows[I])
        B.CreateMemCpy(ShadowTo, MaybeAlign(), Shadows[I], MaybeAlign(),
                       Bytes);
    }
    if (Adjoints)
      for (auto [No, Offset, T] : structFloats())
        B.CreateStore(Constant::getNullValue(T),
                      B.CreateConstInBoundsGEP1_64(
                          B.getInt8Ty(),
                          B.CreateStructGEP(Args, D, FieldOf[No]), Offset));
    return {V, D};
  }

  Function *function(StringRef Suffix, Type *Result, ArrayRef<Type *> Params) {
    Function *F = Function::Create(FunctionType::get(Result, Params, false),
                                   GlobalValue::InternalLinkage,
                                   Stub.getName() + Suffix, M);
    F->addFnAttr(Attribute::NoInline);
    return F;
  }

  /// stub_fwd(each parameter, then its tangent where a number or pointer)
  Function *makeForward() {
    SmallVector<Type *, 8> Params;
    for (const Argument &A : Stub.args()) {
      Params.push_back(A.getType());
      if (kindOf(A.getType()) != Integer)
        Params.push_back(A.getType());
    }
    Function *F = function(".adcc_fwd", Type::getVoidTy(Ctx), Params);
    IRBuilder<> B(BasicBlock::Create(Ctx, "", F));
    SmallVector<Value *, 8> Values, Shadows;
    unsigned At = 0;
    for (const Argument &A : Stub.args()) {
      Values.push_back(F->getArg(At++));
      Shadows.push_back(kindOf(A.getType()) != Integer ? F->getArg(At++)
                                                        : nullptr);
    }
    auto [V, D] = structs(B, Values, Shadows);
    B.CreateCall(runtime("adcc_gpu_launch_forward", B.getVoidTy(), 3),
                 {Desc, V, D});
    B.CreateRetVoid();
    return F;
  }

  /// stub_aug(each parameter, then its shadow where a pointer): the record
  SmallVector<Type *, 8> augmentedParams() {
    SmallVector<Type *, 8> Params;
    for (const Argument &A : Stub.args()) {
      Params.push_back(A.getType());
      if (A.getType()->isPointerTy())
        Params.push_back(A.getType());
    }
    return Params;
  }

  Function *makeAugmented() {
    Function *F = function(".adcc_aug", Ptr, augmentedParams());
    IRBuilder<> B(BasicBlock::Create(Ctx, "", F));
    SmallVector<Value *, 8> Values, Shadows;
    unsigned At = 0;
    for (const Argument &A : Stub.args()) {
      Values.push_back(F->getArg(At++));
      Shadows.push_back(A.getType()->isPointerTy() ? F->getArg(At++)
                                                   : nullptr);
    }
    auto [V, D] = structs(B, Values, Shadows, /*Adjoints=*/true);
    B.CreateRet(
        B.CreateCall(runtime("adcc_gpu_launch_augmented", Ptr, 3), {Desc, V, D}));
    return F;
  }

  /// stub_rev(stub_aug's parameters, the record): the adjoints of the
  /// number parameters (a piece of a struct: at its offset in the struct).
  /// Those of the floating-point members of a struct by value are added
  /// into the struct's shadow, the caller's adjoint of the stub's copy.
  Function *makeReverse() {
    SmallVector<Type *, 8> Params = augmentedParams();
    Params.push_back(Ptr);
    SmallVector<unsigned, 4> Numbers;
    SmallVector<Type *, 4> Results;
    for (const Argument &A : Stub.args())
      if (A.getType()->isFloatingPointTy()) {
        Numbers.push_back(A.getArgNo());
        Results.push_back(A.getType());
      }
    Type *Result = Results.empty()       ? Type::getVoidTy(Ctx)
                   : Results.size() == 1 ? Results[0]
                                         : StructType::get(Ctx, Results);
    Function *F = function(".adcc_rev", Result, Params);
    IRBuilder<> B(BasicBlock::Create(Ctx, "", F));
    Value *D = B.CreateAlloca(Args);
    B.CreateCall(runtime("adcc_gpu_launch_reverse", B.getVoidTy(), 3),
                 {Desc, F->getArg(F->arg_size() - 1), D});
    // (Each stub parameter's shadow among F's parameters: after its value,
    // where a pointer.)
    SmallVector<unsigned, 8> ShadowAt;
    unsigned At = 0;
    for (const Argument &A : Stub.args()) {
      ShadowAt.push_back(At + 1);
      At += A.getType()->isPointerTy() ? 2 : 1;
    }
    for (auto [No, Offset, T] : structFloats()) {
      Value *From = B.CreateConstInBoundsGEP1_64(
          B.getInt8Ty(), B.CreateStructGEP(Args, D, FieldOf[No]), Offset);
      Value *To = B.CreateConstInBoundsGEP1_64(
          B.getInt8Ty(), F->getArg(ShadowAt[No]), Offset);
      B.CreateStore(B.CreateFAdd(B.CreateLoad(T, To), B.CreateLoad(T, From)),
                    To);
    }
    if (Results.empty()) {
      B.CreateRetVoid();
      return F;
    }
    SmallVector<Value *, 4> Adjoints;
    for (unsigned I : Numbers)
      Adjoints.push_back(B.CreateLoad(
          Stub.getArg(I)->getType(),
          B.CreateConstInBoundsGEP1_64(B.getInt8Ty(),
                                       B.CreateStructGEP(Args, D, FieldOf[I]),
                                       OffsetIn[I])));
    if (Adjoints.size() == 1) {
      B.CreateRet(Adjoints[0]);
      return F;
    }
    Value *R = PoisonValue::get(Result);
    for (unsigned I = 0; I < Adjoints.size(); ++I)
      R = B.CreateInsertValue(R, Adjoints[I], I);
    B.CreateRet(R);
    return F;
  }

  /// (Kept until the AD pass reads it: the optimizations before it
  /// would drop an unused internal global.)
  void registration(StringRef Prefix, ArrayRef<Constant *> Functions) {
    auto *Ty = ArrayType::get(Ptr, Functions.size());
    appendToCompilerUsed(
        M, {new GlobalVariable(M, Ty, false, GlobalValue::InternalLinkage,
                               ConstantArray::get(Ty, Functions),
                               Prefix + Stub.getName())});
  }

  void make() {
    makeDesc();
    registration("__enzyme_register_derivative_adcc_launch",
                 {&Stub, makeForward()});
    registration("__enzyme_register_gradient_adcc_launch",
                 {&Stub, makeAugmented(), makeReverse()});
    Stub.addFnAttr(LaunchRuleAttr);
    declarePush();
  }

  /// The configuration's push, as the launch in the stub passes the
  /// configuration (grid, block, shared bytes, stream), for direct launches
  /// rewritten as pushes and stub calls (prepare/DirectLaunches.cpp).
  void declarePush() {
    for (Instruction &I : instructions(Stub))
      if (auto *Call = dyn_cast<CallBase>(&I)) {
        const Function *Callee = Call->getCalledFunction();
        if (!Callee || Call->arg_size() != 8 ||
            (Callee->getName() != "cudaLaunchKernel" &&
             Callee->getName() != "hipLaunchKernel"))
          continue;
        SmallVector<Type *, 6> Types;
        for (unsigned Op : {1, 2, 3, 4, 6, 7})
          Types.push_back(Call->getArgOperand(Op)->getType());
        M.getOrInsertFunction(Hip ? "__hipPushCallConfiguration"
                                  : "__cudaPushCallConfiguration",
                              FunctionType::get(Type::getInt32Ty(Ctx), Types,
                                                false));
        return;
      }
  }
};

/// True when the module may ask for derivatives: calls or registrations
/// of Enzyme's names, or annotations (adcc's derivative attributes).
bool asksForDerivatives(const Module &M) {
  for (const Function &F : M)
    if (F.getName().contains("__enzyme_"))
      return true;
  for (const GlobalVariable &G : M.globals())
    if (G.getName().starts_with("__enzyme_") ||
        G.getName() == "llvm.global.annotations")
      return true;
  return false;
}

} // namespace

void markWrittenKernelParams(
    Module &M,
    const std::map<std::string, std::pair<uint64_t, unsigned>> &Table) {
  for (Function &F : M) {
    if (F.isDeclaration() || !F.getName().contains("__device_stub__"))
      continue;
    // (A host compile names the kernel by its stub's name.)
    auto It = Table.find(F.getName().str());
    if (It == Table.end())
      It = Table.find(kernelName(F.getName()));
    if (It == Table.end() || !It->second.first ||
        It->second.second != F.arg_size())
      continue;
    F.addFnAttr(WrittenParamsAttr, utostr(It->second.first));
  }
}

int writtenWithoutShadow(const CallBase &Call, const Function &Stub,
                         function_ref<bool(const Value *)> HasShadow) {
  uint64_t Written = 0;
  if (!Stub.getFnAttribute(WrittenParamsAttr)
           .getValueAsString()
           .getAsInteger(10, Written))
    for (unsigned No = 0; No < Call.arg_size() && No < 63; ++No) {
      const Value *A = Call.getArgOperand(No);
      if ((Written >> No & 1) && A->getType()->isPointerTy() &&
          !isa<ConstantPointerNull>(A) && !HasShadow(A))
        return No;
    }
  return -1;
}

std::string launchWithoutShadowError(const Function &Stub, unsigned No) {
  std::string Kernel = demangle(kernelName(Stub.getName()));
  return "the kernel launch (<<<...>>>) of '" + Kernel + "' is given a " +
         "pointer without a shadow (a pointer whose data the derivative " +
         "treats as constant) as its argument " + std::to_string(No + 1) +
         ", and the kernel writes through it: the derivative would lose " +
         "what it writes; give that argument a shadow in device memory " +
         "(enzyme_dup, Duplicated)";
}

GlobalValue *launchHandleOf(Function &Stub) {
  return launchHandle(Stub).first;
}

bool makeLaunchRules(Module &M) {
  const Triple &TT = M.getTargetTriple();
  if (TT.isNVPTX() || TT.isAMDGPU() || !asksForDerivatives(M))
    return false;
  SmallVector<Function *, 4> Stubs;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName().contains("__device_stub__") &&
        !F.hasFnAttribute(LaunchRuleAttr) && !isKernelsHeaderFunction(F) &&
        RuleMaker::supported(F))
      Stubs.push_back(&F);
  bool Changed = false;
  for (Function *S : Stubs) {
    auto [Handle, Hip] = launchHandle(*S);
    if (!Handle)
      continue;
    std::string Kernel =
        Hip ? Handle->getName().str() : kernelName(S->getName());
    RuleMaker{M, *S, *Handle, Hip, Kernel}.make();
    Changed = true;
  }
  // (The push of a launch's configuration carries no derivative; declared
  // for the direct launches that become pushes, prepare/DirectLaunches.cpp.)
  if (Changed)
    for (StringRef Push :
         {"__cudaPushCallConfiguration", "__hipPushCallConfiguration"})
      if (Function *F = M.getFunction(Push))
        appendToCompilerUsed(
            M, {new GlobalVariable(
                   M, ArrayType::get(PointerType::get(M.getContext(), 0), 1),
                   false, GlobalValue::InternalLinkage,
                   ConstantArray::get(
                       ArrayType::get(PointerType::get(M.getContext(), 0), 1),
                       {F}),
                   "__enzyme_inactivefn_adcc_" + Push)});
  return Changed;
}

} // namespace adcore
