// Tests that the transpile passes look only at parameters, gradients and
// optimizer ops: a minimized program whose forward and backward compute is
// written in linalg, arith and tensor ops transpiles in every mode, the
// foreign ops left as they are in the worker; autodiff, which needs gradient
// rules, says on the op that it has none.
// RUN: split-file %s %t
// RUN: openks-opt %t/minimized.mlir --pass-pipeline='builtin.module(openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2 min-block-size=4})' | FileCheck %s --check-prefixes=CHECK,SYNC
// RUN: openks-opt %t/minimized.mlir --pass-pipeline='builtin.module(openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2 min-block-size=4 mode=async})' | FileCheck %s --check-prefixes=CHECK,ASYNC
// RUN: openks-opt %t/minimized.mlir --pass-pipeline='builtin.module(openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2 min-block-size=4 mode=half-async})' | FileCheck %s --check-prefixes=CHECK,HALF
// RUN: openks-opt %t/minimized.mlir --pass-pipeline='builtin.module(openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2 min-block-size=4 mode=geo})' | FileCheck %s --check-prefix=GEO
// RUN: not openks-opt %t/forward.mlir --pass-pipeline='builtin.module(openks-append-backward)' 2>&1 | FileCheck %s --check-prefix=AUTODIFF

// CHECK-LABEL: ps.worker @linreg main @step startup @startup {
// CHECK:       linalg.matmul ins(%arg0,
// CHECK:       linalg.reduce
// CHECK:       %[[DW:.*]] = linalg.matmul ins(%transposed,
// CHECK-NEXT:  %[[G:.*]]:2 = ps.split %[[DW]] rows [2, 2]
// CHECK-NEXT:  ps.send grad %[[G]]#0 to @ps0::@w.block0
// CHECK-NEXT:  ps.send grad %[[G]]#1 to @ps1::@w.block1
// SYNC-NEXT:   ps.send_barrier [@ps0, @ps1]
// HALF-NEXT:   ps.send_barrier [@ps0, @ps1]
// ASYNC-NOT:   ps.send_barrier
// CHECK:       ps.recv @ps0::@w.block0
// SYNC:        ps.fetch_barrier [@ps0, @ps1]
// CHECK-NOT:   train.sgd
// CHECK-LABEL: ps.server @ps0
// CHECK:       ps.update @w.block0 on grad
// CHECK:       train.sgd @w.block0

// GEO-LABEL: ps.worker @linreg main @step startup @startup geo_push @geo_push {
// GEO:       %[[DW:.*]] = linalg.matmul ins(%transposed,
// GEO:       train.sgd @w, %[[DW]]
// GEO:       ps.send delta
// GEO-LABEL: ps.server @ps0
// GEO-NOT:   ps.block @lr
// GEO:       ps.update @w.block0 on delta

// AUTODIFF: forward.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'linalg.matmul' op has no gradient rule, but the loss of step @step depends on its result

//--- minimized.mlir
train.program @linreg {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @lr : tensor<f32> init #train.constant<0.1> frozen
  train.step @step(%x: tensor<?x4xf32>) -> tensor<f32> {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %n = tensor.dim %x, %c0 : tensor<?x4xf32>
    %w = train.read @w {train.role = #train.role<forward>} : tensor<4x2xf32>
    %ye = tensor.empty(%n) : tensor<?x2xf32>
    %yz = linalg.fill ins(%zero : f32) outs(%ye : tensor<?x2xf32>) -> tensor<?x2xf32>
    %y = linalg.matmul ins(%x, %w : tensor<?x4xf32>, tensor<4x2xf32>) outs(%yz : tensor<?x2xf32>) -> tensor<?x2xf32>
    %le = tensor.empty() : tensor<f32>
    %lz = linalg.fill ins(%zero : f32) outs(%le : tensor<f32>) -> tensor<f32>
    %loss = linalg.reduce ins(%y : tensor<?x2xf32>) outs(%lz : tensor<f32>) dimensions = [0, 1]
      (%a: f32, %b: f32) {
        %s = arith.addf %a, %b : f32
        linalg.yield %s : f32
      }
    %onese = tensor.empty(%n) : tensor<?x2xf32>
    %ones = linalg.fill ins(%one : f32) outs(%onese : tensor<?x2xf32>) -> tensor<?x2xf32>
    %xte = tensor.empty(%n) : tensor<4x?xf32>
    %xt = linalg.transpose ins(%x : tensor<?x4xf32>) outs(%xte : tensor<4x?xf32>) permutation = [1, 0]
    %dwe = tensor.empty() : tensor<4x2xf32>
    %dwz = linalg.fill ins(%zero : f32) outs(%dwe : tensor<4x2xf32>) -> tensor<4x2xf32>
    %dw = linalg.matmul ins(%xt, %ones : tensor<4x?xf32>, tensor<?x2xf32>) outs(%dwz : tensor<4x2xf32>) -> tensor<4x2xf32>
    %lr = train.read @lr {train.role = #train.role<optimize>} : tensor<f32>
    train.sgd @w, %dw, %lr {train.role = #train.role<optimize>} : tensor<4x2xf32>, tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
//--- forward.mlir
train.program @linreg {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.step @step(%x: tensor<?x4xf32>) -> tensor<f32> {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %n = tensor.dim %x, %c0 : tensor<?x4xf32>
    %w = train.read @w : tensor<4x2xf32>
    %ye = tensor.empty(%n) : tensor<?x2xf32>
    %yz = linalg.fill ins(%zero : f32) outs(%ye : tensor<?x2xf32>) -> tensor<?x2xf32>
    %y = linalg.matmul ins(%x, %w : tensor<?x4xf32>, tensor<4x2xf32>) outs(%yz : tensor<?x2xf32>) -> tensor<?x2xf32>
    %loss = train.mean %y : (tensor<?x2xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
