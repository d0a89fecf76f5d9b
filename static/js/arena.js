// An arena page's time left (or time to its start), counted down each second from the seconds
// the server drew in #arena-standings (data-seconds-left), counting again from each push that
// draws it anew. Numbers only: no words here.
(function () {
  "use strict";
  var end = null;

  function read() {
    var shown = document.querySelector("#arena-standings [data-seconds-left]");
    end = shown ? performance.now() + 1000 * Number(shown.getAttribute("data-seconds-left")) : null;
  }

  function tick() {
    var clock = document.querySelector("#arena-standings [data-clock]");
    if (!clock || end === null) {
      return;
    }
    var seconds = Math.max(0, Math.ceil((end - performance.now()) / 1000));
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    clock.textContent = minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  read();
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    read();
    tick();
  });
  setInterval(tick, 1000);
})();
