//===- consumer-fleet.cpp - A Fleet role on the installed OpenKS ----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a training program built on the installed package does first: find
// its role from the scheduler's environment and turn a strategy into the
// transpile pipeline's options. Prints both, or the error.
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/PipelineOptions.h"
#include "openks/Fleet/RoleMaker.h"

#include "llvm/Support/raw_ostream.h"

int main() {
  using namespace openks::fleet;
  openks::StatusOr<std::unique_ptr<RoleMaker>> roleMaker =
      createRoleMakerFromEnvironment(Environment::process());
  if (!roleMaker) {
    llvm::errs() << "error: " << roleMaker.status().message() << "\n";
    return 1;
  }
  if (openks::Status status = (*roleMaker)->generateRole(); !status) {
    llvm::errs() << "error: " << status.message() << "\n";
    return 1;
  }
  RoleMaker &role = **roleMaker;
  llvm::outs() << role.describe() << ": " << roleName(role.role()) << " "
               << (role.isServer() ? role.serverIndex() : role.workerIndex())
               << " at '" << role.currentEndpoint() << "'\n";

  openks::TranspileOptions options;
  if (openks::Status status = buildTranspileOptions(
          StrategyFactory::createGeoStrategy(10), role.serverEndpoints(),
          role.workerNum(), options);
      !status) {
    llvm::errs() << "error: " << status.message() << "\n";
    return 1;
  }
  options.print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
