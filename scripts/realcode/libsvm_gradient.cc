// Derivatives through LIBSVM (github.com/cjlin1/libsvm, svm.cpp compiled
// unchanged on its own and linked; the derivatives of its functions are
// made when adcc links). Vectors are sparse: arrays of svm_node {index,
// value} ended by index -1, walked by two pointers that skip the indices
// the other vector lacks; a model holds tables of pointers to its support
// vectors' rows and to each class pair's coefficients.
//
//  1. Prediction. A model trained by svm_train on a synthetic problem (three
//     classes, C-SVC; and epsilon-SVR), for the linear, polynomial, RBF and
//     sigmoid kernels: the gradient of a weighted sum of the decision values
//     svm_predict_values gives for a few test vectors (Kernel::k_function's
//     switch, powi, the one-against-one pairs, votes) with respect to the
//     test vectors' values, the support vectors' values, the coefficients,
//     the offsets rho and the kernel's gamma and coef0, by reverse mode
//     against central differences and forward mode along a direction. The
//     shadow model is a copy of the model whose tables point to zeroed
//     copies of its numbers (the integer tables, label and nSV, shared).
//  2. Training, reported and not counted (-DLIBSVM_TRAINING, argument
//     "training"): the same weighted sum after svm_train (epsilon-SVR, RBF
//     kernel: SMO iterations with the working-set selection, the kernel
//     cache's rows of float in a linked list, the kernel called through a
//     pointer to member function, shrinking, `info` reports) with respect
//     to the targets, epsilon and C, by forward mode. Its tangents are those
//     of the solver's last iterate, not of the exact solution: SMO picks
//     the pair to update by the primal's violation only, so the tangents
//     converge more slowly than the values (without shrinking, for a
//     target whose coefficient sits at a bound, where the solution's
//     derivative is 0: a tangent of 7e-3 at eps 1e-6, 8e-4 at 1e-9, 1.6e-4
//     at 1e-12, 8.5e-5 at 1e-14), and the kernel's rows are floats, which
//     makes differences in gamma or the vectors' values noisy at 1e-3. With
//     -DLIBSVM_TRAINING_REVERSE, reverse mode's gradient with respect to
//     the targets, epsilon, C and the vectors' values (along a direction)
//     is checked against forward mode's tangents (counted): both are the
//     last iterate's.
// Run by libsvm.sh.
#include "svm.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

namespace {

int failures = 0, checks = 0;

void check(const char *what, int i, double got, double want, double tol,
           double scale) {
  bool ok = std::fabs(got - want) <= tol * (std::fabs(want) + scale) &&
            std::isfinite(got);
  ++checks;
  if (!ok) {
    std::printf("%s [%d]: %.12g, expected %.12g  FAIL\n", what, i, got, want);
    ++failures;
  }
}

void quiet(const char *) {}

// Deterministic numbers in [-1, 1).
unsigned long long state = 88172645463325252ull;
double uniform() {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (double)(state >> 11) / 9007199254740992.0 * 2 - 1;
}

constexpr int Dim = 5;

// A sparse vector of Dim features, some left out (their index skipped).
std::vector<svm_node> sparseVector(int leaveOut) {
  std::vector<svm_node> v;
  for (int j = 1; j <= Dim; ++j)
    if (j != leaveOut)
      v.push_back({j, uniform()});
  v.push_back({-1, 0});
  return v;
}

std::vector<svm_node> zeroLike(const svm_node *x) {
  std::vector<svm_node> v;
  for (;; ++x) {
    v.push_back({x->index, 0});
    if (x->index == -1)
      break;
  }
  return v;
}

int rowLength(const svm_node *x) {
  int n = 0;
  while (x[n].index != -1)
    ++n;
  return n;
}

struct Problem {
  std::vector<std::vector<svm_node>> rows, d_rows;
  std::vector<svm_node *> x, d_x;
  std::vector<double> y, d_y;
  svm_problem prob, d_prob;

