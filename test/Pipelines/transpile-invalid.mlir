// Tests that openks-transpile reports a pass manager on another op than
// builtin.module, and options that do not parse, with an error naming the
// pipeline: never an LLVM ERROR, never an empty `error:` line.
// RUN: not openks-opt %s --pass-pipeline='builtin.module(train.program(openks-transpile{pservers=127.0.0.1:6170}))' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not openks-opt %s --pass-pipeline='builtin.module(openks-transpile{pservers=127.0.0.1:6170 mode=bsp})' 2>&1 | FileCheck %s --check-prefix=ENUM --implicit-check-not='error:{{ *$}}'
// RUN: not openks-opt %s --pass-pipeline='builtin.module(openks-transpile{pservers=127.0.0.1:6170 trainers=two})' 2>&1 | FileCheck %s --check-prefix=NUMBER --implicit-check-not='error:{{ *$}}'
// RUN: not openks-opt %s --openks-transpile='pservers=127.0.0.1:6170 servers=2' 2>&1 | FileCheck %s --check-prefix=UNKNOWN --implicit-check-not='error:{{ *$}}'

// ANCHOR: error: openks-transpile runs on 'builtin.module', not on 'train.program'
// ANCHOR-NEXT: failed to add `openks-transpile` with options `pservers=127.0.0.1:6170`

// ENUM: for the --mode option: Cannot find option named 'bsp'!
// ENUM-NEXT: error: openks-transpile: cannot parse options `pservers=127.0.0.1:6170 mode=bsp`

// NUMBER: for the --trainers option: 'two' value invalid for long argument!
// NUMBER-NEXT: error: openks-transpile: cannot parse options `pservers=127.0.0.1:6170 trainers=two`

// UNKNOWN: error: openks-transpile: <Pass-Options-Parser>: no such option servers

train.program @p {
  train.param @w : tensor<2xf32> init #train.constant<1.0>
  train.step @step() -> tensor<f32> {
    %w = train.read @w : tensor<2xf32>
    %loss = train.mean %w : (tensor<2xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
