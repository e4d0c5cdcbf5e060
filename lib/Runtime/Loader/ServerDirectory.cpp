//===- ServerDirectory.cpp - Server and block numbers of a job ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ServerDirectory.h"

using namespace mlir;
using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::loader;

SmallVector<ps::BlockOp> ServerDirectory::getBlocks(ps::ServerOp server) {
  return llvm::to_vector(server.getBody().front().getOps<ps::BlockOp>());
}

SmallVector<ps::NormOp> ServerDirectory::getNorms(ps::ServerOp server) {
  return llvm::to_vector(server.getBody().front().getOps<ps::NormOp>());
}

FailureOr<ServerDirectory> ServerDirectory::build(ModuleOp module,
                                                  Operation *user) {
  auto job = module->getAttrOfType<ps::JobAttr>(ps::JobAttr::kAttrName);
  if (!job)
    return user->emitOpError("cannot be run: its module has no #ps.job, so "
                             "it has no servers to talk to");
  llvm::StringMap<int> endpoints;
  for (auto [index, endpoint] : llvm::enumerate(job.getEndpointNames()))
    endpoints.try_emplace(endpoint, static_cast<int>(index));

  ServerDirectory directory;
  for (ps::ServerOp server : module.getOps<ps::ServerOp>()) {
    auto endpoint = endpoints.find(server.getEndpoint());
    if (endpoint == endpoints.end())
      return server.emitOpError("has endpoint \"")
             << server.getEndpoint() << "\", which the module's #ps.job "
             << "does not list";
    directory.servers_[server.getSymName()] = endpoint->second;
    llvm::StringMap<int> &blocks = directory.blocks_[server.getSymName()];
    for (auto [index, block] : llvm::enumerate(getBlocks(server)))
      blocks[block.getSymName()] = static_cast<int>(index);
    llvm::StringMap<int> &norms = directory.norms_[server.getSymName()];
    for (auto [index, norm] : llvm::enumerate(getNorms(server)))
      norms[norm.getSymName()] = static_cast<int>(index);
  }
  return directory;
}

FailureOr<int> ServerDirectory::getServer(Operation *user,
                                          FlatSymbolRefAttr server) const {
  auto it = servers_.find(server.getValue());
  if (it == servers_.end())
    return user->emitOpError("refers to ")
           << server << ", which is not a server of the module";
  return it->second;
}

FailureOr<BlockAddress> ServerDirectory::getBlock(Operation *user,
                                                  SymbolRefAttr target) const {
  auto server = FlatSymbolRefAttr::get(target.getRootReference());
  FailureOr<int> index = getServer(user, server);
  if (failed(index))
    return failure();
  const llvm::StringMap<int> &blocks = blocks_.find(server.getValue())->second;
  auto block = target.getNestedReferences().size() == 1
                   ? blocks.find(target.getLeafReference())
                   : blocks.end();
  if (block == blocks.end())
    return user->emitOpError("refers to ")
           << target << ", which is not a block of " << server;
  return BlockAddress{*index, block->second};
}

FailureOr<NormAddress> ServerDirectory::getNorm(Operation *user,
                                                FlatSymbolRefAttr server,
                                                FlatSymbolRefAttr norm) const {
  FailureOr<int> index = getServer(user, server);
  if (failed(index))
    return failure();
  const llvm::StringMap<int> &norms = norms_.find(server.getValue())->second;
  auto it = norms.find(norm.getValue());
  if (it == norms.end())
    return user->emitOpError("refers to the norm ")
           << norm << ", which " << server << " does not share";
  return NormAddress{*index, it->second};
}
