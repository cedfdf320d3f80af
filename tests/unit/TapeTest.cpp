// Unit tests of the tape runtime (runtime/): LIFO order, chunking, release,
// statistics, the memory bound, per-thread tapes and error reporting.

#include "adcc_runtime.h"

#include <catch2/catch.hpp>

#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

// Errors reported through the handler while an ErrorCatcher is alive. The
// handler returns, so the failing operation must leave the tape unchanged.
struct CaughtErrors {
  int count = 0;
  std::string last;
};
CaughtErrors caught;

void recordError(const char *message) {
  ++caught.count;
  caught.last = message;
}

class ErrorCatcher {
public:
  ErrorCatcher() : previous_(adcc_set_error_handler(recordError)) {
    caught = CaughtErrors();
  }
  ~ErrorCatcher() { adcc_set_error_handler(previous_); }

private:
  adcc_error_handler previous_;
};

// Sets the process-wide bound for one test and restores it afterwards, even
// when an assertion fails.
class LimitGuard {
public:
  explicit LimitGuard(size_t bytes) : previous_(adcc_tape_get_limit()) {
    adcc_tape_set_limit(bytes);
  }
  ~LimitGuard() { adcc_tape_set_limit(previous_); }

private:
  size_t previous_;
};

struct Tape {
  adcc_tape *tape = adcc_tape_create();
  ~Tape() { adcc_tape_destroy(tape); }
  operator adcc_tape *() const { return tape; }
};

adcc_tape_stats statsOf(const adcc_tape *t) {
  adcc_tape_stats s;
  adcc_tape_get_stats(t, &s);
  return s;
}

adcc_runtime_stats processStats() {
  adcc_runtime_stats s;
  adcc_runtime_get_stats(&s);
  return s;
}

bool isAligned(const void *p, size_t align) {
  return reinterpret_cast<uintptr_t>(p) % align == 0;
}

// Enough 8-byte records to fill several default chunks.
constexpr size_t ManySlots = 300000;

} // namespace

TEST_CASE("typed records pop in LIFO order", "[tape]") {
  Tape t;
  int anchor = 0;
  for (size_t i = 0; i < ManySlots / 6; ++i) {
    adcc_tape_push_f64(t, 0.5 * double(i));
    adcc_tape_push_f32(t, float(i) + 0.25f);
    adcc_tape_push_i64(t, -int64_t(i) * 1000003);
    adcc_tape_push_i32(t, int32_t(i) - 7);
    adcc_tape_push_i8(t, int8_t(i % 251 - 125));
    adcc_tape_push_ptr(t, &anchor + i % 3);
  }
  CHECK(statsOf(t).live_bytes == (ManySlots / 6) * 6 * 8);
  CHECK(statsOf(t).push_count == (ManySlots / 6) * 6);
  CHECK(statsOf(t).chunk_count > 1);

  bool inOrder = true;
  for (size_t i = ManySlots / 6; i-- > 0;) {
    inOrder &= adcc_tape_pop_ptr(t) == &anchor + i % 3;
    inOrder &= adcc_tape_pop_i8(t) == int8_t(i % 251 - 125);
    inOrder &= adcc_tape_pop_i32(t) == int32_t(i) - 7;
    inOrder &= adcc_tape_pop_i64(t) == -int64_t(i) * 1000003;
    inOrder &= adcc_tape_pop_f32(t) == float(i) + 0.25f;
    inOrder &= adcc_tape_pop_f64(t) == 0.5 * double(i);
  }
  CHECK(inOrder);
  CHECK(statsOf(t).live_bytes == 0);
}

