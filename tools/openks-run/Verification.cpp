//===- Verification.cpp - A sync job checked against one process ---------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Verification.h"

#include "openks/Runtime/Checkpoint.h"
#include "openks/Runtime/Loader/PlanBuilder.h"
#include "openks/Runtime/ServerSnapshot.h"

using namespace mlir;
using namespace openks;
using namespace openks::run;
using namespace openks::runtime;

/// Returns the single-process trainer of `step` with room for `batch` rows.
static StatusOr<std::unique_ptr<LocalTrainer>>
createReference(train::StepOp step, const RunSettings &settings) {
  PlanOptions options;
  options.maxBatch = settings.batchSize;
  options.runSeed = settings.seed;
  FailureOr<ParameterStore> store = buildParameterStore(
      SymbolTable::getNearestSymbolTable(step->getParentOp()), options);
  if (failed(store))
    return Status::invalidArgument("cannot build the --verify reference");
  FailureOr<Plan> plan = buildPlan(step.getBody(), *store, options);
  if (failed(plan))
    return Status::invalidArgument("cannot build the --verify reference");
  return LocalTrainer::create(std::move(*store), std::move(*plan),
                              settings.data);
}

/// Returns what explains rounding differences in training `step` over
/// `store`.
static RoundingModel getRoundingModel(train::StepOp step,
                                      const ParameterStore &store) {
  RoundingModel model;
  for (ParameterId id = 0; id < store.size(); ++id)
    model.f32 |= store[id].trainable && store[id].value.dtype() == DType::F32;
  step.walk([&](train::OptimizerOpInterface optimizer) {
    model.adaptive |= !isa<train::SgdOp, train::MomentumOp>(optimizer);
  });
  return model;
}

/// Returns the tolerance of --verify: the one asked for, else 1e-5 when any
/// parameter is f32 and 1e-10 when all are f64.
static double getTolerance(const RoundingModel &rounding,
                           const RunSettings &settings) {
  if (settings.verifyTolerance > 0)
    return settings.verifyTolerance;
  return rounding.f32 ? 1e-5 : 1e-10;
}

StatusOr<std::unique_ptr<Verification>>
Verification::create(train::StepOp reference, const RunSettings &settings,
                     int64_t startStep) {
  StatusOr<std::unique_ptr<LocalTrainer>> local =
      createReference(reference, settings);
  if (!local)
    return local.status();
  OPENKS_RETURN_IF_ERROR((*local)->start());
  // A resumed job is checked from the same checkpoint.
  if (!settings.loadDir.empty())
    if (StatusOr<int64_t> resumed =
            (*local)->resume(settings.loadDir, settings.batchSize);
        !resumed)
      return resumed.status();
  RoundingModel rounding = getRoundingModel(reference, (*local)->store());
  return std::make_unique<Verification>(std::move(*local), settings.batchSize,
                                        getTolerance(rounding, settings),
                                        startStep, rounding);
}

StatusOr<std::optional<ParameterStore>>
Verification::readRemoteParameters(const WorkerRole &worker,
                                   const JobSpec &job) const {
  const ParameterStore &reference = reference_->store();
  std::vector<ParameterId> held;
  std::vector<std::string> remote;
  for (ParameterId id = 0; id < reference.size(); ++id) {
    if (!reference[id].trainable)
      continue;
    if (std::optional<ParameterId> copy =
            worker.store().lookup(reference[id].name))
      held.push_back(*copy);
    else
      remote.push_back(reference[id].name);
  }
  if (remote.empty())
    return std::optional<ParameterStore>();
  StatusOr<ParameterStore> trained = worker.store().copyOf(held);
  if (!trained)
    return trained.status();
  // Between this trainer's steps no server updates: the blocks are those
  // the step left.
  StatusOr<std::vector<ParameterStore>> servers = readServerStores(
      worker.transport(), job, Deadline::after(worker.timeout()));
  if (!servers)
    return servers.status().withContext("--verify");
  std::vector<const ParameterStore *> stores;
  for (const ParameterStore &server : *servers)
    stores.push_back(&server);
  for (const std::string &name : remote) {
    StatusOr<Tensor> whole = gatherVariable(stores, name);
    if (!whole)
      return whole.status().withContext("--verify");
    Parameter parameter;
    parameter.name = name;
    parameter.value = std::move(*whole);
    trained->add(std::move(parameter));
  }
  return std::optional<ParameterStore>(std::move(*trained));
}

std::vector<std::string>
openks::run::listJobColumns(const JobSpec &job,
                            const Verification *verification) {
  const std::vector<std::string> &names = job.worker->main.outputNames();
  std::vector<std::string> columns(names.begin() + 1, names.end());
  columns.push_back("bytes_pushed");
  columns.push_back("bytes_pulled");
  if (verification)
    for (const std::string &name : verification->names())
      columns.push_back("relative_difference:" + name);
  return columns;
}
