// launches_bench: what differentiated kernel launches (<adcc/kernels.hpp>,
// CPU backend) cost against the launch itself. For each kernel, the primal
// is a host function that launches it and reduces its output to a scalar
// loss; the gradient is adcc::gradient of that function (augmented kernel,
// then reverse kernel), forward mode adcc::forward along one direction.
// Every gradient is checked before it is timed: forward against reverse
// (the tangent equals the gradient's dot product with the direction) and a
// central difference along the direction.
//
// Usage: launches_bench [--quick] [--json FILE] [--samples N]
//                       [--min-time S] [--only NAME[,NAME...]]
// Kernels: stencil (tiled 2-D, group-local memory and barriers), reduction
// (barrier tree in group-local memory, a scalar Active argument), nbody
// (forces through group-local tiles of bodies), matmul (16 x 16 tiles),
// hydro (a LULESH-style step: element pressures and corner forces from
// gathered nodes, nodal forces gathered through the connectivity, a time
// step).
// The pointer arguments are given with their sizes (adcc::sized), so that
// the reverse kernels run their work-groups in parallel.
// Exit status 0, 1 when a derivative was wrong, 2 for usage errors.
#include <adcc/kernels.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using Vec = std::vector<double>;

// ---- kernels ---------------------------------------------------------

constexpr int ST = 16; // stencil tile side

double stencilLoss(const double *U, double *Out, int N) {
  auto Kernel = [](const adcc::index &Ix, const double *U, double *Out,
                   int N) {
    constexpr int H = ST + 2;
    double *Tile = Ix.local_memory<double>(H * H);
    int LX = int(Ix.local_id(0)), LY = int(Ix.local_id(1));
    int X = int(Ix.global_id(0)), Y = int(Ix.global_id(1));
    auto At = [N](int X, int Y) { return ((Y + N) % N) * N + (X + N) % N; };
    Tile[(LY + 1) * H + LX + 1] = U[At(X, Y)];
    if (LX == 0)
      Tile[(LY + 1) * H] = U[At(X - 1, Y)];
    if (LX == ST - 1)
      Tile[(LY + 1) * H + ST + 1] = U[At(X + 1, Y)];
    if (LY == 0)
      Tile[LX + 1] = U[At(X, Y - 1)];
    if (LY == ST - 1)
      Tile[(ST + 1) * H + LX + 1] = U[At(X, Y + 1)];
    Ix.barrier();
    const double *P = &Tile[(LY + 1) * H + LX + 1];
    double L = P[-1] + P[1] + P[-H] + P[H] - 4 * P[0];
    Out[At(X, Y)] = P[0] + 0.1 * L + 0.05 * P[0] * P[0] * P[0];
  };
  std::size_t M = std::size_t(N) * N;
  adcc::launch(adcc::cpu, Kernel, adcc::range(N, N), adcc::range(ST, ST),
               adcc::sized(U, M), adcc::sized(Out, M), adcc::Const(N));
  double S = 0;
  for (int I = 0; I < N * N; ++I)
    S += Out[I] * Out[I];
  return S;
}

constexpr int RW = 256; // reduction work-group

double reductionLoss(double A, const double *X, double *Partial, int N) {
  auto Kernel = [](const adcc::index &Ix, double A, const double *X,
                   double *Partial) {
    double *Sums = Ix.local_memory<double>(RW);
    std::size_t L = Ix.local_id(), I = Ix.global_id();
    Sums[L] = std::exp(A * X[I]);
    for (std::size_t Half = RW / 2; Half > 0; Half /= 2) {
      Ix.barrier();
      if (L < Half)
        Sums[L] += Sums[L + Half];
    }
    if (L == 0)
      Partial[Ix.group_id()] = Sums[0];
  };
  adcc::launch(adcc::cpu, Kernel, adcc::range(N), adcc::range(RW), A,
               adcc::sized(X, N), adcc::sized(Partial, N / RW));
  double S = 0;
  for (int G = 0; G < N / RW; ++G)
    S += std::log(Partial[G]);
  return S;
}

constexpr int NB = 64; // n-body tile of bodies

