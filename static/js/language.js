// The language menu of the site header: choosing a language changes it at once. Without
// JavaScript the form's button does it.
(function () {
  "use strict";
  function ready() {
    var form = document.querySelector(".language-form");
    if (!form) return;
    var button = form.querySelector(".language-form__button");
    if (button) button.classList.add("visually-hidden");
    var select = form.querySelector("select");
    if (!select) return;
    select.addEventListener("change", function () {
      if (form.requestSubmit) form.requestSubmit();
      else form.submit();
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
