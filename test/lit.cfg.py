# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# -*- Python -*-
# lit configuration of the OpenKS regression tests.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "OPENKS"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.openks_obj_root, "test")
# Unit/ is its own suite (GoogleTest), found through its lit.site.cfg.py.
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Unit", "Inputs",
                   "extract-doc-examples.py"]

config.substitutions.append(("%openks_src_root", config.openks_src_root))
config.substitutions.append(("%openks_obj_root", config.openks_obj_root))
config.substitutions.append(("%openks_version", config.openks_version))
# The plugin stock mlir-opt loads (tools/openks-plugin).
config.substitutions.append(
    ("%openks_plugin", os.path.join(config.openks_lib_dir, "OpenKSPlugin.so")))


llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.openks_tools_dir, config.llvm_tools_dir]
# mlir-opt is Debian's stock one, from LLVM's own bin folder.
tools = [
    "openks-ckpt", "openks-eval", "openks-launch", "openks-opt", "openks-run",
    "openks-translate", "mlir-opt",
    "fleet-train-example",
    "openks-lsp-server", "openks-reduce",
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# A sanitizer build instruments our libraries only: code that is not ours
# cannot load or link them (stock mlir-opt loading the plugin, a consumer
# built against the installed package), so those tests say
# `UNSUPPORTED: sanitizer`.
if config.openks_sanitize:
    config.available_features.add("sanitizer")

# A headless Chromium renders the --report pages of openks-run; without one
# (Debian's chromium package) those tests are reported UNSUPPORTED.
if shutil.which("chromium"):
    config.available_features.add("chromium")

# Under AddressSanitizer and ThreadSanitizer an allocation too large for the
# machine returns null, as it does without them, so the tools' out-of-memory
# errors can be tested.
for sanitizer_options in ("ASAN_OPTIONS", "TSAN_OPTIONS"):
    config.environment[sanitizer_options] = ":".join(
        filter(None, [os.environ.get(sanitizer_options, ""),
                      "allocator_may_return_null=1"]))
