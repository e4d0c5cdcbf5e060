//===- Passes.td - OpenKS minimize and transpile passes ----*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TRANSFORMS_PASSES_TD
#define OPENKS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// minimize
//===----------------------------------------------------------------------===//

def AppendBackwardPass : Pass<"openks-append-backward", "::mlir::ModuleOp"> {
  let summary = "Appends the backward pass of each step's loss.";
  let description = [{
    Reverse-mode autodiff over the `train` dialect, like Paddle's
    `append_backward`. For every `train.step` whose first result is a rank-0
    float loss, it seeds `d loss / d loss = 1` with `train.fill`, then walks
    the step backwards and asks each op on the path from a trainable
    parameter to the loss for its gradient through `GradientOpInterface`.
    Gradients of values used more than once are summed with `train.add`.
    Frozen parameters and values behind `train.stop_gradient` get none.

    The step ends with one `train.param_grad` per trainable parameter the
    loss depends on, in parameter-name order; `openks-append-optimizer`
    consumes them. Forward ops are tagged `train.role = #train.role<forward>`
    and the new ops `#train.role<backward>`.

    Fails with a located error when an op on that path has no gradient
    rule, when the loss is missing or depends on no trainable parameter, or
    when the step already has a backward pass.

    The example, a linear model's loss, is the program that the examples
    of the other passes carry through the pipeline, each starting from the
    IR its previous pass's example ends with:

    Run with: `openks-opt --openks-append-backward`

    Before:

    ```mlir
    train.program @linear {
      train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
      train.step @step(%x: tensor<?x4xf32>) -> tensor<f32> {
        %w = train.read @w : tensor<4x2xf32>
        %y = train.matmul %x, %w : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
        %loss = train.mean %y : (tensor<?x2xf32>) -> tensor<f32>
        train.yield %loss : tensor<f32>
      }
    }
    ```

    After:

    ```mlir
    module {
      train.program @linear {
        train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
        train.step @step(%arg0: tensor<?x4xf32>) -> tensor<f32> {
          %0 = train.read @w {train.role = #train.role<forward>} : tensor<4x2xf32>
          %1 = train.matmul %arg0, %0 {train.role = #train.role<forward>} : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
          %2 = train.mean %1 {train.role = #train.role<forward>} : (tensor<?x2xf32>) -> tensor<f32>
          %3 = train.fill 1.000000e+00 {train.role = #train.role<backward>} : tensor<f32>
          %4 = train.mean_grad %1, %3 {train.role = #train.role<backward>} : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
          %da, %db = train.matmul_grad %arg0, %0, %4 {train.role = #train.role<backward>} : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<4x2xf32>)
          train.param_grad @w, %db {train.role = #train.role<backward>} : tensor<4x2xf32>
          train.yield %2 : tensor<f32>
        }
      }
    }
    ```
  }];
  let dependentDialects = ["::openks::train::TrainDialect"];
}