TEST_CASE("records of mixed sizes and alignments", "[tape]") {
  static const size_t sizes[] = {0, 1, 3, 8, 12, 24, 100, 513, 4000};
  static const size_t aligns[] = {0, 1, 2, 4, 8, 16, 32, 64, 256, 4096};
  struct Record {
    size_t bytes, align;
    unsigned char *at;
  };
  Tape t;
  std::vector<Record> records;
  for (int round = 0; round < 40; ++round)
    for (size_t bytes : sizes)
      for (size_t align : aligns) {
        auto *p = static_cast<unsigned char *>(adcc_tape_push(t, bytes, align));
        REQUIRE(p != nullptr);
        REQUIRE(isAligned(p, align ? align : 1));
        std::memset(p, int(records.size() & 0xff), bytes);
        records.push_back({bytes, align, p});
      }
  CHECK(statsOf(t).chunk_count > 1);

  bool intact = true;
  for (size_t i = records.size(); i-- > 0;) {
    const Record &r = records[i];
    // A zero-byte record has no storage, so its address is not compared.
    bool same = r.bytes == 0 || adcc_tape_top(t, r.bytes, r.align) == r.at;
    auto *p = static_cast<unsigned char *>(adcc_tape_pop(t, r.bytes, r.align));
    intact &= same && p && (r.bytes == 0 || p == r.at);
    for (size_t b = 0; b < r.bytes; ++b)
      intact &= p[b] == (i & 0xff);
  }
  CHECK(intact);
  CHECK(statsOf(t).live_bytes == 0);
}

TEST_CASE("earlier records never move as the tape grows", "[tape]") {
  Tape t;
  auto *first = static_cast<double *>(adcc_tape_push(t, 4 * sizeof(double), 8));
  for (int i = 0; i < 4; ++i)
    first[i] = i + 0.5;
  std::vector<double *> slots;
  for (size_t i = 0; i < ManySlots; ++i) {
    auto *p = static_cast<double *>(adcc_tape_push(t, sizeof(double), 8));
    *p = double(i);
    slots.push_back(p);
  }
  REQUIRE(statsOf(t).chunk_count >= 3);

  bool stable = true;
  for (size_t i = 0; i < ManySlots; ++i)
    stable &= *slots[i] == double(i);
  for (size_t i = ManySlots; i-- > 0;)
    stable &= adcc_tape_pop(t, sizeof(double), 8) == slots[i];
  CHECK(stable);
  CHECK(adcc_tape_pop(t, 4 * sizeof(double), 8) == first);
  CHECK(first[3] == 3.5);
}

TEST_CASE("a large record gets a chunk of its own", "[tape]") {
  Tape t;
  adcc_tape_push_f64(t, 1.0);
  size_t big = size_t(20) << 20; // larger than any default chunk
  auto *p = static_cast<unsigned char *>(adcc_tape_push(t, big, 64));
  REQUIRE(p != nullptr);
  CHECK(isAligned(p, 64));
  std::memset(p, 0xab, big);
  adcc_tape_push_f64(t, 2.0);

  adcc_tape_stats s = statsOf(t);
  CHECK(s.chunk_count == 2); // the first chunk is far smaller than `big`
  CHECK(s.reserved_bytes >= big);
  CHECK(adcc_tape_pop_f64(t) == 2.0);
  CHECK(adcc_tape_pop(t, big, 64) == p);
  CHECK(p[big - 1] == 0xab);
  CHECK(adcc_tape_pop_f64(t) == 1.0);
}

