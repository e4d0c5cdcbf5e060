//===- TranspilerFleet.cpp - Fleet over transpiled PS jobs ----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/TranspilerFleet.h"

#include "Diagnostics.h"

#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Fleet/PipelineOptions.h"
#include "openks/Runtime/Loader/JobBuilder.h"
#include "openks/Runtime/StepLog.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <fmt/format.h>

using namespace mlir;
using namespace openks;
using namespace openks::fleet;
using namespace openks::runtime;

/// The transpiler's distributed optimizer: minimize, then transpile.
class TranspilerFleet::Optimizer : public DistributedOptimizer {
public:
  Optimizer(TranspilerFleet &fleet, const MinimizeOptions &optimizer,
            const TranspileOptions &transpile)
      : fleet_(fleet) {
    optimizer_.copyOptionValuesFrom(optimizer);
    transpile_.copyOptionValuesFrom(transpile);
  }

  Status minimize(ModuleOp module) override {
    if (fleet_.job_)
      return Status::error(StatusCode::FailedPrecondition,
                           "minimize runs once per fleet: this {} already "
                           "has its job",
                           fleet_.describeRole());
    // The forward program, for saveInferenceModel, as text: it must not
    // depend on the module's context outliving the fleet. Its locations
    // go along, so that what the export says names the user's program.
    std::string forward;
    llvm::raw_string_ostream os(forward);
    module.print(os, OpPrintingFlags().enableDebugInfo());
    auto pm = PassManager::on<ModuleOp>(module.getContext());
    buildMinimizePipeline(pm, optimizer_);
    buildTranspilePipeline(pm, transpile_);
    OPENKS_RETURN_IF_ERROR(captureDiagnostics(
        module.getContext(), "cannot minimize and transpile the program:", [&] {
          return pm.run(module);
        }));
    return fleet_.adopt(module, std::move(forward));
  }

private:
  TranspilerFleet &fleet_;
  MinimizeOptions optimizer_;
  TranspileOptions transpile_;
};

TranspilerFleet::TranspilerFleet(std::shared_ptr<Cluster> cluster,
                                 FleetOptions options)
    : cluster_(std::move(cluster)), options_(options) {}

TranspilerFleet::~TranspilerFleet() {
  // Without this the servers, and the other workers at their barriers,
  // would wait for this worker until their timeout.
  if (isWorker() && !stopped_)
    abortWorker(Status::error(StatusCode::Cancelled,
                              "{}: its fleet was destroyed before "
                              "Fleet::stopWorker (the worker returned early "
                              "or failed)",
                              describeRole()));
}

std::string TranspilerFleet::describeRole() const {
  return roleMaker_ ? roleMaker_->describe() : "uninitialised role";
}

StatusOr<std::unique_ptr<DistributedOptimizer>>
TranspilerFleet::distributedOptimizer(const MinimizeOptions &optimizer,
                                      const DistributedStrategy &strategy) {
  OPENKS_RETURN_IF_ERROR(requireInit("distributedOptimizer"));
  TranspileOptions transpile;
  OPENKS_RETURN_IF_ERROR(buildTranspileOptions(strategy, serverEndpoints(),
                                               workerNum(), transpile));
  return std::unique_ptr<DistributedOptimizer>(
      new Optimizer(*this, optimizer, transpile));
}

Status TranspilerFleet::loadJob(ModuleOp module) {
  OPENKS_RETURN_IF_ERROR(requireInit("loadJob"));
  if (job_)
    return Status::error(StatusCode::FailedPrecondition,
                         "this {} already has its job", describeRole());
  return adopt(module, /*forward=*/{});
}

