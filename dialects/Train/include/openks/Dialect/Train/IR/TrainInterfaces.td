//===- TrainInterfaces.td - Train dialect interfaces -------*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Interfaces and traits shared by the `train` and `ps` dialects:
// parameter-like symbols, initializer attributes, optimizer ops and the
// bounds on tensor shapes.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAININTERFACES_TD
#define OPENKS_DIALECT_TRAIN_IR_TRAININTERFACES_TD

include "mlir/IR/OpBase.td"

/// Every tensor an op takes, returns or binds in a region has a rank of at
/// most 6, positive static dimensions and at most 2^40 elements
/// (openks/Support/Limits.h), so no size computed from it overflows and the
/// runtime can hold it.
def Train_BoundedTensors : NativeOpTrait<"BoundedTensors"> {
  let cppNamespace = "::openks::train";
}

/// Every floating-point attribute of the op (a coefficient, a factor, a
/// schedule's values) is finite: NaN or infinity there would train nothing
/// and still run.
def Train_FiniteFloatAttrs : NativeOpTrait<"FiniteFloatAttrs"> {
  let cppNamespace = "::openks::train";
}

def Train_InitializerAttrInterface
    : AttrInterface<"InitializerAttrInterface"> {
  let cppNamespace = "::openks::train";
  let description = [{
    An attribute that describes how a parameter's initial value is drawn.
    Random initializers are slice-consistent: the value of an element depends
    only on the seed, the element's index in the whole tensor and the whole
    tensor's shape, so a server can initialise just its rows.
  }];
  let methods = [
    InterfaceMethod<[{
        Checks that this initializer can fill a tensor of `type`; reports
        through `emitError` otherwise.
      }],
      "::llvm::LogicalResult", "verifyFor",
      (ins "::mlir::RankedTensorType":$type,
           "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError)>
  ];
}

def Train_ParameterOpInterface : OpInterface<"ParameterOpInterface"> {
  let cppNamespace = "::openks::train";
  let description = [{
    A symbol that holds parameter state: `train.param` in a training or worker
    program, `ps.block` on a server. `train.read`, `train.write` and the
    optimizer ops resolve their symbol operands to ops with this interface.
  }];
  let methods = [
    InterfaceMethod<"Returns the tensor type of the stored value.",
      "::mlir::RankedTensorType", "getParameterType">,
    InterfaceMethod<"Returns whether optimizers may update this parameter.",
      "bool", "isTrainable">,
    InterfaceMethod<"Returns the initializer attribute.",
      "::openks::train::InitializerAttrInterface", "getInitializerAttr">
  ];
}

def Train_GradientOpInterface : OpInterface<"GradientOpInterface"> {
  let cppNamespace = "::openks::train";
  let description = [{
    A forward op that knows its gradient rule. Reverse-mode autodiff
    (`openks-append-backward`) asks each op on the path from the parameters
    to the loss to emit the ops that compute the gradients of its operands
    from the gradients of its results.
  }];
  let methods = [
    InterfaceMethod<[{
        Emits, at `builder`'s insertion point, the ops computing the gradient
        of each operand from `resultGrads` (one per result, null for a result
        that gets no gradient). Appends one value per operand to
        `operandGrads`, null for an operand that takes no gradient (ids,
        labels, stopped values).
      }],
      "::llvm::LogicalResult", "emitGradient",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::ValueRange":$resultGrads,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandGrads)>
  ];
}

def Train_OptimizerOpInterface : OpInterface<"OptimizerOpInterface"> {
  let cppNamespace = "::openks::train";
  let description = [{
    An op that updates one trainable parameter from its gradient and a
    learning rate, owning zero or more state parameters. The transpiler reads
    the (parameter, gradient) pairs from these ops, and slices the
    element-wise state together with the parameter.
  }];
  let methods = [
    InterfaceMethod<"Returns the updated parameter.",
      "::mlir::FlatSymbolRefAttr", "getParamAttr">,
    InterfaceMethod<"Returns the gradient operand.",
      "::mlir::Value", "getGrad">,
    InterfaceMethod<"Returns the learning-rate operand.",
      "::mlir::Value", "getLr">,
    InterfaceMethod<[{
        Returns the state parameters with the parameter's shape (moments,
        velocity): they are sliced like the parameter.
      }],
      "::llvm::SmallVector<::mlir::FlatSymbolRefAttr>", "getElementwiseState">,
    InterfaceMethod<[{
        Returns the rank-0 state parameters (beta powers): every slice keeps
        its own copy.
      }],
      "::llvm::SmallVector<::mlir::FlatSymbolRefAttr>", "getScalarState",
      (ins), [{}], [{ return {}; }]>
  ];
  let verify = [{ return ::openks::train::detail::verifyOptimizerOp($_op); }];
}

#endif // OPENKS_DIALECT_TRAIN_IR_TRAININTERFACES_TD
