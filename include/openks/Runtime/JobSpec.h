//===- JobSpec.h - A transpiled job, loaded for execution -------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the loader makes of a transpiled module (JobBuilder.h) and the roles
// run: the worker program every trainer runs, and one program per server,
// as parameter stores and plans. Servers are numbered by their endpoint's
// position in the job, blocks by their position on their server; the
// worker's communication calls use the same numbers.
//
// A process loads only the roles it runs (RoleSelection): a trainer the
// worker program, a server its own program; of the other servers every
// role knows only where they are and how their blocks lie in the program's
// variables (ServerSpec::layout), enough to address them and to gather
// their blocks into a checkpoint through the transport.
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

/// Where one block of a server lies in the variable it holds rows of: what
/// every role knows of a block, whether or not it holds it.
struct BlockLayout {
  /// The block's name on its server.
  std::string name;
  /// The variable of the program it holds rows of (Parameter::origin).
  std::string origin;
  DType dtype = DType::F32;
  /// The block's shape, and the whole variable's, whose rows
  /// [rowBegin, rowBegin + shape[0]) it holds.
  Shape shape;
  Shape wholeShape;
  int64_t rowBegin = 0;
  /// Whether checkpoints keep it (Parameter::persistable).
  bool persistable = true;
};

/// One block of a server's program.
struct ServerBlockSpec {
  /// The block's parameter in the server's store.
  ParameterId parameter;
  /// The kind of message its update runs on; Param for a frozen block.
  MessageKind updateKind = MessageKind::Param;
  /// The index of its update in ServerSpec::updates, if it has one.
  std::optional<size_t> update;
  /// Whether its update runs on row-sparse values: its plan's inputs are
  /// then the rows and their ids.
  bool takesRows = false;
  /// The index in ServerSpec::norms of the norm its update clips by, if it
  /// clips by one: the update's plan then runs in two stages, its last
  /// input being the norm and its first output its squares.
  std::optional<int> norm;
};

/// The program of one server: its parameters and their updates.
struct ServerProgramSpec {
  ParameterStore store;
  /// One plan per update region; its inputs are the received value (the
  /// rows and their ids, for a row-sparse one).
  std::vector<Plan> updates;
  /// The server's blocks, numbered as the job numbers them.
  std::vector<ServerBlockSpec> blocks;
  /// The names of the norms it shares with other servers (sync mode),
  /// numbered as the job numbers them.
  std::vector<std::string> norms;
};

/// One server of a job.
struct ServerSpec {
  /// The server's symbol and endpoint, for messages and transports.
  std::string name;
  std::string endpoint;
  SyncMode mode = SyncMode::Sync;
  /// The trainers the server expects.
  int trainers = 1;
  /// Its blocks, numbered as the job numbers them.
  std::vector<BlockLayout> layout;
  /// Its program, when this process loaded it.
  std::optional<ServerProgramSpec> program;
};

/// The roles of a job a process loads.
struct RoleSelection {
  /// Whether to load the worker program.
  bool worker = true;
  /// The servers whose programs to load: every one, or only `server`.
  bool allServers = true;
  std::optional<int> server;

  /// Every role: a whole job in one process (tests, tools).
  static RoleSelection everything() { return {}; }
  /// A trainer's process: the worker program and no server's.
  static RoleSelection ofTrainer() { return {true, false, std::nullopt}; }
  /// Server `index`'s process: its program only.
  static RoleSelection ofServer(int index) { return {false, false, index}; }

  /// Returns whether the program of server `index` is loaded.
  bool loadsServer(int index) const { return allServers || server == index; }
};

/// What a process loaded of a job.
struct JobSpec {
  SyncMode mode = SyncMode::Sync;
  int trainers = 1;
  /// A digest of the whole transpiled module: the roles of one job agree
  /// on it, whichever role each loaded.
  uint64_t fingerprint = 0;
  /// The worker program, when loaded.
  std::optional<WorkerSpec> worker;
  /// Every server of the job, indexed by server number, with the programs
  /// loaded.
  std::vector<ServerSpec> servers;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_JOBSPEC_H
