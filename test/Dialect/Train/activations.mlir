// Round-trip tests of the activations (relu, sigmoid, tanh, softmax) and their grad ops.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// CHECK-LABEL: train.step @activations
// CHECK: %[[R:.*]] = train.relu %{{.*}} : tensor<?x8xf32>
// CHECK: %[[S:.*]] = train.sigmoid %[[R]] : tensor<?x8xf32>
// CHECK: %[[T:.*]] = train.tanh %[[S]] : tensor<?x8xf32>
// CHECK: %[[P:.*]] = train.softmax %[[T]] : tensor<?x8xf32>
// CHECK: train.softmax_grad %[[P]], %{{.*}} : tensor<?x8xf32>
// CHECK: train.tanh_grad %[[T]], %{{.*}} : tensor<?x8xf32>
// CHECK: train.sigmoid_grad %[[S]], %{{.*}} : tensor<?x8xf32>
// CHECK: train.relu_grad %[[R]], %{{.*}} : tensor<?x8xf32>
train.program @p {
  train.step @activations(%x: tensor<?x8xf32>, %d: tensor<?x8xf32>) {
    %r = train.relu %x : tensor<?x8xf32>
    %s = train.sigmoid %r : tensor<?x8xf32>
    %t = train.tanh %s : tensor<?x8xf32>
    %p = train.softmax %t : tensor<?x8xf32>
    %dt = train.softmax_grad %p, %d : tensor<?x8xf32>
    %ds = train.tanh_grad %t, %dt : tensor<?x8xf32>
    %dr = train.sigmoid_grad %s, %ds : tensor<?x8xf32>
    %dx = train.relu_grad %r, %dr : tensor<?x8xf32>
    train.yield
  }
}
