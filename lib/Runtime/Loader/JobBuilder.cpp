//===- JobBuilder.cpp - Load a transpiled module as a job -----------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Loader/JobBuilder.h"

#include "ServerDirectory.h"
#include "openks/Dialect/PS/IR/PSNaming.h"
#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::loader;

/// The runtime's modes have the values of the dialect's.
static SyncMode getSyncMode(ps::Mode mode) {
  return static_cast<SyncMode>(mode);
}

/// Returns the plan of the step `name` of `worker`.
static FailureOr<Plan> buildStepPlan(ps::WorkerOp worker,
                                     FlatSymbolRefAttr name,
                                     const ParameterStore &store,
                                     const PlanOptions &options) {
  auto step = SymbolTable::lookupNearestSymbolFrom<train::StepOp>(
      worker.getOperation(), name);
  if (!step)
    return worker.emitOpError("names ")
           << name << " as a step, but it has no train.step of that name";
  return buildPlan(step.getBody(), store, options);
}

static FailureOr<WorkerSpec> buildWorker(ps::WorkerOp worker, ps::JobAttr job,
                                         const PlanOptions &options) {
  FailureOr<ParameterStore> store = buildParameterStore(worker, options);
  if (failed(store))
    return failure();
  // A GEO worker's copies of the servers' values are the transpiler's.
  if (worker.getGeoPushAttr())
    for (ParameterId id = 0; id < store->size(); ++id)
      if (std::optional<ParameterId> copy =
              store->lookup(ps::getGeoCopyName((*store)[id].name)))
        (*store)[*copy].persistable = false;
  FailureOr<Plan> main =
      buildStepPlan(worker, worker.getMainAttr(), *store, options);
  if (failed(main))
    return failure();
  FailureOr<Plan> startup =
      buildStepPlan(worker, worker.getStartupAttr(), *store, options);
  if (failed(startup))
    return failure();
  std::optional<Plan> geoPush;
  if (FlatSymbolRefAttr name = worker.getGeoPushAttr()) {
    FailureOr<Plan> plan = buildStepPlan(worker, name, *store, options);
    if (failed(plan))
      return failure();
    geoPush.emplace(std::move(*plan));
  }
  return WorkerSpec{worker.getSymName().str(), std::move(*store),
                    std::move(*main),          std::move(*startup),
                    std::move(geoPush),        job.getGeoPushSteps()};
}

static FailureOr<ServerSpec> buildServer(ps::ServerOp server,
                                         const PlanOptions &options) {
  FailureOr<ParameterStore> store = buildParameterStore(server, options);
  if (failed(store))
    return failure();
  ServerSpec spec;
  spec.name = "@" + server.getSymName().str();
  spec.endpoint = server.getEndpoint().str();
  spec.mode = getSyncMode(server.getMode());
  spec.trainers = static_cast<int>(server.getNumTrainers());

  llvm::StringMap<size_t> blockIndex;
  for (ps::BlockOp block : ServerDirectory::getBlocks(server)) {
    blockIndex[block.getSymName()] = spec.blocks.size();
    // The store holds exactly the server's blocks, under their names.
    spec.blocks.push_back(
        {*store->lookup(block.getSymName().str()), MessageKind::Param, {}, {}});
  }
  llvm::StringMap<int> normIndex;
  for (ps::NormOp norm : ServerDirectory::getNorms(server)) {
    normIndex[norm.getSymName()] = static_cast<int>(spec.norms.size());
    spec.norms.push_back(norm.getSymName().str());
  }
  for (auto update : server.getBody().front().getOps<ps::UpdateOp>()) {
    auto block = blockIndex.find(update.getBlock());
    if (block == blockIndex.end())
      return update.emitOpError("updates ")
             << update.getBlockAttr() << ", which is not a block of the "
             << "server";
    FailureOr<Plan> plan = buildPlan(update.getBody(), *store, options);
    if (failed(plan))
      return failure();
    // State the update keeps per block, `<state>.<block>`, stands for the
    // program's `<state>` (the builder's naming, ps::getPerBlockStateName).
    StringRef suffix = update.getBlock();
    update.getBody().walk([&](train::WriteOp write) {
      StringRef name = write.getParam();
      std::optional<ParameterId> id = store->lookup(name.str());
      if (id && name.size() > suffix.size() + 1 && name.ends_with(suffix) &&
          ps::getPerBlockStateName(name.drop_back(suffix.size() + 1), suffix) ==
              name)
        (*store)[*id].origin = name.drop_back(suffix.size() + 1).str();
    });
    ServerBlockSpec &target = spec.blocks[block->second];
    target.updateKind = static_cast<MessageKind>(update.getKind());
    target.update = spec.updates.size();
    // The verifier allows one clip by a shared norm per update region.
    for (auto clip : update.getBody().getOps<ps::ClipByGlobalNormOp>())
      target.norm = normIndex.lookup(clip.getNorm());
    spec.updates.push_back(std::move(*plan));
  }
  spec.store = std::move(*store);
  return std::move(spec);
}

FailureOr<JobSpec> openks::runtime::buildJob(ModuleOp module,
                                             const PlanOptions &options) {
  auto job = module->getAttrOfType<ps::JobAttr>(ps::JobAttr::kAttrName);
  if (!job)
    return module.emitOpError("is not a transpiled job: it has no #ps.job");
  auto workers = llvm::to_vector(module.getOps<ps::WorkerOp>());
  if (workers.size() != 1)
    return module.emitOpError("holds ")
           << workers.size() << " ps.worker programs; a job has one";
  FailureOr<ServerDirectory> directory =
      ServerDirectory::build(module, workers.front());
  if (failed(directory))
    return failure();

  FailureOr<WorkerSpec> worker = buildWorker(workers.front(), job, options);
  if (failed(worker))
    return failure();
  JobSpec spec{getSyncMode(job.getMode()),
               static_cast<int>(job.getTrainers()),
               std::move(*worker),
               {}};

  std::vector<std::optional<ServerSpec>> servers(job.getEndpoints().size());
  llvm::StringSet<> onServers;
  for (ps::ServerOp server : module.getOps<ps::ServerOp>()) {
    FailureOr<int> index = directory->getServer(
        server, FlatSymbolRefAttr::get(server.getSymNameAttr()));
    if (failed(index))
      return failure();
    if (servers[*index])
      return server.emitOpError("has the endpoint of another server");
    FailureOr<ServerSpec> built = buildServer(server, options);
    if (failed(built))
      return failure();
    for (ParameterId id = 0; id < built->store.size(); ++id)
      onServers.insert(built->store[id].origin);
    servers[*index].emplace(std::move(*built));
  }
  for (auto [index, server] : llvm::enumerate(servers)) {
    if (!server)
      return module.emitOpError("has no ps.server for endpoint ")
             << job.getEndpoints()[index];
    spec.servers.push_back(std::move(*server));
  }
  ParameterStore &store = spec.worker.store;
  for (ParameterId id = 0; id < store.size(); ++id)
    if (store[id].persistable && !onServers.contains(store[id].origin))
      spec.worker.localVariables.push_back(id);
  return std::move(spec);
}
