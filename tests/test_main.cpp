// The single Catch2 main shared by every test executable.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

int main(int argc, char* argv[]) {
  // Compiled kernels are not kept between processes in a test run (the
  // processes it starts inherit this): a test never reads or fills the
  // user's cache directory. Tests of that cache name a directory of their own.
  setenv("PASSLAB_CACHE_DIR", "off", 1);
  return Catch::Session().run(argc, argv);
}
