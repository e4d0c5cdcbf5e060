// Round-trip tests of the ps dialect's role programs: a worker that names
// its steps, servers with their blocks and update regions, and the
// communication between them, named by symbol.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// Tests a sync job on two servers: a weight cut into two row blocks, one per
// server, a whole bias, the learning rate copied to both servers, and the
// worker's sends, barriers and receives in Paddle's trainer order.
// CHECK-LABEL: ps.worker @linreg main @step startup @startup {
// CHECK-NEXT:  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
// CHECK:       train.step @step(%[[GW:.*]]: tensor<4x2xf32>, %[[GB:.*]]: tensor<2xf32>) {
// CHECK-NEXT:    %[[G:.*]]:2 = ps.split %[[GW]] rows [2, 2]
// CHECK-NEXT:    ps.send grad %[[G]]#0 to @ps0::@w.block0 : tensor<2x2xf32>
// CHECK-NEXT:    ps.send grad %[[G]]#1 to @ps1::@w.block1 : tensor<2x2xf32>
// CHECK-NEXT:    ps.send grad %[[GB]] to @ps0::@b : tensor<2xf32>
// CHECK-NEXT:    ps.send_barrier [@ps0, @ps1]
// CHECK-NEXT:    %[[P0:.*]] = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
// CHECK-NEXT:    %[[P1:.*]] = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
// CHECK-NEXT:    %[[PB:.*]] = ps.recv @ps0::@b : tensor<2xf32>
// CHECK-NEXT:    ps.fetch_barrier [@ps0, @ps1]
// CHECK:       train.step @startup() {
// CHECK-LABEL: ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
// CHECK-NEXT:  ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
// CHECK-NEXT:  ps.block @b : tensor<2xf32> init #train.constant<0.000000e+00>{{$}}
// CHECK-NEXT:  ps.block @lr : tensor<f32> init #train.constant<1.000000e-01> frozen
// CHECK-NEXT:  ps.update @w.block0 on grad (%[[S:.*]]: tensor<2x2xf32>) {
// CHECK-NEXT:    %[[A:.*]] = train.scale %[[S]] by 5.000000e-01 : tensor<2x2xf32>
// CHECK-NEXT:    %[[LR:.*]] = train.read @lr : tensor<f32>
// CHECK-NEXT:    train.sgd @w.block0, %[[A]], %[[LR]] : tensor<2x2xf32>, tensor<f32>
// CHECK-NEXT:  }
// CHECK-NEXT:  ps.update @b on grad
// CHECK-LABEL: ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
// CHECK-NEXT:  ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
// CHECK-NEXT:  ps.block @lr : tensor<f32> init #train.constant<1.000000e-01> frozen
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @linreg main @step startup @startup {
    train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%gw: tensor<4x2xf32>, %gb: tensor<2xf32>) {
      %g0, %g1 = ps.split %gw rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      ps.send grad %g0 to @ps0::@w.block0 : tensor<2x2xf32>
      ps.send grad %g1 to @ps1::@w.block1 : tensor<2x2xf32>
      ps.send grad %gb to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0, @ps1]
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      %pb = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0, @ps1]
      %w = ps.concat %p0, %p1 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
      train.write %w to @w : tensor<4x2xf32>
      train.write %pb to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      %pb = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0, @ps1]
      %w = ps.concat %p0, %p1 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
      train.write %w to @w : tensor<4x2xf32>
      train.write %pb to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
    ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.update @w.block0 on grad (%sum: tensor<2x2xf32>) {
      %g = train.scale %sum by 0.5 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block0, %g, %lr : tensor<2x2xf32>, tensor<f32>
    }
    ps.update @b on grad (%sum: tensor<2xf32>) {
      %g = train.scale %sum by 0.5 : tensor<2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @b, %g, %lr : tensor<2xf32>, tensor<f32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
    ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.update @w.block1 on grad (%sum: tensor<2x2xf32>) {
      %g = train.scale %sum by 0.5 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block1, %g, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
}

// -----

// Tests a GEO job on an IPv6 endpoint: the worker names its push step,
// which sends deltas, and the server's update region adds each delta.
// CHECK-LABEL: ps.worker @geo main @step startup @startup geo_push @push {
// CHECK:       train.step @push() {
// CHECK:         ps.send delta %{{.*}} to @g::@w : tensor<8xf32>
// CHECK:         ps.recv @g::@w : tensor<8xf32>
// CHECK-LABEL: ps.server @g endpoint "[::1]:6172" fan_in 2 mode geo {
// CHECK:       ps.update @w on delta (%[[D:.*]]: tensor<8xf32>) {
// CHECK-NEXT:    %[[W:.*]] = train.read @w : tensor<8xf32>
// CHECK-NEXT:    %[[S:.*]] = train.add %[[W]], %[[D]]
// CHECK-NEXT:    train.write %[[S]] to @w : tensor<8xf32>
module attributes {ps.job = #ps.job<mode = geo, trainers = 2, endpoints = ["[::1]:6172"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 10>} {
  ps.worker @geo main @step startup @startup geo_push @push {
    train.param @w : tensor<8xf32> init #train.gaussian<mean = 0.0, std = 1.0, seed = 9>
    train.param @w.geo_old : tensor<8xf32> init #train.gaussian<mean = 0.0, std = 1.0, seed = 9> frozen
    train.param @lr : tensor<f32> init #train.constant<0.1> frozen
    train.step @step(%g: tensor<8xf32>) {
      %lr = train.read @lr : tensor<f32>
      train.sgd @w, %g, %lr : tensor<8xf32>, tensor<f32>
      train.yield
    }
    train.step @push() {
      %local = train.read @w : tensor<8xf32>
      %old = train.read @w.geo_old : tensor<8xf32>
      %minus = train.scale %old by -1.0 : tensor<8xf32>
      %change = train.add %local, %minus : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      %delta = train.scale %change by 0.5 : tensor<8xf32>
      ps.send delta %delta to @g::@w : tensor<8xf32>
      %server = ps.recv @g::@w : tensor<8xf32>
      train.write %server to @w.geo_old : tensor<8xf32>
      train.yield
    }
    train.step @startup() {
      %w = ps.recv @g::@w : tensor<8xf32>
      ps.fetch_barrier [@g]
      train.write %w to @w : tensor<8xf32>
      train.write %w to @w.geo_old : tensor<8xf32>
      train.yield
    }
  }
  ps.server @g endpoint "[::1]:6172" fan_in 2 mode geo {
    ps.block @w : tensor<8xf32> init #train.gaussian<mean = 0.0, std = 1.0, seed = 9>
    ps.update @w on delta (%delta: tensor<8xf32>) {
      %w = train.read @w : tensor<8xf32>
      %sum = train.add %w, %delta : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      train.write %sum to @w : tensor<8xf32>
    }
  }
}

// -----

// Tests servers on their own, in the other modes: a module that holds no
// worker yet is checked server by server.
// CHECK: ps.server @a endpoint "127.0.0.1:6170" fan_in 1 mode async
// CHECK: ps.server @h endpoint "127.0.0.1:6171" fan_in 4 mode half_async
ps.server @a endpoint "127.0.0.1:6170" fan_in 1 mode async {
}
ps.server @h endpoint "127.0.0.1:6171" fan_in 4 mode half_async {
  ps.block @lr : tensor<f32> init #train.constant<0.5> frozen
}
