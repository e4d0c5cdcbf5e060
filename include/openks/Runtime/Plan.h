//===- Plan.h - Execution plans of training steps ---------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// A plan is what the executor runs: the parameters (state that persists
// across steps), one preallocated buffer per intermediate value, and a flat
// list of kernel calls over those buffers. It is built once from the IR
// (see PlanBuilder.h); running a step walks the list and does not allocate in
// steady state.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_PLAN_H
#define OPENKS_RUNTIME_PLAN_H

#include "openks/Runtime/DataSource.h"
#include "openks/Runtime/Initializers.h"
#include "openks/Runtime/Tensor.h"
#include "openks/Support/Status.h"

#include <deque>
#include <functional>
#include <string>
#include <vector>

namespace openks::runtime {

/// A named parameter and how it starts.
struct Parameter {
  std::string name;
  InitializerSpec initializer;
  /// The whole parameter's shape; `value` holds rows [rowBegin, ...) of it.
  Shape wholeShape;
  int64_t rowBegin = 0;
  bool trainable = true;
  Tensor value;
};

/// One kernel call: runs a kernel over buffers the plan owns.
struct Instruction {
  std::function<Status()> run;
  /// The op's name and source location, put in front of its errors.
  std::string where;
};

/// A step compiled for execution.
class Plan {
public:
  Plan() = default;
  Plan(Plan &&) = default;
  Plan &operator=(Plan &&) = default;

  /// Creates a parameter and returns its tensor.
  Tensor &addParameter(Parameter parameter);
  /// Creates a value buffer of `dtype` with room for `capacity` elements.
  Tensor &addValue(DType dtype, int64_t capacity);
  /// Appends a kernel call.
  void addInstruction(std::function<Status()> run, std::string where);

  /// Declares buffer `input` as the step's next fed argument.
  void addInput(Tensor &input, FeedSpec spec);
  /// Declares buffer `output` as the step's next fetched result.
  void addOutput(const Tensor &output, std::string name);

  /// Runs every parameter's initializer (the startup program).
  Status initializeParameters();
  /// Runs the step once on the current contents of the input buffers.
  Status run();

  std::deque<Parameter> &parameters() { return parameters_; }
  const std::vector<Tensor *> &inputs() const { return inputs_; }
  const std::vector<FeedSpec> &inputSpecs() const { return inputSpecs_; }
  const std::vector<const Tensor *> &outputs() const { return outputs_; }
  const std::vector<std::string> &outputNames() const { return outputNames_; }

private:
  // Deques keep element addresses stable as the plan grows: kernels capture
  // pointers into them.
  std::deque<Parameter> parameters_;
  std::deque<Tensor> values_;
  std::vector<Instruction> instructions_;
  std::vector<Tensor *> inputs_;
  std::vector<FeedSpec> inputSpecs_;
  std::vector<const Tensor *> outputs_;
  std::vector<std::string> outputNames_;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_PLAN_H
