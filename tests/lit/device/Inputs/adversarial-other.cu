// A second file that includes tests/gpu/adversarial_kernels.cuh and
// differentiates launches of its kernels (lit device/adversarial-kernels.cu).
#include "../../../gpu/adversarial_kernels.cuh"

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

double other_loss(const double *x, double *w) {
  header_stencil<<<4, 64>>>(x, w, 256);
  header_inplace<<<4, 64>>>(w + 256, x);
  cudaDeviceSynchronize();
  return w[0] + w[300];
}

double other_gradient(const double *x, double *dx, double *w, double *dw) {
  return __enzyme_autodiff((void *)other_loss, enzyme_dup, x, dx, enzyme_dup,
                           w, dw);
}