// Positions P (x, y, z per body), accelerations Acc; the loss weighs them.
double nbodyLoss(const double *P, double *Acc, int N) {
  auto Kernel = [](const adcc::index &Ix, const double *P, double *Acc,
                   int N) {
    double *Tile = Ix.local_memory<double>(3 * NB);
    std::size_t I = Ix.global_id(), L = Ix.local_id();
    double XI = P[3 * I], YI = P[3 * I + 1], ZI = P[3 * I + 2];
    double AX = 0, AY = 0, AZ = 0;
    for (int T = 0; T < N / NB; ++T) {
      for (int D = 0; D < 3; ++D)
        Tile[3 * L + D] = P[3 * (T * NB + L) + D];
      Ix.barrier();
      for (int J = 0; J < NB; ++J) {
        double DX = Tile[3 * J] - XI, DY = Tile[3 * J + 1] - YI,
               DZ = Tile[3 * J + 2] - ZI;
        double R2 = DX * DX + DY * DY + DZ * DZ + 0.01;
        double Inv = 1.0 / (R2 * std::sqrt(R2));
        AX += DX * Inv;
        AY += DY * Inv;
        AZ += DZ * Inv;
      }
      Ix.barrier();
    }
    Acc[3 * I] = AX;
    Acc[3 * I + 1] = AY;
    Acc[3 * I + 2] = AZ;
  };
  adcc::launch(adcc::cpu, Kernel, adcc::range(N), adcc::range(NB),
               adcc::sized(P, 3 * N), adcc::sized(Acc, 3 * N),
               adcc::Const(N));
  double S = 0;
  for (int I = 0; I < 3 * N; ++I)
    S += Acc[I] * (1 + 0.001 * (I % 7));
  return S;
}

constexpr int MT = 16; // matrix product tile

// C = A B (N x N), loss sum C_ij^2.
double matmulLoss(const double *A, const double *B, double *C, int N) {
  auto Kernel = [](const adcc::index &Ix, const double *A, const double *B,
                   double *C, int N) {
    double *TA = Ix.local_memory<double>(MT * MT);
    double *TB = Ix.local_memory<double>(MT * MT);
    int LX = int(Ix.local_id(0)), LY = int(Ix.local_id(1));
    int Col = int(Ix.global_id(0)), Row = int(Ix.global_id(1));
    double S = 0;
    for (int T = 0; T < N / MT; ++T) {
      TA[LY * MT + LX] = A[Row * N + T * MT + LX];
      TB[LY * MT + LX] = B[(T * MT + LY) * N + Col];
      Ix.barrier();
      for (int K = 0; K < MT; ++K)
        S += TA[LY * MT + K] * TB[K * MT + LX];
      Ix.barrier();
    }
    C[Row * N + Col] = S;
  };
  std::size_t M = std::size_t(N) * N;
  adcc::launch(adcc::cpu, Kernel, adcc::range(N, N), adcc::range(MT, MT),
               adcc::sized(A, M), adcc::sized(B, M), adcc::sized(C, M),
               adcc::Const(N));
  double S = 0;
  for (int I = 0; I < N * N; ++I)
    S += C[I] * C[I];
  return S;
}

// A Lagrangian hydrodynamics step on an N x N mesh of quadrilaterals, in
// the style of LULESH: element pressures and corner forces from the
// element's nodes (gathered through the connectivity), then each node sums
// the corner forces of its elements (gathered through the node-to-corner
// list: the scatter done as a gather, no two items writing one place) and
// takes a time step. Inputs: the node coordinates, then the element
// energies; the loss weighs the nodes' displacements.
constexpr int HW = 64;          // hydro work-group
constexpr double HydroDt = 0.01; // time step

/// The connectivity of an N x N quad mesh on (N + 1)^2 nodes: the nodes of
/// each element (4 per element, counter-clockwise), and for each node the
/// element corners it is (4 per node, 8 e + 2 k of the corner forces, -1
/// where the node has fewer elements).
struct HydroMesh {
  std::vector<int> Nodes, Corners;
  explicit HydroMesh(int N) : Nodes(4 * N * N), Corners(4 * (N + 1) * (N + 1), -1) {
    for (int J = 0; J < N; ++J)
      for (int I = 0; I < N; ++I) {
        const int E = J * N + I;
        const int At[4] = {J * (N + 1) + I, J * (N + 1) + I + 1,
                           (J + 1) * (N + 1) + I + 1, (J + 1) * (N + 1) + I};
        for (int K = 0; K < 4; ++K) {
          Nodes[4 * E + K] = At[K];
          int *C = &Corners[4 * At[K]];
          while (*C >= 0)
            ++C;
          *C = 8 * E + 2 * K;
        }
      }
  }
};

