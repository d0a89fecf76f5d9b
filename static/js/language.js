// The language menu of the site header: choosing a language changes it at once. Without
// JavaScript the form's button does it.
(function () {
  "use strict";
  function hideButton() {
    var button = document.querySelector(".language-form .language-form__button");
    if (button) button.classList.add("visually-hidden");
  }
  document.addEventListener("change", function (event) {
    var select = event.target;
    if (!select || select.tagName !== "SELECT") return;
    var form = select.closest(".language-form");
    if (!form) return;
    if (form.requestSubmit) form.requestSubmit();
    else form.submit();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", hideButton);
  else hideButton();
})();
