//===- ServerSnapshot.cpp - The servers' blocks, read for a checkpoint ----===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/ServerSnapshot.h"

using namespace openks;
using namespace openks::runtime;

StatusOr<std::vector<ParameterStore>>
openks::runtime::readServerStores(Transport &transport, const JobSpec &job,
                                  Deadline deadline) {
  std::vector<ParameterStore> stores(job.servers.size());
  for (size_t server = 0; server < job.servers.size(); ++server) {
    const ServerSpec &spec = job.servers[server];
    for (size_t block = 0; block < spec.layout.size(); ++block) {
      const BlockLayout &layout = spec.layout[block];
      if (!layout.persistable)
        continue;
      StatusOr<Tensor> value = Tensor::allocate(layout.dtype, layout.shape);
      if (!value)
        return value.status().withContext("reading " + layout.name + " of " +
                                          spec.name);
      OPENKS_RETURN_IF_ERROR(transport.read(
          static_cast<int>(server), static_cast<int>(block), *value, deadline));
      Parameter parameter;
      parameter.name = layout.name;
      parameter.origin = layout.origin;
      parameter.wholeShape = layout.wholeShape;
      parameter.rowBegin = layout.rowBegin;
      parameter.value = std::move(*value);
      stores[server].add(std::move(parameter));
    }
  }
  return stores;
}

std::vector<const ParameterStore *> openks::runtime::listCheckpointStores(
    const std::vector<ParameterStore> &servers, const ParameterStore &worker) {
  std::vector<const ParameterStore *> stores;
  for (const ParameterStore &server : servers)
    stores.push_back(&server);
  stores.push_back(&worker);
  return stores;
}
