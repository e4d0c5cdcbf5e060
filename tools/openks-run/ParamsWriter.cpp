//===- ParamsWriter.cpp - Trained parameters as text ----------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Writes the trainable parameters of a store for --params-out, one line per
// parameter: "NAME<TAB>D0xD1...<TAB>v v v ..." with the values row-major
// and exact (shortest round-trip form), for evaluation scripts.
//
//===----------------------------------------------------------------------===//

#include "Runs.h"
#include "ToolFiles.h"

#include <fmt/format.h>

using namespace openks;
using namespace openks::run;
using namespace openks::runtime;

/// Appends the elements of `value` to `line`, blank-separated.
template <typename T>
static void appendValues(const Tensor &value, std::string &line) {
  const T *data = value.data<T>();
  for (int64_t i = 0; i < value.numel(); ++i)
    fmt::format_to(std::back_inserter(line), i ? " {}" : "{}", data[i]);
}

Status openks::run::writeParameters(const ParameterStore &store,
                                    const std::string &path) {
  StatusOr<tools::CheckedFile> file = tools::CheckedFile::create(path);
  if (!file)
    return file.status();
  for (ParameterId id = 0; id < store.size(); ++id) {
    const Parameter &parameter = store[id];
    if (!parameter.trainable)
      continue;
    const Tensor &value = parameter.value;
    std::vector<int64_t> dims;
    for (int i = 0; i < value.shape().rank(); ++i)
      dims.push_back(value.shape()[i]);
    std::string line =
        fmt::format("{}\t{}\t", parameter.name, fmt::join(dims, "x"));
    switch (value.dtype()) {
    case DType::F32:
      appendValues<float>(value, line);
      break;
    case DType::F64:
      appendValues<double>(value, line);
      break;
    case DType::I64:
      appendValues<int64_t>(value, line);
      break;
    }
    line += '\n';
    OPENKS_RETURN_IF_ERROR(file->write(line));
  }
  return file->close();
}
