// A pool's lock time in the fan's own time zone: the server writes it in its own (UTC), which
// a fan in New York had to convert to know how long he had; the server's words stay in the
// title.
(function () {
  "use strict";
  document.querySelectorAll("time[data-local]").forEach(function (node) {
    var when = new Date(node.getAttribute("datetime"));
    if (isNaN(when.getTime())) { return; }
    node.title = node.textContent;
    node.textContent = when.toLocaleString(undefined, {
      year: "numeric", month: "short", day: "numeric",
      hour: "2-digit", minute: "2-digit", timeZoneName: "short"
    });
  });
})();
