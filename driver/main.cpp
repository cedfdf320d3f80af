//===- main.cpp - The adcc and adcc++ executables ------------------------===//

#include "driver/Driver.h"

int main(int Argc, const char **Argv) {
  return adcc::driver::run(Argc, Argv, reinterpret_cast<void *>(&main));
}
