//===- Plan.h - Execution plans over numbered slots -------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A plan is what an executor runs: a flat list of kernel calls over numbered
// value slots, the slots fed from outside (inputs) and those fetched after a
// run (outputs), and the parameters each call reads and writes, by index in
// the ParameterStore the plan was built against. A plan owns no buffers and
// holds no state: it is built once, by a Plan::Builder (the loader builds
// plans from IR, see Loader/PlanBuilder.h), and is const afterwards, so one
// plan can run in any number of executors (see Executor.h) at once.
//
// A slot is one of:
//
// * a buffer: the executor allocates it once, with the slot's dtype and
//   capacity, and kernels resize it within that capacity;
// * a constant: a buffer that the executor fills once with the plan's value;
//   kernel calls only read it;
// * a parameter slot: during a run, the parameter's own value (no copy), or
//   a range of its rows (a view, see Tensor::viewRows). Running the plan
//   reads the parameter, and the slot shows its current value at every
//   point of the run; a kernel that writes the slot writes the parameter
//   (a received block landing in place), and its instruction says so.
//
// Buffer slots share buffers: two buffer slots of one dtype whose live
// ranges (from the first instruction that touches a slot to the last) do
// not overlap get one buffer, with the capacity of the larger. Inputs,
// outputs, constants and slots whose buffer a kernel hands away keep a
// buffer of their own. So an executor holds buffers for the values live at
// once, not one per SSA value at the largest batch.
//
// Every output is a buffer: Builder::build copies an output that would be a
// parameter slot into a buffer of its own at the end of the run, so nothing
// a run hands out aliases a parameter.
//
// A plan may run in stages, one after the other, with the caller in
// between: a server's update that clips by a norm the servers share runs
// up to the clip, yields its share of the norm as an output, and finishes
// once the norm has been fed as an input.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_PLAN_H
#define OPENKS_RUNTIME_PLAN_H

#include "openks/Runtime/Communication.h"
#include "openks/Runtime/DataSource.h"
#include "openks/Runtime/ParameterStore.h"
#include "openks/Runtime/Tensor.h"
#include "openks/Support/Status.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace openks::runtime {

/// The number of a value slot in its plan.
using SlotId = size_t;

/// The tensors one executor runs a plan on, as kernel calls are bound to
/// them: its slots, its store's parameters, and for a worker's plans the
/// communication context. The references stay valid for the executor's
/// lifetime.
class Frame {
public:
  /// Views `slots`, indexed by SlotId, the parameters of `store`, and
  /// `communication` (null outside a worker).
  Frame(const std::vector<Tensor *> &slots, ParameterStore &store,
        const CommunicationContext *communication)
      : slots_(slots), store_(store), communication_(communication) {}

  /// Returns the tensor of slot `id`.
  Tensor &slot(SlotId id) const { return *slots_[id]; }
  /// Returns the value of parameter `id`.
  Tensor &parameter(ParameterId id) const { return store_[id].value; }
  /// Returns how a worker's communication calls reach the servers, or null
  /// when the plan runs outside a worker.
  const CommunicationContext *communication() const { return communication_; }

private:
  const std::vector<Tensor *> &slots_;
  ParameterStore &store_;
  const CommunicationContext *communication_;
};

/// A kernel call bound to one executor's tensors; runs it once.
using BoundKernel = std::function<Status()>;

/// Binds a kernel call to the tensors of an executor. It is called once per
/// executor, when the executor is made; the kernel call it returns keeps
/// pointers to the frame's tensors, so running it neither looks anything up
/// nor allocates.
using KernelBinder = std::function<BoundKernel(const Frame &)>;

/// A step, an update region or any other straight-line program, compiled for
/// execution.
class Plan {
public:
  class Builder;

  /// Rows [first, first + count) of a tensor.
  struct RowRange {
    int64_t first;
    int64_t count;
  };

