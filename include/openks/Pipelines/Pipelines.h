//===- Pipelines.h - OpenKS pass pipelines ----------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The openks-minimize and openks-transpile pipelines with typed options, for
// the command line and for C++ callers such as the Fleet API.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_PIPELINES_PIPELINES_H
#define OPENKS_PIPELINES_PIPELINES_H

#include "openks/Transforms/Passes.h"

#include "mlir/Pass/PassOptions.h"

#include <cstdint>
#include <string>

namespace openks {

/// Options of openks-minimize. These are the options of
/// openks-append-optimizer and must be kept in sync with `AppendOptimizerPass`
/// in Passes.td; test/Unit/Pipelines/PipelinesTest.cpp and
/// test/Pipelines/pipeline-options.test fail when they are not.
struct MinimizeOptions : public mlir::PassPipelineOptions<MinimizeOptions> {
  Option<OptimizerKind> optimizer{
      *this, "optimizer", llvm::cl::desc("The update rule"),
      llvm::cl::init(OptimizerKind::SGD),
      llvm::cl::values(
          clEnumValN(OptimizerKind::SGD, "sgd", "plain SGD"),
          clEnumValN(OptimizerKind::Momentum, "momentum", "SGD with momentum"),
          clEnumValN(OptimizerKind::Adam, "adam", "Adam"),
          clEnumValN(OptimizerKind::Adagrad, "adagrad", "Adagrad"),
          clEnumValN(OptimizerKind::RMSProp, "rmsprop", "RMSProp"),
          clEnumValN(OptimizerKind::DecayedAdagrad, "decayed-adagrad",
                     "Adagrad with a decaying average"),
          clEnumValN(OptimizerKind::Ftrl, "ftrl", "FTRL"),
          clEnumValN(OptimizerKind::Adamax, "adamax", "Adamax"))};
  Option<double> learningRate{
      *this, "lr",
      llvm::cl::desc("Learning rate (the initial one with a schedule)"),
      llvm::cl::init(0.01)};
  Option<double> momentum{*this, "momentum",
                          llvm::cl::desc("Momentum coefficient mu (momentum)"),
                          llvm::cl::init(0.9)};
  Option<bool> nesterov{*this, "nesterov",
                        llvm::cl::desc("Use Nesterov momentum (momentum)"),
                        llvm::cl::init(false)};
  Option<double> beta1{*this, "beta1",
                       llvm::cl::desc("First-moment decay (adam, adamax)"),
                       llvm::cl::init(0.9)};
  Option<double> beta2{*this, "beta2",
                       llvm::cl::desc("Second-moment decay (adam, adamax)"),
                       llvm::cl::init(0.999)};
  Option<double> epsilon{
      *this, "epsilon",
      llvm::cl::desc("Denominator guard; 0 picks the optimizer's default, "
                     "1e-8 for adam and adamax, 1e-6 for adagrad, rmsprop and "
                     "decayed-adagrad"),
      llvm::cl::init(0)};
  Option<double> rho{*this, "rho",
                     llvm::cl::desc("Decay of the squared-gradient average "
                                    "(rmsprop, decayed-adagrad)"),
                     llvm::cl::init(0.95)};
  Option<double> rmspropMomentum{
      *this, "rmsprop-momentum",
      llvm::cl::desc("Momentum of the update (rmsprop)"), llvm::cl::init(0)};
  Option<bool> centered{*this, "centered",
                        llvm::cl::desc("Divide by the gradient's variance, "
                                       "not its mean square (rmsprop)"),
                        llvm::cl::init(false)};
  Option<double> ftrlL1{*this, "ftrl-l1", llvm::cl::desc("L1 strength (ftrl)"),
                        llvm::cl::init(0)};
  Option<double> ftrlL2{*this, "ftrl-l2", llvm::cl::desc("L2 strength (ftrl)"),
                        llvm::cl::init(0)};
  Option<double> lrPower{
      *this, "lr-power",
      llvm::cl::desc("Learning-rate power, at most 0 (ftrl)"),
      llvm::cl::init(-0.5)};
  Option<double> weightDecay{
      *this, "weight-decay",
      llvm::cl::desc("L2 regularisation coefficient (0: none)"),
      llvm::cl::init(0)};
  Option<double> clipGlobalNorm{
      *this, "clip-global-norm",
      llvm::cl::desc(
          "Clip all gradients to this global L2 norm (0: no clipping)"),
      llvm::cl::init(0)};
  Option<LRSchedule> lrSchedule{
      *this, "lr-schedule", llvm::cl::desc("Learning-rate schedule"),
      llvm::cl::init(LRSchedule::Constant),
      llvm::cl::values(
          clEnumValN(LRSchedule::Constant, "constant", "a fixed rate"),
          clEnumValN(LRSchedule::Exponential, "exponential",
                     "lr * decay-rate ^ (step / decay-steps)"),
          clEnumValN(LRSchedule::Piecewise, "piecewise",
                     "values[i] after boundaries[i - 1]"))};
  Option<double> decayRate{*this, "decay-rate",
                           llvm::cl::desc("Decay factor (exponential)"),
                           llvm::cl::init(0.5)};
  Option<int64_t> decaySteps{*this, "decay-steps",
                             llvm::cl::desc("Steps per decay (exponential)"),
                             llvm::cl::init(1000)};
  Option<bool> staircase{
      *this, "staircase",
      llvm::cl::desc("Decay in whole steps of decay-steps (exponential)"),
      llvm::cl::init(false)};
  ListOption<int64_t> boundaries{
      *this, "boundaries",
      llvm::cl::desc("Steps at which the rate changes (piecewise)")};
  ListOption<double> values{
      *this, "values",
      llvm::cl::desc(
          "Rates before, between and after the boundaries (piecewise)")};

