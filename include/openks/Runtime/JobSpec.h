//===- JobSpec.h - A transpiled job, loaded for execution -------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// What the loader makes of a transpiled module (JobBuilder.h) and the roles
// run: the worker program every trainer runs, and one program per server,
// as parameter stores and plans. Servers are numbered by their endpoint's
// position in the job, blocks by their position on their server; the
// worker's communication calls use the same numbers.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_JOBSPEC_H
#define OPENKS_RUNTIME_JOBSPEC_H

#include "openks/Runtime/ParameterServer.h"
#include "openks/Runtime/ParameterStore.h"
#include "openks/Runtime/Plan.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace openks::runtime {

/// The program of every trainer: its local parameters and steps.
struct WorkerSpec {
  /// The worker's symbol, for messages.
  std::string name;
  /// The layout of each trainer's parameters (each trainer gets a copy).
  ParameterStore store;
  /// Runs once per mini-batch; its inputs are the batch, its first output
  /// the loss.
  Plan main;
  /// Runs once before the first step: pulls every block.
  Plan startup;
  /// GEO mode: trades deltas for the servers' blocks every geoPushSteps.
  std::optional<Plan> geoPush;
  int64_t geoPushSteps = 0;
  /// The variables of the program that only the workers hold (in `store`):
  /// frozen state such as a step counter, parameters no optimizer updates
  /// and, in GEO mode, the optimizer's state. Checkpoints take them from a
  /// trainer, and every trainer loads them from one.
  std::vector<ParameterId> localVariables;
};

/// One block of a server.
struct ServerBlockSpec {
  /// The block's parameter in the server's store.
  ParameterId parameter;
  /// The kind of message its update runs on; Param for a frozen block.
  MessageKind updateKind = MessageKind::Param;
  /// The index of its update in ServerSpec::updates, if it has one.
  std::optional<size_t> update;
  /// The index in ServerSpec::norms of the norm its update clips by, if it
  /// clips by one: the update's plan then runs in two stages, its second
  /// input being the norm and its first output its squares.
  std::optional<int> norm;
};

/// The program of one server.
struct ServerSpec {
  /// The server's symbol and endpoint, for messages and transports.
  std::string name;
  std::string endpoint;
  SyncMode mode = SyncMode::Sync;
  /// The trainers the server expects.
  int trainers = 1;
  ParameterStore store;
  /// One plan per update region; its one input is the received value.
  std::vector<Plan> updates;
  /// The server's blocks, numbered as the job numbers them.
  std::vector<ServerBlockSpec> blocks;
  /// The names of the norms it shares with other servers (sync mode),
  /// numbered as the job numbers them.
  std::vector<std::string> norms;
};

/// A whole job.
struct JobSpec {
  SyncMode mode = SyncMode::Sync;
  int trainers = 1;
  WorkerSpec worker;
  /// Indexed by server number.
  std::vector<ServerSpec> servers;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_JOBSPEC_H
