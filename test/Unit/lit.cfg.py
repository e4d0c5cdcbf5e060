# -*- Python -*-
# lit configuration of the OpenKS GoogleTest unit tests: every test case of
# every *Tests executable in this build directory is one lit test.

import os

import lit.formats

config.name = "OPENKS-UNIT"
config.suffixes = []
config.test_exec_root = os.path.join(config.openks_obj_root, "test", "Unit")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")

# In -DOPENKS_SANITIZE=address builds, LLVM's inline allocator code compiled
# into our objects poisons memory that Debian's uninstrumented MLIR libraries
# then use legitimately. Manual poisoning is turned off; every other check
# (overflows, use-after-free, leaks) stays on.
config.environment["ASAN_OPTIONS"] = "allow_user_poisoning=0"
