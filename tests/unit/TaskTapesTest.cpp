// Tests of the runtime's task handles (runtime/lib/tasks.c): which tasks a
// sync point takes and in which order their reverses are spawned, the
// task's own tape and context while its sweeps run, and the copies of a
// task's record (the shareds pointers of the copies point to the copies).

#include "adcc_runtime.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

std::vector<void *> Spawned;
void noteSpawn(void *Task) { Spawned.push_back(Task); }
void noReverse(void *) {}

} // namespace

TEST_CASE("a sync point takes the context's tasks; their reverses are "
          "spawned the last created first",
          "[tasks]") {
  REQUIRE(adcc_task_sync(0) == nullptr); // (nothing created yet)
  void *A = adcc_task_new(0, 0, 16, noReverse);
  void *B = adcc_task_new(0, 0, 16, noReverse);
  void *Batch = adcc_task_sync(0);
  REQUIRE(Batch != nullptr);
  REQUIRE(adcc_task_sync(0) == nullptr); // (taken)
  Spawned.clear();
  adcc_task_spawn(Batch, noteSpawn);
  REQUIRE(Spawned == std::vector<void *>{B, A});
  adcc_task_free(A);
  adcc_task_free(B);
}

TEST_CASE("a task records on its own tape, and the tasks it creates are "
          "left to its end",
          "[tasks]") {
  adcc_tape *Own = adcc_tape_thread_level(1);
  void *T = adcc_task_new(0, 1, 16, noReverse);
  REQUIRE(adcc_task_sync(0) != nullptr); // (T, the creator's)
  adcc_task_begin(T);
  REQUIRE(adcc_tape_thread_level(1) != Own);
  *static_cast<double *>(adcc_tape_push(adcc_tape_thread_level(1), 8, 8)) =
      2.5;
  void *Child = adcc_task_new(1, 1, 16, noReverse);
  adcc_task_end(T);
  REQUIRE(adcc_tape_thread_level(1) == Own);
  REQUIRE(adcc_task_sync(1) == nullptr); // (the child is T's)
  void *Last = adcc_task_last(T);
  REQUIRE(Last != nullptr);
  Spawned.clear();
  adcc_task_spawn(Last, noteSpawn);
  REQUIRE(Spawned == std::vector<void *>{Child});
  adcc_task_begin_reverse(T);
  REQUIRE(*static_cast<double *>(
              adcc_tape_pop(adcc_tape_thread_level(1), 8, 8)) == 2.5);
  adcc_task_end_reverse(T);
  REQUIRE(adcc_tape_thread_level(1) == Own);
  adcc_task_free(Child);
  adcc_task_free(T);
}

TEST_CASE("a task's record is copied with its shareds, and the adjoints "
          "of its privates copied back",
          "[tasks]") {
  // A record of 56 bytes: the shareds pointer, 32 bytes of kmp_task_t,
  // two doubles of privates; shareds of 16 bytes.
  alignas(16) unsigned char Record[56] = {}, Shadow[56] = {};
  double Shareds[2] = {1, 2}, ShadowShareds[2] = {3, 4};
  void *S = Shareds, *DS = ShadowShareds;
  std::memcpy(Record, &S, sizeof S);
  std::memcpy(Shadow, &DS, sizeof DS);
  double Private = 7;
  std::memcpy(Record + 40, &Private, 8);
  void *T = adcc_task_new(0, 0, 2 * (56 + 16), noReverse);
  REQUIRE(adcc_task_sync(0) != nullptr);
  adcc_task_copy_record(T, Record, Shadow, 56, 16);
  auto *Copies = static_cast<unsigned char *>(adcc_task_records(T));
  void *CopiedShareds, *CopiedShadowShareds;
  std::memcpy(&CopiedShareds, Copies, sizeof CopiedShareds);
  std::memcpy(&CopiedShadowShareds, Copies + 56, sizeof CopiedShadowShareds);
  REQUIRE(CopiedShareds == Copies + 112);
  REQUIRE(CopiedShadowShareds == Copies + 128);
  REQUIRE(static_cast<double *>(CopiedShareds)[1] == 2);
  REQUIRE(static_cast<double *>(CopiedShadowShareds)[0] == 3);
  double Copied;
  std::memcpy(&Copied, Copies + 40, 8);
  REQUIRE(Copied == 7);
  // The task's reverse adds into its shadow copy; copied back from byte
  // 40 on, the creator's shareds pointer stays.
  double Adjoint = 0.25;
  std::memcpy(Copies + 56 + 48, &Adjoint, 8);
  adcc_task_copy_back(T, Shadow, 56, 40);
  double Back;
  std::memcpy(&Back, Shadow + 48, 8);
  REQUIRE(Back == 0.25);
  void *Kept;
  std::memcpy(&Kept, Shadow, sizeof Kept);
  REQUIRE(Kept == DS);
  adcc_task_free(T);
}

TEST_CASE("a task's dependences are copied into its handle", "[tasks]") {
  void *T = adcc_task_new(0, 0, 16, nullptr);
  REQUIRE(T);
  REQUIRE(adcc_task_dep_count(T) == 0);
  REQUIRE(adcc_task_deps(T) == nullptr);
  // kmp_depend_info: base address, length, flags (out: 3).
  double A[2];
  std::uintptr_t Deps[2][3] = {{reinterpret_cast<std::uintptr_t>(&A[0]), 8, 1},
                               {reinterpret_cast<std::uintptr_t>(&A[1]), 8, 3}};
  adcc_task_set_deps(T, 2, Deps);
  Deps[1][2] = 0; // (the creator's array is its own again)
  REQUIRE(adcc_task_dep_count(T) == 2);
  auto *Copy = static_cast<std::uintptr_t *>(adcc_task_deps(T));
  REQUIRE(Copy != &Deps[0][0]);
  REQUIRE(Copy[0] == reinterpret_cast<std::uintptr_t>(&A[0]));
  REQUIRE(Copy[3] == reinterpret_cast<std::uintptr_t>(&A[1]));
  REQUIRE(Copy[5] == 3);
  adcc_task_free(T);
}
