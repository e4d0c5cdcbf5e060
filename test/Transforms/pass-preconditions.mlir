// Tests that every minimize and transpile pass, run alone, either does its
// one job or refuses with a located error that names the pass to run first,
// and that running a pass again on its own output is a no-op or refused,
// never a corruption. The stages are made by the passes themselves.
// RUN: split-file %s %t
// RUN: openks-opt %t/forward.mlir --pass-pipeline='builtin.module(openks-minimize)' -o %t/minimized.mlir
// RUN: openks-opt %t/minimized.mlir --openks-configure-job='pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2 min-block-size=4' -o %t/configured.mlir
// RUN: openks-opt %t/configured.mlir --openks-slice-variables -o %t/sliced.mlir
// RUN: openks-opt %t/sliced.mlir --openks-dispatch -o %t/dispatched.mlir
// RUN: openks-opt %t/dispatched.mlir --openks-build-servers -o %t/servers.mlir
// RUN: openks-opt %t/servers.mlir --openks-insert-send-recv -o %t/transpiled.mlir

// Too early: each pass names the one that must run first. Errors point at
// the op that shows the stage and never print the (possibly huge) program.
// RUN: not openks-opt %t/forward.mlir --openks-configure-job='pservers=127.0.0.1:1' --openks-slice-variables 2>&1 | FileCheck %s --check-prefix=FORWARD
// RUN: not openks-opt %t/minimized.mlir --openks-slice-variables 2>&1 | FileCheck %s --check-prefix=NOJOB --implicit-check-not="see current operation"
// RUN: not openks-opt %t/configured.mlir --openks-dispatch 2>&1 | FileCheck %s --check-prefix=NOSLICES
// RUN: not openks-opt %t/sliced.mlir --openks-build-servers 2>&1 | FileCheck %s --check-prefix=NOPLACEMENT
// RUN: not openks-opt %t/dispatched.mlir --openks-insert-send-recv 2>&1 | FileCheck %s --check-prefix=NOSERVERS
// FORWARD: forward.mlir:3:3: error: openks-slice-variables: the program has no optimizer ops; run openks-minimize first
// NOJOB: minimized.mlir:{{[0-9]+}}:{{[0-9]+}}: error: openks-slice-variables: the program has no '#ps.job'; run openks-configure-job first
// NOSLICES: configured.mlir:{{[0-9]+}}:{{[0-9]+}}: error: openks-dispatch: the program has no 'ps.slices'; run openks-slice-variables first
// NOPLACEMENT: sliced.mlir:{{[0-9]+}}:{{[0-9]+}}: error: openks-build-servers: the program has no 'ps.placement'; run openks-dispatch first
// NOSERVERS: dispatched.mlir:{{[0-9]+}}:{{[0-9]+}}: error: openks-insert-send-recv: the program has no 'ps.server'; run openks-build-servers first

// Again: configuring the same job, slicing and dispatching again change
// nothing, even once later passes have run.
// RUN: openks-opt %t/configured.mlir --openks-configure-job='pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2 min-block-size=4' | diff %t/configured.mlir -
// RUN: openks-opt %t/sliced.mlir --openks-slice-variables | diff %t/sliced.mlir -
// RUN: openks-opt %t/dispatched.mlir --openks-slice-variables --openks-dispatch | diff %t/dispatched.mlir -
// RUN: openks-opt %t/transpiled.mlir --openks-configure-job='pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2 min-block-size=4' | diff %t/transpiled.mlir -

// Too late: passes whose output would no longer match the servers refuse.
// RUN: not openks-opt %t/sliced.mlir --openks-configure-job='pservers=127.0.0.1:6170 trainers=2' 2>&1 | FileCheck %s --check-prefix=RECONFIGURE
// RUN: not openks-opt %t/servers.mlir --openks-slice-variables 2>&1 | FileCheck %s --check-prefix=RESLICE
// RUN: not openks-opt %t/servers.mlir --openks-dispatch 2>&1 | FileCheck %s --check-prefix=REDISPATCH
// RUN: not openks-opt %t/servers.mlir --openks-build-servers 2>&1 | FileCheck %s --check-prefix=REBUILD
// RUN: not openks-opt %t/transpiled.mlir --openks-build-servers 2>&1 | FileCheck %s --check-prefix=REBUILD2
// RUN: not openks-opt %t/transpiled.mlir --openks-insert-send-recv 2>&1 | FileCheck %s --check-prefix=REINSERT --implicit-check-not="see current operation"
// RUN: not openks-opt %t/transpiled.mlir --openks-append-backward 2>&1 | FileCheck %s --check-prefix=REBACKWARD
// RUN: not openks-opt %t/sliced.mlir --openks-append-optimizer 2>&1 | FileCheck %s --check-prefix=REOPTIMIZE
// RECONFIGURE: sliced.mlir:{{[0-9]+}}:{{[0-9]+}}: error: openks-configure-job: the module is already sliced; openks-configure-job must run before openks-slice-variables
// RESLICE: servers.mlir:{{[0-9]+}}:{{[0-9]+}}: error: openks-slice-variables: the module is already given its servers; openks-slice-variables must run before openks-build-servers
// REDISPATCH: error: openks-dispatch: the module is already given its servers; openks-dispatch must run before openks-build-servers
// REBUILD: servers.mlir:{{[0-9]+}}:{{[0-9]+}}: error: openks-build-servers: the module is already given its servers; openks-build-servers has already run
// REBUILD2: error: openks-build-servers: the module is already transpiled; openks-build-servers has already run
// REINSERT: transpiled.mlir:{{[0-9]+}}:{{[0-9]+}}: error: openks-insert-send-recv: the module is already transpiled; openks-insert-send-recv has already run
// REBACKWARD: error: openks-append-backward: the module is already transpiled; openks-append-backward must run before openks-slice-variables
// REOPTIMIZE: error: openks-append-optimizer: the module is already sliced; openks-append-optimizer must run before openks-slice-variables

// A module whose placement was edited by hand after the servers were
// built is caught before any worker is built.
// RUN: sed -e 's/ps.placement = array<i64: 0, 1>/ps.placement = array<i64: 1, 0>/' %t/servers.mlir | not openks-opt --openks-insert-send-recv 2>&1 | FileCheck %s --check-prefix=MOVED
// MOVED: error: 'train.param' op openks-insert-send-recv: its block @w.block0 is placed on @ps1, which does not hold it; run openks-build-servers on the dispatched module

//--- forward.mlir
train.program @p {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.step @step(%x: tensor<?x4xf32>) -> tensor<f32> {
    %w = train.read @w : tensor<4x2xf32>
    %y = train.matmul %x, %w : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
    %l = train.mean %y : (tensor<?x2xf32>) -> tensor<f32>
    train.yield %l : tensor<f32>
  }
}
