//===- openks-ckpt.cpp - Inspect and export checkpoints -------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// openks-ckpt list DIR
//     prints the step and mode of the checkpoint DIR and a line per
//     variable: name, element type, shape, file size and CRC-32C;
// openks-ckpt show DIR VAR [--rows A:B]
//     prints rows of a variable's values;
// openks-ckpt verify DIR
//     re-reads every file and checks it against the manifest;
// openks-ckpt export DIR VAR -o FILE [--format npy|text] [--rows A:B]
//                   [--names IDS.tsv]
//     writes a variable, or some of its rows, as a .npy file or as text.
// DIR is a checkpoint of openks-run --save-dir, saved by any layout, or
// Paddle's save_persistables output; it is read as --load-dir reads it
// (Checkpoint.h).
//
//===----------------------------------------------------------------------===//

#include "CheckpointDir.h"
#include "Export.h"
#include "NameMap.h"
#include "Rows.h"
#include "ToolOutput.h"
#include "ToolVersion.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>

using namespace openks;
using namespace openks::ckpt;
using namespace openks::runtime;

namespace cl = llvm::cl;

/// The rows `show` prints without --rows.
static constexpr int64_t kShowHeadRows = 10;

static cl::OptionCategory ckptCategory("openks-ckpt options");

static cl::SubCommand
    listCommand("list",
                "Print the step, the mode and a line per variable: name, type, "
                "shape, file bytes and CRC-32C");
static cl::SubCommand
    showCommand("show",
                "Print a variable's values, a line per row (the first 10 rows "
                "unless --rows)");
static cl::SubCommand
    verifyCommand("verify",
                  "Re-read every file and check its size, CRC-32C, type and "
                  "shape against the manifest; exit 1 on any problem");
static cl::SubCommand
    exportCommand("export", "Write a variable as a .npy file or as text");

static cl::opt<std::string>
    checkpointDir(cl::Positional, cl::desc("<checkpoint dir>"), cl::Required,
                  cl::sub(listCommand), cl::sub(showCommand),
                  cl::sub(verifyCommand), cl::sub(exportCommand),
                  cl::cat(ckptCategory));
static cl::opt<std::string> variableName(cl::Positional, cl::desc("<variable>"),
                                         cl::Required, cl::sub(showCommand),
                                         cl::sub(exportCommand),
                                         cl::cat(ckptCategory));
static cl::opt<std::string>
    rowsOption("rows",
               cl::desc("Print or export rows A to B - 1 (A:B, A: to the "
                        "last row, :B from row 0)"),
               cl::value_desc("A:B"), cl::sub(showCommand),
               cl::sub(exportCommand), cl::cat(ckptCategory));
static cl::opt<std::string>
    outputFilename("o", cl::desc("Write to this file ('-': standard output)"),
                   cl::value_desc("file"), cl::Required, cl::sub(exportCommand),
                   cl::cat(ckptCategory));

/// What `export` writes.
enum class ExportFormat { Npy, Text };

static cl::opt<ExportFormat> exportFormat(
    "format", cl::desc("The output's format (default npy)"),
    cl::values(clEnumValN(ExportFormat::Npy, "npy",
                          "NumPy .npy 1.0, as numpy.save writes it"),
               clEnumValN(ExportFormat::Text, "text",
                          "a line per row, values separated by tabs, with "
                          "the digits to read back the same value")),
    cl::init(ExportFormat::Npy), cl::sub(exportCommand), cl::cat(ckptCategory));
static cl::opt<std::string> namesFile(
    "names",
    cl::desc("With --format text, start each row's line with its name from "
             "this id map, a line ID<TAB>NAME per row (as DGL-KE's "
             "entities.tsv)"),
    cl::value_desc("file.tsv"), cl::sub(exportCommand), cl::cat(ckptCategory));
/// Words that name no command.
static cl::list<std::string> strayArguments(cl::Positional, cl::Hidden,
                                            cl::cat(ckptCategory));

/// Prints "openks-ckpt: error: <message>" and returns the exit code 1.
static int fail(const std::string &message) {
  llvm::errs() << "openks-ckpt: error: " << message << "\n";
  return 1;
}

/// Returns "784x256", or "scalar" for rank 0.
static std::string formatShape(const Shape &shape) {
  if (shape.rank() == 0)
    return "scalar";
  return fmt::format("{}", fmt::join(shape.begin(), shape.end(), "x"));
}