double hydroLoss(const double *X, const double *Energy, double *Force,
                 double *Next, const HydroMesh *Mesh, int N) {
  const int Elements = N * N, Nodes = (N + 1) * (N + 1);
  // Element pressure p = (gamma - 1) e / area; corner k's force is
  // p d(area)/d(x_k) (half the normal of the opposite diagonal).
  auto ElementKernel = [](const adcc::index &Ix, const double *X,
                          const double *Energy, double *Force,
                          const int *Conn) {
    const std::size_t E = Ix.global_id();
    double PX[4], PY[4];
    for (int K = 0; K < 4; ++K) {
      PX[K] = X[2 * Conn[4 * E + K]];
      PY[K] = X[2 * Conn[4 * E + K] + 1];
    }
    double Area = 0;
    for (int K = 0; K < 4; ++K)
      Area += 0.5 * (PX[K] * PY[(K + 1) % 4] - PX[(K + 1) % 4] * PY[K]);
    const double P = 0.4 * Energy[E] / Area;
    for (int K = 0; K < 4; ++K) {
      Force[8 * E + 2 * K] = 0.5 * P * (PY[(K + 1) % 4] - PY[(K + 3) % 4]);
      Force[8 * E + 2 * K + 1] =
          0.5 * P * (PX[(K + 3) % 4] - PX[(K + 1) % 4]);
    }
  };
  auto NodeKernel = [](const adcc::index &Ix, const double *X,
                       const double *Force, double *Next, const int *Corners,
                       int Nodes) {
    const std::size_t I = Ix.global_id();
    if (I >= std::size_t(Nodes))
      return;
    double FX = 0, FY = 0;
    for (int K = 0; K < 4; ++K)
      if (int C = Corners[4 * I + K]; C >= 0) {
        FX += Force[C];
        FY += Force[C + 1];
      }
    // (at rest before the step, unit nodal mass)
    Next[2 * I] = X[2 * I] + HydroDt * HydroDt * FX;
    Next[2 * I + 1] = X[2 * I + 1] + HydroDt * HydroDt * FY;
  };
  adcc::launch(adcc::cpu, ElementKernel, adcc::range(Elements),
               adcc::range(HW), adcc::sized(X, 2 * Nodes),
               adcc::sized(Energy, Elements), adcc::sized(Force, 8 * Elements),
               adcc::Const(static_cast<const int *>(Mesh->Nodes.data())));
  const int Padded = (Nodes + HW - 1) / HW * HW;
  adcc::launch(adcc::cpu, NodeKernel, adcc::range(Padded), adcc::range(HW),
               adcc::sized(X, 2 * Nodes),
               adcc::sized(static_cast<const double *>(Force), 8 * Elements),
               adcc::sized(Next, 2 * Nodes),
               adcc::Const(static_cast<const int *>(Mesh->Corners.data())),
               adcc::Const(Nodes));
  // (The weighed squares of the displacements: of the coordinates
  // themselves, the loss would be of order N^4, and a central difference
  // would lose its digits.)
  double S = 0;
  for (int I = 0; I < 2 * Nodes; ++I) {
    const double D = (Next[I] - X[I]) / (HydroDt * HydroDt);
    S += D * D * (1 + 0.01 * (I % 5));
  }
  return S;
}

// ---- one benchmark -----------------------------------------------------

/// A benchmark: its inputs x (all active), and three ways to run it.
struct Case {
  const char *Name;
  int N;
  std::string Size;
  Vec X;
  double (*Primal)(Case &, const Vec &);
  /// The gradient into G (and the loss).
  double (*Gradient)(Case &, Vec &G);
  /// The tangent along V.
  double (*Forward)(Case &, const Vec &V);
  Vec Work, DWork;
  /// hydro: its mesh and corner forces (with their shadow).
  std::shared_ptr<HydroMesh> Mesh;
  Vec Force, DForce;
};

double stencilPrimal(Case &C, const Vec &X) {
  return stencilLoss(X.data(), C.Work.data(), C.N);
}
double stencilGradient(Case &C, Vec &G) {
  std::fill(G.begin(), G.end(), 0.0);
  std::fill(C.DWork.begin(), C.DWork.end(), 0.0);
  adcc::gradient(stencilLoss, adcc::Duplicated<const double>(C.X.data(), G.data()),
                 adcc::Duplicated(C.Work.data(), C.DWork.data()),
                 adcc::Const(C.N));
  return 0;
}
double stencilForward(Case &C, const Vec &V) {
  return adcc::forward(stencilLoss, adcc::Dual<const double *>(C.X.data(), V.data()),
                       adcc::Dual(C.Work.data(), C.DWork.data()),
                       adcc::Const(C.N));
}

