//===- CommunicationLowering.cpp - Plan calls that talk to servers --------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ps.send, ps.recv, the barriers and norm reductions become calls of the
// communication kernels (Communication.h) with their servers, blocks and
// norms resolved to numbers here, once. Consecutive receives become one
// call, which pulls their blocks as one batch from every server at once.
// Blocks that a ps.concat only stacks for a train.write land straight in
// their rows of the parameter (row ranges of a row-major tensor are
// contiguous), which saves the concat's copy and the write's; a whole block
// landing as a whole parameter that nothing reads since the send barrier is
// recorded as a Plan::BlockReceive, which lets a trainer in the server's
// process read the server's storage and not pull at all. On a server, a
// clip by a shared norm ends the first stage of its update's plan (see
// Plan.h). A send hands its value's buffer to the transport when nothing
// reads the value afterwards and the buffer is the executor's own;
// otherwise it sends a copy, so a parameter or a value read later is never
// given away.
//
//===----------------------------------------------------------------------===//

#include "PlanLowering.h"

#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Runtime/Kernels.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::loader;

FailureOr<const ServerDirectory *> PlanLowering::getDirectory(Operation *op) {
  if (!directory) {
    auto module = op->getParentOfType<ModuleOp>();
    FailureOr<ServerDirectory> built = ServerDirectory::build(module, op);
    if (failed(built))
      return failure();
    directory = std::move(*built);
  }
  return &*directory;
}

/// Returns whether `op` refers to the parameter `name` by symbol.
static bool refersTo(Operation *op, StringRef name) {
  bool found = false;
  op->getAttrDictionary().walk([&](SymbolRefAttr ref) {
    found |=
        ref.getLeafReference() == name && ref.getNestedReferences().empty();
  });
  return found;
}

LogicalResult PlanLowering::planInPlaceReceives(Block &block) {
  for (auto write : block.getOps<train::WriteOp>()) {
    Value value = write.getValue();
    if (!isa<RankedTensorType>(value.getType()) || !value.hasOneUse())
      continue;
    // A write checks the parameter's type here, as it would when lowered.
    FailureOr<ParameterId> id =
        lookupParameter(write, write.getParamAttr(), value.getType());
    if (failed(id))
      return failure();
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<Value> pieces = {value};
    auto concat = value.getDefiningOp<ps::ConcatOp>();
    if (concat)
      pieces.assign(concat.getInputs().begin(), concat.getInputs().end());

    // Every piece is a received block that nothing else reads.
    unsigned writeAt = positions.lookup(write);
    unsigned firstReceive = writeAt;
    SmallVector<Operation *> chain = {write};
    if (concat)
      chain.push_back(concat);
    bool receivedOnly = llvm::all_of(pieces, [&](Value piece) {
      auto recv = piece.getDefiningOp<ps::RecvOp>();
      if (!recv || !piece.hasOneUse())
        return false;
      firstReceive = std::min(firstReceive, positions.lookup(recv));
      chain.push_back(recv);
      return true;
    });
    if (!receivedOnly || (concat && type.getRank() == 0))
      continue;

    // Landing at the receive moves the write there: nothing may read or
    // write the parameter in between, nor read it before and use the
    // value after. Being the server's storage of the block moves the write
    // back to the send barrier before the receives (the plan's start when
    // there is none): the same holds from there on.
    StringRef name = write.getParam();
    auto touchedFrom = [&](std::optional<unsigned> from) {
      return llvm::any_of(block, [&](Operation &op) {
        unsigned at = positions.lookup(&op);
        if (at >= writeAt || llvm::is_contained(chain, &op))
          return false;
        if (!from || at > *from)
          return refersTo(&op, name);
        auto read = dyn_cast<train::ReadOp>(op);
        return read && read.getParam() == name &&
               getLastUse(read.getValue()) >= *from;
      });
    };
    if (touchedFrom(firstReceive))
      continue;

    landed.insert(write);
    if (!concat) {
      std::optional<unsigned> barrier;
      for (auto sendBarrier : block.getOps<ps::SendBarrierOp>())
        if (unsigned at = positions.lookup(sendBarrier); at < firstReceive)
          barrier = at;
      landings[value] = {*id, std::nullopt, !touchedFrom(barrier)};
      continue;
    }
    landed.insert(concat);
    int64_t row = 0;
    for (Value piece : pieces) {
      int64_t rows = cast<RankedTensorType>(piece.getType()).getDimSize(0);
      landings[piece] = {*id, Plan::RowRange{row, rows},
                         /*blockReceive=*/false};
      row += rows;
    }
  }
  return success();
}

/// The runtime's message kinds have the values of the dialect's.
static MessageKind getMessageKind(ps::MessageKind kind) {
  return static_cast<MessageKind>(kind);
}

