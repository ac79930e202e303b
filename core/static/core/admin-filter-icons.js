// Django's two-list selector (filter_horizontal: a season's teams) draws a search icon as
// an empty <span> with an aria-label, which a plain span may not carry (axe-core:
// aria-allowed-attr; a screen reader skips it). It is a picture of a magnifier that tells
// what the box beside it filters: given the role of an image, its label is read. Django
// builds the selector on the window's load, before this listener (added later) runs.
window.addEventListener("load", function () {
  document.querySelectorAll(".search-label-icon[aria-label]:not([role])").forEach(function (icon) {
    icon.setAttribute("role", "img");
  });
});
