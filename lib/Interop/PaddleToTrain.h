//===- PaddleToTrain.h - Mapping Paddle ops onto train ops ------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The state shared by the builder of a `train.step` from block 0 of a
// Paddle program (PaddleToTrain.cpp) and the handlers that map one Paddle
// op each (PaddleOpsToTrain.cpp, PaddleMathOpsToTrain.cpp): the values of
// the variables so far, the parameters, and the attribute readers that
// accept Paddle's integer and float tags interchangeably.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_INTEROP_PADDLETOTRAIN_H
#define OPENKS_LIB_INTEROP_PADDLETOTRAIN_H

#include "openks/Dialect/Paddle/IR/PaddleOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/StringMap.h"

namespace openks::interop {

/// The name Paddle gives a gradient that nothing needs.
inline constexpr llvm::StringLiteral kEmptyVarName = "@EMPTY@";

/// Paddle's op_role bit that marks the op computing the loss.
inline constexpr int64_t kLossRoleBit = 0x100;

/// Returns the double nearest to the shortest decimal that reads back as
/// `value`, so a Paddle FLOAT attribute of 0.1f reads as 0.1.
double widenFloat(float value);

/// Reads the slots and attributes of one Paddle op, reporting errors about
/// it as "blocks[0].ops[3] ('mul'): ...".
class OpReader {
public:
  /// Makes `op`, whose position in block 0 is `index`, the op read.
  void setOp(paddle::GenericOp newOp, size_t index) {
    op = newOp;
    opIndex = index;
  }
  paddle::GenericOp getOp() { return op; }

  /// Returns how messages name the op: "blocks[0].ops[3] ('mul')".
  std::string describe();

  /// Starts an error about the op.
  mlir::InFlightDiagnostic fail();

  /// Returns the names of the variables bound to an input or output slot
  /// (none if the op has no such slot).
  llvm::SmallVector<llvm::StringRef> getInputNames(llvm::StringRef slot);
  llvm::SmallVector<llvm::StringRef> getOutputNames(llvm::StringRef slot);

  /// Reads an integer attribute (INT or LONG), `defaultValue` if absent.
  mlir::FailureOr<int64_t> getInt(llvm::StringRef name, int64_t defaultValue);
  /// Reads a float attribute (FLOAT, widened, or FLOAT64).
  mlir::FailureOr<double> getFloat(llvm::StringRef name, double defaultValue);
  /// Reads a BOOLEAN attribute.
  mlir::FailureOr<bool> getBool(llvm::StringRef name, bool defaultValue);
  /// Reads a STRING attribute.
  mlir::FailureOr<std::string> getString(llvm::StringRef name,
                                         llvm::StringRef defaultValue);
  /// Reads an integer list attribute (INTS or LONGS); without a default,
  /// the op must have it.
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  getInts(llvm::StringRef name,
          std::optional<llvm::ArrayRef<int64_t>> defaultValue = std::nullopt);

  /// Checks that an attribute is absent or has the value `expected`, the
  /// only one the train counterpart expresses.
  mlir::LogicalResult checkInt(llvm::StringRef name, int64_t expected);
  mlir::LogicalResult checkFloat(llvm::StringRef name, double expected);
  mlir::LogicalResult checkBool(llvm::StringRef name, bool expected);

  /// Returns the op's train role: from its op_role, or by its type.
  std::optional<train::Role> getRole();

private:
  /// Returns the attribute `name`, failing if it is there but not a
  /// `ValueT`.
  template <typename ValueT>
  mlir::FailureOr<ValueT> getAttr(llvm::StringRef name, llvm::StringRef what);

  paddle::GenericOp op;
  size_t opIndex = 0;
};

/// A parameter of the program being built.
struct ParamInfo {
  mlir::RankedTensorType type;
  bool frozen = false;
  /// Whether it is a sparse table: its lookups are all is_sparse or
  /// is_distributed.
  bool sparse = false;
};

/// Builds the body of one `train.step`, one Paddle op at a time.
class StepBuilder : public OpReader {
public:
  StepBuilder(mlir::OpBuilder &builder,
              const llvm::StringMap<paddle::VarOp> &vars,
              const llvm::StringMap<ParamInfo> &params)
      : builder(builder), vars(vars), params(params) {}

