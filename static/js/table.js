// Counts down the turn clocks of the table page. Numbers only: every word is in the templates.
// The server renders each clock with the seconds left (data-seconds-left) when it sent the
// fragment; counting from the moment the element appears avoids trusting the browser's clock.
(function () {
  "use strict";
  var ends = new WeakMap();

  function tick() {
    var now = performance.now();
    document.querySelectorAll("[data-seconds-left]").forEach(function (clock) {
      if (!ends.has(clock)) {
        ends.set(clock, now + 1000 * Number(clock.getAttribute("data-seconds-left")));
      }
      var left = Math.max(0, Math.ceil((ends.get(clock) - now) / 1000));
      var text = String(left);
      if (clock.textContent !== text) {
        clock.textContent = text;
      }
    });
  }

  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", tick);
})();