  /// The layout of one slot.
  struct Slot {
    /// The element type.
    DType dtype;
    /// The number of elements the slot holds without reallocation.
    int64_t capacity;
    /// For a parameter slot: the parameter it is during a run.
    std::optional<ParameterId> parameter;
    /// For a parameter slot over some of the parameter's rows: which rows.
    /// None for the whole parameter.
    std::optional<RowRange> rows;
    /// For a constant slot: the index in constants() of its value.
    std::optional<size_t> constant;
    /// For a buffer or constant slot: the index in buffers() of the buffer
    /// it uses.
    std::optional<size_t> buffer;
  };

  /// The layout of one buffer an executor allocates.
  struct Buffer {
    DType dtype;
    /// The largest capacity of the slots that share it.
    int64_t capacity;
  };

  /// One kernel call.
  struct Instruction {
    /// Binds the call to the tensors of an executor.
    KernelBinder bind;
    /// The parameters the call reads and those it writes, by store index.
    std::vector<ParameterId> reads, writes;
    /// The slots the call reads or writes.
    std::vector<SlotId> slots;
    /// The op's location and name, put in front of its errors.
    std::string where;
  };

  /// A kernel call that receives block `from` whole as the whole value of
  /// parameter `parameter`, in place, with nothing else in the plan reading
  /// or writing the parameter from the send barrier before the call (or
  /// from the start of the plan, when no send barrier comes before it) to
  /// the call. A sync server changes its blocks only in that span of its
  /// trainers' steps, so a trainer whose plans write the parameter by such
  /// calls alone may hold the server's storage of the block as the
  /// parameter's value (see WorkerRole::create).
  struct BlockReceive {
    /// The index of the call in instructions().
    size_t instruction;
    ParameterId parameter;
    BlockAddress from;
  };

  /// How a run uses one parameter.
  struct ParameterAccess {
    ParameterId parameter;
    /// Whether the run writes it (else it only reads it).
    bool write;
  };

  Plan(Plan &&) = default;
  Plan &operator=(Plan &&) = default;

  /// Returns the slots, indexed by SlotId.
  const std::vector<Slot> &slots() const { return slots_; }
  /// Returns the buffers, shared by the buffer and constant slots.
  const std::vector<Buffer> &buffers() const { return buffers_; }
  /// Returns the values of the constant slots.
  const std::vector<Tensor> &constants() const { return constants_; }
  /// Returns the kernel calls in execution order.
  const std::vector<Instruction> &instructions() const { return instructions_; }

  /// Returns the slots fed before each run, in order, and their layouts.
  const std::vector<SlotId> &inputSlots() const { return inputSlots_; }
  const std::vector<FeedSpec> &inputSpecs() const { return inputSpecs_; }
  /// Returns the slots fetched after each run, in order, and their names.
  const std::vector<SlotId> &outputSlots() const { return outputSlots_; }
  const std::vector<std::string> &outputNames() const { return outputNames_; }

  /// Returns every parameter a run touches (through a kernel call or a
  /// parameter slot), once, in ascending index order: the locks an executor
  /// holds while it runs the plan.
  const std::vector<ParameterAccess> &accesses() const { return accesses_; }

  /// Returns the receives of whole blocks as whole parameters (see
  /// BlockReceive), in instruction order.
  const std::vector<BlockReceive> &blockReceives() const {
    return blockReceives_;
  }

  /// Returns the number of parameters of the store the plan was built
  /// against; it runs on stores with these parameters, in this order.
  size_t numParameters() const { return numParameters_; }

  /// Returns the number of stages; every plan has at least one.
  size_t numStages() const { return stageEnds_.size(); }
  /// Returns the instructions of stage `stage` as [begin, end) indices.
  std::pair<size_t, size_t> getStage(size_t stage) const {
    return {stage == 0 ? 0 : stageEnds_[stage - 1], stageEnds_[stage]};
  }

private:
  Plan() = default;

