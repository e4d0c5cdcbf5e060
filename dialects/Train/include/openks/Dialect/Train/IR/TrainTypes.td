//===- TrainTypes.td - Train dialect types -----------------*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The types of the train dialect: row-sparse values, the gradients of
// sparse embedding tables.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAINTYPES_TD
#define OPENKS_DIALECT_TRAIN_IR_TRAINTYPES_TD

include "openks/Dialect/Train/IR/TrainBase.td"
include "mlir/IR/AttrTypeBase.td"

def Train_RowsType : TypeDef<Train_Dialect, "Rows"> {
  let mnemonic = "rows";
  let summary = "row-sparse value: some rows of a table, with their ids";
  let description = [{
    A value of `!train.rows<tensor<VxDxf32>>` stands for a tensor of the
    table type `tensor<VxDxf32>` that is zero outside a few rows: it holds
    `k` distinct row ids in ascending order and a `[k, D]` tensor of those
    rows' values. `k` is known only at run time; it is at most the number
    of ids the producing op looked up, and at most `V`.

    It is the gradient of a `train.param` marked `sparse` (Paddle's
    `SELECTED_ROWS` gradient of an `is_sparse` lookup table): the embedding
    gradient ops produce it, `train.merge_rows` sums two of them,
    `train.rows_to_dense` scatters one into its table type, and every
    optimizer op takes one and updates only the rows it holds. Unlike
    Paddle's, the ids of a row-sparse value are always distinct, so the
    sparse optimizers never see a row twice.

    ```mlir
    %dt = train.embedding_grad %ids, %de
        : (tensor<?x3xi64>, tensor<?x3x16xf32>) -> !train.rows<tensor<1000x16xf32>>
    ```
  }];
  let parameters = (ins "::mlir::RankedTensorType":$tableType);
  let assemblyFormat = "`<` $tableType `>`";
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::RankedTensorType":$tableType), [{
      return $_get(tableType.getContext(), tableType);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Returns the element type of the rows.
    ::mlir::Type getElementType() const {
      return getTableType().getElementType();
    }
  }];
}

/// A float tensor or the row-sparse form of one: what gradient slots and
/// optimizers take.
def Train_Gradient : AnyTypeOf<[Train_FloatTensor, Train_RowsType],
                               "float tensor or row-sparse value">;

#endif // OPENKS_DIALECT_TRAIN_IR_TRAINTYPES_TD