  Problem(int l, bool regression) {
    for (int i = 0; i < l; ++i) {
      rows.push_back(sparseVector(i % 7 == 3 ? 1 + i % Dim : 0));
      int cls = i % 3;
      // move each class's points apart
      rows.back()[0].value += cls == 0 ? 0.8 : cls == 1 ? -0.8 : 0;
      double t = 0;
      for (const svm_node &n : rows.back())
        if (n.index > 0)
          t += std::sin(n.index * n.value);
      y.push_back(regression ? t : (double)(cls + 1));
    }
    for (auto &r : rows) {
      x.push_back(r.data());
      d_rows.push_back(zeroLike(r.data()));
    }
    for (auto &r : d_rows)
      d_x.push_back(r.data());
    d_y.assign(l, 0);
    prob = {l, y.data(), x.data()};
    d_prob = {l, d_y.data(), d_x.data()};
  }
};

svm_parameter parameters(int type, int kernel) {
  svm_parameter p = {};
  p.svm_type = type;
  p.kernel_type = kernel;
  p.degree = 3;
  p.gamma = 0.4;
  p.coef0 = kernel == SIGMOID ? -0.3 : 0.5;
  p.cache_size = 1;
  p.eps = 1e-12;
  p.C = 2;
  p.nu = 0.5;
  p.p = 0.05;
  p.shrinking = 1;
  p.probability = 0;
  return p;
}

// The shadow of a trained model: its tables point to zeroed copies.
struct ShadowModel {
  svm_model m;
  std::vector<std::vector<svm_node>> sv;
  std::vector<svm_node *> svPtr;
  std::vector<std::vector<double>> coef;
  std::vector<double *> coefPtr;
  std::vector<double> rho;

