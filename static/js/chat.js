// The table's chat box: empty the input once its line went out over the socket, keep each
// room's log scrolled to its newest line, and, each time the table's socket opens (a reconnect
// after a dropped connection included), ask for the lines posted since the newest one shown,
// which the server sends like any new line; one that comes twice is kept once. No words here:
// every word is in the templates.
(function () {
  "use strict";

  var LINE = /^chat-line-(\d+)$/;

  function scrollLogs() {
    document.querySelectorAll(".chat__log").forEach(function (log) {
      log.scrollTop = log.scrollHeight;
    });
  }

  function newestLine() {
    var newest = 0;
    document.querySelectorAll(".chat__line[id^='chat-line-']").forEach(function (line) {
      var found = LINE.exec(line.id);
      if (found) {
        newest = Math.max(newest, Number(found[1]));
      }
    });
    return newest;
  }

  function dropRepeats() {
    var seen = {};
    document.querySelectorAll(".chat__line[id^='chat-line-']").forEach(function (line) {
      if (seen[line.id]) {
        line.remove();
      }
      seen[line.id] = true;
    });
  }

  document.addEventListener("htmx:wsOpen", function (event) {
    if (!document.querySelector(".chat__log")) {
      return;
    }
    var since = JSON.stringify({ type: "chat_since", after: String(newestLine()) });
    event.detail.socketWrapper.send(since);
  });
  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target.closest ? event.target.closest("[data-chat-form]") : null;
    if (form) {
      form.reset();
    }
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    dropRepeats();
    scrollLogs();
  });
  document.addEventListener("DOMContentLoaded", scrollLogs);
})();
