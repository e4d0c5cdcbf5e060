// Tests that every paddle op, every variable type and every attribute kind
// round-trips through the custom and the generic form.
// RUN: openks-opt %s | openks-opt | FileCheck %s
// RUN: openks-opt %s --mlir-print-op-generic | openks-opt | FileCheck %s

// CHECK-LABEL: paddle.program version 1008004 attributes {
// CHECK-SAME:    default_required_version = "1.5.0"
// CHECK-SAME:    op_compatible_map = [#paddle.op_compatible<"sequence_pad", "1.6.0", definitely_not>, #paddle.op_compatible<"mul", "1.6.0", possible>]
// CHECK-SAME:    op_version_map = [#paddle.op_version<"matmul_v2", 1>]
paddle.program version 1008004 attributes {
    default_required_version = "1.5.0",
    op_compatible_map = [#paddle.op_compatible<"sequence_pad", "1.6.0", definitely_not>,
                         #paddle.op_compatible<"mul", "1.6.0", possible>],
    op_version_map = [#paddle.op_version<"matmul_v2", 1>]} {
  // CHECK: paddle.block 0 parent -1 {
  paddle.block 0 parent -1 {
    // CHECK-NEXT: paddle.var "x" : lod_tensor<fp32 [-1, 784], lod_level = 0> {need_check_feed = true, persistable = false}
    paddle.var "x" : lod_tensor<fp32 [-1, 784], lod_level = 0> {need_check_feed = true, persistable = false}
    // CHECK-NEXT: paddle.var "fc_0.w_0" : lod_tensor<fp32 [784, 10]> {is_parameter = true, persistable = true, stop_gradient = false}
    paddle.var "fc_0.w_0" : lod_tensor<fp32 [784, 10]> {is_parameter = true, persistable = true, stop_gradient = false}
    // CHECK-NEXT: paddle.var "scalar" : lod_tensor<int64 []>
    paddle.var "scalar" : lod_tensor<int64 []>
    // CHECK-NEXT: paddle.var "no_desc" : lod_tensor
    paddle.var "no_desc" : lod_tensor
    // CHECK-NEXT: paddle.var "emb@GRAD" : selected_rows<fp32 [1000, 16]> lod_tensor<fp32 [1000, 16], lod_level = 0>
    paddle.var "emb@GRAD" : selected_rows<fp32 [1000, 16]> lod_tensor<fp32 [1000, 16], lod_level = 0>
    // CHECK-NEXT: paddle.var "array" : lod_tensor_array<fp16 [-1, 8], lod_level = 1>
    paddle.var "array" : lod_tensor_array<fp16 [-1, 8], lod_level = 1>
    // CHECK-NEXT: paddle.var "reader" : reader[<fp32 [-1, 3], lod_level = 0>, <int64 [-1, 1]>]
    paddle.var "reader" : reader[<fp32 [-1, 3], lod_level = 0>, <int64 [-1, 1]>]
    // CHECK-NEXT: paddle.var "empty_reader" : reader[]
    paddle.var "empty_reader" : reader[]
    // CHECK-NEXT: paddle.var "tuple" : tuple[fp32, int64, bf16]
    paddle.var "tuple" : tuple[fp32, int64, bf16]
    // CHECK-NEXT: paddle.var "words" : strings<pstring [-1]> vocab<pstring [8]>
    paddle.var "words" : strings<pstring [-1]> vocab<pstring [8]>
    // CHECK-NEXT: paddle.var "coo" : sparse_coo<fp32 [4, 4]> sparse_csr<fp32 [4, 4]>
    paddle.var "coo" : sparse_coo<fp32 [4, 4]> sparse_csr<fp32 [4, 4]>
    // CHECK-NEXT: paddle.var "raw_var" : raw attrs {dist_attr = "x", dims_mapping = array<i32: 0, -1>, rank = 2 : i32}
    paddle.var "raw_var" : raw attrs {dist_attr = "x", dims_mapping = array<i32: 0, -1>, rank = 2 : i32}
    // CHECK-NEXT: paddle.var "feed" : feed_minibatch {persistable = true}
    paddle.var "feed" : feed_minibatch {persistable = true}

    // CHECK-NEXT: paddle.op "feed" ins(X = ["feed"]) outs(Out = ["x"]) attrs {col = 0 : i32}
    paddle.op "feed" ins(X = ["feed"]) outs(Out = ["x"]) attrs {col = 0 : i32}
    // CHECK-NEXT: paddle.op "sum" ins(X = ["x", "x"]) outs(Out = ["y"])
    paddle.op "sum" ins(X = ["x", "x"]) outs(Out = ["y"])
    // CHECK-NEXT: paddle.op "scale" ins(ScaleTensor = [], X = ["y"]) outs("Out@GRAD" = ["z"]) {is_target = true}
    paddle.op "scale" ins(ScaleTensor = [], X = ["y"]) outs("Out@GRAD" = ["z"]) {is_target = true}
    // CHECK-NEXT: paddle.op "nop" ins() outs()
    paddle.op "nop" ins() outs()
    // Every attribute type: INT, FLOAT, STRING, INTS, FLOATS, STRINGS,
    // BOOLEAN, BOOLEANS, BLOCK, LONG, BLOCKS, LONGS, FLOAT64S, VAR, VARS,
    // FLOAT64, SCALAR, SCALARS, in the order given.
    // CHECK-NEXT: paddle.op "every_type" ins() outs() attrs {
    // CHECK-SAME:   int = -7 : i32, float = 2.500000e-01 : f32, string = "s\0A", ints = array<i32: 1, -2>,
    // CHECK-SAME:   floats = array<f32: 1.500000e+00, -0.000000e+00>, strings = ["a", "b"],
    // CHECK-SAME:   boolean = true, booleans = array<i1: true, false>, block = #paddle.block<1>,
    // CHECK-SAME:   long = 9007199254740993 : i64, blocks = #paddle.blocks<[1, 1]>,
    // CHECK-SAME:   longs = array<i64: 784, -1>, float64s = array<f64: 1.000000e-01>,
    // CHECK-SAME:   var = #paddle.var<"x">, vars = #paddle.vars<["x", "y"]>,
    // CHECK-SAME:   float64 = 1.000000e-01 : f64, scalar = #paddle.scalar<3 : i64>,
    // CHECK-SAME:   scalars = #paddle.scalars<[true, 2.500000e+00, array<f64: 1.000000e+00, -1.000000e+00>]>,
    // CHECK-SAME:   empty_strings = [], empty_longs = array<i64>, "@ENABLE_CACHE_RUNTIME_CONTEXT@" = true}
    paddle.op "every_type" ins() outs() attrs {
        int = -7 : i32, float = 0.25 : f32, string = "s\0A", ints = array<i32: 1, -2>,
        floats = array<f32: 1.5, -0.0>, strings = ["a", "b"], boolean = true,
        booleans = array<i1: true, false>, block = #paddle.block<1>,
        long = 9007199254740993, blocks = #paddle.blocks<[1, 1]>,
        longs = array<i64: 784, -1>, float64s = array<f64: 0.1>,
        var = #paddle.var<"x">, vars = #paddle.vars<["x", "y"]>,
        float64 = 0.1 : f64, scalar = #paddle.scalar<3>,
        scalars = #paddle.scalars<[true, 2.5 : f64, array<f64: 1.0, -1.0>]>,
        empty_strings = [], empty_longs = array<i64>,
        "@ENABLE_CACHE_RUNTIME_CONTEXT@" = true}
    // CHECK-NEXT: paddle.op "while" ins(Condition = ["c"], X = ["x"]) outs(Out = ["x"], StepScopes = ["scopes"]) attrs {sub_block = #paddle.block<1>}
    paddle.op "while" ins(Condition = ["c"], X = ["x"]) outs(Out = ["x"], StepScopes = ["scopes"]) attrs {sub_block = #paddle.block<1>}
  }
  // CHECK: paddle.block 1 parent 0 forward 0 {
  // CHECK-NEXT: }
  paddle.block 1 parent 0 forward 0 {
  }
}
