// Round-trip tests of dropout, nce and their grad ops.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --verify-roundtrip > /dev/null

// Tests dropout in training (with a step counter read from a frozen
// parameter), at inference, in both modes, and its grad op.
// CHECK-LABEL: train.step @dropout
// CHECK: %[[STEP:.*]] = train.read @step : tensor<i64>
// CHECK: train.dropout %{{.*}} step %[[STEP]] prob 5.000000e-01 seed 7 : tensor<?x16xf32>
// CHECK: train.dropout %{{.*}} step %[[STEP]] prob 2.500000e-01 upscale_in_train : tensor<?x16xf32>
// CHECK: train.dropout %{{.*}} prob 5.000000e-01 is_test : tensor<?x16xf32>
// CHECK: train.dropout %{{.*}} prob 5.000000e-01 is_test upscale_in_train : tensor<?x16xf32>
// CHECK: train.dropout_grad %{{.*}} step %[[STEP]] prob 5.000000e-01 seed 7 : tensor<?x16xf32>
train.program @p {
  train.param @step : tensor<i64> init #train.constant<0.0> frozen
  train.step @dropout(%x: tensor<?x16xf32>, %d: tensor<?x16xf32>) {
    %s = train.read @step : tensor<i64>
    %a = train.dropout %x step %s prob 0.5 seed 7 : tensor<?x16xf32>
    %b = train.dropout %x step %s prob 0.25 upscale_in_train : tensor<?x16xf32>
    %c = train.dropout %x prob 0.5 is_test : tensor<?x16xf32>
    %e = train.dropout %x prob 0.5 is_test upscale_in_train : tensor<?x16xf32>
    %dx = train.dropout_grad %d step %s prob 0.5 seed 7 : tensor<?x16xf32>
    train.yield
  }
}

// -----

// Tests nce with one and with several true classes per row, both samplers,
// and its grad op.
// CHECK-LABEL: train.step @nce
// CHECK: train.nce %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} num_neg_samples 5 sampler uniform : (tensor<?x64xf32>, tensor<?xi64>, tensor<1000x64xf32>, tensor<1000xf32>, tensor<i64>) -> tensor<?xf32>
// CHECK: train.nce %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} num_neg_samples 3 sampler log_uniform seed 9 : (tensor<?x64xf32>, tensor<8x2xi64>, tensor<1000x64xf32>, tensor<1000xf32>, tensor<i64>) -> tensor<8xf32>
// CHECK: train.nce_grad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} num_neg_samples 5 sampler uniform : (tensor<?x64xf32>, tensor<?xi64>, tensor<1000x64xf32>, tensor<1000xf32>, tensor<i64>, tensor<?xf32>) -> (tensor<?x64xf32>, tensor<1000x64xf32>, tensor<1000xf32>)
train.program @p {
  train.step @nce(%h: tensor<?x64xf32>, %words: tensor<?xi64>, %pairs: tensor<8x2xi64>, %w: tensor<1000x64xf32>,
                  %b: tensor<1000xf32>, %s: tensor<i64>) {
    %c = train.nce %h, %words, %w, %b, %s num_neg_samples 5 sampler uniform
        : (tensor<?x64xf32>, tensor<?xi64>, tensor<1000x64xf32>, tensor<1000xf32>, tensor<i64>) -> tensor<?xf32>
    %e = train.nce %h, %pairs, %w, %b, %s num_neg_samples 3 sampler log_uniform seed 9
        : (tensor<?x64xf32>, tensor<8x2xi64>, tensor<1000x64xf32>, tensor<1000xf32>, tensor<i64>) -> tensor<8xf32>
    %dh, %dw, %db = train.nce_grad %h, %words, %w, %b, %s, %c num_neg_samples 5 sampler uniform
        : (tensor<?x64xf32>, tensor<?xi64>, tensor<1000x64xf32>, tensor<1000xf32>, tensor<i64>, tensor<?xf32>)
        -> (tensor<?x64xf32>, tensor<1000x64xf32>, tensor<1000xf32>)
    train.yield
  }
}
