//===- Passes.td - OpenKS minimize and transpile passes ----*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler.
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

    ```
    server  endpoint  blocks  bytes
    @ps0  127.0.0.1:6170  5  413736
    @ps1  127.0.0.1:6171  3  401448
    imbalance (max / mean): 1.015
      @ps0  fc1.b  1024 bytes  on fc1.b@GRAD
      @ps0  fc1.w.block1  rows [392, 784) of fc1.w  401408 bytes  on fc1.w.block1@GRAD
      ...
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
