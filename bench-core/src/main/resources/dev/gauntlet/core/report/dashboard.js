/*
 * dashboard.html's own script: draws the run's charts (data in #run-data, see DashboardCharts) with uPlot, marks
 * phases and disruptions on every chart, and zooms all charts together.
 *
 * Contract with tests and readers: once every chart has drawn, body[data-rendered] is the number of charts drawn,
 * body[data-points] the number of x points in the data (one per reporting interval), body[data-drawn-points] the
 * number of x points each chart draws at the current zoom, and body[data-load-ms] the milliseconds from navigation
 * until every chart had first drawn (performance.now()); any script error is shown in #errors and sets
 * body[data-error]. Runs before uPlot's script, so an error there is reported too. Above each plot, a strip names
 * what the chart marks, laid out at every redraw so that no two labels intersect: each label is an element with
 * data-label (phase, disruption or recovery) and data-index (into the data's phases or disruptions); phases named by
 * number are explained under the chart in [data-phase-legend] entries. The buttons of #disruption-list
 * (data-disruption: an index) zoom every chart to one, and dashboard.html#disruption=N opens zoomed to the list's
 * Nth.
 *
 * Downsampling: the data holds every interval (a 12-hour run at 1 s: 43,200 a series), more than a chart has pixels.
 * At every zoom each chart is given about two points per pixel of its width: where the view holds more intervals
 * than that, consecutive ones are drawn in buckets, each bucket by its lowest and highest value in the order they
 * came (at its first and last interval's time), so no spike and no drop disappears; zoomed in far enough, every
 * interval. Outside the view the whole run is kept at the whole run's bucket width, so the x range the data spans
 * stays the run's (a double-click shows it all).
 */
