# lit configuration for adcc's IR, driver and diagnostics tests.
import os
import shutil
import sys

import lit.formats

config.name = "adcc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".c", ".cpp", ".cu", ".ll", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.adcc_obj_root, "tests", "lit")

# Tools: adcc's own binaries first, then LLVM 22's FileCheck, not, split-file.
path = os.pathsep.join([config.adcc_bin_dir, config.llvm_tools_dir,
                        config.environment.get("PATH", os.environ["PATH"])])
config.environment["PATH"] = path
# Keep the user's temporary directory out of tests that count temporaries.
for var in ("TMPDIR", "HOME", "LIBRARY_PATH", "CPATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

def tool(name):
    return os.path.join(config.adcc_bin_dir, name)

# Longer names first: lit substitutes in order.
# %expect-exit N CMD: CMD must exit with exactly status N and print no crash
# signature (tests/lit/Inputs/expect_exit.py).
config.substitutions.append(("%expect-exit", '"%s" "%s"' % (
    sys.executable,
    os.path.join(config.test_source_root, "Inputs", "expect_exit.py"))))
# %close-values TOL A B: two outputs of numbers agree to within TOL
# (tests/lit/Inputs/close_values.py).
config.substitutions.append(("%close-values", '"%s" "%s"' % (
    sys.executable,
    os.path.join(config.test_source_root, "Inputs", "close_values.py"))))
config.substitutions.append(("%python", '"%s"' % sys.executable))
# The host's target triple (device IR rewritten for a host emulation).
import subprocess
config.substitutions.append(("%host-triple", subprocess.run(
    [os.path.join(config.llvm_tools_dir, "clang"), "-print-target-triple"],
    capture_output=True, text=True).stdout.strip()))
config.substitutions.append(("%clang\\+\\+", os.path.join(
    config.llvm_tools_dir, "clang++")))
config.substitutions.append(("%adcc-opt", tool("adcc-opt")))
config.substitutions.append(("%adcc\\+\\+", tool("adcc++")))
config.substitutions.append(("%adcc", tool("adcc")))
config.substitutions.append(("%clang", os.path.join(config.llvm_tools_dir,
                                                    "clang")))
config.substitutions.append(("%resource", os.path.join(config.adcc_obj_root,
                                                       "lib", "adcc")))
config.substitutions.append(("%cuda_path", config.cuda_path))

ptxas = os.path.join(config.cuda_path, "bin", "ptxas")
if os.path.exists(ptxas):
    config.available_features.add("cuda")
    config.substitutions.append(("%ptxas", ptxas))
else:
    lit_config.note("CUDA toolkit not found at %s: CUDA tests are skipped "
                    "(reported as UNSUPPORTED)" % config.cuda_path)

# Tests that watch which programs adcc starts.
if shutil.which("strace"):
    config.available_features.add("strace")

if shutil.which("llvm-readelf", path=config.llvm_tools_dir):
    config.available_features.add("llvm-readelf")
