//===- DataFuzzer.cpp - Fuzz openks-run's data sources --------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The first byte picks a data source, a feed layout and a shard; the rest is
// the file's contents (csv, libsvm), the options of a synthetic spec, or for
// triples the options, a NUL and the file's contents. The source is opened,
// sharded, and asked for a few batches. Errors are
// expected; crashes, hangs and sanitizer reports are what the fuzzer looks
// for.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/DataSource.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>
#include <vector>

using namespace openks;
using namespace openks::runtime;

/// The feed layouts a step may have: csv-like (features, class or binary
/// label), libsvm-like (ids, optional values, label), csv with an id-list
/// column, and triples (with and without negatives).
static std::vector<FeedSpec> getLayout(unsigned choice) {
  switch (choice % 8) {
  case 0:
    return {{DType::F32, Shape{-1, 3}}, {DType::I64, Shape{-1}}};
  case 1:
    return {{DType::F64, Shape{-1, 2}}, {DType::F32, Shape{-1, 1}}};
  case 2:
    return {{DType::I64, Shape{-1, 4}},
            {DType::F32, Shape{-1, 4}},
            {DType::I64, Shape{-1}}};
  case 3:
    return {{DType::I64, Shape{-1, 2}}, {DType::F32, Shape{-1, 1}}};
  case 4:
    return {{DType::F32, Shape{4, 3}}, {DType::I64, Shape{4}}};
  case 5:
    return {{DType::F32, Shape{-1, 2}},
            {DType::I64, Shape{-1}},
            {DType::I64, Shape{-1}},
            {DType::I64, Shape{-1}}};
  case 6:
    return {{DType::I64, Shape{-1}},
            {DType::I64, Shape{-1}},
            {DType::I64, Shape{-1}}};
  default:
    return {{DType::I64, Shape{-1}},
            {DType::I64, Shape{-1}},
            {DType::I64, Shape{-1}},
            {DType::I64, Shape{-1, 2}},
            {DType::I64, Shape{-1, 2}}};
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  unsigned choice = data[0];
  std::string body(reinterpret_cast<const char *>(data) + 1, size - 1);
  static const std::string path =
      "/tmp/openks-fuzz-data-" + std::to_string(getpid());

  // Writes the file a file source reads.
  auto writeFile = [&](const std::string &contents) {
    std::FILE *file = std::fopen(path.c_str(), "wb");
    if (!file)
      return false;
    std::fwrite(contents.data(), 1, contents.size(), file);
    std::fclose(file);
    return true;
  };

  std::string spec;
  switch (choice % 4) {
  case 0:
  case 1:
    if (!writeFile(body))
      return 0;
    spec = (choice % 4 == 0 ? "csv:" : "libsvm:") + path;
    break;
  case 2: {
    size_t split = body.find('\0');
    std::string options =
        split == std::string::npos ? std::string() : body.substr(0, split);
    if (!writeFile(split == std::string::npos ? body : body.substr(split + 1)))
      return 0;
    spec = "triples:" + path + (options.empty() ? "" : "," + options);
    break;
  }
  default:
    spec = "synthetic:" + body;
    break;
  }

  std::vector<FeedSpec> layout = getLayout(choice / 4);
  std::vector<Tensor> buffers;
  for (const FeedSpec &feed : layout)
    buffers.emplace_back(feed.dtype, Shape{0});
  std::vector<Tensor *> feeds;
  for (Tensor &buffer : buffers)
    feeds.push_back(&buffer);

  Shard shard{static_cast<int>(choice / 32 % 2), 2};
  std::unique_ptr<DataSource> source;
  if (!openDataSource(spec, layout, shard, source).isOk())
    return 0;
  for (int64_t batch : {4, 8, 4})
    if (!source->next(batch, feeds).isOk())
      break;
  return 0;
}
