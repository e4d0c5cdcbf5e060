// Tests that worker and server programs survive the bytecode writer and
// reader, including the mode enum and optional slice attributes.
// RUN: openks-opt %s --verify-roundtrip | FileCheck %s
// RUN: openks-opt %s --emit-bytecode | openks-opt | FileCheck %s

// CHECK: ps.worker @w
// CHECK: ps.split %{{.*}} rows [2, 2]
// CHECK: ps.send %{{.*}} to "127.0.0.1:6171" as "w.block1@GRAD"
// CHECK: ps.send_barrier ["127.0.0.1:6170", "127.0.0.1:6171"]
// CHECK: ps.recv "w.block1" from "127.0.0.1:6171"
// CHECK: ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 3 mode half_async
// CHECK: ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 4>
// CHECK: ps.update @w.block1 on "w.block1@GRAD"
ps.worker @w {
  train.step @step(%g: tensor<4x2xf32>) -> tensor<2x2xf32> {
    %g0, %g1 = ps.split %g rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
    ps.send %g1 to "127.0.0.1:6171" as "w.block1@GRAD" : tensor<2x2xf32>
    ps.send_barrier ["127.0.0.1:6170", "127.0.0.1:6171"]
    %p1 = ps.recv "w.block1" from "127.0.0.1:6171" : tensor<2x2xf32>
    train.yield %p1 : tensor<2x2xf32>
  }
}
ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 3 mode half_async {
  ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 4>
  ps.block @lr : tensor<f32> init #train.constant<0.5> frozen
  ps.update @w.block1 on "w.block1@GRAD" (%g: tensor<2x2xf32>) {
    %lr = train.read @lr : tensor<f32>
    train.sgd @w.block1, %g, %lr : tensor<2x2xf32>, tensor<f32>
  }
}
