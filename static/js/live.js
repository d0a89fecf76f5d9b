// The live connection's last word. When the server closes a page's websocket for good (logged
// out, not allowed, too many messages, too many pages from one address), htmx's ws extension
// does not reconnect, and the page would go quiet: this shows why, in the words the page holds
// for that close code (#socket-closed's data-close-<code>). No words here.
(function () {
  "use strict";

  function notice() {
    return document.getElementById("socket-closed");
  }

  document.addEventListener("htmx:wsClose", function (event) {
    var shown = notice();
    var closed = event.detail && event.detail.event;
    var words = shown && closed && shown.getAttribute("data-close-" + closed.code);
    if (words) {
      shown.textContent = words;
    }
  });
  document.addEventListener("htmx:wsOpen", function () {
    var shown = notice();
    if (shown) {
      shown.textContent = "";
    }
  });
})();
