//===- OpenMPRuntime.cpp - What adcc knows of libomp's entry points ------===//

#include "OpenMPRuntime.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {
namespace {

struct OpenMPRow {
  const char *Name; ///< the entry point, or the start of its name when
                    ///< Prefix (the _4, _4u, _8, _8u variants)
  bool Prefix;
  OpenMPCall Kind;
  const char *Construct; ///< Unsupported rows: the construct's name
};

// One row per entry point (or family of entry points) of libomp that Clang
// 22 emits on the host.
constexpr OpenMPRow OpenMPTable[] = {
    {"__kmpc_fork_call", false, OpenMPCall::Fork, ""},
    // scheduling of worksharing loops and sections, thread ids, queries
    {"__kmpc_for_static_init_", true, OpenMPCall::Inactive, ""},
    {"__kmpc_for_static_fini", false, OpenMPCall::Inactive, ""},
    {"__kmpc_dispatch_init_", true, OpenMPCall::Inactive, ""},
    {"__kmpc_dispatch_next_", true, OpenMPCall::Inactive, ""},
    {"__kmpc_dispatch_fini_", true, OpenMPCall::Inactive, ""},
    {"__kmpc_dispatch_deinit", false, OpenMPCall::Inactive, ""},
    {"__kmpc_global_thread_num", false, OpenMPCall::Inactive, ""},
    {"__kmpc_push_num_threads", false, OpenMPCall::Inactive, ""},
    {"__kmpc_push_proc_bind", false, OpenMPCall::Inactive, ""},
    {"__kmpc_serialized_parallel", false, OpenMPCall::Inactive, ""},
    {"__kmpc_end_serialized_parallel", false, OpenMPCall::Inactive, ""},
    {"__kmpc_flush", false, OpenMPCall::Inactive, ""},
    // a single or master (masked) block: one thread runs it, and runs its
    // reverse too (the branch taken is recorded on that thread's tape)
    {"__kmpc_single", false, OpenMPCall::Inactive, ""},
    {"__kmpc_end_single", false, OpenMPCall::Inactive, ""},
    {"__kmpc_master", false, OpenMPCall::Inactive, ""},
    {"__kmpc_end_master", false, OpenMPCall::Inactive, ""},
    {"__kmpc_masked", false, OpenMPCall::Inactive, ""},
    {"__kmpc_end_masked", false, OpenMPCall::Inactive, ""},
    {"omp_get_", true, OpenMPCall::Inactive, ""},
    {"omp_in_parallel", false, OpenMPCall::Inactive, ""},
    {"__kmpc_barrier", false, OpenMPCall::Barrier, ""},
    {"__kmpc_critical", false, OpenMPCall::Critical, ""},
    {"__kmpc_critical_with_hint", false, OpenMPCall::Critical, ""},
    {"__kmpc_end_critical", false, OpenMPCall::EndCritical, ""},
    // (The OpenMP API's locks: a lock's sections as critical sections.)
    {"omp_set_lock", false, OpenMPCall::Critical, ""},
    {"omp_unset_lock", false, OpenMPCall::EndCritical, ""},
    {"omp_init_lock", true, OpenMPCall::Inactive, ""},
    {"omp_destroy_lock", false, OpenMPCall::Inactive, ""},
    {"omp_test_lock", false, OpenMPCall::Unsupported,
     "omp_test_lock (a lock taken only where it is free)"},
    {"omp_set_nest_lock", false, OpenMPCall::Unsupported,
     "nestable OpenMP locks"},
    {"omp_unset_nest_lock", false, OpenMPCall::Unsupported,
     "nestable OpenMP locks"},
    {"omp_test_nest_lock", false, OpenMPCall::Unsupported,
     "nestable OpenMP locks"},
    {"omp_init_nest_lock", true, OpenMPCall::Unsupported,
     "nestable OpenMP locks"},
    {"omp_destroy_nest_lock", false, OpenMPCall::Unsupported,
     "nestable OpenMP locks"},
    {"__kmpc_reduce", false, OpenMPCall::Reduce, ""},
    {"__kmpc_reduce_nowait", false, OpenMPCall::Reduce, ""},
    {"__kmpc_end_reduce", false, OpenMPCall::EndReduce, ""},
    {"__kmpc_end_reduce_nowait", false, OpenMPCall::EndReduce, ""},
    // what derivatives do not follow yet
    // (Tied tasks with dependences run where they are created after
    // waiting for them, prepare/OpenMPTasks.cpp; the derivatives start them
    // as tasks again with the same dependences.)
    {"__kmpc_omp_task_with_deps", false, OpenMPCall::Unsupported,
     "an untied or detachable omp task with a depend clause"},
    {"__kmpc_omp_wait_deps", false, OpenMPCall::Inactive, ""},
    {"__kmpc_omp_taskwait_deps", true, OpenMPCall::Unsupported,
     "the depend clause of omp taskwait, or of an undeferred (if(0)) omp "
     "task"},
    // (Tied tasks without dependences run where they are created,
    // prepare/OpenMPTasks.cpp: what is left of a task is another form.)
    {"__kmpc_omp_task_alloc", false, OpenMPCall::Unsupported,
     "an untied or detachable omp task, one whose privates have "
     "destructors, or a taskloop with a reduction"},
    {"__kmpc_omp_target_task_alloc", false, OpenMPCall::Unsupported,
     "omp target task"},
    {"__kmpc_omp_task", false, OpenMPCall::Unsupported,
     "an untied or detachable omp task"},
    {"__kmpc_omp_task_begin_if0", false, OpenMPCall::Unsupported,
     "an untied or detachable omp task"},
    // (Tasks without dependences run at once where they are created in
    // differentiated code, prepare/OpenMPTasks.cpp: these wait for nothing
    // there.)
    {"__kmpc_omp_taskwait", false, OpenMPCall::Inactive, ""},
    {"__kmpc_omp_taskyield", false, OpenMPCall::Inactive, ""},
    {"__kmpc_taskgroup", false, OpenMPCall::Inactive, ""},
    {"__kmpc_end_taskgroup", false, OpenMPCall::Inactive, ""},
    {"__kmpc_taskloop", true, OpenMPCall::Unsupported,
     "omp taskloop with the strict modifier or a reduction"},
    {"__kmpc_task_reduction", true, OpenMPCall::Unsupported,
     "task reductions"},
    {"__kmpc_taskred", true, OpenMPCall::Unsupported, "task reductions"},
    {"__kmpc_ordered", false, OpenMPCall::Unsupported, "omp ordered"},
    {"__kmpc_end_ordered", false, OpenMPCall::Unsupported, "omp ordered"},
    {"__kmpc_doacross_", true, OpenMPCall::Unsupported,
     "omp ordered with depend (doacross loops)"},
    {"__kmpc_fork_teams", false, OpenMPCall::Unsupported, "omp teams"},
    {"__kmpc_push_num_teams", true, OpenMPCall::Unsupported, "omp teams"},
    {"__kmpc_distribute_static_init_", true, OpenMPCall::Unsupported,
     "omp distribute"},
    {"__kmpc_copyprivate", false, OpenMPCall::Unsupported,
     "the copyprivate clause"},
    {"__kmpc_threadprivate_cached", false, OpenMPCall::Unsupported,
     "threadprivate variables"},
    {"__kmpc_cancel", true, OpenMPCall::Unsupported, "omp cancel"},
    {"__kmpc_cancellationpoint", false, OpenMPCall::Unsupported,
     "omp cancellation point"},
    {"__kmpc_scope", false, OpenMPCall::Unsupported, "omp scope"},
    {"__kmpc_alloc", false, OpenMPCall::Unsupported,
     "OpenMP memory allocators (omp allocate)"},
    {"__kmpc_aligned_alloc", false, OpenMPCall::Unsupported,
     "OpenMP memory allocators (omp allocate)"},
    {"__tgt_target", true, OpenMPCall::Unsupported, "omp target"},
    {"__kmpc_", true, OpenMPCall::Unsupported,
     "an OpenMP construct adcc does not know"},
    // threads started without OpenMP (their creation and join are not
    // mirrored: docs/parallel.md)
    {"pthread_create", false, OpenMPCall::Unsupported,
     "a thread started inside differentiated code"},
    {"thrd_create", false, OpenMPCall::Unsupported,
     "a thread started inside differentiated code"},
    {"_ZNSt6thread15_M_start_thread", true, OpenMPCall::Unsupported,
     "a std::thread started inside differentiated code"},
};

const OpenMPRow *rowOf(const Function &F) {
  if (!F.isDeclaration())
    return nullptr;
  StringRef Name = F.getName();
  if (!Name.starts_with("__kmpc_") && !Name.starts_with("omp_") &&
      !Name.starts_with("__tgt_") && !Name.contains("thr"))
    return nullptr;
  for (const OpenMPRow &Row : OpenMPTable)
    if (Row.Prefix ? Name.starts_with(Row.Name) : Name == Row.Name)
      return &Row;
  return nullptr;
}

} // namespace