Status TranspilerFleet::adopt(ModuleOp module, std::string forward) {
  auto jobAttr = module->getAttrOfType<ps::JobAttr>(ps::JobAttr::kAttrName);
  if (!jobAttr)
    return Status::invalidArgument(
        "the module is not a transpiled job: it has no '{}' attribute",
        ps::JobAttr::kAttrName.str());
  std::vector<std::string> endpoints = jobAttr.getEndpointNames();
  if (endpoints != serverEndpoints())
    return Status::invalidArgument(
        "the job's servers are {}, the role maker's {}; re-target the job "
        "(one endpoint per ps.server) or fix the role maker",
        fmt::join(endpoints, ","), serverEndpointsString());
  if (jobAttr.getTrainers() != workerNum())
    return Status::invalidArgument(
        "the job is transpiled for {} trainers, the role maker has {}",
        jobAttr.getTrainers(), workerNum());

  PlanOptions plan;
  plan.maxBatch = options_.maxBatch;
  plan.runSeed = options_.runSeed;
  // A process builds only its own role.
  RoleSelection roles = isWorker() ? RoleSelection::ofTrainer()
                                   : RoleSelection::ofServer(serverIndex());
  FailureOr<JobSpec> job;
  OPENKS_RETURN_IF_ERROR(
      captureDiagnostics(module.getContext(), "cannot load the job:", [&] {
        job = buildJob(module, plan, roles);
        return failure(failed(job));
      }));
  if (job->worker && job->worker->main.outputSlots().empty())
    return Status::invalidArgument(
        "the worker's main step must return its loss as its first result");
  job_ = std::make_shared<JobSpec>(std::move(*job));
  module_ = module;
  forward_ = std::move(forward);
  return Status::ok();
}

Status TranspilerFleet::requireJob(const char *call) const {
  OPENKS_RETURN_IF_ERROR(requireInit(call));
  if (!job_)
    return Status::error(StatusCode::FailedPrecondition,
                         "Fleet::{} needs the job: call "
                         "distributedOptimizer(...)->minimize(module) (or "
                         "loadJob) first",
                         call);
  return Status::ok();
}

Status TranspilerFleet::initServer(const std::string &modelDir) {
  OPENKS_RETURN_IF_ERROR(requireRole("initServer", /*server=*/true));
  OPENKS_RETURN_IF_ERROR(requireJob("initServer"));
  if (server_)
    return Status::error(StatusCode::FailedPrecondition,
                         "Fleet::initServer runs once");
  StatusOr<std::shared_ptr<ServerInstance>> server =
      ServerInstance::create(job_, serverIndex(), options_.timeout);
  if (!server)
    return server.status();
  OPENKS_RETURN_IF_ERROR((*server)->role().initialize());
  if (!modelDir.empty())
    OPENKS_RETURN_IF_ERROR(loadServerCheckpoint(modelDir));
  server_ = std::move(*server);
  return Status::ok();
}

Status TranspilerFleet::runServer() {
  OPENKS_RETURN_IF_ERROR(requireRole("runServer", /*server=*/true));
  if (!server_)
    return Status::error(StatusCode::FailedPrecondition,
                         "Fleet::runServer needs Fleet::initServer first");
  if (served_)
    return Status::error(StatusCode::FailedPrecondition,
                         "Fleet::runServer runs once");
  served_ = true;
  OPENKS_RETURN_IF_ERROR(cluster_->publish(server_));
  Status status = server_->server().serve();
  if (!status.isOk())
    cluster_->abort(status);
  return status;
}

Status TranspilerFleet::initWorker(const std::string &modelDir) {
  OPENKS_RETURN_IF_ERROR(requireRole("initWorker", /*server=*/false));
  OPENKS_RETURN_IF_ERROR(requireJob("initWorker"));
  if (transport_)
    return Status::error(StatusCode::FailedPrecondition,
                         "Fleet::initWorker runs once");
  Status status = connectWorker(modelDir);
  if (!status.isOk()) {
    Status named = status.withContext(describeRole());
    abortWorker(named);
    return named;
  }
  return Status::ok();
}

Status TranspilerFleet::connectWorker(const std::string &modelDir) {
  StatusOr<std::unique_ptr<Transport>> transport = cluster_->connect(
      *job_, workerIndex(), Deadline::after(options_.timeout));
  if (!transport)
    return transport.status();
  transport_ = std::move(*transport);
  StatusOr<std::unique_ptr<WorkerRole>> worker = WorkerRole::create(
      *job_->worker, *transport_, workerIndex(), options_.timeout);
  if (!worker)
    return worker.status();
  worker_ = std::move(*worker);
  OPENKS_RETURN_IF_ERROR(worker_->start());
  if (!modelDir.empty())
    OPENKS_RETURN_IF_ERROR(worker_->resume(modelDir));
  return cluster_->workerBarrier(workerIndex(), workerNum(),
                                 Deadline::after(options_.timeout));
}

