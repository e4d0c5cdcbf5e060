//===- PaddleBase.td - Paddle dialect definition -----------*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `paddle` dialect, the enums of Paddle's ProgramDesc format and the op
// base class.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_PADDLE_IR_PADDLEBASE_TD
#define OPENKS_DIALECT_PADDLE_IR_PADDLEBASE_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"

def Paddle_Dialect : Dialect {
  let name = "paddle";
  let cppNamespace = "::openks::paddle";
  let summary = "A PaddlePaddle ProgramDesc, field for field.";
  let description = [{
    The `paddle` dialect mirrors a serialized PaddlePaddle program
    (`ProgramDesc`, Paddle 1.x and 2.x) so that importing and exporting it
    loses nothing: `paddle.program` holds the blocks in order, each
    `paddle.block` its variables and ops in order, `paddle.var` one
    variable with its type and flags, and `paddle.op` one operator of any
    type with its input and output slots (variable names, as in Paddle) and
    its typed attributes, in the order the file lists them.

    Attribute values keep Paddle's type tag: `1 : i32` is an INT and `1` (an
    i64) a LONG, `array<i32: ...>` INTS and `array<i64: ...>` LONGS, and
    block, variable and scalar references have attributes of their own
    (`#paddle.block<1>`, `#paddle.vars<["x"]>`).

    The dialect describes; it does not compute. `openks-translate` maps the
    ops that have a `train` counterpart onto `train` ops on request
    (`--paddle-to-train`).
  }];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Registers the attributes of the dialect.
    void registerAttributes();
  }];
}

/// Base class of every `paddle` op.
class Paddle_Op<string mnemonic, list<Trait> traits = []>
    : Op<Paddle_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Enums of the format
//===----------------------------------------------------------------------===//

/// VarType.Type: what a variable is (a LoD tensor, selected rows, a feed
/// list, ...) and, in a TensorDesc, the element type.
def Paddle_VarTypeKind : I32EnumAttr<"VarTypeKind", "a Paddle VarType.Type", [
    I32EnumAttrCase<"Bool", 0, "bool">,
    I32EnumAttrCase<"Int16", 1, "int16">,
    I32EnumAttrCase<"Int32", 2, "int32">,
    I32EnumAttrCase<"Int64", 3, "int64">,
    I32EnumAttrCase<"FP16", 4, "fp16">,
    I32EnumAttrCase<"FP32", 5, "fp32">,
    I32EnumAttrCase<"FP64", 6, "fp64">,
    I32EnumAttrCase<"LoDTensor", 7, "lod_tensor">,
    I32EnumAttrCase<"SelectedRows", 8, "selected_rows">,
    I32EnumAttrCase<"FeedMinibatch", 9, "feed_minibatch">,
    I32EnumAttrCase<"FetchList", 10, "fetch_list">,
    I32EnumAttrCase<"StepScopes", 11, "step_scopes">,
    I32EnumAttrCase<"LoDRankTable", 12, "lod_rank_table">,
    I32EnumAttrCase<"LoDTensorArray", 13, "lod_tensor_array">,
    I32EnumAttrCase<"PlaceList", 14, "place_list">,
    I32EnumAttrCase<"Reader", 15, "reader">,
    I32EnumAttrCase<"FetchVarList", 16, "fetch_var_list">,
    I32EnumAttrCase<"Raw", 17, "raw">,
    I32EnumAttrCase<"Tuple", 18, "tuple">,
    I32EnumAttrCase<"SizeT", 19, "size_t">,
    I32EnumAttrCase<"UInt8", 20, "uint8">,
    I32EnumAttrCase<"Int8", 21, "int8">,
    I32EnumAttrCase<"BF16", 22, "bf16">,
    I32EnumAttrCase<"Complex64", 23, "complex64">,
    I32EnumAttrCase<"Complex128", 24, "complex128">,
    I32EnumAttrCase<"String", 25, "string">,
    I32EnumAttrCase<"Strings", 26, "strings">,
    I32EnumAttrCase<"Vocab", 27, "vocab">,
    I32EnumAttrCase<"FeedList", 28, "feed_list">,
    I32EnumAttrCase<"PString", 29, "pstring">,
    I32EnumAttrCase<"SparseCoo", 30, "sparse_coo">,
    I32EnumAttrCase<"SparseCsr", 31, "sparse_csr">,
    I32EnumAttrCase<"FP8E4M3FN", 32, "fp8_e4m3fn">,
    I32EnumAttrCase<"FP8E5M2", 33, "fp8_e5m2">,
    I32EnumAttrCase<"UInt32", 37, "uint32">,
    I32EnumAttrCase<"UInt64", 38, "uint64">]> {
  let cppNamespace = "::openks::paddle";
}

/// AttrType: the type tag of an op attribute. The dialect derives it from
/// the kind of the attribute value (see `getAttrType`).
def Paddle_AttrType : I32EnumAttr<"AttrType", "a Paddle AttrType", [
    I32EnumAttrCase<"Int", 0, "INT">,
    I32EnumAttrCase<"Float", 1, "FLOAT">,
    I32EnumAttrCase<"String", 2, "STRING">,
    I32EnumAttrCase<"Ints", 3, "INTS">,
    I32EnumAttrCase<"Floats", 4, "FLOATS">,
    I32EnumAttrCase<"Strings", 5, "STRINGS">,
    I32EnumAttrCase<"Boolean", 6, "BOOLEAN">,
    I32EnumAttrCase<"Booleans", 7, "BOOLEANS">,
    I32EnumAttrCase<"Block", 8, "BLOCK">,
    I32EnumAttrCase<"Long", 9, "LONG">,
    I32EnumAttrCase<"Blocks", 10, "BLOCKS">,
    I32EnumAttrCase<"Longs", 11, "LONGS">,
    I32EnumAttrCase<"Float64s", 12, "FLOAT64S">,
    I32EnumAttrCase<"Var", 13, "VAR">,
    I32EnumAttrCase<"Vars", 14, "VARS">,
    I32EnumAttrCase<"Float64", 15, "FLOAT64">,
    I32EnumAttrCase<"Scalar", 16, "SCALAR">,
    I32EnumAttrCase<"Scalars", 17, "SCALARS">]> {
  let cppNamespace = "::openks::paddle";
  let genSpecializedAttr = 0;
}

/// CompatibleInfo.Type: how a Paddle release relates to an op (1.6 to 1.8).
def Paddle_Compatibility : I32EnumAttr<"Compatibility",
    "a Paddle CompatibleInfo.Type", [
    I32EnumAttrCase<"Compatible", 0, "compatible">,
    I32EnumAttrCase<"DefinitelyNot", 1, "definitely_not">,
    I32EnumAttrCase<"Possible", 2, "possible">,
    I32EnumAttrCase<"BugFix", 3, "bug_fix">,
    I32EnumAttrCase<"PrecisionChange", 4, "precision_change">]> {
  let cppNamespace = "::openks::paddle";
  let genSpecializedAttr = 0;
}

#endif // OPENKS_DIALECT_PADDLE_IR_PADDLEBASE_TD
