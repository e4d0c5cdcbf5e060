// Tests that openks-append-optimizer honours each parameter's own update
// settings (Paddle's ParamAttr) over the optimizer's: per parameter, in
// Paddle's order, its clip (optimize role: it runs where the optimizer
// runs), its regularizer instead of the weight decay (0 turns it off), its
// learning-rate scale. Global-norm clipping (backward role) covers only the
// parameters without a clip of their own.
// RUN: openks-opt %s --openks-append-optimizer="weight-decay=0.1 clip-global-norm=2.0" | FileCheck %s
// RUN: openks-opt %s --openks-append-optimizer="optimizer=adam" | FileCheck %s --check-prefix=NOGLOBAL

// CHECK:      train.step @step(%[[DA:[^:]*]]: tensor<4x2xf32>, %[[DB:[^:]*]]: tensor<2xf32>, %[[DC:[^:]*]]: tensor<2xf32>, %[[DD:[^:]*]]: tensor<2xf32>, %[[DE:[^:]*]]: tensor<3xf32>
// CHECK-NEXT: %[[G:.*]]:2 = train.clip_by_global_norm %[[DC]], %[[DD]] max_norm 2.000000e+00 {train.role = #train.role<backward>} : tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[LR:.*]] = train.read @learning_rate {train.role = #train.role<optimize>}
// @a: clip by norm, L1 decay (sign, scale, add), half the learning rate.
// CHECK-NEXT: %[[AC:.*]] = train.clip_by_norm %[[DA]] max_norm 1.000000e+00 {train.role = #train.role<optimize>} : tensor<4x2xf32>
// CHECK-NEXT: %[[A:.*]] = train.read @a {train.role = #train.role<optimize>}
// CHECK-NEXT: %[[AS:.*]] = train.sign %[[A]] {train.role = #train.role<optimize>}
// CHECK-NEXT: %[[AD:.*]] = train.scale %[[AS]] by 1.000000e-02 {train.role = #train.role<optimize>}
// CHECK-NEXT: %[[AG:.*]] = train.add %[[AC]], %[[AD]] {train.role = #train.role<optimize>}
// CHECK-NEXT: %[[ALR:.*]] = train.scale %[[LR]] by 5.000000e-01 {train.role = #train.role<optimize>} : tensor<f32>
// CHECK-NEXT: train.sgd @a, %[[AG]], %[[ALR]] {train.role = #train.role<optimize>}
// @b: clip by value to [-0.1, 0.1]; l2_decay 0 turns the weight decay off.
// CHECK-NEXT: %[[BC:.*]] = train.clip %[[DB]] min -1.000000e-01 max 1.000000e-01 {train.role = #train.role<optimize>}
// CHECK-NEXT: train.sgd @b, %[[BC]], %[[LR]]
// @c: the optimizer's settings, global clip and weight decay.
// CHECK-NEXT: %[[C:.*]] = train.read @c
// CHECK-NEXT: %[[CD:.*]] = train.scale %[[C]] by 1.000000e-01
// CHECK-NEXT: %[[CG:.*]] = train.add %[[G]]#0, %[[CD]]
// CHECK-NEXT: train.sgd @c, %[[CG]], %[[LR]]
// @d: its own L2 coefficient instead of the weight decay.
// CHECK-NEXT: %[[D:.*]] = train.read @d
// CHECK-NEXT: %[[DDEC:.*]] = train.scale %[[D]] by 5.000000e-01
// CHECK-NEXT: %[[DG:.*]] = train.add %[[G]]#1, %[[DDEC]]
// CHECK-NEXT: train.sgd @d, %[[DG]], %[[LR]]
// @e: asymmetric bounds; weight decay; an lr_scale of 1 adds nothing.
// CHECK-NEXT: %[[EC:.*]] = train.clip %[[DE]] min -5.000000e-01 max 1.000000e-01
// CHECK-NEXT: %[[E:.*]] = train.read @e
// CHECK-NEXT: %[[ED:.*]] = train.scale %[[E]] by 1.000000e-01
// CHECK-NEXT: %[[EG:.*]] = train.add %[[EC]], %[[ED]]
// CHECK-NEXT: train.sgd @e, %[[EG]], %[[LR]]
// CHECK-NEXT: train.yield

// Without global settings, the parameters' own still apply, whatever the
// optimizer.
// NOGLOBAL-NOT: clip_by_global_norm
// NOGLOBAL:     train.clip_by_norm
// NOGLOBAL:     train.sign
// NOGLOBAL:     train.adam @a
// NOGLOBAL:     train.clip %{{.*}} min -1.000000e-01 max 1.000000e-01
// NOGLOBAL-NEXT: train.adam @b
// NOGLOBAL-NEXT: train.adam @c
// NOGLOBAL:     train.scale %{{.*}} by 5.000000e-01
// NOGLOBAL:     train.adam @d
train.program @p {
  train.param @a : tensor<4x2xf32> init #train.xavier<seed = 1> lr_scale 0.5 l1_decay 0.01 clip_norm 1.0
  train.param @b : tensor<2xf32> init #train.constant<0.0> l2_decay 0.0 clip_max 0.1
  train.param @c : tensor<2xf32> init #train.constant<0.0>
  train.param @d : tensor<2xf32> init #train.constant<0.0> l2_decay 0.5
  train.param @e : tensor<3xf32> init #train.constant<0.0> lr_scale 1.0 clip_min -0.5 clip_max 0.1
  train.step @step(%da: tensor<4x2xf32>, %db: tensor<2xf32>, %dc: tensor<2xf32>, %dd: tensor<2xf32>, %de: tensor<3xf32>, %loss: tensor<f32>) -> tensor<f32> {
    train.param_grad @a, %da : tensor<4x2xf32>
    train.param_grad @b, %db : tensor<2xf32>
    train.param_grad @c, %dc : tensor<2xf32>
    train.param_grad @d, %dd : tensor<2xf32>
    train.param_grad @e, %de : tensor<3xf32>
    train.yield %loss : tensor<f32>
  }
}