// (x[0] is the scalar argument a, the rest the vector.)
double reductionPrimal(Case &C, const Vec &X) {
  return reductionLoss(X[0], X.data() + 1, C.Work.data(), C.N);
}
double reductionGradient(Case &C, Vec &G) {
  std::fill(G.begin(), G.end(), 0.0);
  std::fill(C.DWork.begin(), C.DWork.end(), 0.0);
  auto [DA] = adcc::gradient(
      reductionLoss, adcc::Active(C.X[0]),
      adcc::Duplicated<const double>(C.X.data() + 1, G.data() + 1),
      adcc::Duplicated(C.Work.data(), C.DWork.data()), adcc::Const(C.N));
  G[0] = DA;
  return 0;
}
double reductionForward(Case &C, const Vec &V) {
  return adcc::forward(reductionLoss, adcc::Dual(C.X[0], V[0]),
                       adcc::Dual<const double *>(C.X.data() + 1, V.data() + 1),
                       adcc::Dual(C.Work.data(), C.DWork.data()),
                       adcc::Const(C.N));
}

double nbodyPrimal(Case &C, const Vec &X) {
  return nbodyLoss(X.data(), C.Work.data(), C.N);
}
double nbodyGradient(Case &C, Vec &G) {
  std::fill(G.begin(), G.end(), 0.0);
  std::fill(C.DWork.begin(), C.DWork.end(), 0.0);
  adcc::gradient(nbodyLoss, adcc::Duplicated<const double>(C.X.data(), G.data()),
                 adcc::Duplicated(C.Work.data(), C.DWork.data()),
                 adcc::Const(C.N));
  return 0;
}
double nbodyForward(Case &C, const Vec &V) {
  return adcc::forward(nbodyLoss, adcc::Dual<const double *>(C.X.data(), V.data()),
                       adcc::Dual(C.Work.data(), C.DWork.data()),
                       adcc::Const(C.N));
}

// (x holds A, then B.)
double matmulPrimal(Case &C, const Vec &X) {
  return matmulLoss(X.data(), X.data() + C.N * C.N, C.Work.data(), C.N);
}
double matmulGradient(Case &C, Vec &G) {
  std::fill(G.begin(), G.end(), 0.0);
  std::fill(C.DWork.begin(), C.DWork.end(), 0.0);
  std::size_t M = std::size_t(C.N) * C.N;
  adcc::gradient(matmulLoss, adcc::Duplicated<const double>(C.X.data(), G.data()),
                 adcc::Duplicated<const double>(C.X.data() + M, G.data() + M),
                 adcc::Duplicated(C.Work.data(), C.DWork.data()),
                 adcc::Const(C.N));
  return 0;
}
double matmulForward(Case &C, const Vec &V) {
  std::size_t M = std::size_t(C.N) * C.N;
  return adcc::forward(matmulLoss, adcc::Dual<const double *>(C.X.data(), V.data()),
                       adcc::Dual<const double *>(C.X.data() + M, V.data() + M),
                       adcc::Dual(C.Work.data(), C.DWork.data()),
                       adcc::Const(C.N));
}

// (x holds the node coordinates, then the element energies.)
double hydroPrimal(Case &C, const Vec &X) {
  return hydroLoss(X.data(), X.data() + C.Work.size(), C.Force.data(),
                   C.Work.data(), C.Mesh.get(), C.N);
}
double hydroGradient(Case &C, Vec &G) {
  std::fill(G.begin(), G.end(), 0.0);
  std::fill(C.DWork.begin(), C.DWork.end(), 0.0);
  std::fill(C.DForce.begin(), C.DForce.end(), 0.0);
  const std::size_t M = C.Work.size();
  adcc::gradient(hydroLoss,
                 adcc::Duplicated<const double>(C.X.data(), G.data()),
                 adcc::Duplicated<const double>(C.X.data() + M, G.data() + M),
                 adcc::Duplicated(C.Force.data(), C.DForce.data()),
                 adcc::Duplicated(C.Work.data(), C.DWork.data()),
                 adcc::Const(static_cast<const HydroMesh *>(C.Mesh.get())),
                 adcc::Const(C.N));
  return 0;
}
double hydroForward(Case &C, const Vec &V) {
  const std::size_t M = C.Work.size();
  return adcc::forward(
      hydroLoss, adcc::Dual<const double *>(C.X.data(), V.data()),
      adcc::Dual<const double *>(C.X.data() + M, V.data() + M),
      adcc::Dual(C.Force.data(), C.DForce.data()),
      adcc::Dual(C.Work.data(), C.DWork.data()),
      adcc::Const(static_cast<const HydroMesh *>(C.Mesh.get())),
      adcc::Const(C.N));
}

