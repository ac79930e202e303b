// A board game's replay (templates/pages/games/*_replay.html): the arrow keys step through
// the turns, Home and End jump to the first and last, but only when the key is not the
// reader's for something else: typing in a field (the header's search: "duke" then the left
// arrow went to another turn, the words lost), a box that scrolls (the court's sideways box
// on a phone, the play-by-play), or a key held with a modifier (the browser's own).
(function () {
  "use strict";
  var STEPS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

  function scrolls(box) {
    return box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight;
  }

  function othersKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return true; }
    var el = e.target;
    if (!el || el === document.body || el === document.documentElement) { return false; }
    if (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)) { return true; }
    for (; el && el !== document.body; el = el.parentElement) {
      if (el.matches(".scroll, .pbp, [tabindex]") && scrolls(el)) { return true; }
    }
    return false;
  }

  document.addEventListener("keydown", function (e) {
    var link = STEPS[e.key] && document.getElementById(STEPS[e.key]);
    if (link && !othersKey(e)) {
      e.preventDefault();
      window.location = link.href;
    }
  });
})();
