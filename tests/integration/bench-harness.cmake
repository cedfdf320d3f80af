# Smoke test of the benchmark harness bench/run: one quick kernel, one short
# sample; checks the JSON/markdown/PNG outputs and that the derivatives were
# verified. It asserts no timing (see docs/performance.md).
adcc_script_test(bench-harness bench-harness.sh)
set_tests_properties(bench-harness PROPERTIES TIMEOUT 300 LABELS "bench")
