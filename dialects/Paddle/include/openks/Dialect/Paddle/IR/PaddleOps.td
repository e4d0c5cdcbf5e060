//===- PaddleOps.td - Paddle dialect ops -------------------*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_PADDLE_IR_PADDLEOPS_TD
#define OPENKS_DIALECT_PADDLE_IR_PADDLEOPS_TD

include "openks/Dialect/Paddle/IR/PaddleBase.td"
include "openks/Dialect/Paddle/IR/PaddleAttrs.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Paddle_ProgramOp : Paddle_Op<"program", [
    IsolatedFromAbove, NoRegionArguments, NoTerminator, SingleBlock]> {
  let summary = "A Paddle program (ProgramDesc): its blocks in order.";
  let description = [{
    Holds one `paddle.block` per block of the program, block `i` at position
    `i`. The optional attributes are the program's `Version` (`version`),
    its 2.x op version map (`op_version_map`) and its 1.6-1.8 op
    compatibility map (`op_compatible_map` and `default_required_version`).
    An attribute is present exactly when the file has the field.

    The verifier checks that the blocks are numbered by position, that
    every parent, forward-block, BLOCK and BLOCKS index names a block, and
    that the blocks link as Paddle links them: block 0 is the root (parent
    -1) and every other block's parent comes before it, so that every chain
    of parents ends at the root, and no op runs (through a BLOCK or BLOCKS
    attribute) a block that runs the op's own block again.

    ```mlir
    paddle.program version 2001000 attributes {
        op_version_map = [#paddle.op_version<"mul", 0>]} {
      paddle.block 0 parent -1 {
        paddle.var "x" : lod_tensor<fp32 [-1, 4], lod_level = 0>
        paddle.op "relu" ins(X = ["x"]) outs(Out = ["y"])
      }
    }
    ```
  }];
  let arguments = (ins
      OptionalAttr<I64Attr>:$version,
      OptionalAttr<TypedArrayAttrBase<Paddle_OpVersionAttr,
                                      "op versions">>:$op_version_map,
      OptionalAttr<TypedArrayAttrBase<Paddle_OpCompatibleAttr,
                                      "op compatibilities">>:$op_compatible_map,
      OptionalAttr<StrAttr>:$default_required_version);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat =
      "(`version` $version^)? attr-dict-with-keyword $body";
  let builders = [OpBuilder<(ins)>];
  let hasRegionVerifier = 1;
}

def Paddle_BlockOp : Paddle_Op<"block", [
    HasParent<"ProgramOp">, NoRegionArguments, NoTerminator, SingleBlock]> {
  let summary = "A block of a Paddle program (BlockDesc).";
  let description = [{
    Holds the block's variables (`paddle.var`) and ops (`paddle.op`), each
    in file order. `idx` is the block's index, `parent_idx` that of the
    enclosing block (-1 for the root), and `forward_block_idx`, when the
    file has it, that of the forward block of a backward block.

    Variable names are unique within a block.

    ```mlir
    paddle.block 1 parent 0 forward 2 {
    }
    ```
  }];
  let arguments = (ins I32Attr:$idx, I32Attr:$parent_idx,
                       OptionalAttr<I32Attr>:$forward_block_idx);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $idx `parent` $parent_idx (`forward` $forward_block_idx^)?
    attr-dict-with-keyword $body
  }];
  let builders = [OpBuilder<(ins "int32_t":$idx, "int32_t":$parentIdx)>];
  let hasRegionVerifier = 1;
}