  /// Makes `op`, whose position in block 0 is `index`, the op being mapped.
  void setCurrentOp(paddle::GenericOp op, size_t index);

  mlir::OpBuilder &getBuilder() { return builder; }

  /// Creates an `OpTy` for the current op, at its location and with its
  /// role; the op computing a variable is later named after it.
  /// The result types of ops that infer them are inferred first, so
  /// operands of the wrong types give an error, not an abort.
  template <typename OpTy, typename... Args>
  mlir::FailureOr<OpTy> create(Args &&...args) {
    if constexpr (OpTy::template hasTrait<
                      mlir::InferTypeOpInterface::Trait>()) {
      mlir::OperationState state(loc, OpTy::getOperationName());
      OpTy::build(builder, state, mlir::TypeRange(),
                  std::forward<Args>(args)...);
      llvm::SmallVector<mlir::Type> types;
      if (failed(noteOnError([&] {
            return OpTy::inferReturnTypes(
                builder.getContext(), loc, state.operands,
                state.attributes.getDictionary(builder.getContext()),
                state.getRawProperties(), state.regions, types);
          })))
        return mlir::failure();
      state.addTypes(types);
      return finish(llvm::cast<OpTy>(builder.create(state)));
    } else {
      return finish(OpTy::create(builder, loc, std::forward<Args>(args)...));
    }
  }

  /// Returns the value of the one variable bound to input `slot`, reading
  /// it if it is a parameter.
  mlir::FailureOr<mlir::Value> getInput(llvm::StringRef slot);

  /// Returns the values of the variables bound to input `slot`.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  getInputs(llvm::StringRef slot);

  /// Returns the value of the variable `name`.
  mlir::FailureOr<mlir::Value> getValue(llvm::StringRef name);

  /// Checks that input `slot` binds no variable (an optional tensor input
  /// the train counterpart has no operand for).
  mlir::LogicalResult checkNoInput(llvm::StringRef slot);

  /// Binds the variable of output `slot`, if the op names one, to `value`;
  /// a parameter is written.
  mlir::LogicalResult setOutput(llvm::StringRef slot, mlir::Value value);
  template <typename OpTy>
  mlir::LogicalResult setOutput(llvm::StringRef slot,
                                mlir::FailureOr<OpTy> op) {
    if (failed(op))
      return mlir::failure();
    return setOutput(slot, (*op)->getResult(0));
  }

  /// Binds the variables of output `slot` to `values`, skipping @EMPTY@.
  mlir::LogicalResult setOutputs(llvm::StringRef slot, mlir::ValueRange values);

  /// Returns the parameter bound to input `slot`, checking that output
  /// `outSlot`, if the op has it, names the same variable (an update in
  /// place).
  mlir::FailureOr<mlir::FlatSymbolRefAttr>
  getUpdatedParam(llvm::StringRef slot, llvm::StringRef outSlot);

  /// Returns `value` as a rank-0 tensor: as is, or reshaped from a tensor
  /// of one element (Paddle's shape [1]).
  mlir::FailureOr<mlir::Value> toScalar(mlir::Value value);

  /// Returns whether the variable `name` is marked stop_gradient.
  bool stopsGradient(llvm::StringRef name);

  /// Returns whether `table` is the value of a sparse table, whose lookup
  /// gradients are row-sparse.
  bool isSparseTable(mlir::Value table);

  /// Records that variable `name` is the softmax of `logits`, so that a
  /// cross entropy over it and the gradient of softmax_with_cross_entropy
  /// can be written in terms of the logits.
  void setSoftmaxOf(llvm::StringRef name, mlir::Value logits) {
    softmaxOf[name] = logits;
  }
  /// Returns the logits whose softmax variable `name` is, or null.
  mlir::Value getSoftmaxOf(llvm::StringRef name) {
    return softmaxOf.lookup(name);
  }

  /// Records the input of the reshape whose XShape output is `xshape`.
  void setReshapeInput(llvm::StringRef xshape, mlir::Value input) {
    reshapeInputs[xshape] = input;
  }
  mlir::Value getReshapeInput(llvm::StringRef xshape) {
    return reshapeInputs.lookup(xshape);
  }

