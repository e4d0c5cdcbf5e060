//===- TsanDefaultSuppressions.cpp - TSan suppressions for OpenKS ---------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Linked into every executable of a -DOPENKS_SANITIZE=thread build. Debian's
// gRPC, absl, OpenSSL and LLVM/MLIR libraries are not instrumented: they hand
// memory between threads under absl::Mutex, futexes and LLVM's thread pool,
// which ThreadSanitizer cannot see, so the buffers gRPC sends from, the
// metadata it gives a handler and the results of MLIR's parallel verifier look
// raced though they are not. Reports whose stacks are within those libraries
// are suppressed; a race between two accesses of our own code is still
// reported. TSAN_OPTIONS=suppressions=FILE adds more.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__tsan_default_suppressions() {
  return "called_from_lib:libgrpc.so\n"
         "called_from_lib:libgrpc++.so\n"
         "called_from_lib:libgpr.so\n"
         "called_from_lib:libcrypto.so\n"
         "called_from_lib:libssl.so\n"
         "race:libgrpc\n"
         "race:libgpr\n"
         "race:libabsl_\n"
         "race:libcrypto\n"
         "race:libssl\n"
         "race:grpc::\n"
         "race:grpc_core::\n"
         "race:OperationVerifier\n"
         "race:llvm::StdThreadPool\n";
}
