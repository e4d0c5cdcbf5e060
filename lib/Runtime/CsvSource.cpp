//===- CsvSource.cpp - Dense rows from comma-separated files --------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parses "x1,x2,...,xD,label" lines into a table of D features and a label
// per row; with id-list columns, "x1,...,xD,list1,...,listL,label" lines,
// where a list is '|'-separated ids (empty for an empty list).
//
//===----------------------------------------------------------------------===//

#include "DataSourceImpl.h"

#include <algorithm>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::detail;

/// Appends the ids of the '|'-separated list `text` to `table`.
static Status parseIdList(std::string_view text, Table &table) {
  while (!text.empty()) {
    size_t bar = text.find('|');
    std::string_view token = trimSpace(text.substr(0, bar));
    int64_t id;
    if (!parseInteger(token, id).isOk() || id < 0)
      return Status::invalidArgument("id '{}' is not an integer in [0, 2^63)",
                                     token);
    table.listIds.push_back(id);
    if (bar == std::string_view::npos)
      break;
    text.remove_prefix(bar + 1);
    if (trimSpace(text).empty())
      return Status::invalidArgument("an id is missing after the last '|'");
  }
  return Status::ok();
}

Status openks::runtime::detail::readCsv(const std::string &path,
                                        const Layout &layout, Table &table) {
  int64_t width = layout.width;
  int64_t numLists = layout.numLists;
  return forEachDataLine(path, [&](std::string_view line) {
    int64_t fields = std::count(line.begin(), line.end(), ',') + 1;
    if (fields != width + numLists + 1)
      return numLists == 0
                 ? Status::invalidArgument(
                       "expected {} comma-separated numbers ({} features, "
                       "then the label), got {}",
                       width + 1, width, fields)
                 : Status::invalidArgument(
                       "expected {} comma-separated fields ({} features, "
                       "{} id list{}, then the label), got {}",
                       width + numLists + 1, width, numLists,
                       numLists == 1 ? "" : "s", fields);
    for (int64_t field = 1; field <= width; ++field) {
      size_t comma = line.find(',');
      double value;
      Status status = parseNumber(trimSpace(line.substr(0, comma)), value);
      if (!status.isOk())
        return status.withContext(fmt::format("feature {}", field));
      table.values.push_back(value);
      line.remove_prefix(comma + 1);
    }
    for (int64_t list = 1; list <= numLists; ++list) {
      size_t comma = line.find(',');
      Status status = parseIdList(trimSpace(line.substr(0, comma)), table);
      if (!status.isOk())
        return status.withContext(fmt::format("id list {}", list));
      table.listOffsets.push_back(static_cast<int64_t>(table.listIds.size()));
      line.remove_prefix(comma + 1);
    }
    int64_t label;
    OPENKS_RETURN_IF_ERROR(
        parseLabel(trimSpace(line), layout.classLabels, label));
    table.labels.push_back(label);
    return Status::ok();
  });
}
