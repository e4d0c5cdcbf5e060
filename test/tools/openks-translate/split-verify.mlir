// Tests openks-translate's mlir-translate conventions: -split-input-file
// translates each chunk on its own (an error in one does not stop the
// others), -verify-diagnostics checks the errors against the expected-*
// lines, and a diagnostic that is not expected, or one expected and not
// given, fails the run.
// RUN: openks-translate --export-paddle-program -split-input-file -verify-diagnostics %s -o /dev/null
// RUN: not openks-translate --export-paddle-program -split-input-file %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: sed -e 's/expected-error/expected-warning/' %s > %t.mlir
// RUN: not openks-translate --export-paddle-program -split-input-file -verify-diagnostics %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISMATCH
// The translations of the chunks are joined by -output-split-marker; a
// custom marker splits too.
// RUN: sed -n '/^train.program @ok/,/^}/p' %s > %t.ok.mlir
// RUN: cat %t.ok.mlir > %t.two.mlir && echo '// ==== cut' >> %t.two.mlir && cat %t.ok.mlir >> %t.two.mlir
// RUN: openks-translate --export-paddle-program --split-input-file='// ==== cut' --output-split-marker=MARKER %t.two.mlir | FileCheck %s --check-prefix=JOINED

// PLAIN: within split at {{.*}}split-verify.mlir:1 offset :{{[0-9]+}}:11: error: 'train.exponential_decay' op has no Paddle counterpart
// PLAIN-NOT: error:
// PLAIN: within split at {{.*}}split-verify.mlir:{{[0-9]+}} offset :6:10: error: 'train.clip' op cannot be exported to a Paddle program yet
// PLAIN-NOT: error:

// MISMATCH: error: 'error' diagnostic emitted when expecting a 'warning'
// MISMATCH: error: expected warning "has no Paddle counterpart" was not produced

// JOINED: MARKER
// JOINED-NOT: MARKER

train.program @decay {
  train.param @step_count : tensor<i64> init #train.constant<0.0> frozen
  train.step @s() -> tensor<f32> {
    %step = train.read @step_count : tensor<i64>
    // expected-error @+1 {{has no Paddle counterpart}}
    %lr = train.exponential_decay %step learning_rate 0.1 decay_rate 0.5 decay_steps 100 : tensor<i64> -> tensor<f32>
    train.yield %lr : tensor<f32>
  }
}

// -----

train.program @ok {
  train.step @s(%x: tensor<2xf32>) -> tensor<2xf32> {
    %y = train.scale %x by 2.0 : tensor<2xf32>
    train.yield %y : tensor<2xf32>
  }
}

// -----

train.program @clip {
  train.step @s(%g: tensor<2xf32>) -> tensor<2xf32> {
    // expected-error @+1 {{cannot be exported to a Paddle program yet}}
    %c = train.clip %g min -1.0 max 1.0 : tensor<2xf32>
    train.yield %c : tensor<2xf32>
  }
}
