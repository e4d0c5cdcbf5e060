// Round-trip tests of a parameter's own update settings and of the ops
// that apply them: train.clip, train.clip_by_norm and train.sign.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// Tests every setting (written in the one order the syntax has).
// CHECK-LABEL: train.program @settings
// CHECK: train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1> lr_scale 5.000000e-01 l2_decay 1.000000e-04 clip_min -2.000000e-01 clip_max 1.000000e-01{{$}}
// CHECK: train.param @b : tensor<2xf32> init #train.constant<0.000000e+00> l1_decay 0.000000e+00 clip_norm 1.000000e+00{{$}}
// CHECK: train.param @c : tensor<f32> init #train.constant<1.000000e+00> clip_max 3.000000e+00{{$}}
train.program @settings {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
      lr_scale 0.5 l2_decay 1.0e-4 clip_min -0.2 clip_max 0.1
  train.param @b : tensor<2xf32> init #train.constant<0.0> l1_decay 0.0 clip_norm 1.0
  train.param @c : tensor<f32> init #train.constant<1.0> clip_max 3.0
}

// -----

// Tests the clipping and sign ops.
// CHECK-LABEL: train.program @ops
// CHECK: train.clip %{{.*}} min -1.000000e-01 max 1.000000e-01 : tensor<4x2xf32>
// CHECK: train.clip_by_norm %{{.*}} max_norm 2.000000e+00 : tensor<4x2xf32>
// CHECK: train.sign %{{.*}} : tensor<4x2xf32>
train.program @ops {
  train.step @step(%g: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) {
    %c = train.clip %g min -0.1 max 0.1 : tensor<4x2xf32>
    %n = train.clip_by_norm %g max_norm 2.0 : tensor<4x2xf32>
    %s = train.sign %g : tensor<4x2xf32>
    train.yield %c, %n, %s : tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>
  }
}