LogicalResult PlanLowering::lowerCommunication(Operation *op) {
  FailureOr<const ServerDirectory *> servers = getDirectory(op);
  if (failed(servers))
    return failure();
  auto serverList = [&](ArrayAttr names) -> FailureOr<std::vector<int>> {
    std::vector<int> indices;
    for (auto name : names.getAsRange<FlatSymbolRefAttr>()) {
      FailureOr<int> index = (*servers)->getServer(op, name);
      if (failed(index))
        return failure();
      indices.push_back(*index);
    }
    return indices;
  };

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](ps::SendOp send) -> LogicalResult {
        FailureOr<BlockAddress> to = (*servers)->getBlock(op, send.getTarget());
        if (failed(to))
          return failure();
        unsigned position = positions.lookup(op);
        // Returns a slot the send may give away: `slot` when this is the
        // last use of its buffer, or a copy of it.
        auto consumable = [&](SlotId slot, bool lastUse) -> FailureOr<SlotId> {
          if (lastUse && builder.isBufferSlot(slot))
            return slot;
          const Plan::Slot &layout = builder.getSlot(slot);
          SlotId copy = builder.addSlot(layout.dtype, layout.capacity);
          if (failed(call(op, kernels::copy, In{slot}, Out{copy})))
            return failure();
          return copy;
        };
        FailureOr<SlotId> value = consumable(
            in(send.getValue()).slot, getLastUse(send.getValue()) == position);
        if (failed(value))
          return failure();
        MessageKind kind = getMessageKind(send.getKind());
        if (!isa<train::RowsType>(send.getValue().getType()))
          return call(op, kernels::send, Communication{}, *to, kind,
                      Consumed{*value});
        FailureOr<SlotId> ids =
            consumable(rowIds(send.getValue()).slot,
                       getLastUseOfIds(send.getValue()) == position);
        if (failed(ids))
          return failure();
        return call(op, kernels::sendRows, Communication{}, *to, kind,
                    Consumed{*ids}, Consumed{*value});
      })
      .Case([&](ps::RecvOp first) -> LogicalResult {
        // The receives that follow go in the same batch.
        std::vector<BlockAddress> from;
        SmallVector<Value> values;
        for (Operation *next = first;
             auto recv = dyn_cast_or_null<ps::RecvOp>(next);
             next = next->getNextNode()) {
          FailureOr<BlockAddress> address =
              (*servers)->getBlock(recv, recv.getSource());
          if (failed(address))
            return failure();
          from.push_back(*address);
          values.push_back(recv.getValue());
          batched.insert(recv);
        }
        Outs blocks;
        for (Value value : values) {
          auto landing = landings.find(value);
          if (landing == landings.end()) {
            blocks.slots.push_back(out(value).slot);
            continue;
          }
          const Landing &to = landing->second;
          SlotId slot = to.rows ? builder.addParameterRowsSlot(to.parameter,
                                                               to.rows->first,
                                                               to.rows->count)
                                : builder.addParameterSlot(to.parameter);
          slots[value] = slot;
          blocks.slots.push_back(slot);
        }
        if (failed(call(op, kernels::recv, Communication{}, from, blocks)))
          return failure();
        for (auto [value, address] : llvm::zip_equal(values, from))
          if (auto landing = landings.find(value);
              landing != landings.end() && landing->second.blockReceive)
            builder.addBlockReceive(landing->second.parameter, address);
        return success();
      })
      .Case([&](ps::PrefetchOp first) -> LogicalResult {
        // The prefetches that follow go in the same batch.
        std::vector<BlockAddress> from;
        Ins ids;
        Outs outIds, outValues;
        for (Operation *next = first;
             auto prefetch = dyn_cast_or_null<ps::PrefetchOp>(next);
             next = next->getNextNode()) {
          FailureOr<BlockAddress> address =
              (*servers)->getBlock(prefetch, prefetch.getSource());
          if (failed(address))
            return failure();
          from.push_back(*address);
          In requested = in(prefetch.getRows());
          ids.slots.push_back(requested.slot);
          auto [rowIds, rows] = outRows(
              prefetch.getValue(), builder.getSlot(requested.slot).capacity);
          outIds.slots.push_back(rowIds.slot);
          outValues.slots.push_back(rows.slot);
          batched.insert(prefetch);
        }
        return call(op, kernels::prefetch, Communication{}, from, ids, outIds,
                    outValues);
      })
      .Case([&](ps::SendBarrierOp barrier) -> LogicalResult {
        FailureOr<std::vector<int>> indices = serverList(barrier.getServers());
        if (failed(indices))
          return failure();
        return call(op, kernels::sendBarrier, Communication{}, *indices);
      })
      .Case([&](ps::FetchBarrierOp barrier) -> LogicalResult {
        FailureOr<std::vector<int>> indices = serverList(barrier.getServers());
        if (failed(indices))
          return failure();
        return call(op, kernels::fetchBarrier, Communication{}, *indices);
      })
      .Case([&](ps::ReduceNormOp reduction) -> LogicalResult {
        std::vector<NormAddress> copies;
        for (auto server :
             reduction.getServers().getAsRange<FlatSymbolRefAttr>()) {
          FailureOr<NormAddress> copy =
              (*servers)->getNorm(op, server, reduction.getNormAttr());
          if (failed(copy))
            return failure();
          copies.push_back(*copy);
        }
        return call(op, kernels::reduceNorm, Communication{}, copies);
      });
}

LogicalResult PlanLowering::lowerSharedNormClip(ps::ClipByGlobalNormOp clip) {
  // The update's first stage ends with its squares as the plan's output;
  // the second begins with the norm fed as its second input.
  SlotId squares = builder.addSlot(DType::F64, 1);
  if (failed(
          call(clip, kernels::sumOfSquares, in(clip.getValue()), Out{squares})))
    return failure();
  builder.addOutput(squares, "squares");
  builder.endStage();
  SlotId norm = builder.addSlot(DType::F64, 1);
  builder.addInput(norm, FeedSpec{DType::F64, Shape{}});
  return call(clip, kernels::clipToNorm, in(clip.getValue()), In{norm},
              clip.getMaxNorm().convertToDouble(), out(clip.getClipped()));
}
