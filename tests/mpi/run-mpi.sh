#!/usr/bin/env bash
# Compiles one MPI program with adcc as MPI's C compiler (OMPI_CC=adcc
# mpicc) at one optimization level and runs it under mpirun with each
# number of ranks given; requires exit status 0 and a last line "ok".
#   run-mpi.sh SOURCE LEVEL NP...      (ADCC from the environment)
# With MPI_EXPECT_ERROR set, each run must fail and print that text.
# A SOURCE with a companion SOURCE_lib.c is compiled with it, each with -c,
# and linked. Without mpicc or mpirun the test is skipped (77) with a
# message.
set -euo pipefail
src=$1
level=$2
shift 2
for tool in mpicc mpirun; do
  command -v "$tool" >/dev/null || {
    echo "SKIP: $tool not found (Debian: openmpi-bin, libopenmpi-dev)"
    exit 77
  }
done
name=$(basename "${src%.*}")
out="$PWD/${name}${level}"
extra=()
[[ $level == -O0 ]] && extra+=(-g)
export OMPI_CC=${ADCC:?}
lib=${src%.c}_lib.c
if [[ -f $lib ]]; then
  # (Two files compiled apart, then linked: derivatives made at link time.)
  for f in "$src" "$lib"; do
    echo "+ OMPI_CC=$ADCC mpicc $level ${extra[*]} -c $f"
    mpicc "$level" "${extra[@]}" -Wall -Werror -c "$f" \
      -o "$out.$(basename "${f%.c}").o"
  done
  mpicc "$out.$name.o" "$out.$(basename "${lib%.c}").o" -o "$out" -lm
else
  echo "+ OMPI_CC=$ADCC mpicc $level ${extra[*]} $src -o $out -lm"
  mpicc "$level" "${extra[@]}" -Wall -Werror "$src" -o "$out" -lm
fi
# (Under root OpenMPI wants to be told; --oversubscribe: more ranks than
# cores.)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# (Containers often forbid the cross-memory attach of OpenMPI's shared
# memory transport; copy through the shared segment instead.)
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
for np in "$@"; do
  echo "+ mpirun -np $np $out"
  status=0
  output=$(timeout 60 mpirun --oversubscribe -np "$np" "$out" 2>&1) ||
    status=$?
  echo "$output"
  if [[ -n ${MPI_EXPECT_ERROR:-} ]]; then
    # (A program that must stop with this message.)
    [[ $status != 0 ]] || {
      echo "FAIL: $name at $level with $np ranks did not fail" >&2
      exit 1
    }
    grep -qF "$MPI_EXPECT_ERROR" <<<"$output" || {
      echo "FAIL: $name did not print: $MPI_EXPECT_ERROR" >&2
      exit 1
    }
    continue
  fi
  [[ $status == 0 ]] || {
    echo "FAIL: $name at $level with $np ranks exited with status $status" >&2
    exit 1
  }
  [[ $(tail -n 1 <<<"$output") == ok ]] || {
    echo "FAIL: $name at $level with $np ranks did not print ok" >&2
    exit 1
  }
done
