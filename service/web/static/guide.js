// The guide of a first Kahuna game: a box above the board that says the next thing to do and
// why. It only reads the page (the panel play.js swaps in, the cards picked, the lit lines and
// the log) and never changes what the rules allow. The page is guided when its link carried
// `guide=kahuna` in the fragment, kept per game in this browser (play.js then drops the fragment).
(function () {
  "use strict";
  const root = document.getElementById("game");
  const box = document.getElementById("guide");
  if (!root || !box) return;
  const key = "archipelago:guide:" + root.dataset.gameId;
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("guide") === "kahuna") localStorage.setItem(key, "kahuna");
  if (localStorage.getItem(key) !== "kahuna") return;

  const panelBox = document.getElementById("panel");
  const step = document.getElementById("guide-step");
  const why = document.getElementById("guide-why");
  const note = document.getElementById("guide-note");
  let turnStartedAt = null;  // the panel's version when this seat's turn began
  let scheduled = false;

  const SCORING = "After the first round the player with more islands scores 1 point, after the " +
    "second 2 points, and after the third the difference between the two counts of islands.";
  const MAJORITY = "Hold more than half of the lines around an island and the island is yours: " +
    "your opponent's bridges on it are removed at once.";

  function panel() { return panelBox.querySelector(".panel"); }

  function offeredTypes() {
    return Array.from(panelBox.querySelectorAll("#commands [data-command]")).map(function (b) {
      return b.dataset.type;
    });
  }

  // Where a draw may come from now: the stack runs out before the face-up row does.
  function drawFrom() {
    const stack = panelBox.querySelector('#commands [data-type="DrawCard"][data-source="stack"]');
    return stack ? "click a face-up card or the stack" : "click a face-up card (the stack is empty)";
  }

  function picked() {
    return Array.from(panelBox.querySelectorAll("#hand [data-card][aria-pressed=true]")).map(function (c) {
      return c.dataset.card;
    });
  }

  function litLines() { return panelBox.querySelectorAll("#board [data-line].target").length; }

  // What the last move did to the islands, as the log says it: "Ann takes LALE".
  function taken() {
    const newest = panelBox.querySelector("#log li");
    const found = newest && newest.textContent.match(/(\S+) takes ([A-Z][A-Z'-]{2,})\b/);
    return found ? found[1] + " took " + found[2] + ". " + MAJORITY : "";
  }

  function situation(shown) {
    const types = offeredTypes();
    if (shown.dataset.finished === "true") {
      const result = panelBox.querySelector("#result p");
      return ["over", "The game is over" + (result ? ": " + result.textContent.trim() : ".") +
        " Start another from the lobby, or read the rules to learn the attacks.", SCORING];
    }
    const status = panelBox.querySelector("#status");
    if (status && status.dataset.phase === "scoring") {
      return ["scoring", "The round has ended: it is being scored.", SCORING];
    }
    if (shown.dataset.yourTurn !== "true") {
      return ["waiting", "The computer is playing its turn. Watch its bridges appear on the board.",
        "Each of its bridges counts against you on both islands it joins."];
    }
    const cards = picked();
    if (cards.length === 1) {
      if (!litLines()) {
        return ["stuck", "No free line touches " + cards[0] + ": click the card again to put it back, " +
          "and pick another.", "A card only builds on a line that touches the island it names."];
      }
      return ["line", "Now click one of the lit lines on the board.",
        "Your card names " + cards[0] + ": the lit lines are the free ones that touch it. A bridge " +
        "counts on both islands it joins."];
    }
    if (cards.length > 1) {
      return ["attack", "With two cards you can take away an opponent's bridge whose ends they name: " +
        "click a lit line, or click a card again to put it back.",
        "Removing a bridge can cost your opponent an island."];
    }
    const canPlace = types.indexOf("PlaceBridge") >= 0;
    const canDraw = types.indexOf("DrawCard") >= 0;
    const acted = turnStartedAt !== null && Number(shown.dataset.version) > turnStartedAt;
    const canEnd = types.indexOf("SkipDraw") >= 0 || types.indexOf("EndTurn") >= 0;
    const mustDiscard = !canDraw && types.indexOf("DiscardCards") >= 0;
    if (canPlace && acted && mustDiscard) {
      // A round's scoring can land after the turn began, so "acted" may hold with a full hand.
      return ["discard", "You may place more bridges; to end your turn, your hand is full: throw " +
        "away at least one card first (choose under Your moves), then draw.",
        "You may hold at most five cards, and every turn ends with one draw."];
    }
    if (canPlace && acted) {
      return ["more", canDraw || !canEnd
        ? "You may place more bridges, or draw a card to end your turn: " + drawFrom() + "."
        : "You may place more bridges, or end your turn under Your moves: no card is left to draw.",
        MAJORITY];
    }
    if (canPlace) {
      return ["card", "Your turn: pick a card from your hand.",
        "The card names an island: the bridge you then place must touch that island."];
    }
    if (mustDiscard) {
      return ["discard", "Your hand is full: throw away at least one card (choose under Your moves), " +
        "then draw.", "You may hold at most five cards, and every turn ends with one draw."];
    }
    if (canDraw) {
      return ["draw", "Draw a card to end your turn: " + drawFrom() + ".",
        "Every turn ends with one draw; you may hold at most five cards."];
    }
    if (canEnd) {
      return ["end", "End your turn under Your moves: no card is left to draw.",
        "A turn ends with a draw only while there are cards to draw."];
    }
    return ["choose", "Choose one of the moves listed under Your moves.", "They are the only moves the rules allow now."];
  }

  function update() {
    scheduled = false;
    const shown = panel();
    if (!shown || shown.dataset.seat === "") { box.hidden = true; return; }
    const version = Number(shown.dataset.version);
    if (shown.dataset.yourTurn === "true") {
      if (turnStartedAt === null) turnStartedAt = version;
    } else {
      turnStartedAt = null;
    }
    const [name, what, reason] = situation(shown);
    box.hidden = false;
    box.dataset.situation = name;
    box.dataset.version = shown.dataset.version;  // which panel these words are about
    if (step.textContent !== what) step.textContent = what;
    if (why.textContent !== reason) why.textContent = reason;
    const told = name === "over" ? "" : taken();
    if (note.textContent !== told) note.textContent = told;
    note.hidden = !told;
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(update);
  }

  new MutationObserver(schedule).observe(panelBox, {
    childList: true, subtree: true, attributes: true, attributeFilter: ["aria-pressed", "class"],
  });
  document.getElementById("guide-off").addEventListener("click", function () {
    localStorage.removeItem(key);
    box.hidden = true;
    box.dataset.situation = "off";
  });
  schedule();
})();
