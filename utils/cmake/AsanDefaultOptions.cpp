//===- AsanDefaultOptions.cpp - ASan defaults for OpenKS executables ------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// Linked into every executable of a -DOPENKS_SANITIZE=address build. LLVM's
// inline allocator code compiled into our objects poisons memory that
// Debian's uninstrumented MLIR libraries then use legitimately, so manual
// poisoning is turned off; every other check (overflows, use-after-free,
// leaks) stays on. ASAN_OPTIONS still overrides this.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
