//===- PassOptions.h - Checks of the passes' option values ------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The rules option values of openks-append-optimizer and
// openks-configure-job must follow, in one place: the passes check them
// when their options are parsed (so a bad value is reported against the
// option, not against a line of the program) and when they run (for passes
// built from C++ option structs); the pipelines check the same.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TRANSFORMS_PASSOPTIONS_H
#define OPENKS_TRANSFORMS_PASSOPTIONS_H

#include "openks/Support/Endpoint.h"
#include "openks/Transforms/Passes.h"

#include <cmath>
#include <string>
#include <vector>

namespace openks {

namespace option_checks {
/// What a float option accepts, besides being finite.
enum class FloatRange { Positive, NonNegative, NonPositive, UnitInterval };

/// Returns "" when `value` is finite and in `range`, else a message naming
/// the option `name`.
std::string checkFloatOption(llvm::StringRef name, double value,
                             FloatRange range);

/// Parses `options` with `parse` (a pass's own Pass::initializeOptions),
/// then checks the result with `check`, reporting through `errorHandler`
/// under the name of `pass`. An option that llvm::cl rejects is reported by
/// cl itself; the handler is then told which pass and text it was.
llvm::LogicalResult parsePassOptions(
    llvm::StringRef pass, llvm::StringRef options,
    llvm::function_ref<llvm::LogicalResult(const llvm::Twine &)> errorHandler,
    llvm::function_ref<llvm::LogicalResult(
        llvm::function_ref<llvm::LogicalResult(const llvm::Twine &)>)>
        parse,
    llvm::function_ref<std::string()> check);
} // namespace option_checks

/// Returns "" when the optimizer options are valid, else a message naming
/// the first bad option: every float must be finite, lr and (for their
/// schedules) decay-rate and the piecewise values positive, momentum,
/// rmsprop-momentum, epsilon, ftrl-l1, ftrl-l2, weight-decay and
/// clip-global-norm non-negative, lr-power at most 0, beta1, beta2 and rho
/// in [0, 1), decay-steps at least 1, piecewise boundaries non-negative and
/// increasing with one more value than boundaries. `OptionsT` is the
/// generated pass, its AppendOptimizerPassOptions, or a pipeline's options:
/// anything with those members.
template <typename OptionsT>
std::string checkAppendOptimizerOptions(const OptionsT &options) {
  using option_checks::checkFloatOption;
  using option_checks::FloatRange;
  for (std::string error :
       {checkFloatOption("lr", options.learningRate, FloatRange::Positive),
        checkFloatOption("momentum", options.momentum, FloatRange::NonNegative),
        checkFloatOption("beta1", options.beta1, FloatRange::UnitInterval),
        checkFloatOption("beta2", options.beta2, FloatRange::UnitInterval),
        checkFloatOption("epsilon", options.epsilon, FloatRange::NonNegative),
        checkFloatOption("rho", options.rho, FloatRange::UnitInterval),
        checkFloatOption("rmsprop-momentum", options.rmspropMomentum,
                         FloatRange::NonNegative),
        checkFloatOption("ftrl-l1", options.ftrlL1, FloatRange::NonNegative),
        checkFloatOption("ftrl-l2", options.ftrlL2, FloatRange::NonNegative),
        checkFloatOption("lr-power", options.lrPower, FloatRange::NonPositive),
        checkFloatOption("weight-decay", options.weightDecay,
                         FloatRange::NonNegative),
        checkFloatOption("clip-global-norm", options.clipGlobalNorm,
                         FloatRange::NonNegative),
        checkFloatOption("decay-rate", options.decayRate,
                         FloatRange::Positive)})
    if (!error.empty())
      return error;
  if (options.lrSchedule == LRSchedule::Exponential && options.decaySteps < 1)
    return "option 'decay-steps' must be at least 1, got " +
           std::to_string(options.decaySteps);
  if (options.lrSchedule != LRSchedule::Piecewise)
    return "";
  const auto &values = options.values;
  const auto &boundaries = options.boundaries;
  if (values.size() != boundaries.size() + 1)
    return "a piecewise schedule needs one more value than boundaries, got " +
           std::to_string(values.size()) + " values for " +
           std::to_string(boundaries.size()) + " boundaries";
  for (double value : values)
    if (std::string error =
            checkFloatOption("values", value, FloatRange::Positive);
        !error.empty())
      return error;
  for (size_t i = 0; i < boundaries.size(); ++i)
    if (boundaries[i] < 0 || (i > 0 && boundaries[i] <= boundaries[i - 1]))
      return "option 'boundaries' must be non-negative steps that increase "
             "strictly";
  return "";
}

/// Returns "" when the job options are valid, else a message naming the
/// first bad option: at least one server, each a valid endpoint and none
/// twice in canonical form, at least one trainer, min-block-size and
/// geo-push-steps at least 1.
template <typename OptionsT>
std::string checkConfigureJobOptions(const OptionsT &options) {
  StatusOr<std::vector<std::string>> endpoints =
      canonicalEndpointList(std::vector<std::string>(options.pservers.begin(),
                                                     options.pservers.end()),
                            "option 'pservers'");
  if (!endpoints)
    return endpoints.status().message();
  if (options.trainers < 1)
    return "option 'trainers' must be at least 1, got " +
           std::to_string(options.trainers);
  if (options.minBlockSize < 1)
    return "option 'min-block-size' must be at least 1, got " +
           std::to_string(options.minBlockSize);
  if (options.geoPushSteps < 1)
    return "option 'geo-push-steps' must be at least 1, got " +
           std::to_string(options.geoPushSteps);
  return "";
}

} // namespace openks

#endif // OPENKS_TRANSFORMS_PASSOPTIONS_H
