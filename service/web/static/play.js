// The play page: keeps the seat's token, swaps in the server-rendered panel after every event
// (Server-Sent Events), and turns clicks on cards, lines, the row and the stack (on a hexagonal
// board: a cell, then the line to crack) into one of the commands the panel lists, which are
// exactly those GET /games/{id}/legal gives.
(function () {
  "use strict";
  const root = document.getElementById("game");
  if (!root) return;
  const gameId = root.dataset.gameId;
  const receipts = window.ArchipelagoReceipts;  // receipts.js
  const tokenKey = "archipelago:token:" + gameId;
  const panelBox = document.getElementById("panel");
  const message = document.getElementById("message");
  let version = Number(root.dataset.version);
  let selected = [];
  let source = null;
  let stream = null;
  let refreshing = null;

  // The token arrives in the fragment (never sent to a server) and is kept per game.
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("token")) {
    localStorage.setItem(tokenKey, fragment.get("token"));
    history.replaceState(null, "", location.pathname + location.search);
  }
  let token = localStorage.getItem(tokenKey);

  function auth() {
    return token ? { Authorization: "Bearer " + token } : {};
  }

  function say(text) {
    message.textContent = text;
  }

  function panel() {
    return panelBox.querySelector(".panel");
  }

  let lastPanel = null;

  async function refresh() {
    const answer = await fetch(root.dataset.panelUrl, { headers: auth(), cache: "no-store" });
    if (answer.status === 401 && token) {
      // A token this game does not know: forget it and watch instead.
      localStorage.removeItem(tokenKey);
      token = null;
      say("This link's seat is not valid for this game: you are watching.");
      return refresh();
    }
    if (!answer.ok) {
      say("The game could not be loaded (" + answer.status + ").");
      return;
    }
    const html = await answer.text();
    const incoming = document.createElement("template");
    incoming.innerHTML = html;
    const fresh = incoming.content.querySelector(".panel");
    const shownNow = panel();
    // Answers can overtake each other (a move's own refresh and the stream's): an older
    // panel is never drawn over a newer one, and an unchanged one is not re-drawn, so a
    // click on a button is never lost to a re-draw that changes nothing.
    if (shownNow && fresh && shownNow.dataset.seat === fresh.dataset.seat) {
      const before = Number(shownNow.dataset.version);
      const after = Number(fresh.dataset.version);
      if (after < before || (after === before && html === lastPanel)) return;
    }
    lastPanel = html;
    const focused = focusKey();
    panelBox.innerHTML = html;
    if (!panelBox.querySelector("#build-form")) buildOrders = [];
    showBuildOrders();
    refocus(focused);
    const shown = panel();
    version = Math.max(version, Number(shown.dataset.version));
    document.getElementById("viewer").textContent =
      shown.dataset.seat === "" ? "You are watching." : "You play as " + shown.dataset.seatName + ".";
    clearSelection();
    if (shown.dataset.finished === "true" && stream) {
      stream.close();
      stream = null;
    }
    if (shown.dataset.finished === "true") {
      keepTheEnd();
      watchRematch();
    }
  }

  // The end screen's rematch: asked for (or agreed to) by POST with this game's token; the
  // answer carries the new game's id and a fresh token of this person's new seat once every
  // person agreed. Until then the page asks every few seconds whether the others did.
  let rematchTimer = null;
  let rematchAsked = false;

  function rematchBox() {
    return panelBox.querySelector("#rematch");
  }

  async function askRematch() {
    const box = rematchBox();
    if (!box || !token) return;
    const answer = await fetch(box.dataset.url, { method: "POST", headers: auth() });
    if (!answer.ok) {
      let problem = {};
      try { problem = await answer.json(); } catch (error) { problem = {}; }
      say("Refused: " + (problem.detail || answer.statusText));
      return;
    }
    rematchAsked = true;
    const body = await answer.json();
    if (body.token) return openRematch(body);
    showRematch(body);
  }

  function openRematch(body) {
    localStorage.setItem("archipelago:token:" + body.rematch_id, body.token);
    location.assign("/play/" + encodeURIComponent(body.rematch_id));
  }

  function showRematch(body) {
    const box = rematchBox();
    if (!box) return;
    const mine = Number(box.dataset.seat);
    const status = box.querySelector("#rematch-status");
    const button = box.querySelector("#rematch-ask");
    if (body.rematch_id) {
      status.textContent = "The rematch is ready.";
      button.textContent = "Open the rematch";
      button.hidden = false;
    } else if (body.asked_by.indexOf(mine) >= 0) {
      status.textContent = "Rematch asked: waiting for the other player to accept.";
      button.hidden = true;
    } else if (body.asked_by.length) {
      status.textContent = "Your opponent offers a rematch with the seats swapped.";
      button.textContent = "Accept the rematch";
    }
  }

  async function watchRematch() {
    const box = rematchBox();
    if (!box || rematchTimer) return;
    const answer = await fetch(box.dataset.url, { cache: "no-store" });
    if (answer.ok) {
      const body = await answer.json();
      // Everyone agreed: fetch this seat's token of the new game with this game's token.
      if (body.rematch_id && rematchAsked) return askRematch();
      showRematch(body);
      if (body.rematch_id) return;
    }
    rematchTimer = setTimeout(function () { rematchTimer = null; watchRematch(); }, 1500);
  }

  // The end is often appended by no command of this page (the other seat's move, the scoring):
  // its receipt is asked for once, so the kept receipts vouch for the whole game.
  let endKept = false;
  async function keepTheEnd() {
    if (endKept) return;
    endKept = true;
    const answer = await fetch(root.dataset.apiUrl + "/receipt", { cache: "no-store" });
    if (answer.ok) await receipts.keep(await answer.json());
  }

  // The panel is replaced after every event: keyboard users keep their place in it.
  function focusKey() {
    const active = document.activeElement;
    if (!active || !panelBox.contains(active)) return null;
    if (active.id) return "#" + active.id;
    for (const name of ["data-command", "data-line", "data-island", "data-cell"]) {
      if (active.hasAttribute(name)) return "[" + name + "='" + CSS.escape(active.getAttribute(name)) + "']";
    }
    if (active.dataset.card) {
      return "#" + active.parentElement.id + " [data-card='" + CSS.escape(active.dataset.card) + "']";
    }
    return null;
  }

  function refocus(key) {
    if (!key) return;
    const again = panelBox.querySelector(key) || document.getElementById("status");
    if (again === document.getElementById("status")) again.setAttribute("tabindex", "-1");
    again.focus();
  }

  // Several events in a burst (a command and its consequences) cost one refresh.
  function scheduleRefresh() {
    if (refreshing) return;
    refreshing = setTimeout(function () {
      refreshing = null;
      refresh();
    }, 50);
  }

  function listen() {
    if (panel().dataset.finished === "true") return;
    // After a lost connection the browser resumes with Last-Event-ID; a new stream starts after
    // the last version this page has seen.
    stream = new EventSource(root.dataset.streamUrl + "?after=" + version);
    stream.onmessage = function (event) {
      version = Math.max(version, Number(event.lastEventId));
      scheduleRefresh();
    };
    stream.onerror = function () {
      if (stream && stream.readyState === EventSource.CLOSED) {
        stream = null;
        setTimeout(function () { listen(); scheduleRefresh(); }, 2000);
      }
    };
  }

  function commandButtons() {
    return Array.from(panelBox.querySelectorAll("#commands [data-command]"));
  }

  function cardsOf(button) {
    return button.dataset.cards ? button.dataset.cards.split(" ") : [];
  }

  // Whether a command uses every selected card (each as often as selected).
  function usesSelected(button) {
    const left = cardsOf(button);
    return selected.every(function (card) {
      const at = left.indexOf(card);
      if (at < 0) return false;
      left.splice(at, 1);
      return true;
    });
  }

  function sameCards(button) {
    return cardsOf(button).sort().join(" ") === selected.slice().sort().join(" ");
  }

  function matching(line) {
    return commandButtons().filter(function (button) {
      if (source && button.dataset.source !== source.kind) return false;
      if (source && source.card && button.dataset.drawn !== source.card) return false;
      if (line !== undefined && button.dataset.line !== line) return false;
      return usesSelected(button);
    });
  }

  function show(candidates) {
    const keep = new Set(candidates);
    commandButtons().forEach(function (button) {
      button.closest("li").hidden = !keep.has(button);
    });
    const lines = new Set(candidates.map(function (b) { return b.dataset.line; }));
    panelBox.querySelectorAll("#board [data-line]").forEach(function (line) {
      line.classList.toggle("target", selected.length > 0 && lines.has(line.dataset.line));
    });
    panelBox.querySelectorAll("#hand [data-card]").forEach(function (card, n) {
      card.setAttribute("aria-pressed", String(selectedIndexes.has(n)));
    });
    markHexTargets(candidates);
  }

  // A hexagonal board lights the cells a listed command names and, when a crack is to be
  // placed, the lines it may go on; only then do its lines take clicks.
  function hexBoard() {
    return panelBox.querySelector("#board svg.hex");
  }

  function markHexTargets(candidates) {
    const board = hexBoard();
    if (!board) return;
    const cells = new Set(candidates.map(function (b) { return b.dataset.cell; }).filter(Boolean));
    const cracks = new Set(candidates.map(function (b) { return b.dataset.crack; }).filter(Boolean));
    board.querySelectorAll("[data-cell].cell").forEach(function (cell) {
      cell.classList.toggle("target", cells.has(cell.dataset.cell));
    });
    board.querySelectorAll("[data-line]").forEach(function (line) {
      line.classList.toggle("target", cracks.has(line.dataset.line));
    });
    board.classList.toggle("cracking", cracks.size > 0);
  }

  let selectedIndexes = new Set();

  function clearSelection() {
    selected = [];
    selectedIndexes = new Set();
    source = null;
    if (panel()) show(commandButtons());
  }

  async function post(url, body) {
    const answer = await fetch(url, {
      method: "POST",
      headers: Object.assign({ "Content-Type": "application/json", "If-Match": '"' + version + '"' }, auth()),
      body: JSON.stringify(body),
    });
    if (answer.status === 412) {
      // Another move came first (the page had not shown it yet): show the game as it is now.
      say("The game moved on before your move arrived: here it is now; choose again.");
    } else if (!answer.ok) {
      let problem = {};
      try { problem = await answer.json(); } catch (error) { problem = {}; }
      say("Refused: " + (problem.detail || answer.statusText) + (problem.code ? " (" + problem.code + ")" : ""));
    } else {
      say("");
      const body = await answer.json();
      await receipts.keep(body.receipt);
    }
    await refresh();
  }

  function send(button) {
    post(root.dataset.apiUrl + "/commands", JSON.parse(button.dataset.command));
  }

  // A click that names a whole move sends it; one that leaves a choice narrows the list.
  function settle(candidates, complete) {
    show(candidates);
    if (complete && candidates.length === 1) {
      send(candidates[0]);
    } else if (candidates.length === 0) {
      say("No move matches that choice; the selection is cleared.");
      clearSelection();
    } else {
      say("");
    }
  }

  panelBox.addEventListener("click", function (event) {
    const target = event.target;
    const command = target.closest("[data-command]");
    if (command) return send(command);
    if (target.closest("#clear")) return clearSelection();
    if (target.closest("#rematch-ask")) return askRematch();
    if (target.closest("#abort")) return post(root.dataset.apiUrl + "/abort", {});
    const confirmBox = panelBox.querySelector("#resign-confirm");
    if (target.closest("#resign") && confirmBox) {
      confirmBox.hidden = false;
      target.closest("#resign").setAttribute("aria-expanded", "true");
      return confirmBox.querySelector("#resign-no").focus();
    }
    if (target.closest("#resign-no") && confirmBox) {
      confirmBox.hidden = true;
      panelBox.querySelector("#resign").setAttribute("aria-expanded", "false");
      return panelBox.querySelector("#resign").focus();
    }
    if (target.closest("#resign-yes")) return post(root.dataset.apiUrl + "/resign", {});
    if (target.closest("#undo")) return post(root.dataset.apiUrl + "/undo", { scope: "command" });
    const takeback = target.closest("#takeback");
    if (takeback) return post(root.dataset.apiUrl + "/takebacks", { to_version: Number(takeback.dataset.toVersion) });
    const handCard = target.closest("#hand [data-card]");
    if (handCard) {
      const index = Array.from(panelBox.querySelectorAll("#hand [data-card]")).indexOf(handCard);
      if (selectedIndexes.has(index)) {
        selectedIndexes.delete(index);
        selected.splice(selected.indexOf(handCard.dataset.card), 1);
      } else {
        selectedIndexes.add(index);
        selected.push(handCard.dataset.card);
      }
      source = null;
      const candidates = matching();
      // A card alone is a whole move only when nothing else uses it (a discard, a choice).
      const alone = candidates.filter(function (b) { return !b.dataset.line && sameCards(b); });
      return settle(candidates, alone.length === 1 && candidates.length === 1);
    }
    const rowCard = target.closest("#row [data-card]");
    if (rowCard) {
      selected = [];
      selectedIndexes = new Set();
      source = { kind: "face_up", card: rowCard.dataset.card };
      return settle(matching(), true);
    }
    if (target.closest("#stack")) {
      selected = [];
      selectedIndexes = new Set();
      source = { kind: "stack" };
      return settle(matching(), true);
    }
    const hex = target.closest("#board [data-hex]");
    if (hex) {
      const here = commandButtons().filter(function (b) { return b.dataset.hex === hex.dataset.hex; });
      return settle(here, true);
    }
    if (hexBoard()) {
      const hexLine = target.closest("#board [data-line]");
      if (hexLine) {
        return settle(commandButtons().filter(function (b) { return b.dataset.crack === hexLine.dataset.line; }), true);
      }
      const cell = target.closest("#board [data-cell]");
      if (cell) {
        return settle(commandButtons().filter(function (b) { return b.dataset.cell === cell.dataset.cell; }), true);
      }
      return;
    }
    const line = target.closest("#board [data-line]");
    if (line) {
      const candidates = matching(line.dataset.line).filter(sameCards);
      return settle(candidates.length ? candidates : matching(line.dataset.line), true);
    }
  });

  // The build phase's form (Conquest of Paradise): orders are written here, in the page, and
  // sent together by one EndBuild, so no one learns how many a player gave before all commit.
  let buildOrders = [];
  function showBuildOrders() {
    const list = panelBox.querySelector("#orders");
    if (!list || !panelBox.querySelector("#build-form")) return;
    list.replaceChildren();
    const shown = buildOrders.length ? buildOrders : [{ words: "none yet" }];
    shown.forEach(function (o) {
      const item = document.createElement("li");
      item.textContent = o.words;
      list.appendChild(item);
    });
  }
  panelBox.addEventListener("click", function (event) {
    const select = panelBox.querySelector("#build-item");
    if (event.target.closest("#build-add") && select && select.selectedIndex >= 0) {
      const option = select.options[select.selectedIndex];
      buildOrders.push({ order: JSON.parse(option.value), words: option.textContent });
    } else if (event.target.closest("#build-clear")) {
      buildOrders = [];
    } else {
      return;
    }
    showBuildOrders();
  });
  panelBox.addEventListener("submit", async function (event) {
    const form = event.target.closest("#build-form");
    if (!form) return;
    event.preventDefault();
    const orders = buildOrders.map(function (o) { return o.order; });
    await post(root.dataset.apiUrl + "/commands", { type: "EndBuild", orders: orders });
    if (!panelBox.querySelector("#build-form")) buildOrders = [];
    showBuildOrders();
  });

  // Lines and islands drawn as buttons answer the keyboard as buttons do.
  panelBox.addEventListener("keydown", function (event) {
    if (event.key === "Escape") return clearSelection();
    const button = event.target.closest("#board [data-line], #board [data-hex], #board [data-cell]");
    if ((event.key === "Enter" || event.key === " ") && button) {
      event.preventDefault();
      button.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    }
  });

  receipts.offer(document.getElementById("receipts-link"), document.getElementById("receipts-count"), function (r) {
    return r.game_id === gameId;
  });

  refresh().then(listen);
})();
