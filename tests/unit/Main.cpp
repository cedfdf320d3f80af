// The Catch2 main lives alone so that test files recompile quickly.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
