//===- KernelCall.h - Kernel calls over slots and parameters ----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Runtime/Loader: how the loader turns a call of one of the
// kernels in Kernels.h into a plan instruction. The call's tensor arguments
// are slot and parameter numbers, each wrapped in a type that says how the
// kernel uses it (In, Out, ParamOut, ...); other arguments (sizes, factors,
// flags) are plain values. From these, collectUses lists the slots the call
// binds and the parameters it reads and writes, and bindKernel makes the
// KernelBinder that, for each executor, resolves the numbers to that
// executor's tensors once.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_RUNTIME_LOADER_KERNELCALL_H
#define OPENKS_LIB_RUNTIME_LOADER_KERNELCALL_H

#include "openks/Runtime/Kernels.h"
#include "openks/Runtime/Plan.h"

#include <optional>
#include <tuple>
#include <vector>

namespace openks::runtime::loader {

/// A slot the kernel reads.
struct In {
  SlotId slot;
};
/// Slots the kernel reads, passed as one vector.
struct Ins {
  std::vector<SlotId> slots;
};
/// A slot the kernel writes.
struct Out {
  SlotId slot;
};
/// Slots the kernel writes, passed as one vector.
struct Outs {
  std::vector<SlotId> slots;
};
/// A slot the kernel writes if there is one; it gets a null tensor if not.
struct MaybeOut {
  std::optional<SlotId> slot;
};
/// A slot whose buffer the kernel may take (a send's value at its last
/// use); never a parameter or constant slot.
struct Consumed {
  SlotId slot;
};
/// The executor's communication context (null outside a worker).
struct Communication {};
/// The row of the global batch where the worker's shard begins, read when
/// the kernel runs: 0 outside a worker, and 0 for a value whose first
/// dimension is not the batch (`batched` false).
struct FirstRow {
  bool batched;
};
/// A gradient the kernel reads: a dense tensor, or the rows `values` of a
/// row-sparse value with `ids`. It is passed as a kernels::GradientRef.
struct GradIn {
  SlotId values;
  std::optional<SlotId> ids;
};
/// A parameter the kernel reads.
struct ParamIn {
  ParameterId parameter;
};
/// A parameter the kernel updates in place.
struct ParamOut {
  ParameterId parameter;
};

namespace detail {

/// The bound form of MaybeOut: passed to the kernel as a pointer.
struct NullableTensor {
  Tensor *tensor;
};

/// Where a FirstRow argument is read from.
struct FirstRowRef {
  const int64_t *row;
};

/// The bound form of GradIn.
struct GradientTensors {
  const Tensor *values;
  const Tensor *ids;
};

inline const Tensor *bindArgument(const Frame &frame, const In &arg) {
  return &frame.slot(arg.slot);
}
inline std::vector<const Tensor *> bindArgument(const Frame &frame,
                                                const Ins &arg) {
  std::vector<const Tensor *> tensors;
  for (SlotId slot : arg.slots)
    tensors.push_back(&frame.slot(slot));
  return tensors;
}
inline Tensor *bindArgument(const Frame &frame, const Out &arg) {
  return &frame.slot(arg.slot);
}
inline std::vector<Tensor *> bindArgument(const Frame &frame, const Outs &arg) {
  std::vector<Tensor *> tensors;
  for (SlotId slot : arg.slots)
    tensors.push_back(&frame.slot(slot));
  return tensors;
}
inline Tensor *bindArgument(const Frame &frame, const Consumed &arg) {
  return &frame.slot(arg.slot);
}
inline const CommunicationContext *bindArgument(const Frame &frame,
                                                const Communication &) {
  return frame.communication();
}
inline FirstRowRef bindArgument(const Frame &frame, const FirstRow &arg) {
  static const int64_t kWholeBatch = 0;
  const CommunicationContext *communication = frame.communication();
  return {arg.batched && communication ? &communication->firstRow
                                       : &kWholeBatch};
}
inline GradientTensors bindArgument(const Frame &frame, const GradIn &arg) {
  return {&frame.slot(arg.values), arg.ids ? &frame.slot(*arg.ids) : nullptr};
}
inline NullableTensor bindArgument(const Frame &frame, const MaybeOut &arg) {
  return {arg.slot ? &frame.slot(*arg.slot) : nullptr};
}
inline const Tensor *bindArgument(const Frame &frame, const ParamIn &arg) {
  return &frame.parameter(arg.parameter);
}
inline Tensor *bindArgument(const Frame &frame, const ParamOut &arg) {
  return &frame.parameter(arg.parameter);
}
/// Plain values pass through.
template <typename T> const T &bindArgument(const Frame &, const T &value) {
  return value;
}

/// Kernels take tensors by reference, and optional ones by pointer.
inline const Tensor &unwrap(const Tensor *tensor) { return *tensor; }
inline Tensor &unwrap(Tensor *tensor) { return *tensor; }
inline Tensor *unwrap(NullableTensor tensor) { return tensor.tensor; }
inline int64_t unwrap(FirstRowRef ref) { return *ref.row; }
inline kernels::GradientRef unwrap(GradientTensors grad) {
  if (grad.ids)
    return kernels::GradientRef(*grad.ids, *grad.values);
  return kernels::GradientRef(*grad.values);
}
template <typename T> const T &unwrap(const T &value) { return value; }

} // namespace detail

/// What one kernel call binds.
struct CallUses {
  /// The parameters it reads and those it writes.
  std::vector<ParameterId> reads, writes;
  /// Every slot it reads or writes.
  std::vector<SlotId> slots;
};

namespace detail {

/// Notes slot `slot`, which the call reads, or writes if `write`.
inline void noteSlot(const Plan::Builder &builder, SlotId slot, bool write,
                     CallUses &uses) {
  uses.slots.push_back(slot);
  if (std::optional<ParameterId> id = builder.getParameterOf(slot))
    (write ? uses.writes : uses.reads).push_back(*id);
}

/// Notes what one argument makes the call bind.
inline void noteUse(Plan::Builder &builder, const In &arg, CallUses &uses) {
  noteSlot(builder, arg.slot, /*write=*/false, uses);
}
inline void noteUse(Plan::Builder &builder, const Ins &arg, CallUses &uses) {
  for (SlotId slot : arg.slots)
    noteSlot(builder, slot, /*write=*/false, uses);
}
inline void noteUse(Plan::Builder &builder, const Out &arg, CallUses &uses) {
  noteSlot(builder, arg.slot, /*write=*/true, uses);
}
inline void noteUse(Plan::Builder &builder, const Outs &arg, CallUses &uses) {
  for (SlotId slot : arg.slots)
    noteSlot(builder, slot, /*write=*/true, uses);
}
inline void noteUse(Plan::Builder &builder, const MaybeOut &arg,
                    CallUses &uses) {
  if (arg.slot)
    noteSlot(builder, *arg.slot, /*write=*/true, uses);
}
inline void noteUse(Plan::Builder &builder, const Consumed &arg,
                    CallUses &uses) {
  builder.keepOwnBuffer(arg.slot);
  noteSlot(builder, arg.slot, /*write=*/true, uses);
}
inline void noteUse(Plan::Builder &builder, const GradIn &arg, CallUses &uses) {
  noteSlot(builder, arg.values, /*write=*/false, uses);
  if (arg.ids)
    noteSlot(builder, *arg.ids, /*write=*/false, uses);
}
inline void noteUse(Plan::Builder &, const ParamIn &arg, CallUses &uses) {
  uses.reads.push_back(arg.parameter);
}
inline void noteUse(Plan::Builder &, const ParamOut &arg, CallUses &uses) {
  uses.writes.push_back(arg.parameter);
}
template <typename T> void noteUse(Plan::Builder &, const T &, CallUses &) {}

} // namespace detail

/// Returns what a call with `args` binds: its slots, the parameters it
/// reads (through parameter slots or ParamIn) and those it writes (through
/// ParamOut or by writing a parameter slot). A Consumed slot keeps a buffer
/// of its own, since the kernel hands that buffer away.
template <typename... Args>
CallUses collectUses(Plan::Builder &builder, const Args &...args) {
  CallUses uses;
  (detail::noteUse(builder, args, uses), ...);
  return uses;
}

/// Returns the binder of a call of `kernel` on `args`.
template <typename Kernel, typename... Args>
KernelBinder bindKernel(Kernel kernel, Args... args) {
  return [kernel, args...](const Frame &frame) -> BoundKernel {
    return [kernel,
            bound = std::make_tuple(detail::bindArgument(frame, args)...)] {
      return std::apply(
          [&](const auto &...values) {
            return kernel(detail::unwrap(values)...);
          },
          bound);
    };
  };
}

} // namespace openks::runtime::loader

#endif // OPENKS_LIB_RUNTIME_LOADER_KERNELCALL_H
