// A box that scrolls sideways (a wide table on a phone, whose scroll bars phones hide) says
// so above it, and becomes a named region in the tab order, so the arrow keys scroll it
// (axe-core's scrollable-region-focusable). The page's <script> tag names the boxes
// (data-boxes, a CSS selector) and the hint's words (data-hint); a box whose own heading
// names it (data-heading: a selector inside it) puts that name in front of the hint; a box
// with its own data-hint (a chart: "swipe the chart") says that instead.
(function () {
  var me = document.currentScript;
  var boxes = me.getAttribute("data-boxes");
  var words = me.getAttribute("data-hint");
  var headingIn = me.getAttribute("data-heading");

  function titleOf(box) {
    var inside = headingIn && box.querySelector(headingIn);
    if (inside) { return inside.textContent.trim(); }
    var caption = box.querySelector("caption");
    if (caption && caption.textContent.trim()) { return caption.textContent.trim(); }
    var prev = box.previousElementSibling;
    while (prev && !/^H[1-6]$/.test(prev.tagName)) { prev = prev.previousElementSibling; }
    return (prev ? prev.textContent : document.title).trim();
  }

  function mark() {
    document.querySelectorAll(boxes).forEach(function (box) {
      var over = box.scrollWidth > box.clientWidth + 1;
      var hint = box.previousElementSibling;
      if (!hint || !hint.classList.contains("scroll-hint")) {
        if (!over) { return; }
        hint = document.createElement("p");
        hint.className = "scroll-hint";
        hint.setAttribute("aria-hidden", "true");
        var title = headingIn && box.querySelector(headingIn);
        hint.textContent = (title ? title.textContent.trim() + ": " : "") + (box.getAttribute("data-hint") || words);
        box.parentNode.insertBefore(hint, box);
      }
      hint.classList.toggle("on", over);
      if (over) {
        box.tabIndex = 0;
        box.setAttribute("role", "region");
        if (!box.hasAttribute("aria-label")) {
          box.setAttribute("aria-label", titleOf(box) + " (scrolls sideways)");
          box.dataset.named = "1";
        }
      } else if (box.getAttribute("role") === "region") {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        if (box.dataset.named) { box.removeAttribute("aria-label"); delete box.dataset.named; }
      }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mark);
  } else {
    mark();
  }
  window.addEventListener("resize", mark);
  // A page that draws its tables as it goes (the score sheet at the table) is marked again
  // after each drawing.
  var pending = false;
  var root = document.getElementById("main") || document.getElementById("content") || document.body;
  new MutationObserver(function () {
    if (pending) { return; }
    pending = true;
    requestAnimationFrame(function () { pending = false; mark(); });
  }).observe(root, {childList: true, subtree: true});
})();
