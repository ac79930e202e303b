// The entry page's bracket: click a team to send it on; a changed pick clears the later
// picks it no longer fits. Posts the whole set of picks as JSON (challenge.views.entry).
(function () {
  "use strict";
  var node = document.getElementById("bracket");
  var dataNode = document.getElementById("bracket-data");
  if (!node || !dataNode) { return; }
  var data = JSON.parse(dataNode.textContent);
  var editable = window.CHALLENGE_EDITABLE === true;
  var picks = {};
  Object.keys(data.picks).forEach(function (k) { picks[k] = data.picks[k]; });
  var input = document.getElementById("picks-input");
  var count = document.getElementById("picked-count");
  var unsaved = document.getElementById("unsaved");
  var cleared = document.getElementById("cleared");
  var form = document.getElementById("picks-form");
  var tiebreak = document.getElementById("tiebreak");
  // What the server holds: a page sent back with a refusal shows picks not saved yet.
  var savedPicks = data.unsaved ? null : canonical(picks);
  var savedTiebreak = tiebreak && !data.unsaved ? tiebreak.value : null;
  var nameBox = document.getElementById("entry-name");
  var savedName = nameBox && !data.unsaved ? nameBox.value : null;
  var leaving = false;
  // A draft of the picks not saved yet, kept in the browser (localStorage) for this entry
  // as saved at this version: a phone drops a tab left in the background, and a fan half
  // way through 95 games lost them all. Read back only over the same saved version (a save
  // from elsewhere since makes it stale); gone once saved.
  var versionBox = form ? form.querySelector('input[name="version"]') : null;
  var draftKey = "challenge-draft:" + window.location.pathname;
  var version = versionBox ? versionBox.value : "";

  function store() {
    try {
      if (dirty()) {
        window.localStorage.setItem(draftKey, JSON.stringify({
          version: version, picks: picks,
          tiebreak: tiebreak ? tiebreak.value : null, name: nameBox ? nameBox.value : null
        }));
      } else {
        window.localStorage.removeItem(draftKey);
      }
    } catch (e) { /* storage full or refused (private browsing): the page works without */ }
  }

  function restore() {
    var draft = null;
    try { draft = JSON.parse(window.localStorage.getItem(draftKey) || "null"); } catch (e) { return false; }
    if (!draft || draft.version !== version || !draft.picks) {
      try { window.localStorage.removeItem(draftKey); } catch (e) { /* nothing kept */ }
      return false;
    }
    var games = {};
    data.games.forEach(function (g) { games[g.key] = true; });
    picks = {};
    Object.keys(draft.picks).forEach(function (k) {
      if (games[k] && data.teams[String(draft.picks[k])]) { picks[k] = draft.picks[k]; }
    });
    if (tiebreak && typeof draft.tiebreak === "string") { tiebreak.value = draft.tiebreak; }
    if (nameBox && typeof draft.name === "string" && draft.name) { nameBox.value = draft.name; }
    return true;
  }

  function canonical(chosen) {
    return JSON.stringify(Object.keys(chosen).sort().map(function (k) { return [k, chosen[k]]; }));
  }

  function dirty() {
    return editable && (canonical(picks) !== savedPicks ||
      (tiebreak !== null && tiebreak.value !== savedTiebreak) ||
      (nameBox !== null && nameBox.value !== savedName));
  }

  function showDirty() {
    if (unsaved) { unsaved.hidden = !dirty(); }
    if (editable) { store(); }
  }

  if (form) { form.addEventListener("submit", function () { leaving = true; }); }
  if (tiebreak) { tiebreak.addEventListener("input", showDirty); }
  if (nameBox) { nameBox.addEventListener("input", showDirty); }
  // Leaving with picks not saved asks first (the browser's own question).
  window.addEventListener("beforeunload", function (event) {
    if (!leaving && dirty()) { event.preventDefault(); event.returnValue = ""; }
  });
  var lost = {};
  Object.keys(data.winners).forEach(function (key) {
    var both = entrantsOf(data.winners)[key];
    var w = data.winners[key];
    lost[both[0] === w ? both[1] : both[0]] = true;
  });

  function entrantsOf(chosen) {
    var out = {};
    data.games.forEach(function (g) {
      var side = function (s) { return s.team !== undefined ? s.team : chosen[s.from]; };
      out[g.key] = [side(g.top), side(g.bottom)];
    });
    return out;
  }

  function prune() {
    var teams = entrantsOf(picks);
    data.games.forEach(function (g) {
      var p = picks[g.key];
      if (p !== undefined && teams[g.key].indexOf(p) < 0) { delete picks[g.key]; teams = entrantsOf(picks); }
    });
  }

  // A pick's fate in words beside the colour and the line through its name: "out" (its
  // team lost before this game) or "missed" (the game went the other way), so that a
  // screen reader, a copy or a colour-blind fan reads it too.
  function fateMark(words) {
    var mark = document.createElement("span");
    mark.className = "out";
    mark.textContent = words;
    return mark;
  }

  function label(team) {
    var t = data.teams[String(team)];
    return t ? t : { name: "team " + team, seed: "" };
  }

  function render() {
    var teams = entrantsOf(picks);
    // Locked, a side the fan left unpicked shows the team that really played there.
    var actual = entrantsOf(data.winners);
    // Locked, every game shows the teams that really play it wherever they are known (a
    // pick already out is named under it); the fan's own entrants only where not yet.
    if (!editable) {
      data.games.forEach(function (g) {
        teams[g.key] = teams[g.key].map(function (t, i) { return actual[g.key][i] !== undefined ? actual[g.key][i] : t; });
      });
    }
    node.textContent = "";
    if (data.rounds.length > 2) {
      // A jump to each round, with its picks made, above the bracket: a 96-team bracket is
      // some 16 phone screens, and a team sent on from round 1 plays its next game 4,000 px
      // further down.
      var nav = document.getElementById("round-jump");
      if (!nav) {
        nav = document.createElement("nav");
        nav.id = "round-jump";
        nav.setAttribute("aria-label", "Rounds of the bracket");
        node.parentNode.insertBefore(nav, node);
      }
      nav.textContent = "";
      data.rounds.forEach(function (r, i) {
        var games = data.games.filter(function (g) { return g.round === r.number; });
        var made = games.filter(function (g) { return picks[g.key] !== undefined; }).length;
        var a = document.createElement("a");
        a.href = "#round-" + r.number;
        a.textContent = r.name + " " + made + "/" + games.length;
        if (i) { nav.appendChild(document.createTextNode(" · ")); }
        nav.appendChild(a);
      });
    }
    data.rounds.forEach(function (r) {
      var section = document.createElement("section");
      section.className = "round";
      section.id = "round-" + r.number;
      var h = document.createElement("h2");
      h.textContent = r.name + " (" + r.points + " point" + (r.points === 1 ? "" : "s") + " a pick)";
      section.appendChild(h);
      var list = document.createElement("ol");
      data.games.forEach(function (g) {
        if (g.round !== r.number) { return; }
        var li = document.createElement("li");
        li.className = "game";
        li.dataset.key = g.key;
        var where = document.createElement("div");
        where.className = "where";
        where.textContent = r.name + " · " + (g.region ? g.region + " · " : "") + "game " + g.position;
        where.id = "game-" + g.key;
        li.appendChild(where);
        teams[g.key].forEach(function (team) {
          var b = document.createElement("button");
          b.type = "button";
          b.className = "pick";
          b.setAttribute("aria-describedby", where.id);  // a screen reader names the game
          if (team === undefined) {
            b.className += " empty";
            b.textContent = editable ? "pick the game before" : "not picked, not played yet";
            b.disabled = true;
          } else {
            var t = label(team);
            var seed = document.createElement("span");
            seed.className = "seed";
            seed.textContent = t.seed;
            b.appendChild(seed);
            var name = document.createElement("span");
            name.className = "name";
            name.textContent = t.name;
            b.appendChild(name);
            b.dataset.team = team;
            b.setAttribute("aria-pressed", picks[g.key] === team ? "true" : "false");
            if (picks[g.key] === team) {
              var w = data.winners[g.key];
              if (w === team) { b.className += " hit"; }
              else if (w !== undefined) { b.className += " miss"; b.appendChild(fateMark("missed")); }
              else if (lost[team]) { b.className += " dead"; b.appendChild(fateMark("out")); }
            }
            if (data.winners[g.key] === team) {
              var won = document.createElement("span");
              won.className = "won";
              won.textContent = "won";
              b.appendChild(won);
            }
            b.disabled = !editable;
            b.addEventListener("click", function () {
              var before = Object.keys(picks).filter(function (k) { return k !== g.key; }).length;
              picks[g.key] = team;
              prune();
              // The later picks a change clears are far down a phone's page, out of sight
              // (and unannounced): the save bar says how many went.
              var gone = before - (Object.keys(picks).length - 1);
              if (cleared) {
                cleared.textContent = gone > 0 ? "Cleared " + gone + " later pick" + (gone === 1 ? "" : "s") + " it no longer fits" : "";
              }
              render();
              var again = node.querySelector('li[data-key="' + g.key + '"] button[data-team="' + team + '"]');
              if (again) { again.focus(); }
            });
          }
          li.appendChild(b);
        });
        var mine = picks[g.key];
        if (!editable && mine !== undefined && teams[g.key].indexOf(mine) < 0) {
          // The fan's pick is not in the game that is played: he lost before it.
          var note = document.createElement("p");
          note.className = "pick-out";
          note.textContent = "Your pick: " + label(mine).name + ", out";
          li.appendChild(note);
        }
        var winner = data.winners[g.key];
        if (winner !== undefined && teams[g.key].indexOf(winner) < 0) {
          var result = document.createElement("div");
          result.className = "result";
          result.textContent = "Won by " + label(winner).name;
          li.appendChild(result);
        }
        list.appendChild(li);
      });
      section.appendChild(list);
      node.appendChild(section);
    });
    if (input) { input.value = JSON.stringify(picks); }
    if (count) { count.textContent = Object.keys(picks).length + " of " + data.games.length + " picked"; }
    showDirty();
  }

  if (!editable) {
    try { window.localStorage.removeItem(draftKey); } catch (e) { /* nothing kept */ }
  } else if (!data.unsaved && restore()) {
    prune();
    var note = document.getElementById("draft-note");
    if (note) { note.hidden = false; }
  }
  render();
})();
