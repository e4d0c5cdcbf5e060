//===- TrainBase.td - Train dialect definition -------------*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `train` dialect, its resources and the base classes of its ops.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAINBASE_TD
#define OPENKS_DIALECT_TRAIN_IR_TRAINBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "openks/Dialect/Train/IR/TrainInterfaces.td"

def Train_Dialect : Dialect {
  let name = "train";
  let cppNamespace = "::openks::train";
  let summary = "Training programs: parameters, a step function, forward, "
                "gradient and optimizer ops.";
  let description = [{
    The `train` dialect models a single-machine training program the way a
    PaddlePaddle `ProgramDesc` does, with coarse ops so that programs import
    one-to-one and the runtime has one kernel per op.

    * Parameters are state: `train.param` declares a symbol with a static
      tensor type, an initializer and a trainable flag (written `frozen` when
      the parameter is not trained). Ops reach them only
      through `train.read`, `train.write` and the optimizer ops, which carry
      effects on the parameter resource.
    * `train.step` is the function run once per mini-batch: its arguments are
      the fed inputs, its results the fetched values (the loss first).
    * Forward ops and their `*_grad` ops are pure; an op's grad op takes what
      the gradient rule needs and returns one gradient per differentiable
      input, with the input's type.
    * Optimizer ops name the parameter they update and the state parameters
      they own, and take the gradient and the learning rate as values.
    * The gradient of a table marked `sparse` is row-sparse
      (`!train.rows`): the rows its lookups touched, with their ids. The
      optimizers update only those rows.

    Scalars are rank-0 tensors throughout (`tensor<f32>`).
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Registers the initializer and role attributes.
    void registerAttributes();
    /// Registers the row-sparse type.
    void registerTypes();

    /// The discardable attribute that tags an op with its role.
    static constexpr ::llvm::StringLiteral kRoleAttrName = "train.role";
  }];
  let hasOperationAttrVerify = 1;
}

/// The state that parameters live in: reads, writes and optimizer updates
/// carry effects on it, so no pass reorders them across one another.
def Train_ParameterResource : Resource<"::openks::train::ParameterResource">;

/// The gradient slots that `openks-append-backward` fills and
/// `openks-append-optimizer` consumes.
def Train_GradientResource : Resource<"::openks::train::GradientResource">;

/// What an op does in a training step; the values are Paddle's `op_role`.
def Train_Role : I32EnumAttr<"Role", "the role of an op in a training step", [
    I32EnumAttrCase<"Forward", 0, "forward">,
    I32EnumAttrCase<"Backward", 1, "backward">,
    I32EnumAttrCase<"Optimize", 2, "optimize">,
    I32EnumAttrCase<"LRSchedule", 16, "lr_schedule">]> {
  let cppNamespace = "::openks::train";
  let genSpecializedAttr = 0;
}

/// `#train.role<backward>`, carried by ops as the discardable `train.role`
/// attribute.
def Train_RoleAttr : EnumAttr<Train_Dialect, Train_Role, "role"> {
  let assemblyFormat = "`<` $value `>`";
}

/// Base class of every `train` op.
class Train_Op<string mnemonic, list<Trait> traits = []>
    : Op<Train_Dialect, mnemonic, !listconcat(traits, [Train_BoundedTensors, Train_FiniteFloatAttrs])>;

/// Base class of the side-effect free `train` ops (forward and grad ops).
class Train_PureOp<string mnemonic, list<Trait> traits = []>
    : Train_Op<mnemonic, !listconcat(traits, [Pure])>;

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

/// Floating-point tensors the kernels compute on.
def Train_FloatTensor : RankedTensorOf<[F32, F64]>;

/// Integer id and label tensors (int64, as in Paddle).
def Train_IdTensor : RankedTensorOf<[I64]>;

/// A rank-0 floating-point tensor (loss, learning rate, beta powers).
def Train_FloatScalar : 0DTensorOf<[F32, F64]>;

#endif // OPENKS_DIALECT_TRAIN_IR_TRAINBASE_TD
