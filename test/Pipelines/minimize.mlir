// Tests the openks-minimize pipeline: backward pass then optimizer, with the
// pipeline's options going to the optimizer; the result is what the
// hand-written test/Examples/Inputs/mlp-handwritten.mlir spells out.
// RUN: openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize{optimizer=sgd lr=0.1})' | FileCheck %s
// RUN: openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize{optimizer=adam lr=0.001})' | FileCheck %s --check-prefix=ADAM
// RUN: not openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize{optimizer=bogus})' 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK:      train.param @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
// CHECK:      train.mean_grad
// CHECK:      %{{.*}}, %[[DW1:.*]] = train.matmul_grad %arg0,
// CHECK-NEXT: %[[LR:.*]] = train.read @learning_rate
// CHECK-NEXT: train.sgd @fc1.b, %{{.*}}, %[[LR]]
// CHECK-NEXT: train.sgd @fc1.w, %[[DW1]], %[[LR]]
// CHECK-NEXT: train.sgd @fc2.b
// CHECK-NEXT: train.sgd @fc2.w
// CHECK-NEXT: train.yield
// CHECK-NOT:  train.param_grad

// ADAM-COUNT-4: train.adam
// BAD: failed to add `openks-minimize` with options `optimizer=bogus`
