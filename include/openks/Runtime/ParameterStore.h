//===- ParameterStore.h - The parameters of one role ------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The state that persists across steps: every parameter of one role (a
// trainer's local copies, or the blocks a server holds), shared by all the
// plans of that role. A worker's startup and main steps, or a server's update
// regions, each run their own plan over the same store.
//
// Locking contract. A store is built (every add()) before it is shared; from
// then on its set of parameters and each parameter's name, initializer,
// shapes and flag never change, and only the contents of each `value` do.
// Each parameter has one reader/writer lock, mutex(id), which guards its
// value:
//
// * whoever reads a value while another thread may write it holds the lock
//   shared; whoever writes a value holds it exclusive;
// * whoever holds several locks at once takes them in ascending index order
//   and holds them until it is done with all of them, so no two holders
//   deadlock;
// * a value must not be resized while shared: its shape is the parameter's
//   own, fixed when it is added.
//
// Executor::run follows this contract for every parameter its plan touches;
// code outside a plan that reads or writes a shared store (a transport
// serving a pull, a checkpoint writer) follows it too. Code that owns a store
// alone, such as a test before it starts threads, needs no lock.
//
// A borrowed parameter (borrow()) is the exception: its value is another
// store's storage, written under that store's lock, and the protocol of
// the two roles, not this store's lock, keeps its readers and writers
// apart (see Plan::BlockReceive).
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_PARAMETERSTORE_H
#define OPENKS_RUNTIME_PARAMETERSTORE_H

#include "openks/Runtime/Initializers.h"
#include "openks/Runtime/Tensor.h"
#include "openks/Support/Status.h"

#include <cstddef>
#include <deque>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace openks::runtime {

/// The index of a parameter in its ParameterStore.
using ParameterId = size_t;

/// A named parameter and how it starts.
struct Parameter {
  std::string name;
  /// The variable of the program before transpiling that this parameter
  /// holds (rows of): a block's origin, the shared state that a block's own
  /// copy stands for (a schedule's step counter), else its own name, which
  /// add() fills in when this is empty. Checkpoints are kept by it.
  std::string origin;
  InitializerSpec initializer;
  /// The whole parameter's shape; `value` holds rows [rowBegin, ...) of it
  /// (all of it unless the parameter is a row slice held by a server).
  Shape wholeShape;
  int64_t rowBegin = 0;
  bool trainable = true;
  /// Whether checkpoints keep it (Paddle's `persistable`): every variable
  /// of the program is, the transpiler's own copies (a GEO worker's last
  /// synchronised values) are not.
  bool persistable = true;
  Tensor value;
};

/// The parameters of one role, by index and by name, each with its lock.
class ParameterStore {
public:
  ParameterStore() = default;
  ParameterStore(ParameterStore &&) = default;
  ParameterStore &operator=(ParameterStore &&) = default;

  /// Adds `parameter`, whose name must not be in the store yet, and returns
  /// its index: the number of parameters added before it.
  ParameterId add(Parameter parameter);

  /// Returns the number of parameters.
  size_t size() const { return entries_.size(); }

  /// Returns parameter `id`. Reading or writing its value while the store is
  /// shared needs its lock (see the file comment).
  Parameter &operator[](ParameterId id) { return entries_[id].parameter; }
  const Parameter &operator[](ParameterId id) const {
    return entries_[id].parameter;
  }

  /// Returns the index of the parameter `name`, if there is one.
  std::optional<ParameterId> lookup(const std::string &name) const;

  /// Runs every parameter's initializer on its rows, each under its
  /// exclusive lock (the startup of a role); borrowed parameters are their
  /// owner's to initialise.
  Status initialize();

  /// Makes parameter `id`'s value a view of `storage`, of the same dtype and
  /// shape (rank 1 or more), which must outlive the store and keep its
  /// buffer: a trainer's parameter that is a server's block in the same
  /// process. The store must not be shared yet.
  void borrow(ParameterId id, Tensor &storage);

  /// Returns whether parameter `id` is borrowed.
  bool isBorrowed(ParameterId id) const { return entries_[id].borrowed; }

  /// Returns a store with the same parameters, in the same order, with
  /// zeroed values: plans built against this store run on it too. Each
  /// trainer of a job gets its own this way. Fails with ResourceExhausted
  /// when the memory cannot be had. The store must not be shared yet.
  StatusOr<ParameterStore> cloneLayout() const;

  /// Returns a store of copies of the parameters `ids`, in that order,
  /// values included, each read under its shared lock: what some
  /// parameters were at one point, for a checkpoint taken later. Fails with
  /// ResourceExhausted when the memory cannot be had.
  StatusOr<ParameterStore> copyOf(const std::vector<ParameterId> &ids) const;

  /// Returns the reader/writer lock of parameter `id`.
  std::shared_mutex &mutex(ParameterId id) const { return entries_[id].mutex; }

private:
  struct Entry {
    explicit Entry(Parameter parameter) : parameter(std::move(parameter)) {}

    Parameter parameter;
    mutable std::shared_mutex mutex;
    bool borrowed = false;
  };

  // A deque keeps every entry (and its lock) in place as the store grows and
  // when the store is moved: plans' executors hold pointers into it.
  std::deque<Entry> entries_;
  std::unordered_map<std::string, ParameterId> ids_;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_PARAMETERSTORE_H
