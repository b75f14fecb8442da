// The play page: keeps the seat's token, swaps in the server-rendered panel after every event
// (Server-Sent Events), and turns clicks on cards, lines, the row and the stack (on a hexagonal
// board: a cell, then the line to crack) into one of the commands the panel lists, which are
// exactly those GET /games/{id}/legal gives. A seat that signs its moves signs each (signing.js).
(function () {
  "use strict";
  const root = document.getElementById("game");
  if (!root) return;
  const gameId = root.dataset.gameId;
  const receipts = window.ArchipelagoReceipts;  // receipts.js
  const keyboard = window.ArchipelagoKeyboard;  // keyboard.js
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
    if (!text) hideBubble();
  }

  // A refusal is also shown beside what was clicked, where the player is looking; the alert
  // region above (#message) is what screen readers announce, so the bubble is hidden from them.
  const bubble = document.createElement("p");
  bubble.id = "refusal";
  bubble.className = "refusal";
  bubble.hidden = true;
  bubble.setAttribute("aria-hidden", "true");
  document.body.appendChild(bubble);

  function hideBubble() {
    bubble.hidden = true;
  }

  let lastRefusal = null;

  function refuse(text, near) {
    lastRefusal = text;
    message.textContent = text;
    bubble.textContent = text;
    bubble.hidden = false;
    const box = near && near.isConnected ? near.getBoundingClientRect() : message.getBoundingClientRect();
    bubble.style.left = Math.max(4, window.scrollX + box.left) + "px";
    bubble.style.top = window.scrollY + box.bottom + 6 + "px";
  }

  function refusals() {
    try { return JSON.parse(panel().dataset.refusals || "{}"); } catch (error) { return {}; }
  }

  // Why a click matched none of the seat's moves, with the rule when the page knows it.
  function whyNot(clicked) {
    const known = refusals();
    if (known.turn) return known.turn;
    const line = clicked && clicked.closest("#board [data-line]");
    if (line && known.lines && known.lines[line.dataset.line]) return known.lines[line.dataset.line];
    if (line && selected.length && !hexBoard()) {
      const ends = line.dataset.line.split("-");
      if (!selected.some(function (card) { return ends.indexOf(card) >= 0; })) {
        return "A bridge needs a card of one of its islands: " + ends.join(" or ") + ".";
      }
    }
    if (line && !selected.length && !source && !hexBoard()) return "Pick a card of your hand first, then the line.";
    const place = clicked && clicked.closest("#board [data-hex], #board [data-cell]");
    if (place) return "None of your moves acts at " + (place.dataset.hex || place.dataset.cell) + " now.";
    return "None of your moves fits that choice; the selection is cleared.";
  }

  function panel() {
    return panelBox.querySelector(".panel");
  }

  // The holder's own seat link, built from the token this browser holds: never another seat's.
  function showSeatLink(shown) {
    const box = document.getElementById("seat-link");
    if (!box) return;
    const seated = Boolean(token) && shown.dataset.seat !== "";
    box.hidden = !seated;
    document.getElementById("seat-link-field").value =
      seated ? location.origin + location.pathname + "#token=" + encodeURIComponent(token) : "";
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
    const drawnBefore = shownNow ? Number(shownNow.dataset.version) : 0;
    const focused = focusKey();
    panelBox.innerHTML = html;
    if (!panelBox.querySelector("#build-form")) buildOrders = [];
    showBuildOrders();
    refocus(focused);
    const shown = panel();
    version = Math.max(version, Number(shown.dataset.version));
    document.getElementById("viewer").textContent =
      shown.dataset.seat === "" ? "You are watching." : "You play as " + shown.dataset.seatName + ".";
    showSeatLink(shown);
    clearSelection();
    keyboard.rove(panelBox, document.activeElement);
    hideBubble();
    // A refusal speaks of the game as it was: once it moves on, the words are stale.
    if (Number(shown.dataset.version) > drawnBefore && message.textContent === lastRefusal) say("");
    markLastMove(shown);
    announceTurn(shown);
    showSigning();
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

  // The token goes in the fragment, as an invite link's does: a signed-in person's account keeps
  // the new seat too (accounts.js).
  function openRematch(body) {
    localStorage.setItem("archipelago:token:" + body.rematch_id, body.token);
    location.assign("/play/" + encodeURIComponent(body.rematch_id) + "#token=" + encodeURIComponent(body.token));
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

  // The board outlines what the last turn touched: its lines, islands, cells or hexes.
  function markLastMove(shown) {
    let spots = [];
    try { spots = JSON.parse(shown.dataset.lastMove || "[]"); } catch (error) { spots = []; }
    const wanted = new Set(spots);
    panelBox.querySelectorAll("#board [data-line], #board [data-island], #board [data-cell], #board [data-hex]")
      .forEach(function (spot) {
        const hook = spot.dataset.line || spot.dataset.island || spot.dataset.cell || spot.dataset.hex;
        spot.classList.toggle("last-move", wanted.has(hook));
      });
  }

  // The tab's title says when it is this seat's turn; a notification and a chime too, once the
  // player has asked for them (the browser's permission is asked on that click, never before).
  const gameTitle = root.dataset.title || document.title;
  const quietTitle = document.title;
  const notifyKey = "archipelago:notify";
  const notifyButton = document.getElementById("notify");
  let wasYourTurn = null;
  let chime = null;

  function announceTurn(shown) {
    const yours = shown.dataset.yourTurn === "true";
    document.title = yours ? "\u25CF Your turn \u2014 " + gameTitle : quietTitle;
    if (notifyButton) notifyButton.hidden = shown.dataset.seat === "" || !("Notification" in window);
    if (yours && wasYourTurn === false) remind();
    wasYourTurn = yours;
  }

  function wantsReminders() {
    return localStorage.getItem(notifyKey) === "yes" && "Notification" in window && Notification.permission === "granted";
  }

  function remind() {
    if (!wantsReminders()) return;
    if (document.hidden) new Notification("Your turn \u2014 " + gameTitle, { tag: "archipelago-" + gameId });
    if (chime) {
      const now = chime.currentTime;
      const tone = chime.createOscillator();
      const level = chime.createGain();
      tone.frequency.value = 660;
      level.gain.setValueAtTime(0.15, now);
      level.gain.exponentialRampToValueAtTime(0.001, now + 0.4);
      tone.connect(level).connect(chime.destination);
      tone.start(now);
      tone.stop(now + 0.4);
    }
  }

  function showReminderChoice() {
    if (!notifyButton) return;
    notifyButton.textContent = wantsReminders() ? "Stop telling me when it is my turn" : "Tell me when it is my turn";
  }

  if (notifyButton) {
    showReminderChoice();
    notifyButton.addEventListener("click", async function () {
      if (wantsReminders()) {
        localStorage.removeItem(notifyKey);
      } else if ((await Notification.requestPermission()) === "granted") {
        localStorage.setItem(notifyKey, "yes");
        if (!chime && window.AudioContext) chime = new AudioContext();
      } else {
        say("The browser does not allow notifications for this page; the tab's title still says when it is your turn.");
      }
      showReminderChoice();
    });
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
    keyboard.rove(panelBox, document.activeElement);
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

  // Signed moves (signing.js): a seat that registered a key signs each of its commands, over the
  // game, the version its If-Match names and the command; only the browser that keeps the key can.
  const signing = window.ArchipelagoSigning;
  const OTHER_BROWSER = "This seat's moves are signed by a key kept in another browser: make your " +
    "moves from the browser where you chose to sign them. This browser cannot move for this seat.";
  const NO_WEBCRYPTO = "This seat's moves are signed, and this browser cannot sign them (it needs " +
    "WebCrypto and IndexedDB, over https): make your moves from the browser that holds the key.";

  function seatSigning() {
    const shown = panel();
    try { return shown ? JSON.parse(shown.dataset.signing || "null") : null; } catch (error) { return null; }
  }

  // Why this browser cannot sign for the seat; "" when it can (or the seat signs nothing).
  async function signingFault() {
    const seatKey = seatSigning();
    if (!seatKey || !seatKey.signs) return "";
    if (!signing || !signing.supported()) return NO_WEBCRYPTO;
    try {
      return (await signing.isMine(seatKey.key)) ? "" : OTHER_BROWSER;
    } catch (error) {
      return NO_WEBCRYPTO;  // IndexedDB refused (a private window, storage blocked)
    }
  }

  async function showSigning() {
    const box = document.getElementById("signing");
    if (!box) return;
    const seatKey = seatSigning();
    const offer = box.querySelector("#sign-moves");
    const words = box.querySelector("#signing-status");
    if (!seatKey || (!seatKey.signs && !seatKey.offer)) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.dataset.state = "offered";
    if (seatKey.signs) {
      const fault = await signingFault();
      box.dataset.state = fault ? "elsewhere" : "signing";
      words.textContent = fault || "Your moves in this game are signed by this browser's key: the record shows you made them.";
      offer.hidden = true;
    } else if (!signing || !signing.supported()) {
      words.textContent = "This browser cannot sign moves here (it needs WebCrypto and IndexedDB, over https).";
      offer.hidden = true;
    } else {
      words.textContent = "You may sign your moves: this browser then keeps a key that signs each of them, so the " +
        "game's record shows you made them. Your moves in this game must then be made from this browser.";
      offer.hidden = false;
    }
  }

  async function registerKey() {
    const sent = version;
    let answer;
    try {
      const publicKey = await signing.publicJwk();
      answer = await fetch(root.dataset.apiUrl + "/key", {
        method: "POST",
        headers: Object.assign({ "Content-Type": "application/json", "If-Match": '"' + sent + '"' }, auth()),
        body: JSON.stringify({ public_key: publicKey }),
      });
    } catch (error) {
      say("This browser could not make its key: " + error.message + ".");
      return;
    }
    if (answer.ok) {
      say("");
      await receipts.keep((await answer.json()).receipt);
    } else if (answer.status === 412) {
      say("The game moved on before your key arrived: here it is now; choose again.");
    } else {
      let problem = {};
      try { problem = await answer.json(); } catch (error) { problem = {}; }
      say("Refused: " + (problem.detail || answer.statusText));
    }
    await refresh();
  }

  const signButton = document.getElementById("sign-moves");
  if (signButton) signButton.addEventListener("click", registerKey);

  // `command` is what the service records ({type, ...args}); for /commands it is the body itself.
  async function post(url, body, clicked, command) {
    const sent = version;
    const headers = Object.assign({ "Content-Type": "application/json", "If-Match": '"' + sent + '"' }, auth());
    const seatKey = seatSigning();
    if (seatKey && seatKey.signs) {
      const fault = await signingFault();
      if (fault) return refuse(fault, clicked);
      try {
        headers["Archipelago-Signature"] = await signing.sign(gameId, sent, Number(panel().dataset.seat), command || body);
      } catch (error) {
        return refuse("This browser could not sign the move: " + error.message + ".", clicked);
      }
    }
    const answer = await fetch(url, { method: "POST", headers: headers, body: JSON.stringify(body) });
    if (answer.status === 412) {
      // Another move came first (the page had not shown it yet): show the game as it is now.
      say("The game moved on before your move arrived: here it is now; choose again.");
    } else if (!answer.ok) {
      let problem = {};
      try { problem = await answer.json(); } catch (error) { problem = {}; }
      const detail = String(problem.detail || answer.statusText || "the service refused the move");
      refuse(detail.charAt(0).toUpperCase() + detail.slice(1) + (/[.!?]$/.test(detail) ? "" : "."), clicked);
    } else {
      say("");
      const body = await answer.json();
      await receipts.keep(body.receipt);
    }
    await refresh();
  }

  function send(button, clicked) {
    post(root.dataset.apiUrl + "/commands", JSON.parse(button.dataset.command), clicked || button);
  }

  // A click that names a whole move sends it; one that leaves a choice narrows the list.
  function settle(candidates, complete, clicked) {
    show(candidates);
    if (complete && candidates.length === 1) {
      send(candidates[0], clicked);
    } else if (candidates.length === 0) {
      refuse(whyNot(clicked), clicked);
      clearSelection();
    } else {
      say("");
    }
  }

  panelBox.addEventListener("click", function (event) {
    const target = event.target;
    const command = target.closest("[data-command]");
    hideBubble();
    // A chime may sound only after a gesture on the page: any click of a player who opted in.
    if (!chime && window.AudioContext && wantsReminders()) chime = new AudioContext();
    if (command) return send(command);
    if (target.closest("#clear")) return clearSelection();
    if (target.closest("#rematch-ask")) return askRematch();
    if (target.closest("#abort")) return post(root.dataset.apiUrl + "/abort", {}, null, { type: "Abort" });
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
    if (target.closest("#resign-yes")) return post(root.dataset.apiUrl + "/resign", {}, null, { type: "Resign" });
    if (target.closest("#undo")) return post(root.dataset.apiUrl + "/undo", { scope: "command" }, null, { type: "Undo", scope: "command" });
    const takeback = target.closest("#takeback");
    if (takeback) {
      const toVersion = Number(takeback.dataset.toVersion);
      return post(root.dataset.apiUrl + "/takebacks", { to_version: toVersion }, null, { type: "RequestTakeback", to_version: toVersion });
    }
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
      return settle(candidates, alone.length === 1 && candidates.length === 1, handCard);
    }
    const rowCard = target.closest("#row [data-card]");
    if (rowCard) {
      selected = [];
      selectedIndexes = new Set();
      source = { kind: "face_up", card: rowCard.dataset.card };
      return settle(matching(), true, rowCard);
    }
    if (target.closest("#stack")) {
      selected = [];
      selectedIndexes = new Set();
      source = { kind: "stack" };
      return settle(matching(), true, target.closest("#stack"));
    }
    const hex = target.closest("#board [data-hex]");
    if (hex) {
      const here = commandButtons().filter(function (b) { return b.dataset.hex === hex.dataset.hex; });
      return settle(here, true, hex);
    }
    if (hexBoard()) {
      const hexLine = target.closest("#board [data-line]");
      if (hexLine) {
        return settle(commandButtons().filter(function (b) { return b.dataset.crack === hexLine.dataset.line; }), true, hexLine);
      }
      const cell = target.closest("#board [data-cell]");
      if (cell) {
        return settle(commandButtons().filter(function (b) { return b.dataset.cell === cell.dataset.cell; }), true, cell);
      }
      return;
    }
    const line = target.closest("#board [data-line]");
    if (line) {
      const candidates = matching(line.dataset.line).filter(sameCards);
      return settle(candidates.length ? candidates : matching(line.dataset.line), true, line);
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
    await post(root.dataset.apiUrl + "/commands", { type: "EndBuild", orders: orders }, form);
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

  keyboard.install(panelBox);

  receipts.offer(document.getElementById("receipts-link"), document.getElementById("receipts-count"), function (r) {
    return r.game_id === gameId;
  });

  refresh().then(listen);
})();
