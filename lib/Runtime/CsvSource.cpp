//===- CsvSource.cpp - Dense rows from comma-separated files --------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// Parses "x1,x2,...,xD,label" lines into a table of D features and a label
// per row.
//
//===----------------------------------------------------------------------===//

#include "DataSourceImpl.h"

#include <algorithm>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::detail;

Status openks::runtime::detail::readCsv(const std::string &path,
                                        const Layout &layout, Table &table) {
  int64_t width = layout.width;
  return forEachDataLine(path, [&](std::string_view line) {
    int64_t fields = std::count(line.begin(), line.end(), ',') + 1;
    if (fields != width + 1)
      return Status::invalidArgument(
          "expected {} comma-separated numbers ({} features, "
          "then the label), got {}",
          width + 1, width, fields);
    for (int64_t field = 1; field <= width; ++field) {
      size_t comma = line.find(',');
      double value;
      Status status = parseNumber(trimSpace(line.substr(0, comma)), value);
      if (!status.isOk())
        return status.withContext(fmt::format("feature {}", field));
      table.values.push_back(value);
      line.remove_prefix(comma + 1);
    }
    int64_t label;
    OPENKS_RETURN_IF_ERROR(
        parseLabel(trimSpace(line), layout.classLabels, label));
    table.labels.push_back(label);
    return Status::ok();
  });
}
