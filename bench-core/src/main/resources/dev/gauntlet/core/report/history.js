/*
 * history.html's own script: draws each figure of each series over its runs (data in #history-data, see HistoryPage)
 * with uPlot, the mean of each level between change points as a step line, change points as dashed verticals, and
 * under the cursor the run's number, start, labels, source and command.
 *
 * Contract with tests and readers: once every chart has drawn, body[data-rendered] is the number of charts and
 * body[data-runs] the number of runs over all series; any script error is shown in #errors and sets
 * body[data-error]. Runs before uPlot's script, so an error there is reported too.
 */
(function () {
  'use strict';

  var reportError = window.gauntletReportError; // page-errors.js, inlined before this script

  var COLOURS = {worse: '#b42318', better: '#1a7f37', neither: '#59636e'};
  var WIDTH = 640;
  var HEIGHT = 220;

  function format(value) {
    if (value == null) {
      return '\u2014';
    }
    return value.toLocaleString('en-US', {maximumFractionDigits: Math.abs(value) < 10 ? 3 : 1});
  }

  /** The mean of each level between change points, one value per point: the step line. */
  function levels(figure) {
    var out = new Array(figure.y.length);
    var cuts = figure.changes.map(function (c) { return figure.x.indexOf(c.at); });
    var bounds = [0].concat(cuts, [figure.y.length]);
    for (var b = 0; b + 1 < bounds.length; b++) {
      var sum = 0;
      for (var i = bounds[b]; i < bounds[b + 1]; i++) {
        sum += figure.y[i];
      }
      for (var j = bounds[b]; j < bounds[b + 1]; j++) {
        out[j] = sum / (bounds[b + 1] - bounds[b]);
      }
    }
    return out;
  }

  function markChanges(figure) {
    return function (u) {
      var ctx = u.ctx;
      ctx.save();
      ctx.setLineDash([6, 4]);
      ctx.lineWidth = 1.5 * (uPlot.pxRatio || 1);
      figure.changes.forEach(function (c) {
        // Between the last run before the change (#at) and the first after it (#at + 1).
        var x = u.valToPos(c.at + 0.5, 'x', true);
        ctx.strokeStyle = COLOURS[c.verdict] || COLOURS.neither;
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
      });
      ctx.restore();
    };
  }

  function chart(host, id, series, figure) {
    var box = document.createElement('div');
    box.id = id;
    box.className = 'history-chart';
    host.appendChild(box);
    var info = document.createElement('div');
    info.className = 'hint run-under-cursor';
    info.textContent = figure.changes.length === 0 ? 'No change point.'
      : figure.changes.map(function (c) { return 'run #' + (c.at + 1) + ': ' + c.text; }).join('; ');
    var xs = figure.x.map(function (p) { return p + 1; });
    var opts = {
      title: figure.title, width: WIDTH, height: HEIGHT,
      scales: {x: {time: false}},
      // Runs are whole numbers: ticks at 1, 2, 5, 10, ... runs apart, never between two runs.
      axes: [{label: 'run', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000],
        values: function (u, ticks) { return ticks.map(function (t) { return '#' + t; }); }},
        // Room for figures like 57,836 (tpmC) beside the axis.
        {size: 72}],
      series: [
        {label: 'run', value: function (u, v) { return v == null ? '\u2014' : '#' + v; }},
        {label: figure.title, stroke: '#1f77b4', width: 1.5, points: {show: true, size: 5},
          value: function (u, v) { return format(v); }},
        {label: 'level', stroke: '#9aa4ae', width: 1, dash: [4, 3],
          points: {show: false}, value: function (u, v) { return format(v); }}
      ],
      hooks: {
        draw: [markChanges(figure)],
        setCursor: [function (u) {
          var i = u.cursor.idx;
          if (i == null) {
            return;
          }
          var run = series.runs[figure.x[i]];
          info.textContent = '#' + (figure.x[i] + 1) + ' ' + (run.started || '') + (run.labels ? ' [' + run.labels
            + ']' : '') + ' \u00b7 ' + run.source + (run.command ? ' \u00b7 ' + run.command : '');
        }]
      }
    };
    new uPlot(opts, [xs, figure.y, levels(figure)], box);
    box.appendChild(info);
  }

  function draw() {
    var data = JSON.parse(document.getElementById('history-data').textContent);
    var drawn = 0;
    var runs = 0;
    data.series.forEach(function (series, s) {
      runs += series.runs.length;
      var host = document.getElementById('series-' + s);
      series.figures.forEach(function (figure, f) {
        chart(host, 'chart-' + s + '-' + f, series, figure);
        drawn++;
      });
    });
    document.body.dataset.runs = String(runs);
    document.body.dataset.rendered = String(drawn);
  }

  window.addEventListener('DOMContentLoaded', function () {
    try {
      draw();
    } catch (e) {
      reportError('history: ' + (e && e.message ? e.message : String(e)));
    }
  });
})();
