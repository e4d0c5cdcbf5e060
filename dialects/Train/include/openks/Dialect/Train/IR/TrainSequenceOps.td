//===- TrainSequenceOps.td - Pooling of id lists -----------*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Pooling of variable-length sequences of rows, given as the rows of all
// sequences one after another and a tensor of lengths (a dense form of
// Paddle's level-1 LoD tensors), and the fused pooling of embedding rows.
// Included from TrainOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAINSEQUENCEOPS_TD
#define OPENKS_DIALECT_TRAIN_IR_TRAINSEQUENCEOPS_TD

/// How the rows of one sequence combine (Paddle's `pooltype`).
def Train_PoolType : I32EnumAttr<"PoolType",
    "how the rows of a sequence are pooled", [
      I32EnumAttrCase<"Sum", 0, "sum">,
      I32EnumAttrCase<"Mean", 1, "mean">,
      I32EnumAttrCase<"Sqrt", 2, "sqrt">]> {
  let cppNamespace = "::openks::train";
}

def Train_SequencePoolOp : Train_InferredOp<"sequence_pool", [
    DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Pools each variable-length sequence of rows into one row.";
  let description = [{
    `x` is `[N, ...]`: the rows of `B` sequences one after another.
    `lengths` is `[B]`: each sequence's number of rows, non-negative and
    summing to `N` (checked when the op runs). Row `b` of the `[B, ...]`
    result combines the rows of sequence `b`: their sum (`sum`), their mean
    (`mean`) or their sum divided by the square root of the length
    (`sqrt`). An empty sequence pools to zeros.

    This is Paddle's `sequence_pool` with pooltype `SUM`, `AVERAGE` or
    `SQRT` (and `pad_value` 0) on a level-1 LoD tensor whose offsets are the
    running sums of `lengths`. Over `train.embedding` it pools lists of ids
    of any length, and the gradient reaches the table through both ops:

    ```mlir
    %e = train.embedding %table, %ids
        : (tensor<1000x16xf32>, tensor<?xi64>) -> tensor<?x16xf32>
    %p = train.sequence_pool sum %e, %lengths
        : (tensor<?x16xf32>, tensor<?xi64>) -> tensor<?x16xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x, Train_IdTensor:$lengths,
                       Train_PoolType:$pooltype);
  let results = (outs Train_FloatTensor:$out);
  let assemblyFormat = [{
    $pooltype $x `,` $lengths attr-dict `:` functional-type(operands, results)
  }];
}

def Train_SequencePoolGradOp : Train_InferredOp<"sequence_pool_grad"> {
  let summary = "Gradient of `train.sequence_pool`.";
  let description = [{
    Each row of sequence `b` gets `dout[b]`, divided by the length (`mean`)
    or by its square root (`sqrt`).

    ```mlir
    %de = train.sequence_pool_grad sum %e, %lengths, %dp
        : (tensor<?x16xf32>, tensor<?xi64>, tensor<?x16xf32>) -> tensor<?x16xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x, Train_IdTensor:$lengths,
                       Train_FloatTensor:$dout, Train_PoolType:$pooltype);
  let results = (outs Train_FloatTensor:$dx);
  let assemblyFormat = [{
    $pooltype $x `,` $lengths `,` $dout attr-dict `:`
    functional-type(operands, results)
  }];
}

def Train_EmbeddingPoolOp : Train_InferredOp<"embedding_pool", [
    DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Pools the embedding rows of variable-length id lists.";
  let description = [{
    Equals `train.sequence_pool` of `train.embedding` (with the same
    `padding_idx`) without the `[N, D]` rows in between: `table` is `[V, D]`,
    `ids` is `[N]`, the lists' `lengths` are `[B]` and the result is
    `[B, D]`. A padding id reads as a zero row and still counts in its
    list's length. Paddle's `fused_embedding_seq_pool` is the `sum` case.
    Like `train.embedding`, it may look up the rows of a row-sparse value.

    ```mlir
    %p = train.embedding_pool mean %table, %ids, %lengths
        : (tensor<1000x16xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x16xf32>
    ```
  }];
  let arguments = (ins Train_Gradient:$table, Train_IdTensor:$ids,
                       Train_IdTensor:$lengths, Train_PoolType:$pooltype,
                       OptionalAttr<I64Attr>:$padding_idx);
  let results = (outs Train_FloatTensor:$out);
  let assemblyFormat = [{
    $pooltype $table `,` $ids `,` $lengths attr-dict `:`
    functional-type(operands, results)
  }];
}

def Train_EmbeddingPoolGradOp : Train_PureOp<"embedding_pool_grad"> {
  let summary = "Gradient of `train.embedding_pool` w.r.t. the table.";
  let description = [{
    Scatter-adds `dout[b]` (divided as in `train.sequence_pool_grad`) into a
    zero tensor of the table's type at each id of list `b`, skipping
    `padding_idx`. With a `!train.rows` result it holds only the rows of
    the distinct ids, as `train.embedding_grad` does.

    ```mlir
    %dt = train.embedding_pool_grad mean %ids, %lengths, %dp
        : (tensor<?xi64>, tensor<?xi64>, tensor<?x16xf32>) -> tensor<1000x16xf32>
    ```
  }];
  let arguments = (ins Train_IdTensor:$ids, Train_IdTensor:$lengths,
                       Train_FloatTensor:$dout, Train_PoolType:$pooltype,
                       OptionalAttr<I64Attr>:$padding_idx);
  let results = (outs Train_Gradient:$dtable);
  let assemblyFormat = [{
    $pooltype $ids `,` $lengths `,` $dout attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // OPENKS_DIALECT_TRAIN_IR_TRAINSEQUENCEOPS_TD
