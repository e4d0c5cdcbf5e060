//===- LibsvmSource.cpp - Sparse rows from libsvm files -------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parses "label id:value id:value ..." lines into a table of K ids (and
// values) per row, padded with id 0 and value 0, and a label per row.
//
//===----------------------------------------------------------------------===//

#include "DataSourceImpl.h"

#include <algorithm>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::detail;

/// Removes the next blank-separated token from the front of `text` and
/// returns it (empty at the end).
static std::string_view takeToken(std::string_view &text) {
  size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) {
    text = {};
    return {};
  }
  size_t end = std::min(text.find_first_of(" \t", begin), text.size());
  std::string_view token = text.substr(begin, end - begin);
  text.remove_prefix(end);
  return token;
}

/// Parses an "id:value" token.
static Status parseFeature(std::string_view token, int64_t &id, double &value) {
  size_t colon = token.find(':');
  if (colon == std::string_view::npos)
    return Status::invalidArgument("bad feature '{}': expected id:value",
                                   token);
  std::string_view idText = token.substr(0, colon);
  if (!parseInteger(idText, id).isOk())
    return Status::invalidArgument(
        "bad feature '{}': id '{}' is not an integer", token, idText);
  if (id < 0)
    return Status::invalidArgument("bad feature '{}': id {} is negative", token,
                                   id);
  return parseNumber(token.substr(colon + 1), value)
      .withContext(fmt::format("bad feature '{}'", token));
}

Status openks::runtime::detail::readLibsvm(const std::string &path,
                                           const Layout &layout, Table &table) {
  int64_t width = layout.width;
  return forEachDataLine(path, [&](std::string_view line) {
    std::string_view labelText = takeToken(line);
    int64_t features = 0;
    for (std::string_view scan = line; !takeToken(scan).empty();)
      ++features;
    if (features > width)
      return Status::invalidArgument(
          "{} features, but a row holds at most {} (the "
          "width of the ids argument)",
          features, width);
    int64_t label;
    OPENKS_RETURN_IF_ERROR(parseLabel(labelText, layout.classLabels, label));
    table.labels.push_back(label);

    for (std::string_view token = takeToken(line); !token.empty();
         token = takeToken(line)) {
      int64_t id;
      double value;
      OPENKS_RETURN_IF_ERROR(parseFeature(token, id, value));
      table.ids.push_back(id);
      if (layout.hasValues)
        table.values.push_back(value);
    }
    size_t padded = table.labels.size() * width;
    table.ids.resize(padded, 0);
    if (layout.hasValues)
      table.values.resize(padded, 0.0);
    return Status::ok();
  });
}
