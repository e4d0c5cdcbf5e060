//===- PassOptions.cpp - Checks of the passes' option values --------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Transforms/PassOptions.h"

#include <fmt/format.h>

using namespace mlir;
using namespace openks;

std::string openks::option_checks::checkFloatOption(StringRef name,
                                                    double value,
                                                    FloatRange range) {
  const char *expected = nullptr;
  switch (range) {
  case FloatRange::Positive:
    if (std::isfinite(value) && value > 0)
      return "";
    expected = "a positive finite number";
    break;
  case FloatRange::NonNegative:
    if (std::isfinite(value) && value >= 0)
      return "";
    expected = "a finite number >= 0";
    break;
  case FloatRange::NonPositive:
    if (std::isfinite(value) && value <= 0)
      return "";
    expected = "a finite number <= 0";
    break;
  case FloatRange::UnitInterval:
    if (value >= 0 && value < 1)
      return "";
    expected = "in [0, 1)";
    break;
  }
  return fmt::format("option '{}' must be {}, got {}", name.str(), expected,
                     value);
}

LogicalResult openks::option_checks::parsePassOptions(
    StringRef pass, StringRef options,
    function_ref<LogicalResult(const Twine &)> errorHandler,
    function_ref<LogicalResult(function_ref<LogicalResult(const Twine &)>)>
        parse,
    function_ref<std::string()> check) {
  if (failed(parse([&](const Twine &message) {
        std::string text = message.str();
        if (text.empty())
          return errorHandler(pass + ": invalid options '" + options +
                              "' (see the message above)");
        return errorHandler(pass + ": " + text);
      })))
    return failure();
  if (std::string error = check(); !error.empty())
    return errorHandler(pass + ": " + error);
  return success();
}
