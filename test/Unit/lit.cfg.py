# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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

