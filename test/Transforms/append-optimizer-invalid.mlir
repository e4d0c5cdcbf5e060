// Errors of openks-append-optimizer: bad options, nothing to optimize,
// taken state names and mixed element types.
// RUN: split-file %s %t
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="lr=0" 2>&1 | FileCheck %s --check-prefix=LR
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="optimizer=momentum momentum=-1" 2>&1 | FileCheck %s --check-prefix=MOMENTUM
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="optimizer=adam beta2=1" 2>&1 | FileCheck %s --check-prefix=BETA
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="epsilon=-1" 2>&1 | FileCheck %s --check-prefix=EPSILON
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="weight-decay=-0.1" 2>&1 | FileCheck %s --check-prefix=DECAY
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="clip-global-norm=-1" 2>&1 | FileCheck %s --check-prefix=CLIP
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="lr-schedule=exponential decay-steps=0" 2>&1 | FileCheck %s --check-prefix=EXP
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="lr-schedule=piecewise boundaries=10 values=1.0" 2>&1 | FileCheck %s --check-prefix=PIECES
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="lr-schedule=piecewise boundaries=10,5 values=1.0,0.5,0.1" 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="lr=nan" 2>&1 | FileCheck %s --check-prefix=NANLR
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="optimizer=adam epsilon=inf" 2>&1 | FileCheck %s --check-prefix=INFEPS
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="beta1=nan" 2>&1 | FileCheck %s --check-prefix=NANBETA
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="clip-global-norm=inf" 2>&1 | FileCheck %s --check-prefix=INFCLIP
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="lr-schedule=exponential decay-rate=nan" 2>&1 | FileCheck %s --check-prefix=NANRATE
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="lr-schedule=piecewise boundaries=10 values=1.0,nan" 2>&1 | FileCheck %s --check-prefix=NANVALUE
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="lr-schedule=piecewise boundaries=-1 values=1.0,0.5" 2>&1 | FileCheck %s --check-prefix=NEGBOUND
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="optimizer=rmsprop rho=1" 2>&1 | FileCheck %s --check-prefix=RHO
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="optimizer=decayed-adagrad rho=nan" 2>&1 | FileCheck %s --check-prefix=NANRHO
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="optimizer=rmsprop rmsprop-momentum=-0.5" 2>&1 | FileCheck %s --check-prefix=RMSMOMENTUM
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="optimizer=rmsprop rmsprop-momentum=inf" 2>&1 | FileCheck %s --check-prefix=INFRMSMOMENTUM
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="optimizer=ftrl ftrl-l1=-1" 2>&1 | FileCheck %s --check-prefix=FTRLL1
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="optimizer=ftrl ftrl-l2=nan" 2>&1 | FileCheck %s --check-prefix=FTRLL2
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="optimizer=ftrl lr-power=0.5" 2>&1 | FileCheck %s --check-prefix=POWER
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="optimizer=ftrl lr-power=-inf" 2>&1 | FileCheck %s --check-prefix=INFPOWER
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="optimizer=adamax beta1=-0.1" 2>&1 | FileCheck %s --check-prefix=ADAMAXBETA
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="optimizer=lamb" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not openks-opt %t/grads.mlir --openks-append-optimizer="lr-schedule=cosine" 2>&1 | FileCheck %s --check-prefix=SCHEDULE
// RUN: openks-opt %t/forward.mlir --openks-append-optimizer -verify-diagnostics -split-input-file

// LR: <unknown>:0: error: openks-append-optimizer: option 'lr' must be a positive finite number, got 0
// MOMENTUM: error: openks-append-optimizer: option 'momentum' must be a finite number >= 0, got -1
// BETA: error: openks-append-optimizer: option 'beta2' must be in [0, 1), got 1
// EPSILON: error: openks-append-optimizer: option 'epsilon' must be a finite number >= 0, got -1
// DECAY: error: openks-append-optimizer: option 'weight-decay' must be a finite number >= 0, got -0.1
// CLIP: error: openks-append-optimizer: option 'clip-global-norm' must be a finite number >= 0, got -1
// EXP: error: openks-append-optimizer: option 'decay-steps' must be at least 1, got 0
// PIECES: error: openks-append-optimizer: a piecewise schedule needs one more value than boundaries, got 1 values for 1 boundaries
// ORDER: error: openks-append-optimizer: option 'boundaries' must be non-negative steps that increase strictly
// NANLR: error: openks-append-optimizer: option 'lr' must be a positive finite number, got nan
// INFEPS: error: openks-append-optimizer: option 'epsilon' must be a finite number >= 0, got inf
// NANBETA: error: openks-append-optimizer: option 'beta1' must be in [0, 1), got nan
// INFCLIP: error: openks-append-optimizer: option 'clip-global-norm' must be a finite number >= 0, got inf
// NANRATE: error: openks-append-optimizer: option 'decay-rate' must be a positive finite number, got nan
// NANVALUE: error: openks-append-optimizer: option 'values' must be a positive finite number, got nan
// NEGBOUND: error: openks-append-optimizer: option 'boundaries' must be non-negative steps that increase strictly
// RHO: error: openks-append-optimizer: option 'rho' must be in [0, 1), got 1
// NANRHO: error: openks-append-optimizer: option 'rho' must be in [0, 1), got nan
// RMSMOMENTUM: error: openks-append-optimizer: option 'rmsprop-momentum' must be a finite number >= 0, got -0.5
// INFRMSMOMENTUM: error: openks-append-optimizer: option 'rmsprop-momentum' must be a finite number >= 0, got inf
// FTRLL1: error: openks-append-optimizer: option 'ftrl-l1' must be a finite number >= 0, got -1
// FTRLL2: error: openks-append-optimizer: option 'ftrl-l2' must be a finite number >= 0, got nan
// POWER: error: openks-append-optimizer: option 'lr-power' must be a finite number <= 0, got 0.5
// INFPOWER: error: openks-append-optimizer: option 'lr-power' must be a finite number <= 0, got -inf
// ADAMAXBETA: error: openks-append-optimizer: option 'beta1' must be in [0, 1), got -0.1
// UNKNOWN: for the --optimizer option: Cannot find option named 'lamb'!
// SCHEDULE: for the --lr-schedule option: Cannot find option named 'cosine'!

//--- grads.mlir
train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.step @step(%dw: tensor<4xf32>) {
    train.param_grad @w, %dw : tensor<4xf32>
    train.yield
  }
}

//--- forward.mlir
train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  // expected-error @+1 {{has no parameter gradients to apply; run openks-append-backward first}}
  train.step @step() {
    train.yield
  }
}

// -----

// expected-error @+1 {{openks-append-optimizer: no train.step to optimize}}
module {
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @w.velocity : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @learning_rate : tensor<f32> init #train.constant<0.0> frozen
  // expected-error @+1 {{needs optimizer state @learning_rate, but the name is taken}}
  train.step @step(%dw: tensor<4xf32>) {
    train.param_grad @w, %dw : tensor<4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @a : tensor<4xf32> init #train.constant<0.0>
  train.param @b : tensor<4xf64> init #train.constant<0.0>
  train.step @step(%da: tensor<4xf32>, %db: tensor<4xf64>) {
    train.param_grad @a, %da : tensor<4xf32>
    // expected-error @+1 {{has element type 'f64', but the first parameter has 'f32': one learning rate serves only one element type}}
    train.param_grad @b, %db : tensor<4xf64>
    train.yield
  }
}