TEST_CASE("release drops the records pushed after a mark", "[tape]") {
  Tape t;
  adcc_tape_push_i64(t, 11);
  adcc_tape_mark outer = adcc_tape_get_mark(t);
  CHECK(outer.position == 8);
  for (size_t i = 0; i < ManySlots; ++i)
    adcc_tape_push_f64(t, 1.0);
  adcc_tape_mark inner = adcc_tape_get_mark(t);
  adcc_tape_push_i64(t, 22);

  SECTION("to an inner mark") {
    adcc_tape_push_i64(t, 33);
    adcc_tape_release(t, inner);
    CHECK(adcc_tape_get_mark(t).position == inner.position);
    CHECK(adcc_tape_pop_f64(t) == 1.0);
  }
  SECTION("across chunks, then a stale mark is reported") {
    adcc_tape_release(t, outer);
    CHECK(statsOf(t).live_bytes == 8);
    CHECK(adcc_tape_top(t, 8, 8) != nullptr);

    ErrorCatcher errors;
    adcc_tape_release(t, inner);
    CHECK(caught.count == 1);
    CHECK(statsOf(t).live_bytes == 8);
    CHECK(adcc_tape_pop_i64(t) == 11);
  }
  SECTION("by a C++ scope") {
    size_t chunks = statsOf(t).chunk_count;
    {
      adcc::TapeScope scope(t);
      CHECK(scope.mark().position == inner.position + 8);
      for (size_t i = 0; i < ManySlots; ++i)
        adcc_tape_push_i32(t, 5);
    }
    CHECK(adcc_tape_get_mark(t).position == inner.position + 8);
    CHECK(adcc_tape_pop_i64(t) == 22);
    CHECK(statsOf(t).chunk_count > chunks); // the scope's chunks are cached
  }
}

TEST_CASE("cleared chunks are reused by later calls", "[tape]") {
  Tape t;
  auto oneCall = [&](bool byPops) {
    for (size_t i = 0; i < ManySlots; ++i)
      adcc_tape_push_f64(t, double(i));
    adcc_tape_push(t, size_t(12) << 20, 16); // and one large record
    if (!byPops)
      return adcc_tape_clear(t);
    adcc_tape_pop(t, size_t(12) << 20, 16);
    for (size_t i = 0; i < ManySlots; ++i)
      adcc_tape_pop_f64(t);
  };
  oneCall(false);
  adcc_tape_stats after1 = statsOf(t);
  CHECK(after1.live_bytes == 0);
  CHECK(after1.chunk_count > 1);

  for (int call = 0; call < 10; ++call)
    oneCall(call % 2 == 0);
  adcc_tape_stats after11 = statsOf(t);
  CHECK(after11.reserved_bytes == after1.reserved_bytes);
  CHECK(after11.chunk_count == after1.chunk_count);
  CHECK(after11.alloc_count == after1.alloc_count);
  CHECK(after11.peak_bytes == after1.peak_bytes);

  SECTION("trim returns the chunks") {
    size_t before = processStats().reserved_bytes;
    adcc_tape_trim(t);
    CHECK(statsOf(t).reserved_bytes == 0);
    CHECK(statsOf(t).chunk_count == 0);
    CHECK(processStats().reserved_bytes == before - after1.reserved_bytes);
    adcc_tape_push_f64(t, 4.0);
    CHECK(adcc_tape_pop_f64(t) == 4.0);
  }
  SECTION("trim keeps the chunk holding live records") {
    for (size_t i = 0; i < ManySlots; ++i)
      adcc_tape_push_i64(t, int64_t(i));
    for (size_t i = 0; i < ManySlots / 2; ++i)
      adcc_tape_pop_i64(t);
    adcc_tape_trim(t);
    adcc_tape_stats s = statsOf(t);
    CHECK(s.chunk_count < after1.chunk_count);
    CHECK(s.live_bytes == ManySlots / 2 * 8);
    CHECK(adcc_tape_pop_i64(t) == int64_t(ManySlots / 2 - 1));
  }
}