  /// Returns the options for `createAppendOptimizerPass`.
  AppendOptimizerPassOptions appendOptimizerOptions() const;
};

/// Options of openks-transpile. These are the options of openks-configure-job
/// and must be kept in sync with `ConfigureJobPass` in Passes.td; the same
/// tests fail when they are not.
struct TranspileOptions : public mlir::PassPipelineOptions<TranspileOptions> {
  ListOption<std::string> pservers{
      *this, "pservers",
      llvm::cl::desc("Server endpoints, host:port, in server order")};
  Option<int64_t> trainers{*this, "trainers",
                           llvm::cl::desc("Number of trainers"),
                           llvm::cl::init(1)};
  Option<ps::Mode> mode{
      *this, "mode", llvm::cl::desc("Synchronisation mode"),
      llvm::cl::init(ps::Mode::Sync),
      llvm::cl::values(
          clEnumValN(ps::Mode::Sync, "sync",
                     "barriers every step; servers average"),
          clEnumValN(ps::Mode::Async, "async",
                     "no barriers; servers apply on arrival"),
          clEnumValN(ps::Mode::HalfAsync, "half-async",
                     "trainer barriers; servers apply on arrival"),
          clEnumValN(ps::Mode::Geo, "geo",
                     "local training; deltas pushed every k steps"))};
  Option<bool> sliceVarUp{
      *this, "slice-var-up",
      llvm::cl::desc("Split variables into row blocks across servers"),
      llvm::cl::init(true)};
  Option<ps::SplitMethod> splitMethod{
      *this, "split-method", llvm::cl::desc("Block placement"),
      llvm::cl::init(ps::SplitMethod::RoundRobin),
      llvm::cl::values(clEnumValN(ps::SplitMethod::RoundRobin, "round-robin",
                                  "one cursor over the servers"),
                       clEnumValN(ps::SplitMethod::HashName, "hash-name",
                                  "stable hash of the block name"))};
  Option<int64_t> minBlockSize{*this, "min-block-size",
                               llvm::cl::desc("Minimum elements per block"),
                               llvm::cl::init(8192)};
  Option<int64_t> geoPushSteps{*this, "geo-push-steps",
                               llvm::cl::desc("Local steps between GEO pushes"),
                               llvm::cl::init(100)};

  /// Returns the options for `createConfigureJobPass`.
  ConfigureJobPassOptions configureJobOptions() const;
};

/// Adds openks-minimize to `pm`: openks-append-backward, then
/// openks-append-optimizer with `options`. This is what
/// DistributedOptimizer.minimize does before it transpiles.
void buildMinimizePipeline(mlir::OpPassManager &pm,
                           const MinimizeOptions &options);

/// Adds openks-transpile to `pm`: openks-configure-job with `options`, then
/// openks-slice-variables, openks-dispatch, openks-build-servers and
/// openks-insert-send-recv. This is Paddle's _transpile on a minimized
/// program.
void buildTranspilePipeline(mlir::OpPassManager &pm,
                            const TranspileOptions &options);

/// Registers openks-minimize and openks-transpile with the pass pipeline
/// registry, so that textual pipelines and the command line can name them.
void registerOpenKSPipelines();

} // namespace openks

#endif // OPENKS_PIPELINES_PIPELINES_H
