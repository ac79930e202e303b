// A page that looks again by itself (odds still being worked out: templates/pages/
// _pending.html) keeps the reader's place across the reload: how far each sideways box (a
// bracket's region, a wide table) was scrolled and which named sections (<details id>, the
// what-if form) were open, and where the keyboard's focus was (a keyboard or screen-reader
// reader tabbed to a link went back to the top of the page at every stored game of a run);
// the browser keeps the page's own scroll. While the reader is in a form's field (a what-if
// being chosen) the page waits to look again.
(function () {
  var key = "vabg-place:" + location.pathname + location.search;
  var FOCUSABLE = "a[href], button, summary, input, select, textarea, [tabindex]";

  function boxes() {
    return Array.prototype.slice.call(document.querySelectorAll(".bracket, .scroll"));
  }

  function focusables() {
    return Array.prototype.slice.call(document.querySelectorAll(FOCUSABLE));
  }

  // The focused element as the page after the reload can find it again: by its id, else by
  // what it is (its tag, address and words) and, among the elements alike, which one.
  function focusMark() {
    var el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) { return null; }
    if (el.id) { return { id: el.id }; }
    var mark = { tag: el.tagName, href: el.getAttribute("href") || "",
                 text: (el.textContent || "").trim().slice(0, 200) };
    mark.nth = focusables().filter(function (e) { return alike(e, mark); }).indexOf(el);
    return mark;
  }

  function alike(el, mark) {
    return el.tagName === mark.tag && (el.getAttribute("href") || "") === mark.href &&
      (el.textContent || "").trim().slice(0, 200) === mark.text;
  }

  function refocus(mark) {
    var el = null;
    if (mark.id) {
      el = document.getElementById(mark.id);
    } else {
      var found = focusables().filter(function (e) { return alike(e, mark); });
      el = found[mark.nth] || found[0] || null;
    }
    if (el) { el.focus({ preventScroll: true }); }
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
          .map(function (d) { return d.id; }),
        focus: focusMark()
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
    if (saved.focus) { refocus(saved.focus); }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", restore);
  } else {
    restore();
  }
})();
