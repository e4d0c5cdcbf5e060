// Round-trip tests of train.add, train.mul and their grad ops.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// Tests bias broadcast along the last dimension and same-shape operands.
// CHECK-LABEL: train.step @binary
// CHECK: train.add %{{.*}}, %{{.*}} : (tensor<?x256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
// CHECK: train.mul %{{.*}}, %{{.*}} : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
// CHECK: train.add_grad %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x256xf32>, tensor<256xf32>, tensor<?x256xf32>) -> (tensor<?x256xf32>, tensor<256xf32>)
// CHECK: train.mul_grad %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x256xf32>, tensor<256xf32>, tensor<?x256xf32>) -> (tensor<?x256xf32>, tensor<256xf32>)
train.program @p {
  train.step @binary(%x: tensor<?x256xf32>, %b: tensor<256xf32>, %d: tensor<?x256xf32>) {
    %y = train.add %x, %b : (tensor<?x256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
    %z = train.mul %y, %x : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %dx, %db = train.add_grad %x, %b, %d
        : (tensor<?x256xf32>, tensor<256xf32>, tensor<?x256xf32>) -> (tensor<?x256xf32>, tensor<256xf32>)
    %mx, %mb = train.mul_grad %x, %b, %d
        : (tensor<?x256xf32>, tensor<256xf32>, tensor<?x256xf32>) -> (tensor<?x256xf32>, tensor<256xf32>)
    train.yield
  }
}

// -----

// Tests rank-3 operands with a bias.
// CHECK-LABEL: train.step @rank3
// CHECK: train.mul %{{.*}}, %{{.*}} : (tensor<?x3x16xf64>, tensor<16xf64>) -> tensor<?x3x16xf64>
train.program @p {
  train.step @rank3(%e: tensor<?x3x16xf64>, %s: tensor<16xf64>) -> tensor<?x3x16xf64> {
    %y = train.mul %e, %s : (tensor<?x3x16xf64>, tensor<16xf64>) -> tensor<?x3x16xf64>
    train.yield %y : tensor<?x3x16xf64>
  }
}
