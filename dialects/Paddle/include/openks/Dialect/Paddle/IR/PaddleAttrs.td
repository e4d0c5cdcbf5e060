//===- PaddleAttrs.td - Paddle dialect attributes ----------*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Tensor descriptions, op slots, the reference-valued attribute types
// (BLOCK, BLOCKS, VAR, VARS, SCALAR, SCALARS) and the entries of a
// program's op version and compatibility maps.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_PADDLE_IR_PADDLEATTRS_TD
#define OPENKS_DIALECT_PADDLE_IR_PADDLEATTRS_TD

include "openks/Dialect/Paddle/IR/PaddleBase.td"
include "mlir/IR/AttrTypeBase.td"

class Paddle_Attr<string name, string attrMnemonic>
    : AttrDef<Paddle_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def Paddle_TensorDescAttr : Paddle_Attr<"TensorDesc", "tensor_desc"> {
  let summary = "An element type and dimensions, with an optional LoD level.";
  let description = [{
    A `TensorDesc` (element type and dimensions; -1 is a dimension known
    only at run time), or with `lod_level` a `LoDTensorDesc` or
    `LoDTensorArrayDesc`. `lod_level` is kept when the file has it, also
    when it is the default 0, so that the export writes what was read.

    ```mlir
    #paddle.tensor_desc<fp32 [-1, 784], lod_level = 0>
    ```
  }];
  let parameters = (ins EnumParameter<Paddle_VarTypeKind>:$data_type,
                        ArrayRefParameter<"int64_t">:$dims,
                        OptionalParameter<"std::optional<int32_t>">:$lod_level);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// Parses what follows the `<` of a description, up to and including
    /// the `>`.
    static ::mlir::Attribute parseBody(::mlir::AsmParser &parser);
  }];
}

def Paddle_SlotAttr : Paddle_Attr<"Slot", "slot"> {
  let summary = "An input or output slot of an op and its variables.";
  let description = [{
    Paddle's `OpDesc.Var`: the slot name (the op's parameter, such as `X`
    or `Out@GRAD`) and the names of the variables bound to it, in order.

    ```mlir
    #paddle.slot<"X" = ["fc_0.tmp_0", "fc_1.tmp_0"]>
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$parameter,
                        "::mlir::ArrayAttr":$arguments);
  let assemblyFormat = "`<` $parameter `=` $arguments `>`";
  let genVerifyDecl = 1;
}

def Paddle_BlockRefAttr : Paddle_Attr<"BlockRef", "block"> {
  let summary = "A BLOCK attribute: the index of a block of the program.";
  let description = [{
    ```mlir
    sub_block = #paddle.block<1>
    ```
  }];
  let parameters = (ins "int32_t":$index);
  let assemblyFormat = "`<` $index `>`";
}

def Paddle_BlockRefsAttr : Paddle_Attr<"BlockRefs", "blocks"> {
  let summary = "A BLOCKS attribute: indices of blocks of the program.";
  let description = [{
    ```mlir
    optimize_blocks = #paddle.blocks<[1, 2]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int32_t">:$indices);
  let hasCustomAssemblyFormat = 1;
}

def Paddle_VarRefAttr : Paddle_Attr<"VarRef", "var"> {
  let summary = "A VAR attribute: the name of a variable (Paddle 2.x).";
  let description = [{
    ```mlir
    #paddle.var<"shape_tensor">
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$name);
  let assemblyFormat = "`<` $name `>`";
}

def Paddle_VarRefsAttr : Paddle_Attr<"VarRefs", "vars"> {
  let summary = "A VARS attribute: names of variables (Paddle 2.x).";
  let description = [{
    ```mlir
    #paddle.vars<["x", "y"]>
    ```
  }];
  let parameters = (ins "::mlir::ArrayAttr":$names);
  let assemblyFormat = "`<` $names `>`";
  let genVerifyDecl = 1;
}

def Paddle_ScalarAttr : Paddle_Attr<"Scalar", "scalar"> {
  let summary = "A SCALAR attribute: a boolean, int64, double or complex.";
  let description = [{
    The value Paddle reads from a `Scalar` message: a bool for BOOLEAN, an
    i64 integer for LONG, an f64 float for FLOAT64 and, for COMPLEX128, the
    real and imaginary parts as `array<f64: re, im>`.

    ```mlir
    #paddle.scalar<2.500000e-01 : f64>
    ```
  }];
  let parameters = (ins "::mlir::Attribute":$value);
  let assemblyFormat = "`<` $value `>`";
  let genVerifyDecl = 1;
}

def Paddle_ScalarsAttr : Paddle_Attr<"Scalars", "scalars"> {
  let summary = "A SCALARS attribute: a list of scalar values.";
  let description = [{
    Each element is a value as in `#paddle.scalar`.

    ```mlir
    #paddle.scalars<[true, 3, 5.000000e-01 : f64]>
    ```
  }];
  let parameters = (ins "::mlir::ArrayAttr":$values);
  let assemblyFormat = "`<` $values `>`";
  let genVerifyDecl = 1;
}

def Paddle_OpVersionAttr : Paddle_Attr<"OpVersion", "op_version"> {
  let summary = "An entry of a program's op version map (Paddle 2.x).";
  let description = [{
    ```mlir
    #paddle.op_version<"matmul_v2", 1>
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$op_name, "int32_t":$version);
  let assemblyFormat = "`<` $op_name `,` $version `>`";
}

def Paddle_OpCompatibleAttr : Paddle_Attr<"OpCompatible", "op_compatible"> {
  let summary = "An entry of a program's op compatibility map (Paddle 1.6-1.8).";
  let description = [{
    The op, the Paddle version it was checked against, and the verdict.

    ```mlir
    #paddle.op_compatible<"sequence_pad", "1.6.0", definitely_not>
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$op_name,
                        "::mlir::StringAttr":$version,
                        EnumParameter<Paddle_Compatibility>:$type);
  let assemblyFormat = "`<` $op_name `,` $version `,` $type `>`";
}

#endif // OPENKS_DIALECT_PADDLE_IR_PADDLEATTRS_TD