Case makeCase(const std::string &Name, int N) {
  Case C{};
  C.N = N;
  std::size_t Inputs = 0, Work = 0;
  if (Name == "stencil") {
    C = {"stencil", N, std::to_string(N) + "x" + std::to_string(N), {},
         stencilPrimal, stencilGradient, stencilForward, {}, {}};
    Inputs = Work = std::size_t(N) * N;
  } else if (Name == "reduction") {
    C = {"reduction", N, "n=" + std::to_string(N), {}, reductionPrimal,
         reductionGradient, reductionForward, {}, {}};
    Inputs = N + 1;
    Work = N / RW;
  } else if (Name == "nbody") {
    C = {"nbody", N, "n=" + std::to_string(N), {}, nbodyPrimal, nbodyGradient,
         nbodyForward, {}, {}};
    Inputs = Work = 3 * std::size_t(N);
  } else if (Name == "hydro") {
    C = {"hydro", N, std::to_string(N) + "x" + std::to_string(N), {},
         hydroPrimal, hydroGradient, hydroForward, {}, {}};
    Work = 2 * std::size_t(N + 1) * (N + 1);
    Inputs = Work + std::size_t(N) * N;
    C.Mesh = std::make_shared<HydroMesh>(N);
    C.Force.assign(8 * std::size_t(N) * N, 0.0);
    C.DForce.assign(C.Force.size(), 0.0);
  } else {
    C = {"matmul", N, std::to_string(N) + "x" + std::to_string(N), {},
         matmulPrimal, matmulGradient, matmulForward, {}, {}};
    Inputs = 2 * std::size_t(N) * N;
    Work = std::size_t(N) * N;
  }
  C.X.resize(Inputs);
  for (std::size_t I = 0; I < Inputs; ++I)
    C.X[I] = 0.5 * std::sin(0.7 * double(I) + 0.3) +
             (Name == "nbody" ? double(I % 17) * 0.2 : 0.0);
  if (Name == "hydro") // (a mesh of unit squares, slightly moved; e > 0)
    for (std::size_t I = 0; I < Inputs; ++I)
      C.X[I] = I < Work ? double(I % 2 ? I / 2 / (N + 1) : I / 2 % (N + 1)) +
                              0.05 * std::sin(0.7 * double(I))
                        : 1 + 0.5 * std::sin(0.3 * double(I));
  if (Name == "reduction")
    C.X[0] = 0.8;
  C.Work.assign(Work, 0.0);
  C.DWork.assign(Work, 0.0);
  return C;
}

// ---- timing and checks ------------------------------------------------

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The median over \p Samples of the time per call of F (each sample
/// repeats F for at least \p MinTime seconds).
template <typename F> double timeIt(F &&Fn, int Samples, double MinTime) {
  std::vector<double> T;
  for (int S = 0; S < Samples; ++S) {
    int Calls = 0;
    double Start = now(), End;
    do {
      Fn();
      ++Calls;
      End = now();
    } while (End - Start < MinTime);
    T.push_back((End - Start) / Calls);
  }
  std::sort(T.begin(), T.end());
  return T[T.size() / 2];
}

bool verify(Case &C, Vec &G) {
  C.Gradient(C, G);
  Vec V(C.X.size());
  for (std::size_t I = 0; I < V.size(); ++I)
    V[I] = std::cos(1.3 * double(I)) * 0.5;
  double Dot = 0;
  for (std::size_t I = 0; I < V.size(); ++I)
    Dot += G[I] * V[I];
  double Tangent = C.Forward(C, V);
  // A central difference along v, Richardson-extrapolated (steps h and
  // h/2: the n-body forces' high derivatives make one step's truncation
  // error show).
  auto CentralAt = [&](double H) {
    Vec Up = C.X, Down = C.X;
    for (std::size_t I = 0; I < V.size(); ++I) {
      Up[I] += H * V[I];
      Down[I] -= H * V[I];
    }
    return (C.Primal(C, Up) - C.Primal(C, Down)) / (2 * H);
  };
  const double H = 1e-5;
  double Central = (4 * CentralAt(H / 2) - CentralAt(H)) / 3;
  // Relative to sum |g_i v_i|: the dot products cancel to a small value
  // on the large sizes.
  double Scale = 1;
  for (std::size_t I = 0; I < V.size(); ++I)
    Scale += std::fabs(G[I] * V[I]);
  bool Ok = std::fabs(Tangent - Dot) <= 1e-10 * Scale &&
            std::fabs(Central - Dot) <= 1e-6 * Scale;
  if (!Ok)
    std::printf("%s %s: WRONG: gradient . v = %.12g, tangent %.12g, central "
                "difference %.12g\n",
                C.Name, C.Size.c_str(), Dot, Tangent, Central);
  return Ok;
}

} // namespace

