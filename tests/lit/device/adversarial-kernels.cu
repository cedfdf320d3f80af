// The kernels of tests/gpu/gpu_adversarial.cu (grid-stride loops, shared
// tree and warp-shuffle reductions, atomicAdd, a struct of arrays by
// pointer, __restrict__ on some arrays, templates from a header; run on the
// grid emulation by ctest gpu.emulated_adversarial-O0/-O2, on a GPU by
// tests/gpu/run-gpu-tests.sh): their device code and derivative kernels
// are accepted by ptxas for sm_80 (-O0) and sm_90 (-O2). The header's
// template kernels, differentiated in two files (Inputs/adversarial-
// other.cu) with -fgpu-rdc: their derivative kernels are weak, as the
// kernels are, and the device link keeps one of each (before 2026-12-06
// they were strong, and nvlink refused the second file's: "Multiple
// definition of '__adcc_rev__Z14header_stencil...'").
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S %S/../../gpu/gpu_adversarial.cu -o %t/a80.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -S %S/../../gpu/gpu_adversarial.cu -o %t/a90.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/a80.ptx -o %t/a80.cubin
// RUN: %ptxas -arch=sm_90 %t/a90.ptx -o %t/a90.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/a80.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/a90.ptx
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -fgpu-rdc --cuda-device-only -S %S/Inputs/adversarial-other.cu -o %t/rdc.ptx -Wno-unknown-cuda-version
// RUN: FileCheck %s --check-prefix=RDC < %t/rdc.ptx
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -fgpu-rdc --cuda-device-only -c %S/../../gpu/gpu_adversarial.cu -o %t/a.o -Wno-unknown-cuda-version
// RUN: %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -fgpu-rdc --cuda-device-only -c %S/Inputs/adversarial-other.cu -o %t/b.o -Wno-unknown-cuda-version
// RUN: %cuda_path/bin/nvlink -arch=sm_90 %t/a.o %t/b.o -o %t/ab.cubin

// Every launched kernel has its four derivative kernels (at -O0 too, where
// atomicAdd is a call whose result the program drops).
// PTX-DAG: .entry __adcc_rev__Z10gridstridePKdPdid(
// PTX-DAG: .entry __adcc_rev__Z7treesumPKdPd(
// PTX-DAG: .entry __adcc_rev__Z7warpsumPKdPdi(
// PTX-DAG: .entry __adcc_rev__Z9histogramIdEvPKT_PS0_(
// PTX-DAG: .entry __adcc_fwd__Z9histogramIfEvPKT_PS0_(
// PTX-DAG: .entry __adcc_rev__Z3soaPK3SoAd(
// PTX-DAG: .entry __adcc_rev__Z7partialPKdS0_PdS0_(
// PTX-DAG: .entry __adcc_rev__Z14scale_restrictPdPKd(
// PTX-DAG: .entry __adcc_rev__Z14header_stencilIfEvPKT_PS0_i(
// PTX-DAG: .entry __adcc_aug__Z14header_inplaceIdEvPT_PKS0_(

// RDC-DAG: .weak .entry __adcc_fwd__Z14header_stencilIdEvPKT_PS0_i(
// RDC-DAG: .weak .entry __adcc_aug__Z14header_stencilIdEvPKT_PS0_i(
// RDC-DAG: .weak .entry __adcc_rev__Z14header_stencilIdEvPKT_PS0_i(
// RDC-DAG: .weak .entry __adcc_size__Z14header_inplaceIdEvPT_PKS0_(
