//===- DataFuzzer.cpp - Fuzz openks-run's data sources --------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// The first byte picks a data source and a feed layout; the rest is the
// file's contents (csv, libsvm) or the options of a synthetic spec. The
// source is opened, sharded, and asked for a few batches. Errors are
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
/// label) and libsvm-like (ids, optional values, label).
static std::vector<FeedSpec> getLayout(unsigned choice) {
  switch (choice % 5) {
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
  default:
    return {{DType::F32, Shape{4, 3}}, {DType::I64, Shape{4}}};
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  unsigned choice = data[0];
  std::string body(reinterpret_cast<const char *>(data) + 1, size - 1);
  static const std::string path =
      "/tmp/openks-fuzz-data-" + std::to_string(getpid());

  std::string spec;
  switch (choice % 3) {
  case 0:
  case 1: {
    std::FILE *file = std::fopen(path.c_str(), "wb");
    if (!file)
      return 0;
    std::fwrite(body.data(), 1, body.size(), file);
    std::fclose(file);
    spec = (choice % 3 == 0 ? "csv:" : "libsvm:") + path;
    break;
  }
  default:
    spec = "synthetic:" + body;
    break;
  }

  std::vector<FeedSpec> layout = getLayout(choice / 3);
  std::vector<Tensor> buffers;
  for (const FeedSpec &feed : layout)
    buffers.emplace_back(feed.dtype, Shape{0});
  std::vector<Tensor *> feeds;
  for (Tensor &buffer : buffers)
    feeds.push_back(&buffer);

  Shard shard{static_cast<int>(choice / 15 % 2), 2};
  std::unique_ptr<DataSource> source;
  if (!openDataSource(spec, layout, shard, source).isOk())
    return 0;
  for (int64_t batch : {4, 8, 4})
    if (!source->next(batch, feeds).isOk())
      break;
  return 0;
}
