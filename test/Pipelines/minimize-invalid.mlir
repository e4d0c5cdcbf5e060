// Tests that openks-minimize reports a pass manager on another op than
// builtin.module, and options that do not parse, with an error naming the
// pipeline: never an LLVM ERROR, never an empty `error:` line.
// RUN: not openks-opt %s --pass-pipeline='builtin.module(train.program(openks-minimize))' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not openks-opt %s --pass-pipeline='builtin.module(openks-minimize{optimizer=lamb})' 2>&1 | FileCheck %s --check-prefix=ENUM --implicit-check-not='error:{{ *$}}'
// RUN: not openks-opt %s --pass-pipeline='builtin.module(openks-minimize{lr=fast})' 2>&1 | FileCheck %s --check-prefix=NUMBER --implicit-check-not='error:{{ *$}}'
// RUN: not openks-opt %s --openks-minimize='beta1=0.8 beta3=0.9' 2>&1 | FileCheck %s --check-prefix=UNKNOWN --implicit-check-not='error:{{ *$}}'
// RUN: not openks-opt %s --pass-pipeline='builtin.module(openks-minimize{optimizer=adam epsilon=inf})' 2>&1 | FileCheck %s --check-prefix=VALUE

// ANCHOR: error: openks-minimize runs on 'builtin.module', not on 'train.program'
// ANCHOR-NEXT: failed to add `openks-minimize` with options ``

// ENUM: for the --optimizer option: Cannot find option named 'lamb'!
// ENUM-NEXT: error: openks-minimize: cannot parse options `optimizer=lamb`

// NUMBER: for the --lr option: 'fast' value invalid for floating point argument!
// NUMBER-NEXT: error: openks-minimize: cannot parse options `lr=fast`

// UNKNOWN: error: openks-minimize: <Pass-Options-Parser>: no such option beta3

// Values are checked as the pass checks them, against the option.
// VALUE: <unknown>:0: error: openks-minimize: option 'epsilon' must be a finite number >= 0, got inf

train.program @p {
  train.param @w : tensor<2xf32> init #train.constant<1.0>
  train.step @step() -> tensor<f32> {
    %w = train.read @w : tensor<2xf32>
    %loss = train.mean %w : (tensor<2xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
