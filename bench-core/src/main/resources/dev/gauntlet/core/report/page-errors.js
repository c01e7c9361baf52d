/*
 * The pages' shared error reporting (dashboard.html, history.html), inlined first so it also hears a failure of the
 * scripts after it (uPlot's included): any script error is shown in #errors and added to body[data-error], the
 * contract the browser tests read. Pages call gauntletReportError(message) for errors they catch themselves.
 */
(function () {
  'use strict';

  function reportError(message) {
    var box = document.getElementById('errors');
    if (box) {
      box.hidden = false;
      box.textContent += message + '\n';
    }
    if (document.body) {
      var seen = document.body.dataset.error;
      document.body.dataset.error = seen ? seen + '; ' + message : message;
    }
  }

  window.gauntletReportError = reportError;
  window.onerror = function (message, source, line) {
    reportError(String(message) + (line ? ' (line ' + line + ')' : ''));
    return false;
  };
})();