def AppendOptimizerPass : Pass<"openks-append-optimizer", "::mlir::ModuleOp"> {
  let summary = "Turns each parameter gradient into an optimizer update.";
  let description = [{
    Replaces the `train.param_grad` ops of every step with the optimizer's
    update ops, one per parameter in parameter-name order (as Paddle sorts
    its parameter/gradient pairs). Creates what the optimizer needs as frozen
    parameters: the learning rate `@learning_rate` (or, with a schedule, the
    step counter `@"@LR_DECAY_COUNTER@"` and the ops computing the rate from
    it), and per parameter its state: `<param>.velocity` (momentum),
    `<param>.moment1`, `<param>.moment2`, `<param>.beta1_pow`,
    `<param>.beta2_pow` (adam), `<param>.moment` (adagrad,
    decayed-adagrad), `<param>.mean_square`, `<param>.moment` and, centered,
    `<param>.mean_grad` (rmsprop), `<param>.squared`, `<param>.linear`
    (ftrl), or `<param>.moment`, `<param>.inf_norm`, `<param>.beta1_pow`
    (adamax).

    Each gradient goes through, in Paddle's order: clipping, regularization,
    then the update with the parameter's learning rate. Optional global-norm
    clipping scales all gradients first; optional L2 weight decay adds
    `weight-decay * param`. A parameter's own settings (`lr_scale`,
    `l1_decay`, `l2_decay`, `clip_min`/`clip_max`, `clip_norm` on its
    `train.param`) take precedence: its own clip replaces the global-norm
    clipping for it (its gradient is left out of the global norm), its own
    regularizer replaces the weight decay (as a Paddle ParamAttr regularizer
    overrides the optimizer's regularization), and `lr_scale` multiplies
    the learning rate. Ops are tagged with their role: `optimize`,
    `lr_schedule`, and `backward` for the global-norm clipping, which the
    transpiler moves to the servers in sync mode (where the norm is that of
    the batch's gradient) and leaves on the trainers otherwise, as Paddle
    does; a parameter's own clipping is `optimize` and runs where its
    optimizer runs.

    Example: the linear model after `openks-append-backward`, with SGD:

    Run with: `openks-opt --openks-append-optimizer='optimizer=sgd lr=0.1'`

    Before:

    ```mlir
    module {
      train.program @linear {
        train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
        train.step @step(%arg0: tensor<?x4xf32>) -> tensor<f32> {
          %0 = train.read @w {train.role = #train.role<forward>} : tensor<4x2xf32>
          %1 = train.matmul %arg0, %0 {train.role = #train.role<forward>} : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
          %2 = train.mean %1 {train.role = #train.role<forward>} : (tensor<?x2xf32>) -> tensor<f32>
          %3 = train.fill 1.000000e+00 {train.role = #train.role<backward>} : tensor<f32>
          %4 = train.mean_grad %1, %3 {train.role = #train.role<backward>} : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
          %da, %db = train.matmul_grad %arg0, %0, %4 {train.role = #train.role<backward>} : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<4x2xf32>)
          train.param_grad @w, %db {train.role = #train.role<backward>} : tensor<4x2xf32>
          train.yield %2 : tensor<f32>
        }
      }
    }
    ```

    After:

    ```mlir
    module {
      train.program @linear {
        train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
        train.param @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        train.step @step(%arg0: tensor<?x4xf32>) -> tensor<f32> {
          %0 = train.read @w {train.role = #train.role<forward>} : tensor<4x2xf32>
          %1 = train.matmul %arg0, %0 {train.role = #train.role<forward>} : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
          %2 = train.mean %1 {train.role = #train.role<forward>} : (tensor<?x2xf32>) -> tensor<f32>
          %3 = train.fill 1.000000e+00 {train.role = #train.role<backward>} : tensor<f32>
          %4 = train.mean_grad %1, %3 {train.role = #train.role<backward>} : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
          %da, %db = train.matmul_grad %arg0, %0, %4 {train.role = #train.role<backward>} : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<4x2xf32>)
          %5 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w, %db, %5 {train.role = #train.role<optimize>} : tensor<4x2xf32>, tensor<f32>
          train.yield %2 : tensor<f32>
        }
      }
    }
    ```
  }];
  let options = [
    Option<"optimizer", "optimizer", "::openks::OptimizerKind",
           "::openks::OptimizerKind::SGD", "The update rule",
           [{::llvm::cl::values(
             clEnumValN(::openks::OptimizerKind::SGD, "sgd", "plain SGD"),
             clEnumValN(::openks::OptimizerKind::Momentum, "momentum",
                        "SGD with momentum"),
             clEnumValN(::openks::OptimizerKind::Adam, "adam", "Adam"),
             clEnumValN(::openks::OptimizerKind::Adagrad, "adagrad",
                        "Adagrad"),
             clEnumValN(::openks::OptimizerKind::RMSProp, "rmsprop",
                        "RMSProp"),
             clEnumValN(::openks::OptimizerKind::DecayedAdagrad,
                        "decayed-adagrad", "Adagrad with a decaying average"),
             clEnumValN(::openks::OptimizerKind::Ftrl, "ftrl", "FTRL"),
             clEnumValN(::openks::OptimizerKind::Adamax, "adamax",
                        "Adamax"))}]>,
    Option<"learningRate", "lr", "double", "0.01",
           "Learning rate (the initial one with a schedule)">,
    Option<"momentum", "momentum", "double", "0.9",
           "Momentum coefficient mu (momentum)">,
    Option<"nesterov", "nesterov", "bool", "false",
           "Use Nesterov momentum (momentum)">,
    Option<"beta1", "beta1", "double", "0.9",
           "First-moment decay (adam, adamax)">,
    Option<"beta2", "beta2", "double", "0.999",
           "Second-moment decay (adam, adamax)">,
    Option<"epsilon", "epsilon", "double", "0",
           "Denominator guard; 0 picks the optimizer's default, 1e-8 for "
           "adam and adamax, 1e-6 for adagrad, rmsprop and decayed-adagrad">,
    Option<"rho", "rho", "double", "0.95",
           "Decay of the squared-gradient average (rmsprop, "
           "decayed-adagrad)">,
    Option<"rmspropMomentum", "rmsprop-momentum", "double", "0",
           "Momentum of the update (rmsprop)">,
    Option<"centered", "centered", "bool", "false",
           "Divide by the gradient's variance, not its mean square "
           "(rmsprop)">,
    Option<"ftrlL1", "ftrl-l1", "double", "0", "L1 strength (ftrl)">,
    Option<"ftrlL2", "ftrl-l2", "double", "0", "L2 strength (ftrl)">,
    Option<"lrPower", "lr-power", "double", "-0.5",
           "Learning-rate power, at most 0 (ftrl)">,
    Option<"weightDecay", "weight-decay", "double", "0",
           "L2 regularisation coefficient (0: none)">,
    Option<"clipGlobalNorm", "clip-global-norm", "double", "0",
           "Clip all gradients to this global L2 norm (0: no clipping)">,
    Option<"lrSchedule", "lr-schedule", "::openks::LRSchedule",
           "::openks::LRSchedule::Constant", "Learning-rate schedule",
           [{::llvm::cl::values(
             clEnumValN(::openks::LRSchedule::Constant, "constant",
                        "a fixed rate"),
             clEnumValN(::openks::LRSchedule::Exponential, "exponential",
                        "lr * decay-rate ^ (step / decay-steps)"),
             clEnumValN(::openks::LRSchedule::Piecewise, "piecewise",
                        "values[i] after boundaries[i - 1]"))}]>,
    Option<"decayRate", "decay-rate", "double", "0.5",
           "Decay factor (exponential)">,
    Option<"decaySteps", "decay-steps", "int64_t", "1000",
           "Steps per decay (exponential)">,
    Option<"staircase", "staircase", "bool", "false",
           "Decay in whole steps of decay-steps (exponential)">,
    ListOption<"boundaries", "boundaries", "int64_t",
               "Steps at which the rate changes (piecewise)">,
    ListOption<"values", "values", "double",
               "Rates before, between and after the boundaries (piecewise)">
  ];
  let dependentDialects = ["::openks::train::TrainDialect"];
}

//===----------------------------------------------------------------------===//
// transpile
//===----------------------------------------------------------------------===//

def ConfigureJobPass : Pass<"openks-configure-job", "::mlir::ModuleOp"> {
  let summary = "Attaches the parameter-server job configuration.";
  let description = [{
    Records Paddle's DistributeTranspilerConfig and transpile arguments as
    the module's `ps.job` attribute (`#ps.job<...>`), which every later
    transpile pass reads. These options are the one place the job is
    configured: `openks-transpile` passes its options here, and the Fleet
    API fills the same struct. Invalid settings (no or duplicate or
    malformed endpoints, no trainers, a block size or push period below 1)
    are errors.

    Example: the linear model after `openks-append-optimizer`, on two
    servers and two trainers, with blocks of at least 4 elements so that its
    4x2 weight is split (the default, Paddle's 8192, keeps small parameters
    whole):

    Run with: `openks-opt --openks-configure-job='pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2 min-block-size=4'`

    Before:

    ```mlir
    module {
      train.program @linear {
        train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
        train.param @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        train.step @step(%arg0: tensor<?x4xf32>) -> tensor<f32> {
          %0 = train.read @w {train.role = #train.role<forward>} : tensor<4x2xf32>
          %1 = train.matmul %arg0, %0 {train.role = #train.role<forward>} : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
          %2 = train.mean %1 {train.role = #train.role<forward>} : (tensor<?x2xf32>) -> tensor<f32>
          %3 = train.fill 1.000000e+00 {train.role = #train.role<backward>} : tensor<f32>
          %4 = train.mean_grad %1, %3 {train.role = #train.role<backward>} : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
          %da, %db = train.matmul_grad %arg0, %0, %4 {train.role = #train.role<backward>} : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<4x2xf32>)
          %5 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w, %db, %5 {train.role = #train.role<optimize>} : tensor<4x2xf32>, tensor<f32>
          train.yield %2 : tensor<f32>
        }
      }
    }
    ```

    After:

    ```mlir
    module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
      train.program @linear {
        train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
        train.param @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        train.step @step(%arg0: tensor<?x4xf32>) -> tensor<f32> {
          %0 = train.read @w {train.role = #train.role<forward>} : tensor<4x2xf32>
          %1 = train.matmul %arg0, %0 {train.role = #train.role<forward>} : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
          %2 = train.mean %1 {train.role = #train.role<forward>} : (tensor<?x2xf32>) -> tensor<f32>
          %3 = train.fill 1.000000e+00 {train.role = #train.role<backward>} : tensor<f32>
          %4 = train.mean_grad %1, %3 {train.role = #train.role<backward>} : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
          %da, %db = train.matmul_grad %arg0, %0, %4 {train.role = #train.role<backward>} : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<4x2xf32>)
          %5 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w, %db, %5 {train.role = #train.role<optimize>} : tensor<4x2xf32>, tensor<f32>
          train.yield %2 : tensor<f32>
        }
      }
    }
    ```
  }];
  let options = [
    ListOption<"pservers", "pservers", "std::string",
               "Server endpoints, host:port, in server order">,
    Option<"trainers", "trainers", "int64_t", "1", "Number of trainers">,
    Option<"mode", "mode", "::openks::ps::Mode", "::openks::ps::Mode::Sync",
           "Synchronisation mode",
           [{::llvm::cl::values(
             clEnumValN(::openks::ps::Mode::Sync, "sync",
                        "barriers every step; servers average"),
             clEnumValN(::openks::ps::Mode::Async, "async",
                        "no barriers; servers apply on arrival"),
             clEnumValN(::openks::ps::Mode::HalfAsync, "half-async",
                        "trainer barriers; servers apply on arrival"),
             clEnumValN(::openks::ps::Mode::Geo, "geo",
                        "local training; deltas pushed every k steps"))}]>,
    Option<"sliceVarUp", "slice-var-up", "bool", "true",
           "Split variables into row blocks across servers">,
    Option<"splitMethod", "split-method", "::openks::ps::SplitMethod",
           "::openks::ps::SplitMethod::RoundRobin", "Block placement",
           [{::llvm::cl::values(
             clEnumValN(::openks::ps::SplitMethod::RoundRobin, "round-robin",
                        "one cursor over the servers"),
             clEnumValN(::openks::ps::SplitMethod::HashName, "hash-name",
                        "stable hash of the block name"))}]>,
    Option<"minBlockSize", "min-block-size", "int64_t", "8192",
           "Minimum elements per block">,
    Option<"geoPushSteps", "geo-push-steps", "int64_t", "100",
           "Local steps between GEO pushes">
  ];
  let dependentDialects = ["::openks::ps::PSDialect"];
}

def SliceVariablesPass : Pass<"openks-slice-variables", "::mlir::ModuleOp"> {
  let summary = "Splits each optimized parameter into row blocks.";
  let description = [{
    For every parameter that an optimizer op updates, in the optimizer ops'
    (parameter-name) order, computes Paddle's `slice_variable` blocks: as
    many as fit `min_block_size` elements, at most one per server (one when
    `slice_var_up` is off), each whole rows. Records the rows per block as
    the parameter's `ps.slices` attribute. Requires `ps.job`
    (`openks-configure-job`).

    Example: the linear model after `openks-configure-job`; the 8 elements
    of `@w` make two blocks of 2 rows, one per server:

    Run with: `openks-opt --openks-slice-variables`

    Before:

    ```mlir
    module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
      train.program @linear {
        train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
        train.param @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        train.step @step(%arg0: tensor<?x4xf32>) -> tensor<f32> {
          %0 = train.read @w {train.role = #train.role<forward>} : tensor<4x2xf32>
          %1 = train.matmul %arg0, %0 {train.role = #train.role<forward>} : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
          %2 = train.mean %1 {train.role = #train.role<forward>} : (tensor<?x2xf32>) -> tensor<f32>
          %3 = train.fill 1.000000e+00 {train.role = #train.role<backward>} : tensor<f32>
          %4 = train.mean_grad %1, %3 {train.role = #train.role<backward>} : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
          %da, %db = train.matmul_grad %arg0, %0, %4 {train.role = #train.role<backward>} : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<4x2xf32>)
          %5 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w, %db, %5 {train.role = #train.role<optimize>} : tensor<4x2xf32>, tensor<f32>
          train.yield %2 : tensor<f32>
        }
      }
    }
    ```

    After:

    ```mlir
    module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
      train.program @linear {
        train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1> {ps.slices = array<i64: 2, 2>}
        train.param @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        train.step @step(%arg0: tensor<?x4xf32>) -> tensor<f32> {
          %0 = train.read @w {train.role = #train.role<forward>} : tensor<4x2xf32>
          %1 = train.matmul %arg0, %0 {train.role = #train.role<forward>} : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
          %2 = train.mean %1 {train.role = #train.role<forward>} : (tensor<?x2xf32>) -> tensor<f32>
          %3 = train.fill 1.000000e+00 {train.role = #train.role<backward>} : tensor<f32>
          %4 = train.mean_grad %1, %3 {train.role = #train.role<backward>} : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
          %da, %db = train.matmul_grad %arg0, %0, %4 {train.role = #train.role<backward>} : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<4x2xf32>)
          %5 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w, %db, %5 {train.role = #train.role<optimize>} : tensor<4x2xf32>, tensor<f32>
          train.yield %2 : tensor<f32>
        }
      }
    }
    ```
  }];
  let dependentDialects = ["::openks::ps::PSDialect"];
}

def DispatchPass : Pass<"openks-dispatch", "::mlir::ModuleOp"> {
  let summary = "Places every parameter block on a server.";
  let description = [{
    Assigns each block of each sliced parameter (`ps.slices`), in
    optimizer-op order, to a server endpoint with the job's split method,
    and records them as `ps.placement`. RoundRobin keeps one cursor across
    all parameters, so the blocks of one parameter land on distinct servers
    and the load rotates. HashName hashes the block name (`<param>` or
    `<param>.block<i>`) with 64-bit FNV-1a, the same in every process, and
    moves to the next server rather than put two blocks of one parameter
    together. Requires `ps.job` and `ps.slices`.

    Example: the linear model after `openks-slice-variables`; round-robin
    puts the first block on the first server and the second on the second:

    Run with: `openks-opt --openks-dispatch`

    Before:

    ```mlir
    module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
      train.program @linear {
        train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1> {ps.slices = array<i64: 2, 2>}
        train.param @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        train.step @step(%arg0: tensor<?x4xf32>) -> tensor<f32> {
          %0 = train.read @w {train.role = #train.role<forward>} : tensor<4x2xf32>
          %1 = train.matmul %arg0, %0 {train.role = #train.role<forward>} : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
          %2 = train.mean %1 {train.role = #train.role<forward>} : (tensor<?x2xf32>) -> tensor<f32>
          %3 = train.fill 1.000000e+00 {train.role = #train.role<backward>} : tensor<f32>
          %4 = train.mean_grad %1, %3 {train.role = #train.role<backward>} : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
          %da, %db = train.matmul_grad %arg0, %0, %4 {train.role = #train.role<backward>} : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<4x2xf32>)
          %5 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w, %db, %5 {train.role = #train.role<optimize>} : tensor<4x2xf32>, tensor<f32>
          train.yield %2 : tensor<f32>
        }
      }
    }
    ```

    After:

    ```mlir
    module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
      train.program @linear {
        train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1> {ps.placement = array<i64: 0, 1>, ps.slices = array<i64: 2, 2>}
        train.param @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        train.step @step(%arg0: tensor<?x4xf32>) -> tensor<f32> {
          %0 = train.read @w {train.role = #train.role<forward>} : tensor<4x2xf32>
          %1 = train.matmul %arg0, %0 {train.role = #train.role<forward>} : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
          %2 = train.mean %1 {train.role = #train.role<forward>} : (tensor<?x2xf32>) -> tensor<f32>
          %3 = train.fill 1.000000e+00 {train.role = #train.role<backward>} : tensor<f32>
          %4 = train.mean_grad %1, %3 {train.role = #train.role<backward>} : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
          %da, %db = train.matmul_grad %arg0, %0, %4 {train.role = #train.role<backward>} : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<4x2xf32>)
          %5 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w, %db, %5 {train.role = #train.role<optimize>} : tensor<4x2xf32>, tensor<f32>
          train.yield %2 : tensor<f32>
        }
      }
    }
    ```
  }];
  let dependentDialects = ["::openks::ps::PSDialect"];
}

def BuildServersPass : Pass<"openks-build-servers", "::mlir::ModuleOp"> {
  let summary = "Builds the program of every parameter server.";
  let description = [{
    Adds one `ps.server` per job endpoint (`@ps0`, `@ps1`, ... in endpoint
    order), with `fan_in` = trainers and the job's mode. For every block
    placed on a server (`ps.placement`) it declares a `ps.block` (a row
    slice `of` the parameter when the parameter has several blocks, with the
    parameter's initializer so a server initialises exactly its rows), the
    optimizer's element-wise state sliced the same way and its rank-0 state
    and learning rate whole, all under their worker names, and one
    `ps.update` region:

    * sync: the region receives the sum of the trainers' gradients
      `<block>@GRAD`, scales it by 1/trainers, clips it by the global norm
      of the step's averaged gradients if the program clips by one (a
      `ps.clip_by_global_norm` by the `ps.norm @"@GLOBAL_NORM@"` that every
      server holding such a block declares), then runs a copy of the
      parameter's optimize-role ops (learning-rate read, weight decay, the
      optimizer op) on the block;
    * async and half-async: the same on each trainer's gradient as it
      arrives, without the scaling;
    * geo: the region receives a trainer's delta `<block>.delta` and adds it
      to the block; the optimizer stays on the trainers.

    A learning-rate schedule is copied into each block's region with a step
    counter of the block's own, `<counter>.<block>`: one update per step in
    sync mode, one per trainer and step otherwise, which is the count
    Paddle's global (or summed per-trainer) counter keeps.

    A parameter's own clipping, regularization and learning-rate scale are
    optimize-role ops, so they run in its regions like the optimizer, on
    the block. Requires `ps.job`, `ps.slices` and `ps.placement`.
    Optimize-role ops must be element-wise, so that a block's update is
    the same rows of the whole parameter's; a clip by norm
    (`train.clip_by_norm`) is not. In sync mode the blocks' servers of a
    parameter clipped by its norm and split into several blocks share the
    norm, `ps.norm @"<param>@NORM"`; in async and half-async mode, where a
    server applies each trainer's block on arrival, such a parameter is
    refused with an error naming it (in GEO mode the optimizer stays on
    the trainers).

    Example: the linear model after `openks-dispatch`, in sync mode with two
    trainers:

    Run with: `openks-opt --openks-build-servers`

    Before:

    ```mlir
    module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
      train.program @linear {
        train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1> {ps.placement = array<i64: 0, 1>, ps.slices = array<i64: 2, 2>}
        train.param @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        train.step @step(%arg0: tensor<?x4xf32>) -> tensor<f32> {
          %0 = train.read @w {train.role = #train.role<forward>} : tensor<4x2xf32>
          %1 = train.matmul %arg0, %0 {train.role = #train.role<forward>} : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
          %2 = train.mean %1 {train.role = #train.role<forward>} : (tensor<?x2xf32>) -> tensor<f32>
          %3 = train.fill 1.000000e+00 {train.role = #train.role<backward>} : tensor<f32>
          %4 = train.mean_grad %1, %3 {train.role = #train.role<backward>} : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
          %da, %db = train.matmul_grad %arg0, %0, %4 {train.role = #train.role<backward>} : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<4x2xf32>)
          %5 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w, %db, %5 {train.role = #train.role<optimize>} : tensor<4x2xf32>, tensor<f32>
          train.yield %2 : tensor<f32>
        }
      }
    }
    ```

    After:

    ```mlir
    module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
      train.program @linear {
        train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1> {ps.placement = array<i64: 0, 1>, ps.slices = array<i64: 2, 2>}
        train.param @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        train.step @step(%arg0: tensor<?x4xf32>) -> tensor<f32> {
          %0 = train.read @w {train.role = #train.role<forward>} : tensor<4x2xf32>
          %1 = train.matmul %arg0, %0 {train.role = #train.role<forward>} : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
          %2 = train.mean %1 {train.role = #train.role<forward>} : (tensor<?x2xf32>) -> tensor<f32>
          %3 = train.fill 1.000000e+00 {train.role = #train.role<backward>} : tensor<f32>
          %4 = train.mean_grad %1, %3 {train.role = #train.role<backward>} : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
          %da, %db = train.matmul_grad %arg0, %0, %4 {train.role = #train.role<backward>} : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<4x2xf32>)
          %5 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w, %db, %5 {train.role = #train.role<optimize>} : tensor<4x2xf32>, tensor<f32>
          train.yield %2 : tensor<f32>
        }
      }
      ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
        ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
        ps.block @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        ps.update @w.block0 on grad (%arg0: tensor<2x2xf32>) {
          %0 = train.scale %arg0 by 5.000000e-01 {train.role = #train.role<optimize>} : tensor<2x2xf32>
          %1 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w.block0, %0, %1 {train.role = #train.role<optimize>} : tensor<2x2xf32>, tensor<f32>
        }
      }
      ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
        ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
        ps.block @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        ps.update @w.block1 on grad (%arg0: tensor<2x2xf32>) {
          %0 = train.scale %arg0 by 5.000000e-01 {train.role = #train.role<optimize>} : tensor<2x2xf32>
          %1 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w.block1, %0, %1 {train.role = #train.role<optimize>} : tensor<2x2xf32>, tensor<f32>
        }
      }
    }
    ```
  }];
  let dependentDialects = ["::openks::ps::PSDialect",
                           "::openks::train::TrainDialect"];
}

