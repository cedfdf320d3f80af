// A launched kernel that walks an array of rows with a pointer it moves in
// a loop (`++q`, at -O0 a stack slot that comes back with another offset
// every iteration): the description of its pointer graph
// (device/LaunchPointers.h) takes the rows read at any offset after a
// few (step 1: every aligned word of the allocation), and the compile
// ends (before 2026-12-06 it did not end at -O0: the walk followed the
// slot at ever larger offsets). -O0: the count of nodes (5), the rows at
// bytes 0, 8, 16, 24 (the first offsets the walk followed) and at any
// offset (read: 1 << 63 | 1 << 62 | 1 << 49 | step << 40 | offset); -O2,
// the loop unrolled: bytes 0 to 24. So for a loop over numbers (`sum`:
// no pointers read from data, no nodes; out written, x read).
// REQUIRES: cuda
// RUN: %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S -emit-llvm %s -o - -Wno-unknown-cuda-version 2>&1 | FileCheck %s --check-prefix=O0
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S -emit-llvm %s -o - -Wno-unknown-cuda-version 2>&1 | FileCheck %s --check-prefix=O2

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;
__global__ void sweep(double *const *rows, const double *x, double *out) {
  int i = threadIdx.x;
  double s = 0;
  for (double *const *q = rows; q != rows + 4; ++q)
    s += (*q)[i] * x[i];
  out[i] = s;
}
double loss(double *const *rows, const double *x, double *out) {
  sweep<<<1, 32>>>(rows, x, out);
  return out[0];
}
__global__ void sum(const double *x, double *out) {
  double s = 0;
  for (const double *p = x; p != x + 4; ++p)
    s += *p * *p;
  out[threadIdx.x] = s;
}

double total(const double *x, double *out) {
  sum<<<1, 32>>>(x, out);
  return out[0];
}

void grad(const double *x, double *dx, double *out, double *dout) {
  __enzyme_autodiff((void *)total, enzyme_dup, x, dx, enzyme_dup, out, dout);
}

void grad(double *const *rows, double **drows, const double *x, double *dx,
          double *out, double *dout) {
  __enzyme_autodiff((void *)loss, enzyme_dup, rows, drows, enzyme_dup, x, dx,
                    enzyme_dup, out, dout);
}

// O0-LABEL: define {{.*}}void @__adcc_size__Z5sweepPKPdPKdS_(
// O0: store i64 5, ptr
// O0: store i64 -4611123068473966592, ptr
// O0: store i64 -4611121968962338816, ptr
// O0: store i64 -4611123068473966584, ptr
// O0: store i64 -4611123068473966576, ptr
// O0: store i64 -4611123068473966568, ptr
// O0: ret void
// O2-LABEL: define {{.*}}void @__adcc_size__Z5sweepPKPdPKdS_(
// O2: store i64 4, ptr
// O2: store i64 -4611123068473966592, ptr
// O2: store i64 -4611123068473966584, ptr
// O2: store i64 -4611123068473966576, ptr
// O2: store i64 -4611123068473966568, ptr
// O2: ret void
// O0-LABEL: define {{.*}}void @__adcc_size__Z3sumPKdPd(
// O0: store i64 2, ptr
// O0: store i64 2, ptr
// O0: store i64 1, ptr
// O0: store i64 0, ptr
// O2-LABEL: define {{.*}}void @__adcc_size__Z3sumPKdPd(
// O2: store i64 2, ptr
// O2: store i64 2, ptr
// O2: store i64 1, ptr
// O2: store i64 0, ptr
