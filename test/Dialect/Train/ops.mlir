// Round-trip tests of the train dialect's program structure: programs,
// parameters with each initializer, steps, yields, reads and writes.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// Tests that parameters keep their type, initializer and frozen and sparse
// flags.
// CHECK-LABEL: train.program @params
// CHECK-NEXT: train.param @w : tensor<784x256xf32> init #train.xavier<seed = 1>
// CHECK-NEXT: train.param @b : tensor<256xf32> init #train.constant<0.000000e+00>{{$}}
// CHECK-NEXT: train.param @emb : tensor<1000x16xf64> init #train.uniform<min = -1.000000e-01, max = 1.000000e-01, seed = 7>
// CHECK-NEXT: train.param @v : tensor<16x8xf32> init #train.gaussian<mean = 0.000000e+00, std = 1.000000e-02, seed = 3>
// CHECK-NEXT: train.param @lr : tensor<f32> init #train.constant<1.000000e-01> frozen
// CHECK-NEXT: train.param @counter : tensor<i64> init #train.constant<0.000000e+00> frozen
// CHECK-NEXT: train.param @table : tensor<100000x8xf32> init #train.constant<0.000000e+00> sparse
train.program @params {
  train.param @w : tensor<784x256xf32> init #train.xavier<seed = 1>
  train.param @b : tensor<256xf32> init #train.constant<0.0>
  train.param @emb : tensor<1000x16xf64> init #train.uniform<min = -0.1, max = 0.1, seed = 7>
  train.param @v : tensor<16x8xf32> init #train.gaussian<mean = 0.0, std = 1.0e-02, seed = 3>
  train.param @lr : tensor<f32> init #train.constant<0.1> frozen
  train.param @counter : tensor<i64> init #train.constant<0.0> frozen
  train.param @table : tensor<100000x8xf32> init #train.constant<0.0> sparse
}

// -----

// Tests that a step keeps its fed inputs, fetched results and result
// attributes, and that reads and writes refer to parameters by symbol.
// CHECK-LABEL: train.program @steps
// CHECK: train.step @step(%[[X:.*]]: tensor<?x4xf32>, %[[Y:.*]]: tensor<?xi64>) -> (tensor<f32>, tensor<?x2xf32> {train.name = "logits"})
// CHECK: %[[W:.*]] = train.read @w : tensor<4x2xf32>
// CHECK: train.write %[[W]] to @w : tensor<4x2xf32>
// CHECK: train.yield %{{.*}}, %{{.*}} : tensor<f32>, tensor<?x2xf32>
train.program @steps {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.step @step(%x: tensor<?x4xf32>, %y: tensor<?xi64>)
      -> (tensor<f32>, tensor<?x2xf32> {train.name = "logits"}) {
    %w = train.read @w : tensor<4x2xf32>
    %logits = train.matmul %x, %w
        : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
    %l = train.softmax_cross_entropy %logits, %y
        : (tensor<?x2xf32>, tensor<?xi64>) -> tensor<?xf32>
    %m = train.mean %l : (tensor<?xf32>) -> tensor<f32>
    train.write %w to @w : tensor<4x2xf32>
    train.yield %m, %logits : tensor<f32>, tensor<?x2xf32>
  }
}

// -----

// Tests that a step may fetch nothing and that two steps share parameters.
// CHECK-LABEL: train.program @two_steps
// CHECK: train.step @init() {
// CHECK-NEXT: train.yield{{$}}
// CHECK: train.step @eval(%{{.*}}: tensor<2xf32>) -> tensor<2xf32>
train.program @two_steps {
  train.param @b : tensor<2xf32> init #train.constant<1.0>
  train.step @init() {
    train.yield
  }
  train.step @eval(%x: tensor<2xf32>) -> tensor<2xf32> {
    %b = train.read @b : tensor<2xf32>
    %y = train.add %x, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    train.yield %y : tensor<2xf32>
  }
}
