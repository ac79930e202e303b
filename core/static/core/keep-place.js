// A page that looks again by itself (odds still being worked out: templates/pages/
// _pending.html) keeps the reader's place across the reload: how far each sideways box (a
// bracket's region, a wide table) was scrolled and which named sections (<details id>, the
// what-if form) were open; the browser keeps the page's own scroll. While the reader is in
// a form's field (a what-if being chosen) the page waits to look again.
(function () {
  var key = "vabg-place:" + location.pathname + location.search;

  function boxes() {
    return Array.prototype.slice.call(document.querySelectorAll(".bracket, .scroll"));
  }

  var waiting = false;
  window.vabgLookAgain = function (wait) {
    var field = document.activeElement;
    if (field && field.form && /^(SELECT|INPUT|TEXTAREA)$/.test(field.tagName)) {
      if (!waiting) {  // one wait at a time, however often a page's timer asks
        waiting = true;
        setTimeout(function () { waiting = false; window.vabgLookAgain(wait); }, wait);
      }
      return;
    }
    try {
      sessionStorage.setItem(key, JSON.stringify({
        left: boxes().map(function (b) { return b.scrollLeft; }),
        open: Array.prototype.slice.call(document.querySelectorAll("details[id]"))
          .filter(function (d) { return d.open; })
          .map(function (d) { return d.id; })
      }));
    } catch (e) { /* no storage: the reload alone */ }
    location.reload();
  };

  var saved = null;
  try {
    saved = JSON.parse(sessionStorage.getItem(key) || "null");
    sessionStorage.removeItem(key);
  } catch (e) { saved = null; }
  if (!saved) { return; }

  function restore() {
    boxes().forEach(function (b, i) {
      if (saved.left && saved.left[i]) { b.scrollLeft = saved.left[i]; }
    });
    (saved.open || []).forEach(function (id) {
      var d = document.getElementById(id);
      if (d && d.tagName === "DETAILS") { d.open = true; }
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", restore);
  } else {
    restore();
  }
})();
