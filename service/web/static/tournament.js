// The tournament page: keeps the entrant token this browser registered with, shows that
// entrant's game with its seat link (GET /tournaments/{id}/me), registers through the JSON
// API, and swaps in the server-rendered tables after every event of the tournament's stream.
(function () {
  "use strict";
  const root = document.getElementById("tournament");
  if (!root) return;
  const id = root.dataset.tournamentId;
  const receipts = window.ArchipelagoReceipts;  // receipts.js
  const api = "/tournaments/" + encodeURIComponent(id);
  const tokenKey = "archipelago:tournament:" + id;
  let version = Number(root.dataset.version);
  let refreshing = null;

  // The token arrives in the fragment (never sent to a server) and is kept per tournament.
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("token")) {
    localStorage.setItem(tokenKey, fragment.get("token"));
    history.replaceState(null, "", location.pathname + location.search);
  }

  function link(href, text) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    return a;
  }

  async function showMe() {
    const token = localStorage.getItem(tokenKey);
    if (!token) return;
    const answer = await fetch(api + "/me", { headers: { Authorization: "Bearer " + token }, cache: "no-store" });
    if (answer.status === 401) {
      localStorage.removeItem(tokenKey);  // replaced by a later registration: this one is dead
      return;
    }
    if (!answer.ok) return;
    const me = await answer.json();
    document.getElementById("you").hidden = false;
    document.getElementById("you-entrant").textContent =
      "You are registered as " + me.name + " (" + me.entrant + ")" + (me.withdrawn ? ", withdrawn." : ".");
    document.getElementById("entrant-link").value = location.origin + location.pathname + "#token=" + token;
    const game = document.getElementById("your-game");
    game.replaceChildren();
    if (me.game) {
      const href = "/play/" + encodeURIComponent(me.game.game_id) + "#token=" + me.game.seat_token;
      game.append("Your game of round " + me.game.round + ", table " + (me.game.table + 1) + ": ");
      if (me.game.forfeited_seat !== null && !me.game.finished) {
        // the tournament has its result; the game itself is still open
        game.append(me.game.forfeited_seat === me.game.seat
          ? "you forfeited it; "
          : "seat " + (me.game.forfeited_seat + 1) + " forfeited it; ");
      }
      game.append(link(href, me.game.finished ? "see the end" : "play your seat"));
    } else {
      game.textContent = me.bye ? "You have a bye this round." : "You have no game yet.";
    }
  }

  function clearFieldErrors(form) {
    for (const slot of form.querySelectorAll("[data-field]")) {
      slot.textContent = "";
      const input = form.elements.namedItem(slot.dataset.field);
      if (input) input.removeAttribute("aria-invalid");
    }
  }

  // Each refused field's messages go next to that field, after its label's words; what names
  // no field of the form is returned to be said with the reason.
  function refusalText(form, body) {
    const elsewhere = [];
    let placed = false;
    for (const [name, messages] of Object.entries(body.errors || {})) {
      const words = [].concat(messages).join(" ");
      const slot = Array.from(form.querySelectorAll("[data-field]")).find(function (s) { return s.dataset.field === name; });
      const input = form.elements.namedItem(name);
      if (slot && input) {
        const label = input.labels && input.labels.length ? input.labels[0].textContent : slot.dataset.label || name;
        slot.textContent = label + ": " + words;
        input.setAttribute("aria-invalid", "true");
        placed = true;
      } else {
        elsewhere.push(name === "_schema" ? words : name + ": " + words);
      }
    }
    // The API's general wording points at `errors`; a person reads them where they belong.
    let reason = body.code === "invalid_request" ? "Not registered" : body.detail;
    if (elsewhere.length) reason += ": " + elsewhere.join(" ");
    else if (placed && body.code === "invalid_request") reason += ": see the reason next to the field";
    return reason;
  }

  // Signed moves (signing.js): this browser's public key goes with the registration when the
  // tournament's moves are signed, or when the person ticks "Sign my moves"; the entrant's seats
  // then hold it, and only this browser can move for them. A refusal of this page's own, if any.
  const signing = window.ArchipelagoSigning;

  async function addKey(form, registration) {
    const signed = Boolean(form.querySelector("[data-signed-moves]"));
    const chosen = form.elements.sign && form.elements.sign.checked;
    if (!signed && !chosen) return null;
    if (!signing || !signing.supported()) {
      return {
        code: "key_required",
        detail: "Not registered: this tournament's moves are signed, and this browser cannot make the key " +
          "that signs them (it needs WebCrypto and IndexedDB, over https)",
      };
    }
    try {
      registration.public_key = await signing.publicJwk();
    } catch (failure) {
      return { code: "key_required", detail: "Not registered: this browser could not make its key (" + failure.message + ")" };
    }
    form.elements.public_key.value = JSON.stringify(registration.public_key);
    return null;
  }

  function offerSigning() {
    const choice = document.querySelector("#register-signing.signing-choice");
    if (choice) choice.hidden = !signing || !signing.supported();
  }
  offerSigning();

  // Listened for on the document: a refresh replaces the form (or removes it at the start).
  document.addEventListener("submit", async function (event) {
    const form = event.target;
    if (form.id !== "register") return;
    event.preventDefault();
    const error = document.getElementById("register-error");
    const registration = { name: form.elements.name.value.trim() };
    const refusal = await addKey(form, registration);
    if (refusal) {
      clearFieldErrors(form);
      error.dataset.code = refusal.code;
      error.textContent = refusal.detail + " (" + refusal.code + ")";
      return;
    }
    // A player token (POST /players) is the registration's bearer token: the person registers
    // as that player, and its rating follows it from tournament to tournament.
    const playerToken = form.elements.player_token ? form.elements.player_token.value.trim() : "";
    const headers = { "Content-Type": "application/json", Accept: "application/json" };
    if (playerToken) headers.Authorization = "Bearer " + playerToken;
    const answer = await fetch(api + "/entrants", { method: "POST", headers: headers, body: JSON.stringify(registration) });
    const body = await answer.json();
    clearFieldErrors(form);
    if (!answer.ok && playerToken && body.code === "invalid_token" && !body.errors) {
      body.errors = { player_token: [body.detail] };
    }
    if (!answer.ok) {
      error.dataset.code = body.code;
      error.textContent = refusalText(form, body) + " (" + body.code + ")";
      return;
    }
    error.textContent = "";
    delete error.dataset.code;
    await receipts.keep(body.receipt);
    localStorage.setItem(tokenKey, body.token);
    form.reset();
    form.elements.public_key.value = "";
    refresh();
  });

  // What the service appended without this page's command (pairings, results, the close) is
  // vouched for by a receipt of the newest version, asked for on each refresh.
  async function keepNewest() {
    const answer = await fetch(api + "/receipt", { cache: "no-store" });
    if (answer.ok) await receipts.keep(await answer.json());
  }

  async function refresh() {
    keepNewest();
    const answer = await fetch(location.pathname, { cache: "no-store" });
    if (answer.ok) {
      const page = new DOMParser().parseFromString(await answer.text(), "text/html");
      const fresh = page.getElementById("tournament");
      // A page no newer than the one shown changes nothing: replacing it would only drop what
      // a person is typing into the organizer's forms (and an answer overtaken by a later one
      // would put an older tournament back).
      if (Number(fresh.dataset.version) <= version) {
        await showMe();
        return;
      }
      for (const part of ["live", "phase"]) {
        document.getElementById(part).replaceWith(page.getElementById(part));
      }
      // The registration is replaced only when it opens or closes: a refusal shown stays.
      if (!page.getElementById("register") !== !document.getElementById("register")) {
        document.getElementById("registration").replaceWith(page.getElementById("registration"));
        offerSigning();
      }
      version = Number(fresh.dataset.version);
      root.dataset.version = fresh.dataset.version;
      root.dataset.phase = fresh.dataset.phase;
    }
    await showMe();
  }

  // One refresh per burst of events: a pairing and the games it opens arrive together.
  function schedule() {
    if (refreshing) return;
    refreshing = setTimeout(function () {
      refreshing = null;
      refresh();
    }, 200);
  }

  function listen() {
    if (!window.EventSource || root.dataset.phase === "closed") return;
    const source = new EventSource(api + "/stream?after=" + version);
    source.onmessage = schedule;
    source.addEventListener("standings", schedule);
    source.onerror = function () {
      // A closed stream is reopened from the last version the page shows.
      source.close();
      if (root.dataset.phase !== "closed") setTimeout(listen, 3000);
    };
    const types = ["EntrantRegistered", "EntrantWithdrawn", "TournamentStarted", "LotsDrawn", "RoundPaired",
      "GameAssigned", "ResultRecorded", "ResultCorrected", "SeatForfeited", "ByeGiven", "RoundCompleted", "TournamentClosed"];
    types.forEach(function (type) { source.addEventListener(type, schedule); });
  }

  // The organizer's page says when its command went through: no need to wait for the stream.
  document.addEventListener("tournament:changed", schedule);

  // This tournament's receipts and those of its games (their ids start with the tournament's).
  receipts.offer(document.getElementById("receipts-link"), document.getElementById("receipts-count"), function (r) {
    return r.tournament_id === id || (typeof r.game_id === "string" && r.game_id.startsWith(id + "-r"));
  });

  showMe();
  keepNewest();
  listen();
})();
