// Signing out forgets the drafts of picks not saved yet (picks.js keeps them in the
// browser's localStorage): on a shared computer the next person could read them there.
(function () {
  "use strict";
  document.querySelectorAll("form[data-clears-drafts]").forEach(function (form) {
    form.addEventListener("submit", function () {
      try {
        Object.keys(window.localStorage).forEach(function (key) {
          if (key.indexOf("challenge-draft:") === 0) { window.localStorage.removeItem(key); }
        });
      } catch (e) { /* storage refused (private browsing): no draft was kept */ }
    });
  });
})();