TEST_CASE("peak statistics", "[tape]") {
  Tape t;
  for (int i = 0; i < 1000; ++i)
    adcc_tape_push_f64(t, 1.0);
  for (int i = 0; i < 500; ++i)
    adcc_tape_pop_f64(t);
  for (int i = 0; i < 100; ++i)
    adcc_tape_push_i32(t, 1);
  adcc_tape_stats s = statsOf(t);
  CHECK(s.live_bytes == 600 * 8);
  CHECK(s.peak_bytes == 1000 * 8);
  CHECK(s.push_count == 1100);

  adcc_tape_reset_peak(t);
  CHECK(statsOf(t).peak_bytes == 600 * 8);

  SECTION("across chunks and a release") {
    adcc_tape_mark m = adcc_tape_get_mark(t);
    for (size_t i = 0; i < ManySlots; ++i)
      adcc_tape_push_f64(t, 1.0);
    adcc_tape_release(t, m);
    for (int i = 0; i < 10; ++i)
      adcc_tape_push_f64(t, 1.0);
    CHECK(statsOf(t).peak_bytes == 600 * 8 + ManySlots * 8);
  }
  SECTION("across pops into a lower chunk") {
    for (size_t i = 0; i < ManySlots; ++i)
      adcc_tape_push_f64(t, 1.0);
    for (size_t i = 0; i < ManySlots + 600; ++i)
      adcc_tape_pop_f64(t);
    CHECK(statsOf(t).live_bytes == 0);
    CHECK(statsOf(t).peak_bytes == 600 * 8 + ManySlots * 8);
  }
}

TEST_CASE("the memory bound fails a push cleanly", "[tape][limit]") {
  Tape t;
  adcc_tape_push_f64(t, 1.0); // the tape's first chunk exists
  size_t limit = processStats().reserved_bytes + (size_t(1) << 20);
  LimitGuard guard(limit);
  CHECK(adcc_tape_get_limit() == limit);
  ErrorCatcher errors;

  size_t pushes = 0;
  while (caught.count == 0 && pushes < (size_t(1) << 22)) {
    adcc_tape_stats before = statsOf(t);
    void *p = adcc_tape_push(t, 1000, 8);
    if (!p) {
      adcc_tape_stats after = statsOf(t);
      CHECK(after.live_bytes == before.live_bytes);
      CHECK(after.reserved_bytes == before.reserved_bytes);
      CHECK(after.chunk_count == before.chunk_count);
      CHECK(after.push_count == before.push_count);
      break;
    }
    ++pushes;
  }
  REQUIRE(caught.count == 1);
  CHECK(pushes > 900); // most of the megabyte was usable
  CHECK(processStats().reserved_bytes <= limit);
  std::string expected = "adcc runtime: error: tape memory limit of " +
                         std::to_string(limit) + " bytes exceeded (tapes hold ";
  CHECK(caught.last.rfind(expected, 0) == 0);
  CHECK(caught.last.find("push of 1000 bytes); raise ADCC_TAPE_LIMIT or "
                         "call adcc_tape_set_limit()") != std::string::npos);

  SECTION("a typed push stores nothing") {
    size_t live = statsOf(t).live_bytes;
    // Fill the current chunk so that the next push needs a new one.
    while (caught.count == 1)
      adcc_tape_push_f64(t, 2.0);
    CHECK(caught.count == 2);
    CHECK(statsOf(t).live_bytes > live);
    size_t full = statsOf(t).live_bytes;
    adcc_tape_push_f64(t, 3.0);
    CHECK(statsOf(t).live_bytes == full);
    CHECK(adcc_tape_pop_f64(t) == 2.0);
  }
  SECTION("raising the bound lets the push through") {
    adcc_tape_set_limit(0);
    CHECK(adcc_tape_push(t, 1000, 8) != nullptr);
    CHECK(caught.count == 1);
  }
}

TEST_CASE("byte counts are parsed like ADCC_TAPE_LIMIT", "[tape][limit]") {
  struct Case {
    const char *text;
    size_t bytes;
  };
  static const Case good[] = {
      {"0", 0},
      {"4096", 4096},
      {"64K", size_t(64) << 10},
      {"64k", size_t(64) << 10},
      {"512M", size_t(512) << 20},
      {"2G", size_t(2) << 30},
      {"3t", size_t(3) << 40},
      {"18446744073709551615", SIZE_MAX},
  };
  for (const Case &c : good) {
    size_t bytes = 1;
    INFO(c.text);
    CHECK(adcc_runtime_parse_bytes(c.text, &bytes) == 0);
    CHECK(bytes == c.bytes);
  }
  static const char *bad[] = {"",
                              "K",
                              "abc",
                              "12Q",
                              "-5",
                              "1.5G",
                              "64KB",
                              " 64K",
                              "64K ",
                              "18446744073709551616",
                              "17179869184G"};
  for (const char *text : bad) {
    size_t bytes = 7;
    INFO(text);
    CHECK(adcc_runtime_parse_bytes(text, &bytes) == -1);
    CHECK(bytes == 7);
  }
  CHECK(adcc_runtime_parse_bytes(nullptr, nullptr) == -1);
}

