// Round-trip tests of train.concat and train.concat_grad.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// CHECK-LABEL: train.step @concat
// CHECK: train.concat %{{.*}}, %{{.*}}, %{{.*}} axis 1 : (tensor<?x8xf32>, tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x13xf32>
// CHECK: train.concat_grad (%{{.*}}, %{{.*}}, %{{.*}}), %{{.*}} axis 1 : (tensor<?x8xf32>, tensor<?x4xf32>, tensor<?x1xf32>, tensor<?x13xf32>) -> (tensor<?x8xf32>, tensor<?x4xf32>, tensor<?x1xf32>)
// CHECK: train.concat %{{.*}} axis 0 : (tensor<?x8xf32>) -> tensor<?x8xf32>
train.program @p {
  train.step @concat(%a: tensor<?x8xf32>, %b: tensor<?x4xf32>, %c: tensor<?x1xf32>) {
    %y = train.concat %a, %b, %c axis 1
        : (tensor<?x8xf32>, tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x13xf32>
    %da, %db, %dc = train.concat_grad (%a, %b, %c), %y axis 1
        : (tensor<?x8xf32>, tensor<?x4xf32>, tensor<?x1xf32>, tensor<?x13xf32>)
        -> (tensor<?x8xf32>, tensor<?x4xf32>, tensor<?x1xf32>)
    %single = train.concat %a axis 0 : (tensor<?x8xf32>) -> tensor<?x8xf32>
    train.yield
  }
}
