//===- AsanDefaultOptions.cpp - ASan defaults for OpenKS executables ------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Linked into every executable of a -DOPENKS_SANITIZE=address build. LLVM's
// inline allocator code compiled into our objects poisons memory that
// Debian's uninstrumented MLIR libraries then use legitimately, so manual
// poisoning is turned off; every other check (overflows, use-after-free,
// leaks) stays on. ASAN_OPTIONS still overrides this.
//
// LeakSanitizer ignores what c-ares, the DNS resolver inside Debian's gRPC,
// keeps until its process exits (a few bytes per name it resolved, such as
// "localhost"); a leak whose stack passes through our code is still
// reported. LSAN_OPTIONS=suppressions=FILE adds more.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" const char *__lsan_default_suppressions() {
  return "leak:libcares.so\n";
}
