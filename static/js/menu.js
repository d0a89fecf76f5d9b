// The site header's menu button: on a phone the header's links fold behind it (the CSS hides
// them while the button says it is closed). Without JavaScript the button stays hidden and the
// links wrap. No words here: every word is in the templates.
// The page listens for the button rather than holding it: htmx puts a page back from the
// browser's history in place of the body, header and all.
(function () {
  "use strict";
  function button() {
    return document.querySelector(".menu-button");
  }
  function show() {
    var found = button();
    if (found) found.hidden = false;
  }
  function set(menu, open) {
    menu.setAttribute("aria-expanded", open ? "true" : "false");
  }
  document.addEventListener("click", function (event) {
    var menu = event.target.closest && event.target.closest(".menu-button");
    if (menu) set(menu, menu.getAttribute("aria-expanded") !== "true");
  });
  document.addEventListener("keydown", function (event) {
    var menu = button();
    if (event.key === "Escape" && menu && menu.getAttribute("aria-expanded") === "true") {
      set(menu, false);
      menu.focus();
    }
  });
  document.addEventListener("htmx:historyRestore", show);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", show);
  else show();
})();