StatusOr<std::unique_ptr<DataSource>>
TranspilerFleet::openData(const std::string &spec) const {
  OPENKS_RETURN_IF_ERROR(requireRole("openData", /*server=*/false));
  OPENKS_RETURN_IF_ERROR(requireJob("openData"));
  std::unique_ptr<DataSource> source;
  OPENKS_RETURN_IF_ERROR(openDataSource(spec, job_->worker->main.inputSpecs(),
                                        Shard{workerIndex(), workerNum()},
                                        source));
  return source;
}

StatusOr<double> TranspilerFleet::trainStep(DataSource &source,
                                            int64_t globalBatch) {
  OPENKS_RETURN_IF_ERROR(requireRole("trainStep", /*server=*/false));
  if (!worker_ || stopped_)
    return Status::error(StatusCode::FailedPrecondition,
                         stopped_ ? "Fleet::trainStep after Fleet::stopWorker"
                                  : "Fleet::trainStep needs "
                                    "Fleet::initWorker first");
  // The shard's first row, as the data sources cut a global batch.
  worker_->setFirstRow(static_cast<int64_t>(workerIndex()) * globalBatch /
                       workerNum());
  Status status = source.next(globalBatch, worker_->inputs());
  if (status.isOk())
    status = worker_->step();
  std::optional<double> loss;
  if (status.isOk()) {
    loss = getScalarValues(worker_->outputs()).front();
    if (!loss || !std::isfinite(*loss))
      status = Status::error(StatusCode::OutOfRange,
                             "the loss is {}; lower the learning rate or "
                             "check the data",
                             loss ? fmt::format("{}", *loss) : "not a scalar");
  }
  if (!status.isOk()) {
    Status named = status.withContext(
        fmt::format("trainer {}: step {}", workerIndex(), worker_->lastStep()));
    abortWorker(named);
    return named;
  }
  return *loss;
}

void TranspilerFleet::abortWorker(const Status &status) {
  if (aborted_)
    return;
  aborted_ = true;
  if (worker_)
    worker_->abort(status);
  cluster_->abort(status);
}

Status TranspilerFleet::stopWorker() {
  OPENKS_RETURN_IF_ERROR(requireRole("stopWorker", /*server=*/false));
  if (!worker_)
    return Status::error(StatusCode::FailedPrecondition,
                         "Fleet::stopWorker needs Fleet::initWorker first");
  if (stopped_)
    return Status::error(StatusCode::FailedPrecondition,
                         "Fleet::stopWorker runs once");
  stopped_ = true;
  if (Status status = worker_->finish(); !status.isOk()) {
    Status named = status.withContext(describeRole());
    abortWorker(named);
    return named;
  }
  return Status::ok();
}

Status TranspilerFleet::barrierWorker() {
  OPENKS_RETURN_IF_ERROR(requireRole("barrierWorker", /*server=*/false));
  if (!worker_ || stopped_)
    return Status::error(StatusCode::FailedPrecondition,
                         stopped_ ? "Fleet::barrierWorker after "
                                    "Fleet::stopWorker"
                                  : "Fleet::barrierWorker needs "
                                    "Fleet::initWorker first");
  Status status = worker_->flush();
  if (status.isOk())
    status = cluster_->workerBarrier(workerIndex(), workerNum(),
                                     Deadline::after(options_.timeout));
  if (!status.isOk()) {
    Status named = status.withContext(describeRole());
    abortWorker(named);
    return named;
  }
  return Status::ok();
}

Operation *TranspilerFleet::mainProgram() const {
  if (!job_ || !module_)
    return nullptr;
  ModuleOp module = module_;
  if (isWorker()) {
    for (auto worker : module.getOps<ps::WorkerOp>())
      return worker;
    return nullptr;
  }
  const std::string &endpoint = job_->servers[serverIndex()].endpoint;
  for (auto server : module.getOps<ps::ServerOp>())
    if (server.getEndpoint() == endpoint)
      return server;
  return nullptr;
}

Operation *TranspilerFleet::startupProgram() const {
  Operation *program = mainProgram();
  if (!program || !isWorker())
    return program;
  auto worker = cast<ps::WorkerOp>(program);
  return SymbolTable::lookupSymbolIn(worker, worker.getStartupAttr());
}
