/*
 * capacity.html's own script: draws a capacity search's steps (data in #capacity-data, see CapacityChart) with uPlot:
 * each latency objective's measured value against the achieved rate, points only, each budget a dashed line across,
 * the answer a green line up.
 *
 * Contract with tests and readers: once drawn, body[data-rendered] is the number of steps plotted; any script error is
 * shown in #errors and sets body[data-error]. Runs before uPlot's script, so an error there is reported too.
 */
(function () {
  'use strict';

  var reportError = window.gauntletReportError; // page-errors.js, inlined before this script
  var COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#8c564b'];

  function draw() {
    var data = JSON.parse(document.getElementById('capacity-data').textContent);
    var budgets = Object.keys(data.budgets);
    var series = [{label: 'achieved ' + data.unit}];
    var columns = [data.x];
    data.series.forEach(function (s, i) {
      series.push({label: s.name, stroke: COLOURS[i % COLOURS.length], paths: function () { return null; },
        points: {show: true, size: 9, fill: COLOURS[i % COLOURS.length]}});
      columns.push(s.y);
    });
    function lines(u) {
      var ctx = u.ctx;
      ctx.save();
      ctx.lineWidth = 1.5 * (uPlot.pxRatio || 1);
      ctx.setLineDash([6, 4]);
      ctx.strokeStyle = '#b42318';
      budgets.forEach(function (name) {
        var y = u.valToPos(data.budgets[name], 'y', true);
        ctx.beginPath();
        ctx.moveTo(u.bbox.left, y);
        ctx.lineTo(u.bbox.left + u.bbox.width, y);
        ctx.stroke();
      });
      if (data.answer != null) {
        ctx.setLineDash([]);
        ctx.strokeStyle = '#1a7f37';
        var x = u.valToPos(data.answer, 'x', true);
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
      }
      ctx.restore();
    }
    var top = 0;
    budgets.forEach(function (name) { top = Math.max(top, data.budgets[name] * 1.2); });
    data.series.forEach(function (s) {
      s.y.forEach(function (v) { if (v != null) { top = Math.max(top, Math.min(v * 1.05, budgets.length ? top * 4 : v * 1.05)); } });
    });
    new uPlot({
      width: Math.min(1000, window.innerWidth - 40), height: 420,
      scales: {x: {time: false}, y: {range: [0, top || 1]}},
      axes: [{label: 'achieved ' + data.unit}, {label: 'ms (from the intended start)'}],
      series: series,
      hooks: {draw: [lines]}
    }, columns, document.getElementById('capacity'));
    document.body.dataset.rendered = String(data.x.length);
  }

  document.addEventListener('DOMContentLoaded', function () {
    try {
      draw();
    } catch (e) {
      reportError(String(e && e.message || e));
    }
  });
})();
