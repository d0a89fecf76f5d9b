// The site header's menu button: on a phone the header's links fold behind it (the CSS hides
// them while the button says it is closed). Without JavaScript the button stays hidden and the
// links wrap. No words here: every word is in the templates.
(function () {
  "use strict";
  function ready() {
    var button = document.querySelector(".menu-button");
    if (!button) return;
    button.hidden = false;
    function set(open) {
      button.setAttribute("aria-expanded", open ? "true" : "false");
    }
    button.addEventListener("click", function () {
      set(button.getAttribute("aria-expanded") !== "true");
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
        set(false);
        button.focus();
      }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
