//===- ServerSnapshot.h - The servers' blocks, read for a checkpoint -*- C++
//-*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// How a role that holds none of the servers' blocks gathers them for a
// checkpoint or an inference model: it reads every persistable block of
// every server through the transport (Transport::read), into stores laid
// out as the servers' (JobSpec's ServerSpec::layout), which the checkpoint
// code then gathers by origin and row offset. No role reads another role's
// memory, so this works across processes and hosts, and whatever the
// filesystems the roles see.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_SERVERSNAPSHOT_H
#define OPENKS_RUNTIME_SERVERSNAPSHOT_H

#include "openks/Runtime/JobSpec.h"
#include "openks/Runtime/ParameterStore.h"
#include "openks/Runtime/Transport.h"

#include <vector>

namespace openks::runtime {

/// Returns, for each server of `job`, a store of copies of its persistable
/// blocks as `transport` reads them now. Fails when a block cannot be read
/// or its memory cannot be had.
StatusOr<std::vector<ParameterStore>>
readServerStores(Transport &transport, const JobSpec &job, Deadline deadline);

/// Returns pointers to `servers`, then to `worker`: the stores a job's
/// checkpoint gathers, in the order that lets the servers' copies win and
/// takes from the worker only what no server holds.
std::vector<const ParameterStore *>
listCheckpointStores(const std::vector<ParameterStore> &servers,
                     const ParameterStore &worker);

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_SERVERSNAPSHOT_H
