// DRF's browsable API, as templates/rest_framework/api.html includes it inline: what its own base
// template leaves out for a screen reader, set once the page has loaded.
(function () {
  "use strict";
  // The page's language (DRF's <html> has none, and no block to give it one).
  if (!document.documentElement.lang) {
    document.documentElement.lang = "en";
  }
  // The format menus' caret buttons: their only words are a title, which Bootstrap's
  // tooltip moves into data-original-title, leaving the button without a name.
  document.querySelectorAll(".dropdown-toggle").forEach(function (button) {
    var words = button.getAttribute("data-original-title") || button.getAttribute("title");
    if (words && !button.textContent.trim() && !button.getAttribute("aria-label")) {
      button.setAttribute("aria-label", words);
    }
  });
})();
