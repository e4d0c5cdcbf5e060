//===- RunReport.cpp - The HTML page of a run -----------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RunReport.h"
#include "Runs.h"

#include "openks/Version.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <iterator>
#include <map>

using namespace openks;
using namespace openks::run;
using namespace openks::runtime;

//===----------------------------------------------------------------------===//
// Escaping
//===----------------------------------------------------------------------===//

/// Returns `text` with the characters that mean something in HTML escaped,
/// for element content and quoted attribute values.
static std::string escapeHtml(const std::string &text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&':
      escaped += "&amp;";
      break;
    case '<':
      escaped += "&lt;";
      break;
    case '>':
      escaped += "&gt;";
      break;
    case '"':
      escaped += "&quot;";
      break;
    case '\'':
      escaped += "&#39;";
      break;
    default:
      escaped += c;
    }
  }
  return escaped;
}

/// Returns `text` as a JSON string. '<', '>' and '&' are written as \u
/// escapes too, so that no text can end the script element the JSON is in.
static std::string quoteJson(const std::string &text) {
  std::string quoted = "\"";
  for (char c : text) {
    switch (c) {
    case '"':
      quoted += "\\\"";
      break;
    case '\\':
      quoted += "\\\\";
      break;
    case '\n':
      quoted += "\\n";
      break;
    case '<':
    case '>':
    case '&':
      quoted += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20)
        quoted += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
      else
        quoted += c;
    }
  }
  return quoted + '"';
}

/// Returns `value` as a JSON number in shortest round-trip form, or null
/// when it is none or not finite (JSON has no NaN).
static std::string jsonNumber(std::optional<double> value) {
  if (!value || !std::isfinite(*value))
    return "null";
  return fmt::format("{}", *value);
}

/// Returns `values` as a JSON array of what `format` makes of each.
template <typename T, typename FormatT>
static std::string jsonArray(const std::vector<T> &values, FormatT format) {
  std::string array = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      array += ',';
    array += format(values[i]);
  }
  return array + ']';
}

//===----------------------------------------------------------------------===//
// The page's fixed parts
//===----------------------------------------------------------------------===//

/// The page's style sheet.
static const char kStyle[] = R"css(
:root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #f6f8fa;
        --card: #ffffff; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
       font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto,
             "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 2px; }
h2 { font-size: 17px; margin: 0 0 12px; }
h3 { font-size: 15px; margin: 16px 0 8px; }
.kind, .note, footer { color: var(--muted); }
section { background: var(--card); border: 1px solid var(--line);
          border-radius: 8px; padding: 16px 20px; margin: 20px 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 4px 16px 4px 0; vertical-align: top;
         border-bottom: 1px solid var(--line); }
th { font-weight: 600; }
.num { text-align: right; }
code { font: 12.5px ui-monospace, SFMono-Regular, Menlo, Consolas,
       monospace; }
#charts { display: grid; gap: 16px 24px;
          grid-template-columns: repeat(auto-fill, minmax(480px, 1fr)); }