def InsertSendRecvPass : Pass<"openks-insert-send-recv", "::mlir::ModuleOp"> {
  let summary = "Turns the training program into the worker program.";
  let description = [{
    Rewrites every optimized `train.program` into a `ps.worker` that trades
    gradients for parameters with the servers, as Paddle's trainer program:

    * right after the op that produces a parameter's gradient, a `ps.split`
      into the parameter's row blocks (when it has several) and one
      `ps.send` per block to its server as `<block>@GRAD`;
    * at the end of the step, in sync and half-async mode a
      `ps.send_barrier` to every server, in sync mode a `ps.reduce_norm` of
      every norm the servers share (`ps.norm`), then a `ps.recv` of every
      block, in sync mode a `ps.fetch_barrier`, then per parameter a
      `ps.concat` of its blocks and a `train.write`; async mode has no
      barriers;
    * in sync mode the gradients are sent before a global-norm clip, which
      the servers run on the averaged gradients; in the other modes after
      it;
    * the optimize-role ops and the optimizer state move to the servers:
      the worker keeps no optimizer;
    * a `train.step @startup` that pulls every block's initial value from
      its server (recv, fetch_barrier, concat, write), so trainers need not
      share seeds.

    In geo mode the worker keeps its optimizer and trains locally; a
    `train.step @geo_push`, which the runtime runs every `geo_push_steps`
    steps, sends each block's delta `(local - old) / trainers` as
    `<block>.delta`, receives the server's block, and sets
    `local = server + (local - old) * (1 - 1 / trainers)` and
    `old = server`, `old` being a frozen `<param>.geo_old` copy that the
    startup step also fills. This is Paddle's `old += delta;
    local += server - old`: the part of its change a trainer has not sent
    yet stays on top of the server's value.

    Requires `ps.job`, `ps.slices` and `ps.placement`.

    Example: the linear model after `openks-build-servers`:

    Run with: `openks-opt --openks-insert-send-recv`

    Before:

    ```mlir
    module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
      train.program @linear {
        train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1> {ps.placement = array<i64: 0, 1>, ps.slices = array<i64: 2, 2>}
        train.param @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        train.step @step(%arg0: tensor<?x4xf32>) -> tensor<f32> {
          %0 = train.read @w {train.role = #train.role<forward>} : tensor<4x2xf32>
          %1 = train.matmul %arg0, %0 {train.role = #train.role<forward>} : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
          %2 = train.mean %1 {train.role = #train.role<forward>} : (tensor<?x2xf32>) -> tensor<f32>
          %3 = train.fill 1.000000e+00 {train.role = #train.role<backward>} : tensor<f32>
          %4 = train.mean_grad %1, %3 {train.role = #train.role<backward>} : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
          %da, %db = train.matmul_grad %arg0, %0, %4 {train.role = #train.role<backward>} : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<4x2xf32>)
          %5 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w, %db, %5 {train.role = #train.role<optimize>} : tensor<4x2xf32>, tensor<f32>
          train.yield %2 : tensor<f32>
        }
      }
      ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
        ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
        ps.block @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        ps.update @w.block0 on grad (%arg0: tensor<2x2xf32>) {
          %0 = train.scale %arg0 by 5.000000e-01 {train.role = #train.role<optimize>} : tensor<2x2xf32>
          %1 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w.block0, %0, %1 {train.role = #train.role<optimize>} : tensor<2x2xf32>, tensor<f32>
        }
      }
      ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
        ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
        ps.block @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        ps.update @w.block1 on grad (%arg0: tensor<2x2xf32>) {
          %0 = train.scale %arg0 by 5.000000e-01 {train.role = #train.role<optimize>} : tensor<2x2xf32>
          %1 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w.block1, %0, %1 {train.role = #train.role<optimize>} : tensor<2x2xf32>, tensor<f32>
        }
      }
    }
    ```

    After:

    ```mlir
    module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
      ps.worker @linear main @step startup @startup {
        train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
        train.step @step(%arg0: tensor<?x4xf32>) -> tensor<f32> {
          %0 = train.read @w {train.role = #train.role<forward>} : tensor<4x2xf32>
          %1 = train.matmul %arg0, %0 {train.role = #train.role<forward>} : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
          %2 = train.mean %1 {train.role = #train.role<forward>} : (tensor<?x2xf32>) -> tensor<f32>
          %3 = train.fill 1.000000e+00 {train.role = #train.role<backward>} : tensor<f32>
          %4 = train.mean_grad %1, %3 {train.role = #train.role<backward>} : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
          %da, %db = train.matmul_grad %arg0, %0, %4 {train.role = #train.role<backward>} : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<4x2xf32>)
          %5:2 = ps.split %db rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
          ps.send grad %5#0 to @ps0::@w.block0 : tensor<2x2xf32>
          ps.send grad %5#1 to @ps1::@w.block1 : tensor<2x2xf32>
          ps.send_barrier [@ps0, @ps1]
          %6 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
          %7 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
          ps.fetch_barrier [@ps0, @ps1]
          %8 = ps.concat %6, %7 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
          train.write %8 to @w : tensor<4x2xf32>
          train.yield %2 : tensor<f32>
        }
        train.step @startup() {
          %0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
          %1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
          ps.fetch_barrier [@ps0, @ps1]
          %2 = ps.concat %0, %1 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
          train.write %2 to @w : tensor<4x2xf32>
          train.yield
        }
      }
      ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
        ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
        ps.block @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        ps.update @w.block0 on grad (%arg0: tensor<2x2xf32>) {
          %0 = train.scale %arg0 by 5.000000e-01 {train.role = #train.role<optimize>} : tensor<2x2xf32>
          %1 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w.block0, %0, %1 {train.role = #train.role<optimize>} : tensor<2x2xf32>, tensor<f32>
        }
      }
      ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
        ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
        ps.block @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        ps.update @w.block1 on grad (%arg0: tensor<2x2xf32>) {
          %0 = train.scale %arg0 by 5.000000e-01 {train.role = #train.role<optimize>} : tensor<2x2xf32>
          %1 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w.block1, %0, %1 {train.role = #train.role<optimize>} : tensor<2x2xf32>, tensor<f32>
        }
      }
    }
    ```
  }];
  let dependentDialects = ["::openks::ps::PSDialect",
                           "::openks::train::TrainDialect"];
}

def PSReportPass : Pass<"openks-ps-report", "::mlir::ModuleOp"> {
  let summary = "Prints how parameters are spread over the servers.";
  let description = [{
    For every `ps.server`: its endpoint, its number of blocks and the bytes
    they hold (parameters and optimizer state), then the imbalance: the
    largest server's bytes over the mean. With `list-blocks`, then one line
    per block under Paddle's names: its rows of the parameter it was cut
    from, its bytes, and the message its update region runs on
    (`<block>@GRAD`, or `<block>.delta` in GEO mode), or `frozen`. Printed
    to standard error, as upstream reports such as `--print-op-stats` are,
    or to the file `output-file` names; the IR is unchanged, and the
    output of a tool running the pass stays IR that the next tool reads.

    Example: the linear model after `openks-insert-send-recv`, with
    `list-blocks`; After is the report on standard error:

    Run with: `openks-opt --openks-ps-report=list-blocks=true`

    Before:

    ```mlir
    module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
      ps.worker @linear main @step startup @startup {
        train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
        train.step @step(%arg0: tensor<?x4xf32>) -> tensor<f32> {
          %0 = train.read @w {train.role = #train.role<forward>} : tensor<4x2xf32>
          %1 = train.matmul %arg0, %0 {train.role = #train.role<forward>} : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
          %2 = train.mean %1 {train.role = #train.role<forward>} : (tensor<?x2xf32>) -> tensor<f32>
          %3 = train.fill 1.000000e+00 {train.role = #train.role<backward>} : tensor<f32>
          %4 = train.mean_grad %1, %3 {train.role = #train.role<backward>} : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
          %da, %db = train.matmul_grad %arg0, %0, %4 {train.role = #train.role<backward>} : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<4x2xf32>)
          %5:2 = ps.split %db rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
          ps.send grad %5#0 to @ps0::@w.block0 : tensor<2x2xf32>
          ps.send grad %5#1 to @ps1::@w.block1 : tensor<2x2xf32>
          ps.send_barrier [@ps0, @ps1]
          %6 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
          %7 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
          ps.fetch_barrier [@ps0, @ps1]
          %8 = ps.concat %6, %7 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
          train.write %8 to @w : tensor<4x2xf32>
          train.yield %2 : tensor<f32>
        }
        train.step @startup() {
          %0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
          %1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
          ps.fetch_barrier [@ps0, @ps1]
          %2 = ps.concat %0, %1 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
          train.write %2 to @w : tensor<4x2xf32>
          train.yield
        }
      }
      ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
        ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
        ps.block @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        ps.update @w.block0 on grad (%arg0: tensor<2x2xf32>) {
          %0 = train.scale %arg0 by 5.000000e-01 {train.role = #train.role<optimize>} : tensor<2x2xf32>
          %1 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w.block0, %0, %1 {train.role = #train.role<optimize>} : tensor<2x2xf32>, tensor<f32>
        }
      }
      ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
        ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
        ps.block @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
        ps.update @w.block1 on grad (%arg0: tensor<2x2xf32>) {
          %0 = train.scale %arg0 by 5.000000e-01 {train.role = #train.role<optimize>} : tensor<2x2xf32>
          %1 = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
          train.sgd @w.block1, %0, %1 {train.role = #train.role<optimize>} : tensor<2x2xf32>, tensor<f32>
        }
      }
    }
    ```

    After:

    ```text
    server  endpoint  blocks  bytes
    @ps0  127.0.0.1:6170  2  20
    @ps1  127.0.0.1:6171  2  20
    imbalance (max / mean): 1.000
      @ps0  w.block0  rows [0, 2) of w  16 bytes  on w.block0@GRAD
      @ps0  learning_rate  4 bytes  frozen
      @ps1  w.block1  rows [2, 4) of w  16 bytes  on w.block1@GRAD
      @ps1  learning_rate  4 bytes  frozen
    ```
  }];
  let options = [
    Option<"listBlocks", "list-blocks", "bool", "false",
           "Also print every block with its rows, bytes and message">,
    Option<"outputFile", "output-file", "std::string", "\"\"",
           "Write the report to this file instead of standard error">
  ];
}

#endif // OPENKS_TRANSFORMS_PASSES_TD