  /// Records that the LoD of variable `name` holds the lists of lengths
  /// `lengths`: a fed input's, or a lookup's of its ids.
  void setLengthsOf(llvm::StringRef name, mlir::Value lengths) {
    lodLengths[name] = lengths;
  }
  /// Returns the lengths of the lists of variable `name`'s LoD, or null.
  mlir::Value getLengthsOf(llvm::StringRef name) {
    return lodLengths.lookup(name);
  }

  /// Records that variable `name` is a fill_constant_batch_size_like of
  /// ones, of dims `dims` but for dimension 0, that of variable `like`.
  void setOnesLike(llvm::StringRef name, llvm::StringRef like,
                   llvm::ArrayRef<int64_t> dims) {
    onesLike[name] = {like.str(), llvm::SmallVector<int64_t>(dims)};
  }
  /// Returns what setOnesLike recorded of variable `name`, if anything.
  const std::pair<std::string, llvm::SmallVector<int64_t>> *
  getOnesLike(llvm::StringRef name) {
    auto found = onesLike.find(name);
    return found == onesLike.end() ? nullptr : &found->second;
  }

  /// Binds variable `name` to `value` (a fed input).
  void bind(llvm::StringRef name, mlir::Value value) { values[name] = value; }

  /// Runs `fn`, adding to each error it reports a note on the Paddle op
  /// being mapped.
  mlir::LogicalResult noteOnError(llvm::function_ref<mlir::LogicalResult()> fn);

private:
  /// Tags an op made for the current op with its role, and checks it.
  template <typename OpTy> mlir::FailureOr<OpTy> finish(OpTy created) {
    if (role)
      train::setRole(created, *role);
    if (failed(verifyCreated(created)))
      return mlir::failure();
    return created;
  }
  mlir::LogicalResult verifyCreated(mlir::Operation *created);

  /// Returns the value of parameter `name`: the last read since it was
  /// last updated, or a new `train.read`.
  mlir::FailureOr<mlir::Value> readParam(llvm::StringRef name);

  /// Binds variable `name` to `value`, writing it if it is a parameter.
  mlir::LogicalResult define(llvm::StringRef name, mlir::Value value);

  mlir::OpBuilder &builder;
  const llvm::StringMap<paddle::VarOp> &vars;
  const llvm::StringMap<ParamInfo> &params;

  mlir::Location loc = mlir::UnknownLoc::get(builder.getContext());
  std::optional<train::Role> role;

  llvm::StringMap<mlir::Value> values;
  llvm::StringMap<mlir::Value> paramReads;
  llvm::StringMap<mlir::Value> softmaxOf;
  llvm::StringMap<mlir::Value> reshapeInputs;
  llvm::StringMap<mlir::Value> lodLengths;
  llvm::StringMap<std::pair<std::string, llvm::SmallVector<int64_t>>> onesLike;
};

/// Maps the current op of `builder` onto train ops.
using OpHandler = mlir::LogicalResult (*)(StepBuilder &builder);

/// Returns the handler of Paddle op type `type`, or null if the op has no
/// train counterpart. `feed` and `fetch` have none: they shape the step.
OpHandler lookupOpHandler(llvm::StringRef type);

/// Returns the handler of a Paddle element-wise, activation or math op
/// (PaddleMathOpsToTrain.cpp), or null for any other op type.
OpHandler lookupMathOpHandler(llvm::StringRef type);

/// Returns Paddle's name for the gradient slot of `slot` ("X@GRAD").
inline std::string grad(llvm::StringRef slot) { return (slot + "@GRAD").str(); }

/// Checks that the current op of `b` (a softmax) normalizes over the last
/// dimension of `x`, as train's softmax does.
mlir::LogicalResult checkLastAxis(StepBuilder &b, mlir::Value x);

/// Returns the train role of Paddle ops of type `type` that carry no
/// op_role: backward for `*_grad` ops, optimize for optimizers, else
/// forward.
train::Role getDefaultRole(llvm::StringRef type);

/// Returns whether input `slot` of an op of type `opType` names state
/// rather than a trained parameter: an optimizer's learning rate, moments,
/// velocity and beta powers, increment's counter. Such parameters are
/// frozen; `isScalar` tells the ones that are rank 0 in train (shape [1] in
/// Paddle).
bool isStateSlot(llvm::StringRef opType, llvm::StringRef slot, bool &isScalar);

} // namespace openks::interop

#endif // OPENKS_LIB_INTEROP_PADDLETOTRAIN_H