  explicit ShadowModel(const svm_model *model) {
    m = *model;
    std::memset(&m.param, 0, sizeof m.param);
    m.param.svm_type = model->param.svm_type;
    m.param.kernel_type = model->param.kernel_type;
    m.param.degree = model->param.degree;
    for (int i = 0; i < model->l; ++i)
      sv.push_back(zeroLike(model->SV[i]));
    for (auto &r : sv)
      svPtr.push_back(r.data());
    m.SV = svPtr.data();
    for (int k = 0; k < model->nr_class - 1; ++k)
      coef.emplace_back(model->l, 0.0);
    for (auto &c : coef)
      coefPtr.push_back(c.data());
    m.sv_coef = coefPtr.data();
    int pairs = model->nr_class * (model->nr_class - 1) / 2;
    rho.assign(pairs, 0);
    m.rho = rho.data();
  }
};

constexpr int NumTests = 4;

// sum_t sum_p w[t][p] dec_p(x_t)
double decisions(const svm_model *model, svm_node *const *tests,
                 const double *w) {
  double dec[16];
  double sum = 0;
  int pairs = model->param.svm_type == C_SVC
                  ? model->nr_class * (model->nr_class - 1) / 2
                  : 1;
  for (int t = 0; t < NumTests; ++t) {
    svm_predict_values(model, tests[t], dec);
    for (int p = 0; p < pairs; ++p)
      sum += w[t * 3 + p] * dec[p];
  }
  return sum;
}

double centralDifference(double *x, double h, const svm_model *model,
                         svm_node *const *tests, const double *w) {
  double saved = *x;
  *x = saved + h;
  double up = decisions(model, tests, w);
  *x = saved - h;
  double down = decisions(model, tests, w);
  *x = saved;
  return (up - down) / (2 * h);
}

const char *const KernelName[] = {"linear", "poly", "rbf", "sigmoid"};

void checkPrediction(int type, int kernel) {
  Problem problem(36, type == EPSILON_SVR);
  svm_parameter param = parameters(type, kernel);
  if (const char *error = svm_check_parameter(&problem.prob, &param)) {
    std::printf("svm_check_parameter: %s  FAIL\n", error);
    ++failures;
    return;
  }
  svm_model *model = svm_train(&problem.prob, &param);
  ShadowModel shadow(model);

  std::vector<std::vector<svm_node>> testRows, d_testRows;
  std::vector<svm_node *> tests, d_tests;
  for (int t = 0; t < NumTests; ++t)
    testRows.push_back(sparseVector(t == 2 ? 4 : 0));
  for (auto &r : testRows) {
    tests.push_back(r.data());
    d_testRows.push_back(zeroLike(r.data()));
  }
  for (auto &r : d_testRows)
    d_tests.push_back(r.data());
  double w[NumTests * 3];
  for (int i = 0; i < NumTests * 3; ++i)
    w[i] = 1 + 0.25 * (i % 5);

  __enzyme_autodiff((void *)decisions, enzyme_dup, model, &shadow.m,
                    enzyme_dup, tests.data(), d_tests.data(), enzyme_const,
                    w);

  char what[96];
  double scale = 1e-3; // against differences of steps 1e-6 and 1e-7
  // the test vectors
  for (int t = 0; t < NumTests; ++t)
    for (int j = 0; j < rowLength(tests[t]); ++j) {
      std::snprintf(what, sizeof what, "%s %s: test %d value", KernelName[kernel],
                    type == C_SVC ? "C-SVC" : "SVR", t);
      check(what, j, d_tests[t][j].value,
            centralDifference(&tests[t][j].value, 1e-6, model, tests.data(), w),
            1e-5, scale);
    }
  // every third support vector's values
  for (int i = 0; i < model->l; i += 3)
    for (int j = 0; j < rowLength(model->SV[i]); ++j) {
      std::snprintf(what, sizeof what, "%s %s: SV %d value", KernelName[kernel],
                    type == C_SVC ? "C-SVC" : "SVR", i);
      check(what, j, shadow.sv[i][j].value,
            centralDifference(&model->SV[i][j].value, 1e-6, model, tests.data(),
                              w),
            1e-5, scale);
    }
  for (int k = 0; k < model->nr_class - 1; ++k)
    for (int i = 0; i < model->l; i += 2) {
      std::snprintf(what, sizeof what, "%s %s: sv_coef[%d]", KernelName[kernel],
                    type == C_SVC ? "C-SVC" : "SVR", k);
      check(what, i, shadow.coef[k][i],
            centralDifference(&model->sv_coef[k][i], 1e-6, model, tests.data(),
                              w),
            1e-5, scale);
    }
  for (size_t p = 0; p < shadow.rho.size(); ++p)
    check("rho", (int)p, shadow.rho[p],
          centralDifference(&model->rho[p], 1e-6, model, tests.data(), w), 1e-5,
          scale);
  if (kernel != LINEAR) {
    check("gamma", kernel, shadow.m.param.gamma,
          centralDifference(&model->param.gamma, 1e-7, model, tests.data(), w),
          1e-5, scale);
  }
  if (kernel == POLY || kernel == SIGMOID)
    check("coef0", kernel, shadow.m.param.coef0,
          centralDifference(&model->param.coef0, 1e-7, model, tests.data(), w),
          1e-5, scale);

  // Forward mode along a direction in everything, against the gradient.
  ShadowModel tangent(model);
  std::vector<std::vector<svm_node>> t_testRows;
  std::vector<svm_node *> t_tests;
  for (auto &r : testRows)
    t_testRows.push_back(zeroLike(r.data()));
  for (auto &r : t_testRows)
    t_tests.push_back(r.data());
  double dot = 0;
  int n = 0;
  auto direction = [&](double *v, double grad) {
    *v = 0.1 * (n++ % 7) - 0.3;
    dot += *v * grad;
  };
  for (int t = 0; t < NumTests; ++t)
    for (int j = 0; j < rowLength(tests[t]); ++j)
      direction(&t_tests[t][j].value, d_tests[t][j].value);
  for (int i = 0; i < model->l; ++i)
    for (int j = 0; j < rowLength(model->SV[i]); ++j)
      direction(&tangent.sv[i][j].value, shadow.sv[i][j].value);
  for (int k = 0; k < model->nr_class - 1; ++k)
    for (int i = 0; i < model->l; ++i)
      direction(&tangent.coef[k][i], shadow.coef[k][i]);
  for (size_t p = 0; p < shadow.rho.size(); ++p)
    direction(&tangent.rho[p], shadow.rho[p]);
  direction(&tangent.m.param.gamma, shadow.m.param.gamma);
  direction(&tangent.m.param.coef0, shadow.m.param.coef0);
  double t = __enzyme_fwddiff((void *)decisions, enzyme_dup, model,
                              &tangent.m, enzyme_dup, tests.data(),
                              t_tests.data(), enzyme_const, w);
  check("forward along a direction", kernel, t, dot, 1e-10, 1);
  std::printf("%s %s: %d support vectors, %d classes\n", KernelName[kernel],
              type == C_SVC ? "C-SVC" : "SVR", model->l, model->nr_class);
  svm_free_and_destroy_model(&model);
}

#ifdef LIBSVM_TRAINING
// Part 2: the decisions after training, as a function of the problem.
svm_node *TrainTests[NumTests];
double TrainWeights[NumTests * 3];

double trained(const svm_problem *prob, const svm_parameter *param) {
  svm_model *model = svm_train(prob, param);
  double value = decisions(model, TrainTests, TrainWeights);
  svm_free_and_destroy_model(&model);
  return value;
}

double trainDifference(double *x, double h, const svm_problem *prob,
                       const svm_parameter *param) {
  double saved = *x;
  *x = saved + h;
  double up = trained(prob, param);
  *x = saved - h;
  double down = trained(prob, param);
  *x = saved;
  return (up - down) / (2 * h);
}

// Not counted among the checks (see the file's comment): prints, for each
// number, the tangent and the central difference, and the largest relative
// disagreement.
void reportTraining() {
  Problem problem(24, true);
  svm_parameter param = parameters(EPSILON_SVR, RBF);
  std::vector<std::vector<svm_node>> testRows;
  for (int t = 0; t < NumTests; ++t)
    testRows.push_back(sparseVector(0));
  for (int t = 0; t < NumTests; ++t)
    TrainTests[t] = testRows[t].data();
  for (int i = 0; i < NumTests * 3; ++i)
    TrainWeights[i] = 1 + 0.25 * (i % 5);

  auto tangent = [&](double *shadowNumber, svm_parameter *t_param) {
    *shadowNumber = 1;
    double t = __enzyme_fwddiff((void *)trained, enzyme_dup, &problem.prob,
                                &problem.d_prob, enzyme_dup, &param, t_param);
    *shadowNumber = 0;
    return t;
  };
  double worst = 0;
  auto report = [&](const char *what, int i, double t, double d) {
    double rel = std::fabs(t - d) / (std::fabs(d) + 1e-2);
    worst = std::fmax(worst, rel);
    std::printf("%s [%d]: tangent %.9g, difference %.9g\n", what, i, t, d);
  };
  svm_parameter t_param = {};
  std::vector<double> t_y(problem.prob.l);
  for (int i = 0; i < problem.prob.l; ++i)
    report("target", i, t_y[i] = tangent(&problem.d_y[i], &t_param),
           trainDifference(&problem.y[i], 1e-4, &problem.prob, &param));
  double unused = 0;
  t_param.p = 1;
  double t_p = tangent(&unused, &t_param);
  report("epsilon", 0, t_p,
         trainDifference(&param.p, 1e-5, &problem.prob, &param));
  t_param.p = 0;
  t_param.C = 1;
  double t_C = tangent(&unused, &t_param);
  report("C", 0, t_C, trainDifference(&param.C, 1e-4, &problem.prob, &param));
  t_param.C = 0;
  // The vectors' values along a direction (each value its own weight).
  double t_x = 0;
  {
    int k = 0;
    for (auto &r : problem.d_rows)
      for (svm_node &n : r)
        if (n.index != -1)
          n.value = 0.5 + 0.125 * (k++ % 7);
    t_x = tangent(&unused, &t_param);
    for (auto &r : problem.d_rows)
      for (svm_node &n : r)
        n.value = 0;
  }
  std::printf("training (eps %g): largest relative disagreement of the "
              "tangents with central differences %.3g\n",
              param.eps, worst);

#ifdef LIBSVM_TRAINING_REVERSE
  // Reverse mode through training against forward mode: both
  // differentiate the same last iterate, so they agree to rounding
  // (counted, unlike the differences above).
  svm_parameter d_param = {};
  __enzyme_autodiff((void *)trained, enzyme_dup, &problem.prob,
                    &problem.d_prob, enzyme_dup, &param, &d_param);
  for (int i = 0; i < problem.prob.l; ++i)
    check("reverse target", i, problem.d_y[i], t_y[i], 1e-7, 1e-3);
  check("reverse epsilon", 0, d_param.p, t_p, 1e-7, 1e-3);
  check("reverse C", 0, d_param.C, t_C, 1e-7, 1e-3);
  double r_x = 0;
  {
    int k = 0;
    for (auto &r : problem.d_rows)
      for (svm_node &n : r)
        if (n.index != -1)
          r_x += n.value * (0.5 + 0.125 * (k++ % 7));
  }
  check("reverse values along the direction", 0, r_x, t_x, 1e-7, 1e-3);
  std::printf("reverse: d/dC %.9g (forward %.9g), values along the "
              "direction %.9g (forward %.9g)\n",
              d_param.C, t_C, r_x, t_x);
#endif
}
#endif

} // namespace

int main(int argc, char **argv) {
  svm_set_print_string_function(quiet);
  bool training = argc > 1 && std::strcmp(argv[1], "training") == 0;
  if (!training) {
    for (int kernel : {LINEAR, POLY, RBF, SIGMOID}) {
      checkPrediction(C_SVC, kernel);
      checkPrediction(EPSILON_SVR, kernel);
    }
  } else {
#ifdef LIBSVM_TRAINING
    reportTraining();
#endif
#ifndef LIBSVM_TRAINING_REVERSE
    return 0;
#endif
  }
  std::printf("%s: %d checks, %d failed (libsvm %s)\n",
              failures ? "FAIL" : "ok", checks, failures,
              training ? "training" : "prediction");
  return failures ? 1 : 0;
}
