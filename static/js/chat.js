// The table's chat box: empty the input once its line went out over the socket, and keep each
// room's log scrolled to its newest line. No words here: every word is in the templates.
(function () {
  "use strict";

  function scrollLogs() {
    document.querySelectorAll(".chat__log").forEach(function (log) {
      log.scrollTop = log.scrollHeight;
    });
  }

  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target.closest ? event.target.closest("[data-chat-form]") : null;
    if (form) {
      form.reset();
    }
  });
  document.addEventListener("htmx:oobAfterSwap", scrollLogs);
  document.addEventListener("DOMContentLoaded", scrollLogs);
})();