def Paddle_VarOp : Paddle_Op<"var", [HasParent<"BlockOp">]> {
  let summary = "A variable of a block (VarDesc).";
  let description = [{
    The variable's name, its type and the flags the file sets. The type is
    Paddle's `VarType`: its kind followed by the description the kind has,
    if present (`lod_tensor<...>`, `selected_rows<...>`,
    `lod_tensor_array<...>`, `reader[...]`, `tuple[...]`, ...), then any
    other description the file carries, named by its field
    (`selected_rows<fp32 [8, 4]> lod_tensor<fp32 [8, 4]>`, as Paddle
    leaves it when a variable changes kind). `persistable`,
    `need_check_feed`, `is_parameter` and `stop_gradient` are present
    exactly when the file has the field. `attrs` lists the variable's
    attributes (Paddle 2.x: INT, STRING or INTS values).

    ```mlir
    paddle.var "fc_0.w_0" : lod_tensor<fp32 [784, 100]> {persistable = true}
    paddle.var "feed" : feed_minibatch {persistable = true}
    ```
  }];
  let arguments = (ins StrAttr:$name, Paddle_VarTypeKind:$kind,
                       OptionalAttr<Paddle_TensorDescAttr>:$selected_rows,
                       OptionalAttr<Paddle_TensorDescAttr>:$lod_tensor,
                       OptionalAttr<Paddle_TensorDescAttr>:$tensor_array,
                       OptionalAttr<TypedArrayAttrBase<Paddle_TensorDescAttr,
                                                       "tensor descriptions">>:$reader,
                       OptionalAttr<DenseI32ArrayAttr>:$tuple,
                       OptionalAttr<Paddle_TensorDescAttr>:$string,
                       OptionalAttr<Paddle_TensorDescAttr>:$strings,
                       OptionalAttr<Paddle_TensorDescAttr>:$vocab,
                       OptionalAttr<Paddle_TensorDescAttr>:$sparse_coo,
                       OptionalAttr<Paddle_TensorDescAttr>:$sparse_csr,
                       OptionalAttr<BoolAttr>:$persistable,
                       OptionalAttr<BoolAttr>:$need_check_feed,
                       OptionalAttr<BoolAttr>:$is_parameter,
                       OptionalAttr<BoolAttr>:$stop_gradient,
                       OptionalAttr<StrArrayAttr>:$attr_names,
                       OptionalAttr<ArrayAttr>:$attr_values);
  let assemblyFormat = [{
    $name `:` custom<VarType>($kind, $selected_rows, $lod_tensor,
        $tensor_array, $reader, $tuple, $string, $strings, $vocab,
        $sparse_coo, $sparse_csr)
    `` custom<AttrList>($attr_names, $attr_values) attr-dict
  }];
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "VarTypeKind":$kind)>];
  let extraClassDeclaration = [{
    /// Returns the description of the variable's own kind (the LoD tensor
    /// of a `lod_tensor`, ...), or null if the kind has none or the file
    /// does not have it.
    TensorDescAttr getOwnTensorDesc();
    /// Returns whether the variable is persistable.
    bool isPersistable() { return getPersistable().value_or(false); }
  }];
  let hasVerifier = 1;
}

def Paddle_GenericOp : Paddle_Op<"op", [HasParent<"BlockOp">]> {
  let summary = "An operator of any type (OpDesc).";
  let description = [{
    The op type, the input and output slots with the names of the variables
    bound to each, the attributes in file order with their Paddle type
    (see the dialect description), and `is_target` when the file has it.
    Slot names are unique within the inputs and within the outputs, and
    attribute names within the op.

    ```mlir
    paddle.op "mul" ins(X = ["x"], Y = ["fc_0.w_0"])
        outs(Out = ["fc_0.tmp_0"])
        attrs {x_num_col_dims = 1 : i32, y_num_col_dims = 1 : i32,
               op_role = 0 : i32}
    paddle.op "while" ins(X = ["i"], Condition = ["cond"])
        outs(Out = ["i"], StepScopes = ["scopes"])
        attrs {sub_block = #paddle.block<1>, is_test = false}
    ```
  }];
  let arguments = (ins StrAttr:$op_type,
                       TypedArrayAttrBase<Paddle_SlotAttr, "slots">:$inputs,
                       TypedArrayAttrBase<Paddle_SlotAttr, "slots">:$outputs,
                       OptionalAttr<StrArrayAttr>:$attr_names,
                       OptionalAttr<ArrayAttr>:$attr_values,
                       OptionalAttr<BoolAttr>:$is_target);
  let assemblyFormat = [{
    $op_type `ins` `` custom<Slots>($inputs) `outs` `` custom<Slots>($outputs)
    `` custom<AttrList>($attr_names, $attr_values) attr-dict
  }];
  let extraClassDeclaration = [{
    /// Returns the attribute named `name`, or null.
    ::mlir::Attribute getPaddleAttr(::llvm::StringRef name);
  }];
  let hasVerifier = 1;
}

#endif // OPENKS_DIALECT_PADDLE_IR_PADDLEOPS_TD
