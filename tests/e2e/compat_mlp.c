/* Enzyme-style MLP: flat weight arrays with __restrict__ pointers, tanh
 * layers, a log-sum-exp cross entropy; gradient of the loss with respect to
 * both weight matrices and the input by one __enzyme_autodiff call. */
#include "check.h"

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
extern double __enzyme_autodiff(void *, ...);

#define NI 4
#define NH 5
#define NO 3

static void dense(const double *__restrict__ W, const double *__restrict__ b,
                  const double *__restrict__ in, double *__restrict__ out,
                  int nin, int nout, int act) {
  for (int o = 0; o < nout; ++o) {
    double s = b[o];
    for (int i = 0; i < nin; ++i)
      s += W[o * nin + i] * in[i];
    out[o] = act ? tanh(s) : s;
  }
}

static double loss(const double *__restrict__ W1, const double *__restrict__ b1,
                   const double *__restrict__ W2, const double *__restrict__ b2,
                   const double *__restrict__ x, int label) {
  double h[NH], z[NO];
  dense(W1, b1, x, h, NI, NH, 1);
  dense(W2, b2, h, z, NH, NO, 0);
  double m = z[0];
  for (int k = 1; k < NO; ++k)
    m = z[k] > m ? z[k] : m;
  double s = 0;
  for (int k = 0; k < NO; ++k)
    s += exp(z[k] - m);
  return log(s) + m - z[label];
}

static double W1[NH * NI], b1[NH], W2[NO * NH], b2[NO], x[NI];

static double loss_at(void) { return loss(W1, b1, W2, b2, x, 1); }

static double fd(double *p) {
  double keep = *p, h = 1e-6;
  *p = keep + h;
  double up = loss_at();
  *p = keep - h;
  double down = loss_at();
  *p = keep;
  return (up - down) / (2 * h);
}

int main(void) {
  unsigned s = 12345;
  double *all[] = {W1, b1, W2, b2, x};
  int len[] = {NH * NI, NH, NO * NH, NO, NI};
  for (int a = 0; a < 5; ++a)
    for (int i = 0; i < len[a]; ++i) {
      s = s * 1103515245u + 12345u;
      all[a][i] = ((s >> 8) % 2000) / 1000.0 - 1.0;
    }
  double dW1[NH * NI] = {0}, db1[NH] = {0}, dW2[NO * NH] = {0}, dx[NI] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, W1, dW1, enzyme_dup, b1, db1,
                    enzyme_dup, W2, dW2, enzyme_const, b2, enzyme_dup, x, dx,
                    enzyme_const, 1);
  for (int i = 0; i < NH * NI; ++i)
    CHECK_CLOSE(dW1[i], fd(&W1[i]), 1e-6);
  for (int i = 0; i < NH; ++i)
    CHECK_CLOSE(db1[i], fd(&b1[i]), 1e-6);
  for (int i = 0; i < NO * NH; ++i)
    CHECK_CLOSE(dW2[i], fd(&W2[i]), 1e-6);
  for (int i = 0; i < NI; ++i)
    CHECK_CLOSE(dx[i], fd(&x[i]), 1e-6);
  return check_finish();
}
