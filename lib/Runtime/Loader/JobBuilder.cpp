//===- JobBuilder.cpp - Load a transpiled module as a job -----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Loader/JobBuilder.h"

#include "LoaderUtils.h"
#include "ServerDirectory.h"
#include "openks/Dialect/PS/IR/PSNaming.h"
#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/raw_ostream.h"

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
                    std::move(geoPush),        job.getGeoPushSteps(),
                    /*localVariables=*/{}};
}

/// Returns, for each block of `server` that is the copy of a program's
/// state that one update keeps for its block (`<state>.<block>`, the
/// builder's naming, ps::getPerBlockStateName), the state it stands for.
static llvm::StringMap<std::string>
getPerBlockStateOrigins(ps::ServerOp server) {
  llvm::StringMap<std::string> origins;
  for (auto update : server.getBody().front().getOps<ps::UpdateOp>()) {
    StringRef suffix = update.getBlock();
    update.getBody().walk([&](train::WriteOp write) {
      StringRef name = write.getParam();
      if (name.size() > suffix.size() + 1 && name.ends_with(suffix) &&
          ps::getPerBlockStateName(name.drop_back(suffix.size() + 1), suffix) ==
              name)
        origins[name] = name.drop_back(suffix.size() + 1).str();
    });
  }
  return origins;
}

/// Returns where each block of `server` lies in the program's variables.
static FailureOr<std::vector<BlockLayout>> buildLayout(ps::ServerOp server) {
  llvm::StringMap<std::string> stateOrigins = getPerBlockStateOrigins(server);
  std::vector<BlockLayout> layout;
  for (ps::BlockOp block : ServerDirectory::getBlocks(server)) {
    FailureOr<DType> dtype = getDType(block, block.getParameterType());
    if (failed(dtype))
      return failure();
    BlockLayout &entry = layout.emplace_back();
    entry.name = block.getSymName().str();
    entry.dtype = *dtype;
    entry.shape = getShape(block.getParameterType());
    entry.wholeShape = entry.shape;
    entry.origin = block.getOriginName().str();
    if (block.isSlice()) {
      entry.wholeShape =
          getShape(cast<RankedTensorType>(*block.getOriginType()));
      entry.rowBegin = block.getRows().first;
    }
    if (auto it = stateOrigins.find(entry.name); it != stateOrigins.end())
      entry.origin = it->second;
  }
  return layout;
}

/// Returns the program of `server`, whose blocks lie as `layout` says.
static FailureOr<ServerProgramSpec>
buildServerProgram(ps::ServerOp server, ArrayRef<BlockLayout> layout,
                   const PlanOptions &options) {
  FailureOr<ParameterStore> store = buildParameterStore(server, options);
  if (failed(store))
    return failure();
  ServerProgramSpec spec;
  llvm::StringMap<size_t> blockIndex;
  for (const BlockLayout &block : layout) {
    blockIndex[block.name] = spec.blocks.size();
    // The store holds exactly the server's blocks, under their names.
    ParameterId id = *store->lookup(block.name);
    (*store)[id].origin = block.origin;
    spec.blocks.push_back({id, MessageKind::Param, {}, {}});
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
    ServerBlockSpec &target = spec.blocks[block->second];
    target.updateKind = static_cast<MessageKind>(update.getKind());
    target.update = spec.updates.size();
    target.takesRows =
        isa<train::RowsType>(update.getBody().getArgument(0).getType());
    // The verifier allows one clip by a shared norm per update region.
    for (auto clip : update.getBody().getOps<ps::ClipByGlobalNormOp>())
      target.norm = normIndex.lookup(clip.getNorm());
    spec.updates.push_back(std::move(*plan));
  }
  spec.store = std::move(*store);
  return std::move(spec);
}

/// Returns server `server` of the job: its layout and, when `loadProgram`,
/// its program.
static FailureOr<ServerSpec> buildServer(ps::ServerOp server, bool loadProgram,
                                         const PlanOptions &options) {
  ServerSpec spec;
  spec.name = "@" + server.getSymName().str();
  spec.endpoint = server.getEndpoint().str();
  spec.mode = getSyncMode(server.getMode());
  spec.trainers = static_cast<int>(server.getNumTrainers());
  FailureOr<std::vector<BlockLayout>> layout = buildLayout(server);
  if (failed(layout))
    return failure();
  spec.layout = std::move(*layout);
  if (loadProgram) {
    FailureOr<ServerProgramSpec> program =
        buildServerProgram(server, spec.layout, options);
    if (failed(program))
      return failure();
    spec.program.emplace(std::move(*program));
  }
  return std::move(spec);
}

namespace {
/// A stream that digests what is written to it, keeping none of it.
class DigestStream : public llvm::raw_ostream {
public:
  DigestStream() { SetUnbuffered(); }
  /// Returns the low 64 bits of the MD5 digest of what was written.
  uint64_t digest() {
    flush();
    llvm::MD5::MD5Result result;
    md5_.final(result);
    return result.low();
  }

private:
  void write_impl(const char *data, size_t size) override {
    md5_.update(llvm::StringRef(data, size));
    written_ += size;
  }
  uint64_t current_pos() const override { return written_; }

  llvm::MD5 md5_;
  uint64_t written_ = 0;
};
} // namespace

/// Returns the digest of `module` as printed, without locations.
static uint64_t fingerprintJob(ModuleOp module) {
  DigestStream stream;
  module->print(stream, OpPrintingFlags());
  return stream.digest();
}

FailureOr<JobSpec> openks::runtime::buildJob(ModuleOp module,
                                             const PlanOptions &options,
                                             RoleSelection roles) {
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
  JobSpec spec;
  spec.mode = getSyncMode(job.getMode());
  spec.trainers = static_cast<int>(job.getTrainers());
  spec.fingerprint = fingerprintJob(module);

  std::vector<std::optional<ServerSpec>> servers(job.getEndpoints().size());
  llvm::StringSet<> onServers;
  for (ps::ServerOp server : module.getOps<ps::ServerOp>()) {
    FailureOr<int> index = directory->getServer(
        server, FlatSymbolRefAttr::get(server.getSymNameAttr()));
    if (failed(index))
      return failure();
    if (servers[*index])
      return server.emitOpError("has the endpoint of another server");
    FailureOr<ServerSpec> built =
        buildServer(server, roles.loadsServer(*index), options);
    if (failed(built))
      return failure();
    for (const BlockLayout &block : built->layout)
      onServers.insert(block.origin);
    servers[*index].emplace(std::move(*built));
  }
  for (auto [index, server] : llvm::enumerate(servers)) {
    if (!server)
      return module.emitOpError("has no ps.server for endpoint ")
             << job.getEndpoints()[index];
    spec.servers.push_back(std::move(*server));
  }
  if (roles.server && *roles.server >= static_cast<int>(spec.servers.size()))
    return module.emitOpError("has no server ")
           << *roles.server << ": it has " << spec.servers.size();

  if (roles.worker) {
    FailureOr<WorkerSpec> worker = buildWorker(workers.front(), job, options);
    if (failed(worker))
      return failure();
    ParameterStore &store = worker->store;
    for (ParameterId id = 0; id < store.size(); ++id)
      if (store[id].persistable && !onServers.contains(store[id].origin))
        worker->localVariables.push_back(id);
    spec.worker.emplace(std::move(*worker));
  }
  return std::move(spec);
}
