// Derivatives through smallpt (Kevin Beason's 99-line path tracer,
// smallpt.cpp included unchanged, its main renamed): the scene is a global
// table of spheres built by constructors before main, the random numbers
// come from glibc's erand48 on a three-short state per image row, and
// radiance recurses (twice at a glass surface near the camera, Russian
// roulette deeper down).
//
// The objective is a weighted sum of the unclamped colors of a few pixels,
// rendered as smallpt's main renders them (2x2 subpixels, a tent filter,
// each row's seed y^3), with the camera's origin and direction as
// arguments. Checked: its gradient with respect to the camera and to every
// sphere's radius, position, emission and color (the table's shadow is a
// second table, registered with adcc's __enzyme_shadow_global_* form, in
// which reverse mode accumulates) against central differences, and the
// tangent along a direction in all of them (forward mode, the shadow table
// holding the direction) against the gradient. The colors are tinted so
// that no two channels tie (see main). Emission enters linearly:
// its gradient is also checked against the image rendered with one
// emission set to 1 and the others to 0. Run by smallpt.sh.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>

#define main smallpt_main
#include "smallpt.cpp"
#undef main

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

namespace {

constexpr int NumSpheres = sizeof(spheres) / sizeof(Sphere);

Sphere zeroSphere() { return Sphere(0, Vec(), Vec(), Vec(), DIFF); }

} // namespace

// The table's shadow: the same type, registered for the global.
Sphere d_spheres[] = {zeroSphere(), zeroSphere(), zeroSphere(),
                      zeroSphere(), zeroSphere(), zeroSphere(),
                      zeroSphere(), zeroSphere(), zeroSphere()};
void *__enzyme_shadow_global_spheres[2] = {(void *)spheres,
                                           (void *)d_spheres};

namespace {

constexpr int W = 1024, H = 768;
// Pixels looking at the walls, the ceiling light, the mirror and the glass.
constexpr int NumPixels = 10;
const int PixelX[NumPixels] = {200, 310, 512, 700, 640, 660, 820, 400, 100, 900};
const int PixelY[NumPixels] = {300, 250, 700, 200, 180, 230, 400, 500, 60, 600};

int Samples = 2; // per subpixel

// A weighted sum of the colors of the pixels above, camera = origin (3) and
// direction (3); smallpt's main loop for those pixels, without the clamp.
double image(const double *camera, const double *weight) {
  Ray cam(Vec(camera[0], camera[1], camera[2]),
          Vec(camera[3], camera[4], camera[5]).norm());
  Vec cx = Vec(W * .5135 / H), cy = (cx % cam.d).norm() * .5135;
  double sum = 0;
  for (int k = 0; k < NumPixels; ++k) {
    int x = PixelX[k], y = PixelY[k];
    unsigned short Xi[3] = {0, 0, (unsigned short)(y * y * y)};
    Vec c;
    for (int sy = 0; sy < 2; sy++)
      for (int sx = 0; sx < 2; sx++) {
        Vec r;
        for (int s = 0; s < Samples; s++) {
          double r1 = 2 * erand48(Xi),
                 dx = r1 < 1 ? sqrt(r1) - 1 : 1 - sqrt(2 - r1);
          double r2 = 2 * erand48(Xi),
                 dy = r2 < 1 ? sqrt(r2) - 1 : 1 - sqrt(2 - r2);
          Vec d = cx * (((sx + .5 + dx) / 2 + x) / W - .5) +
                  cy * (((sy + .5 + dy) / 2 + y) / H - .5) + cam.d;
          r = r + radiance(Ray(cam.o + d * 140, d.norm()), 0, Xi) *
                      (1. / Samples);
        }
        c = c + r * .25;
      }
    sum += weight[3 * k] * c.x + weight[3 * k + 1] * c.y +
           weight[3 * k + 2] * c.z;
  }
  return sum;
}

// The sphere's numbers: radius, position, emission, color.
constexpr int NumbersPerSphere = 10;
double *number(Sphere *table, int s, int j) {
  Sphere &sp = table[s];
  double *v[NumbersPerSphere] = {&sp.rad, &sp.p.x, &sp.p.y, &sp.p.z,
                                 &sp.e.x, &sp.e.y, &sp.e.z, &sp.c.x,
                                 &sp.c.y, &sp.c.z};
  return v[j];
}
const char *const NumberName[NumbersPerSphere] = {
    "radius", "p.x", "p.y", "p.z", "e.x", "e.y", "e.z", "c.x", "c.y", "c.z"};

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

double centralDifference(double *x, double h, const double *camera,
                         const double *weight) {
  double saved = *x;
  *x = saved + h;
  double up = image(camera, weight);
  *x = saved - h;
  double down = image(camera, weight);
  *x = saved;
  return (up - down) / (2 * h);
}

void zeroShadows() {
  for (int s = 0; s < NumSpheres; ++s)
    for (int j = 0; j < NumbersPerSphere; ++j)
      *number(d_spheres, s, j) = 0;
}

} // namespace

