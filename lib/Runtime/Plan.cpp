//===- Plan.cpp - Execution plans of training steps -----------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Plan.h"

using namespace openks;
using namespace openks::runtime;

Tensor &Plan::addParameter(Parameter parameter) {
  return parameters_.emplace_back(std::move(parameter)).value;
}

Tensor &Plan::addValue(DType dtype, int64_t capacity) {
  Tensor &value = values_.emplace_back(dtype, Shape{0});
  value.reserve(capacity);
  return value;
}

void Plan::addInstruction(std::function<Status()> run, std::string where) {
  instructions_.push_back({std::move(run), std::move(where)});
}

void Plan::addInput(Tensor &input, FeedSpec spec) {
  inputs_.push_back(&input);
  inputSpecs_.push_back(spec);
}

void Plan::addOutput(const Tensor &output, std::string name) {
  outputs_.push_back(&output);
  outputNames_.push_back(std::move(name));
}

Status Plan::initializeParameters() {
  for (Parameter &parameter : parameters_)
    OPENKS_RETURN_IF_ERROR(
        initialize(parameter.initializer, parameter.wholeShape,
                   parameter.rowBegin, parameter.value)
            .withContext("initializing parameter '" + parameter.name + "'"));
  return Status::ok();
}

Status Plan::run() {
  for (const Instruction &instruction : instructions_) {
    Status status = instruction.run();
    if (!status.isOk())
      return status.withContext(instruction.where);
  }
  return Status::ok();
}
