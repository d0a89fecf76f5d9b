// The site header's disclosure menus: on a phone the header's links fold behind the menu
// button (the CSS hides them while the button says it is closed), and a signed-in person's own
// links and log-out fold under their name. Without JavaScript the buttons stay hidden and the
// links wrap. A menu closes on its button, on Escape (the focus back on its button) and on a
// click outside it. No words here: every word is in the templates.
(function () {
  "use strict";
  var BUTTONS = ".menu-button, .account-menu__button";
  function buttons() {
    return Array.prototype.slice.call(document.querySelectorAll(BUTTONS));
  }
  function show() {
    buttons().forEach(function (found) {
      found.hidden = false;
    });
  }
  function isOpen(menu) {
    return menu.getAttribute("aria-expanded") === "true";
  }
  function set(menu, open) {
    menu.setAttribute("aria-expanded", open ? "true" : "false");
  }
  function holds(menu, target) {
    var list = document.getElementById(menu.getAttribute("aria-controls"));
    return menu.contains(target) || (list !== null && list.contains(target));
  }
  document.addEventListener("click", function (event) {
    var menu = event.target.closest && event.target.closest(BUTTONS);
    if (menu) set(menu, !isOpen(menu));
    buttons().forEach(function (open) {
      if (open !== menu && isOpen(open) && !holds(open, event.target)) set(open, false);
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    // The innermost open menu closes first: the one under the name, then the phone's.
    var open = buttons().filter(isOpen).reverse()[0];
    if (open) {
      set(open, false);
      open.focus();
    }
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", show);
  else show();
})();
