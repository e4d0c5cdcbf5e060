//===- ServerRole.h - A server's program over its parameters ----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The program side of one parameter server: its blocks in a parameter store
// and an executor per update region. It is the ServerProgram a
// ParameterServer runs the protocol over. An update takes the received
// buffer as its plan's input (the sender gets the input's previous buffer
// back), and runs under the locks of the parameters it touches; a read
// copies a block under its shared lock, so pulls and updates of one block
// never overlap. An update that clips by a shared norm runs its plan's
// first stage in beginUpdate and its second in endUpdate.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_SERVERROLE_H
#define OPENKS_RUNTIME_SERVERROLE_H

#include "openks/Runtime/Executor.h"
#include "openks/Runtime/JobSpec.h"
#include "openks/Runtime/ParameterServer.h"

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace openks::runtime {

/// The blocks and updates of one server.
class ServerRole : public ServerProgram {
public:
  /// Makes the executors of the updates of `spec`, the program of the
  /// server `name`; `spec` must outlive the role and stay where it is.
  /// Fails when a buffer cannot be allocated.
  static StatusOr<std::unique_ptr<ServerRole>> create(ServerProgramSpec &spec,
                                                      const std::string &name);

  /// Initialises every block (the server's startup).
  Status initialize() { return spec_.store.initialize(); }

  /// Makes the `count`-th update of this server (counted from 1, over all
  /// blocks) fail, for tests of failure handling.
  void injectFault(int64_t count) { faultAt_ = count; }

  /// Returns the parameters, for checkpoints and tests; shared with the
  /// server's threads while it serves (see ParameterStore's locking).
  const ParameterStore &store() const { return spec_.store; }
  const ServerProgramSpec &spec() const { return spec_; }

  int numBlocks() const override {
    return static_cast<int>(spec_.blocks.size());
  }
  std::string_view blockName(int block) const override;
  MessageKind updateKind(int block) const override {
    return spec_.blocks[block].updateKind;
  }
  DType dtype(int block) const override;
  const Shape &shape(int block) const override;
  bool takesRows(int block) const override {
    return spec_.blocks[block].takesRows;
  }
  Status update(int block, Tensor &received, Tensor *rowIds) override;
  Status read(int block, Tensor &out) override;
  Status readRows(int block, const Tensor &rowIds, Tensor &out) override;
  Tensor *storage(int block) override {
    return &spec_.store[spec_.blocks[block].parameter].value;
  }
  int numNorms() const override { return static_cast<int>(spec_.norms.size()); }
  std::string_view normName(int norm) const override {
    return spec_.norms[norm];
  }
  std::optional<int> clipNorm(int block) const override {
    return spec_.blocks[block].norm;
  }
  Status beginUpdate(int block, Tensor &received, Tensor *rowIds,
                     double &squares) override;
  Status endUpdate(int block, double norm) override;
  bool areUpdatesIndependent() const override { return independent_; }

private:
  explicit ServerRole(ServerProgramSpec &spec) : spec_(spec) {}

  /// Returns the executor of the block's update, having counted the update
  /// and failed it if a fault is injected there.
  StatusOr<Executor *> startUpdate(int block);
  /// Gives the received value (and its row ids) to the executor's inputs.
  static void feed(Executor &executor, Tensor &received, Tensor *rowIds);
  /// Runs stage `stage` of the block's update in `executor`.
  Status runUpdate(int block, Executor &executor, std::optional<size_t> stage);

  ServerProgramSpec &spec_;
  /// Each block's element type and shape, which never change: kept apart
  /// from the values, which updates rewrite while trainers ask for them.
  std::vector<DType> dtypes_;
  std::vector<Shape> shapes_;
  /// One executor per update plan, indexed like spec_.updates.
  std::vector<Executor> updates_;
  /// Whether the blocks' updates may run at the same time.
  bool independent_ = false;
  std::atomic<int64_t> updateCount_{0};
  std::optional<int64_t> faultAt_;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_SERVERROLE_H
