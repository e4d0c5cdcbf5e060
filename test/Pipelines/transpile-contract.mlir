// Tests that the verifier holds real transpiler output to the worker-server
// contract: hand-broken copies of a transpiled job are rejected with a
// located error, and moving the job to other hosts edits only the servers
// and the job attribute.
// RUN: split-file %s %t
// RUN: openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize{optimizer=adam}, openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2})' -o %t/mlp.mlir
// RUN: openks-opt %t/tiny.mlir --pass-pipeline='builtin.module(openks-minimize, openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171,127.0.0.1:6172 trainers=2 min-block-size=4})' -o %t/tiny-job.mlir

// A send to a block that does not exist.
// RUN: sed -e 's/to @ps1::@fc1.w.block0 /to @ps1::@fc1.w.block7 /' %t/mlp.mlir | not openks-opt 2>&1 | FileCheck %s --check-prefix=NOBLOCK
// NOBLOCK: <stdin>:{{[0-9]+}}:7: error: 'ps.send' op refers to @ps1::@fc1.w.block7, but server @ps1 holds no block @fc1.w.block7

// A gradient sent twice to one block, where the second send should have
// gone to another: the other block's update region is then never run.
// RUN: sed -e 's/to @ps0::@fc1.w.block1 /to @ps1::@fc1.w.block0 /' %t/mlp.mlir | not openks-opt 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: <stdin>:{{[0-9]+}}:7: error: 'ps.send' op sends to @ps1::@fc1.w.block0 a second time in step @step

// One block's rows claimed by two servers.
// RUN: sed -e 's/of @fc1.w : tensor<784x256xf32> rows \[0, 392)/of @fc1.w : tensor<784x256xf32> rows [392, 784)/' %t/mlp.mlir | not openks-opt 2>&1 | FileCheck %s --check-prefix=OWNED
// OWNED: <stdin>:{{[0-9]+}}:5: error: 'ps.block' op holds rows [392, 784) of @fc1.w, which overlap rows [392, 784) held by @ps{{[01]}} as @fc1.w.block{{[01]}}

// A barrier over a server the step never talks to (the third server holds
// no block of this small program).
// RUN: grep -q 'ps.server @ps2' %t/tiny-job.mlir
// RUN: sed -e 's/ps.send_barrier \[@ps0, @ps1\]/ps.send_barrier [@ps0, @ps1, @ps2]/' %t/tiny-job.mlir | not openks-opt 2>&1 | FileCheck %s --check-prefix=BARRIER
// BARRIER: <stdin>:{{[0-9]+}}:7: error: 'ps.send_barrier' op lists @ps2, which the step never sends to

// Moving the job: the same module on other hosts differs in exactly three
// lines, the job attribute and the two servers, and still verifies.
// RUN: sed -e 's/127\.0\.0\.1:6170/10.0.0.5:7000/g; s/127\.0\.0\.1:6171/10.0.0.6:7001/g' %t/mlp.mlir > %t/moved.mlir
// RUN: openks-opt %t/moved.mlir -o /dev/null
// RUN: not diff %t/mlp.mlir %t/moved.mlir > %t/moved.diff
// RUN: grep -c '^>' %t/moved.diff | FileCheck %s --check-prefix=LINES
// RUN: FileCheck %s --check-prefix=MOVED < %t/moved.diff
// LINES: {{^3$}}
// MOVED: > module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["10.0.0.5:7000", "10.0.0.6:7001"]
// MOVED: >   ps.server @ps0 endpoint "10.0.0.5:7000" fan_in 2 mode sync {
// MOVED: >   ps.server @ps1 endpoint "10.0.0.6:7001" fan_in 2 mode sync {

// Moving a server without telling the job is caught.
// RUN: sed -e 's/endpoint "127\.0\.0\.1:6171"/endpoint "10.0.0.6:7001"/' %t/mlp.mlir | not openks-opt 2>&1 | FileCheck %s --check-prefix=UNTOLD --implicit-check-not="see current operation"
// UNTOLD: <stdin>:{{[0-9]+}}:3: error: 'ps.server' op listens on 10.0.0.6:7001, which is not an endpoint of the job

//--- tiny.mlir
train.program @tiny {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.step @step(%x: tensor<?x4xf32>) -> tensor<f32> {
    %w = train.read @w : tensor<4x2xf32>
    %y = train.matmul %x, %w : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
    %l = train.mean %y : (tensor<?x2xf32>) -> tensor<f32>
    train.yield %l : tensor<f32>
  }
}