  std::vector<Slot> slots_;
  std::vector<Buffer> buffers_;
  std::vector<Tensor> constants_;
  std::vector<Instruction> instructions_;
  std::vector<SlotId> inputSlots_;
  std::vector<FeedSpec> inputSpecs_;
  std::vector<SlotId> outputSlots_;
  std::vector<std::string> outputNames_;
  std::vector<ParameterAccess> accesses_;
  std::vector<BlockReceive> blockReceives_;
  size_t numParameters_ = 0;
  /// Where each stage's instructions end.
  std::vector<size_t> stageEnds_;
};

/// Assembles a plan against the parameters of a store.
class Plan::Builder {
public:
  /// Starts a plan over the parameters of `store`, which must outlive the
  /// builder (the plan does not refer to it).
  explicit Builder(const ParameterStore &store) : store_(store) {}

  /// Adds a buffer slot of `dtype` with room for `capacity` elements.
  SlotId addSlot(DType dtype, int64_t capacity);
  /// Adds a constant slot holding `value`.
  SlotId addConstantSlot(Tensor value);
  /// Adds a slot that is parameter `parameter`'s own value during a run.
  SlotId addParameterSlot(ParameterId parameter);
  /// Adds a slot that is rows [firstRow, firstRow + rows) of parameter
  /// `parameter` during a run.
  SlotId addParameterRowsSlot(ParameterId parameter, int64_t firstRow,
                              int64_t rows);
  /// Returns the parameter that slot `slot` is, if it is a parameter slot.
  std::optional<ParameterId> getParameterOf(SlotId slot) const {
    return plan_.slots_[slot].parameter;
  }
  /// Returns whether slot `slot` is a buffer of the executor's own (neither
  /// a parameter nor a constant slot), which a kernel may hand away.
  bool isBufferSlot(SlotId slot) const {
    return !plan_.slots_[slot].parameter && !plan_.slots_[slot].constant;
  }
  /// Gives buffer slot `slot` a buffer no other slot shares, for a kernel
  /// that hands the buffer away (and gets one of the slot's capacity back).
  void keepOwnBuffer(SlotId slot) { ownBuffers_.push_back(slot); }
  /// Returns the layout of slot `slot`.
  const Slot &getSlot(SlotId slot) const { return plan_.slots_[slot]; }

  /// Appends a kernel call. `reads` and `writes` list the parameters it
  /// reads and writes, through Frame::parameter or parameter slots; a
  /// parameter it writes must be listed, or runs would not hold that
  /// parameter's lock exclusively. `slots` lists every slot it binds: a
  /// slot missing there could share its buffer with another. `where`
  /// ("file:line:col: 'op.name'") prefixes its errors.
  void addInstruction(KernelBinder bind, std::string where,
                      std::vector<SlotId> slots,
                      std::vector<ParameterId> reads = {},
                      std::vector<ParameterId> writes = {});

  /// Records that the last kernel call added receives block `from` as the
  /// whole of parameter `parameter`, which it lists as written, as a
  /// BlockReceive describes.
  void addBlockReceive(ParameterId parameter, BlockAddress from);

  /// Declares buffer slot `slot` as the next fed input, laid out as `spec`.
  void addInput(SlotId slot, FeedSpec spec);
  /// Declares slot `slot` as the next fetched output, named `name`.
  void addOutput(SlotId slot, std::string name);

  /// Ends the current stage: the instructions added from now on run in the
  /// next one.
  void endStage() { plan_.stageEnds_.push_back(plan_.instructions_.size()); }

  /// Returns the plan, after copying each output that is a parameter slot
  /// into a buffer at the end of the run. Slots share buffers unless
  /// `shareBuffers` is false (which only debugging a kernel that reads a
  /// buffer it did not write would want).
  Plan build(bool shareBuffers = true) &&;

private:
  /// Assigns every buffer and constant slot its buffer.
  void assignBuffers(bool shareBuffers);

  const ParameterStore &store_;
  Plan plan_;
  /// The slots given to keepOwnBuffer.
  std::vector<SlotId> ownBuffers_;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_PLAN_H
