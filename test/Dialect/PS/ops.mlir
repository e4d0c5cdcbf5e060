// Round-trip tests of the ps dialect's role programs: workers, servers, blocks and update regions.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// Tests a worker with local parameters and a server holding a whole
// parameter, a row slice and the learning rate, with one update region per
// trained block.
// CHECK-LABEL: ps.worker @mlp {
// CHECK-NEXT: train.param @w : tensor<784x256xf32> init #train.xavier<seed = 1>
// CHECK: train.step @step
// CHECK-LABEL: ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
// CHECK-NEXT: ps.block @b : tensor<256xf32> init #train.constant<0.000000e+00>{{$}}
// CHECK-NEXT: ps.block @w.block1 : tensor<392x256xf32> of @w : tensor<784x256xf32> rows [392, 784) init #train.xavier<seed = 1>
// CHECK-NEXT: ps.block @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
// CHECK-NEXT: ps.update @b on "b@GRAD" (%[[G:.*]]: tensor<256xf32>) {
// CHECK-NEXT:   %[[LR:.*]] = train.read @learning_rate : tensor<f32>
// CHECK-NEXT:   train.sgd @b, %[[G]], %[[LR]] : tensor<256xf32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: ps.update @w.block1 on "w.block1@GRAD" (%{{.*}}: tensor<392x256xf32>) {
ps.worker @mlp {
  train.param @w : tensor<784x256xf32> init #train.xavier<seed = 1>
  train.param @b : tensor<256xf32> init #train.constant<0.0>
  train.step @step(%x: tensor<?x784xf32>) -> tensor<?x256xf32> {
    %w = train.read @w : tensor<784x256xf32>
    %y = train.matmul %x, %w : (tensor<?x784xf32>, tensor<784x256xf32>) -> tensor<?x256xf32>
    train.yield %y : tensor<?x256xf32>
  }
}

ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
  ps.block @b : tensor<256xf32> init #train.constant<0.0>
  ps.block @w.block1 : tensor<392x256xf32> of @w : tensor<784x256xf32> rows [392, 784)
      init #train.xavier<seed = 1>
  ps.block @learning_rate : tensor<f32> init #train.constant<0.1> frozen
  ps.update @b on "b@GRAD" (%g: tensor<256xf32>) {
    %lr = train.read @learning_rate : tensor<f32>
    train.sgd @b, %g, %lr : tensor<256xf32>, tensor<f32>
  }
  ps.update @w.block1 on "w.block1@GRAD" (%g: tensor<392x256xf32>) {
    %lr = train.read @learning_rate : tensor<f32>
    train.sgd @w.block1, %g, %lr : tensor<392x256xf32>, tensor<f32>
  }
}

// -----

// Tests every synchronisation mode, an IPv6 endpoint and a GEO server that
// adds deltas through a parameter write.
// CHECK: ps.server @a endpoint "127.0.0.1:6170" fan_in 1 mode async
// CHECK: ps.server @h endpoint "127.0.0.1:6171" fan_in 4 mode half_async
// CHECK: ps.server @g endpoint "[::1]:6172" fan_in 2 mode geo {
// CHECK: ps.update @w on "w.delta" (%[[D:.*]]: tensor<8xf32>) {
// CHECK-NEXT: %[[W:.*]] = train.read @w : tensor<8xf32>
// CHECK-NEXT: %[[S:.*]] = train.add %[[W]], %[[D]]
// CHECK-NEXT: train.write %[[S]] to @w : tensor<8xf32>
ps.server @a endpoint "127.0.0.1:6170" fan_in 1 mode async {
}
ps.server @h endpoint "127.0.0.1:6171" fan_in 4 mode half_async {
}
ps.server @g endpoint "[::1]:6172" fan_in 2 mode geo {
  ps.block @w : tensor<8xf32> init #train.gaussian<mean = 0.0, std = 1.0, seed = 9>
  ps.update @w on "w.delta" (%delta: tensor<8xf32>) {
    %w = train.read @w : tensor<8xf32>
    %sum = train.add %w, %delta : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    train.write %sum to @w : tensor<8xf32>
  }
}