/// Prints `rows` as a table, each column as wide as its widest cell and
/// the ones `rightAligned` flags aligned right.
template <size_t Columns>
static void
printTable(const std::vector<std::array<std::string, Columns>> &rows,
           const std::array<bool, Columns> &rightAligned,
           llvm::raw_ostream &os) {
  std::array<size_t, Columns> widths{};
  for (const auto &row : rows)
    for (size_t i = 0; i < Columns; ++i)
      widths[i] = std::max(widths[i], row[i].size());
  for (const auto &row : rows) {
    std::string line;
    for (size_t i = 0; i < Columns; ++i) {
      std::string padding(widths[i] - row[i].size(), ' ');
      line += rightAligned[i] ? padding + row[i] : row[i];
      if (i + 1 < Columns)
        line += (rightAligned[i] ? "" : padding) + "  ";
    }
    os << line << "\n";
  }
}

/// `list`: the checkpoint's header and a line per variable.
static int runList() {
  StatusOr<CheckpointInfo> info = openCheckpoint(checkpointDir);
  if (!info)
    return fail(info.status().message());
  llvm::raw_ostream &os = llvm::outs();
  uint64_t totalBytes = 0;
  std::vector<std::array<std::string, 5>> table = {
      {"NAME", "TYPE", "SHAPE", "BYTES", "CRC32C"}};
  for (const CheckpointVariable &variable : info->variables) {
    totalBytes += variable.bytes;
    table.push_back({variable.name, dtypeName(variable.dtype),
                     formatShape(variable.shape),
                     std::to_string(variable.bytes),
                     fmt::format("{:08x}", variable.crc32c)});
  }
  os << fmt::format("checkpoint  {}\n", checkpointDir.getValue());
  if (info->hasManifest)
    os << fmt::format("kind        OpenKS checkpoint, format {} (sizes and "
                      "CRC-32C as its manifest records them)\n"
                      "step        {}\nmode        {}\n",
                      info->formatVersion, info->step, info->mode);
  else
    os << fmt::format("kind        Paddle save_persistables output (no {}: "
                      "no step or mode; sizes and CRC-32C of the files)\n",
                      kCheckpointManifest);
  os << fmt::format("variables   {} ({} bytes)\n\n", info->variables.size(),
                    totalBytes);
  printTable<5>(table, {false, false, false, true, false}, os);
  return 0;
}

/// Reads the variable --variable of the checkpoint, or reports why not.
static StatusOr<Tensor> readVariable() {
  StatusOr<CheckpointInfo> info = openCheckpoint(checkpointDir);
  if (!info)
    return info.status();
  StatusOr<const CheckpointVariable *> variable =
      findVariable(*info, checkpointDir, variableName);
  if (!variable)
    return variable.status();
  return readCheckpointVariable(checkpointDir, **variable);
}

/// `show`: rows of a variable, each line its row number and values.
static int runShow() {
  StatusOr<Tensor> value = readVariable();
  if (!value)
    return fail(value.status().message());
  int64_t rows = countRows(value->shape());
  RowRange range{0, std::min(rows, kShowHeadRows)};
  if (rowsOption.getNumOccurrences()) {
    StatusOr<RowRange> asked = parseRowRange(rowsOption, rows);
    if (!asked)
      return fail(asked.status().message());
    range = *asked;
  }
  llvm::raw_ostream &os = llvm::outs();
  os << fmt::format("{}: {} {}, rows {}:{} of {}\n", variableName.getValue(),
                    dtypeName(value->dtype()), formatShape(value->shape()),
                    range.begin, range.end, rows);
  std::string line;
  for (int64_t row = range.begin; row < range.end; ++row) {
    line = std::to_string(row) + "\t";
    appendRow(*value, row, line);
    os << line << "\n";
  }
  if (!rowsOption.getNumOccurrences() && range.end < rows)
    os << fmt::format("... {} more rows (--rows A:B prints others)\n",
                      rows - range.end);
  return 0;
}

