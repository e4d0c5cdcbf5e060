//===- Fleet.cpp - The Fleet API of one role of a job ---------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/Fleet.h"

#include "openks/Fleet/SplitFiles.h"

#include <fmt/format.h>

using namespace openks;
using namespace openks::fleet;

DistributedOptimizer::~DistributedOptimizer() = default;
Fleet::~Fleet() = default;

Status Fleet::init(std::shared_ptr<RoleMaker> roleMaker) {
  if (roleMaker_)
    return Status::error(StatusCode::FailedPrecondition,
                         "Fleet::init runs once; this fleet is already a {}",
                         roleMaker_->describe());
  if (!roleMaker)
    return Status::invalidArgument("Fleet::init needs a role maker");
  OPENKS_RETURN_IF_ERROR(roleMaker->generateRole());
  // A fleet is a worker or a server; an evaluator has nothing to run.
  if (roleMaker->isEvaluator())
    return Status::error(StatusCode::FailedPrecondition,
                         "Fleet::init: {} says this process is an evaluator, "
                         "which has nothing to do in a parameter-server job",
                         roleMaker->describe());
  roleMaker_ = std::move(roleMaker);
  return Status::ok();
}

bool Fleet::isWorker() const { return roleMaker_ && roleMaker_->isWorker(); }
bool Fleet::isServer() const { return roleMaker_ && roleMaker_->isServer(); }
bool Fleet::isFirstWorker() const {
  return roleMaker_ && roleMaker_->isFirstWorker();
}
int Fleet::workerIndex() const {
  return roleMaker_ ? roleMaker_->workerIndex() : 0;
}
int Fleet::workerNum() const {
  return roleMaker_ ? roleMaker_->workerNum() : 0;
}
int Fleet::serverIndex() const {
  return roleMaker_ ? roleMaker_->serverIndex() : 0;
}
int Fleet::serverNum() const {
  return roleMaker_ ? roleMaker_->serverNum() : 0;
}

std::vector<std::string> Fleet::serverEndpoints() const {
  return roleMaker_ ? roleMaker_->serverEndpoints()
                    : std::vector<std::string>();
}

std::string Fleet::serverEndpointsString() const {
  return fmt::format("{}", fmt::join(serverEndpoints(), ","));
}

StatusOr<std::vector<std::string>>
Fleet::splitFiles(const std::vector<std::string> &files) const {
  OPENKS_RETURN_IF_ERROR(requireInit("splitFiles"));
  OPENKS_RETURN_IF_ERROR(requireRole("splitFiles", /*server=*/false));
  return fleet::splitFiles(files, workerIndex(), workerNum());
}

Status Fleet::requireInit(const char *call) const {
  if (!roleMaker_)
    return Status::error(StatusCode::FailedPrecondition,
                         "Fleet::{} needs Fleet::init first", call);
  return Status::ok();
}

Status Fleet::requireRole(const char *call, bool server) const {
  OPENKS_RETURN_IF_ERROR(requireInit(call));
  if (server != roleMaker_->isServer())
    return Status::error(StatusCode::FailedPrecondition,
                         "Fleet::{} is a {} call, and this role is {}", call,
                         server ? "server" : "worker", roleMaker_->describe());
  return Status::ok();
}
