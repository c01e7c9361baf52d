/*
 * dashboard.html's own script: draws the run's charts (data in #run-data, see DashboardCharts) with uPlot, marks
 * phases and disruptions on every chart, and zooms all charts together.
 *
 * Contract with tests and readers: once every chart has drawn, body[data-rendered] is the number of charts drawn
 * and body[data-points] the number of x points (one per reporting interval); any script error is shown in #errors
 * and sets body[data-error]. Runs before uPlot's script, so an error there is reported too.
 */
(function () {
  'use strict';

  var reportError = window.gauntletReportError; // page-errors.js, inlined before this script

  var PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f',
    '#bcbd22', '#17becf'];
  var DASHES = {solid: [], dash: [8, 4], dot: [2, 3]};
  var SYNC_KEY = 'gauntlet-run';
  var HEIGHT = 280;
  var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

  function format(value, decimals) {
    if (value == null) {
      return '\u2014';
    }
    return value.toLocaleString('en-US', {minimumFractionDigits: decimals, maximumFractionDigits: decimals});
  }

  /** Canvas pixels per CSS pixel. */
  function px(n) {
    return n * (uPlot.pxRatio || 1);
  }

  /** Writes text beside x (right of it, or left when it would leave the plot) at y, inside the plot. */
  function label(u, text, x, y, colour) {
    var ctx = u.ctx;
    var box = u.bbox;
    ctx.font = px(11) + 'px ' + FONT;
    ctx.fillStyle = colour;
    ctx.textBaseline = 'top';
    var width = ctx.measureText(text).width;
    var at = x + px(3);
    if (at + width > box.left + box.width) {
      at = x - px(3) - width;
    }
    ctx.fillText(text, Math.max(box.left + px(2), at), y);
  }

  function clipToPlot(u) {
    var box = u.bbox;
    u.ctx.save();
    u.ctx.beginPath();
    u.ctx.rect(box.left, box.top, box.width, box.height);
    u.ctx.clip();
  }

  function verticalLine(u, x, colour, dash) {
    var ctx = u.ctx;
    ctx.strokeStyle = colour;
    ctx.lineWidth = px(1);
    ctx.setLineDash(dash.map(px));
    ctx.beginPath();
    ctx.moveTo(x, u.bbox.top);
    ctx.lineTo(x, u.bbox.top + u.bbox.height);
    ctx.stroke();
    ctx.setLineDash([]);
  }

  /**
   * Phases as alternating shaded bands named at the top (unmeasured ones grey), under the lines; disruptions as
   * red spans from start to end named below the phases, over the lines, with when the workload recovered (a green
   * dashed line, "recovered in ...") or that it did not.
   */
  function timelinePlugin(data) {
    var row = 15;
    return {
      hooks: {
        drawClear: function (u) {
          if (data.phases.length < 2) {
            return;
          }
          var box = u.bbox;
          clipToPlot(u);
          data.phases.forEach(function (phase, i) {
            var left = u.valToPos(phase.start, 'x', true);
            var right = u.valToPos(phase.end, 'x', true);
            u.ctx.fillStyle = !phase.measured ? 'rgba(128,128,128,0.16)'
              : i % 2 === 0 ? 'rgba(70,130,180,0.10)' : 'rgba(218,165,32,0.13)';
            u.ctx.fillRect(left, box.top, right - left, box.height);
            var from = Math.max(left, box.left);
            var to = Math.min(right, box.left + box.width);
            u.ctx.font = px(11) + 'px ' + FONT;
            if (u.ctx.measureText(phase.name).width + px(6) <= to - from) {
              label(u, phase.name, from, box.top + px(2), '#444');
            }
          });
          u.ctx.restore();
        },
        draw: function (u) {
          var box = u.bbox;
          clipToPlot(u);
          data.disruptions.forEach(function (d, i) {
            var left = u.valToPos(d.start, 'x', true);
            var right = Math.max(u.valToPos(d.end, 'x', true), left + px(2));
            u.ctx.fillStyle = d.happened ? 'rgba(200,30,30,0.14)' : 'rgba(120,120,120,0.12)';
            u.ctx.fillRect(left, box.top, right - left, box.height);
            var edge = d.happened ? 'rgba(180,20,20,0.85)' : 'rgba(120,120,120,0.9)';
            var dash = d.happened ? [] : [4, 3];
            verticalLine(u, left, edge, dash);
            verticalLine(u, right, edge, dash);
            label(u, d.name + (d.happened ? '' : ' (not started)'), right, box.top + px(2 + row * (1 + i % 2)),
              '#961414');
            var bottom = box.top + box.height - px(row * (1 + i % 2));
            if (d.recoveredAt != null) {
              var at = u.valToPos(d.recoveredAt, 'x', true);
              verticalLine(u, at, 'rgba(30,130,50,0.9)', [6, 3]);
              label(u, d.recoveryText, at, bottom, '#1e7d32');
            } else if (d.recovery) {
              label(u, d.recoveryText, right, bottom, '#b42318');
            }
          });
          u.ctx.restore();
        }
      }
    };
  }

  function render() {
    var data = JSON.parse(document.getElementById('run-data').textContent);
    var host = document.getElementById('charts');
    var x = data.x;
    var plots = [];
    var drawn = {};
    var logScale = false;
    var anyRightAxis = data.charts.some(function (chart) {
      return chart.rightUnit != null;
    });

    function finished() {
      document.body.dataset.points = String(x.length);
      document.body.dataset.rendered = String(Object.keys(drawn).length);
    }

    function width() {
      return Math.max(400, host.clientWidth || document.documentElement.clientWidth - 64);
    }

    /** A zoom on one chart is applied to all, once: the others' setScale then finds their range already set. */
    function followZoom(u, key) {
      if (key !== 'x') {
        return;
      }
      var min = u.scales.x.min;
      var max = u.scales.x.max;
      plots.forEach(function (p) {
        if (p.u !== u && (p.u.scales.x.min !== min || p.u.scales.x.max !== max)) {
          p.u.setScale('x', {min: min, max: max});
        }
      });
    }

    function options(chart) {
      var log = chart.logScale && logScale;
      var series = [{
        label: 'time',
        value: function (u, v) {
          return v == null ? '\u2014' : format(v, 1) + ' s';
        }
      }];
      chart.series.forEach(function (s) {
        series.push({
          label: s.label,
          scale: s.scale,
          stroke: PALETTE[s.colour % PALETTE.length],
          width: 1.5,
          dash: DASHES[s.line] || [],
          points: {show: x.length <= 60},
          value: function (u, v) {
            return format(v, chart.decimals);
          }
        });
      });
      var scales = {x: {time: false}, y: log ? {distr: 3, log: 10} : {}};
      var axes = [{label: 'seconds since start', labelSize: 24}, {label: chart.unit, labelSize: 24, size: 64}];
      if (chart.rightUnit) {
        scales.right = {};
        axes.push({scale: 'right', side: 1, label: chart.rightUnit, labelSize: 24, size: 72, grid: {show: false}});
      } else if (anyRightAxis) {
        // An empty right margin as wide as the right axis elsewhere, so every chart's time axis lines up.
        axes.push({scale: 'y', side: 1, label: '', labelSize: 24, size: 72, grid: {show: false}, ticks: {show: false},
          values: function (u, splits) {
            return splits.map(function () {
              return '';
            });
          }});
      }
      return {
        title: chart.title + (log ? ' (log scale)' : ''),
        width: width(),
        height: HEIGHT,
        cursor: {sync: {key: SYNC_KEY}, drag: {x: true, y: false}},
        scales: scales,
        axes: axes,
        series: series,
        plugins: [timelinePlugin(data)],
        hooks: {
          setScale: [followZoom],
          draw: [function () {
            if (!drawn[chart.id]) {
              drawn[chart.id] = true;
              if (Object.keys(drawn).length === data.charts.length) {
                finished();
              }
            }
          }]
        }
      };
    }

    function values(chart) {
      var log = chart.logScale && logScale;
      return [x].concat(chart.series.map(function (s) {
        // A log scale has no place for 0: such points become gaps.
        return log ? s.values.map(function (v) {
          return v != null && v > 0 ? v : null;
        }) : s.values;
      }));
    }

    /** Draws a chart into its place (replacing the one there), keeping the current zoom. */
    function draw(chart, index, zoom) {
      var element = document.createElement('div');
      element.id = 'chart-' + chart.id;
      var old = plots[index];
      if (old) {
        host.replaceChild(element, old.element);
        old.u.destroy();
      } else {
        host.appendChild(element);
      }
      var u = new uPlot(options(chart), values(chart), element);
      plots[index] = {chart: chart, u: u, element: element};
      if (zoom) {
        u.setScale('x', zoom);
      }
    }

    if (data.charts.length === 0) {
      finished();
      return;
    }
    data.charts.forEach(function (chart, i) {
      draw(chart, i, null);
    });

    var reset = document.getElementById('reset-zoom');
    if (reset) {
      reset.addEventListener('click', function () {
        plots.forEach(function (p) {
          p.u.setData(p.u.data, true);
        });
      });
    }
    var log = document.getElementById('log-scale');
    if (log) {
      log.addEventListener('change', function () {
        logScale = log.checked;
        var zoom = {min: plots[0].u.scales.x.min, max: plots[0].u.scales.x.max};
        plots.forEach(function (p, i) {
          if (p.chart.logScale) {
            draw(p.chart, i, zoom);
          }
        });
      });
    }
    var resizing = null;
    window.addEventListener('resize', function () {
      clearTimeout(resizing);
      resizing = setTimeout(function () {
        plots.forEach(function (p) {
          p.u.setSize({width: width(), height: HEIGHT});
        });
      }, 100);
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    try {
      render();
    } catch (e) {
      reportError(e && e.stack ? String(e.stack).split('\n')[0] : String(e));
    }
  });
}());
