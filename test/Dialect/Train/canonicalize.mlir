// Tests that generic cleanups respect the train dialect's effects: pure ops
// fold away or merge, parameter writes and updates stay, and reads are not
// merged or moved across writes.
// RUN: openks-opt %s -split-input-file -canonicalize -cse | FileCheck %s

// Tests that dead and duplicate pure ops go, while writes and optimizer
// updates with unused results stay in order.
// CHECK-LABEL: train.step @cleanup
// CHECK-NEXT: %[[R:.*]] = train.read @w
// CHECK-NEXT: %[[Y:.*]] = train.relu %[[R]]
// CHECK-NEXT: train.write %[[Y]] to @w
// CHECK-NEXT: train.sgd @w, %[[Y]], %{{.*}}
// CHECK-NEXT: train.yield %[[Y]], %[[Y]]
train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<1.0>
  train.step @cleanup(%lr: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %r = train.read @w : tensor<4xf32>
    %dead = train.sigmoid %r : tensor<4xf32>
    %y1 = train.relu %r : tensor<4xf32>
    %y2 = train.relu %r : tensor<4xf32>
    train.write %y1 to @w : tensor<4xf32>
    train.sgd @w, %y2, %lr : tensor<4xf32>, tensor<f32>
    train.yield %y1, %y2 : tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// Tests that two reads of one parameter separated by a write or an update
// are not merged, and that back-to-back reads are.
// CHECK-LABEL: train.step @reads
// CHECK-NEXT: %[[A:.*]] = train.read @w
// CHECK-NEXT: train.write %{{.*}} to @w
// CHECK-NEXT: %[[B:.*]] = train.read @w
// CHECK-NEXT: train.sgd @w
// CHECK-NEXT: %[[C:.*]] = train.read @w
// CHECK-NEXT: train.yield %[[A]], %[[B]], %[[C]], %[[C]]
train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<1.0>
  train.step @reads(%v: tensor<4xf32>, %lr: tensor<f32>)
      -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %a = train.read @w : tensor<4xf32>
    train.write %v to @w : tensor<4xf32>
    %b = train.read @w : tensor<4xf32>
    train.sgd @w, %v, %lr : tensor<4xf32>, tensor<f32>
    %c = train.read @w : tensor<4xf32>
    %d = train.read @w : tensor<4xf32>
    train.yield %a, %b, %c, %d : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}