figure { margin: 0; }
figcaption { font-weight: 600; }
svg text { font: 11px system-ui, sans-serif; fill: var(--muted); }
svg text.legend { fill: var(--fg); font-size: 12px; }
.axis line, .axis path { stroke: #8c959f; fill: none; }
.grid line { stroke: #eaeef2; }
.series { fill: none; stroke-width: 1.6; stroke-linejoin: round; }
.swatch { display: inline-block; width: 10px; height: 10px;
          border-radius: 2px; margin-right: 6px; }
svg.bar { display: block; width: 360px; height: 14px; }
)css";

/// Draws the curves from the JSON of the figures: a chart per figure of
/// the steps, a held-out metric on the chart of the training figure of the
/// same name, or on one of its own.
static const char kScript[] = R"js(
(() => {
  'use strict';
  const data =
      JSON.parse(document.getElementById('openks-run-data').textContent);
  const svgNs = 'http://www.w3.org/2000/svg';
  const width = 560, height = 300;
  const left = 76, right = 20, top = 36, bottom = 44;
  // A longer curve is drawn from the lowest and the highest value of each
  // of half as many runs of steps.
  const maxPoints = 4000;
  const colors = ['#0969da', '#cf222e', '#1a7f37', '#8250df'];

  const add = (parent, name, attributes, text) => {
    const node = document.createElementNS(svgNs, name);
    for (const [key, value] of Object.entries(attributes))
      node.setAttribute(key, value);
    if (text !== undefined)
      node.textContent = text;
    parent.appendChild(node);
    return node;
  };

  // The [step, value] pairs of the finite values.
  const pointsOf = (steps, values) => steps
      .map((step, i) => [step, values[i]])
      .filter(([, value]) => value !== null && Number.isFinite(value));

  const thin = (points) => {
    if (points.length <= maxPoints)
      return points;
    const runs = maxPoints / 2, thinned = [];
    for (let run = 0; run < runs; ++run) {
      const begin = Math.floor(run * points.length / runs);
      const end = Math.floor((run + 1) * points.length / runs);
      let low = begin, high = begin;
      for (let i = begin; i < end; ++i) {
        if (points[i][1] < points[low][1]) low = i;
        if (points[i][1] > points[high][1]) high = i;
      }
      thinned.push(points[Math.min(low, high)]);
      if (low !== high)
        thinned.push(points[Math.max(low, high)]);
    }
    return thinned;
  };

  // Round values over [low, high], about `count` of them: multiples of 1,
  // 2 or 5 times a power of ten.
  const ticks = (low, high, count, integral) => {
    const raw = (high - low) / count;
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    let spacing = [1, 2, 5, 10].map((f) => f * power).find((s) => s >= raw);
    if (integral)
      spacing = Math.max(1, Math.round(spacing));
    const values = [];
    for (let k = Math.ceil(low / spacing - 1e-9);
         k <= Math.floor(high / spacing + 1e-9); ++k)
      values.push(k * spacing);
    return {values, spacing};
  };

  const tickLabel = (value, spacing, largest) => {
    if (value === 0)
      return '0';
    if (largest >= 1e6 || spacing < 1e-3)
      return value.toExponential(2);
    return value.toFixed(Math.max(0, Math.ceil(-Math.log10(spacing) - 1e-9)));
  };

  // Every chart spans the steps of the run and of its evaluations.
  let x0 = Infinity, x1 = -Infinity;
  for (const steps of [data.steps, ...data.evaluations.map((e) => e.steps)])
    for (const step of steps) {
      x0 = Math.min(x0, step);
      x1 = Math.max(x1, step);
    }
  if (x0 === x1) {
    x0 -= 1;
    x1 += 1;
  }

  const fixed = (digits) => (value) => value.toFixed(digits);
  const general = (value) =>
      Math.abs(value) >= 1e6 || (value !== 0 && Math.abs(value) < 1e-3)
          ? value.toExponential(4)
          : String(Number(value.toPrecision(6)));

  // Draws the chart `title` of `series` (each a name, a key and its
  // points), its values on a y axis named `unit`, shown by `format`.
  const chart = (title, unit, format, series) => {
    series = series.filter((s) => s.points.length > 0);
    if (series.length === 0)
      return;
    const figure = document.createElement('figure');
    const caption = document.createElement('figcaption');
    caption.textContent = title;
    figure.appendChild(caption);
    document.getElementById('charts').appendChild(figure);
    const svg = add(figure, 'svg', {viewBox: `0 0 ${width} ${height}`,
                                    role: 'img', 'aria-label': title});

    let y0 = Infinity, y1 = -Infinity;
    for (const s of series)
      for (const [, y] of s.points) {
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
    const pad = y0 === y1 ? Math.abs(y0) * 0.1 || 1 : (y1 - y0) * 0.05;
    y0 -= pad;
    y1 += pad;
    const sx = (x) => left + (x - x0) / (x1 - x0) * (width - left - right);
    const sy = (y) =>
        height - bottom - (y - y0) / (y1 - y0) * (height - top - bottom);

    const grid = add(svg, 'g', {class: 'grid'});
    const axes = add(svg, 'g', {class: 'axis'});
    const yTicks = ticks(y0, y1, 5, false);
    const largest = Math.max(Math.abs(y0), Math.abs(y1));
    for (const y of yTicks.values) {
      add(grid, 'line', {x1: left, x2: width - right, y1: sy(y), y2: sy(y)});
      add(axes, 'text', {class: 'tick-y', x: left - 6, y: sy(y),
                         'text-anchor': 'end', 'dominant-baseline': 'middle'},
          tickLabel(y, yTicks.spacing, largest));
    }
    for (const x of ticks(x0, x1, 6, true).values) {
      add(axes, 'line', {x1: sx(x), x2: sx(x), y1: height - bottom,
                         y2: height - bottom + 4});
      add(axes, 'text', {class: 'tick-x', x: sx(x), y: height - bottom + 16,
                         'text-anchor': 'middle'}, String(x));
    }
    add(axes, 'path', {d: `M${left},${top}V${height - bottom}` +
                          `H${width - right}`});
    add(axes, 'text', {x: (left + width - right) / 2, y: height - 6,
                       'text-anchor': 'middle'}, 'step');
    add(axes, 'text', {transform: 'rotate(-90)', 'text-anchor': 'middle',
                       x: -(top + height - bottom) / 2, y: 14}, unit);

    let legendX = left;
    series.forEach((s, i) => {
      const color = colors[i % colors.length];
      const shown = thin(s.points);
      add(svg, 'polyline', {
        class: 'series', 'data-series': s.key, stroke: color,
        points: shown.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`)
                    .join(' '),
      });
      if (s.markers || s.points.length === 1)
        for (const [x, y] of shown)
          add(svg, 'circle', {cx: sx(x), cy: sy(y), r: 2.5, fill: color});
      const [lastStep, lastValue] = s.points[s.points.length - 1];
      add(svg, 'line', {x1: legendX, x2: legendX + 16, y1: 14, y2: 14,
                        stroke: color, 'stroke-width': 2});
      const label = add(svg, 'text', {
        class: 'legend', 'data-series': s.key, x: legendX + 20, y: 14,
        'dominant-baseline': 'middle',
      }, `${s.name}: ${format(lastValue)} at step ${lastStep}`);
      legendX += 20 + label.getComputedTextLength() + 20;
    });
  };

  const evaluations = [...data.evaluations];
  // The held-out curve named `name`, if any, taken off `evaluations`.
  const heldOut = (name) => {
    const index = evaluations.findIndex((e) => e.name === name);
    if (index < 0)
      return [];
    const [evaluation] = evaluations.splice(index, 1);
    return [{name: `held-out ${name}`, key: `evaluation:${name}`,
             markers: true,
             points: pointsOf(evaluation.steps, evaluation.values)}];
  };
  chart('Loss', 'loss', fixed(6), [
    {name: 'training loss', key: 'loss',
     points: pointsOf(data.steps, data.loss)},
    ...heldOut('loss'),
  ]);
  chart('Throughput', 'samples/s', fixed(0), [
    {name: 'samples/s', key: 'samples_per_sec',
     points: pointsOf(data.steps, data.samplesPerSecond)},
  ]);
  for (const metric of data.metrics)
    chart(metric.name, metric.name, general, [
      {name: metric.name, key: `metric:${metric.name}`,
       points: pointsOf(data.steps, metric.values)},
      ...heldOut(metric.name),
    ]);
  for (const evaluation of [...evaluations])
    chart(`${evaluation.name} (held-out)`, evaluation.name, general,
          heldOut(evaluation.name));
})();
)js";

/// The colours of the servers in the placement bars.
static const char *const kServerColors[] = {"#0969da", "#cf222e", "#1a7f37",
                                            "#8250df", "#bf8700", "#1b7c83",
                                            "#bc4c00", "#6e7781"};

/// Returns the colour of server `index`.
static const char *getServerColor(size_t index) {
  return kServerColors[index % std::size(kServerColors)];
}

//===----------------------------------------------------------------------===//
// RunReport
//===----------------------------------------------------------------------===//

StatusOr<RunReport> RunReport::create(const std::string &path, ReportedRun run,
                                      std::vector<std::string> extraColumns) {
  StatusOr<tools::CheckedFile> file = tools::CheckedFile::create(path);
  if (!file)
    return file.status();
  return RunReport(std::move(*file), std::move(run), std::move(extraColumns));
}

StatusOr<RunReport>
RunReport::createForJob(const std::string &path, ReportedRun run,
                        std::vector<std::string> extraColumns,
                        const JobSpec &job) {
  StatusOr<RunReport> report =
      create(path, std::move(run), std::move(extraColumns));
  if (report)
    report->setJob(job);
  return report;
}

void RunReport::addStep(int64_t step, double loss, double samplesPerSecond,
                        const std::vector<std::optional<double>> &extra) {
  steps_.push_back(step);
  losses_.push_back(loss);
  samplesPerSecond_.push_back(samplesPerSecond);
  for (size_t column = 0; column < extraValues_.size(); ++column)
    extraValues_[column].push_back(column < extra.size() ? extra[column]
                                                         : std::nullopt);
}

void RunReport::addEvaluation(
    int64_t step, const std::vector<std::pair<std::string, double>> &metrics) {
  for (const std::pair<std::string, double> &metric : metrics) {
    auto found = std::find_if(evaluations_.begin(), evaluations_.end(),
                              [&](const Evaluation &evaluation) {
                                return evaluation.name == metric.first;
                              });
    Evaluation &evaluation =
        found != evaluations_.end()
            ? *found
            : evaluations_.emplace_back(Evaluation{metric.first});
    evaluation.steps.push_back(step);
    evaluation.values.push_back(metric.second);
  }
}

void RunReport::setJob(const JobSpec &job) {
  Job &reported = job_.emplace();
  reported.mode = describeMode(job.mode);
  reported.trainers = job.trainers;
  for (const ServerSpec &server : job.servers)
    reported.servers.push_back({server.name, server.endpoint, server.layout});
}

void RunReport::setServerTraffic(int server, const ServerTraffic &traffic) {
  job_->servers[server].traffic = traffic;
}

void RunReport::addTrainerTraffic(const TrainerTraffic &traffic) {
  job_->trainerTraffic.push_back(traffic);
}

void RunReport::setTotals(std::chrono::duration<double> wallTime,
                          int64_t samples) {
  wallSeconds_ = wallTime.count();
  samples_ = samples;
}

/// Returns the bytes `block` holds.
static int64_t getByteSize(const BlockLayout &block) {
  return block.shape.numel() * static_cast<int64_t>(dtypeSize(block.dtype));
}

/// Returns the rows of its variable `block` holds: "all", or "[b, e) of n".
static std::string describeRows(const BlockLayout &block) {
  if (block.shape.rank() == 0 || block.shape == block.wholeShape)
    return "all";
  return fmt::format("[{}, {}) of {}", block.rowBegin,
                     block.rowBegin + block.shape[0], block.wholeShape[0]);
}

std::string RunReport::renderData() const {
  std::string data = "{";
  auto out = std::back_inserter(data);
  auto number = [](double value) { return jsonNumber(value); };
  auto optionalNumber = [](std::optional<double> value) {
    return jsonNumber(value);
  };
  auto integer = [](int64_t value) { return fmt::format("{}", value); };
  fmt::format_to(out,
                 "\"input\":{},\"run\":{},\"batchSize\":{},\"data\":{},"
                 "\"wallSeconds\":{},\"samples\":{},\"finalLoss\":{},"
                 "\"meanSamplesPerSecond\":{},",
                 quoteJson(run_.input), quoteJson(run_.kind), run_.batchSize,
                 quoteJson(run_.data), jsonNumber(wallSeconds_), samples_,
                 losses_.empty() ? "null" : jsonNumber(losses_.back()),
                 jsonNumber(samples_ / std::max(wallSeconds_, 1e-9)));
  fmt::format_to(out, "\"steps\":{},\"loss\":{},\"samplesPerSecond\":{},",
                 jsonArray(steps_, integer), jsonArray(losses_, number),
                 jsonArray(samplesPerSecond_, number));
  std::vector<std::string> metrics;
  for (size_t column = 0; column < extraColumns_.size(); ++column)
    metrics.push_back(fmt::format(
        "{{\"name\":{},\"values\":{}}}", quoteJson(extraColumns_[column]),
        jsonArray(extraValues_[column], optionalNumber)));
  std::vector<std::string> evaluations;
  for (const Evaluation &evaluation : evaluations_)
    evaluations.push_back(fmt::format(
        "{{\"name\":{},\"steps\":{},\"values\":{}}}",
        quoteJson(evaluation.name), jsonArray(evaluation.steps, integer),
        jsonArray(evaluation.values, number)));
  fmt::format_to(out, "\"metrics\":[{}],\"evaluations\":[{}],\"job\":",
                 fmt::join(metrics, ","), fmt::join(evaluations, ","));
  if (!job_)
    return data + "null}";

  std::vector<std::string> servers;
  for (const Server &server : job_->servers) {
    std::vector<std::string> blocks;
    for (const BlockLayout &block : server.blocks)
      blocks.push_back(fmt::format(
          "{{\"name\":{},\"variable\":{},\"dtype\":\"{}\",\"shape\":[{}],"
          "\"variableShape\":[{}],\"rowBegin\":{},\"bytes\":{}}}",
          quoteJson(block.name), quoteJson(block.origin),
          dtypeName(block.dtype),
          fmt::join(block.shape.begin(), block.shape.end(), ","),
          fmt::join(block.wholeShape.begin(), block.wholeShape.end(), ","),
          block.rowBegin, getByteSize(block)));
    std::string traffic;
    if (server.traffic)
      traffic = fmt::format(
          ",\"bytesReceived\":{},\"bytesSent\":{},\"stepsApplied\":{}",
          server.traffic->bytesReceived, server.traffic->bytesSent,
          server.traffic->stepsApplied
              ? fmt::format("{}", *server.traffic->stepsApplied)
              : "null");
    servers.push_back(
        fmt::format("{{\"name\":{},\"endpoint\":{},\"blocks\":[{}]{}}}",
                    quoteJson(server.name), quoteJson(server.endpoint),
                    fmt::join(blocks, ","), traffic));
  }
  std::vector<std::string> trainers;
  for (const TrainerTraffic &trainer : job_->trainerTraffic)
    trainers.push_back(fmt::format(
        "{{\"trainer\":{},\"steps\":{},\"rows\":{},\"bytesPushed\":{},"
        "\"bytesPulled\":{},\"barrierSeconds\":{}}}",
        trainer.trainer, trainer.steps, trainer.rows, trainer.bytesPushed,
        trainer.bytesPulled,
        jsonNumber(
            std::chrono::duration<double>(trainer.barrierWait).count())));
  fmt::format_to(out,
                 "{{\"mode\":\"{}\",\"trainers\":{},\"servers\":[{}],"
                 "\"trainerTraffic\":[{}]}}}}",
                 job_->mode, job_->trainers, fmt::join(servers, ","),
                 fmt::join(trainers, ","));
  return data;
}

std::string RunReport::renderSummary() const {
  std::vector<std::pair<std::string, std::string>> rows;
  rows.emplace_back("Program", "<code>" + escapeHtml(run_.input) + "</code>");
  rows.emplace_back("Run", escapeHtml(run_.kind));
  if (!steps_.empty())
    rows.emplace_back("Steps", steps_.front() == 1
                                   ? fmt::format("{}", steps_.size())
                                   : fmt::format("{} (steps {} to {}, resumed)",
                                                 steps_.size(), steps_.front(),
                                                 steps_.back()));
  rows.emplace_back("Batch size", fmt::format("{} rows", run_.batchSize));
  rows.emplace_back("Data", "<code>" + escapeHtml(run_.data) + "</code>");
  rows.emplace_back("Wall time", fmt::format("{:.2f} s", wallSeconds_));
  rows.emplace_back("Samples", fmt::format("{}", samples_));
  if (!losses_.empty())
    rows.emplace_back("Final loss", fmt::format("{:.6f}", losses_.back()));
  rows.emplace_back(
      "Mean throughput",
      fmt::format("{:.0f} samples/s", samples_ / std::max(wallSeconds_, 1e-9)));
  for (const Evaluation &evaluation : evaluations_)
    rows.emplace_back("Held-out " + escapeHtml(evaluation.name),
                      fmt::format("{:.6g} after step {}",
                                  evaluation.values.back(),
                                  evaluation.steps.back()));
  std::string table = "<table class=\"summary\">\n";
  for (const auto &[name, value] : rows)
    fmt::format_to(std::back_inserter(table),
                   "<tr><th>{}</th><td>{}</td></tr>\n", name, value);
  return table + "</table>\n";
}

std::string RunReport::renderJob() const {
  std::string html = "<section id=\"job\">\n<h2>Job</h2>\n";
  auto out = std::back_inserter(html);
  fmt::format_to(out, "<p>{} mode, {} and {}.</p>\n", job_->mode,
                 countOf(job_->servers.size(), "server"),
                 countOf(job_->trainers, "trainer"));

  html += "<h3>Servers</h3>\n<table id=\"servers\">\n<tr><th>Server</th>"
          "<th>Endpoint</th><th class=\"num\">Blocks</th><th "
          "class=\"num\">Holds</th><th class=\"num\">Received</th><th "
          "class=\"num\">Sent</th><th class=\"num\">Steps applied</th></tr>\n";
  for (size_t index = 0; index < job_->servers.size(); ++index) {
    const Server &server = job_->servers[index];
    int64_t bytes = 0;
    for (const BlockLayout &block : server.blocks)
      bytes += getByteSize(block);
    const std::optional<ServerTraffic> &traffic = server.traffic;
    fmt::format_to(
        out,
        "<tr><td><span class=\"swatch\" style=\"background:{}\"></span>"
        "{}</td><td><code>{}</code></td><td class=\"num\">{}</td><td "
        "class=\"num\">{}</td><td class=\"num\">{}</td><td "
        "class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
        getServerColor(index), escapeHtml(server.name),
        escapeHtml(server.endpoint), server.blocks.size(), formatBytes(bytes),
        traffic ? formatBytes(traffic->bytesReceived) : "&mdash;",
        traffic ? formatBytes(traffic->bytesSent) : "&mdash;",
        traffic && traffic->stepsApplied
            ? fmt::format("{}", *traffic->stepsApplied)
            : "&mdash;");
  }
  html += "</table>\n";
  if (std::any_of(job_->servers.begin(), job_->servers.end(),
                  [](const Server &server) { return !server.traffic; }))
    html += "<p class=\"note\">A server's traffic is known to its own "
            "process only.</p>\n";

  if (!job_->trainerTraffic.empty()) {
    html += "<h3>Trainers</h3>\n<table id=\"trainers\">\n<tr><th>Trainer"
            "</th><th class=\"num\">Steps</th><th class=\"num\">Rows</th><th "
            "class=\"num\">Pushed</th><th class=\"num\">Pulled</th><th "
            "class=\"num\">At barriers</th></tr>\n";
    for (const TrainerTraffic &trainer : job_->trainerTraffic)
      fmt::format_to(
          out,
          "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
          "<td class=\"num\">{}</td><td class=\"num\">{}</td><td "
          "class=\"num\">{:.3f} s</td></tr>\n",
          trainer.trainer, trainer.steps, trainer.rows,
          formatBytes(trainer.bytesPushed), formatBytes(trainer.bytesPulled),
          std::chrono::duration<double>(trainer.barrierWait).count());
    html += "</table>\n";
  }

  // Each variable as a bar of its rows, coloured by the server that holds
  // them; copies of the same rows (a frozen value every server holds) lie
  // in lanes one above the other.
  struct Piece {
    size_t server;
    const BlockLayout *block;
    size_t lane = 0;
  };
  std::map<std::string, std::vector<Piece>> variables;
  for (size_t index = 0; index < job_->servers.size(); ++index)
    for (const BlockLayout &block : job_->servers[index].blocks)
      variables[block.origin].push_back({index, &block});
  html += "<h3>Where the variables live</h3>\n<table id=\"variables\">\n"
          "<tr><th>Variable</th><th>Shape</th><th>Rows by server</th></tr>\n";
  for (auto &[name, pieces] : variables) {
    std::stable_sort(pieces.begin(), pieces.end(),
                     [](const Piece &a, const Piece &b) {
                       return a.block->rowBegin < b.block->rowBegin;
                     });
    // The row after the last piece of each lane.
    std::vector<int64_t> laneEnds;
    for (Piece &piece : pieces) {
      int64_t begin = piece.block->rowBegin;
      int64_t end =
          begin + (piece.block->shape.rank() ? piece.block->shape[0] : 1);
      piece.lane =
          std::find_if(laneEnds.begin(), laneEnds.end(),
                       [&](int64_t laneEnd) { return laneEnd <= begin; }) -
          laneEnds.begin();
      if (piece.lane == laneEnds.size())
        laneEnds.push_back(end);
      else
        laneEnds[piece.lane] = end;
    }
    const Shape &whole = pieces.front().block->wholeShape;
    double rows = whole.rank() ? std::max<int64_t>(whole[0], 1) : 1;
    double laneHeight = 14.0 / laneEnds.size();
    std::string bar;
    for (const Piece &piece : pieces) {
      const BlockLayout &block = *piece.block;
      int64_t blockRows = block.shape.rank() ? block.shape[0] : 1;
      fmt::format_to(std::back_inserter(bar),
                     "<rect x=\"{:.3f}\" y=\"{:.3f}\" width=\"{:.3f}\" "
                     "height=\"{:.3f}\" fill=\"{}\"><title>{}: {}, {} rows"
                     "</title></rect>",
                     100 * block.rowBegin / rows, piece.lane * laneHeight,
                     100 * blockRows / rows, laneHeight,
                     getServerColor(piece.server),
                     escapeHtml(job_->servers[piece.server].name),
                     escapeHtml(block.name), describeRows(block));
    }
    fmt::format_to(out,
                   "<tr><td><code>{}</code></td><td><code>{}</code></td><td>"
                   "<svg class=\"bar\" viewBox=\"0 0 100 14\" "
                   "preserveAspectRatio=\"none\">{}</svg></td></tr>\n",
                   escapeHtml(name), whole.str(), bar);
  }
  html += "</table>\n";

  html += "<h3>Blocks</h3>\n<table id=\"placement\">\n<tr><th>Server</th>"
          "<th>Block</th><th>Variable</th><th>Rows</th><th>Shape</th>"
          "<th>Type</th><th class=\"num\">Bytes</th></tr>\n";
  for (const Server &server : job_->servers)
    for (const BlockLayout &block : server.blocks)
      fmt::format_to(out,
                     "<tr><td>{}</td><td><code>{}</code></td><td><code>{}"
                     "</code></td><td>{}</td><td><code>{}</code></td><td>{}"
                     "</td><td class=\"num\">{}</td></tr>\n",
                     escapeHtml(server.name), escapeHtml(block.name),
                     escapeHtml(block.origin), describeRows(block),
                     block.shape.str(), dtypeName(block.dtype),
                     getByteSize(block));
  return html + "</table>\n</section>\n";
}

Status RunReport::write() {
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                     "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
                     "content=\"width=device-width, initial-scale=1\">\n";
  auto out = std::back_inserter(page);
  fmt::format_to(out, "<title>openks-run: {}</title>\n<style>{}</style>\n",
                 escapeHtml(run_.input), kStyle);
  fmt::format_to(out,
                 "</head>\n<body>\n<main>\n<h1>openks-run: <code>{}</code>"
                 "</h1>\n<p class=\"kind\">{}</p>\n",
                 escapeHtml(run_.input), escapeHtml(run_.kind));
  fmt::format_to(out,
                 "<section id=\"summary\">\n<h2>Summary</h2>\n{}"
                 "</section>\n",
                 renderSummary());
  page += "<section id=\"curves\">\n<h2>Curves</h2>\n<div id=\"charts\">"
          "</div>\n<noscript><p class=\"note\">The page's script draws the "
          "curves; its figures are in the JSON of the element "
          "openks-run-data.</p></noscript>\n</section>\n";
  if (job_)
    page += renderJob();
  fmt::format_to(out,
                 "<footer>Written by openks-run, OpenKS {}.</footer>\n"
                 "</main>\n<script type=\"application/json\" "
                 "id=\"openks-run-data\">{}</script>\n<script>{}</script>\n"
                 "</body>\n</html>\n",
                 OPENKS_VERSION_STRING, renderData(), kScript);
  OPENKS_RETURN_IF_ERROR(file_.write(page));
  return file_.close();
}
