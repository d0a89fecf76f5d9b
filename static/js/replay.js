// A finished game's replay: the arrow keys step, Home and End go to the start and the end.
// Each key clicks the replay's own link, which htmx turns into a fragment request.
// htmx runs this script again each time it puts the page back from the browser's history: the
// keys are listened for once.
(function () {
  "use strict";
  if (window.takiReplayKeys) return;
  window.takiReplayKeys = true;
  var KEYS = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    var step = KEYS[event.key];
    if (!step || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && target.closest && target.closest("input, textarea, select")) return;
    var link = document.querySelector('#replay [data-step="' + step + '"]');
    if (!link) return;
    event.preventDefault();
    // A fragment just swapped in is taken over by htmx a moment later (when it settles): take
    // it over now, so that a quick key press steps by fragment, not by loading the page.
    if (window.htmx) window.htmx.process(link);
    link.click();
  });
})();