int main() {
  // smallpt picks the largest color channel as the probability of Russian
  // roulette: where two channels tie (every gray sphere), the color's
  // derivative has a kink that central differences straddle. Tint the
  // scene so that each color has one largest channel.
  for (int s = 0; s < NumSpheres; ++s) {
    spheres[s].c.y *= 0.97;
    spheres[s].c.z *= 0.94;
  }
  double camera[6] = {50, 52, 295.6, 0, -0.042612, -1};
  double weight[3 * NumPixels];
  for (int i = 0; i < 3 * NumPixels; ++i)
    weight[i] = 1 + 0.1 * (i % 7);

  // Reverse mode: the camera's adjoint in d_camera, the scene's in
  // d_spheres.
  zeroShadows();
  double d_camera[6] = {};
  __enzyme_autodiff((void *)image, enzyme_dup, camera, d_camera,
                    enzyme_const, weight);
  double gradScene[NumSpheres][NumbersPerSphere];
  double gradSize = 0;
  for (int s = 0; s < NumSpheres; ++s)
    for (int j = 0; j < NumbersPerSphere; ++j) {
      gradScene[s][j] = *number(d_spheres, s, j);
      gradSize = std::fmax(gradSize, std::fabs(gradScene[s][j]));
    }
  for (int i = 0; i < 6; ++i)
    gradSize = std::fmax(gradSize, std::fabs(d_camera[i]));
  std::printf("image %.9g, largest derivative %.6g\n",
              image(camera, weight), gradSize);
  if (!(gradSize > 0)) {
    std::printf("the gradient is zero  FAIL\n");
    return 1;
  }

  // Central differences. The walls are spheres of radius 1e5, whose
  // intersection loses digits: steps of 1e-4 there, 1e-6 elsewhere.
  for (int i = 0; i < 6; ++i) {
    double h = i < 3 ? 1e-5 : 1e-7;
    check("camera", i, d_camera[i],
          centralDifference(&camera[i], h, camera, weight), 1e-4, 1e-3);
  }
  for (int s = 0; s < NumSpheres; ++s)
    for (int j = 0; j < NumbersPerSphere; ++j) {
      double *x = number(spheres, s, j);
      double h = spheres[s].rad > 1000 && j < 4 ? 1e-4 : 1e-6;
      char what[64];
      std::snprintf(what, sizeof what, "sphere %d %s", s, NumberName[j]);
      check(what, s, gradScene[s][j],
            centralDifference(x, h, camera, weight), 1e-4, 1e-3);
    }

  // Emission is linear: the image with one emission 1 and the rest 0.
  double savedE[NumSpheres][3];
  for (int s = 0; s < NumSpheres; ++s)
    for (int j = 0; j < 3; ++j) {
      savedE[s][j] = *number(spheres, s, 4 + j);
      *number(spheres, s, 4 + j) = 0;
    }
  for (int s = 0; s < NumSpheres; ++s)
    for (int j = 0; j < 3; ++j) {
      *number(spheres, s, 4 + j) = 1;
      check("emission (linear)", 3 * s + j, gradScene[s][4 + j],
            image(camera, weight), 1e-12, 1e-12);
      *number(spheres, s, 4 + j) = 0;
    }
  for (int s = 0; s < NumSpheres; ++s)
    for (int j = 0; j < 3; ++j)
      *number(spheres, s, 4 + j) = savedE[s][j];

  // Forward mode along a direction in the camera and the whole scene.
  double dirCamera[6], dot = 0;
  for (int i = 0; i < 6; ++i) {
    dirCamera[i] = 0.3 - 0.1 * i;
    dot += dirCamera[i] * d_camera[i];
  }
  for (int s = 0; s < NumSpheres; ++s)
    for (int j = 0; j < NumbersPerSphere; ++j) {
      double v = 0.05 * ((s * NumbersPerSphere + j) % 5) - 0.1;
      *number(d_spheres, s, j) = v;
      dot += v * gradScene[s][j];
    }
  double tangent = __enzyme_fwddiff((void *)image, enzyme_dup, camera,
                                    dirCamera, enzyme_const, weight);
  check("forward along a direction", 0, tangent, dot, 1e-9, gradSize);
  zeroShadows();

  // One sample per subpixel and four: other lengths of the random stream.
  for (int samples : {1, 4}) {
    Samples = samples;
    double d_cam[6] = {};
    zeroShadows();
    __enzyme_autodiff((void *)image, enzyme_dup, camera, d_cam, enzyme_const,
                      weight);
    for (int i = 0; i < 6; ++i) {
      double h = i < 3 ? 1e-5 : 1e-7;
      check("camera, other sample counts", i, d_cam[i],
            centralDifference(&camera[i], h, camera, weight), 1e-4, 1e-3);
    }
    for (int s = 0; s < NumSpheres; ++s)
      for (int j : {1, 7}) {
        double h = spheres[s].rad > 1000 ? 1e-4 : 1e-6;
        check("scene, other sample counts", s, *number(d_spheres, s, j),
              centralDifference(number(spheres, s, j), h, camera, weight),
              1e-4, 1e-3);
      }
  }
  zeroShadows();
  std::printf("%s: %d checks, %d failed (smallpt)\n",
              failures ? "FAIL" : "ok", checks, failures);
  return failures ? 1 : 0;
}