namespace {

// Runs `action` with stderr redirected and returns what it printed.
template <typename Action> std::string captureStderr(Action action) {
  std::fflush(stderr);
  FILE *sink = std::tmpfile();
  REQUIRE(sink);
  int saved = dup(2);
  dup2(fileno(sink), 2);
  action();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::string text;
  std::rewind(sink);
  for (int c; (c = std::fgetc(sink)) != EOF;)
    text += char(c);
  std::fclose(sink);
  return text;
}

} // namespace

TEST_CASE("ADCC_TAPE_LIMIT sets the bound", "[tape][limit]") {
  LimitGuard guard(0);
  setenv("ADCC_TAPE_LIMIT", "2M", 1);
  adcc_runtime_reload_env();
  CHECK(adcc_tape_get_limit() == size_t(2) << 20);

  setenv("ADCC_TAPE_LIMIT", "lots", 1);
  std::string warning = captureStderr([] { adcc_runtime_reload_env(); });
  CHECK(adcc_tape_get_limit() == size_t(2) << 20); // ignored
  CHECK(warning == "adcc runtime: warning: ignoring ADCC_TAPE_LIMIT='lots': "
                   "expected a byte count such as 1048576, 64K, 512M or "
                   "2G\n");

  unsetenv("ADCC_TAPE_LIMIT");
  adcc_runtime_reload_env();
  CHECK(adcc_tape_get_limit() == 0);
}

namespace {

// A one-shot barrier (std::barrier is C++20).
class Barrier {
public:
  explicit Barrier(int count) : waiting_(count) {}
  void arriveAndWait() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (--waiting_ == 0)
      done_.notify_all();
    done_.wait(lock, [&] { return waiting_ <= 0; });
  }

private:
  std::mutex mutex_;
  std::condition_variable done_;
  int waiting_;
};

} // namespace

TEST_CASE("each thread has its own tape", "[tape][thread]") {
  constexpr int Threads = 4;
  adcc_runtime_stats baseline = processStats();
  Barrier filled(Threads + 1), checked(Threads + 1);
  adcc_tape *tapes[Threads] = {};
  adcc_tape_stats perTape[Threads] = {};
  bool threadOk[Threads] = {};

  std::vector<std::thread> threads;
  for (int id = 0; id < Threads; ++id)
    threads.emplace_back([&, id] {
      adcc_tape *t = adcc_tape_thread();
      tapes[id] = t;
      bool ok = t != nullptr && adcc_tape_thread() == t;
      size_t n = ManySlots / 2 + size_t(id) * 10000;
      for (size_t i = 0; i < n; ++i)
        adcc_tape_push_f64(t, id * 1e7 + double(i));
      adcc_tape_get_stats(t, &perTape[id]);
      filled.arriveAndWait();
      checked.arriveAndWait();
      for (size_t i = n; i-- > 0;)
        ok &= adcc_tape_pop_f64(t) == id * 1e7 + double(i);
      ok &= statsOf(t).live_bytes == 0;
      threadOk[id] = ok;
    });

  filled.arriveAndWait();
  adcc_runtime_stats during = processStats();
  size_t reserved = 0, chunks = 0;
  for (int id = 0; id < Threads; ++id) {
    reserved += perTape[id].reserved_bytes;
    chunks += perTape[id].chunk_count;
    CHECK(perTape[id].live_bytes == (ManySlots / 2 + size_t(id) * 10000) * 8);
    for (int other = 0; other < id; ++other)
      CHECK(tapes[id] != tapes[other]);
  }
  CHECK(during.tape_count == baseline.tape_count + Threads);
  CHECK(during.reserved_bytes == baseline.reserved_bytes + reserved);
  CHECK(during.chunk_count == baseline.chunk_count + chunks);
  CHECK(during.peak_reserved_bytes >= during.reserved_bytes);
  checked.arriveAndWait();

  for (std::thread &th : threads)
    th.join();
  for (int id = 0; id < Threads; ++id)
    CHECK(threadOk[id]);
  // The tapes were destroyed when their threads exited.
  adcc_runtime_stats after = processStats();
  CHECK(after.tape_count == baseline.tape_count);
  CHECK(after.reserved_bytes == baseline.reserved_bytes);
  CHECK(after.chunk_count == baseline.chunk_count);
}

