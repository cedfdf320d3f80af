# Derivative fuzzing on a fixed set of seeds (docs/testing.md, "Derivative
# fuzzing"): each seed's generated program (tools/adfuzz/gen.py) compares
# forward mode, reverse mode and central finite differences, built by adcc at
# -O0 and -O2, and the two builds must agree. The seeds below all passed when
# they were chosen; --fail-on-unsupported keeps a seed that becomes
# "not supported yet" from silently shrinking the test. Failing cases are kept
# in ./<test name>-failures of this build directory, each with a repro.sh.
# Changing the generator (GENERATOR_VERSION in gen.py) changes the programs:
# re-check the seeds then.
# Regressions found by campaigns: 1190 and 1215 (a loop whose entering block
# also branches around it pushed its array of records even when skipped);
# 11114 (a power product that also adds one of its factors,
# fmuladd(-a, a, a), lost that addend's adjoint at -O2). Seeds 2 and 16 copy
# arrays of structs (generator version 2). Version 3 adds stencil helpers:
# 1, 9, 27, 29 and 30 have one; 112 and 5234 (a copy loop that -O2 turned
# into i64 loads carried through a phi, with a double's bits joining it in
# 5234: not supported in reverse mode until FloatCopies.cpp).
# CI runs these; the rest of seeds 1-20, which draw no construct these do
# not (the features their programs list), are in the extended suite
# (adfuzz-fixed-more, scripts/all-levels.sh).
set(ADCC_ADFUZZ_SEEDS "1 2 9 16 27 29 30 112 1190 1215 5234 11114")
set(ADCC_ADFUZZ_SEEDS_MORE "3 4 5 6 7 8 10 11 12 13 14 15 17 18 19 20")
# Generator version 5 adds what Enzyme users' code does and the team's
# idioms did not: a double's bits through integers (memcpy, a union, an
# integer array), maxima and minima with ties at the test point, tables of
# pointers mixing constant and duplicated rows (on the heap, or filled by a
# function that is not inlined), __restrict__ helpers, a constant global
# table, an integer call counter, and Hessians by forward over reverse mode.
# Seed 1 first failed at -O0: a union's integer member copied into an
# integer variable lost its derivative; 50 and 53 crashed at run time (a
# table of pointers holding a constant global table's address; in 53 filled
# by a function that is not inlined).
# CI runs the three and 14 and 27, which draw every feature of the others
# (extended suite: adfuzz-fixed-v5-more).
set(ADCC_ADFUZZ_SEEDS_V5 "1 50 53 14 27")
set(ADCC_ADFUZZ_SEEDS_V5_MORE "6 8 29 35 46 56 59 70 80")
# Version 6 adds a constant state (enzyme_const) that f overwrites and reads
# back: scratch shadows. Seeds with a state-updating helper, Hessians (11,
# 14, 17, 21: their inner gradient passes its own copy enzyme_dup) and
# pointer tables (39, 51); 9 writes the state without the helper.
set(ADCC_ADFUZZ_SEEDS_V6 "6 9 11 14 17 21 39 51")
# (version 7: seeds with an aligned-peel sum, docs/testing.md)
set(ADCC_ADFUZZ_SEEDS_V7 "6 9 17 23 35")
# (version 8: structs with pointers copied whole, 4 27 29 crashed before the
# fix; 1 2 5: gradients accumulated into shadows that hold values)
set(ADCC_ADFUZZ_SEEDS_V8 "1 2 5 4 27 29")
# (version 9: heap arrays of structs of a run-time count copied whole: 4
# element by element, 18 memcpy, 88 memmove, 29 element by element)
set(ADCC_ADFUZZ_SEEDS_V9 "4 18 29 88")
# (version 10: structs holding pointers shifted up and down by overlapping
# memmoves, the elements mixed: what the ascending shadow copy got wrong;
# 98: a wrong gradient at -O2/-O3 until 2026-12-06, a noinline helper's
# records kept in one frame slot for all iterations of the loop calling
# it, e2e rev_callee_loop_records.c; 306 and 331: Hessians by forward over
# reverse, reported refused at -O3 and -O1 (float bits in the forward
# derivative of the reverse sweep); they pass at -O0..-O3 since 2026-12-06)
set(ADCC_ADFUZZ_SEEDS_V10 "7 23 138 1 2 98 306 331")
# (version 11: a double's bits passed to and returned from functions as
# integers; reverse mode refused each of these before it followed them;
# 248: a Hessian by forward over reverse of such a function, refused at -O0
# like v10's 306 and 331)
set(ADCC_ADFUZZ_SEEDS_V11 "1 6 28 31 59 248")
# (version 12: batched forward mode, two inputs per width-2 call against
# the width-1 columns; 1 6 8 14 15 crashed adcc in the lane analysis of a
# loop without a preheader, as version 11 of the batched check)
set(ADCC_ADFUZZ_SEEDS_V12 "1 6 8 14 15")
# (version 13: a noinline helper called in do-while loops; 42 72 88 144 got
# wrong gradients at -O2 before the fix of 2026-12-06, the callee's records
# kept in one frame slot for every iteration)
set(ADCC_ADFUZZ_SEEDS_V13 "42 72 88 144 15 98")
# (version 14: a struct argument whose shadow the caller zeroes, the data
# behind its null shadow pointer overwritten and read back; before the fix
# of 2026-12-06 4 5 12 gave wrong gradients at -O0 (the write went to a
# sink), 5 also shared one scratch between the lanes of batched forward
# mode, 11 and 30 crashed at -O2 in forward over reverse; 36 and 89 (no such
# struct: a pointer table mixing constant and duplicated rows) lost second
# derivatives through a stored shadow pointer)
set(ADCC_ADFUZZ_SEEDS_V14 "4 5 11 12 30 36 89")
# (version 15: a struct of cells whose shadow shares the primal's table of
# counts; before the fix of 2026-12-06 9 22 23 30 gave wrong tangents and
# primal outputs at -O2, forward mode writing a tangent of 1 into the
# shadow's count, the primal's own)
set(ADCC_ADFUZZ_SEEDS_V15 "9 22 23 30")
# (version 16: the gradient by split mode, augmented then reverse sweep,
# against the one call's, the zeroed shadow struct of version 14 included;
# 12 13 36 43 47 crashed at -O0 before 2026-12-06: split mode did not
# guard the null shadow pointer; 14 also has the shared count table; 9019
# was refused at -O2 before 2026-12-06: a double copied as an integer
# through a pointer whose shadow may be null)
set(ADCC_ADFUZZ_SEEDS_V16 "12 13 36 43 47 14 9019")
# (version 17: the cells' values also written through a `void *` field and
# moved between cells by a noinline helper's memcpy through it; 9 22 23 41
# gave wrong gradients at -O2 before 2026-12-06: the i64 copy was untyped)
set(ADCC_ADFUZZ_SEEDS_V17 "9 22 23 41")
# (version 18: split forward mode and forward over forward, the zeroed
# shadow struct of version 14 included: 11 41 split forward, 10 12 forward
# over forward, 17 19 both. Written as version 17 by their author before
# the merge, that version's seeds 4 and 11 crashed at -O0 before the fixes
# of 2026-12-06 (fwdsplit's tangent sweep wrote through the null shadow)
# and 10 12 13 41 gave a wrong Hessian diagonal at -O0 (one scratch shadow
# for both levels); picked at the merge: these version-18 seeds draw
# the same features)
set(ADCC_ADFUZZ_SEEDS_V18 "11 41 10 12 17 19")
# (version 18 without TBAA, -fno-strict-aliasing: the cells' shared count
# table; at -O2 forward mode stored "shadow + 1" into the count until
# 2026-12-06, so the primal outputs of __enzyme_fwddiff were wrong)
set(ADCC_ADFUZZ_SEEDS_V18_NSA "41 67")
# (version 19: the cells' copy helper indexes the `void *` by bytes, and f
# writes the values through it, through the other field (the same memory)
# or both; run with and without -fno-strict-aliasing. 1 and 4: a cursor and
# a memmove, written through the field; 6, 73 and 150: written through both
# fields; 146: a `char *` cast. Seeds that write only through the other
# field (22 31 42 44 of 1-44) are the located error, counted unsupported;
# before 2026-12-06 such a copy lost its adjoint at -O2 without TBAA.
# 178: a Hessian by forward over reverse through a saturated tanh, NaN at
# -O0 until 2026-12-06: e2e hvp_saturated.c)
set(ADCC_ADFUZZ_SEEDS_V19 "1 4 6 73 146 150 178")
# (version 20: a reduction helper that is an OpenMP parallel loop with
# reduction(+), compiled with -fopenmp: gradients, tangents, batched and
# split modes through the parallel region; seeds whose programs have one,
# all passing when chosen. Of seeds 1-60, 6, 7 and 25 (a Hessian by forward
# over reverse) and 56 (split forward mode) are refused as not supported
# yet; before 2026-12-06 the first three failed at link time naming adcc's
# runtime. Version 20 includes version 19's byte-indexed copies since the
# merge: seed 46 then drew a Hessian (refused) and was replaced by 106.
# Since 2026-12-06 Hessians through regions work: 6, 25 and 46 pass; 7 is
# refused for its split forward mode; 25 and 46 are kept here.)
# (15 and 42 draw no feature the others do not: extended suite,
# adfuzz-fixed-v20-more.)
set(ADCC_ADFUZZ_SEEDS_V20 "3 37 106 57 25 46")
set(ADCC_ADFUZZ_SEEDS_V20_MORE "15 42")
# (version 21: the Hessian also by reverse mode over forward mode, with the
# zeroed struct's null shadow in the inner call. 5, 38 and 133 of the 15
# seeds of 1-200 that draw it gave a wrong Hessian at -O0 until 2026-12-06
# (the scratch shadow behind the null shadow had no shadow); 60 passed.)
set(ADCC_ADFUZZ_SEEDS_V21 "5 38 133 60")
# (version 22: a double's bits given a new exponent, `b += K << 52`, as
# fdlibm's scalbn and pow do, followed since 2026-12-06 (it was an error).
# Seeds whose programs have one, all passing when chosen. 6 and 103 failed
# at -O0 until 2026-12-06, with or without it: split forward mode's tangent
# sweep compared recorded pointers with its own stack slots' addresses (a
# function pointer read as a stack address, a tape read short; e2e
# fwd_split_stack_slots.c). 216: forward over forward gave a wrong Hessian
# at every level until 2026-12-06, the construct rewritten twice.)
# (31 and 68 draw no feature the others do not: extended suite,
# adfuzz-fixed-v22-more.)
set(ADCC_ADFUZZ_SEEDS_V22 "1 16 20 74 6 103 216")
set(ADCC_ADFUZZ_SEEDS_V22_MORE "31 68")
# (version 23: the recursive helper calls itself first with its scalar
# unchanged, some calls with a constant scalar literal; 182 and 276 failed
# at -O2 until 2026-12-06 (a tape size mismatch, a NaN gradient: the base
# case's record read from a frame slot nothing wrote, e2e
# rev_recursive_constant_args.c); 41 and 92 have the same shapes; 245's
# Hessian was wrong at -O0 and -O2 until 2026-12-06: a new exponent in a
# double's bits counted twice by forward over reverse, e2e
# hvp_scaled_float_bits.c)
set(ADCC_ADFUZZ_SEEDS_V23 "182 276 41 92 245")
# (version 24, tools/adfuzz/gen_v24.py: a global accumulator with a
# derivative, cleared by f and added to inline, by a noinline deposit
# function (1, 52) or through its address (46), a global struct tallying a
# count, a sum and a sum of squares (7); a struct of arrays passed by
# pointer to step and sum functions, on the stack (1, 7, 34) or the heap
# (52), its count from n (7, 34, 52); a table of operations, local (1),
# constant global (34) or registered by a noinline function (46, 52), with
# a constant code table (52). 34 checks its Hessian too. All passed when
# chosen. 236's forward-over-forward Hessian diagonal was wrong at -O1 (NaN
# or stale stack values) until 2026-12-06: the inner derivative's shadow
# alias scopes kept in the outer one, e2e fwd_over_fwd_scopes.c at -O1)
set(ADCC_ADFUZZ_SEEDS_V24 "1 7 34 46 52 236")
# Version 25 (version 24's constructs and feature byte-reuse): a local
# buffer holding a pointer to an array, then a double: the pointer's shadow
# was read as the double's adjoint until 2026-12-06 (issue 33), in the runs
# where its address bits made a large double (the e2e tests
# rev_pool_reuse.cpp and rev_stale_pointer_shadows.c fix the address). 53
# and 105 draw it (on the branch that made the feature, before version
# 24's constructs came first in the draws, 16 drew it and 125 crashed at
# -O0 with a first form of the fix: a memmove of structs holding pointers
# lost their shadows). 1726: split forward mode's tangent at -O2 read the
# record of atan where that of a sin (moved up next to a cos to give its
# partial) belonged until 2026-12-06 (e2e fwd_split_companions.c).
set(ADCC_ADFUZZ_SEEDS_V25 "53 105 16 125 1726")
# Version 26 (feature byte-reuse-double-first): the other order, a double
# written and read back, then a pointer stored over its high half. 53, 95,
# 105 and 149 draw it; with the compiler from before the fix (2026-12-06)
# 2 to 4 of the 7 seeds below 400 that draw it failed in each run (the
# pointer's shadow read as the double's adjoint, its address bits the
# exponent).
set(ADCC_ADFUZZ_SEEDS_V26 "53 95 105 149")
# (version 27: a malloc'd workspace of doubles and int pivots copied out
# with memcpy, lmfit's lmmin2; seed 4 was refused at -O0 and -O2 before
# the fixes of issue 33's realcode9 task.)
set(ADCC_ADFUZZ_SEEDS_V27 "4 10")
# Version 28 (features int-pointer-tag, int-pointer-offset,
# int-pointer-parameter): an array read through a pointer made from an
# integer. 4 and 30 draw the tag, 9 and 16 the parameter, 55 the offset;
# with the adcc before 2026-12-07, 9 and 16 were refused at -O0 ("a value
# with a derivative is stored into memory that has no shadow").
set(ADCC_ADFUZZ_SEEDS_V28 "4 9 16 30 55")
# Version 29 (tools/adfuzz/gen_v29.py): memory reused for records of other
# types. 2 draws a pool whose links lie at byte 4 (pool-packed-links), 3
# and 12 one linked through `void *` (3 with nodes in its blocks), 5 a
# union's pool with records holding pointers and nodes, 6 and 8 tables of
# rows whose bytes are reused for doubles, 1 2 3 5 6 12 nodes linked by f
# or by a callee. The seeds that fail are in docs/testing.md.
set(ADCC_ADFUZZ_SEEDS_V29 "2 3 5 6 8 12")
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  set(ADCC_ADFUZZ_PYTHON "${Python3_EXECUTABLE}")
else()
  set(ADCC_ADFUZZ_PYTHON python3)
