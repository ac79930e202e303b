// On a phone Django's admin stacks a list's filters under the list (responsive.css): the
// commissioner scrolled past 96 teams to narrow them by conference. The stylesheet in
// base_site.html puts them first; here every filter starts folded to its heading, which
// names the choice narrowing the list ("By conference: Big 12"), so the rows still begin
// near the top. Loaded deferred: after Django's filters.js restored the folds it keeps.
(function () {
  var filters = document.getElementById("changelist-filter");
  if (!filters || !window.matchMedia("(max-width: 767px)").matches) {
    return;
  }
  filters.querySelectorAll("details[data-filter-title]").forEach(function (filter) {
    var chosen = filter.querySelector("li.selected");
    var summary = filter.querySelector("summary");
    if (summary && chosen && chosen !== filter.querySelector("li")) {
      // Only the end trimmed: the heading's leading space sits after Django's arrow.
      summary.textContent = summary.textContent.replace(/\s+$/, "") + ": " + chosen.textContent.trim();
    }
    filter.open = false;
  });
})();
