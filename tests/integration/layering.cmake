# The includes follow adcc's layering (scripts/layering/stages.txt,
# docs/architecture.md): the tree itself, and the check's own failures on a
# small tree that breaks each rule (layering.sh). Reads files only.
adcc_script_test(layering layering.sh)
set_tests_properties(layering PROPERTIES TIMEOUT 60)