int main(int Argc, char **Argv) {
  bool Quick = false;
  const char *Json = nullptr, *Only = nullptr;
  int Samples = 7;
  double MinTime = 0.05;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--quick"))
      Quick = true;
    else if (!std::strcmp(Argv[I], "--json") && I + 1 < Argc)
      Json = Argv[++I];
    else if (!std::strcmp(Argv[I], "--samples") && I + 1 < Argc)
      Samples = std::max(1, std::atoi(Argv[++I]));
    else if (!std::strcmp(Argv[I], "--min-time") && I + 1 < Argc)
      MinTime = std::atof(Argv[++I]);
    else if (!std::strcmp(Argv[I], "--only") && I + 1 < Argc)
      Only = Argv[++I];
    else {
      std::fprintf(stderr, "usage: launches_bench [--quick] [--json FILE] "
                           "[--samples N] [--min-time S] [--only LIST]\n");
      return 2;
    }
  }
  if (Quick)
    Samples = std::min(Samples, 5);
  struct Size {
    const char *Name;
    int N;
    bool InQuick;
  };
  const Size Sizes[] = {{"stencil", 128, true},    {"stencil", 512, false},
                        {"reduction", 1 << 16, true},
                        {"reduction", 1 << 20, false},
                        {"nbody", 1024, true},     {"nbody", 4096, false},
                        {"matmul", 64, true},      {"matmul", 256, false},
                        {"hydro", 64, true},       {"hydro", 256, false}};
  std::printf("launches_bench: CPU backend, %zu worker threads\n",
              adcc::detail::WorkerPool::get().size());
  std::printf("%-10s %-12s %12s %12s %9s %12s %9s  %s\n", "kernel", "size",
              "primal [s]", "gradient [s]", "ratio", "forward [s]", "ratio",
              "check");
  FILE *J = Json ? std::fopen(Json, "w") : nullptr;
  if (Json && !J) {
    std::fprintf(stderr, "launches_bench: cannot write %s\n", Json);
    return 2;
  }
  if (J)
    std::fprintf(J, "[\n");
  bool AllOk = true, First = true;
  for (const Size &S : Sizes) {
    if (Quick && !S.InQuick)
      continue;
    if (Only && !std::strstr(Only, S.Name))
      continue;
    Case C = makeCase(S.Name, S.N);
    Vec G(C.X.size());
    bool Ok = verify(C, G);
    AllOk &= Ok;
    double TP = timeIt([&] { C.Primal(C, C.X); }, Samples, MinTime);
    double TG = timeIt([&] { C.Gradient(C, G); }, Samples, MinTime);
    Vec V(C.X.size(), 0.5);
    double TF = timeIt([&] { C.Forward(C, V); }, Samples, MinTime);
    std::printf("%-10s %-12s %12.3e %12.3e %9.2f %12.3e %9.2f  %s\n", C.Name,
                C.Size.c_str(), TP, TG, TG / TP, TF, TF / TP,
                Ok ? "verified" : "WRONG");
    if (J) {
      std::fprintf(J,
                   "%s {\"benchmark\": \"launch_%s\", \"size\": \"%s\", "
                   "\"primal_s\": %.6e, \"gradient_s\": %.6e, "
                   "\"gradient_ratio\": %.4f, \"forward_s\": %.6e, "
                   "\"forward_ratio\": %.4f, \"threads\": %zu, "
                   "\"verified\": %s}",
                   First ? "" : ",\n", C.Name, C.Size.c_str(), TP, TG,
                   TG / TP, TF, TF / TP,
                   adcc::detail::WorkerPool::get().size(),
                   Ok ? "true" : "false");
      First = false;
    }
  }
  if (J) {
    std::fprintf(J, "\n]\n");
    std::fclose(J);
  }
  return AllOk ? 0 : 1;
}
