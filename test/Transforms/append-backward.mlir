// Tests of openks-append-backward: reverse-mode autodiff of train steps.
// RUN: openks-opt %s -split-input-file --openks-append-backward | FileCheck %s

// Tests the backward pass of a two-layer MLP: one grad op per forward op in
// reverse order, seeded with d loss / d loss = 1, ending with the parameter
// gradients in name order; forward and backward ops are tagged.
// CHECK-LABEL: train.step @mlp
// CHECK:      %[[W1:.*]] = train.read @fc1.w {train.role = #train.role<forward>}
// CHECK:      %[[LOSS:.*]] = train.mean %[[L:.*]] {train.role = #train.role<forward>}
// CHECK-NEXT: %[[ONE:.*]] = train.fill 1.000000e+00 {train.role = #train.role<backward>} : tensor<f32>
// CHECK-NEXT: %[[DL:.*]] = train.mean_grad %[[L]], %[[ONE]] {train.role = #train.role<backward>}
// CHECK-NEXT: %[[DLOGITS:.*]] = train.softmax_cross_entropy_grad %{{.*}}, %{{.*}}, %[[DL]]
// CHECK-NEXT: %[[DZ2:.*]], %[[DB2:.*]] = train.add_grad %{{.*}}, %{{.*}}, %[[DLOGITS]]
// CHECK-NEXT: %[[DH:.*]], %[[DW2:.*]] = train.matmul_grad %{{.*}}, %{{.*}}, %[[DZ2]]
// CHECK-NEXT: %[[DA:.*]] = train.relu_grad %{{.*}}, %[[DH]]
// CHECK-NEXT: %[[DZ1:.*]], %[[DB1:.*]] = train.add_grad %{{.*}}, %{{.*}}, %[[DA]]
// CHECK-NEXT: %{{.*}}, %[[DW1:.*]] = train.matmul_grad %{{.*}}, %[[W1]], %[[DZ1]]
// CHECK-NEXT: train.param_grad @fc1.b, %[[DB1]] {train.role = #train.role<backward>} : tensor<4xf32>
// CHECK-NEXT: train.param_grad @fc1.w, %[[DW1]] {{.*}} : tensor<8x4xf32>
// CHECK-NEXT: train.param_grad @fc2.b, %[[DB2]] {{.*}} : tensor<3xf32>
// CHECK-NEXT: train.param_grad @fc2.w, %[[DW2]] {{.*}} : tensor<4x3xf32>
// CHECK-NEXT: train.yield %[[LOSS]] : tensor<f32>
train.program @p {
  train.param @fc1.w : tensor<8x4xf32> init #train.xavier<seed = 1>
  train.param @fc1.b : tensor<4xf32> init #train.constant<0.0>
  train.param @fc2.w : tensor<4x3xf32> init #train.xavier<seed = 2>
  train.param @fc2.b : tensor<3xf32> init #train.constant<0.0>
  train.step @mlp(%x: tensor<?x8xf32>, %y: tensor<?xi64>) -> tensor<f32> {
    %w1 = train.read @fc1.w : tensor<8x4xf32>
    %b1 = train.read @fc1.b : tensor<4xf32>
    %z1 = train.matmul %x, %w1 : (tensor<?x8xf32>, tensor<8x4xf32>) -> tensor<?x4xf32>
    %a1 = train.add %z1, %b1 : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
    %h = train.relu %a1 : tensor<?x4xf32>
    %w2 = train.read @fc2.w : tensor<4x3xf32>
    %b2 = train.read @fc2.b : tensor<3xf32>
    %z2 = train.matmul %h, %w2 : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
    %logits = train.add %z2, %b2 : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
    %l = train.softmax_cross_entropy %logits, %y : (tensor<?x3xf32>, tensor<?xi64>) -> tensor<?xf32>
    %loss = train.mean %l : (tensor<?xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}

// -----

// Tests that the gradients of a value used twice are summed, and that two
// reads of one parameter give one summed parameter gradient.
// CHECK-LABEL: train.step @reuse
// CHECK:      %[[DX:.*]], %[[DY:.*]] = train.mul_grad %[[H:.*]], %[[H]], %{{.*}}
// CHECK-NEXT: %[[SUM:.*]] = train.add %[[DX]], %[[DY]] {train.role = #train.role<backward>}
// CHECK-NEXT: %[[DA:.*]], %[[DB:.*]] = train.add_grad %{{.*}}, %{{.*}}, %[[SUM]]
// CHECK-NEXT: %[[BOTH:.*]] = train.add %[[DB]], %[[DA]]
// CHECK-NEXT: train.param_grad @w, %[[BOTH]]
train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<1.0>
  train.step @reuse() -> tensor<f32> {
    %a = train.read @w : tensor<4xf32>
    %b = train.read @w : tensor<4xf32>
    %h = train.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %sq = train.mul %h, %h : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %loss = train.mean %sq : (tensor<4xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}

// -----

// Tests that frozen parameters, stopped values and labels get no gradient,
// and that further fetched results (metrics) are not differentiated.
// CHECK-LABEL: train.step @stopped
// CHECK-NOT:  train.param_grad @frozen
// CHECK-NOT:  train.param_grad @teacher
// CHECK:      train.param_grad @w
// CHECK-NOT:  train.param_grad
// CHECK:      train.yield
train.program @p {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @frozen : tensor<2xf32> init #train.constant<0.5> frozen
  train.param @teacher : tensor<4x2xf32> init #train.xavier<seed = 9>
  train.step @stopped(%x: tensor<?x4xf32>) -> (tensor<f32>, tensor<f32>) {
    %w = train.read @w : tensor<4x2xf32>
    %f = train.read @frozen : tensor<2xf32>
    %t = train.read @teacher : tensor<4x2xf32>
    %y = train.matmul %x, %w : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
    %yb = train.add %y, %f : (tensor<?x2xf32>, tensor<2xf32>) -> tensor<?x2xf32>
    %target = train.matmul %x, %t : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
    %label = train.stop_gradient %target : tensor<?x2xf32>
    %p = train.sigmoid %label : tensor<?x2xf32>
    %l = train.sigmoid_cross_entropy %yb, %p : (tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
    %loss = train.mean %l : (tensor<?x2xf32>) -> tensor<f32>
    %metric = train.mean %target : (tensor<?x2xf32>) -> tensor<f32>
    train.yield %loss, %metric : tensor<f32>, tensor<f32>
  }
}

// -----

// Tests the rules of the remaining differentiable ops: embedding, reshape,
// concat, reduce_sum, scale, tanh, sigmoid, softmax.
// CHECK-LABEL: train.step @rules
// CHECK: train.softmax_grad
// CHECK: train.sigmoid_grad
// CHECK: train.tanh_grad
// CHECK: train.scale %{{.*}} by 2.000000e+00 {train.role = #train.role<backward>}
// CHECK: train.reduce_sum_grad %{{.*}}, %{{.*}} dims [1]
// CHECK: train.concat_grad (%{{.*}}, %{{.*}}), %{{.*}} axis 1
// CHECK: train.reshape_grad
// CHECK: train.embedding_grad %{{.*}}, %{{.*}} {padding_idx = 0 : i64, train.role = #train.role<backward>} : (tensor<?x2xi64>, tensor<?x2x3xf32>) -> tensor<10x3xf32>
// CHECK: train.param_grad @emb
// CHECK: train.param_grad @extra
train.program @p {
  train.param @emb : tensor<10x3xf32> init #train.uniform<min = -1.0, max = 1.0, seed = 1>
  train.param @extra : tensor<2xf32> init #train.constant<0.1>
  train.step @rules(%ids: tensor<?x2xi64>, %side: tensor<?x2xf32>) -> tensor<f32> {
    %t = train.read @emb : tensor<10x3xf32>
    %e = train.embedding %t, %ids {padding_idx = 0 : i64} : (tensor<10x3xf32>, tensor<?x2xi64>) -> tensor<?x2x3xf32>
    %f = train.reshape %e : (tensor<?x2x3xf32>) -> tensor<?x6xf32>
    %extra = train.read @extra : tensor<2xf32>
    %s = train.add %side, %extra : (tensor<?x2xf32>, tensor<2xf32>) -> tensor<?x2xf32>
    %c = train.concat %f, %s axis 1 : (tensor<?x6xf32>, tensor<?x2xf32>) -> tensor<?x8xf32>
    %r = train.reduce_sum %c dims [1] : (tensor<?x8xf32>) -> tensor<?xf32>
    %k = train.scale %r by 2.0 : tensor<?xf32>
    %th = train.tanh %k : tensor<?xf32>
    %sg = train.sigmoid %th : tensor<?xf32>
    %sm = train.softmax %sg : tensor<?xf32>
    %loss = train.mean %sm : (tensor<?xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
