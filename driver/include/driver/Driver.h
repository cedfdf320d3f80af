//===- driver/Driver.h - The adcc command ---------------------*- C++ -*-===//
#ifndef ADCC_DRIVER_DRIVER_H
#define ADCC_DRIVER_DRIVER_H

namespace adcc::driver {

/// Runs the adcc (or adcc++) command line \p Argv: adcc's own options, then
/// the clang command line through Clang's driver library, with compile jobs
/// in this process and link jobs as processes. Returns the exit status: 0 on
/// success, 1 on any error. \p MainAddr is the address of `main`.
int run(int Argc, const char **Argv, void *MainAddr);

} // namespace adcc::driver

#endif // ADCC_DRIVER_DRIVER_H