(function () {
  'use strict';

  var reportError = window.gauntletReportError; // page-errors.js, inlined before this script

  var PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f',
    '#bcbd22', '#17becf'];
  var DASHES = {solid: [], dash: [8, 4], dot: [2, 3]};
  var SYNC_KEY = 'gauntlet-run';
  var HEIGHT = 280;
  var ROW = 16; // CSS px: one row of the label strip above each plot
  var GAP = 6; // CSS px kept free between two labels in a row
  var NAME_ROWS = 2; // rows for disruptions' names; where none fits, a number
  var RECOVERY_ROWS = 4; // rows in which recoveries may be flagged (more if the names took more)
  // Phases: unmeasured, then measured ones alternating; [rgb, alpha in the plot]. The strip shows them stronger.
  var PHASE_COLOURS = [['128,128,128', 0.16], ['70,130,180', 0.10], ['218,165,32', 0.13]];
  var STRIP_ALPHA = 0.3;
  var MARKERS_UP_TO = 60; // points in view up to which each is marked

  /**
   * Which intervals each drawn point stands for, for the view from x = min to max: `from`/`to` index ranges
   * [from, to) of the data, each one point (a single interval) or two (a bucket: its extremes). Inside the view
   * (and one interval either side, so lines run to the edges) buckets hold as many intervals as make about
   * `buckets` of them; elsewhere as many as the whole run needs for that, aligned to the run's start.
   */
  function viewOf(x, min, max, buckets) {
    var n = x.length;
    var whole = n <= 2 * buckets ? 1 : Math.ceil(n / buckets);
    var i0 = Math.max(0, lowerBound(x, min) - 1);
    var i1 = Math.min(n - 1, lowerBound(x, max));
    var inView = i1 - i0 + 1;
    var inner = inView <= 2 * buckets ? 1 : Math.ceil(inView / buckets);
    var from = [];
    var to = [];
    function cut(start, end, size, aligned) {
      var i = start;
      while (i < end) {
        var next = aligned ? (Math.floor(i / size) + 1) * size : i + size;
        from.push(i);
        to.push(Math.min(next, end));
        i = Math.min(next, end);
      }
    }
    cut(0, i0, whole, true);
    cut(i0, i1 + 1, inner, false);
    cut(i1 + 1, n, whole, true);
    var xs = [];
    for (var b = 0; b < from.length; b++) {
      xs.push(x[from[b]]);
      if (to[b] - from[b] > 1) {
        xs.push(x[to[b] - 1]);
      }
    }
    return {min: min, max: max, from: from, to: to, x: xs};
  }

  /** The first index whose x is at least v (x ascending). */
  function lowerBound(x, v) {
    var lo = 0;
    var hi = x.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (x[mid] < v) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * A series' values for a view: a single interval's value, or a bucket's lowest and highest (nulls skipped; null
   * when it has none) in the order they came.
   */
  function sampled(values, view) {
    var out = [];
    for (var b = 0; b < view.from.length; b++) {
      var from = view.from[b];
      var to = view.to[b];
      if (to - from === 1) {
        out.push(values[from]);
        continue;
      }
      var lo = -1;
      var hi = -1;
      for (var i = from; i < to; i++) {
        var v = values[i];
        if (v == null) {
          continue;
        }
        if (lo < 0 || v < values[lo]) {
          lo = i;
        }
        if (hi < 0 || v > values[hi]) {
          hi = i;
        }
      }
      if (lo < 0) {
        out.push(null, null);
      } else if (lo <= hi) {
        out.push(values[lo], values[hi]);
      } else {
        out.push(values[hi], values[lo]);
      }
    }
    return out;
  }

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

  /** A phase's colour, in the plot or (with alpha) in the strip. */
  function phaseColour(phase, i, alpha) {
    var c = PHASE_COLOURS[!phase.measured ? 0 : 1 + i % 2];
    return 'rgba(' + c[0] + ',' + (alpha || c[1]) + ')';
  }

  function seconds(from, to) {
    return format(from, 1) + '\u2013' + format(to, 1) + ' s';
  }

  /** The widths of texts in CSS px as the page shows them with a class (padding and border included), measured once. */
  function textWidths() {
    var cache = {};
    var probe = document.createElement('span');
    probe.style.cssText = 'position: absolute; visibility: hidden; left: -10000px; top: 0';
    document.body.appendChild(probe);
    return function (text, className) {
      var key = className + '\n' + text;
      if (!(key in cache)) {
        probe.className = className;
        probe.textContent = text;
        cache[key] = Math.ceil(probe.getBoundingClientRect().width);
      }
      return cache[key];
    };
  }

  /**
   * Rows of flags (a text at a position x, starting there or, when it would run past the right edge of the strip
   * `width` px wide, ending there) in which no two flags intersect. add(flags, rows, most) places flags in order of
   * x: each in the first of the first `rows` rows where its first text fits; failing that, its last (shortest) text
   * in the first of `most` rows where that fits, adding rows as needed; failing that too, not at all. Row 0 is the
   * one nearest the plot.
   */
  function flagRows(measure, width) {
    var rows = [];
    var placed = [];

    function fits(row, left, w) {
      return row.every(function (b) {
        return left + w + GAP <= b.left || b.left + b.width + GAP <= left;
      });
    }

    function add(flags, limit, most) {
      flags.slice().sort(function (a, b) {
        return a.x - b.x;
      }).forEach(function (flag) {
        for (var t = 0; t < flag.texts.length; t++) {
          var last = t === flag.texts.length - 1;
          var w = measure(flag.texts[t], flag.className);
          var left = flag.x + w <= width ? flag.x : Math.max(0, flag.x - w);
          for (var r = 0; r < (last ? Math.min(most, rows.length + 1) : limit); r++) {
            if (fits(rows[r] || [], left, w)) {
              var box = {flag: flag, text: flag.texts[t], left: left, width: w, row: r};
              rows[r] = (rows[r] || []).concat([box]);
              placed.push(box);
              return;
            }
          }
        }
      });
    }

    return {add: add, placed: placed, count: function () {
      return rows.length;
    }};
  }

  /**
   * The strip above a chart's plot that names what it marks, laid out again at every redraw (so at every zoom).
   * Next to the plot the phases, in their colours (a phase too narrow for its name shows its number, explained in a
   * legend under the chart); above them the disruptions' names (a name that does not fit shows the disruption's
   * number in the list) and, where there is room in RECOVERY_ROWS rows (or as many as the names took), when the
   * workload recovered (one flag for the disruptions it recovered from at once) or "not recovered" at a disruption's
   * end. No two labels intersect. Each is an element with data-label (phase, disruption or recovery) and data-index
   * (the index into the run's phases or disruptions; for a recovery, the disruptions', space-separated); a click on
   * a disruption's zooms to it through `pick`.
   */
  function labelStrip(data, measure, pick) {
    var strip = document.createElement('div');
    strip.className = 'strip';
    var legend = document.createElement('div');
    legend.className = 'phase-legend';
    var tallest = 0; // in rows: the strip never shrinks, so a zoom does not move the charts below
    strip.addEventListener('click', function (e) {
      var flag = e.target.closest('[data-label="disruption"]');
      if (flag) {
        pick(Number(flag.dataset.index));
      }
    });

    function element(tag, className, text, label, index, title) {
      var e = document.createElement(tag);
      e.className = className;
      e.textContent = text;
      e.title = title;
      e.dataset.label = label;
      e.dataset.index = String(index);
      return e;
    }

    function describe(d, i) {
      return (i + 1) + '. ' + d.name + ': ' + seconds(d.start, d.end) + ', '
        + (d.happened ? d.recoveryText : 'not started');
    }

    /** The disruptions' flags and their recoveries' in view; recoveries at one moment share a flag. */
    function flags(u, width) {
      var names = [];
      var recoveries = [];
      var recoveredAt = {};
      data.disruptions.forEach(function (d, i) {
        var left = u.valToPos(d.start, 'x');
        var right = u.valToPos(d.end, 'x');
        var number = String(i + 1);
        if (right >= 0 && left <= width) {
          names.push({x: Math.max(0, left), className: 'flag disruption' + (d.happened ? '' : ' not-started'),
            texts: [d.name + (d.happened ? '' : ' (not started)'), number], label: 'disruption', index: i,
            title: describe(d, i)});
        }
        var recovered = d.recoveredAt != null;
        // Not judged (the next disruption or the phase's end came first): no flag, the list says why.
        var at = recovered ? u.valToPos(d.recoveredAt, 'x') : d.recovery === 'not recovered' ? right : null;
        if (at == null || at < 0 || at > width) {
          return;
        }
        var shared = recovered && recoveredAt[d.recoveredAt];
        if (shared) {
          shared.index += ' ' + i;
          shared.numbers.push(number);
          shared.texts = ['recovered from ' + shared.numbers.join(', '), '\u2713'];
          shared.title += '\n' + describe(d, i);
          return;
        }
        var flag = {x: at, className: 'flag ' + (recovered ? 'recovered' : 'not-recovered'),
          texts: [d.recoveryText, recovered ? '\u2713' : '\u2717'], label: 'recovery', index: String(i),
          numbers: [number], title: describe(d, i)};
        recoveries.push(flag);
        if (recovered) {
          recoveredAt[d.recoveredAt] = flag;
        }
      });
      return {names: names, recoveries: recoveries};
    }

    /** Draws the phases in view at `top`; returns the indexes of those not named in full. */
    function phases(u, width, top) {
      var unnamed = [];
      if (data.phases.length < 2) {
        return unnamed;
      }
      data.phases.forEach(function (phase, i) {
        var left = Math.max(0, u.valToPos(phase.start, 'x'));
        var right = Math.min(width, u.valToPos(phase.end, 'x'));
        if (right <= left) {
          return;
        }
        var number = String(i + 1);
        var text = measure(phase.name, 'phase') <= right - left ? phase.name
          : measure(number, 'phase') <= right - left ? number : '';
        var e = element('div', 'phase', text, 'phase', i, phase.name + ': ' + seconds(phase.start, phase.end)
          + (phase.measured ? '' : ', not measured'));
        e.style.left = left + 'px';
        e.style.width = (right - left) + 'px';
        e.style.top = top + 'px';
        e.style.background = phaseColour(phase, i, STRIP_ALPHA);
        strip.appendChild(e);
        if (text !== phase.name) {
          unnamed.push(i);
        }
      });
      return unnamed;
    }

    function showLegend(unnamed) {
      legend.textContent = '';
      legend.hidden = unnamed.length === 0;
      if (unnamed.length > 0) {
        legend.appendChild(document.createTextNode('Phases: '));
        unnamed.forEach(function (i, k) {
          var entry = document.createElement('span');
          entry.dataset.phaseLegend = String(i);
          entry.textContent = (k > 0 ? ' \u00b7 ' : '') + (i + 1) + ' ' + data.phases[i].name;
          legend.appendChild(entry);
        });
      }
    }

    return function layOut(u) {
      if (!strip.parentNode) {
        var wrap = u.root.querySelector('.u-wrap');
        u.root.insertBefore(strip, wrap);
        u.root.insertBefore(legend, wrap.nextSibling);
      }
      var width = u.bbox.width / px(1);
      strip.style.marginLeft = (u.bbox.left / px(1)) + 'px';
      strip.style.width = width + 'px';
      strip.textContent = '';
      var marks = flags(u, width);
      var rows = flagRows(measure, width);
      rows.add(marks.names, NAME_ROWS, Infinity);
      var room = Math.max(RECOVERY_ROWS, rows.count());
      rows.add(marks.recoveries, room, room);
      var phaseRows = data.phases.length < 2 ? 0 : 1;
      tallest = Math.max(tallest, rows.count() + phaseRows);
      var height = tallest * ROW;
      strip.style.height = height + 'px';
      var phasesTop = height - phaseRows * ROW;
      rows.placed.forEach(function (p) {
        var f = p.flag;
        var e = element('span', f.className + (p.left < f.x ? ' end' : ''), p.text, f.label, f.index, f.title);
        e.style.left = p.left + 'px';
        e.style.top = (phasesTop - (p.row + 1) * ROW) + 'px';
        strip.appendChild(e);
      });
      showLegend(phases(u, width, phasesTop));
    };
  }

  /**
   * Phases as alternating shaded bands (unmeasured ones grey), under the lines; disruptions as red spans from start
   * to end, over the lines, with when the workload recovered (a green dashed line). Their names are in the strip
   * above the plot.
   */
  function timelinePlugin(data, measure, pick) {
    var layOut = labelStrip(data, measure, pick);
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
            u.ctx.fillStyle = phaseColour(phase, i);
            u.ctx.fillRect(left, box.top, right - left, box.height);
          });
          u.ctx.restore();
        },
        draw: function (u) {
          var box = u.bbox;
          clipToPlot(u);
          data.disruptions.forEach(function (d) {
            var left = u.valToPos(d.start, 'x', true);
            var right = Math.max(u.valToPos(d.end, 'x', true), left + px(2));
            u.ctx.fillStyle = d.happened ? 'rgba(200,30,30,0.14)' : 'rgba(120,120,120,0.12)';
            u.ctx.fillRect(left, box.top, right - left, box.height);
            var edge = d.happened ? 'rgba(180,20,20,0.85)' : 'rgba(120,120,120,0.9)';
            var dash = d.happened ? [] : [4, 3];
            verticalLine(u, left, edge, dash);
            verticalLine(u, right, edge, dash);
            if (d.recoveredAt != null) {
              verticalLine(u, u.valToPos(d.recoveredAt, 'x', true), 'rgba(30,130,50,0.9)', [6, 3]);
            }
          });
          u.ctx.restore();
          layOut(u);
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
    var measure = textWidths();
    var anyRightAxis = data.charts.some(function (chart) {
      return chart.rightUnit != null;
    });
    var view = viewOf(x, x[0], x[x.length - 1], buckets());
    var pending = null;

    function finished() {
      document.body.dataset.points = String(x.length);
      document.body.dataset.drawnPoints = String(view.x.length);
      document.body.dataset.rendered = String(Object.keys(drawn).length);
      if (!document.body.dataset.loadMs) {
        document.body.dataset.loadMs = String(Math.round(performance.now()));
      }
    }

    function width() {
      return Math.max(400, host.clientWidth || document.documentElement.clientWidth - 64);
    }

    /** Buckets a chart draws across its width: about one per CSS pixel, so two points per pixel at most. */
    function buckets() {
      return Math.max(200, Math.round(width()));
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
      resampleSoon(min, max);
    }

    /**
     * Gives every chart the points for the view from min to max, once the zoom that asked for it has been drawn
     * (uPlot is inside its own commit when it tells of a zoom). Setting the same x range again makes uPlot range
     * its y axes over the new points, and tells of no zoom, so this does not repeat itself.
     */
    function resampleSoon(min, max, force) {
      if (!force && min === view.min && max === view.max) {
        return;
      }
      pending = {min: min, max: max};
      setTimeout(function () {
        if (pending == null) {
          return;
        }
        var want = pending;
        pending = null;
        view = viewOf(x, want.min, want.max, buckets());
        plots.forEach(function (p) {
          p.u.setData(values(p.chart), false);
          p.u.setScale('x', {min: want.min, max: want.max});
        });
        document.body.dataset.drawnPoints = String(view.x.length);
      }, 0);
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
          points: {show: function (u, si, i0, i1) {
            return i1 - i0 < MARKERS_UP_TO;
          }},
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
        plugins: [timelinePlugin(data, measure, pick)],
        hooks: {
          setScale: [followZoom],
          setSelect: [function () {
            mark(null); // a drag zooms elsewhere
          }],
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

    /** A chart's points at the current view. */
    function values(chart) {
      var log = chart.logScale && logScale;
      return [view.x].concat(chart.series.map(function (s) {
        var drawn = sampled(s.values, view);
        // A log scale has no place for 0: such points become gaps.
        return log ? drawn.map(function (v) {
          return v != null && v > 0 ? v : null;
        }) : drawn;
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

    /** Shows which disruption of the list the charts are zoomed to (none: null). */
    function mark(index) {
      document.querySelectorAll('#disruption-list [data-disruption]').forEach(function (b) {
        b.setAttribute('aria-pressed', String(Number(b.dataset.disruption) === index));
      });
    }

    /**
     * Zooms every chart to disruption `index`: from its start to its end or, when the workload recovered, to then,
     * with a quarter of that (at least three intervals) either side.
     */
    function pick(index) {
      var d = data.disruptions[index];
      var to = d.recoveredAt != null ? d.recoveredAt : d.end;
      var step = (x[x.length - 1] - x[0]) / Math.max(1, x.length - 1);
      var margin = Math.max((to - d.start) / 4, 3 * step);
      var min = Math.max(x[0], d.start - margin);
      var max = Math.min(x[x.length - 1], to + margin);
      if (!(max > min)) {
        return;
      }
      mark(index);
      plots[0].u.setScale('x', {min: min, max: max});
    }

    function wholeRun() {
      mark(null);
      plots.forEach(function (p) {
        p.u.setData(p.u.data, true);
      });
    }

    if (data.charts.length === 0) {
      finished();
      return;
    }
    data.charts.forEach(function (chart, i) {
      draw(chart, i, null);
    });

    host.addEventListener('dblclick', function () {
      mark(null); // uPlot shows the whole run
    });
    ['reset-zoom', 'whole-run'].forEach(function (id) {
      var button = document.getElementById(id);
      if (button) {
        button.addEventListener('click', wholeRun);
      }
    });
    document.querySelectorAll('#disruption-list [data-disruption]').forEach(function (b) {
      b.addEventListener('click', function () {
        pick(Number(b.dataset.disruption));
      });
    });
    // dashboard.html#disruption=3 opens zoomed to the list's third disruption.
    var linked = /^#disruption=(\d+)$/.exec(location.hash);
    if (linked && data.disruptions[linked[1] - 1]) {
      pick(linked[1] - 1);
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
        resampleSoon(plots[0].u.scales.x.min, plots[0].u.scales.x.max, true);
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