OpenMPCall classifyOpenMPCall(const Function &F) {
  const OpenMPRow *Row = rowOf(F);
  return Row ? Row->Kind : OpenMPCall::None;
}

StringRef unsupportedOpenMPConstruct(const Function &F) {
  const OpenMPRow *Row = rowOf(F);
  return Row && Row->Kind == OpenMPCall::Unsupported ? Row->Construct : "";
}

bool isKeptOpenMPCall(const Function &F) {
  switch (classifyOpenMPCall(F)) {
  case OpenMPCall::Inactive:
  case OpenMPCall::Barrier:
  case OpenMPCall::Critical:
  case OpenMPCall::EndCritical:
    return true;
  default:
    return false;
  }
}

bool isOpenMPLockCall(const Function &F) {
  OpenMPCall Kind = classifyOpenMPCall(F);
  return F.getName().starts_with("omp_") &&
         (Kind == OpenMPCall::Critical || Kind == OpenMPCall::EndCritical);
}

Value *criticalLock(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  unsigned No = F && isOpenMPLockCall(*F) ? 0 : 2;
  return No < Call.arg_size() ? Call.getArgOperand(No) : nullptr;
}

Function *forkedFunction(const CallBase &Fork) {
  if (Fork.arg_size() < ForkSharedArgs)
    return nullptr;
  auto *Outlined =
      dyn_cast<Function>(Fork.getArgOperand(2)->stripPointerCasts());
  if (!Outlined || Outlined->isDeclaration() || Outlined->isVarArg() ||
      Outlined->arg_size() != Fork.arg_size() - ForkSharedArgs + 2)
    return nullptr;
  return Outlined;
}

bool isForkedRegion(const Function &F) {
  for (const User *U : F.users())
    if (const auto *Call = dyn_cast<CallBase>(U);
        Call && forkedFunction(*Call) == &F)
      return true;
  return false;
}

const Value *floatBitsThroughCasts(const Value *V) {
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    if (!isa<BitCastInst, ZExtInst, SExtInst, TruncInst>(V))
      return nullptr;
    V = cast<CastInst>(V)->getOperand(0);
    if (V->getType()->isFPOrFPVectorTy())
      return V;
  }
  return nullptr;
}

std::string byValueIntoRegionError(unsigned ArgNo) {
  return "a value with a derivative is passed by value into an OpenMP "
         "parallel region (a firstprivate variable, or a captured scalar, "
         "argument " +
         std::to_string(ArgNo) +
         " of the region); make it shared, or pass it through memory";
}

} // namespace adcore
