// Threads started inside differentiated code without OpenMP (std::thread,
// pthread_create) are refused at the call: their creation and join are not
// mirrored (docs/parallel.md); std::async runs its task on a std::thread.
// In both modes, at every level.
// RUN: %expect-exit 1 %adcc++ -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -O3 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -DFORWARD -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -DFORWARD -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -DFORWARD -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -DFORWARD -O3 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <future>
#include <pthread.h>
#include <thread>
#include <threads.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double two_halves(const double *x, int n) {
  double part[2] = {0, 0};
  std::thread t([&] {
    for (int i = 0; i < n / 2; ++i)
      part[0] += x[i] * x[i];
  });
  for (int i = n / 2; i < n; ++i)
    part[1] += x[i] * x[i];
  t.join();
  return part[0] + part[1];
}
// (-O0: in the constructor, in the standard library's header; optimized,
// inlined here.)
// CHECK-DAG: {{std_thread.h|threads.cpp:22}}:{{.*}}: error: cannot differentiate {{.*}}two_halves{{.*}} in {{reverse|forward}} mode: a std::thread started inside differentiated code (std::thread::_M_start_thread

double async_halves(const double *x, int n) {
  auto f = std::async(std::launch::async, [=] {
    double s = 0;
    for (int i = 0; i < n / 2; ++i)
      s += x[i] * x[i];
    return s;
  });
  double s = 0;
  for (int i = n / 2; i < n; ++i)
    s += x[i] * x[i];
  return s + f.get();
}
// CHECK-DAG: {{std_thread.h|threads.cpp:36}}:{{.*}}: error: cannot differentiate {{.*}}async_halves{{.*}} in {{reverse|forward}} mode: a std::thread started inside differentiated code (std::thread::_M_start_thread

struct job {
  const double *x;
  double s;
};
static void *work(void *p) {
  job *j = static_cast<job *>(p);
  j->s = j->x[0] * j->x[0];
  return nullptr;
}
double square(const double *x) {
  job j = {x, 0};
  pthread_t t;
  pthread_create(&t, nullptr, work, &j);
  pthread_join(t, nullptr);
  return j.s;
}
// CHECK-DAG: threads.cpp:[[#@LINE-4]]:3: error: cannot differentiate 'square(double const*)' in {{reverse|forward}} mode: a thread started inside differentiated code (pthread_create) is not supported

static int c11_work(void *p) {
  job *j = static_cast<job *>(p);
  j->s = j->x[0] * j->x[0];
  return 0;
}
double c11_square(const double *x) {
  job j = {x, 0};
  thrd_t t;
  thrd_create(&t, c11_work, &j);
  thrd_join(t, nullptr);
  return j.s;
}
// CHECK-DAG: threads.cpp:[[#@LINE-4]]:3: error: cannot differentiate 'c11_square(double const*)' in {{reverse|forward}} mode: a thread started inside differentiated code (thrd_create) is not supported

void gradients(const double *x, double *dx, int n) {
#ifdef FORWARD
  __enzyme_fwddiff((void *)two_halves, x, dx, n);
  __enzyme_fwddiff((void *)async_halves, x, dx, n);
  __enzyme_fwddiff((void *)square, x, dx);
  __enzyme_fwddiff((void *)c11_square, x, dx);
#else
  __enzyme_autodiff((void *)two_halves, x, dx, n);
  __enzyme_autodiff((void *)async_halves, x, dx, n);
  __enzyme_autodiff((void *)square, x, dx);
  __enzyme_autodiff((void *)c11_square, x, dx);
#endif
}
