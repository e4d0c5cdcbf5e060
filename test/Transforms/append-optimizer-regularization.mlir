// Tests weight decay and global-norm clipping in openks-append-optimizer:
// clipping first, over all gradients in parameter-name order (tagged
// backward: it runs on trainers), then g + weight-decay * param per update.
// RUN: openks-opt %s --openks-append-optimizer="weight-decay=0.001 clip-global-norm=2.0" | FileCheck %s

// CHECK:      train.step @step(%[[DW:.*]]: tensor<4x2xf32>, %[[DB:.*]]: tensor<2xf32>
// CHECK-NEXT: %[[C:.*]]:2 = train.clip_by_global_norm %[[DB]], %[[DW]] max_norm 2.000000e+00 {train.role = #train.role<backward>} : tensor<2xf32>, tensor<4x2xf32>
// CHECK-NEXT: %[[LR:.*]] = train.read @learning_rate
// CHECK-NEXT: %[[B:.*]] = train.read @b {train.role = #train.role<optimize>}
// CHECK-NEXT: %[[BD:.*]] = train.scale %[[B]] by 1.000000e-03 {train.role = #train.role<optimize>}
// CHECK-NEXT: %[[BG:.*]] = train.add %[[C]]#0, %[[BD]] {train.role = #train.role<optimize>}
// CHECK-NEXT: train.sgd @b, %[[BG]], %[[LR]]
// CHECK-NEXT: %[[W:.*]] = train.read @w
// CHECK-NEXT: %[[WD:.*]] = train.scale %[[W]] by 1.000000e-03
// CHECK-NEXT: %[[WG:.*]] = train.add %[[C]]#1, %[[WD]]
// CHECK-NEXT: train.sgd @w, %[[WG]], %[[LR]]
train.program @p {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @b : tensor<2xf32> init #train.constant<0.0>
  train.step @step(%dw: tensor<4x2xf32>, %db: tensor<2xf32>, %loss: tensor<f32>) -> tensor<f32> {
    train.param_grad @w, %dw : tensor<4x2xf32>
    train.param_grad @b, %db : tensor<2xf32>
    train.yield %loss : tensor<f32>
  }
}