endif()
# adcc_adfuzz_test(NAME VERSION SEEDS [FLAGS]): the seeds' programs of that
# generator version, at -O0 and -O2, compiled with FLAGS (-fopenmp).
function(adcc_adfuzz_test name version seeds)
  set(flags)
  if(ARGN)
    set(flags --extra-flags "${ARGN}")
  endif()
  add_test(NAME ${name}
    COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/adfuzz.sh"
      --cc "${ADCC_EXE}" --python "${ADCC_ADFUZZ_PYTHON}"
      --gen-version ${version} --seeds "${seeds}" --jobs 2
      --fail-on-unsupported -q ${flags}
      --keep "${CMAKE_CURRENT_BINARY_DIR}/${name}-failures"
    WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
endfunction()
# adcc_adfuzz_more(NAME VERSION SEEDS [FLAGS]): the same in the extended
# suite (tests/CMakeLists.txt).
function(adcc_adfuzz_more name version seeds)
  set(flags)
  if(ARGN)
    set(flags --extra-flags "${ARGN}")
  endif()
  adcc_extended_test(${name} "${CMAKE_CURRENT_BINARY_DIR}" ""
    bash "${PROJECT_SOURCE_DIR}/scripts/adfuzz.sh"
      --cc "${ADCC_EXE}" --python "${ADCC_ADFUZZ_PYTHON}"
      --gen-version ${version} --seeds "${seeds}" --jobs 2
      --fail-on-unsupported -q ${flags}
      --keep "${CMAKE_CURRENT_BINARY_DIR}/${name}-failures"
    PROPERTIES PROCESSORS 2 TIMEOUT 600)
endfunction()
adcc_adfuzz_more(adfuzz-fixed-more 4 "${ADCC_ADFUZZ_SEEDS_MORE}")
adcc_adfuzz_more(adfuzz-fixed-v5-more 5 "${ADCC_ADFUZZ_SEEDS_V5_MORE}")
adcc_adfuzz_more(adfuzz-fixed-v20-more 20 "${ADCC_ADFUZZ_SEEDS_V20_MORE}"
  -fopenmp)
adcc_adfuzz_more(adfuzz-fixed-v22-more 22 "${ADCC_ADFUZZ_SEEDS_V22_MORE}")
adcc_adfuzz_test(adfuzz-fixed 4 "${ADCC_ADFUZZ_SEEDS}")
adcc_adfuzz_test(adfuzz-fixed-v5 5 "${ADCC_ADFUZZ_SEEDS_V5}")
adcc_adfuzz_test(adfuzz-fixed-v6 6 "${ADCC_ADFUZZ_SEEDS_V6}")
adcc_adfuzz_test(adfuzz-fixed-v7 7 "${ADCC_ADFUZZ_SEEDS_V7}")
adcc_adfuzz_test(adfuzz-fixed-v8 8 "${ADCC_ADFUZZ_SEEDS_V8}")
adcc_adfuzz_test(adfuzz-fixed-v9 9 "${ADCC_ADFUZZ_SEEDS_V9}")
adcc_adfuzz_test(adfuzz-fixed-v10 10 "${ADCC_ADFUZZ_SEEDS_V10}")
adcc_adfuzz_test(adfuzz-fixed-v11 11 "${ADCC_ADFUZZ_SEEDS_V11}")
adcc_adfuzz_test(adfuzz-fixed-v12 12 "${ADCC_ADFUZZ_SEEDS_V12}")
adcc_adfuzz_test(adfuzz-fixed-v13 13 "${ADCC_ADFUZZ_SEEDS_V13}")
adcc_adfuzz_test(adfuzz-fixed-v14 14 "${ADCC_ADFUZZ_SEEDS_V14}")
adcc_adfuzz_test(adfuzz-fixed-v15 15 "${ADCC_ADFUZZ_SEEDS_V15}")
adcc_adfuzz_test(adfuzz-fixed-v16 16 "${ADCC_ADFUZZ_SEEDS_V16}")
adcc_adfuzz_test(adfuzz-fixed-v17 17 "${ADCC_ADFUZZ_SEEDS_V17}")
adcc_adfuzz_test(adfuzz-fixed-v18 18 "${ADCC_ADFUZZ_SEEDS_V18}")
adcc_adfuzz_test(adfuzz-fixed-v18-nsa 18 "${ADCC_ADFUZZ_SEEDS_V18_NSA}"
  -fno-strict-aliasing)
adcc_adfuzz_test(adfuzz-fixed-v19 19 "${ADCC_ADFUZZ_SEEDS_V19}")
adcc_adfuzz_test(adfuzz-fixed-v19-nsa 19 "${ADCC_ADFUZZ_SEEDS_V19}"
  -fno-strict-aliasing)
adcc_adfuzz_test(adfuzz-fixed-v20 20 "${ADCC_ADFUZZ_SEEDS_V20}" -fopenmp)
adcc_adfuzz_test(adfuzz-fixed-v21 21 "${ADCC_ADFUZZ_SEEDS_V21}")
adcc_adfuzz_test(adfuzz-fixed-v22 22 "${ADCC_ADFUZZ_SEEDS_V22}")
adcc_adfuzz_test(adfuzz-fixed-v23 23 "${ADCC_ADFUZZ_SEEDS_V23}")
adcc_adfuzz_test(adfuzz-fixed-v24 24 "${ADCC_ADFUZZ_SEEDS_V24}")
adcc_adfuzz_test(adfuzz-fixed-v25 25 "${ADCC_ADFUZZ_SEEDS_V25}")
adcc_adfuzz_test(adfuzz-fixed-v26 26 "${ADCC_ADFUZZ_SEEDS_V26}")
adcc_adfuzz_test(adfuzz-fixed-v27 27 "${ADCC_ADFUZZ_SEEDS_V27}")
adcc_adfuzz_test(adfuzz-fixed-v28 28 "${ADCC_ADFUZZ_SEEDS_V28}")
adcc_adfuzz_test(adfuzz-fixed-v29 29 "${ADCC_ADFUZZ_SEEDS_V29}")
# The script compiles two seeds at a time; let ctest -j account for that.
set_tests_properties(adfuzz-fixed adfuzz-fixed-v5 adfuzz-fixed-v6 adfuzz-fixed-v7
  adfuzz-fixed-v8 adfuzz-fixed-v9 adfuzz-fixed-v10 adfuzz-fixed-v11
  adfuzz-fixed-v12 adfuzz-fixed-v13 adfuzz-fixed-v14 adfuzz-fixed-v15 adfuzz-fixed-v16 adfuzz-fixed-v17
  adfuzz-fixed-v18 adfuzz-fixed-v18-nsa adfuzz-fixed-v19 adfuzz-fixed-v19-nsa
  adfuzz-fixed-v20 adfuzz-fixed-v21 adfuzz-fixed-v22 adfuzz-fixed-v23
  adfuzz-fixed-v24
  adfuzz-fixed-v25
  adfuzz-fixed-v26
  adfuzz-fixed-v27
  adfuzz-fixed-v28
  adfuzz-fixed-v29
  PROPERTIES
  PROCESSORS 2
  TIMEOUT 300
  LABELS "adfuzz;differential")
