// openks-reduce cuts a program that openks-append-backward rejects down to
// what the failure needs: step @s, whose loss depends on train.relu_grad (an
// op with no gradient rule), and the parameters and ops that step reads.
// Step @eval, the parameter only it reads and the dead op in @s go. The
// interestingness test, Inputs/no-gradient-rule.sh, keeps a variant only
// while openks-opt still fails on it with the same error; openks-reduce
// passes it the openks-opt to run (`test-arg`) and then the variant.
// RUN: not openks-opt %s --openks-append-backward 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: openks-reduce %s -reduction-tree='traversal-mode=0 test=%S/Inputs/no-gradient-rule.sh test-arg=openks-opt' -o %t
// RUN: FileCheck %s --input-file=%t --implicit-check-not=train.
// RUN: not openks-opt %t --openks-append-backward 2>&1 | FileCheck %s --check-prefix=ERROR

// ERROR: error: 'train.relu_grad' op has no gradient rule, but the loss of step @s depends on its result through trainable parameters

// Every line of the reduced program that names a train op or attribute is
// matched below (--implicit-check-not=train.): @v, @eval and the
// train.relu of %b are gone.
// CHECK:      train.program @p {
// CHECK-NEXT:   train.param @w : tensor<4xf32> init #train.constant<0.000000e+00>
// CHECK-NEXT:   train.param @b : tensor<4xf32> init #train.constant<5.000000e-01>
// CHECK-NEXT:   train.step @s(%[[D:.*]]: tensor<4xf32>) -> tensor<f32> {
// CHECK-NEXT:     %[[W:.*]] = train.read @w
// CHECK-NEXT:     %[[B:.*]] = train.read @b
// CHECK-NEXT:     %[[A:.*]] = train.add %[[W]], %[[B]]
// CHECK-NEXT:     %[[R:.*]] = train.relu %[[A]]
// CHECK-NEXT:     %[[G:.*]] = train.relu_grad %[[R]], %[[D]]
// CHECK-NEXT:     %[[L:.*]] = train.mean %[[G]]
// CHECK-NEXT:     train.yield %[[L]]
// CHECK-NEXT:   }
// CHECK-NEXT: }

train.program @p {
  train.param @v : tensor<8xf32> init #train.xavier<seed = 3>

  train.step @eval(%x: tensor<8xf32>) -> tensor<f32> {
    %v = train.read @v : tensor<8xf32>
    %y = train.add %x, %v : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %l = train.mean %y : (tensor<8xf32>) -> tensor<f32>
    train.yield %l : tensor<f32>
  }

  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @b : tensor<4xf32> init #train.constant<0.5>

  train.step @s(%d: tensor<4xf32>) -> tensor<f32> {
    %w = train.read @w : tensor<4xf32>
    %b = train.read @b : tensor<4xf32>
    %a = train.add %w, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %dead = train.relu %b : tensor<4xf32>
    %r = train.relu %a : tensor<4xf32>
    %g = train.relu_grad %r, %d : tensor<4xf32>
    %l = train.mean %g : (tensor<4xf32>) -> tensor<f32>
    train.yield %l : tensor<f32>
  }
}
