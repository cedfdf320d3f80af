// Derivatives through a C++ multilayer perceptron written with the STL
// (LinkedIn Learning's "Training Neural Networks in C++" course,
// github.com/LinkedInLearning/training-neural-networks-in-cpp-4404365,
// src/05_04/MLP.cpp compiled unchanged and linked; the derivatives of its
// member functions are made at link time): a std::vector of
// std::vector<Perceptron>, each Perceptron a std::vector<double> of
// weights; Perceptron::run takes its input vector by value, appends the
// bias to it (push_back: the copy grows) and sums with
// std::inner_product; MultiLayerPerceptron::run copies the input into
// values[0] and returns values.back() by value.
//
// The objective is 0.5 sum_k (y_k - o_k)^2 of run's outputs. The shadow
// network is a MultiLayerPerceptron of the same shape with every weight 0
// (its own vectors: the shadow of each vector's buffer). Checked: the
// gradient with respect to every weight, bias and input by reverse mode,
// against central differences, forward mode (one weight at a time), and
// the step MultiLayerPerceptron::bp takes (w + eta d v, with d the error
// term: -eta dE/dw), for two shapes; and the loss after two bp steps with
// respect to the initial weights and the input (bp differentiated),
// reverse mode against central differences and forward mode.
// Run by mlp_cxx.sh.
#include "MLP.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
extern "C" {
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

static int failures = 0, checks = 0;

static void check(const char *what, int i, double got, double want,
                  double tol) {
  bool ok = std::fabs(got - want) <= tol * (1 + std::fabs(want));
  ++checks;
  if (!ok) {
    std::printf("%s [%d]: %.15g, expected %.15g  FAIL\n", what, i, got, want);
    ++failures;
  }
}

static double loss(MultiLayerPerceptron *mlp, const double *x,
                   const double *y) {
  std::vector<double> in(x, x + mlp->layers.front());
  std::vector<double> out = mlp->run(in);
  double e = 0;
  for (size_t k = 0; k < out.size(); ++k)
    e += 0.5 * (y[k] - out[k]) * (y[k] - out[k]);
  return e;
}

// Every weight of the network, in order (layer, neuron, input).
static std::vector<double *> weights(MultiLayerPerceptron &m) {
  std::vector<double *> w;
  for (size_t i = 1; i < m.network.size(); ++i)
    for (Perceptron &p : m.network[i])
      for (double &v : p.weights)
        w.push_back(&v);
  return w;
}

// A network of the same shape, every number 0: the weights, the values,
// and the Perceptrons' biases (a bias of 1 in the shadow would be a
// tangent of 1 for every bias in forward mode).
static MultiLayerPerceptron *shadow_of(const MultiLayerPerceptron &m) {
  auto *d = new MultiLayerPerceptron(m.layers, 0.0, 0.0);
  for (double *w : weights(*d))
    *w = 0;
  return d;
}

static double difference(MultiLayerPerceptron &m, double *x, const double *y,
                         double *p) {
  double v = *p, h = 1e-6;
  *p = v + h;
  double up = loss(&m, x, y);
  *p = v - h;
  double down = loss(&m, x, y);
  *p = v;
  return (up - down) / (2 * h);
}

static void run(std::vector<size_t> shape) {
  MultiLayerPerceptron m(shape, 1.0, 0.5);
  size_t ni = shape.front(), no = shape.back();
  std::vector<double> x(ni), y(no), dx(ni, 0.0);
  for (size_t i = 0; i < ni; ++i)
    x[i] = 0.3 + 0.4 * std::sin(1.0 + i);
  for (size_t k = 0; k < no; ++k)
    y[k] = 0.2 + 0.6 * k / (no > 1 ? no - 1 : 1);
  // Larger weights than the constructor's: sigmoids away from 1/2.
  for (double *w : weights(m))
    *w *= 2.5;

  MultiLayerPerceptron *d = shadow_of(m);
  __enzyme_autodiff((void *)loss, enzyme_dup, &m, d, enzyme_dup, x.data(),
                    dx.data(), enzyme_const, y.data());
  std::vector<double *> w = weights(m), g = weights(*d);

  // bp's step: w' = w + eta d v = w - eta dE/dw.
  MultiLayerPerceptron c = m;
  c.bp(x, y);
  std::vector<double *> wc = weights(c);

  std::string name = "mlp";
  for (size_t n : shape)
    name += (name.size() > 3 ? "-" : " ") + std::to_string(n);
  for (size_t i = 0; i < w.size(); ++i) {
    check((name + ": dE/dw vs differences").c_str(), i, *g[i],
          difference(m, x.data(), y.data(), w[i]), 1e-6);
    check((name + ": dE/dw vs bp").c_str(), i, *g[i],
          (*w[i] - *wc[i]) / m.eta, 1e-10);
    MultiLayerPerceptron *t = shadow_of(m);
    *weights(*t)[i] = 1;
    std::vector<double> tx(ni, 0.0);
    double f = __enzyme_fwddiff((void *)loss, enzyme_dup, &m, t, enzyme_dup,
                                x.data(), tx.data(), enzyme_const, y.data());
    check((name + ": dE/dw forward vs reverse").c_str(), i, f, *g[i], 1e-12);
    delete t;
  }
  // Each Perceptron's bias (a member read by run): reverse mode adds its
  // adjoint into the shadow's.
  for (size_t i = 1; i < m.network.size(); ++i)
    for (size_t j = 0; j < m.network[i].size(); ++j) {
      double a = d->network[i][j].bias;
      check((name + ": dE/dbias vs differences").c_str(), i * 100 + j, a,
            difference(m, x.data(), y.data(), &m.network[i][j].bias), 1e-6);
      MultiLayerPerceptron *t = shadow_of(m);
      t->network[i][j].bias = 1;
      std::vector<double> tx(ni, 0.0);
      double f = __enzyme_fwddiff((void *)loss, enzyme_dup, &m, t, enzyme_dup,
                                  x.data(), tx.data(), enzyme_const, y.data());
      check((name + ": dE/dbias forward vs reverse").c_str(), i * 100 + j, f,
            a, 1e-12);
      delete t;
    }
  for (size_t j = 0; j < ni; ++j) {
    check((name + ": dE/dx vs differences").c_str(), j, dx[j],
          difference(m, x.data(), y.data(), &x[j]), 1e-6);
    MultiLayerPerceptron *t = shadow_of(m);
    std::vector<double> tx(ni, 0.0);
    tx[j] = 1;
    double f = __enzyme_fwddiff((void *)loss, enzyme_dup, &m, t, enzyme_dup,
                                x.data(), tx.data(), enzyme_const, y.data());
    check((name + ": dE/dx forward vs reverse").c_str(), j, f, dx[j], 1e-12);
    delete t;
  }
  delete d;
}

// Through training: the loss after two bp steps (the error terms kept in
// the member d, a std::vector grown by push_back, the weights updated in
// place) with respect to the initial weights and the input.
static double trained_loss(MultiLayerPerceptron *mlp, const double *x,
                           const double *y) {
  std::vector<double> in(x, x + mlp->layers.front());
  std::vector<double> out(y, y + mlp->layers.back());
  mlp->bp(in, out);
  mlp->bp(in, out);
  return loss(mlp, x, y);
}

static void through_training(std::vector<size_t> shape) {
  MultiLayerPerceptron m(shape, 1.0, 0.5);
  size_t ni = shape.front(), no = shape.back();
  std::vector<double> x(ni), y(no), dx(ni, 0.0);
  for (size_t i = 0; i < ni; ++i)
    x[i] = 0.3 + 0.4 * std::sin(1.0 + i);
  for (size_t k = 0; k < no; ++k)
    y[k] = 0.2 + 0.6 * k / (no > 1 ? no - 1 : 1);
  for (double *w : weights(m))
    *w *= 2.5;
  MultiLayerPerceptron c = m;
  MultiLayerPerceptron *d = shadow_of(m);
  __enzyme_autodiff((void *)trained_loss, enzyme_dup, &c, d, enzyme_dup,
                    x.data(), dx.data(), enzyme_const, y.data());
  std::vector<double *> g = weights(*d);
  size_t n = g.size();
  for (size_t i = 0; i < n + ni; ++i) {
    double grad = i < n ? *g[i] : dx[i - n];
    double e[2], h = 1e-6;
    for (int s = 0; s < 2; ++s) {
      MultiLayerPerceptron p = m;
      std::vector<double> xp = x;
      (i < n ? *weights(p)[i] : xp[i - n]) += s ? -h : h;
      e[s] = trained_loss(&p, xp.data(), y.data());
    }
    check("mlp trained: vs differences", i, grad, (e[0] - e[1]) / (2 * h),
          1e-5);
    MultiLayerPerceptron ct = m;
    MultiLayerPerceptron *t = shadow_of(m);
    std::vector<double> tx(ni, 0.0);
    (i < n ? *weights(*t)[i] : tx[i - n]) = 1;
    double f = __enzyme_fwddiff((void *)trained_loss, enzyme_dup, &ct, t,
                                enzyme_dup, x.data(), tx.data(), enzyme_const,
                                y.data());
    check("mlp trained: forward vs reverse", i, f, grad, 1e-10);
    delete t;
  }
  delete d;
}

int main() {
  srand(5);
  run({3, 4, 2});
  run({5, 6, 4, 3});
  through_training({3, 4, 2});
  std::printf("mlp_cxx: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
