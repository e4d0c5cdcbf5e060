// Tests how shape-changing ops treat dynamic dimensions: a dynamic dimension
// is compatible with any size, a static size on either side refines the
// result, and an unknown sum along a concatenation axis stays dynamic.
// RUN: openks-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: train.step @refine
// CHECK: train.softmax_cross_entropy {{.*}} -> tensor<32xf32>
// CHECK: train.concat {{.*}} axis 0 : (tensor<?x2xf32>, tensor<3x2xf32>) -> tensor<?x2xf32>
// CHECK: train.concat {{.*}} axis 1 : (tensor<?x2xf32>, tensor<3x2xf32>) -> tensor<3x4xf32>
// CHECK: train.add {{.*}} : (tensor<?x8xf32>, tensor<4x8xf32>) -> tensor<?x8xf32>
// CHECK: train.matmul {{.*}} : (tensor<?x?xf32>, tensor<5x2xf32>) -> tensor<?x2xf32>
// CHECK: train.embedding {{.*}} : (tensor<100x4xf32>, tensor<?x?xi64>) -> tensor<?x?x4xf32>
train.program @p {
  train.step @refine(%logits: tensor<?x10xf32>, %y: tensor<32xi64>,
                     %a: tensor<?x2xf32>, %b: tensor<3x2xf32>,
                     %x: tensor<?x8xf32>, %z: tensor<4x8xf32>,
                     %u: tensor<?x?xf32>, %w: tensor<5x2xf32>,
                     %t: tensor<100x4xf32>, %ids: tensor<?x?xi64>) {
    %l = train.softmax_cross_entropy %logits, %y : (tensor<?x10xf32>, tensor<32xi64>) -> tensor<32xf32>
    %c0 = train.concat %a, %b axis 0 : (tensor<?x2xf32>, tensor<3x2xf32>) -> tensor<?x2xf32>
    %c1 = train.concat %a, %b axis 1 : (tensor<?x2xf32>, tensor<3x2xf32>) -> tensor<3x4xf32>
    %s = train.add %x, %z : (tensor<?x8xf32>, tensor<4x8xf32>) -> tensor<?x8xf32>
    %m = train.matmul %u, %w : (tensor<?x?xf32>, tensor<5x2xf32>) -> tensor<?x2xf32>
    %e = train.embedding %t, %ids : (tensor<100x4xf32>, tensor<?x?xi64>) -> tensor<?x?x4xf32>
    train.yield
  }
}

// -----

// Tests that an inferred result must be written exactly: a static size
// where the rule infers a dynamic one is rejected.
train.program @p {
  train.step @exact(%a: tensor<?x2xf32>, %b: tensor<3x2xf32>) {
    // expected-error @+2 {{'train.concat' op inferred type(s) 'tensor<?x2xf32>' are incompatible with return type(s) of operation 'tensor<6x2xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %c = train.concat %a, %b axis 0 : (tensor<?x2xf32>, tensor<3x2xf32>) -> tensor<6x2xf32>
    train.yield
  }
}
