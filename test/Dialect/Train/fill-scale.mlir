// Round-trip tests of train.fill and train.scale.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// Tests the backward seed, an integer fill and the sync-mode average.
// CHECK-LABEL: train.step @fill_scale
// CHECK: train.fill 1.000000e+00 : tensor<f32>
// CHECK: train.fill -1.000000e+00 : tensor<2x3xi64>
// CHECK: train.scale %{{.*}} by 5.000000e-01 : tensor<392x256xf32>
train.program @p {
  train.step @fill_scale(%sum: tensor<392x256xf32>) {
    %one = train.fill 1.0 : tensor<f32>
    %neg = train.fill -1.0 : tensor<2x3xi64>
    %avg = train.scale %sum by 0.5 : tensor<392x256xf32>
    train.yield
  }
}
