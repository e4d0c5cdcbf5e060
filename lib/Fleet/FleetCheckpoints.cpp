//===- FleetCheckpoints.cpp - What a TranspilerFleet saves and loads ------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checkpoints (Checkpoint.h) gathered from every server of the job, loaded
// by a server in whatever layout it has, and the inference model: the
// forward program, as MLIR and as Paddle's `__model__`, with the trained
// parameters in Paddle's tensor files; a program Paddle cannot express is
// saved without `__model__`, which the save reports without failing.
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/TranspilerFleet.h"

#include "Diagnostics.h"

#include "openks/Dialect/Paddle/IR/PaddleDialect.h"
#include "openks/Dialect/Paddle/IR/PaddleOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/InitAllDialects.h"
#include "openks/Interop/Paddle.h"
#include "openks/Runtime/Checkpoint.h"
#include "openks/Runtime/ServerSnapshot.h"
#include "openks/Support/DurableFile.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <filesystem>
#include <fmt/format.h>

using namespace mlir;
using namespace openks;
using namespace openks::fleet;
using namespace openks::runtime;

StatusOr<std::vector<ParameterStore>>
TranspilerFleet::readServerStores(const char *call) const {
  OPENKS_RETURN_IF_ERROR(requireRole(call, /*server=*/false));
  if (!worker_)
    return Status::error(StatusCode::FailedPrecondition,
                         "Fleet::{} needs Fleet::initWorker first", call);
  if (stopped_)
    return Status::error(StatusCode::FailedPrecondition,
                         "Fleet::{} must come before Fleet::stopWorker: the "
                         "servers may be gone after it",
                         call);
  return runtime::readServerStores(*transport_, *job_,
                                   Deadline::after(options_.timeout));
}

Status TranspilerFleet::saveCheckpoint(const std::string &dir) {
  return saveCheckpoint(dir, {});
}

Status TranspilerFleet::saveCheckpoint(
    const std::string &dir, const std::vector<runtime::CheckpointFile> &files) {
  StatusOr<std::vector<ParameterStore>> servers =
      readServerStores("saveCheckpoint");
  if (!servers)
    return servers.status();
  // What only workers hold comes from this one, whose thread this is.
  return runtime::saveCheckpoint(
      dir, listCheckpointStores(*servers, worker_->store()),
      checkpointModeName(job_->mode), worker_->lastStep(), {}, files);
}

Status TranspilerFleet::loadServerCheckpoint(const std::string &modelDir) {
  StatusOr<CheckpointInfo> loaded =
      loadCheckpoint(modelDir, {&job_->servers[serverIndex()].program->store});
  if (!loaded)
    return loaded.status().withContext(describeRole());
  return Status::ok();
}

Status TranspilerFleet::saveInferenceModel(const std::string &dir,
                                           InferenceModelReport *report) {
  OPENKS_RETURN_IF_ERROR(requireRole("saveInferenceModel", /*server=*/false));
  if (forward_.empty())
    return Status::error(StatusCode::FailedPrecondition,
                         "Fleet::saveInferenceModel needs the forward program: "
                         "this fleet loaded a job transpiled ahead of time "
                         "(loadJob), not one it minimized");

  // The forward program (kept with the locations of the user's program),
  // its parameters, and the program as MLIR text without them.
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> forward;
  train::ProgramOp program;
  std::vector<std::string> parameters;
  std::string mlirModel;
  OPENKS_RETURN_IF_ERROR(captureDiagnostics(
      &context, "cannot read the forward program:", [&]() -> LogicalResult {
        forward = parseSourceString<ModuleOp>(forward_, &context);
        if (!forward)
          return failure();
        auto programs = forward->getOps<train::ProgramOp>();
        if (programs.empty())
          return emitError(forward->getLoc(), "the program has no "
                                              "train.program");
        program = *programs.begin();
        for (auto param : program.getOps<train::ParamOp>())
          parameters.push_back(param.getSymName().str());
        llvm::raw_string_ostream os(mlirModel);
        forward->print(os);
        return success();
      }));

  // Paddle's `__model__`, unless the program has ops Paddle cannot say:
  // then the rest is saved all the same.
  std::string paddleModel;
  Status paddle = captureDiagnostics(
      &context,
      "skipped Paddle's __model__ (__model__.mlir and the parameters are "
      "saved): the forward program cannot be written as a Paddle "
      "ProgramDesc:",
      [&]() -> LogicalResult {
        OwningOpRef<ModuleOp> converted =
            convertTrainToPaddle(program, TrainProgramPart::Main);
        if (!converted)
          return failure();
        llvm::raw_string_ostream os(paddleModel);
        return exportPaddleProgram(
            *converted->getOps<paddle::ProgramOp>().begin(), os);
      });

  // Only those parameters, trained ones from the servers; the worker's
  // copies, listed last, give the ones it alone holds (frozen parameters
  // stay on the worker). The programs go in beside them once
  // saveCheckpoint has made the directory whole.
  StatusOr<std::vector<ParameterStore>> servers =
      readServerStores("saveInferenceModel");
  if (!servers)
    return servers.status();
  OPENKS_RETURN_IF_ERROR(runtime::saveCheckpoint(
      dir, listCheckpointStores(*servers, worker_->store()),
      checkpointModeName(job_->mode), worker_->lastStep(), parameters));
  OPENKS_RETURN_IF_ERROR(
      writeFileAtomically(dir + "/__model__.mlir", mlirModel));
  std::error_code ignoredError;
  if (paddle.isOk())
    OPENKS_RETURN_IF_ERROR(
        writeFileAtomically(dir + "/__model__", paddleModel));
  else
    // A `__model__` of an earlier save would not be this program.
    std::filesystem::remove(dir + "/__model__", ignoredError);

  std::string skipped = paddle.isOk()
                            ? std::string()
                            : fmt::format("Fleet::saveInferenceModel({}): {}",
                                          dir, paddle.message());
  if (report) {
    report->wrotePaddleModel = paddle.isOk();
    report->paddleSkipped = skipped;
  } else if (!paddle.isOk()) {
    fmt::print(stderr, "openks: warning: {}\n", skipped);
  }
  return Status::ok();
}
