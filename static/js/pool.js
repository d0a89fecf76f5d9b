// The pool page's wait, counted up each second from the seconds the server drew
// (data-waited-seconds), counting from when the page showed it. Numbers only: no words here.
(function () {
  "use strict";
  var shown = document.getElementById("pool-waited");
  if (!shown) {
    return;
  }
  var start = performance.now() - 1000 * Number(shown.getAttribute("data-waited-seconds"));

  function tick() {
    var seconds = Math.floor((performance.now() - start) / 1000);
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    shown.textContent = minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  tick();
  setInterval(tick, 1000);
})();