/// `verify`: every file read and checked, each problem reported.
static int runVerify() {
  StatusOr<CheckpointInfo> info = openCheckpoint(checkpointDir);
  if (!info)
    return fail(info.status().message());
  size_t problems = 0;
  uint64_t bytes = 0;
  for (const CheckpointVariable &variable : info->variables) {
    StatusOr<Tensor> value = readCheckpointVariable(checkpointDir, variable);
    if (!value) {
      fail(value.status().message());
      ++problems;
    }
    bytes += variable.bytes;
  }
  for (const CheckpointFileEntry &file : info->files) {
    if (StatusOr<std::string> contents =
            readCheckpointFile(checkpointDir, file);
        !contents) {
      fail(contents.status().message());
      ++problems;
    }
    bytes += file.bytes;
  }
  size_t files = info->variables.size() + info->files.size();
  if (problems)
    return fail(fmt::format("{}: {} of {} files failed verification",
                            checkpointDir.getValue(), problems, files));
  if (info->hasManifest)
    llvm::outs() << fmt::format(
        "{}: {} variable files{} ({} bytes) verified: sizes, CRC-32C, types "
        "and shapes match the manifest\n",
        checkpointDir.getValue(), info->variables.size(),
        info->files.empty()
            ? ""
            : fmt::format(" and {} other files", info->files.size()),
        bytes);
  else
    llvm::outs() << fmt::format(
        "{}: {} tensor files ({} bytes) of Paddle's save_persistables output "
        "verified: each reads as a tensor (Paddle records no checksums)\n",
        checkpointDir.getValue(), files, bytes);
  return 0;
}

/// `export`: the variable as .npy or text, to -o.
static int runExport() {
  if (!namesFile.empty() && exportFormat != ExportFormat::Text)
    return fail("--names needs --format text: a .npy file holds numbers only");
  StatusOr<Tensor> value = readVariable();
  if (!value)
    return fail(value.status().message());
  // Rows A:B are a view of the variable; a map names rows 0 to B - 1 (an
  // embedding table may have more rows than the map has names).
  int64_t rows = countRows(value->shape());
  RowRange range{0, rows};
  Tensor view;
  const Tensor *exported = &*value;
  if (rowsOption.getNumOccurrences()) {
    StatusOr<RowRange> asked = parseRowRange(rowsOption, rows);
    if (!asked)
      return fail(asked.status().message());
    range = *asked;
    if (value->rank() > 0) {
      view = Tensor::viewRows(*value, range.begin, range.end - range.begin);
      exported = &view;
    }
  }
  std::vector<std::string> names;
  if (!namesFile.empty()) {
    StatusOr<std::vector<std::string>> read = readNameMap(namesFile, range.end);
    if (!read)
      return fail(read.status().message());
    names.assign(read->begin() + range.begin, read->end());
  }
  mlir::LogicalResult written = tools::writeOutputFile(
      outputFilename, "openks-ckpt", [&](llvm::raw_ostream &os) {
        if (exportFormat == ExportFormat::Npy)
          writeNpy(*exported, os);
        else
          writeText(*exported, names, os);
        return mlir::success();
      });
  return mlir::succeeded(written) ? 0 : 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  tools::failWritesPastTheSizeLimit();
  tools::printOpenKSVersionFirst("openks-ckpt");
  for (cl::SubCommand *command : {&cl::SubCommand::getTopLevel(), &listCommand,
                                  &showCommand, &verifyCommand, &exportCommand})
    cl::HideUnrelatedOptions(ckptCategory, *command);
  cl::ParseCommandLineOptions(
      argc, argv,
      "openks-ckpt: inspect and export checkpoints\n\n"
      "Reads the checkpoint DIR as openks-run --load-dir reads it: one that\n"
      "--save-dir saved, from a single process or a job of any number of\n"
      "servers (its files hold whole variables, however the servers sliced\n"
      "them), or a directory of Paddle's save_persistables output (tensor\n"
      "files without a manifest).\n\n"
      "  openks-ckpt list DIR\n"
      "  openks-ckpt show DIR VAR [--rows A:B]\n"
      "  openks-ckpt verify DIR\n"
      "  openks-ckpt export DIR VAR -o FILE [--format npy|text] [--rows A:B] "
      "[--names IDS.tsv]\n\n"
      "A row is a slice along the first dim (a scalar is one row); text\n"
      "prints it as its values, row-major, separated by tabs, with %.9g for\n"
      "f32 and %.17g for f64. `openks-ckpt COMMAND --help` lists a\n"
      "command's options. Errors are printed as \"openks-ckpt: error: ...\",\n"
      "naming the file, and exit with 1.\n");
  int exitCode;
  if (listCommand)
    exitCode = runList();
  else if (showCommand)
    exitCode = runShow();
  else if (verifyCommand)
    exitCode = runVerify();
  else if (exportCommand)
    exitCode = runExport();
  else if (!strayArguments.empty())
    return fail(fmt::format("unknown command '{}'; expected list, show, "
                            "verify or export (see --help)",
                            strayArguments.front()));
  else
    return fail("expected a command: list, show, verify or export (see "
                "--help)");
  if (mlir::failed(tools::checkWritten(llvm::outs(), "-", "openks-ckpt")))
    return 1;
  return exitCode;
}