TEST_CASE("misuse is reported, not read as garbage", "[tape][error]") {
  Tape t;
  ErrorCatcher errors;

  SECTION("underflow of an empty tape") {
    CHECK(adcc_tape_pop(t, 8, 8) == nullptr);
    CHECK(caught.count == 1);
    CHECK(caught.last == "adcc runtime: error: tape underflow: pop of 8 bytes "
                         "from an empty tape (the reverse sweep pops more "
                         "than the forward sweep pushed)");
    CHECK(adcc_tape_pop_f64(t) == 0.0);
    CHECK(adcc_tape_pop_ptr(t) == nullptr);
    CHECK(caught.count == 3);
  }
  SECTION("underflow after balanced use") {
    adcc_tape_push_i32(t, 1);
    CHECK(adcc_tape_pop_i32(t) == 1);
    CHECK(caught.count == 0);
    CHECK(adcc_tape_pop_i32(t) == 0);
    CHECK(caught.count == 1);
    CHECK(caught.last.find("tape underflow") != std::string::npos);
  }
  SECTION("a pop larger than the records") {
    adcc_tape_push_f64(t, 1.0);
    CHECK(adcc_tape_pop(t, 16, 8) == nullptr);
    CHECK(caught.count == 1);
    CHECK(caught.last.find("tape pop of 16 bytes does not match the records "
                           "on the tape (8 bytes live)") != std::string::npos);
    CHECK(adcc_tape_pop_f64(t) == 1.0); // unchanged
  }
  SECTION("an over-aligned pop of plain records") {
    for (int i = 0; i < 3; ++i)
      adcc_tape_push_i64(t, 12345);
    CHECK(adcc_tape_pop(t, 8, 64) == nullptr);
    CHECK(caught.count == 1);
    CHECK(statsOf(t).live_bytes == 24);
  }
  SECTION("a bad alignment") {
    CHECK(adcc_tape_push(t, 8, 3) == nullptr);
    CHECK(adcc_tape_push(t, 8, 8192) == nullptr);
    CHECK(caught.count == 2);
    CHECK(caught.last == "adcc runtime: error: tape record alignment 8192 "
                         "exceeds the maximum of 4096");
    CHECK(statsOf(t).push_count == 0);
  }
  SECTION("installing no handler restores the default") {
    CHECK(adcc_set_error_handler(nullptr) == recordError);
    adcc_error_handler fallback = adcc_set_error_handler(recordError);
    CHECK(fallback != nullptr);
    CHECK(fallback != recordError);
  }
}

TEST_CASE("zero-byte records and an unused tape", "[tape]") {
  Tape t;
  CHECK(statsOf(t).reserved_bytes == 0); // nothing until the first push
  void *p = adcc_tape_push(t, 0, 1);
  CHECK(p != nullptr);
  CHECK(adcc_tape_pop(t, 0, 1) == p);
  adcc_tape_clear(t);
  adcc_tape_trim(t);
  adcc_tape_release(t, adcc_tape_get_mark(t));
  CHECK(statsOf(t).live_bytes == 0);
}
